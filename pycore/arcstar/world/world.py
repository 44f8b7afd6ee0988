"""The world: units on a tile map, stepped in fixed ticks, the same every run for a seed.

Each tick (``dt`` seconds, 0.05 by default: 20 Hz, fine enough that a unit at 4 tiles/s moves
0.2 tile per tick) gives each unit, in the order they were added, its due orders and one step of
its ``Mover``. Nothing reads the clock or an unseeded random source, so a world built the same
way with the same seed gives the same samples, bit for bit. The seed drives ``rng``, kept for
the avoidance methods to come (tie-breaks), so that they stay deterministic too.

How units treat each other is the avoider's (``methods``: ``none``, ``pinter``, ``claimed``,
``cooperative``; see ``units.Avoidance``); the world asks it at set points of a tick. Routes are
planned by the world (``routing``): an order's at once; a re-plan avoidance asks for, within
the tick's ``route_work`` if one is set.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Iterable
from dataclasses import replace

from ..collision.swept import swept_line_clear
from ..geometry.primitives import Line, Path, Pose, angle_diff
from ..maps.tilemap import TileMap
from ..outcomes import BadInput, shown
from ..search.sliced import Sliced
from .avoidance import Avoider, Tile, body_tiles, walled
from .events import EventKind, WorldEvent
from .fog import Fog, check_sight
from .methods import make_avoider
from .motion import Mover
from .orders import Order, OrderKind, Point, Route, plan_route_steps, tile_of
from .routing import RouteQueue, check_work
from .spacing import MARGIN, SPACING, Neighbours, Turns, reach_pad
from .spacing import room as spacing_room
from .state import UnitState, UnitStatus
from .units import PLAIN_METHODS, Avoidance, Kind, UnitSpec

#: The default tick (s).
DT = 0.05


#: A unit has arrived when it first comes to stand this near (tiles) its goal (facing the goal's
#: heading, if given) with no orders of its own left, as a game sees it and as the peers'
#: arrivals are counted: when avoidance then has it make way and come back (a step aside,
#: ``Order.aside``, or a cooperative plan that moves it off its goal and back), it keeps that
#: time. One that ends its orders farther off has not arrived: it was given a tile near its
#: goal because another unit holds that one (two units sent to one tile, under ``cooperative``
#: or a jam's plan), or it came back from stepping aside elsewhere.
ARRIVED_WITHIN = 0.01
#: Two bodies overlapping by more than this (tiles) cannot be placed: the tolerance the world
#: keeps bodies in motion to (issue 11's proof), so no run starts with bodies inside each other.
PLACE_OVERLAP = 0.05
#: Events kept (the oldest are dropped).
MAX_EVENTS = 4096
#: The largest ``plan_work`` accepted (a round's work is well under it: larger is as None).
MAX_PLAN_WORK = 1 << 30


class World:
    """Units on ``tilemap``, stepped with ``step()``; ``time`` in seconds, ``ticks`` taken.

    avoidance: how units treat each other (``units.Avoidance``). fog: each team plans on what
    its units have seen (``fog.Fog``), unknown tiles taken as open. record: keep every unit's
    samples (the lab turns it off). plan_work: the most planning work a tick may do for a round
    of cooperative plans (``search.sliced``'s units, about an expansion each; None: a
    round is planned in the tick it is due); a game that must keep its ticks short sets it, and
    the round's units stand for the ticks it takes. route_work: the most work a tick spends on
    units' routes and re-plan checks (``routing``: the rest wait for the next tick, first asked
    first planned, their units standing; None: each is planned when asked). The same for a
    seed either way.
    """

    def __init__(self, tilemap: TileMap, dt: float = DT, seed: int = 0,
                 avoidance: Avoidance = Avoidance.NONE, record: bool = True, fog: bool = False,
                 plan_work: int | None = None, route_work: int | None = None) -> None:
        self.plan_work = check_work(plan_work, "plan_work", MAX_PLAN_WORK)
        self.routes = RouteQueue(route_work)
        self.map, self.dt, self.seed, self.avoidance = tilemap, dt, seed, avoidance
        self.record = record
        self.rng = random.Random(seed)
        self.units: list[UnitState] = []
        self.events: deque[WorldEvent] = deque(maxlen=MAX_EVENTS)
        self._by_id: dict[str, UnitState] = {}
        self.ticks = 0
        self._routes: dict[tuple, Route] = {}
        #: per unit braking to re-plan round others (``replan``), the map its way round was
        #: checked on (the map it was walled from, the walls, the copy): planned where it
        #: stands, its route mostly walls the same tiles, and the copy keeps what was derived
        #: from it (the graph for the unit's width, the collision tables); dropped once routed
        self._walled: dict[str, tuple[TileMap, frozenset[Tile], TileMap]] = {}
        self.avoider: Avoider = make_avoider(avoidance)
        self.fog: Fog | None = Fog(tilemap) if fog else None
        self._pad: float | None = None  # spacing.reach_pad for the units (None: to be worked out)
        self.turns = Turns()  # who goes first at crossings, kept from tick to tick

    @property
    def time(self) -> float:
        return self.ticks * self.dt

    def add(self, spec: UnitSpec, pose: Pose, orders: list[Order] | tuple[Order, ...] = ()) -> UnitState:
        """Place a unit at ``pose`` with its orders (timed ones wait for their time, and the
        untimed ones listed after a timed one wait behind it) and record its first sample."""
        if spec.id in self._by_id:
            raise BadInput(f"unit id {spec.id!r} is used already", "id")
        if self.fog is not None:
            check_sight(spec)
        fault = self.placing_fault(spec.width, pose.x, pose.y)
        if fault is not None:
            raise BadInput(f"({pose.x:g}, {pose.y:g}): {fault}", "start")
        unit = UnitState(spec, pose.x, pose.y, pose.heading)
        for o in orders:
            if o.at is not None:
                unit.timed.append(o)
            elif unit.timed:  # queued after the timed order before it, when that one takes over
                unit.timed[-1] = replace(unit.timed[-1], then=(*unit.timed[-1].then, o))
            else:
                unit.queue.append(o)
        unit.timed.sort(key=lambda o: o.at if o.at is not None else 0.0)
        unit.sample(self.time)
        self.units.append(unit)
        self._by_id[spec.id] = unit
        if self.fog is not None:
            self.fog.see(unit)  # what it stands in is known before the first step
        self._pad = None
        self.avoider.changed(self)
        return unit

    def placing_fault(self, width: float, x: float, y: float,
                      also: Iterable[tuple[str, float, float, float]] = ()) -> str | None:
        """Why a body ``width`` wide cannot be put at (x, y) now, in words without the place (the
        caller names it), or None: it would overlap a unit, or one of ``also`` (id, width, x, y:
        bodies about to be placed with it), by more than ``PLACE_OVERLAP``, or stand where a
        moving unit could not stop short of it (``in_the_way``)."""
        bodies = [(u.spec.id, u.spec.width, u.x, u.y) for u in self.units]
        other = clash([*bodies, *also], width, x, y)
        if other is not None:
            return f"a body {width:g} wide overlaps unit {other!r} there"
        other = in_the_way(self.units, width, x, y, self.dt)
        if other is not None:
            return f"unit {other!r} is driving there and could not stop short of a body {width:g} wide"
        return None

    def unit(self, uid: str) -> UnitState:
        """The unit with id ``uid`` (``BadInput`` naming ``id`` if there is none)."""
        u = self._by_id.get(uid) if isinstance(uid, str) else None
        if u is None:
            raise BadInput(f"no unit with id {shown(uid)}", "id")
        return u

    def arrival(self, u: UnitState) -> float | None:
        """``u.arrived`` if ``u`` stands on its goal now (a run's end: one made to make way, or
        pushed off and stuck, that is not back on its goal has not arrived), else None."""
        return u.arrived if u.arrived is not None and _faces_goal(u) else None

    def find(self, uid: str) -> UnitState | None:
        """The unit with id ``uid``, or None."""
        return self._by_id.get(uid)

    def remove(self, uid: str) -> None:
        """Take the unit ``uid`` off the map."""
        u = self.unit(uid)
        self.units.remove(u)
        del self._by_id[uid]
        self.routes.drop(uid)
        self._walled.pop(uid, None)
        if self.fog is not None:
            self.fog.drop(uid)
        self._pad = None
        self.avoider.removed(self, uid)
        self.avoider.changed(self)

    def order(self, uid: str, order: Order, queue: bool = False) -> None:
        """Give unit ``uid`` an order now: it replaces what the unit does (braking first if it
        moves), or with ``queue`` waits behind its other orders. ``order.at`` is ignored."""
        u = self.unit(uid)
        now = Order(order.kind, order.points, aside=order.aside)
        self.avoider.ordered(self, u, now)
        if queue and (u.busy or u.queue):
            u.queue.append(now)
            return
        u.queue.clear()
        u.timed.clear()
        u.queue.append(now)
        u.order = None
        self.routes.drop(uid)
        if u.mover is not None:
            u.mover.brake()

    def note(self, u: UnitState, kind: EventKind) -> None:
        """Record an event of ``kind`` at unit ``u``'s position."""
        self.events.append(WorldEvent(self.time, u.spec.id, kind, u.x, u.y))

    @property
    def busy(self) -> bool:
        """Whether any unit still moves or has orders."""
        return any(u.busy for u in self.units)

    def step(self) -> None:
        """One tick: what fog reveals, what avoidance sees, then per unit its orders due and
        its motion, then a sample of every unit."""
        now = self.time
        self.routes.new_tick(self.ticks)
        if self.fog is not None:
            self.fog.look(self, now)
        self.avoider.before(self, now)
        near = None
        if self.avoidance is not Avoidance.NONE:
            if self._pad is None:
                self._pad = reach_pad(self.units, self.dt)
            self.turns.next_tick()
            near = Neighbours(self.units, self._pad, self.turns)
        for u in self.units:
            if u.timed or u.mover is None:  # else _orders has nothing to do (most units, most ticks)
                self._orders(u, now)
            self._move(u, now, near)
        self.ticks += 1
        if self.record:
            for u in self.units:
                u.sample(self.time)

    def can_plan(self) -> bool:
        """Whether this tick has work left for routes and re-plan checks (``route_work``)."""
        return self.routes.can_plan()

    def charge(self, work: int) -> None:
        """Count ``work`` (about an expansion a unit) that avoidance did this tick against
        ``route_work``."""
        self.routes.charge(work)

    def known_map(self, u: UnitState) -> TileMap:
        """The map as ``u``'s team knows it (the true map without fog)."""
        return self.map if self.fog is None else self.fog.known(u.spec.team)

    def known_to(self, units: Iterable[UnitState]) -> TileMap:
        """The map as the teams of ``units`` know it together (``Fog.shared``; the true map
        without fog)."""
        return self.map if self.fog is None else self.fog.shared(u.spec.team for u in units)

    def replan(self, u: UnitState, walls: frozenset[tuple[int, int]], longest: float = math.inf) -> bool:
        """Plan ``u``'s leg again with ``walls`` walled off (its own tiles and goal kept); if a
        way exists no longer than ``longest`` tiles, the unit brakes and takes it from where it
        stops. Returns whether it will. Only the tiles are planned here (the way is planned in
        full, curves and all, from where the unit stops): the check costs a third of a route."""
        if u.order is None or u.mover is None or u.detour is not None:
            return False
        route = self._route(u, walls, fallback=False, tiles=True)
        if route.path is None or route.path.length > longest:
            self._walled.pop(u.spec.id, None)
            return False
        u.avoid = walls
        u.mover.brake()
        return True

    def step_back(self, u: UnitState, distance: float) -> bool:
        """Have ``u`` (standing) back straight up ``distance`` tiles where its body fits and
        nobody stands, then go on with its order (planned afresh from there). Vehicles that cannot
        reverse do not; people do (a step back). Returns whether it will."""
        if u.mover is None or u.mover.v != 0.0 or u.detour is not None:
            return False
        if u.spec.can_reverse is False and u.spec.kind is not Kind.PERSON:
            return False
        bx, by = u.x - distance * math.cos(u.heading), u.y - distance * math.sin(u.heading)
        if not swept_line_clear(self.known_map(u), (u.x, u.y), (bx, by), u.spec.width):
            return False
        for v in self.units:
            if v is not u and math.hypot(v.x - bx, v.y - by) < (u.spec.width + v.spec.width) / 2.0 + MARGIN:
                return False
        u.mover = Mover(Path((Line(u.x, u.y, u.heading, distance, -1),)), u.spec, u.heading)
        u.detour = (bx, by, u.heading)
        return True

    def detour(self, u: UnitState, point: Point) -> None:
        """Send ``u`` to ``point`` first (braking if it moves), then on with its order."""
        u.detour = point
        self.routes.drop(u.spec.id)
        if u.mover is not None:
            u.mover.brake()

    def run(self, duration: float) -> None:
        """Step until ``duration`` seconds have passed or nothing is left to do."""
        end = round(duration / self.dt)
        while self.ticks < end and self.busy:
            self.step()

    # -- orders -------------------------------------------------------------------------------
    def _orders(self, u: UnitState, now: float) -> None:
        while u.timed and u.timed[0].at is not None and u.timed[0].at <= now + 1e-9:
            u.queue.clear()
            timed = u.timed.pop(0)
            u.queue.append(timed)
            u.queue.extend(timed.then)
            u.order, u.detour = None, None
            self.avoider.ordered(self, u, timed)  # as for an order given now (``order``)
            if u.mover is not None:
                u.mover.brake()
        if u.mover is not None:
            return
        if u.detour is not None:
            self._start_leg(u, now)
            return
        if not self.avoider.may_start(self, u, now):
            return
        while u.order is None and u.queue:
            order = u.queue.popleft()
            if order.kind is OrderKind.STOP:
                u.arrived, u.goal, u.resting = None, (), UnitStatus.STOPPED
                u.tell(UnitStatus.STOPPED)
                continue
            if order.kind is OrderKind.PATROL and len(order.points) == 1:  # back and forth from where it stands
                order = replace(order, points=(order.points[0], (u.x, u.y, None)))
            u.order, u.leg = order, 0
            if not order.aside:  # a step aside (and back) keeps the arrival it interrupts
                u.arrived, u.resting = None, UnitStatus.IDLE
                u.goal = order.points if order.kind in (OrderKind.MOVE, OrderKind.NEAREST) else ()
        if u.order is not None:
            self._start_leg(u, now)

    def _goals(self, u: UnitState) -> tuple[Point, ...]:
        if u.detour is not None:
            return (u.detour,)
        order = u.order
        assert order is not None
        return (order.points[u.leg % len(order.points)],) if order.kind is OrderKind.PATROL else order.points

    def _route(self, u: UnitState, walls: frozenset[tuple[int, int]] = frozenset(), fallback: bool = True,
               tiles: bool = False) -> Route:
        """The route for ``u``'s leg from where it stands, planned now (``_route_steps``), its
        work counted against the tick's ``route_work``."""
        given = self.avoider.route(self, u, self._goals(u))
        if given is not None:
            return given
        return self.routes.spend(self._route_steps(u, walls, fallback, tiles))

    def _route_steps(self, u: UnitState, walls: frozenset[tuple[int, int]] = frozenset(),
                     fallback: bool = True, tiles: bool = False) -> Sliced[Route]:
        """The route for ``u``'s leg from where it stands, on the map its avoidance and fog
        give it, with ``walls`` walled off; with ``fallback``, on the map alone when other units
        leave no way; with ``tiles``, the tile path only (plain A* for its width, no curves).
        A slice at a time (``search.sliced``); the avoidance method's own route is asked for
        first, by the caller."""
        pose = Pose(u.x, u.y, u.heading)
        goals = self._goals(u)
        nearest = u.detour is None and u.order is not None and u.order.kind is OrderKind.NEAREST
        known = self.known_map(u)
        base = self.avoider.plan_map(self, u, known)
        if self.fog is not None and not walls and not nearest and base is known:
            return self.fog.route(u, known, goals[0])
        if walls:
            keep = body_tiles(u.x, u.y, u.spec.width) | {tile_of(g[0], g[1]) for g in goals}
            base = self._walled_map(u, base, walls - keep)
        # a step aside, and the way back from one, pivots: turning its own curves, a unit that
        # stepped aside from its goal looped back through the tile beside it, where another rested
        # on its goal, and the two made way for each other in turn for good
        aside = u.detour is not None or (u.order is not None and u.order.aside)
        spec = replace(u.spec, method="astar") if aside or tiles else u.spec
        route = yield from plan_route_steps(base, spec, pose, goals, to_nearest=nearest)
        if route.path is None and route.message and (base is not known or walls) and fallback:
            base = known  # others hem it in
            route = yield from plan_route_steps(base, spec, pose, goals, to_nearest=nearest)
        if route.path is None and route.message and spec.method not in PLAIN_METHODS:
            # its turning method found no way from where it stands (facing a dead end it cannot
            # turn or back out of, say, where avoidance left it; or no legal curve at all, as
            # "ignore" may): it pivots and goes instead, on the map its last try was on
            plain = yield from plan_route_steps(base, replace(spec, method="astar"), pose, goals, to_nearest=nearest)
            if plain.path is not None:
                route = plain
        return route

    def _walled_map(self, u: UnitState, base: TileMap, walls: frozenset[Tile]) -> TileMap:
        """``base`` with ``walls`` walled, the copy ``u`` last planned on if it was the same."""
        last = self._walled.get(u.spec.id)
        if last is not None and last[0] is base and last[1] == walls:
            origin = last[2].walled_from()
            if origin is not None and origin[0] is base:  # (neither map changed since)
                return last[2]
        out = walled(base, walls)
        self._walled[u.spec.id] = (base, walls, out)
        return out

    def _start_leg(self, u: UnitState, now: float) -> None:
        order = u.order
        plain = (u.detour is None and not u.avoid and self.fog is None and order is not None
                 and order.kind is OrderKind.PATROL and self.avoidance is Avoidance.NONE)
        key = (u.spec, u.x, u.y, u.heading, self._goals(u)) if plain else None
        route = self._routes.get(key) if key is not None else None
        if route is None:
            route = self.avoider.route(self, u, self._goals(u))
            if route is not None:
                self.routes.drop(u.spec.id)
            else:
                avoid = u.avoid
                if avoid or u.detour is not None or (order is not None and order.aside):
                    # avoidance asked for it (a way round others, a step aside): planned in turn
                    # within the ticks' route_work, the unit standing till then (None: not yet)
                    route = self.routes.ask(u.spec.id, (order, u.leg, u.detour, avoid, u.x, u.y, u.heading),
                                            lambda: self._route_steps(u, avoid))
                    if route is None:
                        return
                else:  # an order's: planned at once (its work counts against the tick's)
                    route = self.routes.spend(self._route_steps(u, avoid))
            if key is not None and len(self._routes) < 1024:
                self._routes[key] = route  # a patrol drives the same legs over and over
        u.avoid = frozenset()
        self._walled.pop(u.spec.id, None)  # (kept from a check for this route)
        if route.path is None:
            if u.detour is not None:
                u.detour = None
            elif route.message and order is not None:
                u.fail(f"no route: {route.message}", own=not order.aside)
                if _miss(u) > ARRIVED_WITHIN:  # (a step aside that found no way keeps the unit on its goal)
                    u.arrived = None
            elif order is not None:
                self._leg_done(u, now)
            return
        u.mover = Mover(route.path, u.spec, u.heading, route.speed_limits)
        if order is None:
            u.tell(UnitStatus.MOVING)
        else:
            u.tell(UnitStatus.PATROLLING if order.kind is OrderKind.PATROL else UnitStatus.MOVING)

    def _leg_done(self, u: UnitState, now: float) -> None:
        order = u.order
        assert order is not None
        if order.kind is OrderKind.PATROL:
            u.leg += 1
            return
        u.order = None
        if not _own_orders_done(u):
            return
        miss = _miss(u)  # only steps aside (and back) are left, if anything
        if miss <= ARRIVED_WITHIN:
            u.tell(UnitStatus.ARRIVED)
            if u.arrived is None:  # (back from a step aside, it keeps the time its order was done)
                u.arrived = now
            return
        if u.queue:  # on its way aside and back
            return
        u.arrived = None
        _rest(u)

    # -- motion -------------------------------------------------------------------------------
    def _move(self, u: UnitState, now: float, near: Neighbours | None) -> None:
        m = u.mover
        if m is None:
            u.speed, u.waiting = 0.0, False
            return
        if near is None:
            room, by = math.inf, None
        else:
            standoff, margin = self.avoider.keeps(u)
            room, by = spacing_room(u, near, self.dt, standoff, margin)
        own, holder = self.avoider.room(self, u)
        if own < room:
            room, by = own, (holder if holder is not None else by)
        m.step(self.dt, room)
        u.x, u.y, u.heading, u.speed = m.x, m.y, m.heading, m.v * m.gear
        if u.speed == 0.0 and u.arrived is None and u.goal and _own_orders_done(u) and _faces_goal(u):
            u.arrived = now + self.dt  # it came to stand on its goal: kept if its plan has it make way and come back
        u.waiting = m.v == 0.0 and not m.done and room < math.inf and by is not None
        if near is not None:
            self.avoider.held(self, u, by if u.waiting else None, now)
        if m.done and u.mover is m:
            u.mover = None
            if m.arrived and u.detour is not None:
                u.detour = None
                if u.order is None and not u.queue:  # moved aside with nothing of its own to do
                    _rest(u)
            elif m.arrived and u.order is not None:
                self._leg_done(u, now + self.dt)
            elif not m.arrived and u.order is None and not u.queue and u.detour is None:
                _rest(u)


