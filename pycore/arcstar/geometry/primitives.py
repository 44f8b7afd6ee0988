"""Geometry of unit motion: poses, line and arc segments, and paths made of them.

Conventions (the same everywhere in arcstar, and in the JS): tile units; x grows right and
y grows DOWN; headings are radians with 0 = +x (east) and pi/2 = +y (south, down the screen).

Turns are named by the sign of their *sweep*, the change of heading along the segment:
sweep > 0 (heading increasing, east -> south) is a clockwise turn as seen on the screen, and
sweep < 0 is counter-clockwise on the screen. A segment with ``gear = -1`` is driven in
reverse: the unit keeps facing its heading and moves the other way (Reeds-Shepp backing up).

An arc's *steer* says on which side its centre lies: ``steer = +1`` puts the centre at
heading + pi/2 (on screen, the unit's right-hand side, because y is down). Driving forward
with steer +1 sweeps clockwise on screen (sweep > 0); reversing with it sweeps the other way.
So ``sign(sweep) == steer * gear``.

A ``Path`` is a chain of segments (Pinter's "line segment" records): ``pose_at(distance)``
walks it as in his Listing 2. The curve builders that make paths live in ``curves``.
"""

from __future__ import annotations

import math
import numbers
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

_T = TypeVar("_T")

TWO_PI = 2.0 * math.pi
#: Consecutive segments of a path must meet within this distance (tile units).
JOINT_TOL = 1e-6
#: Coordinates, lengths, radii and sweeps are bounded by this, so nothing overflows.
LIMIT = 1e9
#: The smallest turning radius accepted (tile units).
MIN_RADIUS = 1e-9
_MAX_SAMPLES = 5_000_000

__all__ = [
    "JOINT_TOL", "LIMIT", "MIN_RADIUS", "TWO_PI", "Arc", "Line", "Path", "Pose", "Segment",
    "angle_diff", "check_radius", "finite", "normalize_angle", "segment_from_json",
]


# ----------------------------------------------------------------------------- numbers

def finite(value: Any, name: str, limit: float = LIMIT) -> float:
    """``value`` as a float, or a ``ValueError`` naming ``name`` if it is no finite number.

    bool and str are refused (JSON ``true`` or ``"1"`` is not a coordinate); ``|value|`` must
    not exceed ``limit``.
    """
    if type(value) is float:
        if -limit <= value <= limit:  # the common case; NaN fails this and is caught below
            return value
        v = value
    elif isinstance(value, float):  # numpy's float64 (before the ABC check: a path's build makes many)
        v = float(value)
    elif isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a number, got {value!r}")
    else:
        try:
            v = float(value)
        except (OverflowError, ValueError):
            raise ValueError(f"{name} must be a finite number, got {value!r}") from None
    if not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number, got {v!r}")
    if abs(v) > limit:
        raise ValueError(f"{name} must be within +-{limit:g}, got {v!r}")
    return v


def check_radius(r: Any, name: str = "r") -> float:
    """A turning radius as a float: finite, > 0 (at least ``MIN_RADIUS``), else ``ValueError``."""
    v = finite(r, name)
    if v <= 0.0:
        raise ValueError(f"{name} (turning radius) must be > 0, got {v!r}")
    if v < MIN_RADIUS:
        raise ValueError(f"{name} (turning radius) must be at least {MIN_RADIUS:g}, got {v!r}")
    return v


def _gear(value: Any) -> int:
    if type(value) is int and (value == 1 or value == -1):  # every segment made: before the ABC check
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or value not in (1, -1):
        raise ValueError(f"gear must be 1 (forward) or -1 (reverse), got {value!r}")
    return 1 if value == 1 else -1


def _pair(value: Any, name: str) -> tuple[float, float]:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ValueError(f"{name} must be a pair (x, y), got {value!r}")
    return finite(value[0], f"{name}[0]"), finite(value[1], f"{name}[1]")


def normalize_angle(angle: float) -> float:
    """``angle`` wrapped into (-pi, pi]."""
    if -math.pi < angle <= math.pi:
        return angle
    a = math.fmod(angle + math.pi, TWO_PI)
    if a <= 0.0:
        a += TWO_PI
    return a - math.pi


