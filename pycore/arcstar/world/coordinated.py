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
The whole run is planned at once, when orders change: moving units first brake to a halt, then
settle on their tiles' centres (``SETTLE_TIME``; which tile, and the way there: ``starts``), so
every plan starts from standing units on centres; and again if units end short of their goals
(at most ``MAX_ROUNDS`` times without progress), or if nobody reaches a planned tile for
``STALLED`` seconds.

Driving (an action dependency graph, after Hoenig et al. 2019): each unit follows its tiles'
centres as a polyline (pivoting at corners, so turning radii are not kept: the price of the
guarantee; a unit that can reverse backs along a short run behind it, ``orders.REVERSE_MOST``,
rather than turning round on the spot) and may drive into a tile only when every other unit
planned there earlier has reached that tile's centre (a unit that started off its tile holds the tiles its body covers
until it reaches the centre of its first). A unit waits only for units planned to be there
earlier, or for one leaving the tile in the same tick, and such same-tick chains never close
into a ring (no rotations), so nobody waits in a circle by the plan; ``spacing`` keeps the
bodies apart meanwhile, and where a body holds a unit that the plan has it wait for (ways to
first centres that cross), the round is planned again (``RING_AFTER``). A unit resting on its
goal that the plan has step aside leaves only when the unit it makes way for is near.

Under fog, units plan on what their teams know (one plan for several teams: what any of them has
seen; unknown tiles open) and plan again when a wall they learn lies on a plan.

Giving up: when WHCA* and LaCAM find no plan, a search of every configuration (within
``PROOF_WORK``, ``search.feasible``) finds one, or proves that none exists
(``CooperativePlanner.unsolvable``, as when LaCAM searched every way they can move): then one
unit with orders gives them up, its status ``stuck`` (``_give_up``), and the round is planned
again without it.

Limits: units wider than a tile are planned as if a tile wide (``spacing`` still keeps their
bodies apart); the nearest of several targets is the nearest by the ground (4 neighbours) from
where the unit stood when the order was first looked at; two units on one
tile cannot both be planned: the one further off the centre starts on a free tile beside it if
it can get there, else it is left out, standing, with its status saying why.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
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
from .rounds import MAX_TICKS, STALL, WINDOW, apart, best_order, first_reached, goal_tiles, turn_ticks
from .spacing import MARGIN
from .starts import OFF_CENTRE, passes_bodies, settle_route, starts
from .state import UnitStatus

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
#: How many units resting on their goals, each stepping aside for the next, ``_needed`` follows
#: (a few: such chains are short, and each link is a wait on something planned earlier).
CHAIN = 4
#: Seconds a unit may stand held by a body that waits, by the plan, for it (a ring the plan's
#: order cannot see: ways to first centres that cross where bodies stand) before the round is
#: planned again. Such rings last for good; shorter ones undo themselves (a unit pivoting in
#: place, one braking): at 1 s, tank doors re-planned for those and stood longer.
RING_AFTER = 3.0
#: Rounds in a row planned again because units stood (``STALLED``, ``RING_AFTER``) with none of
#: them nearer its goal than at any round before (the tiles left, summed): the plans are not
#: driven as planned (bodies a tile wide cannot stand on neighbouring tiles' centres, say), and
#: one unit gives its orders up (``_futile``), as when no plan exists.
FUTILE_ROUNDS = 3
#: A unit the plan has wait on a tile for units still this many tiles off (by their plans and
#: as the crow flies) may go first (``Cooperative._go_first``). At 8, units at doors of cars
#: swapped places in a room and stood longer (a door's criterion lost); at 16 no door, swap,
#: corridor or junction we run changes.
FAR_BEHIND = 16
#: Seconds before a unit refused the first place (``_go_first``) asks again: the units it waits
#: for come no nearer faster than a few tiles a second, and asking costs a walk of its plan.
CHECK_FIRST = 1.0
#: The most units one unit goes first over at once (``_go_first``): those it would wait for on
#: the tiles it shares with the first of them too (else a third, planned between the two, closes
#: a ring), each far off.
FIRST_OVER = 8


def _stuck(u: UnitState) -> None:
    """``u`` gives up its orders where it stands: no plan brings it to its goal."""
    u.tell(UnitStatus.STUCK)
    u.order, u.arrived, u.resting = None, None, UnitStatus.STUCK
    u.queue.clear()


