"""The directional lattice (Pinter's Directional A*): states, neighbourhoods and the curve per move.

A state is a tile and one of 8 headings k (angle k * pi/4: 0 east, 2 south, y down). From a
state, Directional-8/24/48 reach the tiles 1, 2 or 3 away (Pinter's ``DirTable``: the 8, 24, 48
surrounding tiles) at each of the 8 end headings. The move between two states is the shortest
curve for the unit's turning radius between the tile centres at those headings: the shortest
Dubins word (Pinter's four arc-line-arc curves, or an arc-arc-arc one where that is shorter);
for a unit that can back up, the Reeds-Shepp word of least *cost*, where a reversed stretch
costs ``reverse_penalty`` times its length (Nav2's default, 2.0).

Moves are computed for the start headings east (k = 0) and south-east (k = 1) only, half of each
by a mirror (y -> -y fixes east; x <-> y fixes south-east), and the rest by the quarter turns:
the grid's eight-fold symmetry, so one octant of the table is computed. A move is kept as its
segments relative to the parent tile's centre (``Move``), so the table's tiles, its cost and the
path a plan returns come from the very same curve.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import IntEnum

from ..geometry.curves import dubins, reeds_shepp_all
from ..geometry.primitives import Arc, Line, Path, Pose
from ..outcomes import BadInput, shown

HEADINGS = 8
STEP = math.pi / 4.0
#: Nav2 Smac planner's default: a reversed tile costs twice a forward one.
REVERSE_PENALTY = 2.0


class Neighbourhood(IntEnum):
    """Pinter's Directional-8, -24 and -48: children up to 1, 2 or 3 tiles away."""

    D8 = 1
    D24 = 2
    D48 = 3

    @property
    def count(self) -> int:
        return (2 * self.value + 1) ** 2 - 1


def dir_table(reach: int) -> list[tuple[int, int]]:
    """Pinter's DirTable: the (dx, dy) offsets of the tiles within ``reach`` (Chebyshev), nearest
    ring first, each ring clockwise from east (y down); e.g. 24 entries for reach 2."""
    out = []
    for ring in range(1, reach + 1):
        cells = [(dx, dy) for dy in range(-ring, ring + 1) for dx in range(-ring, ring + 1)
                 if max(abs(dx), abs(dy)) == ring]
        cells.sort(key=lambda c: math.atan2(c[1], c[0]) % (2.0 * math.pi))
        out += cells
    return out


def heading_angle(k: int) -> float:
    """Heading index (0..7) to radians, normalised into (-pi, pi]."""
    return math.remainder(k * STEP, 2.0 * math.pi)


def heading_index(angle: object, field: str) -> int:
    """A heading in radians to the nearest of the 8 lattice headings; ``BadInput`` naming
    ``field`` for NaN, inf or a non-number."""
    if isinstance(angle, bool) or not isinstance(angle, (int, float)) or not math.isfinite(angle):
        raise BadInput(f"{field} must be a finite number of radians, got {shown(angle)}", field)
    return round(float(angle) / STEP) % HEADINGS


def heading_set(value: object, field: str) -> frozenset[int]:
    """The lattice headings a goal accepts: None is any of the 8, one heading (radians) the
    nearest lattice heading, a list or tuple of headings the nearest of each; ``BadInput``
    naming ``field`` for an empty list or a heading that is not a finite number."""
    if value is None:
        return frozenset(range(HEADINGS))
    if isinstance(value, (list, tuple)):
        if not value:
            raise BadInput(f"{field} headings must name at least one heading", field)
        return frozenset(heading_index(v, field) for v in value)
    return frozenset((heading_index(value, field),))