def _normalize_array(a: np.ndarray) -> np.ndarray:
    w = np.mod(a + math.pi, TWO_PI)
    w[w <= 0.0] = TWO_PI
    return w - math.pi


def angle_diff(a: float, b: float) -> float:
    """The signed difference ``a - b`` of two headings, wrapped into (-pi, pi]."""
    return normalize_angle(a - b)


_set = object.__setattr__


def _unchecked(cls: type[_T], **values: Any) -> _T:
    """An instance of a frozen dataclass built from values already known to be valid."""
    obj = object.__new__(cls)
    for k, v in values.items():
        _set(obj, k, v)
    return obj


def _is_tuple_like(value: Any, n: int) -> bool:
    """A list, tuple or 1-d array of ``n`` items (not a string)."""
    if type(value) is tuple or type(value) is list:  # most calls: before the slower ABC check
        return len(value) == n
    if isinstance(value, np.ndarray):
        return value.shape == (n,)
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes)) and len(value) == n


def _pose(x: float, y: float, heading: float) -> Pose:
    """A Pose from computed (already finite) values: only the heading is normalised."""
    p = object.__new__(Pose)
    _set(p, "x", x)
    _set(p, "y", y)
    _set(p, "heading", normalize_angle(heading))
    return p


# ----------------------------------------------------------------------------- pose

@dataclass(frozen=True, slots=True)
class Pose:
    """Where a unit is and which way it faces: (x, y) in tiles, heading in radians.

    y grows down the screen; heading 0 = east (+x), pi/2 = south (+y). The heading is
    normalised into (-pi, pi] on construction. Non-numbers, NaN and inf raise ``ValueError``.
    """

    x: float
    y: float
    heading: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "x", finite(self.x, "x"))
        object.__setattr__(self, "y", finite(self.y, "y"))
        h = finite(self.heading, "heading", limit=math.inf)
        object.__setattr__(self, "heading", normalize_angle(h))

    @classmethod
    def of(cls, value: Any, name: str = "pose") -> Pose:
        """A ``Pose`` from a ``Pose`` or an ``(x, y, heading)`` sequence; ``ValueError`` else."""
        if isinstance(value, Pose):
            return value
        if not _is_tuple_like(value, 3):
            raise ValueError(f"{name} must be a Pose or (x, y, heading), got {value!r}")
        try:
            return cls(value[0], value[1], value[2])
        except ValueError as e:
            raise ValueError(f"{name}: {e}") from None

    @property
    def xy(self) -> tuple[float, float]:
        """The position as an (x, y) tuple."""
        return (self.x, self.y)

    def distance_to(self, other: Pose | Sequence[float]) -> float:
        """Straight-line distance between the positions (headings ignored)."""
        ox, oy = (other.x, other.y) if isinstance(other, Pose) else (other[0], other[1])
        return math.hypot(ox - self.x, oy - self.y)

    def is_close(self, other: Pose, pos_tol: float = 1e-6, heading_tol: float = 1e-6) -> bool:
        """Same position within ``pos_tol`` and same heading (mod 2 pi) within ``heading_tol``."""
        return (self.distance_to(other) <= pos_tol
                and abs(angle_diff(self.heading, other.heading)) <= heading_tol)

    def to_json(self) -> dict:
        """``{"x", "y", "heading"}``, JSON-safe."""
        return {"x": self.x, "y": self.y, "heading": self.heading}

    @classmethod
    def from_json(cls, data: Any) -> Pose:
        """A pose from ``{"x", "y", "heading"}``; ``ValueError`` on anything else."""
        if not isinstance(data, Mapping) or set(data) != {"x", "y", "heading"}:
            raise ValueError(f"a pose must be an object with exactly x, y, heading; got {data!r}")
        return cls(data["x"], data["y"], data["heading"])


def point_of(value: Any, name: str = "point") -> tuple[float, float]:
    """An (x, y) pair from a ``Pose`` (its position) or a 2-sequence; ``ValueError`` else."""
    if isinstance(value, Pose):
        return value.xy
    if not _is_tuple_like(value, 2):
        raise ValueError(f"{name} must be an (x, y) pair, got {value!r}")
    return finite(value[0], f"{name}.x"), finite(value[1], f"{name}.y")


# ----------------------------------------------------------------------------- segments

