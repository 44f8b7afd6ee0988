"""The tiles a unit's body touches along a path, exactly: what a hit-check table stores.

``swept_cells(path, width)`` lists every tile (i, j) whose closed square [i, i+1] x [j, j+1] the
disc of diameter ``width`` swept along the path's lines and arcs overlaps, by the rule of
``swept``: an overlap is a distance *below* the radius, computed as ``<= width / 2 - TOUCH``, so
a tile the body only touches is not listed (the same verdict ``path_clear`` gives when exactly
these tiles are blocked). Coordinates are arcstar's: tiles (x, y), y down.

The test is exact, never sampled, and vectorised over all candidate tiles at once (the candidate
set is each segment's bounding box grown by the radius):

- a line is a capsule: a tile is touched when the segment meets the square (Liang-Barsky clip)
  or the distance between them, attained at a segment end or a square corner, is within reach;
- an arc is an annular sector with round caps: touched when an arc end or an axis-extreme point of
  the circle inside the sweep lies within reach of the square, a square corner projects radially
  into the sweep within reach, or the circle crosses a square edge inside the sweep (the cases of
  ``swept``'s scalar arc test, which a unit test compares it with).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..geometry.primitives import Arc, Path
from .swept import body_reach, check_width

__all__ = ["swept_cells", "swept_cells_arrays", "swept_cells_many"]

_TWO_PI = 2.0 * math.pi


def _box(xs: list[float], ys: list[float], r: float) -> tuple[int, int, int, int]:
    """The tiles (i0, i1, j0, j1), inclusive, whose squares can come within ``r`` of the points'
    bounding box."""
    return (math.ceil(min(xs) - r) - 1, math.floor(max(xs) + r),
            math.ceil(min(ys) - r) - 1, math.floor(max(ys) + r))


def _candidates(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every tile of every box (rows i0, i1, j0, j1) at once: (box index, i, j) per candidate."""
    nx = boxes[:, 1] - boxes[:, 0] + 1
    count = nx * (boxes[:, 3] - boxes[:, 2] + 1)
    owner = np.repeat(np.arange(len(boxes)), count)
    k = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    return owner, boxes[owner, 0] + k % nx[owner], boxes[owner, 2] + k // nx[owner]


