"""Islands: connected regions of passable tiles, for failing fast (Lester's "islands", Pinter's
region table).

A search toward a goal that cannot be reached visits every tile it can reach before it gives up.
``same_region`` answers the same question with two array look-ups, so callers (the planner, the
hierarchical search) can say "no path" without searching.

Which moves connect tiles depends on the diagonal policy (see ``grid.GridOptions``):

- "never" (or 4 neighbours): 4-connected.
- "both" (no corner cutting) and "either": also 4-connected. A diagonal step allowed under "both"
  or "either" has a free orthogonal side tile, and going through that tile is two straight steps
  between the same two tiles; so diagonal steps never join tiles that straight steps do not.
  (Under "either" this still holds: one free side suffices.) The tests check it on random maps.
- "always": 8-connected; a diagonal step may squeeze between two walls.

Labels are computed with numpy, not a per-tile flood fill: each row is cut into runs of passable
tiles, runs in neighbouring rows that touch become edges, and the runs are merged with a
vectorised union-find (hook every root under its smallest neighbouring root, then pointer
jumping) in O(log n)-ish numpy passes. Labels are dense (0..count-1) and numbered in scan order:
region 0 holds the first open tile in row-major order, and so on, so they equal the labels a
row-major flood fill would give. Blocked tiles are -1.

Results are cached on the map per version (``TileMap.cached``). An edit bumps the version and the
next call relabels the whole map. Measured on CPython 3.11 (numpy 2), full relabel: 0.4-8 ms for
the Moving AI maps (NewYork_0_1024: 5-6 ms; the 1-wide maze512-1-0: 7.5 ms); the worst 1024x1024
cases tried were a 1-wide column serpentine (42-82 ms), a checkerboard under "always" (59 ms) and
random walls at 20-60% (30-85 ms). In Pyodide 0.27 (wasm, under Node.js) the same labelling took
12 ms for NewYork_0_1024, 13 ms for maze512-1-0 and 78 ms for the serpentine. That is under the
~100 ms a brush stroke can afford, so no incremental update is kept: a full relabel is simpler and
cannot drift from the map.

Tiles are (x, y), x right, y down; arrays are indexed ``[y, x]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..maps.tilemap import TileMap
from .grid import DIAGONAL_POLICIES, GridOptions


def connectivity(diagonal: str = "both", neighbours: int = 8) -> int:
    """4 or 8: the tile connectivity that a move rule induces (see the module docstring)."""
    if neighbours not in (4, 8) or isinstance(neighbours, bool):
        raise ValueError(f"neighbours must be 4 or 8, got {neighbours!r}")
    if diagonal not in DIAGONAL_POLICIES:
        raise ValueError(f"diagonal must be one of {', '.join(DIAGONAL_POLICIES)}, got {diagonal!r}")
    return 8 if neighbours == 8 and diagonal == "always" else 4


def connectivity_of(options: GridOptions) -> int:
    """The tile connectivity of a grid's move rules."""
    return connectivity(options.diagonal, options.neighbours)