class _SegmentBase:
    """What ``Line`` and ``Arc`` share: start/end poses, range-checked ``pose_at``, sampling."""

    __slots__ = ()

    # Fields and methods every subclass defines (declared here for the type checker).
    x: float
    y: float
    heading: float
    length: float

    def _xyh(self, s: float) -> tuple[float, float, float]:
        """x, y and the heading (not yet wrapped) at ``s`` along, 0 <= s <= length."""
        raise NotImplementedError

    def _pose_at(self, s: float) -> Pose:
        return _pose(*self._xyh(s))

    def _sample_at(self, s: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def start_pose(self) -> Pose:
        """The pose at the start of the segment."""
        return _pose(self.x, self.y, self.heading)

    def end_pose(self) -> Pose:
        """The pose at the end of the segment."""
        return self._pose_at(self.length)

    def pose_at(self, s: float) -> Pose:
        """The pose after travelling ``s`` along the segment, 0 <= s <= length."""
        s = finite(s, "s", limit=math.inf)
        if s < 0.0 or s > self.length * (1.0 + 1e-12) + 1e-12:
            raise ValueError(f"s must be within [0, {self.length}], got {s}")
        return self._pose_at(min(s, self.length))

    def pose_within(self, s: float) -> Pose:
        """The pose at ``s`` along the segment, clamped to [0, length], without ``pose_at``'s
        checks: for a caller whose ``s`` is a float it computed (a unit driving, every tick)."""
        return self._pose_at(min(max(s, 0.0), self.length))

    def xyh_within(self, s: float) -> tuple[float, float, float]:
        """``pose_within(s)`` as (x, y, heading), the same floats without making a ``Pose``
        (a unit driving asks every tick)."""
        if s < 0.0:  # min(max(s, 0.0), length), without the two calls
            s = 0.0
        elif s > self.length:
            s = self.length
        x, y, h = self._xyh(s)
        return x, y, (h if -math.pi < h <= math.pi else normalize_angle(h))

    def sample(self, step: float) -> np.ndarray:
        """Poses along the segment as an (n, 3) array of x, y, heading.

        Evenly spaced, at most ``step`` apart, first and last included; headings in (-pi, pi].
        """
        out = self._sample_at(self._along(step))
        out[:, 2] = _normalize_array(out[:, 2])
        return out

    def sample_xy(self, step: float) -> tuple[np.ndarray, np.ndarray]:
        """The distances along the segment where ``sample`` places its poses, and (x, y) there
        as an (n, 2) array: for callers that want only the points (no headings to wrap)."""
        s = self._along(step)
        return s, self._sample_at(s)[:, :2]

    def sample_xy_lists(self, step: float) -> tuple[list[float], list[float], list[float]]:
        """``sample_xy`` as three lists, distances, x and y: for callers that walk the points in
        Python (a numpy call on a few points costs more than the points, in Pyodide most)."""
        s, xy = self.sample_xy(step)
        return s.tolist(), xy[:, 0].tolist(), xy[:, 1].tolist()

    def _along(self, step: float) -> np.ndarray:
        """Where ``sample`` puts its poses: evenly spaced distances, first and last included."""
        return np.linspace(0.0, self.length, _sample_count(self.length, step))


def _sample_count(length: float, step: Any) -> int:
    step = finite(step, "step", limit=math.inf)
    if step <= 0.0:
        raise ValueError(f"step must be > 0, got {step}")
    n = max(1, math.ceil(length / step)) + 1 if length > 0.0 else 1
    if n > _MAX_SAMPLES:
        raise ValueError(f"step {step} is too small for length {length}: {n} samples")
    return n


@dataclass(frozen=True, slots=True)
class Line(_SegmentBase):
    """A straight segment from (x, y), along ``heading``, of ``length`` tiles.

    With ``gear = -1`` the unit faces ``heading`` and moves backwards (towards heading + pi).
    """

    x: float
    y: float
    heading: float
    length: float
    gear: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "x", finite(self.x, "x"))
        object.__setattr__(self, "y", finite(self.y, "y"))
        object.__setattr__(self, "heading",
                           normalize_angle(finite(self.heading, "heading", limit=math.inf)))
        length = finite(self.length, "length")
        if length < 0.0:
            raise ValueError(f"length must be >= 0, got {length}")
        object.__setattr__(self, "length", length)
        object.__setattr__(self, "gear", _gear(self.gear))

    @classmethod
    def from_pose(cls, pose: Pose, length: float, gear: int = 1) -> Line:
        """A line starting at ``pose``."""
        pose = Pose.of(pose)
        length = finite(length, "length")
        if length < 0.0:
            raise ValueError(f"length must be >= 0, got {length}")
        return _unchecked(cls, x=pose.x, y=pose.y, heading=pose.heading, length=length,
                          gear=_gear(gear))

    kind = "line"
    curvature = 0.0

    def _xyh(self, s: float) -> tuple[float, float, float]:
        d = s * self.gear
        return self.x + d * math.cos(self.heading), self.y + d * math.sin(self.heading), self.heading

    def sample_xy_lists(self, step: float) -> tuple[list[float], list[float], list[float]]:
        """``sample_xy`` as lists, made in Python: the same floats as numpy's (``linspace``
        multiplies the index by the step and puts the end exactly; the rest is one product and
        one sum a point)."""
        n = _sample_count(self.length, step)
        if n == 1:
            along = [0.0]
        else:
            gap = self.length / (n - 1)
            along = [i * gap for i in range(n - 1)]
            along.append(self.length)
        gear, x, y = self.gear, self.x, self.y
        c, s = math.cos(self.heading), math.sin(self.heading)
        return along, [x + a * gear * c for a in along], [y + a * gear * s for a in along]

    def _sample_at(self, s: np.ndarray) -> np.ndarray:
        d = s * self.gear
        out = np.empty((len(s), 3))
        out[:, 0] = self.x + d * math.cos(self.heading)
        out[:, 1] = self.y + d * math.sin(self.heading)
        out[:, 2] = self.heading
        return out

    def reversed(self) -> Line:
        """The same line driven the other way, from its end back to its start."""
        e = self.end_pose()
        return Line(e.x, e.y, self.heading, self.length, -self.gear)

    def to_json(self) -> dict:
        """JSON-safe dict: type "line", x, y, heading, length, gear."""
        return {"type": "line", "x": self.x, "y": self.y, "heading": self.heading,
                "length": self.length, "gear": self.gear}


