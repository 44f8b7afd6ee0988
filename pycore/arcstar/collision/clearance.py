"""Clearance (layers 1/4): the width problem. Which tiles a unit of a given width can stand
on, and which single steps between tile centres it can take.

Coordinates as everywhere in arcstar: tile (x, y) covers [x, x+1) x [y, y+1), its centre is
(x + 0.5, y + 0.5), x right, y DOWN; arrays are indexed ``[y, x]``. A unit is a disc of
diameter ``width`` (``collision.Footprint``); a blocked tile is the closed square, the outside
of the map counts as blocked, and touching is allowed (see ``collision``; the same ``TOUCH``
tolerance is used here, so these tables agree exactly with ``collision.swept_line_clear``).

**Clearance.** ``clearance_map(m)[y, x]`` is the widest disc that fits centred on the tile's
centre: twice the Euclidean distance from the centre to the nearest blocked square (or the map
edge), 0 on blocked tiles, capped at ``cap`` (16 tiles by default, to bound the work). Because
centres sit at half-integers and squares at integers, the distance to a square at tile offset
(di, dj) is sqrt(gx^2 + gy^2) with gx = max(0, |di| - 1/2): the map is computed exactly in
integers (squared doubled distances) by a separable transform: per column the nearest blocked
row (cumulative max/min of indices), then per row the minimum over the horizontal offsets
|di| <= cap/2 + 1/2 (about cap + 1 shifted array minimums). Vectorised with numpy, cached per map
version.

**Standing.** ``passable_for(m, w)``: clearance >= w (within ``TOUCH``).

**Stepping: the rule for moving between two passable tiles.** A unit moving between two tile
centres sweeps a capsule. Whether a closed square S is hit depends on the distance from the
segment to S, a convex function along the segment; either its minimum is at an end (then an
end disc already touches S, which ``passable_for`` at that end rules out) or it is strictly
inside, where the segment's direction is perpendicular to (closest point of S - segment point).

- Orthogonal step, e.g. (0.5, 0.5) -> (1.5, 0.5): an interior minimum needs S's closest point
  straight above or below the segment, i.e. a horizontal edge of S spanning part of x in
  (0.5, 1.5); S is then in column 0 or 1, whose x-range contains an end (0.5 or 1.5), where
  the distance is the same. **So an orthogonal step is legal iff both tiles are passable.**
- Diagonal step (0.5, 0.5) -> (1.5, 1.5) (in the local frame of any of the four diagonals):
  the segment passes *through the shared corner (1, 1)*. An interior minimum needs the
  closest point q of S to be a corner with q - p along (1, -1), so q_x + q_y = 2: S is one of
  the tiles on the anti-diagonal through the shared corner, (1+k, -k) and (-k, 1+k) for
  k >= 0, at distance exactly k * sqrt(2) from the segment (attained at its midpoint), while
  their distance from either end is sqrt(2 k^2 + 1/2), larger. Every other tile is nearest
  at an end. **So a diagonal step between two passable tiles is legal iff the anti-diagonal
  tiles (1+k, -k) and (-k, 1+k) with k * sqrt(2) <= width/2 (less TOUCH) are all free.**
  For k = 0 these are the two orthogonal neighbours: the capsule goes through their common
  corner, so any unit, however thin, needs both free (Lester's no-corner-cutting rule falls
  out). For k = 1 the rule adds tiles only for widths > 2 sqrt(2) = 2.83, and it is *not*
  implied by passability of the ends for widths in (2.83, 3.16): such a unit clips a blocked
  tile two columns over in mid-step although both end discs are clear.

**Regions per width.** ``regions_for(m, w)``: Pinter's region table for a unit of width w, so
an unreachable goal fails fast for a wide unit too. Sound for any motion of the body (curves
included): two tiles get different labels only if no continuous motion of the disc (touching
allowed) takes its centre from one to the other. A moving centre stays where the distance to
every blocked square is at least w/2 and passes from tile to tile through shared edges or
corners, so the labels are the 8-connected components of the tiles whose closed square holds
such a point. That is decided on a grid of sub-cells (each tile cut s x s, s = 2): a sub-cell
whose centre's clearance (the same exact transform, on the finer grid) is at least
w - sqrt(2)/s may hold such a point (the distance is 1-Lipschitz), every other cannot. So the
table can only err toward "same region" (a search then decides), never the other way.

``move_masks_for(m, w)`` applies that rule to every tile at once (bit k for direction k in
the order +x, -x, +y, -y, (+1,+1), (+1,-1), (-1,+1), (-1,-1), which is ``grid.GridGraph.moves``'
order), and ``step_ok_for`` is the exact swept test of one step.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from ..maps.tilemap import TileMap
from ..search.regions import label
from .swept import TOUCH, body_reach, check_width, hit_tables, line_hits

__all__ = ["DEFAULT_CAP", "MOVES", "clearance_map", "move_masks_for", "passable_for", "regions_for", "step_ok_for"]

#: Clearance values are capped at this width (tiles) unless asked for more.
DEFAULT_CAP = 16.0
#: Directions (dx, dy) of the move-mask bits, in ``grid.GridGraph.moves``' order.
MOVES = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
_SQRT2 = math.sqrt(2.0)


def _check_map(tilemap: Any) -> TileMap:
    if not isinstance(tilemap, TileMap):
        raise ValueError(f"map must be a TileMap, got {type(tilemap).__name__}")
    return tilemap


def _check_cap(cap: Any) -> float:
    if isinstance(cap, bool) or not isinstance(cap, numbers.Real) or not math.isfinite(cap) or cap <= 0:
        raise ValueError(f"cap must be a positive finite number of tiles, got {cap!r}")
    return float(cap)


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def clearance_map(tilemap: TileMap, cap: float = DEFAULT_CAP) -> np.ndarray:
    """Per tile (``[y, x]``, float64), the widest disc that fits centred on its centre without
    overlapping a blocked tile or leaving the map: 0 on blocked tiles, at most ``cap``.

    Exact (see the module notes), vectorised, cached per map version and cap; the array is
    read-only (it is shared).
    """
    tilemap = _check_map(tilemap)
    cap = _check_cap(cap)
    return tilemap.cached(f"clearance:{cap!r}", lambda: _frozen(_clearance(tilemap.blocked, cap)))


def _clearance(blocked: np.ndarray, cap: float) -> np.ndarray:
    h, w = blocked.shape
    k = max(math.ceil((cap + 1.0) / 2.0) - 1, 0)  # the offsets |di| with 2|di| - 1 < cap
    big = (2 * k + 1) ** 2  # >= cap^2: a value this large is capped anyway
    small = 2 * big < np.iinfo(np.uint16).max  # the default cap works in uint16: half the bytes
    pb = np.ones((h + 2, w + 2), dtype=bool)  # a ring of blocked tiles stands for off-map
    pb[1:-1, 1:-1] = blocked
    idx = np.int16 if 2 * (h + 3) < np.iinfo(np.int16).max else np.int32
    rows = np.arange(h + 2, dtype=idx)[:, None]
    none = idx(-(h + 3))
    above = np.where(pb, rows, none)  # the last blocked row at or above, per column
    np.maximum.accumulate(above, axis=0, out=above)
    below = np.where(pb[::-1], rows, none)  # the same counted from the bottom
    np.maximum.accumulate(below, axis=0, out=below)
    dj = np.minimum(rows - above, (h + 1 - below[::-1]) - rows)[1:-1]
    np.minimum(dj, k + 1, out=dj)  # farther than that never matters
    v = np.maximum(2 * dj.astype(np.int32) - 1, 0)
    g = (v * v).astype(np.uint16 if small else np.int32)  # (2 * vertical gap)^2 per padded column
    gp = np.pad(g, ((0, 0), (k, k)))  # columns farther off the map are blocked too (0)
    best = np.full((h, w), big, dtype=g.dtype)
    for di in range(-k, k + 1):
        gx = max(2 * abs(di) - 1, 0)
        # tile column x sits at padded column x + 1 + k
        np.minimum(best, gp[:, 1 + k + di:1 + k + di + w] + g.dtype.type(gx * gx), out=best)
    out = np.sqrt(best, dtype=np.float64)
    np.minimum(out, cap, out=out)
    return out


def passable_for(tilemap: TileMap, width: Any) -> np.ndarray:
    """Tiles (``[y, x]``, bool) where a unit of diameter ``width`` can stand centred:
    clearance >= width (touching allowed). Cached per map version and width; read-only."""
    tilemap = _check_map(tilemap)
    width = check_width(width)

    def build() -> np.ndarray:
        origin = tilemap.walled_from()
        if origin is not None:
            return _frozen(_passable_walled(passable_for(origin[0], width), origin[1], width))
        if width > min(tilemap.width, tilemap.height):
            return _frozen(np.zeros(tilemap.blocked.shape, dtype=bool))
        c = clearance_map(tilemap, max(DEFAULT_CAP, width))
        return _frozen(c > width - 2.0 * TOUCH)
    return tilemap.cached(f"passable:{width!r}", build)


def _reach_offsets(width: float) -> np.ndarray:
    """The tile offsets (dx, dy) at which a blocked tile keeps a disc of diameter ``width`` off
    a tile's centre: the clearance transform's own (integer, squared doubled) distances, so a
    patch agrees with the full table exactly."""
    r = math.ceil(width / 2.0) + 1
    d = np.arange(-r, r + 1)
    g = np.maximum(2 * np.abs(d) - 1, 0)
    v = (g[:, None] ** 2 + g[None, :] ** 2).astype(np.float64)  # [dy, dx]
    dy, dx = np.nonzero(np.sqrt(v) <= width - 2.0 * TOUCH)
    return np.stack((d[dx], d[dy]), axis=1)


def _passable_walled(passable: np.ndarray, cells: np.ndarray, width: float) -> np.ndarray:
    """``passable`` (a map's) with the tiles ``cells`` (flat) blocked as well."""
    out = passable.copy()
    if not len(cells):
        return out
    h, w = out.shape
    ys, xs = np.divmod(cells, w)
    offsets = _reach_offsets(width)
    px = (xs[:, None] + offsets[None, :, 0]).ravel()
    py = (ys[:, None] + offsets[None, :, 1]).ravel()
    on = (px >= 0) & (px < w) & (py >= 0) & (py < h)
    out[py[on], px[on]] = False
    return out


#: Sub-cells per tile side for ``regions_for``.
REGION_SPLIT = 2


def regions_for(tilemap: TileMap, width: Any) -> np.ndarray:
    """Region labels (``[y, x]``, int32; -1 where the body's centre can never be) for a unit of
    diameter ``width`` moving freely: tiles with different labels are never joined by any
    motion of the body (see the module notes). Cached per map version and width; read-only."""
    tilemap = _check_map(tilemap)
    width = check_width(width)

    def build() -> np.ndarray:
        s = REGION_SPLIT
        fine = TileMap.from_blocked(np.kron(tilemap.blocked, np.ones((s, s), dtype=bool)))
        # clearance in sub-cell units; a sub-cell qualifies at width * s - sqrt(2) (its own units)
        need = width * s - math.sqrt(2.0) - 2.0 * s * TOUCH
        room = _clearance(fine.blocked, max(need, 0.0) + 2.0) >= need
        room &= ~fine.blocked
        h, w = tilemap.height, tilemap.width
        tiles = room.reshape(h, s, w, s).any(axis=(1, 3)) & ~tilemap.blocked
        return _frozen(label(tiles, eight=True)[0])
    return tilemap.cached(f"regions-for:{width!r}", build)


def move_masks_for(tilemap: TileMap, width: Any) -> np.ndarray:
    """Per tile (``[y, x]``, uint8), the legal single steps for a unit of diameter ``width``:
    bit k set when the straight move from this tile's centre to the centre of the neighbour in
    direction ``MOVES[k]`` ((+1,0), (-1,0), (0,+1), (0,-1), (+1,+1), (+1,-1), (-1,+1), (-1,-1))
    sweeps a capsule that overlaps no blocked tile and stays on the map.

    Exact under the swept-capsule rule (module notes): orthogonal steps need both tiles
    passable, diagonal ones also the anti-diagonal tiles within width/2 of the shared corner.
    0 on tiles the unit cannot stand on. Cached per map version and width; read-only.

    For ``grid.GridGraph`` (padded layout, same move order): ``np.pad(mask, 1).ravel()``, and
    ``& 0x0F`` for 4-neighbour search.
    """
    tilemap = _check_map(tilemap)
    width = check_width(width)
    def build() -> np.ndarray:
        origin = tilemap.walled_from()
        if origin is not None:
            return _frozen(_move_masks_walled(tilemap, origin[0], origin[1], width))
        return _frozen(_move_masks(passable_for(tilemap, width), ~tilemap.blocked, width))
    return tilemap.cached(f"moves:{width!r}", build)


def _mask_reach(width: float) -> tuple[list[int], int]:
    """The anti-diagonal steps k a diagonal move checks, and how far (tiles) a tile's mask
    reads from it, plus one."""
    reach = 0.5 * width - TOUCH
    ks = [k for k in range(int(reach / _SQRT2) + 2) if k * _SQRT2 <= reach]
    return ks, (ks[-1] if ks else 0) + 2


def _move_masks_walled(tilemap: TileMap, base: TileMap, cells: np.ndarray, width: float) -> np.ndarray:
    """``tilemap``'s masks from ``base``'s, ``tilemap`` being ``base`` with ``cells`` walled: only
    the masks within reach of a tile whose standing or openness changed are made again (on a
    window wide enough that they read nothing outside it)."""
    out = move_masks_for(base, width).copy()
    passable = passable_for(tilemap, width)
    changed = np.flatnonzero((passable != passable_for(base, width)).ravel())
    touched = np.concatenate((cells, changed))
    if not len(touched):
        return out
    h, w = out.shape
    ys, xs = np.divmod(touched, w)
    pad = _mask_reach(width)[1]
    y0, y1 = max(int(ys.min()) - pad, 0), min(int(ys.max()) + pad + 1, h)  # the masks to make again
    x0, x1 = max(int(xs.min()) - pad, 0), min(int(xs.max()) + pad + 1, w)
    wy0, wy1, wx0, wx1 = max(y0 - pad, 0), min(y1 + pad, h), max(x0 - pad, 0), min(x1 + pad, w)  # what they read
    part = _move_masks(passable[wy0:wy1, wx0:wx1], ~tilemap.blocked[wy0:wy1, wx0:wx1], width)
    out[y0:y1, x0:x1] = part[y0 - wy0:y1 - wy0, x0 - wx0:x1 - wx0]
    return out


def _move_masks(passable: np.ndarray, free: np.ndarray, width: float) -> np.ndarray:
    """The masks of ``move_masks_for`` for standing tiles ``passable`` and open tiles ``free``
    (everything outside them blocked)."""
    h, w = passable.shape
    if not passable.any():  # (also bounds the work below: a passable width fits the map)
        return np.zeros((h, w), dtype=np.uint8)
    ks, pad = _mask_reach(width)
    pp = np.pad(passable, pad)
    fp = np.pad(free, pad)  # off-map is not free

    def at(a: np.ndarray, dx: int, dy: int) -> np.ndarray:
        return a[pad + dy:pad + dy + h, pad + dx:pad + dx + w]
    mask = np.zeros((h, w), dtype=np.uint8)
    for bit, (dx, dy) in enumerate(MOVES):
        ok = passable & at(pp, dx, dy)
        if dx and dy:
            for k in ks:
                ok &= at(fp, (1 + k) * dx, -k * dy) & at(fp, -k * dx, (1 + k) * dy)
        mask |= ok.astype(np.uint8) << np.uint8(bit)
    return mask


def _tile(tilemap: TileMap, p: Any, name: str) -> tuple[int, int]:
    if isinstance(p, (str, bytes)) or not hasattr(p, "__len__") or len(p) != 2:
        raise ValueError(f"{name} must be a tile [x, y] of two integers, got {p!r}")
    out = []
    for v in p:
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            # numbers.Real converts with int(), but typeshed's Real does not say so
            if isinstance(v, numbers.Real) and math.isfinite(v) and float(v) == int(v):  # type: ignore[call-overload]
                v = int(v)  # type: ignore[call-overload]
            else:
                raise ValueError(f"{name} must be a tile [x, y] of two integers, got {p!r}")
        out.append(int(v))
    x, y = out
    if not tilemap.in_bounds(x, y):
        raise ValueError(f"{name} ({x}, {y}) is off the {tilemap.width}x{tilemap.height} map")
    return x, y


def step_ok_for(tilemap: TileMap, a: Any, b: Any, width: Any) -> bool:
    """Whether a unit of diameter ``width`` can move in a straight line from the centre of
    tile ``a`` to the centre of tile ``b`` (any two tiles on the map, not only neighbours):
    the exact swept test. For neighbours it agrees with ``move_masks_for``."""
    tilemap = _check_map(tilemap)
    ax, ay = _tile(tilemap, a, "a")
    bx, by = _tile(tilemap, b, "b")
    return not line_hits(hit_tables(tilemap), ax + 0.5, ay + 0.5, bx + 0.5, by + 0.5,
                          body_reach(check_width(width)))
