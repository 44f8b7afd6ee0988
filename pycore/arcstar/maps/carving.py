"""The tools the map generators share: a seeded random stream that gives the same numbers on
every platform, connected regions of open tiles, and end points far apart.

Why not ``random.Random`` or numpy's ``Generator`` methods: Python guarantees only
``Random.random()``'s sequence across versions, and numpy may change how a ``Generator`` turns
bits into integers between releases (the lab runs numpy 2.0.2 in Pyodide, CPython may have
another). The PCG64 bit stream itself is fixed by numpy's compatibility policy, so every draw
here is made from its raw 64-bit words with plain arithmetic.

Tiles are ``(x, y)``, x right, y down; masks are indexed ``[y, x]``.
"""

from __future__ import annotations

import numpy as np

_CHUNK = 4096


class SeededStream:
    """Uniform numbers from PCG64 raw words: the same for the same seed on any platform."""

    def __init__(self, seed: int) -> None:
        self._bits = np.random.PCG64(seed)
        self._buffer: list[float] = []

    def floats(self, count: int) -> np.ndarray:
        """``count`` floats in [0, 1) (53 random bits each), as an array."""
        raw = np.asarray(self._bits.random_raw(count), dtype=np.uint64)
        return (raw >> np.uint64(11)).astype(np.float64) * (2.0 ** -53)

    def uniform(self) -> float:
        """One float in [0, 1) (drawn from a buffer refilled in chunks: loops stay cheap)."""
        if not self._buffer:
            self._buffer = self.floats(_CHUNK).tolist()[::-1]
        return self._buffer.pop()

    def below(self, n: int) -> int:
        """An integer in [0, n), n >= 1."""
        return min(int(self.uniform() * n), n - 1)


def largest_region(open_tiles: np.ndarray) -> np.ndarray:
    """The largest 4-connected region of open tiles, as a mask (all False when none is open).
    Ties go to the region whose first tile comes first in row-major order.

    Works on runs of open tiles per row (a union-find over runs that touch the run above), so a
    1024 x 1024 map costs a few hundred thousand steps, not a million."""
    open_tiles = np.asarray(open_tiles, dtype=bool)
    h, w = open_tiles.shape
    padded = np.zeros((h, w + 2), dtype=np.int8)
    padded[:, 1:-1] = open_tiles
    edges = np.diff(padded, axis=1)
    ys, x0s = np.nonzero(edges == 1)
    _, x1s = np.nonzero(edges == -1)
    if ys.size == 0:
        return np.zeros_like(open_tiles)
    row_y, starts, ends = ys.tolist(), x0s.tolist(), x1s.tolist()
    parent = list(range(len(row_y)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first = {}  # the index of each row's first run
    for i in range(len(row_y) - 1, -1, -1):
        first[row_y[i]] = i
    n = len(row_y)
    for y in range(1, h):
        if y not in first or y - 1 not in first:
            continue
        a, b = first[y - 1], first[y]
        while a < n and b < n and row_y[a] == y - 1 and row_y[b] == y:
            if starts[a] < ends[b] and starts[b] < ends[a]:  # the runs share a column
                ra, rb = root(a), root(b)
                if ra != rb:
                    parent[max(ra, rb)] = min(ra, rb)
            if ends[a] <= ends[b]:
                a += 1
            else:
                b += 1
    size: dict[int, int] = {}
    for i in range(n):
        r = root(i)
        size[r] = size.get(r, 0) + ends[i] - starts[i]
    best = min(size, key=lambda r: (-size[r], r))
    keep = np.array([root(i) == best for i in range(n)])
    marks = np.zeros((h, w + 1), dtype=np.int32)
    np.add.at(marks, (ys[keep], x0s[keep]), 1)
    np.add.at(marks, (ys[keep], x1s[keep]), -1)
    return np.cumsum(marks, axis=1)[:, :w] > 0


def far_apart(tiles: np.ndarray) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Two tiles of a mask far apart: the one nearest the top-left corner and the one nearest
    the bottom-right corner (straight-line distance; ties to the first in row-major order).
    None when the mask holds fewer than two tiles."""
    ys, xs = np.nonzero(tiles)
    if ys.size < 2:
        return None
    h, w = tiles.shape
    s = int(np.argmin(xs.astype(np.int64) ** 2 + ys.astype(np.int64) ** 2))
    g = int(np.argmin((w - 1 - xs).astype(np.int64) ** 2 + (h - 1 - ys).astype(np.int64) ** 2))
    if s == g:  # only on a one-tile-wide diagonal band: take the farthest from the start instead
        g = int(np.argmax((xs - xs[s]).astype(np.int64) ** 2 + (ys - ys[s]).astype(np.int64) ** 2))
    return (int(xs[s]), int(ys[s])), (int(xs[g]), int(ys[g]))


def line_tiles(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """The tiles of a 4-connected line from a to b (each step moves one tile along x or y,
    keeping close to the straight line), both ends included."""
    (x, y), (x1, y1) = a, b
    dx, dy = abs(x1 - x), abs(y1 - y)
    sx, sy = (1 if x1 > x else -1), (1 if y1 > y else -1)
    out = [(x, y)]
    err = 0  # (tiles moved in x) * dy - (tiles moved in y) * dx, scaled: the side of the line
    while (x, y) != (x1, y1):
        if x != x1 and (y == y1 or abs(err + dy) <= abs(err - dx)):
            x += sx
            err += dy
        else:
            y += sy
            err -= dx
        out.append((x, y))
    return out