@dataclass(frozen=True)
class UnitKind:
    """What a directional table depends on: body ``width`` and turning ``radius`` (tiles), the
    neighbourhood, whether the unit may reverse, and the cost factor of reversed stretches."""

    width: float
    radius: float
    neighbourhood: Neighbourhood
    can_reverse: bool = False
    reverse_penalty: float = REVERSE_PENALTY

    def __post_init__(self) -> None:
        for name in ("width", "radius"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
                raise BadInput(f"{name} must be a positive number of tiles, got {shown(v)}", name)
            object.__setattr__(self, name, float(v))
        if not isinstance(self.neighbourhood, Neighbourhood):
            raise BadInput(f"neighbourhood must be a Neighbourhood, got {shown(self.neighbourhood)}", "neighbourhood")
        p = self.reverse_penalty
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not math.isfinite(p) or p < 1.0:
            raise BadInput(f"reverse_penalty must be a number >= 1, got {shown(p)}", "reverse_penalty")
        if not isinstance(self.can_reverse, bool):
            raise BadInput(f"can_reverse must be true or false, got {shown(self.can_reverse)}", "can_reverse")


#: A segment relative to a parent tile's centre: ("L", x, y, heading, length, gear) or
#: ("A", x, y, heading, radius, sweep, gear); tiles and radians.
Seg = tuple


@dataclass(frozen=True)
class Move:
    """One lattice move: its segments (relative to the parent's centre), centreline length,
    cost before terrain (length, reversed stretches times the penalty) and ``turn``, the heading
    change it makes in all (radians: the sum of its arcs' absolute sweeps; what a turn penalty
    charges)."""

    segments: tuple[Seg, ...]
    length: float
    cost: float
    turn: float = 0.0

    def path(self, ox: float, oy: float) -> Path:
        """The move as a ``Path`` with the parent's centre at (ox, oy)."""
        segs: list[Line | Arc] = []
        for s in self.segments:
            pose = Pose(ox + s[1], oy + s[2], s[3])
            if s[0] == "L":
                segs.append(Line.from_pose(pose, s[4], s[5]))
            else:
                segs.append(Arc.from_pose(pose, s[4], s[5], s[6]))
        if not segs:
            segs.append(Line.from_pose(Pose(ox, oy, 0.0), 0.0))
        return Path(tuple(segs))


def move_of(path: Path, penalty: float, ox: float = 0.0, oy: float = 0.0) -> Move:
    """A curve as a ``Move`` relative to (ox, oy)."""
    segs: list[Seg] = []
    cost = turn = 0.0
    for seg in path.segments:
        if seg.length <= 0.0:
            continue
        cost += seg.length * (penalty if seg.gear < 0 else 1.0)
        if isinstance(seg, Arc):
            segs.append(("A", seg.x - ox, seg.y - oy, seg.heading, seg.radius, seg.sweep, seg.gear))
            turn += abs(seg.sweep)
        else:
            segs.append(("L", seg.x - ox, seg.y - oy, seg.heading, seg.length, seg.gear))
    return Move(tuple(segs), path.length, cost, turn)


def best_curve(p0: Pose, p1: Pose, kind: UnitKind) -> Path:
    """The move's curve: the shortest Dubins path, or with reversing the Reeds-Shepp path of
    least cost (reversed length times ``reverse_penalty``)."""
    if not kind.can_reverse:
        return dubins(p0, p1, kind.radius)
    penalty = kind.reverse_penalty
    return min(reeds_shepp_all(p0, p1, kind.radius),
               key=lambda p: sum(s.length * (penalty if s.gear < 0 else 1.0) for s in p.segments))


# -- the grid's symmetries, acting on a move relative to the parent's centre ----------------------

def _seg_map(s: Seg, fx: object) -> Seg:
    """Apply a point map ``fx`` (which also says how headings and sweeps change) to a segment."""
    (x, y), h, flip = fx(s[1], s[2], s[3])  # type: ignore[operator]
    if s[0] == "L":
        return ("L", x, y, h, s[4], s[5])
    return ("A", x, y, h, s[4], -s[5] if flip else s[5], s[6])


def _rot(x: float, y: float, h: float) -> tuple[tuple[float, float], float, bool]:
    return (-y, x), h + 0.5 * math.pi, False  # a quarter turn clockwise on screen (east -> south)


def _mirror_y(x: float, y: float, h: float) -> tuple[tuple[float, float], float, bool]:
    return (x, -y), -h, True  # fixes east


def _mirror_diag(x: float, y: float, h: float) -> tuple[tuple[float, float], float, bool]:
    return (y, x), 0.5 * math.pi - h, True  # fixes south-east


def mapped(move: Move, fx: object) -> Move:
    return Move(tuple(_seg_map(s, fx) for s in move.segments), move.length, move.cost, move.turn)


def rotate_key(h: int, dx: int, dy: int, e: int) -> tuple[int, int, int, int]:
    return (h + 2) % 8, -dy, dx, (e + 2) % 8


def mirror_key(h: int, dx: int, dy: int, e: int) -> tuple[tuple[int, int, int, int], object]:
    """The mirror image of an east or south-east key, and the point map that makes it."""
    if h == 0:
        return (0, dx, -dy, (-e) % 8), _mirror_y
    return (1, dy, dx, (2 - e) % 8), _mirror_diag


def rotate_cell(c: tuple[int, int]) -> tuple[int, int]:
    return -c[1], c[0]


def mirror_cell(h: int, c: tuple[int, int]) -> tuple[int, int]:
    return (c[0], -c[1]) if h == 0 else (c[1], c[0])


def rotor() -> object:
    return _rot
