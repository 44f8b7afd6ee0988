"""A unit in the world: its body, how it turns, how fast it goes, and the kind presets.

Units are tile units and seconds: speeds in tiles/s, accelerations in tiles/s^2, turn rates in
rad/s. Tile (x, y) covers [x, x+1) x [y, y+1), y grows down, headings are radians with
0 = east (+x) and pi/2 = south (+y).

The presets read a tile as about one metre for people and as "about one vehicle wide" for
vehicles (Pinter's figures: a tank fills a tile and needs a turning radius of a tile or two).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from ..outcomes import BadInput, shown
from ..planner import METHODS
from ..search.options import check_number
from ..turning.methods import TURN_METHODS

#: Speeds, accelerations and radii above this are refused (tiles, seconds): no game needs more.
MAX_RATE = 1e4
#: The farthest a unit sees in fog (tiles): ``sight`` may be no more, and under fog a unit that
#: needs farther than this to stop (it must see a wall before it cannot stop short of it) is
#: refused. What a unit sees is worked out from a table of sight lines whose size grows with the
#: cube of the sight.
MAX_SIGHT = 64.0
#: The most a unit turns on the spot when its ``turn_rate`` is not given (rad/s): a full turn in
#: a second, about a person's quickest about-face.
MAX_PIVOT = 2.0 * math.pi
#: When ``acceleration`` is not given, the time (s) a unit takes to reach its top speed from
#: standing: a second, as game units go (a soldier breaks into a run, a car of the presets takes
#: 1.6 s); and how many times harder than that it brakes when ``braking`` is not given.
SPEED_UP, BRAKES_BEAT_ENGINES = 1.0, 2.0
#: The smallest body or turning radius accepted (tiles).
MIN_SIZE = 0.01
#: Planning methods a unit may use: a turning method on A*'s path (lines and arcs with speed
#: limits), a directional search (legal curves by construction), or a plain search (a polyline
#: whose corners the unit pivots on). Searches that plan for a point only (JPS, JPS+, HPA*: no
#: clearance for a body) are not among them: every unit has a body, and they routed none.
PLAN_METHODS = (*TURN_METHODS, *(name for name, spec in METHODS.items() if not spec.point_only))
#: The plain searches: a unit planned with one pivots at its path's corners (the last resort of
#: a unit whose turning method finds no way, too).
PLAIN_METHODS = ("astar", "dijkstra")


class Kind(StrEnum):
    """A unit's preset: the defaults of ``KIND_PRESETS``."""

    TANK = "tank"
    CAR = "car"
    PERSON = "person"


class Avoidance(StrEnum):
    """How units treat each other (``world.methods``).

    none: they ignore each other (bodies pass through). pinter: Pinter's friendly-collision
    avoidance (every half second, the tiles each body will cover over the next two seconds; a
    unit that would collide decelerates and re-plans round them, passing on the right; with no
    room it waits, yields or backs up). claimed: Lester's variants (stopped and adjacent units
    are walls when planning, tiles on the way ahead of nearby moving units cost more, a unit
    waits when the other will clear). cooperative: windowed cooperative A* (Silver 2005) on a
    space-time reservation table, driven so that no two units ever hold one tile.
    """

    NONE = "none"
    PINTER = "pinter"
    CLAIMED = "claimed"
    COOPERATIVE = "cooperative"


BUILT_AVOIDANCE = tuple(a.value for a in Avoidance)


def check_avoidance(value: Any, field: str = "avoidance") -> Avoidance:
    """``value`` as an ``Avoidance``; ``BadInput`` naming ``field`` for anything not built."""
    if isinstance(value, str) and value in BUILT_AVOIDANCE:
        return Avoidance(value)
    raise BadInput(f"{field} must be one of {', '.join(BUILT_AVOIDANCE)}, got {shown(value)}", field)


#: The rates a unit has when they are not given, from the fields checked before them.
_DERIVED: dict[str, Callable[[UnitSpec], float]] = {
    "acceleration": lambda u: u.speed / SPEED_UP,
    "braking": lambda u: BRAKES_BEAT_ENGINES * u.accel_rate,
    "turn_rate": lambda u: min(MAX_PIVOT, u.speed / u.radius),
}


