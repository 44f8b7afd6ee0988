"""Collision (layer 4): the unit's footprint and the walkable tests for lines and curves.

Coordinates are those of all arcstar: tile (x, y) covers [x, x+1) x [y, y+1), its centre is
(x + 0.5, y + 0.5), x grows right, y grows DOWN, headings are radians with 0 = +x (east) and
pi/2 = +y (south, down the screen).

A unit is a disc of diameter ``width`` tiles (``Footprint``). A blocked tile is the *closed*
square [x, x+1] x [y, y+1]; everything off the map counts as blocked.

**Touching is allowed.** The body overlaps a blocked tile when the distance from its centre
to the tile is *less* than its radius; a unit that only touches a wall (distance == radius,
e.g. a width-1 unit walking down a 1-wide corridor between tile centres) is legal. To make
that robust in floating point every test uses the radius ``width / 2 - TOUCH`` and counts
distance ``<=`` that as a hit: contacts within ``TOUCH`` (1e-9 tile) of exact tangency are
"touching", anything deeper is an overlap. ``clearance.passable_for`` uses the same rule, so
the two layers agree exactly.

The tests:

- ``walkable_sampled``: Pinter's Walkable() (his Figure 3): samples every fifth of a tile,
  each tested at the four points of a diamond. Fast and approximate: it can miss a blocked
  corner that pokes into the disc between two diamond points (and anything thinner than a
  fifth of a tile between samples). It is never *stricter* than the exact test: every point it
  tests lies inside the (shrunk) disc, so "not walkable" from it is always right.
- ``swept_line_clear``: EXACT: the disc swept along a segment (a capsule). Per row of tiles
  the capsule's exact x-extent is computed (its two end discs and two straight sides clipped
  to the row; the extent of a convex set in a strip is attained on its boundary), and a
  per-row prefix sum of the blocked mask says whether any blocked tile lies in that extent.
  No per-tile work: the cost is a few microseconds per row of tiles the capsule crosses (it
  iterates along the segment's shorter axis), and a summed-area table answers "nothing blocked
  anywhere near" in O(1).
- ``swept_arc_clear``: EXACT for an ``Arc`` (an annular sector with round caps): per candidate
  blocked tile, the exact arc-to-box distance (box corners to the arc, the arc's end points and
  axis-extreme points to the box, and circle/edge crossings).
- ``path_clear``, ``first_collision``, ``blocked_stretches``: a ``geometry.Path`` of lines and
  arcs, built on the exact segment tests (sampling is used only to place stretch ends, never
  to decide legality).
- ``walkable_curve``: Pinter's curved Walkable(a, heading_a, b, heading_b): the shortest Dubins
  curve (his four arc-line-arc curves plus the two arc-arc-arc ones) that passes the exact test.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..geometry.curves import dubins_all
from ..geometry.primitives import LIMIT, Arc, Line, Path, Pose, finite, point_of
from ..maps.tilemap import TileMap

__all__ = [
    "MIN_WIDTH", "SAMPLE_STEP", "TOUCH", "Footprint", "blocked_stretches", "first_collision",
    "path_clear", "swept_arc_clear", "swept_line_clear", "walkable", "walkable_curve",
    "walkable_sampled",
]

#: Contacts within this distance (tiles) of exact tangency count as touching, not overlapping.
TOUCH = 1e-9
#: The narrowest unit accepted (tiles).
MIN_WIDTH = 1e-6
#: The widest unit accepted (tiles); nothing wider fits on a map anyway.
MAX_WIDTH = 1e6
#: Pinter's sampling step for Walkable(): a fifth of a tile.
SAMPLE_STEP = 0.2
#: Where ``first_collision`` and ``blocked_stretches`` place an end, to within (tiles).
LOCATE_TOL = 1e-7

_TWO_PI = 2.0 * math.pi
_HALF_PI = 0.5 * math.pi
_PY_SAMPLES = 15  # Pinter's test samples short moves in pure Python
_PY_ARC_TILES = 48  # arcs with at most this many blocked tiles near them: filtered in pure Python
_PY_ROWS = 96  # capsules spanning at most this many rows are checked in pure Python (~1 us a row)


# ----------------------------------------------------------------------------- footprint

@dataclass(frozen=True, slots=True)
class Footprint:
    """A unit's body: a disc of diameter ``width`` tiles (``radius = width / 2``).

    ``width`` must be a finite number in [MIN_WIDTH, MAX_WIDTH]; anything else (NaN, inf,
    zero, negative, a string, a bool) raises ``ValueError``.
    """

    width: float

    def __post_init__(self) -> None:
        w = self.width
        if type(w) is not float and (isinstance(w, bool) or not isinstance(w, numbers.Real)):
            raise ValueError(f"unit width must be a number (tiles), got {w!r}")
        w = float(w)
        if not math.isfinite(w):
            raise ValueError(f"unit width must be a finite number of tiles, got {w!r}")
        if w <= 0.0:
            raise ValueError(f"unit width must be positive, got {w!r}")
        if w < MIN_WIDTH or w > MAX_WIDTH:
            raise ValueError(f"unit width must be within [{MIN_WIDTH:g}, {MAX_WIDTH:g}] tiles, got {w!r}")
        object.__setattr__(self, "width", w)

    @property
    def radius(self) -> float:
        return 0.5 * self.width


def check_width(width: Any) -> float:
    """A unit width (a number or a ``Footprint``) as a validated float; ``ValueError`` else."""
    if isinstance(width, Footprint):
        return width.width
    if type(width) is float and MIN_WIDTH <= width <= MAX_WIDTH:
        return width
    return Footprint(width).width


def _check_map(tilemap: Any) -> TileMap:
    if not isinstance(tilemap, TileMap):
        raise ValueError(f"map must be a TileMap, got {type(tilemap).__name__}")
    return tilemap


def _xy(p: Any, name: str) -> tuple[float, float]:
    """A point as (x, y) floats; a fast path for plain tuples of floats, else ``point_of``."""
    if type(p) is tuple and len(p) == 2:
        x, y = p
        if type(x) is float and type(y) is float and -LIMIT <= x <= LIMIT and -LIMIT <= y <= LIMIT:
            return p
    return point_of(p, name)


def body_reach(width: float) -> float:
    """The radius the tests use: half the width less the touching tolerance."""
    return 0.5 * width - TOUCH


# ----------------------------------------------------------------------------- map tables

class HitTables:
    """Per map version: blocked mask, per-row and per-column prefix sums, summed-area table."""

    __slots__ = ("W", "H", "blocked", "rowsum", "colsum", "sat")

    def __init__(self, blocked: np.ndarray) -> None:
        self.H, self.W = blocked.shape
        self.blocked = blocked
        b = blocked.astype(np.int32)
        self.rowsum = np.zeros((self.H, self.W + 1), dtype=np.int32)
        np.cumsum(b, axis=1, out=self.rowsum[:, 1:])
        self.colsum = np.zeros((self.W, self.H + 1), dtype=np.int32)
        np.cumsum(b.T, axis=1, out=self.colsum[:, 1:])
        self.sat = np.zeros((self.H + 1, self.W + 1), dtype=np.int32)
        self.sat[1:, 1:] = self.rowsum[:, 1:].cumsum(axis=0)

    def count(self, i0: int, i1: int, j0: int, j1: int) -> int:
        """Blocked tiles in columns i0..i1, rows j0..j1 (inclusive, already clamped)."""
        s = self.sat
        return int(s[j1 + 1, i1 + 1] - s[j0, i1 + 1] - s[j1 + 1, i0] + s[j0, i0])


def hit_tables(tilemap: TileMap) -> HitTables:
    return tilemap.cached("collision:tables", lambda: HitTables(tilemap.blocked))


# ----------------------------------------------------------------------------- exact: lines

def line_hits(t: HitTables, ax: float, ay: float, bx: float, by: float, r: float) -> bool:
    """True when the closed capsule of radius ``r`` around a-b meets a blocked tile or the
    outside of the map (``r`` already reduced by TOUCH)."""
    if ax <= bx:
        xmin, xmax = ax, bx
    else:
        xmin, xmax = bx, ax
    if ay <= by:
        ymin, ymax = ay, by
    else:
        ymin, ymax = by, ay
    W, H = t.W, t.H
    if xmin - r <= 0.0 or ymin - r <= 0.0 or xmax + r >= W or ymax + r >= H:
        return True
    i0 = max(math.ceil(xmin - r) - 1, 0)
    i1 = min(math.floor(xmax + r), W - 1)
    j0 = max(math.ceil(ymin - r) - 1, 0)
    j1 = min(math.floor(ymax + r), H - 1)
    if t.count(i0, i1, j0, j1) == 0:
        return False
    if xmax - xmin >= ymax - ymin:  # walk the rows (fewer of them)
        return _capsule_rows(t.rowsum, ax, ay, bx, by, r, j0, j1, W)
    return _capsule_rows(t.colsum, ay, ax, by, bx, r, i0, i1, H)


def _capsule_rows(prefix: np.ndarray, ax: float, ay: float, bx: float, by: float, r: float,
                  j0: int, j1: int, width: int) -> bool:
    """Whether any row j0..j1 has a blocked tile inside the capsule's exact x-extent there.

    ``prefix[j, i]`` counts blocked tiles before column i in row j. For the strip
    y in [j, j+1] the extent is the union of: the two end discs clipped to the strip and the
    two straight sides clipped to the strip (the extremes of a convex set within a strip lie
    on its boundary, which is made of those pieces).
    """
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    if length > 0.0:
        px, py = -dy * r / length, dx * r / length  # offset of the sides
    else:
        px = py = 0.0
    if j1 - j0 + 1 > _PY_ROWS:
        return _capsule_rows_np(prefix, ax, ay, bx, by, px, py, r, j0, j1, width)
    r2 = r * r
    inv = 1.0 / dy if dy != 0.0 else 0.0
    sides = ((ax + px, ay + py), (ax - px, ay - py))
    last = width - 1
    for j in range(j0, j1 + 1):
        y0, y1 = float(j), j + 1.0
        lo, hi = math.inf, -math.inf
        for qx, qy in ((ax, ay), (bx, by)):
            e = y0 - qy if qy < y0 else (qy - y1 if qy > y1 else 0.0)
            if e <= r:
                h = math.sqrt(r2 - e * e)
                if qx - h < lo:
                    lo = qx - h
                if qx + h > hi:
                    hi = qx + h
        for sx, sy in sides:
            if dy == 0.0:
                if y0 <= sy <= y1:
                    u0, u1 = sx, sx + dx
                else:
                    continue
            else:
                t0, t1 = (y0 - sy) * inv, (y1 - sy) * inv
                if t0 > t1:
                    t0, t1 = t1, t0
                if t0 < 0.0:
                    t0 = 0.0
                if t1 > 1.0:
                    t1 = 1.0
                if t0 > t1:
                    continue
                u0, u1 = sx + t0 * dx, sx + t1 * dx
            if u0 > u1:
                u0, u1 = u1, u0
            if u0 < lo:
                lo = u0
            if u1 > hi:
                hi = u1
        if lo > hi:
            continue
        i_lo = math.ceil(lo) - 1
        i_hi = math.floor(hi)
        if i_lo < 0:
            i_lo = 0
        if i_hi > last:
            i_hi = last
        if i_lo <= i_hi and prefix[j, i_hi + 1] != prefix[j, i_lo]:
            return True
    return False


def _capsule_rows_np(prefix: np.ndarray, ax: float, ay: float, bx: float, by: float, px: float,
                     py: float, r: float, j0: int, j1: int, width: int) -> bool:
    """``_capsule_rows`` vectorised over the rows (for long capsules)."""
    dx, dy = bx - ax, by - ay
    y0 = np.arange(j0, j1 + 1, dtype=np.float64)
    y1 = y0 + 1.0
    lo = np.full(y0.shape, np.inf)
    hi = np.full(y0.shape, -np.inf)
    r2 = r * r
    for qx, qy in ((ax, ay), (bx, by)):
        e = np.maximum(np.maximum(y0 - qy, qy - y1), 0.0)
        ok = e <= r
        h = np.sqrt(np.maximum(r2 - e * e, 0.0))
        lo = np.where(ok, np.minimum(lo, qx - h), lo)
        hi = np.where(ok, np.maximum(hi, qx + h), hi)
    for sx, sy in ((ax + px, ay + py), (ax - px, ay - py)):
        if dy == 0.0:
            if not y0[0] <= sy <= y1[-1]:
                continue
            ok = (y0 <= sy) & (sy <= y1)
            u0, u1 = min(sx, sx + dx), max(sx, sx + dx)
            lo = np.where(ok, np.minimum(lo, u0), lo)
            hi = np.where(ok, np.maximum(hi, u1), hi)
            continue
        ta, tb = (y0 - sy) / dy, (y1 - sy) / dy
        t0 = np.maximum(np.minimum(ta, tb), 0.0)
        t1 = np.minimum(np.maximum(ta, tb), 1.0)
        ok = t0 <= t1
        xa, xb = sx + t0 * dx, sx + t1 * dx
        lo = np.where(ok, np.minimum(lo, np.minimum(xa, xb)), lo)
        hi = np.where(ok, np.maximum(hi, np.maximum(xa, xb)), hi)
    live = lo <= hi
    if not live.any():
        return False
    rows = np.arange(j0, j1 + 1)[live]
    i_lo = np.maximum(np.ceil(lo[live]) - 1, 0).astype(np.intp)
    i_hi = np.minimum(np.floor(hi[live]), width - 1).astype(np.intp)
    ok = i_lo <= i_hi
    if not ok.any():
        return False
    rows, i_lo, i_hi = rows[ok], i_lo[ok], i_hi[ok]
    return bool(np.any(prefix[rows, i_hi + 1] != prefix[rows, i_lo]))


# ----------------------------------------------------------------------------- exact: arcs

class _ArcGeom:
    """An arc as centre, radius, start angle ``a0`` (around the centre) and signed ``da``;
    the point at fraction u is centre + R (cos, sin)(a0 + u da)."""

    __slots__ = ("cx", "cy", "R", "a0", "da", "lo", "span", "full", "p0", "p1", "specials")

    def __init__(self, cx: float, cy: float, R: float, a0: float, da: float) -> None:
        self.cx, self.cy, self.R, self.a0, self.da = cx, cy, R, a0, da
        self.span = abs(da)
        self.full = self.span >= _TWO_PI
        self.lo = a0 if da >= 0.0 else a0 + da
        self.p0 = (cx + R * math.cos(a0), cy + R * math.sin(a0))
        a1 = a0 + da
        self.p1 = (cx + R * math.cos(a1), cy + R * math.sin(a1))
        pts = [self.p0, self.p1]
        for k, (ux, uy) in enumerate(((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))):
            if self.in_sweep(k * _HALF_PI):
                pts.append((cx + R * ux, cy + R * uy))
        self.specials = tuple(pts)

    def in_sweep(self, angle: float) -> bool:
        return self.full or (angle - self.lo) % _TWO_PI <= self.span

    def sub(self, u0: float, u1: float) -> _ArcGeom:
        return _ArcGeom(self.cx, self.cy, self.R, self.a0 + u0 * self.da, (u1 - u0) * self.da)

    def point(self, u: float) -> tuple[float, float]:
        a = self.a0 + u * self.da
        return self.cx + self.R * math.cos(a), self.cy + self.R * math.sin(a)


def _arc_of(seg: Arc) -> _ArcGeom:
    cx, cy = seg.center
    return _ArcGeom(cx, cy, seg.radius, math.atan2(seg.y - cy, seg.x - cx), seg.sweep)


def _box_d2(px: float, py: float, i: int, j: int) -> float:
    """Squared distance from a point to the closed square [i, i+1] x [j, j+1]."""
    ex = i - px if px < i else (px - i - 1 if px > i + 1 else 0.0)
    ey = j - py if py < j else (py - j - 1 if py > j + 1 else 0.0)
    return ex * ex + ey * ey


def _arc_box_hit(g: _ArcGeom, i: int, j: int, r: float) -> bool:
    """Whether the arc comes within ``r`` of the closed square (i, j). Exact:

    if the arc misses the box, the closest pair is an arc end point and the box, or a box
    corner and the arc's interior (radial projection), or a box edge and the arc's interior,
    where the arc's tangent is parallel to the edge: an axis-extreme point of the circle. If
    it meets the box, an end point lies in the box or the circle crosses an edge in the sweep.
    """
    r2 = r * r
    for px, py in g.specials:
        if _box_d2(px, py, i, j) <= r2:
            return True
    cx, cy, R = g.cx, g.cy, g.R
    for qx, qy in ((i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1)):
        vx, vy = qx - cx, qy - cy
        rho = math.hypot(vx, vy)
        if abs(rho - R) <= r and (rho == 0.0 or g.in_sweep(math.atan2(vy, vx))):
            return True
    for edge in (i, i + 1):  # vertical edges x = edge, y in [j, j+1]
        ex = edge - cx
        if abs(ex) <= R:
            h = math.sqrt(R * R - ex * ex)
            for ey in (-h, h):
                if j <= cy + ey <= j + 1 and g.in_sweep(math.atan2(ey, ex)):
                    return True
    for edge in (j, j + 1):  # horizontal edges
        ey = edge - cy
        if abs(ey) <= R:
            h = math.sqrt(R * R - ey * ey)
            for ex in (-h, h):
                if i <= cx + ex <= i + 1 and g.in_sweep(math.atan2(ey, ex)):
                    return True
    return False


def _arc_hits(t: HitTables, g: _ArcGeom, r: float) -> bool:
    """True when the disc of radius ``r`` swept along the arc meets a blocked tile or the
    outside of the map."""
    xs = [p[0] for p in g.specials]
    ys = [p[1] for p in g.specials]
    xmin, xmax, ymin, ymax = min(xs), max(xs), min(ys), max(ys)
    W, H = t.W, t.H
    if xmin - r <= 0.0 or ymin - r <= 0.0 or xmax + r >= W or ymax + r >= H:
        return True
    i0 = max(math.ceil(xmin - r) - 1, 0)
    i1 = min(math.floor(xmax + r), W - 1)
    j0 = max(math.ceil(ymin - r) - 1, 0)
    j1 = min(math.floor(ymax + r), H - 1)
    n = t.count(i0, i1, j0, j1)
    if n == 0:
        return False
    jj, ii = np.nonzero(t.blocked[j0:j1 + 1, i0:i1 + 1])
    outer = g.R + r
    inner = g.R - r
    if n <= _PY_ARC_TILES:
        cx, cy = g.cx, g.cy
        outer2, inner2 = outer * outer, (inner * inner if inner > 0.0 else -1.0)
        for i, j in zip((ii + i0).tolist(), (jj + j0).tolist()):
            # annulus filter: the swept body lies within R - r <= |p - centre| <= R + r
            ex = i - cx if cx < i else (cx - i - 1 if cx > i + 1 else 0.0)
            ey = j - cy if cy < j else (cy - j - 1 if cy > j + 1 else 0.0)
            if ex * ex + ey * ey > outer2:
                continue
            fx = max(abs(i - cx), abs(i + 1 - cx))
            fy = max(abs(j - cy), abs(j + 1 - cy))
            if fx * fx + fy * fy < inner2:
                continue
            if _arc_box_hit(g, i, j, r):
                return True
        return False
    bx0 = ii + i0 - g.cx
    by0 = jj + j0 - g.cy
    nx = np.maximum(np.maximum(bx0, -(bx0 + 1.0)), 0.0)
    ny = np.maximum(np.maximum(by0, -(by0 + 1.0)), 0.0)
    fx = np.maximum(np.abs(bx0), np.abs(bx0 + 1.0))
    fy = np.maximum(np.abs(by0), np.abs(by0 + 1.0))
    keep = nx * nx + ny * ny <= outer * outer
    if inner > 0.0:
        keep &= fx * fx + fy * fy >= inner * inner
    for i, j in zip((ii[keep] + i0).tolist(), (jj[keep] + j0).tolist()):
        if _arc_box_hit(g, i, j, r):
            return True
    return False


# ----------------------------------------------------------------------------- primitives

def primitive_of(seg: Line | Arc) -> tuple:
    """A segment as a primitive: ("L", ax, ay, bx, by) or ("A", _ArcGeom)."""
    if isinstance(seg, Arc) and seg.length > 0.0:
        return ("A", _arc_of(seg))
    e = seg.end_pose()
    return ("L", seg.x, seg.y, e.x, e.y)


def _sub(prim: tuple, u0: float, u1: float) -> tuple:
    if prim[0] == "A":
        return ("A", prim[1].sub(u0, u1))
    _, ax, ay, bx, by = prim
    dx, dy = bx - ax, by - ay
    return ("L", ax + u0 * dx, ay + u0 * dy, ax + u1 * dx, ay + u1 * dy)


def primitive_hits(t: HitTables, prim: tuple, r: float) -> bool:
    if prim[0] == "A":
        return _arc_hits(t, prim[1], r)
    return line_hits(t, prim[1], prim[2], prim[3], prim[4], r)


# ----------------------------------------------------------------------------- public tests

def swept_line_clear(tilemap: TileMap, a: Any, b: Any, width: Any) -> bool:
    """EXACT: whether a disc of diameter ``width`` moved in a straight line from point ``a``
    to point ``b`` (the capsule it sweeps) stays on the map and overlaps no blocked tile.

    Points are (x, y) in tiles (a tile's centre is (x + 0.5, y + 0.5)) or ``Pose``s. Touching
    a blocked tile (distance == radius, within ``TOUCH``) is allowed.
    """
    t = hit_tables(_check_map(tilemap))
    ax, ay = _xy(a, "a")
    bx, by = _xy(b, "b")
    return not line_hits(t, ax, ay, bx, by, body_reach(check_width(width)))


def swept_arc_clear(tilemap: TileMap, arc: Arc, width: Any) -> bool:
    """EXACT: whether a disc of diameter ``width`` driven along ``arc`` (an annular sector
    with round caps) stays on the map and overlaps no blocked tile."""
    t = hit_tables(_check_map(tilemap))
    if not isinstance(arc, Arc):
        raise ValueError(f"arc must be a geometry.Arc, got {type(arc).__name__}")
    return not primitive_hits(t, primitive_of(arc), body_reach(check_width(width)))


def walkable_sampled(tilemap: TileMap, a: Any, b: Any, width: Any) -> bool:
    """Pinter's Walkable() (his Figure 3), as published: walk from ``a`` to ``b`` sampling
    every fifth of a tile (both ends included) and at each sample test the four points of a
    diamond of the unit's width, (x +- w/2, y) and (x, y +- w/2), against blocked tiles
    (off the map counts as blocked).

    Approximate. It can say walkable where the body does clip a wall: a blocked tile's corner
    can poke into the disc between two diamond points (the diamond's gaps), and a sliver
    thinner than the sampling step can fall between samples; ``swept_line_clear`` is exact.
    It is never stricter than the exact test: the diamond points are pulled in by ``TOUCH`` so
    a unit that only touches a wall is not refused, and every point tested lies inside the
    disc, so a "not walkable" answer is always right.
    """
    t = hit_tables(_check_map(tilemap))
    ax, ay = _xy(a, "a")
    bx, by = _xy(b, "b")
    h = body_reach(check_width(width))
    n = max(1, math.ceil(math.hypot(bx - ax, by - ay) / SAMPLE_STEP))
    if n <= _PY_SAMPLES:  # short moves: a plain loop beats numpy's per-call overhead
        blocked, W, H = t.blocked, t.W, t.H
        dx, dy = bx - ax, by - ay
        for k in range(n + 1):
            x, y = ax + k / n * dx, ay + k / n * dy
            for px, py in ((x + h, y), (x - h, y), (x, y + h), (x, y - h)):
                ix, iy = math.floor(px), math.floor(py)
                if ix < 0 or iy < 0 or ix >= W or iy >= H or blocked[iy, ix]:
                    return False
        return True
    u = np.linspace(0.0, 1.0, n + 1)
    xs = ax + u * (bx - ax)
    ys = ay + u * (by - ay)
    pxs = np.concatenate((xs + h, xs - h, xs, xs))
    pys = np.concatenate((ys, ys, ys + h, ys - h))
    ixs = np.floor(pxs)
    iys = np.floor(pys)
    if ixs.min() < 0 or iys.min() < 0 or ixs.max() >= t.W or iys.max() >= t.H:
        return False
    return not bool(t.blocked[iys.astype(np.intp), ixs.astype(np.intp)].any())


def walkable(tilemap: TileMap, a: Any, b: Any, width: Any, exact: bool = True) -> bool:
    """Whether the unit can move straight from ``a`` to ``b``: the exact swept-disc test by
    default (``swept_line_clear``), Pinter's sampled diamond test with ``exact=False``."""
    if not isinstance(exact, bool):
        raise ValueError(f"exact must be true or false, got {exact!r}")
    if exact:
        return swept_line_clear(tilemap, a, b, width)
    return walkable_sampled(tilemap, a, b, width)


def _check_path(path: Any) -> Path:
    if not isinstance(path, Path):
        raise ValueError(f"path must be a geometry.Path, got {type(path).__name__}")
    return path


def path_clear(tilemap: TileMap, path: Path, width: Any) -> bool:
    """EXACT: whether the unit's body stays clear of blocked tiles (and on the map) along
    every line and arc of ``path``."""
    t = hit_tables(_check_map(tilemap))
    r = body_reach(check_width(width))
    return not any(primitive_hits(t, primitive_of(seg), r) for seg in _check_path(path).segments)


def _first_hit(t: HitTables, prim: tuple, length: float, r: float) -> float:
    """Fraction along a primitive known to hit where the overlap begins (to LOCATE_TOL)."""
    if primitive_hits(t, _sub(prim, 0.0, 0.0), r):
        return 0.0
    lo, hi = 0.0, 1.0
    tol = LOCATE_TOL / length if length > 0.0 else 1.0
    while hi - lo > tol:
        m = 0.5 * (lo + hi)
        if primitive_hits(t, _sub(prim, 0.0, m), r):
            hi = m
        else:
            lo = m
    return hi


def first_collision(tilemap: TileMap, path: Path, width: Any) -> float | None:
    """Distance along ``path`` at which the body first overlaps a blocked tile (or leaves
    the map), to within ``LOCATE_TOL``; ``None`` when the whole path is clear.

    Decided by the exact segment tests; the place is then found by bisecting on the exact
    test of the path's prefix.
    """
    t = hit_tables(_check_map(tilemap))
    r = body_reach(check_width(width))
    start = 0.0
    for seg in _check_path(path).segments:
        prim = primitive_of(seg)
        if primitive_hits(t, prim, r):
            return start + _first_hit(t, prim, seg.length, r) * seg.length
        start += seg.length
    return None


def blocked_stretches(tilemap: TileMap, path: Path, width: Any,
                      step: float = 0.05) -> list[tuple[float, float]]:
    """Stretches ``(from, to)`` of distance along ``path`` where the body overlaps a blocked
    tile or leaves the map (what the lab draws red), in order, merged where they meet.

    Legality is decided by the exact segment tests: a segment that passes has no stretch, and
    one that fails has at least one, however short. Each failing segment is halved until a
    piece is clear or at most ``step`` long; a blocked piece's ends are then placed by
    bisection (to ``LOCATE_TOL``) when the body is clear there. So ends are accurate, and a
    clear gap shorter than ``step`` inside an overlap may be bridged.
    """
    t = hit_tables(_check_map(tilemap))
    r = body_reach(check_width(width))
    step = finite(step, "step")
    if step <= 0.0:
        raise ValueError(f"step must be > 0, got {step}")
    out: list[tuple[float, float]] = []
    start = 0.0
    for seg in _check_path(path).segments:
        prim, length = primitive_of(seg), seg.length
        if primitive_hits(t, prim, r):
            for u0, u1 in _stretches(t, prim, length, r, step):
                a, b = start + u0 * length, start + u1 * length
                if out and a - out[-1][1] <= LOCATE_TOL:
                    out[-1] = (out[-1][0], max(b, out[-1][1]))
                else:
                    out.append((a, b))
        start += length
    return out


def _stretches(t: HitTables, prim: tuple, length: float, r: float,
               step: float) -> list[tuple[float, float]]:
    """Blocked stretches of one primitive as fractions, for a primitive that hits."""
    if length <= 0.0:
        return [(0.0, 0.0)]
    out: list[tuple[float, float]] = []
    leaf = step / length
    tol = LOCATE_TOL / length
    points: dict[float, bool] = {}

    def point_hits(u: float) -> bool:
        if u not in points:
            points[u] = primitive_hits(t, _sub(prim, u, u), r)
        return points[u]
    stack = [(0.0, 1.0, True)]  # (u0, u1, known to hit); popped left to right
    while stack:
        u0, u1, known = stack.pop()
        if u1 - u0 > leaf:
            if known or primitive_hits(t, _sub(prim, u0, u1), r):
                m = 0.5 * (u0 + u1)
                stack.append((m, u1, False))
                stack.append((u0, m, False))
            continue
        h0, h1 = point_hits(u0), point_hits(u1)
        if not (h0 and h1) and not known and not primitive_hits(t, _sub(prim, u0, u1), r):
            continue
        if h0:
            a = u0
        else:  # first overlap inside [u0, u1]
            lo, hi = u0, u1
            while hi - lo > tol:
                m = 0.5 * (lo + hi)
                if primitive_hits(t, _sub(prim, u0, m), r):
                    hi = m
                else:
                    lo = m
            a = hi
        if h1:
            b = u1
        else:  # last overlap inside [a, u1]
            lo, hi = a, u1
            while hi - lo > tol:
                m = 0.5 * (lo + hi)
                if primitive_hits(t, _sub(prim, m, u1), r):
                    lo = m
                else:
                    hi = m
            b = lo
        if out and a - out[-1][1] <= tol:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def walkable_curve(tilemap: TileMap, a: Any, heading_a: Any, b: Any, heading_b: Any,
                   width: Any, radius: Any) -> Path | None:
    """Pinter's curved Walkable(pointA, directionA, pointB, directionB): the shortest curve
    from ``a`` facing ``heading_a`` to ``b`` facing ``heading_b`` with turning radius
    ``radius`` whose swept body passes the exact test, or ``None``.

    Candidates are the Dubins set (``curves.dubins_all``: Pinter's four arc-line-arc curves
    and the two arc-arc-arc ones), tried shortest first. Headings are radians, 0 = +x (east),
    pi/2 = +y (south).
    """
    t = hit_tables(_check_map(tilemap))
    ax, ay = _xy(a, "a")
    bx, by = _xy(b, "b")
    ha = finite(heading_a, "heading_a", limit=math.inf)
    hb = finite(heading_b, "heading_b", limit=math.inf)
    r = body_reach(check_width(width))
    for path in dubins_all(Pose(ax, ay, ha), Pose(bx, by, hb), radius):
        if not any(primitive_hits(t, primitive_of(seg), r) for seg in path.segments):
            return path
    return None