@dataclass(frozen=True, slots=True)
class Arc(_SegmentBase):
    """A circular segment: start (x, y) and heading, ``length`` along it, its ``center``,
    ``radius`` and signed ``sweep`` (heading change; > 0 is clockwise on screen, y being down).

    ``length == radius * |sweep|`` and the centre lies ``radius`` from the start at right angles
    to the heading, on the side ``steer = sign(sweep) * gear`` (+1: at heading + pi/2). Both
    are checked; ``Arc.from_pose`` computes them for you.
    """

    x: float
    y: float
    heading: float
    length: float
    center: tuple[float, float]
    radius: float
    sweep: float
    gear: int = 1
    steer: int = field(init=False, repr=False, compare=False, default=1)

    def __post_init__(self) -> None:
        x, y = finite(self.x, "x"), finite(self.y, "y")
        h = normalize_angle(finite(self.heading, "heading", limit=math.inf))
        r = check_radius(self.radius, "radius")
        sweep = finite(self.sweep, "sweep")
        length = finite(self.length, "length")
        if length < 0.0:
            raise ValueError(f"length must be >= 0, got {length}")
        gear = _gear(self.gear)
        cx, cy = _pair(self.center, "center")
        expected = r * abs(sweep)
        if abs(length - expected) > 1e-9 * max(1.0, expected):
            raise ValueError(f"arc length {length} must equal radius * |sweep| = {expected}")
        steer = 1 if (cy - y) * math.cos(h) - (cx - x) * math.sin(h) >= 0.0 else -1
        if sweep != 0.0 and steer != (1 if sweep > 0.0 else -1) * gear:
            raise ValueError("arc centre is on the wrong side for its sweep and gear "
                             "(sign(sweep) must equal steer * gear)")
        ex, ey = x - steer * r * math.sin(h), y + steer * r * math.cos(h)
        if math.hypot(cx - ex, cy - ey) > JOINT_TOL * max(1.0, r):
            raise ValueError(f"arc centre {(cx, cy)} must lie radius {r} from the start, at "
                             f"right angles to the heading (expected {(ex, ey)})")
        for name, v in (("x", x), ("y", y), ("heading", h), ("length", length),
                        ("center", (cx, cy)), ("radius", r), ("sweep", sweep), ("gear", gear),
                        ("steer", steer)):
            object.__setattr__(self, name, v)

    @classmethod
    def from_pose(cls, pose: Pose, radius: float, sweep: float, gear: int = 1) -> Arc:
        """The arc leaving ``pose`` that turns the heading by ``sweep`` on a circle of ``radius``.

        With ``sweep == 0`` (an empty arc) the centre is put on the steer = +1 side.
        """
        pose = Pose.of(pose)
        r = check_radius(radius, "radius")
        sweep = finite(sweep, "sweep")
        gear = _gear(gear)
        steer = (1 if sweep >= 0.0 else -1) * gear
        length = finite(r * abs(sweep), "length")
        c = (pose.x - steer * r * math.sin(pose.heading),
             pose.y + steer * r * math.cos(pose.heading))
        return _unchecked(cls, x=pose.x, y=pose.y, heading=pose.heading, length=length, center=c,
                          radius=r, sweep=sweep, gear=gear, steer=steer)

    kind = "arc"

    @property
    def curvature(self) -> float:
        """Unsigned curvature 1 / radius."""
        return 1.0 / self.radius

    def _xyh(self, s: float) -> tuple[float, float, float]:
        h0 = self.heading
        h = h0 + (self.sweep * (s / self.length) if self.length > 0.0 else 0.0)
        k = self.steer * self.radius
        return self.x + k * (math.sin(h) - math.sin(h0)), self.y - k * (math.cos(h) - math.cos(h0)), h

    def _sample_at(self, s: np.ndarray) -> np.ndarray:
        h0 = self.heading
        h = h0 + (self.sweep / self.length) * s if self.length > 0.0 else np.full(len(s), h0)
        k = self.steer * self.radius
        out = np.empty((len(s), 3))
        out[:, 0] = self.x + k * (np.sin(h) - math.sin(h0))
        out[:, 1] = self.y - k * (np.cos(h) - math.cos(h0))
        out[:, 2] = h
        return out

    def reversed(self) -> Arc:
        """The same arc driven the other way, from its end back to its start."""
        e = self.end_pose()
        return Arc(e.x, e.y, e.heading, self.length, self.center, self.radius, -self.sweep,
                   -self.gear)

    def to_json(self) -> dict:
        """JSON-safe dict: type "arc", x, y, heading, length, center [cx, cy], radius, sweep,
        gear."""
        return {"type": "arc", "x": self.x, "y": self.y, "heading": self.heading,
                "length": self.length, "center": [self.center[0], self.center[1]],
                "radius": self.radius, "sweep": self.sweep, "gear": self.gear}


