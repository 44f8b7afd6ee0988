"""A unit's state in the world, and what the avoidance methods may ask of the world (``Host``),
so that they depend on that and not on ``World`` itself."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from ..geometry.primitives import Path
from ..maps.tilemap import TileMap
from .events import EventKind
from .motion import Mover
from .orders import Order, Point
from .units import UnitSpec


class UnitStatus(Enum):
    """What a unit is doing, for code (``UnitState.status`` says it for people)."""

    IDLE = "idle"
    MOVING = "moving"
    ARRIVED = "arrived"
    STOPPED = "stopped"
    PATROLLING = "patrolling"
    FAILED = "failed"  # no route: its plan failed and its orders were dropped
    WAITING = "waiting"  # left out of a cooperative plan for now (two units on one tile)
    STUCK = "stuck"  # no plan brings it to its goal past the other units: orders dropped


#: What ``status`` says of a state, where it says more than the state's name.
STATUS_TEXT = {UnitStatus.STUCK: "stuck: no plan brings it to its goal past the other units"}


@dataclass
class UnitState:
    """A unit's state in the world: where it is, what it does, what it was told.

    speed: tiles/s, negative when reversing. goal: the points of its last move or nearest order
    not given aside (``Order.aside``). arrived: the time (s) it came to stand on that goal with
    nothing left to do, kept while avoidance has it step aside and back (None: not arrived, or
    it was stopped, patrols, or ended away from its goal).
    state: what it is doing (``UnitStatus``); status: the same for people ("idle", "moving",
    "arrived", "stopped", "patrolling", "stopped 1.00 tiles from its goal", or why a plan
    failed); both set together (``tell``).
    resting: its state when it stands with nothing of its own to do: STOPPED after a stop order,
    STUCK after it gave up its orders and FAILED after its order found no route (``failure``
    keeps why; all kept while avoidance moves it aside and back; STOPPED only with no goal),
    else IDLE.
    """

    spec: UnitSpec
    x: float
    y: float
    heading: float
    speed: float = 0.0
    arrived: float | None = None
    goal: tuple[Point, ...] = ()
    state: UnitStatus = UnitStatus.IDLE
    status: str = "idle"
    resting: UnitStatus = UnitStatus.IDLE
    failure: str = ""
    mover: Mover | None = None
    queue: deque[Order] = field(default_factory=deque)
    timed: list[Order] = field(default_factory=list)
    order: Order | None = None
    leg: int = 0
    samples: list[tuple[float, float, float, float, float]] = field(default_factory=list)
    claimed: frozenset[tuple[int, int]] = frozenset()
    waiting: bool = False
    detour: Point | None = None
    avoid: frozenset[tuple[int, int]] = frozenset()
    gives_way_to: str | None = None

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def path(self) -> Path | None:
        """The path the unit drives now (None when it stands)."""
        return None if self.mover is None else self.mover.path

    @property
    def next_order(self) -> Order | None:
        """The order it carries out now, or else the first it has queued (None: neither)."""
        return self.order if self.order is not None else (self.queue[0] if self.queue else None)

    @property
    def busy(self) -> bool:
        """Moving, or with orders to carry out now or later."""
        return self.mover is not None or bool(self.queue) or bool(self.timed) or self.order is not None

    def fail(self, why: str, own: bool = True) -> None:
        """Its order found no route (``why``, for people): it drops its orders; an ``own`` order's
        failure (not a step aside's) is how it rests, said again after avoidance has moved it
        aside and back."""
        self.tell(UnitStatus.FAILED, why)
        self.order = None
        self.queue.clear()
        if own:
            self.resting, self.failure = UnitStatus.FAILED, why

    def tell(self, state: UnitStatus, status: str | None = None) -> None:
        """Set its ``state`` and, for people, its ``status`` (``STATUS_TEXT`` or the state's name
        unless given)."""
        self.state, self.status = state, STATUS_TEXT.get(state, state.value) if status is None else status

    def sample(self, t: float) -> None:
        self.samples.append((t, self.x, self.y, self.heading, self.speed))


class Host(Protocol):
    """The world as the avoidance methods and fog see it (``world.World`` is one)."""

    units: list[UnitState]
    map: TileMap
    dt: float
    plan_work: int | None

    @property
    def time(self) -> float: ...

    def find(self, uid: str) -> UnitState | None: ...

    def unit(self, uid: str) -> UnitState: ...

    def known_map(self, u: UnitState) -> TileMap: ...

    def known_to(self, units: Iterable[UnitState]) -> TileMap: ...

    def note(self, u: UnitState, kind: EventKind) -> None: ...

    def order(self, uid: str, order: Order, queue: bool = False) -> None: ...

    def can_plan(self) -> bool: ...

    def charge(self, work: int) -> None: ...

    def replan(self, u: UnitState, walls: frozenset[tuple[int, int]], longest: float = ...) -> bool: ...

    def detour(self, u: UnitState, point: Point) -> None: ...

    def step_back(self, u: UnitState, distance: float) -> bool: ...
