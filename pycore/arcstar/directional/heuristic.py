"""The directional heuristic: Pinter's curve table maxed with an obstacle-aware 2-D distance.

**The curve table.** Lattice states sit at tile centres at 8 headings, and so does the goal, so
the table is indexed by the exact integer offset to the goal (within ``TABLE_REACH`` tiles), the
state's heading and the goal's heading: the shortest Dubins length between the two poses, in
closed form, vectorised (``dubins_lengths``). That is Pinter's table at tile steps instead of
1/64: exact at every lattice state, so no quantisation error (the off-centre start is not a
lattice state; it gets a full computation). For a goal with a set of headings the table is the
minimum over the set (the lattice arrives at one of them): a lower bound of the remaining cost,
and consistent (a move followed by the shortest curve from its end is a curve from its start).
Beyond ``TABLE_REACH`` the straight-line distance stands in (Pinter adds "the difference in
actual distance" to the 10-tile value; that can overestimate, this cannot). With reversing the
table part is the straight-line distance (Reeds-Shepp curves can be shorter than Dubins ones).

**The 2-D distance.** A breadth-first search rooted at the goal over the 8-connected open tiles
(each step 1): the unit's centre never enters a blocked tile, and a centre path of length L from
one tile centre to another visits a chain of at most floor(L) + 1 tiles, so this distance never
exceeds L (admissible and consistent). It runs lazily, ring by ring, only as far as the search
asks, and is kept per goal tile and map version. Both parts are scaled by the map's cheapest
terrain cost.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from ..maps.tilemap import TileMap
from .lattice import HEADINGS, STEP

#: Offsets (tiles) the curve table covers: the 60 x 60 windows of the bench fit inside.
TABLE_REACH = 40
_TWO_PI = 2.0 * math.pi


def _mod(a: np.ndarray) -> np.ndarray:
    return np.mod(a, _TWO_PI)


def dubins_lengths(dx: np.ndarray, dy: np.ndarray, h0: np.ndarray, h1: np.ndarray, r: float) -> np.ndarray:
    """Shortest Dubins path lengths (tiles) from (0, 0, h0) to (dx, dy, h1), radius ``r``: the
    six words in closed form (Shkel and Lumelsky), the shortest kept."""
    d = np.hypot(dx, dy) / r
    th = np.arctan2(dy, dx)
    a, b = _mod(h0 - th), _mod(h1 - th)
    sa, sb, ca, cb = np.sin(a), np.sin(b), np.cos(a), np.cos(b)
    cab = np.cos(a - b)
    best = np.full(d.shape, np.inf)
    with np.errstate(invalid="ignore"):
        p2 = 2 + d * d - 2 * cab + 2 * d * (sa - sb)  # LSL
        tmp = np.arctan2(cb - ca, d + sa - sb)
        best = np.fmin(best, np.where(p2 >= -1e-9, _mod(tmp - a) + np.sqrt(np.maximum(p2, 0)) + _mod(b - tmp), np.inf))
        p2 = 2 + d * d - 2 * cab + 2 * d * (sb - sa)  # RSR
        tmp = np.arctan2(ca - cb, d - sa + sb)
        best = np.fmin(best, np.where(p2 >= -1e-9, _mod(a - tmp) + np.sqrt(np.maximum(p2, 0)) + _mod(tmp - b), np.inf))
        p2 = -2 + d * d + 2 * cab + 2 * d * (sa + sb)  # LSR
        p = np.sqrt(np.maximum(p2, 0))
        tmp = np.arctan2(-ca - cb, d + sa + sb) - np.arctan2(-2.0, p)
        best = np.fmin(best, np.where(p2 >= -1e-9, _mod(tmp - a) + p + _mod(tmp - b), np.inf))
        p2 = d * d - 2 + 2 * cab - 2 * d * (sa + sb)  # RSL
        p = np.sqrt(np.maximum(p2, 0))
        tmp = np.arctan2(ca + cb, d - sa - sb) - np.arctan2(2.0, p)
        best = np.fmin(best, np.where(p2 >= -1e-9, _mod(a - tmp) + p + _mod(b - tmp), np.inf))
        c = (6 - d * d + 2 * cab + 2 * d * (sa - sb)) / 8  # RLR
        p = _mod(_TWO_PI - np.arccos(np.clip(c, -1, 1)))
        t = _mod(a - np.arctan2(ca - cb, d - sa + sb) + p / 2)
        best = np.fmin(best, np.where(np.abs(c) <= 1 + 1e-9, t + p + _mod(a - b - t + p), np.inf))
        c = (6 - d * d + 2 * cab + 2 * d * (sb - sa)) / 8  # LRL
        p = _mod(_TWO_PI - np.arccos(np.clip(c, -1, 1)))
        t = _mod(-a + np.arctan2(-ca + cb, d + sa - sb) + p / 2)
        best = np.fmin(best, np.where(np.abs(c) <= 1 + 1e-9, t + p + _mod(b - a - t + p), np.inf))
    return best * r


_CURVES: dict[tuple[float, int], np.ndarray] = {}


def curve_table(radius: float, reach: int = TABLE_REACH) -> np.ndarray:
    """``T[h, e, oy + reach, ox + reach]``: shortest Dubins length from a state at heading h to the
    goal at heading e, the goal (ox, oy) tiles away. Cached per radius."""
    key = (radius, reach)
    table = _CURVES.get(key)
    if table is None:
        n = 2 * reach + 1
        oy, ox = np.mgrid[-reach:reach + 1, -reach:reach + 1].astype(np.float64)
        table = np.empty((HEADINGS, HEADINGS, n, n))
        # by formula, in one vectorised call: east to end headings 0..4 and south-east to 1..5;
        # the mirrors give the rest (y -> -y fixes east: e -> -e; x <-> y fixes south-east:
        # e -> 2 - e), the quarter turns the other start headings
        pairs = [(0, e) for e in range(5)] + [(1, e) for e in range(1, 6)]
        k = len(pairs)
        lengths = dubins_lengths(np.broadcast_to(ox, (k, n, n)), np.broadcast_to(oy, (k, n, n)),
                                 np.array([h * STEP for h, _ in pairs])[:, None, None] * np.ones((1, n, n)),
                                 np.array([e * STEP for _, e in pairs])[:, None, None] * np.ones((1, n, n)), radius)
        for (h, e), grid in zip(pairs, lengths):
            table[h, e] = grid
        for e in (5, 6, 7):
            table[0, e] = table[0, 8 - e][::-1, :]
        for e in (0, 7, 6):
            table[1, e] = table[1, (2 - e) % HEADINGS].T
        for h in range(2, HEADINGS):
            for e in range(HEADINGS):  # T[h + 2, e + 2] at offset (-oy, ox) is T[h, e] at (ox, oy)
                table[h, (e + 2) % HEADINGS] = np.rot90(table[h - 2, e], k=-1)
        table[:, :, reach, reach] = np.where(np.eye(HEADINGS, dtype=bool), 0.0, table[:, :, reach, reach])
        if len(_CURVES) >= 8:
            _CURVES.pop(next(iter(_CURVES)))
        _CURVES[key] = table
    return table


_GOAL_TABLES: dict[tuple[float, frozenset[int]], np.ndarray] = {}


def goal_table(radius: float, headings: frozenset[int]) -> np.ndarray:
    """``curve_table`` to a goal that takes any of ``headings``: the minimum over them,
    ``[h, oy + reach, ox + reach]``. Kept per radius and heading set."""
    key = (radius, headings)
    found = _GOAL_TABLES.get(key)
    if found is None:
        found = curve_table(radius)[:, sorted(headings)].min(axis=1)
        if len(_GOAL_TABLES) >= 16:
            _GOAL_TABLES.pop(next(iter(_GOAL_TABLES)))
        _GOAL_TABLES[key] = found
    return found


_GOAL_ROWS: dict[tuple[float, frozenset[int]], list] = {}


def goal_rows(radius: float, headings: frozenset[int]) -> list:
    """``goal_table`` as nested lists, ``[h][oy + reach][ox + reach]`` (what a scalar read wants)."""
    key = (radius, headings)
    found = _GOAL_ROWS.get(key)
    if found is None:
        if len(_GOAL_ROWS) >= 16:
            _GOAL_ROWS.pop(next(iter(_GOAL_ROWS)))
        found = _GOAL_ROWS[key] = goal_table(radius, headings).tolist()
    return found


def forget_curve_tables() -> None:
    """Drop the kept curve tables (the next one is built cold: what a bench measures)."""
    _CURVES.clear()
    _GOAL_TABLES.clear()
    _GOAL_ROWS.clear()


class LazyDistance:
    """Breadth-first distance (8-connected open tiles, steps of 1) from a goal tile, ring by
    ring on demand: ``at(tile)`` settles rings until that tile is reached or none are left."""

    def __init__(self, tilemap: TileMap, goal: tuple[int, int]) -> None:
        self.width = w = tilemap.width
        self.height = tilemap.height
        self._open = tilemap.cached("directional:open", lambda: (~tilemap.blocked).ravel().tolist())
        self.dist: list[float] = [-1.0] * (w * tilemap.height)
        start = goal[1] * w + goal[0]
        self.dist[start] = 0.0
        self._ring = [start]
        self._level = 0

    def at(self, tile: int) -> float:
        dist = self.dist
        while dist[tile] < 0.0:
            if not self._ring:
                dist[tile] = math.inf
                break
            self._advance()
        return dist[tile]

    def _advance(self) -> None:
        w, h, dist, free = self.width, self.height, self.dist, self._open
        self._level += 1
        level = float(self._level)
        nxt = []
        for t in self._ring:
            y, x = divmod(t, w)
            for ny in (y - 1, y, y + 1):
                if 0 <= ny < h:
                    row = ny * w
                    for nx in (x - 1, x, x + 1):
                        if 0 <= nx < w:
                            n = row + nx
                            if dist[n] < 0.0 and free[n]:
                                dist[n] = level
                                nxt.append(n)
        self._ring = nxt


class GoalHeuristic:
    """H toward one goal tile and heading set on one map version, per lattice node on demand
    (``value``): the curve table (nested lists, read by offset and heading) or the straight line
    beyond it, maxed with the lazy 2-D distance. Nothing per map tile is built up front (a
    512 x 512 map has 2 M states; building them all cost about 100 ms per new goal)."""

    def __init__(self, tilemap: TileMap, goal: tuple[int, int], headings: Iterable[int], radius: float,
                 curves: bool) -> None:
        self.width = tilemap.width
        self.scale = tilemap.min_cost()
        self.gx, self.gy = goal
        self.reach = TABLE_REACH if curves else -1  # -1: no offset is inside the table
        self.rows: list = goal_rows(radius, frozenset(headings)) if curves else []  # [h][oy + r][ox + r]
        self.lazy = LazyDistance(tilemap, goal)

    def value(self, node: int) -> float:
        """H of lattice node ``tile * 8 + heading`` at weight 1, in cost units."""
        tile = node >> 3
        y, x = divmod(tile, self.width)
        ox, oy = self.gx - x, self.gy - y
        r = self.reach
        c = math.hypot(ox, oy)
        if -r <= ox <= r and -r <= oy <= r:
            t = self.rows[node & 7][oy + r][ox + r]
            if t > c:
                c = t
        d = self.lazy.dist[tile]
        if d < 0.0:
            d = self.lazy.at(tile)
        return (c if c > d else d) * self.scale

    def start_h(self, tile: int, curve_lower_bound: float) -> float:
        """H of the off-lattice start: a lower bound computed for it, maxed with the 2-D part."""
        return max(curve_lower_bound * self.scale, self.lazy.at(tile) * self.scale)


def consistent(tilemap: TileMap, goal: tuple[int, int], curves: bool) -> bool:
    """Whether H is consistent on this whole map, so the search's first path to the goal is its
    least-cost one: always without the curve table (the straight line and the 2-D distance are
    both consistent), and with it when the table reaches every tile from the goal. Where H
    switches from the table to the straight line (``TABLE_REACH`` tiles out) it can drop by more
    than a move costs; H stays admissible, but a node closed there may be closed too dear, so a
    plan across that line is legal and near, not surely, least-cost."""
    gx, gy = goal
    r = TABLE_REACH
    return not curves or (gx - r <= 0 and gx + r >= tilemap.width - 1 and gy - r <= 0 and gy + r >= tilemap.height - 1)


def goal_heuristic(tilemap: TileMap, goal: tuple[int, int], headings: frozenset[int], radius: float,
                   curves: bool) -> GoalHeuristic:
    """Kept per map version, goal tile, heading set and radius (queries to one goal share it)."""
    cache: dict = tilemap.cached("directional:heuristics", dict)
    key = (goal, headings, radius, curves)
    found = cache.get(key)
    if found is None:
        if len(cache) >= 16:
            cache.pop(next(iter(cache)))
        found = cache[key] = GoalHeuristic(tilemap, goal, headings, radius, curves)
    return found