@dataclass(frozen=True)
class UnitSpec:
    """What a unit is; every field is checked (``BadInput`` naming it).

    width: body diameter (tiles). radius: the tightest turning radius at full speed (tiles).
    speed: top speed (tiles/s). acceleration, braking: tiles/s^2; not given, the unit reaches its
    top speed in ``SPEED_UP`` (a second), and brakes twice as hard as it accelerates (brakes beat
    engines): a fixed default made a fast unit sluggish out of all proportion to the way it
    turns (the issue's example unit, 2 tiles/s on a half-tile radius, took 2 s to get going at
    every corner of a crowd's plan). lateral: the lateral acceleration limit (tiles/s^2)
    that caps the speed on an arc of radius r at sqrt(lateral * r); None means speed^2 / radius,
    so the unit takes its own radius at full speed and the planner's tighter turns at
    sqrt(r' / radius) of it (``turning``'s speed factor). turn_rate: how fast it turns on the
    spot at a pivot (rad/s); not given, speed / radius (the rate it turns at on its tightest
    circle at top speed: a unit that turns on half a tile at 2 tiles/s pivots at 4 rad/s, not
    at a tank's crawl), at most ``MAX_PIVOT``. can_reverse: it may back up (plans with Reeds-Shepp pieces);
    people never plan backing up, but may step back a third of a tile to let others by (``World.step_back``).
    sight: how far it sees in fog (tiles; 6 by default: a screen's corner of a 32-tile view).
    method: how it plans (``PLAN_METHODS``; "tighter" by default: legal paths that slow down for
    tight corners instead of failing). team: a free label for the lab and for avoidance.
    """

    id: str
    width: float = 0.8
    radius: float = 1.0
    speed: float = 2.0
    acceleration: float | None = None
    braking: float | None = None
    lateral: float | None = None
    turn_rate: float | None = None
    can_reverse: bool = False
    method: str = "tighter"
    team: str = ""
    kind: Kind | None = None
    sight: float = 6.0

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not 0 < len(self.id) <= 64:
            raise BadInput(f"id must be a string of 1 to 64 characters, got {shown(self.id)}", "id")
        for name in ("width", "radius"):
            v = check_number(getattr(self, name), name, MIN_SIZE)
            if v > 64:
                raise BadInput(f"{name} must be at most 64 tiles, got {v:g}", name)
        for name in ("speed", "acceleration", "braking", "turn_rate"):
            if getattr(self, name) is None:  # what it is worked out of is checked by now
                object.__setattr__(self, name, _DERIVED[name](self))
            v = check_number(getattr(self, name), name, 0.0, strict=True)
            if v > MAX_RATE:
                raise BadInput(f"{name} must be at most {MAX_RATE:g}, got {v:g}", name)
        v = check_number(self.sight, "sight", 0.0, strict=True)
        if v > MAX_SIGHT:
            raise BadInput(f"sight must be at most {MAX_SIGHT:g} tiles, got {v:g}", "sight")
        if self.lateral is not None:
            check_number(self.lateral, "lateral", 0.0, strict=True)
        if not isinstance(self.can_reverse, bool):
            raise BadInput(f"can_reverse must be true or false, got {shown(self.can_reverse)}", "can_reverse")
        if not isinstance(self.method, str) or self.method not in PLAN_METHODS:
            raise BadInput(f"method must be one of {', '.join(PLAN_METHODS)}, got {shown(self.method)}", "method")
        if not isinstance(self.team, str) or len(self.team) > 64:
            raise BadInput(f"team must be a string of at most 64 characters, got {shown(self.team)}", "team")
        if self.kind is not None and not isinstance(self.kind, Kind):
            raise BadInput(f"kind must be one of {', '.join(Kind)}, got {shown(self.kind)}", "kind")

    @property
    def pivot_rate(self) -> float:
        """``turn_rate`` as the unit has it (given, or worked out when it was made)."""
        assert self.turn_rate is not None
        return self.turn_rate

    @property
    def accel_rate(self) -> float:
        """``acceleration`` as the unit has it (given, or worked out when it was made)."""
        assert self.acceleration is not None
        return self.acceleration

    @property
    def brake_rate(self) -> float:
        """``braking`` as the unit has it (given, or worked out when it was made)."""
        assert self.braking is not None
        return self.braking

    @property
    def lateral_limit(self) -> float:
        """The lateral acceleration limit in tiles/s^2 (``lateral`` or speed^2 / radius)."""
        return self.lateral if self.lateral is not None else self.speed ** 2 / self.radius

    @property
    def yaw_limit(self) -> float:
        """The fastest the unit turns, driving or on the spot (rad/s): its pivot rate, or its
        own radius at top speed if that is faster."""
        return max(self.pivot_rate, self.speed / self.radius)

    def arc_speed(self, r: float) -> float:
        """The top speed on an arc of radius ``r`` tiles: min(speed, sqrt(lateral * r),
        yaw_limit * r). The lateral limit alone lets a turn tightened to a sliver of the
        unit's radius (``turning``'s "tighter", beside a wall) swing the heading round at
        several times any rate the unit has: a tank's half turn at the start of a corridor in a
        fifth of a second, where it pivots in four. On arcs of its own radius or wider the
        yaw limit never binds."""
        return min(self.speed, math.sqrt(self.lateral_limit * r), self.yaw_limit * r)

    def plan_options(self) -> dict[str, Any]:
        """The flat ``plan()`` options for this unit's method, width, radius and reversing."""
        out: dict[str, Any] = {"width": self.width, "radius": self.radius, "can_reverse": self.can_reverse}
        if self.method in TURN_METHODS:
            out.update(method="astar", turning=self.method)
        else:
            out["method"] = self.method
        if self.kind is Kind.PERSON and self.method in ("directional24", "directional48"):
            out["people"] = True
        return out