@dataclass
class Schedule:
    """One unit's plan: the tiles it visits in order with the tick it enters each, the tile it
    was given as its goal (``want``, or a free one near it when another unit has that one, or
    its own when it has no order); ``progress`` the last visit whose centre it reached (-1: it
    is still on its way to its first tile's centre, and holds the tiles its body covers). Its
    route starts at visit ``start``, whose centre is ``lead`` tiles from where the unit stood,
    so visit k's centre is ``lead + k - start`` along it. ``cleared``: the last visit it may
    drive to (every unit planned on its tiles before it has gone on); it never goes back, as
    progress never does, so ``room`` looks on from there."""

    visits: list[tuple[Tile, int]]
    goal: Tile
    want: Tile | None
    lead: float = 0.0
    start: int = 0
    progress: int = 0
    cleared: int = -1


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
        self.plans: dict[str, Schedule] = {}
        self.by_tile: dict[Tile, list[tuple[int, str, int]]] = {}
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
        self.last_tick = -math.inf  # the time of the last tick (``before``)
        self.bodies: dict[str, tuple[str, float]] = {}  # unit -> the body holding it, when
        self.ring_since: dict[str, float] = {}
        self._job: Sliced[None] | None = None  # the round being planned, the world's ``plan_work`` a tick
        self.nearest: dict[str, tuple[Order, Tile]] = {}  # the target each unit's nearest order took
        self.left_out: set[str] = set()  # units the last round left out (``_starts``)
        #: pairs of units (ids in order) whose order the driving changed (``_go_first``): the id
        #: of the one that goes first, and the tiles where it does
        self.first: dict[tuple[str, str], tuple[str, frozenset[Tile]]] = {}
        self.refused: dict[str, float] = {}  # unit -> when it may ask to go first again (``_go_first``)

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
        that waits for it (by the plan's order, or held by its body in turn, or through others
        so) would wait for good: after ``RING_AFTER`` the round is planned again from there."""
        uid = u.spec.id
        if by is None or by.speed != 0.0 or by.spec.id not in self.plans:
            self.bodies.pop(uid, None)
            self.ring_since.pop(uid, None)
            return
        self.bodies[uid] = (by.spec.id, now)
        if not self._waits_for(by.spec.id, uid, now):
            self.ring_since.pop(uid, None)
            return
        if now - self.ring_since.setdefault(uid, now) >= RING_AFTER:
            self.dirty = self.restart = True

    def _waits_for(self, start: str, uid: str, now: float) -> bool:
        """Whether ``start`` stands waiting for ``uid``: held by its body, or at the last centre
        its plan lets it reach with ``uid`` planned on the next tile before it, or so through
        other units that wait."""
        seen, todo = {start}, [start]
        while todo:
            vid = todo.pop()
            nxt: list[str] = []
            body = self.bodies.get(vid)
            if body is not None and body[1] >= now - 1e-9:
                nxt.append(body[0])
            plan = self.plans.get(vid)
            if plan is not None and plan.progress >= plan.cleared and plan.cleared + 1 < len(plan.visits):
                nxt += self._ahead_of(vid, plan.visits[plan.cleared + 1])
            for w in nxt:
                if w == uid:
                    return True
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        return False

    def keeps(self, u: UnitState) -> tuple[bool, float]:
        """No standoff (the plan orders who goes first), and no margin on the way to its first
        tile's centre (settling, or a plan that started it off centre): two wide bodies pressed
        together off their centres, each way passing within the margin of the other, held each
        other for good."""
        plan = self.plans.get(u.spec.id)
        if (plan is not None and plan.progress < 0) or (self.settling is not None and u.spec.id in self.settling):
            return False, 0.0
        return False, MARGIN

    def may_start(self, world: World, u: UnitState, now: float) -> bool:
        """Not while a round is due or being planned; nor for a unit whose order changed since
        its round (a timed order comes in its own turn, after the round's look): the round is
        then planned again, and the unit waits for it."""
        if self.dirty or self._job is not None:
            return False
        order = u.next_order
        if order is not None and not order.aside:  # (a step aside is the plan's own, or a way made)
            want = self._want(world, u)
            plan = self.plans.get(u.spec.id)
            if want is not None and (plan is None or plan.want != want):
                if plan is None and self.sits_out(u):
                    return False
                self.dirty = True
                return False
        return True

    def sits_out(self, u: UnitState) -> bool:
        """Whether ``u`` was left out of the round (``_starts``) while the others still drive
        it: it is planned again once they are through, not every tick (rounds planned tick after
        tick, each leaving it out again, were all a world of five did)."""
        return u.spec.id in self.left_out and any(p.progress < len(p.visits) - 1 for p in self.plans.values())

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

    @staticmethod
    def _own(u: UnitState, claim: Tile) -> bool:
        """Whether ``u``'s claim on tile ``claim`` (the tile it wants, or where it stands) is its
        own: the goal of its own current or next order, or a tile of its goal (resting there, or
        stepping back to it; not once it gave its orders up); not a step aside and back
        elsewhere, or standing idle."""
        order = u.next_order
        if order is not None and order.kind is not OrderKind.STOP and not order.aside:
            return True
        if u.resting is UnitStatus.STUCK:
            return False  # it gave its orders up: its goal is its no more
        return any(tile_of(g[0], g[1]) == claim for g in u.goal)

    def _known(self, world: World) -> TileMap:
        """The map to plan on: what the units' teams know under fog (one plan for all: what any
        of them has seen), remembered with its version so a discovery re-plans."""
        known = world.known_to(self.mine(world))
        self.seen = (id(known), known.version)
        return known

    def before(self, world: World, now: float) -> None:
        self.last_tick = now - world.dt  # bodies that held units since then hold them still
        if self._job is not None:
            self._work_on(world)
            return
        units = self.mine(world)
        for u in units:  # a unit that stopped on its last tile has reached it (room no longer runs)
            plan = self.plans.get(u.spec.id)
            if plan is not None and u.mover is None and tile_of(u.x, u.y) == plan.visits[-1][0]:
                plan.progress = len(plan.visits) - 1
        if not self.dirty and units:
            known = world.known_to(units)
            if (id(known), known.version) != self.seen:
                self.seen = (id(known), known.version)  # the team learned something: plan again
                self.dirty = self._crossed(known)         # if a wall found lies on a plan
        if not self.dirty:
            self.dirty = self.restart = self._stalled(now)
        if not self.dirty:
            for u in self.mine(world):
                want = self._want(world, u)
                plan = self.plans.get(u.spec.id)
                if plan is None and self.sits_out(u):
                    continue
                if u.mover is None and want is not None and (
                        plan is None or plan.want != want or (plan.visits[-1][0] != plan.goal and u.detour is None)):
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
        done = sum(max(p.progress, -1) for p in self.plans.values())
        if done != self.done or all(p.progress >= len(p.visits) - 1 for p in self.plans.values()):
            self.done, self.active = done, now
            return False
        return now - self.active >= STALLED

    def _settle(self, world: World, now: float) -> bool:
        """Send each unit whose body is not on its start tile alone to that tile's centre (in a
        straight line, within its own tile), so that the round plans from units on tile centres
        (none holds another's tile, and followers may close up). Returns whether any goes."""
        self.settling = {}
        self._drop_plans()  # the last round's plans no longer hold: nobody waits on them
        for u, start in self._starts(world):
            centre = (start[0] + 0.5, start[1] + 0.5, None)
            here = tile_of(u.x, u.y)
            if body_tiles(u.x, u.y, u.spec.width) | {here} != {start}:
                self.settling[u.spec.id] = centre
                u.detour = centre
                if here != start and self._want(world, u) is None and self._own(u, here):
                    # resting on its goal, it moves over for another on its tile that could not:
                    # it steps back there in the plan (settled, it took the tile beside as its
                    # own, and rested there for good, its goal lost)
                    u.queue.append(Order(OrderKind.MOVE, ((u.x, u.y, u.heading),), aside=True))
        if not self.settling:
            self.settling = None
            return False
        self.settle_until = now + SETTLE_TIME
        return True

    def _drop_plans(self) -> None:
        """Forget the round's plans, and with them the orders the driving changed."""
        self.plans.clear()
        self.by_tile.clear()
        self.first.clear()
        self.refused.clear()

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

    def _crossed(self, known: TileMap) -> bool:
        """Whether a tile still ahead on some plan is blocked on ``known``."""
        blocked = known.blocked
        return any(blocked[t[1], t[0]] for plan in self.plans.values()
                   for t, _ in plan.visits[max(plan.progress, 0):])

    def _plan(self, world: World) -> Sliced[None]:
        """Plan a round (``_work_on`` runs it a tick's work at a time)."""
        self.dirty = False
        self.bodies.clear()
        self.ring_since.clear()
        self.done = None
        self._drop_plans()
        placed = self._starts(world)
        units, firsts = [u for u, _ in placed], [t for _, t in placed]
        wants = [self._want(world, u) for u in units]
        own = [self._own(u, start if want is None else want)
               for u, start, want in zip(units, firsts, wants, strict=True)]
        agents = list(zip(firsts, goal_tiles(world.map.blocked, firsts, wants, own), strict=True))
        if not units:
            return
        try:
            planner = CooperativePlanner(self._known(world), agents, WINDOW, neighbours=4, rotations=False,
                                         turn_wait=[turn_ticks(u.spec) for u in units], prepare=False)
            yield from planner.preparing()
        except BadInput as e:  # a goal out of reach: plan the rest, that one stays
            i = int(e.field.split("[")[1].split("]")[0]) if e.field.startswith("agents[") else -1
            if i < 0:
                raise
            why = "its goal cannot be reached from where it stands" if e.field.endswith(".goal") else str(e)
            units[i].fail(f"no route: {Status.NO_PATH}: {why}")
            self.dirty = True
            return
        history = yield from planner.solving(MAX_TICKS, stall=STALL, complete=COMPLETE)
        # units standing idle off their own goals may end anywhere, as far as a proof goes
        free = [i for i, (want, mine) in enumerate(zip(wants, own, strict=True)) if want is None and not mine]
        proved = False
        if not planner.arrived and (not planner.unsolvable or free):  # settle it: a plan, or none
            history = yield from planner.proving(PROOF_WORK, free)
            proved = planner.completed or planner.unsolvable
        if len(agents) <= ORDERS_UP_TO and not proved:
            # other orders for a better plan, LaCAM (where WHCA* stops short in one) on a
            # quarter of its budget in each: a round's doors never need it there, and a
            # corridor's jam spent seconds a tick on orders whose LaCAM found nothing
            history = yield from best_order(planner, [u.spec for u in units], [u.heading for u in units], agents,
                                              history, COMPLETE // 4)
        left = sum(h[-1] != g for h, (_, g) in zip(history, agents, strict=True))
        self.rounds = 0 if left < self.left or left == 0 else self.rounds + 1
        self.left = left if left else math.inf
        for u, (_start, goal), want, tiles in zip(units, agents, wants, history, strict=True):
            visits = visits_of(tiles)
            plan = self.plans[u.spec.id] = Schedule(visits, goal, want)
            for k, (tile, t) in enumerate(visits):
                self.by_tile.setdefault(tile, []).append((t, u.spec.id, k))
            beside = body_tiles(u.x, u.y, u.spec.width) | {tile_of(u.x, u.y)}
            if beside != {visits[0][0]}:  # off its start tile's centre: hold what it covers until there
                plan.progress = -1
                # held until it has left its start tile (or, staying, reached its centre)
                held = 0 if len(visits) > 1 else -1
                for tile in beside - {visits[0][0]}:
                    self.by_tile.setdefault(tile, []).append((-1, u.spec.id, held))
            if self._want(world, u) is None and len(visits) > 1:  # idle, but asked to step aside
                back: Point = (u.x, u.y, u.heading)
                if proved and visits[-1][0] != goal:  # the search's plan leaves it elsewhere for good
                    back = (visits[-1][0][0] + 0.5, visits[-1][0][1] + 0.5, None)
                u.queue.append(Order(OrderKind.MOVE, (back,), aside=True))
        # only a unit's own order can be given up: not a step aside (an arrived unit making way
        # was given up for the units it made way for, its goal lost, and the rounds went on)
        sent = [want if u.next_order is not None and not u.next_order.aside else None
                for u, want in zip(units, wants, strict=True)]
        if planner.unsolvable:
            yield from self._give_up(planner, units, agents, sent, free, history)
        elif self._futile(agents, sent):
            self._stuck_farthest(units, agents, sent, history)
        elif self.rounds >= MAX_ROUNDS and self.members is not None and self.hand_back:
            self.members.clear()  # a jam it cannot untangle, maybe for want of search: hand the units back
            self.handed_back = True
        elif self.rounds >= MAX_ROUNDS:
            self.rounds = 0
            short = [u for u, want in zip(units, sent, strict=True)
                     if want is not None and (plan := self.plans[u.spec.id]).visits[-1][0] != plan.goal]
            for u in short:
                _stuck(u)
            if not short:
                self._asides_given_up(units, agents, history)

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
        plan = self.plans.get(u.spec.id)
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
            if self._cleared(u.spec.id, plan.visits[plan.start + 1]) and \
                    self._needed(u.spec.id, plan, plan.start) and \
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
        """How far ``u`` may drive by the plan: up to the centre of the last visit cleared (the
        plan, not a unit, holds it)."""
        plan = self.plans.get(u.spec.id)
        m = u.mover
        if plan is None or m is None:
            return math.inf, None
        k = plan.progress
        while k + 1 < len(plan.visits) and m.s >= plan.lead + (k + 1 - plan.start) - 1e-6:
            k += 1
        plan.progress = k
        c = max(k, plan.cleared)
        while c + 1 < len(plan.visits) and (self._cleared(u.spec.id, plan.visits[c + 1]) or (
                c <= k + 1 and plan.want is not None and self._go_first(world, u.spec.id, plan.visits[c + 1]))) and \
                self._needed(u.spec.id, plan, c):
            c += 1
        plan.cleared = c
        if c + 1 >= len(plan.visits):
            return math.inf, None
        return max(0.0, plan.lead + (c - plan.start) - m.s), None

    def _needed(self, uid: str, plan: Schedule, c: int, depth: int = 0, origin: str | None = None) -> bool:
        """Whether ``uid`` may leave visit ``c``: anywhere but on its goal at once; from its goal
        (stepping aside for a unit that passes) only once the first unit planned on that tile
        after it has got as far as the plan had it the tick before (a wait on something earlier
        in the plan, so no two units can wait on each other), and, when that unit rests on its
        own goal, may leave it in its turn (``depth``: how far down such a chain). Standing on its
        goal it holds nobody up, where waiting beside it for a unit still far off would be a
        wait for nothing (two units resting side by side stepped aside one for the other while
        that one waited for a third: 13 s off its goal in the two-group swap). Down such a chain a
        unit leaves later than ``uid`` (``origin``), so where the unit it waits for waits in turn,
        by tile order or held by a body, for ``origin`` (``_waits_for``), the chain closes into a
        ring and is not followed (a jam's plan at a door stood 17 s so, nobody else moving)."""
        if c < 0:
            return True  # on its way to its first tile's centre
        tile = plan.visits[c][0]
        if tile != plan.goal or c + 1 >= len(plan.visits):
            return True
        leave = plan.visits[c + 1][1]
        first: tuple[int, str, int] | None = None
        for entry in self.by_tile.get(tile, ()):
            if entry[0] >= leave and entry[1] != uid and (first is None or entry[0] < first[0]):
                first = entry
        if first is None:
            return True
        other = self.plans[first[1]]
        before = max(j for j, (_, t) in enumerate(other.visits) if t < leave)  # visit 0 is at tick 0 < leave
        origin = uid if origin is None else origin
        if other.progress < before:
            # down the chain, a unit leaves later than ``origin``: if the one it waits for waits,
            # by tile order, for ``origin`` itself, the chain closes into a ring; origin goes
            return depth > 0 and self._waits_for(first[1], origin, self.last_tick)
        return depth >= CHAIN or self._needed(first[1], other, other.progress, depth + 1, origin)

    def _cleared(self, uid: str, visit: tuple[Tile, int]) -> bool:
        """Whether ``uid`` may enter ``visit``'s tile: every unit planned there before it has
        reached the centre of that tile (a unit that started off its tile covering this one: the
        centre of its first tile). Its own start tile it is on already."""
        return next(self._ahead_of(uid, visit), None) is None

    def _ahead_of(self, uid: str, visit: tuple[Tile, int],
                  first: dict[tuple[str, str], tuple[str, frozenset[Tile]]] | None = None,
                  progress: dict[str, int] | None = None) -> Iterator[str]:
        """The units ``uid`` waits for before it enters ``visit``'s tile (``_cleared``): those
        planned there before it that have yet to reach it, but for the pairs whose order changed
        (``first``). Given ``progress`` (a unit's visits reached, in place of the plans'), those
        that have yet to leave it: ``_completes`` reads no bodies, and two units that each have
        reached the other's next tile cannot pass."""
        tile, tick = visit
        if first is None:
            first = self.first
        if not first and progress is None:  # (every unit every tick: the plain test alone)
            for t, vid, k in self.by_tile.get(tile, ()):
                if t < tick and vid != uid and (t >= 0 or tick > 0) and self.plans[vid].progress < k:
                    yield vid
            return
        for t, vid, k in self.by_tile.get(tile, ()):
            if vid == uid or (self.plans[vid].progress >= k if progress is None else progress[vid] > k):
                continue
            before = t < tick and (t >= 0 or tick > 0)
            went = first.get((uid, vid) if uid < vid else (vid, uid)) if first else None
            if went is not None and tile in went[1]:
                if went[0] == vid:
                    yield vid
            elif before:
                yield vid

    def _go_first(self, world: World, uid: str, visit: tuple[Tile, int]) -> bool:
        """Whether ``uid``, about to wait for ``visit``'s tile, goes first instead. The plan's
        ticks drift from the driving over a long way (one move a tick for every unit: a car waited
        82 s by the plan's order for a unit still 128 tiles off), so, as in a switchable action
        dependency graph (Berndt et al. 2020), it goes first over every unit it would wait for
        there that is still ``FAR_BEHIND`` tiles off (``_far``), on the tiles the two share from
        there (``first``: one that went first on one tile and waited on the next would meet the
        other head-on in a corridor), and so over each unit it would wait for on those tiles too
        (a third planned between the two would close a ring), all far off, at most
        ``FIRST_OVER``, none of them one that went first over it before (going first again over
        the same unit adds the tiles to those it goes first on); not a unit whose plan
        steps off its goal and back (``_needed`` times that). Taken only if every plan can still
        be driven to its end (``_completes``); a unit refused asks again ``CHECK_FIRST`` seconds
        later."""
        now = world.time
        if now < self.refused.get(uid, -math.inf):
            return False
        self.refused[uid] = now + CHECK_FIRST  # (forgotten below if it goes first)
        mine = self.plans[uid]
        if any(t == mine.goal for t, _ in mine.visits[max(mine.progress, 0):-1]):
            return False
        ahead = mine.visits[mine.progress + 1:]
        start = next(i for i, v in enumerate(ahead) if v == visit)
        todo = [(vid, start) for vid in self._ahead_of(uid, visit)]
        first = dict(self.first)
        seen: set[str] = set()
        while todo:  # it goes first over each, on the tiles they share from where it waits for it
            vid, at = todo.pop()
            if vid in seen:
                continue
            seen.add(vid)
            pair = (uid, vid) if uid < vid else (vid, uid)
            went = self.first.get(pair)
            if (went is not None and went[0] != uid) or len(seen) > FIRST_OVER or \
                    not self._far(world, vid, ahead[at][0]):
                return False
            theirs = {t for t, _ in self.plans[vid].visits[max(self.plans[vid].progress, 0):]}
            stretch = set() if went is None else set(went[1])  # (first there already: here too)
            for i in range(at, len(ahead)):
                if ahead[i][0] not in theirs:
                    break
                stretch.add(ahead[i][0])
                todo += ((wid, i) for wid in self._ahead_of(uid, ahead[i]) if wid not in seen)
            first[pair] = (uid, frozenset(stretch))
        if not seen:
            return False
        if not self._completes(first):
            return False
        self.first = first
        del self.refused[uid]
        return True

    def _far(self, world: World, vid: str, tile: Tile) -> bool:
        """Whether ``vid`` is still ``FAR_BEHIND`` tiles or more short of ``tile``, by its plan
        (its next visit there) and as the crow flies."""
        plan, v = self.plans[vid], world.find(vid)
        short = min((k for _t, w, k in self.by_tile.get(tile, ()) if w == vid and k > plan.progress), default=0)
        return v is not None and short - max(plan.progress, 0) >= FAR_BEHIND and \
            math.hypot(v.x - tile[0] - 0.5, v.y - tile[1] - 0.5) >= FAR_BEHIND

    def _completes(self, first: dict[tuple[str, str], tuple[str, frozenset[Tile]]]) -> bool:
        """Whether every plan can be driven to its end in tile order with the pairs' orders
        ``first``: each unit goes on a visit at a time once every unit it waits for there has
        left the tile (``_ahead_of``); a ring of waits leaves some short."""
        plans = self.plans
        progress = {uid: p.progress for uid, p in plans.items()}
        waiting: dict[str, list[str]] = {}  # unit -> the units waiting for it to go on
        todo = deque(plans)
        while todo:
            uid = todo.popleft()
            visits = plans[uid].visits
            while progress[uid] + 1 < len(visits):
                by = next(self._ahead_of(uid, visits[progress[uid] + 1], first, progress), None)
                if by is not None:
                    waiting.setdefault(by, []).append(uid)
                    break
                progress[uid] += 1
                todo.extend(waiting.pop(uid, ()))
        return all(progress[uid] + 1 >= len(p.visits) for uid, p in plans.items())
