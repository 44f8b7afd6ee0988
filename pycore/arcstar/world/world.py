"""The world: units on a tile map, stepped in fixed ticks, the same every run for a seed.

Each tick (``dt`` seconds, 0.05 by default: 20 Hz, fine enough that a unit at 4 tiles/s moves
0.2 tile per tick) gives each unit, in the order they were added, its due orders and one step of
its ``Mover``. Nothing reads the clock or an unseeded random source, so a world built the same
way with the same seed gives the same samples, bit for bit. The seed drives ``rng``, kept for
the avoidance methods to come (tie-breaks), so that they stay deterministic too.

Avoidance: ``none`` only for now (units ignore each other; see ``units.Avoidance``).
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from enum import StrEnum

from ..geometry.primitives import Path, Pose
from ..maps.tilemap import TileMap
from ..outcomes import BadInput, shown
from .motion import Mover
from .orders import Order, OrderKind, Route, plan_route
from .units import Avoidance, UnitSpec

#: The default tick (s).
DT = 0.05


class EventKind(StrEnum):
    """What avoidance did, for the lab's collision markers: ``replan`` around claimed tiles,
    ``wait`` for another unit to clear, ``yield`` (stop to let another pass), ``backup`` (back
    away to a refuge), ``make_way`` (an idle unit steps aside), ``discover`` (fog: walls seen)."""

    REPLAN = "replan"
    WAIT = "wait"
    YIELD = "yield"
    BACKUP = "backup"
    MAKE_WAY = "make_way"
    DISCOVER = "discover"


@dataclass(frozen=True)
class WorldEvent:
    """Something avoidance or fog did: when (s), which unit, what, and where (tiles)."""

    t: float
    unit: str
    kind: EventKind
    x: float
    y: float


#: Events kept (the oldest are dropped).
MAX_EVENTS = 4096


@dataclass
class UnitState:
    """A unit's state in the world: where it is, what it does, what it was told.

    speed: tiles/s, negative when reversing. arrived: the time (s) it stood on the goal of its
    last move with nothing left to do (None: not arrived, or it was stopped or patrols).
    status: "idle", "moving", "arrived", "stopped", "patrolling", or why a plan failed.
    """

    spec: UnitSpec
    x: float
    y: float
    heading: float
    speed: float = 0.0
    arrived: float | None = None
    status: str = "idle"
    mover: Mover | None = None
    queue: deque[Order] = field(default_factory=deque)
    timed: list[Order] = field(default_factory=list)
    order: Order | None = None
    leg: int = 0
    samples: list[tuple[float, float, float, float, float]] = field(default_factory=list)
    claimed: frozenset[tuple[int, int]] = frozenset()
    waiting: bool = False

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def path(self) -> Path | None:
        """The path the unit drives now (None when it stands)."""
        return None if self.mover is None else self.mover.path

    @property
    def busy(self) -> bool:
        """Moving, or with orders to carry out now or later."""
        return self.mover is not None or bool(self.queue) or bool(self.timed) or self.order is not None

    def sample(self, t: float) -> None:
        self.samples.append((t, self.x, self.y, self.heading, self.speed))


class World:
    """Units on ``tilemap``, stepped with ``step()``; ``time`` in seconds, ``ticks`` taken."""

    def __init__(self, tilemap: TileMap, dt: float = DT, seed: int = 0,
                 avoidance: Avoidance = Avoidance.NONE, record: bool = True) -> None:
        self.map, self.dt, self.seed, self.avoidance = tilemap, dt, seed, avoidance
        self.record = record
        self.rng = random.Random(seed)
        self.units: list[UnitState] = []
        self.events: deque[WorldEvent] = deque(maxlen=MAX_EVENTS)
        self._by_id: dict[str, UnitState] = {}
        self.ticks = 0
        self._routes: dict[tuple, Route] = {}

    @property
    def time(self) -> float:
        return self.ticks * self.dt

    def add(self, spec: UnitSpec, pose: Pose, orders: list[Order] | tuple[Order, ...] = ()) -> UnitState:
        """Place a unit at ``pose`` with its orders (timed ones wait for their time) and record
        its first sample."""
        if spec.id in self._by_id:
            raise BadInput(f"unit id {spec.id!r} is used already", "id")
        unit = UnitState(spec, pose.x, pose.y, pose.heading)
        for o in orders:
            (unit.timed if o.at is not None else unit.queue).append(o)
        unit.timed.sort(key=lambda o: o.at if o.at is not None else 0.0)
        unit.sample(self.time)
        self.units.append(unit)
        self._by_id[spec.id] = unit
        return unit

    def unit(self, uid: str) -> UnitState:
        """The unit with id ``uid`` (``BadInput`` naming ``id`` if there is none)."""
        u = self._by_id.get(uid) if isinstance(uid, str) else None
        if u is None:
            raise BadInput(f"no unit with id {shown(uid)}", "id")
        return u

    def remove(self, uid: str) -> None:
        """Take the unit ``uid`` off the map."""
        u = self.unit(uid)
        self.units.remove(u)
        del self._by_id[uid]

    def order(self, uid: str, order: Order, queue: bool = False) -> None:
        """Give unit ``uid`` an order now: it replaces what the unit does (braking first if it
        moves), or with ``queue`` waits behind its other orders. ``order.at`` is ignored."""
        u = self.unit(uid)
        now = Order(order.kind, order.points)
        if queue and (u.busy or u.queue):
            u.queue.append(now)
            return
        u.queue.clear()
        u.timed.clear()
        u.queue.append(now)
        u.order = None
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
        """One tick: orders due, then motion, then a sample of every unit."""
        now = self.time
        for u in self.units:
            self._orders(u, now)
            self._move(u, now)
        self.ticks += 1
        if self.record:
            for u in self.units:
                u.sample(self.time)

    def run(self, duration: float) -> None:
        """Step until ``duration`` seconds have passed or nothing is left to do."""
        end = round(duration / self.dt)
        while self.ticks < end and self.busy:
            self.step()

    # -- orders -------------------------------------------------------------------------------
    def _orders(self, u: UnitState, now: float) -> None:
        while u.timed and u.timed[0].at is not None and u.timed[0].at <= now + 1e-9:
            u.queue.clear()
            u.queue.append(u.timed.pop(0))
            u.order = None
            if u.mover is not None:
                u.mover.brake()
        if u.mover is not None:
            return
        while u.order is None and u.queue:
            order = u.queue.popleft()
            if order.kind is OrderKind.STOP:
                u.status, u.arrived = "stopped", None
                continue
            u.order, u.leg, u.arrived = order, 0, None
        if u.order is not None:
            self._start_leg(u, now)

    def _start_leg(self, u: UnitState, now: float) -> None:
        order = u.order
        assert order is not None
        pose = Pose(u.x, u.y, u.heading)
        goals = (order.points[u.leg % len(order.points)],) if order.kind is OrderKind.PATROL else order.points
        key = (u.spec, pose.x, pose.y, pose.heading, goals, order.kind)
        route = self._routes.get(key)
        if route is None:
            route = plan_route(self.map, u.spec, pose, goals, to_nearest=order.kind is OrderKind.NEAREST)
            if order.kind is OrderKind.PATROL and len(self._routes) < 1024:
                self._routes[key] = route  # a patrol drives the same legs over and over
        if route.path is None:
            if route.message:
                u.status, u.order = f"no route: {route.message}", None
                u.queue.clear()
            else:
                self._leg_done(u, now)
            return
        u.mover = Mover(route.path, u.spec, u.heading, route.speed_limits)
        u.status = "patrolling" if order.kind is OrderKind.PATROL else "moving"

    def _leg_done(self, u: UnitState, now: float) -> None:
        order = u.order
        assert order is not None
        if order.kind is OrderKind.PATROL:
            u.leg += 1
            return
        u.order = None
        if not u.queue and not u.timed:
            u.status, u.arrived = "arrived", now

    # -- motion -------------------------------------------------------------------------------
    def _move(self, u: UnitState, now: float) -> None:
        m = u.mover
        if m is None:
            u.speed = 0.0
            return
        m.step(self.dt)
        u.x, u.y, u.heading, u.speed = m.x, m.y, m.heading, m.v * m.gear
        if m.done:
            u.mover = None
            if m.arrived and u.order is not None:
                self._leg_done(u, now + self.dt)
            elif not m.arrived and u.order is None and not u.queue:
                u.status = "stopped"
