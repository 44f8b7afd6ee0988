"""A unit's state in the world, and what the avoidance methods may ask of the world (``Host``),
so that they depend on that and not on ``World`` itself."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from ..geometry.primitives import Path
from ..maps.tilemap import TileMap
from .events import EventKind
from .motion import Mover
from .orders import Order, Point
from .units import UnitSpec


@dataclass
class UnitState:
    """A unit's state in the world: where it is, what it does, what it was told.

    speed: tiles/s, negative when reversing. goal: the points of its last move or nearest order
    not given aside (``Order.aside``). arrived: the time (s) it came to stand on that goal with
    nothing left to do, kept while avoidance has it step aside and back (None: not arrived, or
    it was stopped, patrols, or ended away from its goal).
    status: "idle", "moving", "arrived", "stopped", "patrolling", or why a plan failed.
    resting: what the status says when it stands with nothing of its own to do and no goal:
    "stopped" after a stop order (kept while avoidance moves it aside), else "idle".
    """

    spec: UnitSpec
    x: float
    y: float
    heading: float
    speed: float = 0.0
    arrived: float | None = None
    goal: tuple[Point, ...] = ()
    status: str = "idle"
    resting: str = "idle"
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

    def replan(self, u: UnitState, walls: frozenset[tuple[int, int]], longest: float = ...) -> bool: ...

    def detour(self, u: UnitState, point: Point) -> None: ...

    def step_back(self, u: UnitState, distance: float) -> bool: ...
