"""JPS+ precomputation: for every tile and each of the 8 directions, how far to jump.

The rules are those of Jump Point Search on an 8-neighbour grid with uniform costs and **no
corner cutting** (a diagonal step needs both orthogonal neighbours free; see ``jps`` for how
they follow). Tables are computed with numpy, a whole map at a time: straight directions with
one reverse cumulative minimum per row (or column), diagonals with one vectorised pass per row.

Each table is indexed like ``GridGraph`` node ids: a padded grid of ``(height + 2) x (width + 2)``
with one blocked tile of border all round. A value ``d`` read at tile ``n`` for direction ``k``:

- ``d > 0``: the next jump point in that direction is ``d`` steps away; every tile before it is
  open and each step is a legal move;
- ``d <= 0``: there is no jump point that way; ``-d`` legal steps can be taken before a wall
  (a blocked tile, or for a diagonal a blocked tile beside the step).

A straight jump point is a tile with a *forced* neighbour for that direction of travel (an open
tile beside it whose own predecessor is blocked); a diagonal jump point is a tile from which
either of the diagonal's two straight components has a straight jump point (``d > 0``).
Goals are not in the tables: the search checks the goal's row, column and diagonal quadrant
against ``|d|`` at query time (Rabin's "target jump point").
"""

from __future__ import annotations

import numpy as np

# Direction k: (dx, dy). Straight first, then diagonals; x grows right, y grows down.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))
E, W, S, N, SE, SW, NE, NW = range(8)


def padded_free(passable: bytes | np.ndarray, height: int, width: int) -> np.ndarray:
    """The open-tile mask of a padded grid (``GridGraph.passable``) as a 2-D bool array."""
    flat = np.frombuffer(passable, dtype=np.uint8) if isinstance(passable, (bytes, bytearray)) else passable
    return np.asarray(flat).reshape(height + 2, width + 2) != 0


def _east(free: np.ndarray) -> np.ndarray:
    """Jump distances toward +x (east) for every tile of a padded open mask (border blocked)."""
    free = np.ascontiguousarray(free)
    rows, cols = free.shape
    above = np.zeros_like(free)
    below = np.zeros_like(free)
    above[1:] = free[:-1]
    below[:-1] = free[1:]
    # Travelling east into (r, c): a forced neighbour is an open tile above (below) whose west
    # neighbour, the tile beside where we came from, is blocked.
    event = ~free
    event[:, 1:] |= free[:, 1:] & ((above[:, 1:] & ~above[:, :-1]) | (below[:, 1:] & ~below[:, :-1]))
    col = np.arange(cols, dtype=np.int32)
    idx = np.where(event, col, np.int32(cols - 1))  # the border column is always an event
    nearest = np.minimum.accumulate(idx[:, ::-1], axis=1)[:, ::-1]  # first event at or east of c
    nxt = np.empty_like(nearest)
    nxt[:, :-1] = nearest[:, 1:]  # first event strictly east of c
    nxt[:, -1] = cols - 1
    dist = nxt - col
    hit_free = np.take_along_axis(free, nxt, axis=1)
    return np.where(hit_free, dist, 1 - dist).astype(np.int32)


def _diagonal(free: np.ndarray, comp_x: np.ndarray, comp_y: np.ndarray) -> np.ndarray:
    """Jump distances toward (+1, +1) given the straight tables of the +x and +y components."""
    rows, cols = free.shape
    ok = np.zeros_like(free)  # a step (r, c) -> (r + 1, c + 1) is legal: all three tiles open
    ok[:-1, :-1] = free[:-1, 1:] & free[1:, :-1] & free[1:, 1:]
    jp = free & ((comp_x > 0) | (comp_y > 0))
    out = np.zeros((rows, cols), dtype=np.int32)
    nxt = np.zeros(cols, dtype=np.int32)  # the row below's values shifted one column left
    nxt_jp = np.zeros(cols, dtype=bool)
    for r in range(rows - 2, -1, -1):
        below = out[r + 1]
        nxt[:-1] = below[1:]
        nxt_jp[:-1] = jp[r + 1, 1:]
        # legal step into a jump point: 1; into a tile that itself continues: its distance
        # extended by one (away from zero); no legal step: 0.
        cont = np.where(nxt > 0, nxt + 1, nxt - 1)
        out[r] = np.where(ok[r], np.where(nxt_jp, 1, cont), 0)
    return out


def compute_tables(free: np.ndarray) -> np.ndarray:
    """All 8 jump-distance tables, shape ``(8, rows, cols)`` (int32), for a padded open mask.

    ``free`` must have a blocked border row and column all round (as ``GridGraph`` pads it).
    """
    free = np.ascontiguousarray(free, dtype=bool)
    if free.ndim != 2 or free.shape[0] < 3 or free.shape[1] < 3:
        raise ValueError(f"a padded open mask must be 2-D and at least 3x3, got shape {free.shape}")
    if free[0].any() or free[-1].any() or free[:, 0].any() or free[:, -1].any():
        raise ValueError("a padded open mask must have a blocked border all round")
    out = np.empty((8,) + free.shape, dtype=np.int32)
    fx = free[:, ::-1]
    fy = free[::-1, :]
    out[E] = _east(free)
    out[W] = _east(fx)[:, ::-1]
    out[S] = _east(free.T).T
    out[N] = _east(fy.T).T[::-1, :]
    out[SE] = _diagonal(free, out[E], out[S])
    out[SW] = _diagonal(fx, out[W][:, ::-1], out[S][:, ::-1])[:, ::-1]
    out[NE] = _diagonal(fy, out[E][::-1, :], out[N][::-1, :])[::-1, :]
    out[NW] = _diagonal(free[::-1, ::-1], out[W][::-1, ::-1], out[N][::-1, ::-1])[::-1, ::-1]
    return out


def forced_bits(free: np.ndarray) -> np.ndarray:
    """Per tile, which sides have forced neighbours for each straight arrival (uint8).

    Bits ``2k`` and ``2k + 1`` are for arriving by straight move ``k`` (E, W, S, N): the first
    for the side toward -y (a horizontal move) or -x (a vertical one), the second for the other
    side. A side is forced when its tile is open and the tile behind it (beside the tile the
    move came from) is blocked.
    """
    free = np.ascontiguousarray(free, dtype=bool)
    f = free
    c = f[1:-1, 1:-1]
    up, down, left, right = f[:-2, 1:-1], f[2:, 1:-1], f[1:-1, :-2], f[1:-1, 2:]
    ul, ur, dl, dr = f[:-2, :-2], f[:-2, 2:], f[2:, :-2], f[2:, 2:]
    sides = (
        (up & ~ul, down & ~dl),  # arrived moving E: the tiles behind are to the west
        (up & ~ur, down & ~dr),  # W
        (left & ~ul, right & ~ur),  # S: behind is to the north
        (left & ~dl, right & ~dr),  # N
    )
    out = np.zeros(free.shape, dtype=np.uint8)
    inner = out[1:-1, 1:-1]
    for k, (lo, hi) in enumerate(sides):
        inner |= (lo & c).astype(np.uint8) << (2 * k)
        inner |= (hi & c).astype(np.uint8) << (2 * k + 1)
    return out