Segment = Line | Arc

_REQUIRED = {
    "line": frozenset({"type", "x", "y", "heading", "length"}),
    "arc": frozenset({"type", "x", "y", "heading", "length", "center", "radius", "sweep"}),
}
_OPTIONAL = frozenset({"gear"})


def segment_from_json(data: Any, where: str = "segment") -> Segment:
    """A ``Line`` or ``Arc`` from its ``to_json`` dict; ``ValueError`` (naming ``where``) on
    missing or unknown keys, wrong types, NaN/inf, negative lengths or inconsistent arcs."""
    if not isinstance(data, Mapping):
        raise ValueError(f"{where} must be an object, got {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _REQUIRED:
        raise ValueError(f"{where}.type must be 'line' or 'arc', got {kind!r}")
    keys = set(data)
    missing = _REQUIRED[kind] - keys
    if missing:
        raise ValueError(f"{where} ({kind}) is missing {', '.join(sorted(missing))}")
    unknown = keys - _REQUIRED[kind] - _OPTIONAL
    if unknown:
        names = ", ".join(sorted(map(str, unknown)))
        raise ValueError(f"{where} ({kind}) has unknown keys {names}")
    gear = data.get("gear", 1)
    try:
        if kind == "line":
            return Line(data["x"], data["y"], data["heading"], data["length"], gear)
        return Arc(data["x"], data["y"], data["heading"], data["length"], data["center"],
                   data["radius"], data["sweep"], gear)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


# ----------------------------------------------------------------------------- path

def _sign_token(seg: Segment) -> str:
    tok = "S" if isinstance(seg, Line) else ("+" if seg.steer * seg.gear > 0 else "-")
    return tok + ("'" if seg.gear < 0 else "")


@dataclass(frozen=True)
class Path:
    """A unit's route: a chain of ``Line`` and ``Arc`` segments, each starting where the
    previous one ends (within ``JOINT_TOL``).

    Headings may jump at a joint (a polyline's corner, see ``corners``); the gear may flip
    (a cusp, see ``cusps``). ``label`` is a free tag set by the builders, e.g. "+S-".
    At least one segment is required.
    """

    segments: tuple[Segment, ...]
    label: str = ""
    _ends: tuple[float, ...] = field(init=False, repr=False, compare=False, default=())

    def __post_init__(self) -> None:
        segs = self.segments
        if type(segs) is not tuple and (isinstance(segs, (str, bytes, Mapping)) or not isinstance(segs, Iterable)):
            raise ValueError("segments must be a sequence of Line and Arc")
        segs = tuple(segs)
        if not segs:
            raise ValueError("a path needs at least one segment")
        if not isinstance(self.label, str):
            raise ValueError(f"label must be a string, got {self.label!r}")
        ends, total, prev = [], 0.0, None
        for i, seg in enumerate(segs):
            if not isinstance(seg, (Line, Arc)):
                raise ValueError(f"segments[{i}] must be a Line or an Arc, "
                                 f"got {type(seg).__name__}")
            if prev is not None:
                gap = math.hypot(seg.x - prev.x, seg.y - prev.y)
                if not gap <= JOINT_TOL + 1e-12 * max(abs(seg.x), abs(seg.y)):
                    raise ValueError(f"segments[{i}] starts at ({seg.x}, {seg.y}) but segments"
                                     f"[{i - 1}] ends at ({prev.x}, {prev.y}): gap {gap:g}")
            prev = seg.end_pose()
            total += seg.length
            ends.append(total)
        object.__setattr__(self, "segments", segs)
        object.__setattr__(self, "_ends", tuple(ends))

    # -- construction
    @classmethod
    def _chain(cls, segments: tuple[Segment, ...], label: str = "") -> Path:
        """A path from segments a builder has already chained end to start."""
        ends, total = [], 0.0
        for seg in segments:
            total += seg.length
            ends.append(total)
        return _unchecked(cls, segments=segments, label=label, _ends=tuple(ends))

    @classmethod
    def from_waypoints(cls, points: Iterable[Any]) -> Path:
        """A polyline through ``points`` ((x, y) pairs or poses), driven forward.

        Repeated consecutive points are skipped; at least two distinct points are needed.
        """
        if isinstance(points, (str, bytes, Mapping)) or not isinstance(points, Iterable):
            raise ValueError("points must be a sequence of (x, y) pairs")
        pts: list[tuple[float, float]] = []
        for i, p in enumerate(points):
            q = point_of(p, f"points[{i}]")
            if not pts or q != pts[-1]:
                pts.append(q)
        if len(pts) < 2:
            raise ValueError("a path from waypoints needs at least two distinct points")
        # each line ends where the next starts, by construction: no joints to check
        return cls._chain(tuple(Line(a[0], a[1], math.atan2(b[1] - a[1], b[0] - a[0]),
                                     math.hypot(b[0] - a[0], b[1] - a[1]))
                                for a, b in zip(pts, pts[1:], strict=False)), label="polyline")

    @classmethod
    def from_json(cls, data: Any) -> Path:
        """A path from ``to_json`` output; ``ValueError`` saying what is wrong otherwise."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a path must be an object, got {type(data).__name__}")
        unknown = set(data) - {"segments", "label"}
        if unknown:
            raise ValueError(f"path has unknown keys {', '.join(sorted(map(str, unknown)))}")
        if "segments" not in data:
            raise ValueError("path is missing 'segments'")
        segs = data["segments"]
        if not isinstance(segs, (list, tuple)):
            raise ValueError(f"path segments must be a list, got {type(segs).__name__}")
        label = data.get("label", "")
        if not isinstance(label, str):
            raise ValueError(f"path label must be a string, got {label!r}")
        return cls(tuple(segment_from_json(s, f"segments[{i}]") for i, s in enumerate(segs)),
                   label)

    def to_json(self) -> dict:
        """``{"segments": [...]}`` (plus "label" when set), JSON-safe."""
        out: dict = {"segments": [s.to_json() for s in self.segments]}
        if self.label:
            out["label"] = self.label
        return out

    # -- measures
    @property
    def length(self) -> float:
        """Total distance travelled, reversing included."""
        return self._ends[-1]

    @property
    def word(self) -> str:
        """The segments as tokens: "S" line, "+"/"-" arc by sweep sign, "'" after a reversed
        segment; e.g. "+S-" or "-'+'S"."""
        return "".join(_sign_token(s) for s in self.segments)

    def start_pose(self) -> Pose:
        """The pose at distance 0."""
        return self.segments[0].start_pose()

    def end_pose(self) -> Pose:
        """The pose at the end of the path."""
        return self.segments[-1].end_pose()

    def segment_at(self, distance: float) -> tuple[int, float]:
        """(index of the segment, distance into it) at ``distance`` along the path.

        At a joint the earlier segment is reported, at its end.
        """
        d = finite(distance, "distance", limit=math.inf)
        total = self.length
        if d < 0.0 or d > total * (1.0 + 1e-12) + 1e-12:
            raise ValueError(f"distance must be within [0, {total}], got {d}")
        i = min(bisect_left(self._ends, d), len(self.segments) - 1)
        start = self._ends[i - 1] if i else 0.0
        return i, min(max(d - start, 0.0), self.segments[i].length)

    def pose_at(self, distance: float) -> Pose:
        """The pose after travelling ``distance`` (0 <= distance <= length) along the path.

        Pinter's Listing 2: find the segment, then the point on its line or circle. Positions
        are continuous across joints; at a corner the incoming heading is reported.
        """
        i, s = self.segment_at(distance)
        return self.segments[i]._pose_at(s)

    def gear_at(self, distance: float) -> int:
        """+1 driving forward, -1 reversing, at ``distance``."""
        return self.segments[self.segment_at(distance)[0]].gear

    def corners(self, tol: float = 1e-6) -> list[int]:
        """Indices i of joints (between segments i-1 and i) where the heading jumps by > tol."""
        return [i for i in range(1, len(self.segments))
                if abs(angle_diff(self.segments[i].heading,
                                  self.segments[i - 1].end_pose().heading)) > tol]

    def cusps(self) -> list[float]:
        """Distances along the path at which the gear flips (the unit stops and reverses)."""
        return [self._ends[i - 1] for i in range(1, len(self.segments))
                if self.segments[i].gear != self.segments[i - 1].gear]

    def max_curvature(self, corner_tol: float = 1e-6) -> float:
        """The tightest curvature on the path: max over arcs of 1 / radius, 0 for straight
        paths, ``inf`` if the heading jumps at a joint (a corner)."""
        if self.corners(corner_tol):
            return math.inf
        return max(s.curvature for s in self.segments)

    def min_radius(self) -> float:
        """The smallest arc radius on the path (``inf`` if it has no arcs)."""
        return min((s.radius for s in self.segments if isinstance(s, Arc)), default=math.inf)

    def sample(self, step: float) -> np.ndarray:
        """Poses along the whole path as an (n, 3) array of x, y, heading.

        Row k is at distance ``k * length / (n - 1)``: evenly spaced, at most ``step`` apart,
        start and end included; headings in (-pi, pi].
        """
        total = self.length
        d = np.linspace(0.0, total, _sample_count(total, step))
        idx = np.minimum(np.searchsorted(np.asarray(self._ends), d, side="left"),
                         len(self.segments) - 1)
        out = np.empty((len(d), 3))
        start = 0.0
        for i, seg in enumerate(self.segments):
            mask = idx == i
            if mask.any():
                out[mask] = seg._sample_at(np.clip(d[mask] - start, 0.0, seg.length))
            start = self._ends[i]
        out[:, 2] = _normalize_array(out[:, 2])
        return out

    def reversed(self) -> Path:
        """This path driven backwards from its end to its start (every gear flipped)."""
        return Path(tuple(s.reversed() for s in reversed(self.segments)))