def _own_orders_done(u: UnitState) -> bool:
    """Whether ``u`` has no orders of its own left (only steps aside and back, if anything)."""
    return not u.timed and all(o.aside for o in u.queue)


def _rest(u: UnitState) -> None:
    """Tell ``u`` it stands with nothing of its own left to do: arrived (on the goal it
    reached), stopped beside its goal (two units sent to one tile, say), or, with no goal, as it
    rests: idle, stuck, failed, or stopped by an order (avoidance may have moved it aside since)."""
    miss = _miss(u)
    if u.arrived is not None and miss <= ARRIVED_WITHIN:
        u.tell(UnitStatus.ARRIVED)
    elif u.resting is UnitStatus.STUCK:
        u.tell(UnitStatus.STUCK)
    elif u.resting is UnitStatus.FAILED:
        u.tell(UnitStatus.FAILED, u.failure)
    elif u.goal:
        u.tell(UnitStatus.STOPPED, f"stopped {miss:.2f} tiles from its goal")
    else:
        u.tell(u.resting)


def _miss(u: UnitState) -> float:
    """How far (tiles) unit ``u`` stands from the nearest point of its goal (inf: it has none)."""
    return min((math.hypot(p[0] - u.x, p[1] - u.y) for p in u.goal), default=math.inf)