def label(passable: np.ndarray, eight: bool = False, cut: int = 0) -> tuple[np.ndarray, int]:
    """Connected components of ``passable`` (a 2-D bool array): (labels int32, count).

    eight: also join diagonal neighbours whose two orthogonal side tiles are both blocked (any
    other diagonal pair is already joined through a free side tile).
    cut: when > 0, no move crosses a line between tiles ``k * cut - 1`` and ``k * cut`` (in x or
    y): the components are those of each ``cut`` x ``cut`` square on its own (the hierarchical
    search's clusters).
    Labels are dense, numbered in row-major order of each component's first tile; -1 = blocked.
    """
    p = np.asarray(passable, dtype=bool)
    if p.ndim != 2:
        raise ValueError(f"passable must be a 2-D array, got shape {p.shape}")
    h, w = p.shape
    if p.size == 0 or not p.any():
        return np.full(p.shape, -1, dtype=np.int32), 0
    # 1. runs: maximal horizontal stretches of passable tiles (within a cluster column).
    starts = p.copy()
    starts[:, 1:] &= ~p[:, :-1]
    if cut:
        starts[:, ::cut] = p[:, ::cut]
    run = np.cumsum(starts.ravel(), dtype=np.int32).reshape(h, w) - 1
    n_runs = int(run[-1, -1]) + 1
    # 2. edges between runs of neighbouring rows: one per maximal stretch of vertical pairs.
    us, vs = [], []
    if h > 1:
        vert = p[:-1] & p[1:]
        first = vert.copy()
        first[:, 1:] &= ~vert[:, :-1]
        if cut:
            first[:, ::cut] = vert[:, ::cut]
            first[cut - 1::cut, :] = False  # rows y, y+1 in different clusters
        us.append(run[:-1][first])
        vs.append(run[1:][first])
        if eight and w > 1:
            a, b, c, d = p[:-1, :-1], p[:-1, 1:], p[1:, :-1], p[1:, 1:]  # (x,y) (x+1,y) (x,y+1) (x+1,y+1)
            down_right = a & d & ~b & ~c
            down_left = b & c & ~a & ~d
            if cut:
                for m in (down_right, down_left):
                    m[cut - 1::cut, :] = False
                    m[:, cut - 1::cut] = False
            us += [run[:-1, :-1][down_right], run[:-1, 1:][down_left]]
            vs += [run[1:, 1:][down_right], run[1:, :-1][down_left]]
    u = np.concatenate(us) if us else np.zeros(0, np.int32)
    v = np.concatenate(vs) if vs else np.zeros(0, np.int32)
    # 3. union-find over runs: parents only ever point to smaller ids, so the root of a tree is
    #    its smallest run, and the forest never has a cycle.
    parent = np.arange(n_runs, dtype=np.int32)
    while u.size:
        pu, pv = parent[u], parent[v]
        apart = pu != pv
        if not apart.any():
            break
        u, v, pu, pv = u[apart], v[apart], pu[apart], pv[apart]  # joined edges stay joined
        np.minimum.at(parent, np.maximum(pu, pv), np.minimum(pu, pv))  # hook roots (all compressed)
        while True:  # pointer jumping until every run points at its root
            grand = parent[parent]
            if np.array_equal(grand, parent):
                break
            parent = grand
    roots = parent == np.arange(n_runs, dtype=np.int32)
    dense = np.cumsum(roots, dtype=np.int32) - 1
    labels = np.where(p, dense[parent][run], -1).astype(np.int32, copy=False)
    return labels, int(dense[-1]) + 1


def regions(tilemap: TileMap, diagonal: str = "both", neighbours: int = 8) -> np.ndarray:
    """Region label per tile (int32, shape (height, width), -1 = blocked) under a move rule.

    Cached on the map for its current version; do not modify the returned array.
    """
    conn = connectivity(diagonal, neighbours)
    return _regions(tilemap, conn)[0]


def region_count(tilemap: TileMap, diagonal: str = "both", neighbours: int = 8) -> int:
    """How many regions (islands) the map has under a move rule."""
    return _regions(tilemap, connectivity(diagonal, neighbours))[1]


def _regions(tilemap: TileMap, conn: int) -> tuple[np.ndarray, int]:
    if not isinstance(tilemap, TileMap):
        raise ValueError(f"map must be a TileMap, got {type(tilemap).__name__}")

    def build() -> tuple[np.ndarray, int]:
        labels, count = label(~tilemap.blocked, eight=conn == 8)
        labels.setflags(write=False)
        return labels, count

    return tilemap.cached(f"regions:{conn}", build)


def _tile(tilemap: TileMap, point: object, role: str) -> tuple[int, int]:
    raw: Any = point  # whatever the caller passed; checked here
    try:
        px, py = raw
        if isinstance(px, bool) or isinstance(py, bool) or int(px) != px or int(py) != py:
            raise TypeError
        x, y = int(px), int(py)
    except (TypeError, ValueError):
        raise ValueError(f"{role} must be a pair of integers (x, y), got {point!r}") from None
    if not tilemap.in_bounds(x, y):
        raise ValueError(f"{role} ({x}, {y}) is off the {tilemap.width}x{tilemap.height} map")
    return x, y


def region_of(tilemap: TileMap, tile: object, diagonal: str = "both", neighbours: int = 8) -> int:
    """The region label of tile (x, y); -1 when it is blocked. Off-map tiles are a ValueError."""
    x, y = _tile(tilemap, tile, "tile")
    return int(regions(tilemap, diagonal, neighbours)[y, x])


def same_region(tilemap: TileMap, a: object, b: object, diagonal: str = "both", neighbours: int = 8) -> bool:
    """Whether a path can exist from tile a to tile b (both open and in one region).

    False when either tile is blocked; a ValueError when either is off the map.
    """
    (ax, ay), (bx, by) = _tile(tilemap, a, "a"), _tile(tilemap, b, "b")
    labels = regions(tilemap, diagonal, neighbours)
    la = labels[ay, ax]
    return bool(la >= 0 and la == labels[by, bx])