#: The presets (tiles, seconds; fields as in ``UnitSpec``).
#: tank: fills most of a tile (0.9), turns on a 1.5-tile circle, 2 tiles/s top speed reached in
#:   2 s, brakes twice as hard, backs up, and pivots on its tracks at 0.8 rad/s (neutral steer).
#: car: 0.8 wide, a wider 2-tile circle, fast (4 tiles/s, 0 to top in 1.6 s, braking 5), can
#:   reverse; it cannot turn in place, so a pivot is slow (0.5 rad/s: a shuffle, rare with
#:   "tighter" at radius 2).
#: person: 0.5 tiles (shoulders of about 0.5 m, a tile taken as 1 m), walks at 1.4 tiles/s
#:   (1.4 m/s, normal walking), reaches it in about a second, stops in half of one, and turns
#:   on the spot at 4 rad/s. Pinter's fluid turning radius: the radius is tight (0.5) but the
#:   lateral limit is low (1.0 tiles/s^2, a comfortable walking turn), so a person slows to
#:   sqrt(1.0 * 0.5) = 0.71 tiles/s on the tightest arcs and stops to pivot at sharp corners.
KIND_PRESETS: dict[Kind, dict[str, Any]] = {
    Kind.TANK: {"width": 0.9, "radius": 1.5, "speed": 2.0, "acceleration": 1.0, "braking": 2.0,
                "turn_rate": 0.8, "can_reverse": True},
    Kind.CAR: {"width": 0.8, "radius": 2.0, "speed": 4.0, "acceleration": 2.5, "braking": 5.0,
               "turn_rate": 0.5, "can_reverse": True},
    Kind.PERSON: {"width": 0.5, "radius": 0.5, "speed": 1.4, "acceleration": 1.5, "braking": 3.0,
                  "lateral": 1.0, "turn_rate": 4.0, "can_reverse": False},
}


def unit_of_kind(uid: str, kind: Any = None, **given: Any) -> UnitSpec:
    """A ``UnitSpec`` from a kind's preset (none: the ``UnitSpec`` defaults) with ``given``
    fields winning."""
    if kind is None:
        return UnitSpec(uid, **given)
    if not isinstance(kind, str) or kind not in tuple(Kind):
        raise BadInput(f"kind must be one of {', '.join(Kind)}, got {shown(kind)}", "kind")
    k = Kind(kind)
    return replace(UnitSpec(uid, **KIND_PRESETS[k]), kind=k, **given)
