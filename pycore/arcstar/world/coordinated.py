"""Cooperative avoidance: windowed cooperative A* (Silver 2005) plans every unit in space and
time, and the units drive those plans in their own time without ever sharing a tile.

Planning: ``search.cooperative.CooperativePlanner`` on the map's open tiles, 4 neighbours (a
diagonal step would sweep a body over the two tiles beside it), without rotations (rings of
units each stepping into the tile the next one leaves), a unit standing on a corner before it
turns for a tick or, if it pivots slowly for its speed, two (``turn_ticks``), from each unit's
tile to its goal's tile, in a few priority orders (one of them re-ordered as agents wait)
keeping the plan whose longest stand, as the units would drive it in their own time
(``plan_times``), is shortest (WHCA* lets the units it plans first go on while one planned late
waits for them all, and a tick's wait lasts as long as the units waited for take), and LaCAM
(complete) for the round when WHCA* stalls; units with nothing to do are agents whose goal is
where they stand, so they step aside for a passing unit (where there is no way round them) and
come back.
The whole run is planned at once, when units are added or removed or a unit the round has not
planned gets orders: moving units first brake to a halt, then settle on their tiles' centres
(``SETTLE_TIME``; which tile, and the way there: ``starts``), so every plan starts from standing
units on centres; and again if units end short of their goals (at most ``MAX_ROUNDS`` times
without progress), or if nobody reaches a planned tile for ``STALLED`` seconds. A unit of the
round given a new order (a move, a patrol's next leg) brakes and is planned again alone, the
others driving on (``_reorder``).

Driving: each unit follows its tiles' centres as a polyline (pivoting at corners, so turning
radii are not kept: the price of the guarantee; a unit that can reverse backs along a short run
behind it, ``orders.REVERSE_MOST``, rather than turning round on the spot), in tile order
(``tile_order``: nobody waits in a circle by the plan, and a unit the plan has wait for units
still far off goes first); ``spacing`` keeps the bodies apart meanwhile, and where a body holds
a unit that the plan has wait for it, the round is planned again.

Under fog, units plan on what their teams know (one plan for several teams: what any of them has
seen; unknown tiles open); a unit whose plan a wall they learn crosses brakes and is planned again
alone, in the plan's order, while the others drive on (``_mend``).

Giving up: when WHCA* and LaCAM find no plan, a search of every configuration (within
``PROOF_WORK``, ``search.feasible``) finds one, or proves that none exists
(``CooperativePlanner.unsolvable``, as when LaCAM searched every way they can move): then one
unit with orders gives them up, its status ``stuck`` (``_give_up``), and the round is planned
again without it.

Rounds kept: a round's plans (WHCA*'s in each priority order, LaCAM's, the search of every
arrangement's) are kept on the map they were planned on, by the agents' tiles, the free ones and
their turns; a round due again from the same tiles on the same map (a jam its plans leave short
comes due every tick up to ``MAX_ROUNDS``, the units standing) takes them back and only picks
among them again, by the units' headings (``_solve``).

Limits: units wider than a tile are planned as if a tile wide (``spacing`` still keeps their
bodies apart); the nearest of several targets is the nearest by the ground (4 neighbours) from
where the unit stood when the order was first looked at; two units on one
tile cannot both be planned: the one further off the centre starts on a free tile beside it if
it can get there, else it is left out, standing, with its status saying why.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from typing import TYPE_CHECKING

from ..collision.swept import swept_line_clear
from ..geometry.primitives import Pose
from ..maps.tilemap import TileMap
from ..outcomes import BadInput, Status
from ..planner import PlanResult
from ..search.cooperative import CooperativePlanner
from ..search.sliced import Sliced
from .avoidance import Avoider, Tile, body_tiles
from .orders import Order, OrderKind, Point, Route, route_from, tile_of
from .plan_times import visits_of
from .rounds import (
    MAX_TICKS,
    STALL,
    WINDOW,
    apart,
    best_plan,
    first_reached,
    free_near,
    goal_tiles,
    other_orders,
    own_claim,
    turn_ticks,
    way_alone,
)
from .spacing import MARGIN
from .starts import OFF_CENTRE, passes_bodies, settle_route, starts
from .state import UnitStatus
from .tile_order import TileOrder

if TYPE_CHECKING:
    from .state import Host as World
    from .state import UnitState

#: Planning rounds in a row that may leave units short of their goals with nobody closer.
MAX_ROUNDS = 3
#: The longest units take to settle on their tile centres before a round is planned (s; a
#: person crosses half a tile in well under a second, a tank turning first in a few).
SETTLE_TIME = 4.0
#: Successors the search of every configuration may look at (``search.feasible``), when WHCA*
#: and LaCAM found no plan: about 0.4 s on CPython, and only where they fail (no door, swap or
#: crowd we run); it settles small closed places either way (a plan, or a proof that none
#: exists: six units in a corridor with two bays took 41,000 configurations) and gives up on
#: open ones.
PROOF_WORK = 600_000
#: How many units are tried as the one to give up its orders when no plan exists
#: (``Cooperative._give_up``: a search each).
GIVE_UP_TRIES = 4
#: Configurations LaCAM may search when WHCA* stops short (a round of 20 people at a door takes
#: tens; a few thousand is a fraction of a second, so a round stays a short pause).
COMPLETE = 5000
#: Rounds of at most this many units are planned in a few priority orders, the best kept.
ORDERS_UP_TO = 40
#: Seconds in which no unit reaches its next planned tile, with plans unfinished, after which
#: the round is planned again (a plan step takes a person under a second, a tank a few).
STALLED = 8.0
#: Rounds in a row planned again because units stood (``STALLED``, ``RING_AFTER``) with none of
#: them nearer its goal than at any round before (the tiles left, summed): the plans are not
#: driven as planned (bodies a tile wide cannot stand on neighbouring tiles' centres, say), and
#: one unit gives its orders up (``_futile``), as when no plan exists.
FUTILE_ROUNDS = 3
#: Rounds' plans kept on the map they were planned on (``Cooperative._solve``): a jam's rounds
#: come again while its units stand; a few plans of a few hundred tiles.
KEPT_ROUNDS = 8

def _stuck(u: UnitState) -> None:
    """``u`` gives up its orders where it stands: no plan brings it to its goal."""
    u.tell(UnitStatus.STUCK)
    u.order, u.arrived, u.resting = None, None, UnitStatus.STUCK
    u.queue.clear()


class Cooperative(Avoider):
    """Windowed cooperative A*, driven by tile order (module notes)."""

    name = "cooperative"
    standoff = False  # the plan orders who goes first; bodies need only their margin

    def __init__(self, members: set[str] | None = None, hand_back: bool = True) -> None:
        super().__init__()
        self.members = members
        #: A jam's plan that cannot untangle its units in ``MAX_ROUNDS`` hands them back to the
        #: local rules (``handed_back``), or, when not ``hand_back``, has those short of their
        #: goals give up, as the world's own plan does (``methods.Local`` decides which).
        self.hand_back = hand_back
        self.handed_back = False
        self.dirty = True
        self.driving = TileOrder()  # the round's plans, driven in tile order
        self.mending: set[str] = set()  # units braking to be planned again alone (``_mend``)
        self.settling: dict[str, Point] | None = None
        self.settle_until = -1.0
        self.rounds = 0
        self.left: float = math.inf
        self.futile = 0  # rounds in a row due to units standing, none nearer its goal (FUTILE_ROUNDS)
        self.nearest_sum: float = math.inf  # the least tiles left to the goals at a round, summed
        self.restart = False  # the next round is due because units stood (stalled, or in a ring)
        self.seen: tuple[int, int] = (0, -1)
        self.done: int | None = None  # the plans' progress summed, when it last changed
        self.active = 0.0
        self._job: Sliced[None] | None = None  # the round being planned, the world's ``plan_work`` a tick
        self.nearest: dict[str, tuple[Order, Tile]] = {}  # the target each unit's nearest order took
        self.left_out: set[str] = set()  # units the last round left out (``_starts``)

    @property
    def planning(self) -> bool:
        """Whether a round is being planned (its units stand till it is done)."""
        return self._job is not None

    def changed(self, world: World) -> None:
        self.dirty = True
        self.futile, self.nearest_sum = 0, math.inf
        if self._job is not None:  # planned for units or orders that are no more: afresh
            self._job.close()
            self._job = None

    def mine(self, world: World) -> list[UnitState]:
        """The units this plans: all, or its ``members`` (a jam handed over by local avoidance)."""
        if self.members is None:
            return world.units
        return [u for u in world.units if u.spec.id in self.members]

    def held(self, world: World, u: UnitState, by: UnitState | None, now: float) -> None:
        """Held units wait: the plan orders who goes first. But a unit held by a standing body
        that waits for it would wait for good: the round is planned again (``TileOrder.held``)."""
        if self.driving.held(u.spec.id, by.spec.id if by is not None and by.speed == 0.0 else None, now):
            self.dirty = self.restart = True

    def keeps(self, u: UnitState) -> tuple[bool, float]:
        """No standoff (the plan orders who goes first), and no margin on the way to its first
        tile's centre (settling, or a plan that started it off centre): two wide bodies pressed
        together off their centres, each way passing within the margin of the other, held each
        other for good."""
        plan = self.driving.plans.get(u.spec.id)
        if (plan is not None and plan.progress < 0) or (self.settling is not None and u.spec.id in self.settling):
            return False, 0.0
        return False, MARGIN

    def may_start(self, world: World, u: UnitState, now: float) -> bool:
        """Not while a round is due or being planned; a unit whose order changed since its round
        (a timed order comes in its own turn, after the round's look) is planned again alone
        (``_reorder``), or else the round is planned again, and the unit waits for it."""
        if self.dirty or self._job is not None:
            return False
        order = u.next_order
        if order is not None and not order.aside:  # (a step aside is the plan's own, or a way made)
            want = self._want(world, u)
            plan = self.driving.plans.get(u.spec.id)
            if want is not None and (plan is None or plan.want != want):
                if plan is None and self.sits_out(u):
                    return False
                if plan is not None and self._reorder(world, u, want):
                    return True
                self.dirty = True
                return False
        return True

    def sits_out(self, u: UnitState) -> bool:
        """Whether ``u`` was left out of the round (``_starts``) while the others still drive
        it: it is planned again once they are through, not every tick (rounds planned tick after
        tick, each leaving it out again, were all a world of five did)."""
        return u.spec.id in self.left_out and any(p.progress < len(p.visits) - 1 for p in self.driving.plans.values())

    # -- planning ------------------------------------------------------------------------------
    def _want(self, world: World, u: UnitState) -> Tile | None:
        """The tile ``u``'s current or next order takes it to (None: it has none); of several
        targets, the one nearest by the ground when the order was first looked at (kept for the
        order, so a unit does not change its mind as it goes)."""
        order = u.next_order
        if order is None or order.kind is OrderKind.STOP:
            return None
        if order.kind is OrderKind.PATROL:
            p = order.points[u.leg % len(order.points)] if u.order is not None else order.points[0]
        elif order.kind is OrderKind.NEAREST:
            chosen = self.nearest.get(u.spec.id)
            if chosen is None or chosen[0] is not order:
                tiles = [tile_of(q[0], q[1]) for q in order.points]
                first = first_reached(world.known_map(u).blocked, tile_of(u.x, u.y), set(tiles))
                if first is None:  # none can be reached: the nearest as the crow flies
                    first = min(tiles, key=lambda t: math.hypot(t[0] + 0.5 - u.x, t[1] + 0.5 - u.y))
                chosen = self.nearest[u.spec.id] = (order, first)
            return chosen[1]
        else:
            p = order.points[0]
        return tile_of(p[0], p[1])

    def _known(self, world: World) -> TileMap:
        """The map to plan on: what the units' teams know under fog (one plan for all: what any
        of them has seen), remembered with its version so a discovery re-plans."""
        known = world.known_to(self.mine(world))
        self.seen = (id(known), known.version)
        return known

    def before(self, world: World, now: float) -> None:
        self.driving.last_tick = now - world.dt  # bodies that held units since then hold them still
        if self._job is not None:
            self._work_on(world)
            return
        units = self.mine(world)
        for u in units:  # a unit that stopped on its last tile has reached it (room no longer runs)
            plan = self.driving.plans.get(u.spec.id)
            if plan is not None and u.mover is None and tile_of(u.x, u.y) == plan.visits[-1][0]:
                plan.progress = len(plan.visits) - 1
        if not self.dirty and units:
            known = world.known_to(units)
            if (id(known), known.version) != self.seen:
                self.seen = (id(known), known.version)  # the team learned something: units whose
                self._mend(world, self._crossed(known))  # plans a wall found crosses plan again
        if not self.dirty and self.mending:
            self._mended(world)
        if not self.dirty:
            self.dirty = self.restart = self._stalled(now)
        if not self.dirty:
            for u in self.mine(world):
                want = self._want(world, u)
                plan = self.driving.plans.get(u.spec.id)
                if plan is None and self.sits_out(u):
                    continue
                if u.mover is None and want is not None and (
                        plan is None or plan.want != want or (plan.visits[-1][0] != plan.goal and u.detour is None)):
                    if plan is not None and plan.want != want and self._reorder(world, u, want):
                        continue
                    self.dirty = True
                    break
        if not self.dirty:
            return
        if self.settling is not None:
            going = [u for u in units if u.spec.id in self.settling and (u.mover is not None or u.detour is not None)]
            if going and now < self.settle_until:
                return
            for u in going:  # out of time: stop where it is
                u.detour = None
            self.settling = None
        moving = [u for u in units if u.mover is not None]
        for u in moving:
            u.mover.brake()  # type: ignore[union-attr]
        if moving:
            return
        if self.settle_until < 0.0 and self._settle(world, now):
            return
        self.settle_until = -1.0
        self._job = self._plan(world)
        self._work_on(world)

    def _work_on(self, world: World) -> None:
        """Plan the round on for the world's ``plan_work`` (``search.sliced``: the planner's
        expansions, tiles swept and LaCAM's agent moves), then let the tick go on; the rest
        next tick (None: to the end now)."""
        assert self._job is not None
        budget, spent = world.plan_work, 0
        try:
            while budget is None or spent < budget:
                spent += next(self._job)
        except StopIteration:
            self._job = None

    def _stalled(self, now: float) -> bool:
        """Whether the plans have stood still for ``STALLED`` seconds with some unit short of the
        end of its plan: nobody reached a tile's centre (the plan's order cannot be kept from
        where units stood when it started): plan again from where they stand."""
        done = sum(max(p.progress, -1) for p in self.driving.plans.values())
        if done != self.done or all(p.progress >= len(p.visits) - 1 for p in self.driving.plans.values()):
            self.done, self.active = done, now
            return False
        return now - self.active >= STALLED

    def _settle(self, world: World, now: float) -> bool:
        """Send each unit whose body is not on its start tile alone to that tile's centre (in a
        straight line, within its own tile), so that the round plans from units on tile centres
        (none holds another's tile, and followers may close up). Returns whether any goes."""
        self.settling = {}
        self.driving.clear()  # the last round's plans no longer hold: nobody waits on them
        for u, start in self._starts(world):
            centre = (start[0] + 0.5, start[1] + 0.5, None)
            here = tile_of(u.x, u.y)
            if body_tiles(u.x, u.y, u.spec.width) | {here} != {start}:
                self.settling[u.spec.id] = centre
                u.detour = centre
                if here != start and self._want(world, u) is None and own_claim(u, here):
                    # resting on its goal, it moves over for another on its tile that could not:
                    # it steps back there in the plan (settled, it took the tile beside as its
                    # own, and rested there for good, its goal lost)
                    u.queue.append(Order(OrderKind.MOVE, ((u.x, u.y, u.heading),), aside=True))
        if not self.settling:
            self.settling = None
            return False
        self.settle_until = now + SETTLE_TIME
        return True

    def _starts(self, world: World) -> list[tuple[UnitState, Tile]]:
        """``starts.starts`` for this plan's units; a unit left with no tile of its own is left out,
        its status saying why (a jam would take it in again, and again)."""
        out, left = starts(world, self.mine(world))
        self.left_out = {u.spec.id for u in left}
        for u in left:
            u.tell(UnitStatus.WAITING, "cooperative: shares its tile with another unit")
            if self.members is not None:
                self.members.discard(u.spec.id)
        return out

    def _crossed(self, known: TileMap) -> list[str]:
        """The units with a tile still ahead on their plans blocked on ``known``."""
        blocked = known.blocked
        return [uid for uid, plan in self.driving.plans.items()
                if any(blocked[t[1], t[0]] for t, _ in plan.visits[max(plan.progress, 0):])]

    def _mend(self, world: World, crossed: list[str]) -> None:
        """Have the units of ``crossed`` (whose plans a wall learned under fog crosses) brake, to
        be planned again alone once they stand (``_mended``), the rest driving on (the design
        notes say why); a unit with no order of its own (stepping aside), or any unit of a jam's
        plan, has the round planned again."""
        for uid in crossed:
            plan = self.driving.plans[uid]
            if plan.want is None or self.members is not None:
                self.dirty = True
                return
            u = world.find(uid)
            if u is not None:
                self.mending.add(uid)
                if u.mover is not None:
                    u.mover.brake()

    def _mended(self, world: World) -> None:
        """Plan each unit of ``mending`` that now stands again alone (``_alone``); one that finds
        no way so has the round planned again."""
        known = world.known_to(self.mine(world))
        for uid in sorted(self.mending):
            u = world.find(uid)
            if u is None or uid not in self.driving.plans:
                self.mending.discard(uid)
            elif u.mover is None:
                self.mending.discard(uid)
                if not self._alone(world, u, known):
                    self.dirty = True
                    return

    def ordered(self, world: World, u: UnitState, order: Order) -> None:
        """A unit of the plan given a move, a patrol or the nearest of several targets is planned
        again alone once it stands (``_reorder``), the others driving on; a stop, or a unit the
        plan has not planned, has the round planned again (``changed``)."""
        if order.kind is OrderKind.STOP or u.spec.id not in self.driving.plans:
            self.changed(world)

    def _reorder(self, world: World, u: UnitState, want: Tile) -> bool:
        """Plan ``u``, standing with an order of its own to ``want`` its plan was not made for,
        again alone (``_alone``), from the plan's clock now (the latest tick a unit has reached:
        its own plan may have ended long ago). Returns whether it was: else the round is due."""
        order = u.next_order
        plans = self.driving.plans
        if order is None or order.aside or order.kind is OrderKind.STOP or u.spec.id not in plans \
                or self.members is not None:  # (a jam's plan is planned again whole, as in ``_mend``)
            return False
        known = world.known_to(self.mine(world))
        goal = want
        taken = {p.visits[-1][0]: p.want for vid, p in plans.items() if vid != u.spec.id}
        if want in taken:  # another's plan ends there: if on its own goal, the free tile nearest
            if taken[want] != want:  # (one resting there, or stepping aside and back, makes way: the round)
                return False
            here = tile_of(u.x, u.y)
            goal = free_near(known.blocked, want, set(taken) - {here}, here, set(taken) - {here})
        clock = max(p.visits[max(p.progress, 0)][1] for p in plans.values())
        return self._alone(world, u, known, (goal, want), clock)

    def _alone(self, world: World, u: UnitState, known: TileMap, aim: tuple[Tile, Tile | None] | None = None,
               clock: int | None = None) -> bool:
        """Plan ``u`` again on its own, from its tile to its plan's goal (or to ``aim``'s goal
        for the tile it wants, from plan tick ``clock``) on ``known`` (``rounds.way_alone``),
        clear of the tiles other plans end on and of the bodies of units left out. On each tile
        of the way it takes its turn by the plan's clock where it is now (``TileOrder.replace``),
        unless every plan can then no longer be driven to its end (``TileOrder.completes``: a
        unit following it, planned there after it, that must pass through where it stands); then
        it goes after every unit planned there, and a ring can close only through bodies, which
        ``held`` catches. Returns whether a way was found."""
        uid = u.spec.id
        plans = self.driving.plans
        here = tile_of(u.x, u.y)
        goal, wants = (plans[uid].goal, plans[uid].want) if aim is None else aim
        ends = {p.visits[-1][0] for vid, p in plans.items() if vid != uid}
        if goal in ends or known.blocked[goal[1], goal[0]] or known.blocked[here[1], here[0]]:
            return False
        ends |= {t for v in self.mine(world) if v.spec.id not in plans for t in body_tiles(v.x, v.y, v.spec.width)}
        tiles = way_alone(known, here, goal, ends - {here, goal}, turn_ticks(u.spec))
        if tiles is None:
            return False
        covers = body_tiles(u.x, u.y, u.spec.width) | {here}
        if clock is None:  # where it is on its own plan
            ticks = [t for _, t in plans[uid].visits]
            k = max(plans[uid].progress, 0)
            clock = ticks[k] if ticks[k] >= 0 or k + 1 == len(ticks) else ticks[k + 1] - 1  # (-1: mended before)
        self.driving.replace(uid, tiles, covers, goal, wants, max(clock, 0))
        if not self.driving.completes(self.driving.first):
            self.driving.replace(uid, tiles, covers, goal, wants)  # last: a ring through bodies is caught (``held``)
        return True

    def _plan(self, world: World) -> Sliced[None]:
        """Plan a round (``_work_on`` runs it a tick's work at a time)."""
        self.dirty = False
        self.driving.clear_holds()
        self.done = None
        self.driving.clear()
        self.mending.clear()
        placed = self._starts(world)
        units, firsts = [u for u, _ in placed], [t for _, t in placed]
        wants = [self._want(world, u) for u in units]
        own = [own_claim(u, start if want is None else want)
               for u, start, want in zip(units, firsts, wants, strict=True)]
        agents = list(zip(firsts, goal_tiles(world.map.blocked, firsts, wants, own), strict=True))
        if not units:
            return
        # units standing idle off their own goals may end anywhere, as far as a proof goes
        free = [i for i, (want, mine) in enumerate(zip(wants, own, strict=True)) if want is None and not mine]
        solved = yield from self._solve(world, units, agents, free)
        if solved is None:
            return
        history, proved, planner = solved
        left = sum(h[-1] != g for h, (_, g) in zip(history, agents, strict=True))
        self.rounds = 0 if left < self.left or left == 0 else self.rounds + 1
        self.left = left if left else math.inf
        for u, (_start, goal), want, tiles in zip(units, agents, wants, history, strict=True):
            visits = visits_of(tiles)
            self.driving.add(u.spec.id, visits, goal, want, body_tiles(u.x, u.y, u.spec.width) | {tile_of(u.x, u.y)})
            if self._want(world, u) is None and len(visits) > 1:  # idle, but asked to step aside
                back: Point = (u.x, u.y, u.heading)
                if proved and visits[-1][0] != goal:  # the search's plan leaves it elsewhere for good
                    back = (visits[-1][0][0] + 0.5, visits[-1][0][1] + 0.5, None)
                u.queue.append(Order(OrderKind.MOVE, (back,), aside=True))
        # only a unit's own order can be given up: not a step aside (an arrived unit making way
        # was given up for the units it made way for, its goal lost, and the rounds went on)
        sent = [want if u.next_order is not None and not u.next_order.aside else None
                for u, want in zip(units, wants, strict=True)]
        if planner is not None and planner.unsolvable:
            yield from self._give_up(planner, units, agents, sent, free, history)
        elif self._futile(agents, sent):
            self._stuck_farthest(units, agents, sent, history)
        elif self.rounds >= MAX_ROUNDS and self.members is not None and self.hand_back:
            self.members.clear()  # a jam it cannot untangle, maybe for want of search: hand the units back
            self.handed_back = True
        elif self.rounds >= MAX_ROUNDS:
            self.rounds = 0
            short = [u for u, want in zip(units, sent, strict=True)
                     if want is not None and (plan := self.driving.plans[u.spec.id]).visits[-1][0] != plan.goal]
            for u in short:
                _stuck(u)
            if not short:
                self._asides_given_up(units, agents, history)

    def _solve(self, world: World, units: list[UnitState], agents: list[tuple[Tile, Tile]], free: list[int]
               ) -> Sliced[tuple[list[list[Tile]], bool, CooperativePlanner | None] | None]:
        """The round's plan (each unit's tiles), whether the search of every arrangement settled
        it, and the planner when it planned now (None: plans kept from the same round before);
        None when a goal is out of reach (that unit fails, the rest are planned next tick).
        WHCA*'s plans in each priority order, LaCAM's and the search of every arrangement's
        depend only on the agents, the free ones, their turns and the map, so they are kept on
        the map (``KEPT_ROUNDS``; dropped when it changes), and only the pick among them, which
        reads the units' headings, is made again: a jam its plans leave short is planned again
        every tick up to ``MAX_ROUNDS``, each time the same, seconds of CPU each in a corridor
        no plan settles (module notes)."""
        known = self._known(world)
        kept: OrderedDict[tuple[object, ...], tuple[list[list[list[Tile]]], bool]] = \
            known.cached("world:rounds", OrderedDict)
        turns = [turn_ticks(u.spec) for u in units]
        key = (tuple(agents), tuple(free), tuple(turns))
        hit = kept.get(key)
        planner: CooperativePlanner | None = None
        if hit is not None:
            kept.move_to_end(key)
            plans, proved = hit
        else:
            try:
                planner = CooperativePlanner(known, agents, WINDOW, neighbours=4, rotations=False, turn_wait=turns,
                                             prepare=False)
                yield from planner.preparing()
            except BadInput as e:  # a goal out of reach: plan the rest, that one stays
                i = int(e.field.split("[")[1].split("]")[0]) if e.field.startswith("agents[") else -1
                if i < 0:
                    raise
                why = "its goal cannot be reached from where it stands" if e.field.endswith(".goal") else str(e)
                units[i].fail(f"no route: {Status.NO_PATH}: {why}")
                self.dirty = True
                return None
            history = yield from planner.solving(MAX_TICKS, stall=STALL, complete=COMPLETE)
            proved = False
            if not planner.arrived and (not planner.unsolvable or free):  # settle it: a plan, or none
                history = yield from planner.proving(PROOF_WORK, free)
                proved = planner.completed or planner.unsolvable
            plans = [history]
            if len(agents) <= ORDERS_UP_TO and not proved:
                # other orders for a better plan, LaCAM (where WHCA* stops short in one) on a
                # quarter of its budget in each: a round's doors never need it there, and a
                # corridor's jam spent seconds a tick on orders whose LaCAM found nothing
                plans += yield from other_orders(planner, agents, COMPLETE // 4)
            if not planner.unsolvable:  # (a proof that none exists gives a unit up: never the same again)
                kept[key] = (plans, proved)  # (read only, here and by the world: kept as they are)
                while len(kept) > KEPT_ROUNDS:
                    kept.popitem(last=False)
        history = best_plan(plans, [u.spec for u in units], [u.heading for u in units], agents)
        return history, proved, planner

    def _give_up(self, planner: CooperativePlanner, units: list[UnitState], agents: list[tuple[Tile, Tile]],
                 wants: list[Tile | None], free: list[int], history: list[list[Tile]]) -> Sliced[None]:
        """No plan exists for these units: one unit with orders gives them up (``_stuck``), and
        the rest are planned again without it, one at a time, so no unit that can still get
        through is stopped. The units with orders are taken in turn: those the best plan found
        leaves short of their goals first, each lot farthest from its goal first (tiles, 4
        neighbours, from where it stands: not one on its goal that the plan has make way). The
        one to give up is the first of the ``GIVE_UP_TRIES`` first without which the others can
        all get through (``CooperativePlanner.reaching``), else the first."""
        ways = sorted(((h[-1] != g, apart(s, g), -k, k)
                       for k, ((s, g), want, h) in enumerate(zip(agents, wants, history, strict=True))
                       if want is not None), reverse=True)
        if not ways:
            self._asides_given_up(units, agents, history)
            return
        pick = ways[0][3]
        for *_, k in ways[:GIVE_UP_TRIES]:
            reach = yield from planner.reaching(PROOF_WORK, [*free, k])
            if reach.answer:
                pick = k
                break
        _stuck(units[pick])
        self.rounds = 0
        self.dirty = True

    def _futile(self, agents: list[tuple[Tile, Tile]], wants: list[Tile | None]) -> bool:
        """Whether ``FUTILE_ROUNDS`` rounds in a row have been planned because units stood, with
        the units with orders no nearer their goals (tiles left, summed) than at any round
        before (a round nearer starts the count again)."""
        left = sum(apart(s, g) for (s, g), want in zip(agents, wants, strict=True) if want is not None)
        if left < self.nearest_sum:
            self.nearest_sum, self.futile = left, 0
        elif self.restart:
            self.futile += 1
        self.restart = False
        return self.futile >= FUTILE_ROUNDS

    def _stuck_farthest(self, units: list[UnitState], agents: list[tuple[Tile, Tile]],
                        wants: list[Tile | None], history: list[list[Tile]]) -> None:
        """The unit with orders farthest from its goal gives them up (the last such of the
        plan's order on a tie); the rest are planned again without it."""
        ways = [(apart(s, g), k)
                for k, ((s, g), want) in enumerate(zip(agents, wants, strict=True)) if want is not None and s != g]
        if ways:
            _stuck(units[max(ways)[1]])
        else:
            self._asides_given_up(units, agents, history)
        self.futile, self.nearest_sum = 0, math.inf
        self.dirty = True

    def _asides_given_up(self, units: list[UnitState], agents: list[tuple[Tile, Tile]],
                         history: list[list[Tile]]) -> None:
        """When no unit with its own orders is left to give them up, the units whose step aside
        (or back) the plan leaves short give that up where they stand (``UnitState.fail``, not
        an own order's failure, as when a step aside finds no route): rounds planned for a
        step aside that no plan completes came due again every tick, for good (a tank sent back
        into a pocket past a unit that had given up in its mouth, a second of CPython a tick)."""
        for u, (_, goal), h in zip(units, agents, history, strict=True):
            order = u.next_order
            if order is not None and order.aside and h[-1] != goal:
                u.fail(f"no route: {Status.NO_PATH}: no plan brings it there past the other units", own=False)
                self.dirty = True

    # -- driving -------------------------------------------------------------------------------
    def route(self, world: World, u: UnitState, goals: tuple[Point, ...]) -> Route | None:
        plan = self.driving.plans.get(u.spec.id)
        if self.settling is not None and u.spec.id in self.settling:
            return settle_route(world, u, self.settling[u.spec.id])
        if self.dirty and u.detour is not None:
            return Route(None)  # a round is due: the drive to an old plan's end is dropped, not restarted
        if plan is None:
            return Route(None, message="cooperative: not planned")
        plan.start = max(plan.progress, 0)
        tiles = [t for t, _ in plan.visits[plan.start:]]
        end = tiles[-1]
        goal: Point | None = next((g for g in goals if tile_of(g[0], g[1]) == end), None)
        if goal is None:
            goal = (end[0] + 0.5, end[1] + 0.5, None)
            if end != plan.goal:  # the plan stops short of the goal: drive there, then plan again
                u.detour = goal
        plan.lead = math.hypot(tiles[0][0] + 0.5 - u.x, tiles[0][1] + 0.5 - u.y)
        if plan.lead > OFF_CENTRE and len(tiles) > 1 and tile_of(u.x, u.y) == tiles[0]:
            nxt = (tiles[1][0] + 0.5, tiles[1][1] + 0.5)
            ahead = math.hypot(nxt[0] - u.x, nxt[1] - u.y)
            if self.driving.cleared(u.spec.id, plan.visits[plan.start + 1]) and \
                    self.driving.needed(u.spec.id, plan, plan.start) and \
                    swept_line_clear(world.map, (u.x, u.y), nxt, u.spec.width) and \
                    passes_bodies(world, u, (u.x, u.y), nxt, MARGIN):
                # off its tile's centre and free to leave it (``_needed``: a unit on its goal that
                # steps aside later waits on the goal's centre, not short of it, where the plan's
                # count of visits put the centre along this line): straight on to the next (the unit
                # that follows into this tile may have closed up to where the centre's far side
                # is), unless that line cuts past a body beside it (a unit there may be planned
                # to wait for this one, and spacing would hold this one for it); a unit that must
                # wait for the next tile waits on its centre, out of the way of the ones before it
                tiles, plan.lead = tiles[1:], ahead - 1.0
        if len(tiles) == 1:
            tiles = []
        return route_from(PlanResult(Status.FOUND, path=tiles), Pose(u.x, u.y, u.heading), goal, u.spec.can_reverse)

    def room(self, world: World, u: UnitState) -> tuple[float, UnitState | None]:
        """How far ``u`` may drive by the plan (``TileOrder.room``)."""
        if u.mover is None or u.spec.id not in self.driving.plans:
            return math.inf, None
        return self.driving.room(world, u.spec.id, u.mover.s), None