def _faces_goal(u: UnitState) -> bool:
    """Whether unit ``u`` stands on a point of its goal (``ARRIVED_WITHIN``) facing its heading
    if the point gives one."""
    for x, y, h in u.goal:
        if math.hypot(x - u.x, y - u.y) <= ARRIVED_WITHIN and (h is None or abs(angle_diff(h, u.heading)) <= 1e-6):
            return True
    return False


def clash(bodies: Iterable[tuple[str, float, float, float]], width: float, x: float, y: float) -> str | None:
    """The id of the first of ``bodies`` (id, width, x, y) that a body ``width`` wide at (x, y)
    would overlap by more than ``PLACE_OVERLAP``, or None."""
    for uid, w, bx, by in bodies:
        if math.hypot(bx - x, by - y) < (w + width) / 2.0 - PLACE_OVERLAP:
            return uid
    return None


def in_the_way(units: Iterable[UnitState], width: float, x: float, y: float, dt: float) -> str | None:
    """The id of the first of the moving ``units`` that could not stop short of a body ``width``
    wide put at (x, y) now, or None: a point of its path before it could stand (its stopping
    distance and a tick) comes within the two radii and ``MARGIN`` of it (and half the sampling
    step, for the path between two points). Dropped there, the body would be driven into."""
    for u in units:
        m = u.mover
        if m is None or m.v == 0.0:
            continue
        near = (u.spec.width + width) / 2.0 + MARGIN + SPACING / 2.0
        run = m.stopping_distance() + (m.v + m.accel_rate * dt) * dt  # the most it drives before it stands
        if math.hypot(u.x - x, u.y - y) > near + run + SPACING:
            continue  # (a filter: no point of that stretch lies farther from it than its length)
        _, xs, ys = m.cover(m.s + run)  # (sampled as far as it drives)
        for i in range(max(m.after(m.s) - 1, 0), min(m.after(m.s + run) + 1, len(xs))):
            if math.hypot(xs[i] - x, ys[i] - y) < near:
                return u.spec.id
    return None