def _point_box_d2(px: Any, py: Any, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Squared distance from points to the closed squares (i, j) (NaN points: NaN, no hit)."""
    ex = np.maximum(np.maximum(i - px, px - i - 1.0), 0.0)
    ey = np.maximum(np.maximum(j - py, py - j - 1.0), 0.0)
    return ex * ex + ey * ey


def _lines_hit(p: np.ndarray, i: np.ndarray, j: np.ndarray, r: float) -> np.ndarray:
    """Per candidate: does the capsule of radius ``r`` around segment (ax, ay, bx, by) = p.T
    overlap square (i, j)?"""
    ax, ay, bx, by = p.T
    r2 = r * r
    hit = (_point_box_d2(ax, ay, i, j) <= r2) | (_point_box_d2(bx, by, i, j) <= r2)
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    safe = np.where(ll > 0.0, ll, 1.0)
    for qx, qy in ((i, j), (i + 1.0, j), (i, j + 1.0), (i + 1.0, j + 1.0)):  # corners to segment
        t = np.clip(((qx - ax) * dx + (qy - ay) * dy) / safe, 0.0, 1.0)
        ex, ey = ax + t * dx - qx, ay + t * dy - qy
        hit |= ex * ex + ey * ey <= r2
    t0, t1 = np.zeros(i.shape), np.ones(i.shape)  # Liang-Barsky: does the segment meet the square?
    with np.errstate(divide="ignore", invalid="ignore"):
        for q, lo, d in ((ax, i, dx), (ay, j, dy)):
            flat = d == 0.0
            ta, tb = (lo - q) / d, (lo + 1.0 - q) / d
            t0 = np.where(flat, t0, np.maximum(t0, np.minimum(ta, tb)))
            t1 = np.where(flat, np.where((lo <= q) & (q <= lo + 1.0), t1, -1.0), np.minimum(t1, np.maximum(ta, tb)))
    return hit | (t0 <= t1)


def _in_sweep(angle: np.ndarray, lo: np.ndarray, span: np.ndarray) -> np.ndarray:
    return (span >= _TWO_PI) | (np.mod(angle - lo, _TWO_PI) <= span)


def _arcs_hit(p: np.ndarray, i: np.ndarray, j: np.ndarray, r: float) -> np.ndarray:
    """Per candidate: does the body swept along arc (cx, cy, R, lo, span, 6 special points as
    x, y pairs, NaN where absent) = p.T overlap square (i, j)?"""
    cx, cy, R, lo, span = p[:, 0], p[:, 1], p[:, 2], p[:, 3], p[:, 4]
    r2 = r * r
    hit = np.zeros(i.shape, dtype=bool)
    for k in range(6):  # arc ends and the circle's axis-extreme points inside the sweep
        hit |= _point_box_d2(p[:, 5 + 2 * k], p[:, 6 + 2 * k], i, j) <= r2
    for qx, qy in ((i, j), (i + 1.0, j), (i, j + 1.0), (i + 1.0, j + 1.0)):  # corners, radially
        vx, vy = qx - cx, qy - cy
        rho = np.hypot(vx, vy)
        hit |= (np.abs(rho - R) <= r) & ((rho == 0.0) | _in_sweep(np.arctan2(vy, vx), lo, span))
    for ex in (i, i + 1.0):  # vertical edges x = ex: the circle crosses at y = cy +- h
        e = ex - cx
        h = np.sqrt(np.maximum(R * R - e * e, 0.0))
        for s in (-1.0, 1.0):
            y = cy + s * h
            hit |= (np.abs(e) <= R) & (j <= y) & (y <= j + 1.0) & _in_sweep(np.arctan2(s * h, e), lo, span)
    for ey in (j, j + 1.0):  # horizontal edges y = ey: crossings at x = cx +- h
        e = ey - cy
        h = np.sqrt(np.maximum(R * R - e * e, 0.0))
        for s in (-1.0, 1.0):
            x = cx + s * h
            hit |= (np.abs(e) <= R) & (i <= x) & (x <= i + 1.0) & _in_sweep(np.arctan2(e, s * h), lo, span)
    return hit


def _arc_row(seg: Arc) -> tuple[list[float], list[float], list[float]]:
    """An arc's parameters (centre, radius, sweep interval, special points) and its points."""
    cx, cy = seg.center
    R = seg.radius
    a0 = math.atan2(seg.y - cy, seg.x - cx)
    da = seg.sweep  # a point's angle around the centre turns with the heading, in either gear
    lo, span = (a0, da) if da >= 0.0 else (a0 + da, -da)
    a1 = a0 + da
    pts = [(cx + R * math.cos(a0), cy + R * math.sin(a0)), (cx + R * math.cos(a1), cy + R * math.sin(a1))]
    for k, (ux, uy) in enumerate(((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))):
        inside = span >= _TWO_PI or (k * 0.5 * math.pi - lo) % _TWO_PI <= span
        pts.append((cx + R * ux, cy + R * uy) if inside else (math.nan, math.nan))
    row = [cx, cy, R, lo, span] + [v for q in pts for v in q]
    return row, [q[0] for q in pts[:2]] + [cx - R, cx + R], [q[1] for q in pts[:2]] + [cy - R, cy + R]


def swept_cells_arrays(paths: list[Path], width: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``swept_cells`` for many paths in one vectorised pass (what a table build wants), as
    arrays: (path index, i, j) per touched tile; a tile touched by two segments of a path is
    listed twice."""
    r = body_reach(check_width(width))
    groups: dict[str, tuple[list, list, list]] = {"L": ([], [], []), "A": ([], [], [])}
    for n, path in enumerate(paths):
        if not isinstance(path, Path):
            raise ValueError(f"path must be a geometry.Path, got {type(path).__name__}")
        for seg in path.segments:
            xs: list[float]
            ys: list[float]
            if isinstance(seg, Arc) and seg.length > 0.0:
                row, xs, ys = _arc_row(seg)
                if seg.sweep % _TWO_PI != 0.0 and abs(seg.sweep) < _TWO_PI:  # the bounding box of the arc proper
                    xs, ys = [v for v in row[5::2] if v == v], [v for v in row[6::2] if v == v]
                kind = "A"
            else:
                e = seg.end_pose()
                row, xs, ys, kind = [seg.x, seg.y, e.x, e.y], [seg.x, e.x], [seg.y, e.y], "L"
            rows, ids, boxes = groups[kind]
            rows.append(row)
            ids.append(n)
            boxes.append(_box(xs, ys, r))
    out_n, out_i, out_j = [], [], []
    for kind, test in (("L", _lines_hit), ("A", _arcs_hit)):
        rows, ids, boxes = groups[kind]
        if not rows:
            continue
        owner, i, j = _candidates(np.asarray(boxes, dtype=np.intp))  # intp: np.repeat wants it (32 bits in Pyodide)
        hit = test(np.asarray(rows, dtype=np.float64)[owner], i.astype(np.float64), j.astype(np.float64), r)
        out_n.append(np.asarray(ids, dtype=np.int64)[owner[hit]])
        out_i.append(i[hit])
        out_j.append(j[hit])
    if not out_n:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    return np.concatenate(out_n), np.concatenate(out_i), np.concatenate(out_j)


def swept_cells_many(paths: list[Path], width: Any) -> list[set[tuple[int, int]]]:
    """``swept_cells`` for many paths at once (one vectorised pass)."""
    out: list[set[tuple[int, int]]] = [set() for _ in paths]
    for n, ci, cj in zip(*(a.tolist() for a in swept_cells_arrays(paths, width))):
        out[n].add((ci, cj))
    return out


def swept_cells(path: Path, width: Any) -> set[tuple[int, int]]:
    """Every tile (i, j) the body of diameter ``width`` (tiles) overlaps along ``path`` (exact)."""
    return swept_cells_many([path], width)[0]
