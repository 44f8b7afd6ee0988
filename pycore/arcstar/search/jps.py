"""Jump Point Search (Harabor and Grastien) and JPS+ (Rabin) for uniform-cost 8-neighbour grids.

Both are resumable searches with the interface of ``search.AStar``: ``step(budget)`` expands at
most ``budget`` jump points, ``run()``, ``cancel()``, ``status``, ``expanded``, ``ms``, ``cost``,
``path`` (every tile, start to goal, one 8-neighbour step apart), ``path_nodes``, ``open_count``
and ``trace``. They share ``search``'s pooled, generation-stamped node arrays.

The grid must be one JPS is exact on: 8 neighbours, diagonal policy "both" (no corner cutting:
a diagonal step needs both orthogonal neighbours open, the Moving AI rule), every open tile the
same terrain cost and no influence layer. Anything else is refused with a ``ValueError``.

Pruning rules for no corner cutting
-----------------------------------
Travel east into tile n = (x, y) from p = (x - 1, y). Paths from p that avoid n:

* (x, y - 1) and (x, y + 1): p reaches them with one diagonal step (sqrt 2 < 1 + 1) when the
  tile beside p, (x - 1, y -/+ 1), is open; then they are pruned. When that tile is blocked
  the diagonal step is illegal (corner cutting), the only shortest way goes through n, and
  both (x, y -/+ 1) and (x + 1, y -/+ 1) are **forced** neighbours of n.
* (x + 1, y -/+ 1) otherwise: p -> (x, y -/+ 1) -> (x + 1, y -/+ 1) costs sqrt 2 + 1, the same as
  through n, and takes its diagonal first (the canonical order), so it is pruned.

So a straight move has forced neighbours where an open tile beside n has a blocked tile behind
it; the natural neighbour is straight on. Travel diagonally into n from p = (x - 1, y - 1):
both (x - 1, y) and (x, y - 1) are open (the step was legal), so every neighbour but the three
natural ones, (x + 1, y), (x, y + 1) and (x + 1, y + 1), is reached at least as cheaply from p
without n: a diagonal move never has forced neighbours, which is why this variant only forces
neighbours from straight moves. A diagonal jump stops at a tile from which a straight jump in
either component direction finds a jump point (or the goal); straight jumps stop at a tile with
a forced neighbour, at the goal, or die at a wall. These rules are checked in the tests against
an independent Dijkstra on random maps and against the Moving AI scenario lengths.

Implementation
--------------
Intermediate jump points are not put on the open list (Harabor and Grastien, 2014): a diagonal
ray is walked to its end, and the straight jump points found from each of its tiles become
successors of the expanded node directly, each reached by a diagonal leg and then a straight
one (so every node but the start is entered by a straight move, and a path between consecutive
jump points is "diagonal first, then straight"). When the goal is found from a node it is at
octile distance from it, which nothing else through that node can beat, so the expansion stops.

JPS scans the graph's padded passability bytes (and a transposed copy for columns) with
``bytes.find``/``rfind``, so a straight scan of any length is a handful of C calls (the Python
analogue of the block-based scanning of Harabor and Grastien, 2014). JPS+ reads jump distances
precomputed by ``jump_tables.compute_tables`` (numpy), cached per graph, hence per map version;
the goal, absent from the tables, is found with Rabin's target-jump-point test against the
goal's row, column and diagonal quadrant. The checks, the per-graph data, the successor plans
and the path interpolation are ``jps_prep``'s; this module holds the two searches.
"""

from __future__ import annotations

from collections.abc import Callable
from heapq import heappop, heappush, heappushpop
from typing import Any

import numpy as np

from ..outcomes import Status
from .engine import (
    FOUND,
    NO_PATH,
    RUNNING,
    SteppedSearch,
    Trace,
    acquire_workspace,
    check_search_args,
    parent_chain,
    release_workspace,
    steps_length,
)
from .grid import GridGraph
from .heuristics import HEURISTICS, make_heuristic
from .jps_prep import (
    ARRIVE_E,
    ARRIVE_N,
    ARRIVE_S,
    ARRIVE_START,
    ARRIVE_W,
    PLANS,
    START_ORDERS,
    Prep,
    interpolate,
    interpolate_tiles,
    jump_tables,
    octile_constants,
    prepare,
)

__all__ = ["JPS", "JPSPlus"]

_ZERO = b"\x00"


# -- straight scans on a padded byte grid --------------------------------------------------------
# ``B`` is a padded passability grid (1 open, 0 blocked, blocked border) with row length ``w``;
# a scan runs along a row from ``i`` (exclusive) and returns the first jump point (a tile with a
# forced neighbour, or the goal ``g``) before the wall, or -1. The rows above and below are
# searched for the pattern "blocked, open" (toward +1) or "open, blocked" (toward -1): the open
# tile of the first such pair beside the scanned row is a forced neighbour.
_BLOCKED_OPEN, _OPEN_BLOCKED = b"\x00\x01", b"\x01\x00"


def _fwd(B: bytes, i: int, w: int, g: int) -> int:
    """Scan toward +1 along a row."""
    wall = B.find(_ZERO, i + 1)
    end = g if i < g < wall else wall
    k = B.find(_BLOCKED_OPEN, i - w, end - w)
    if k >= 0:
        end = k + 1 + w
    k = B.find(_BLOCKED_OPEN, i + w, end + w)
    if k >= 0:
        end = k + 1 - w
    return end if end != wall else -1


def _bwd(B: bytes, i: int, w: int, g: int) -> int:
    """Scan toward -1 along a row."""
    wall = B.rfind(_ZERO, 0, i)
    end = g if wall < g < i else wall
    k = B.rfind(_OPEN_BLOCKED, end + 1 - w, i - w + 1)
    if k >= 0:
        end = k + w
    k = B.rfind(_OPEN_BLOCKED, end + 1 + w, i + w + 1)
    if k >= 0:
        end = k - w
    return end if end != wall else -1


def _unused(node: int) -> float:  # pragma: no cover - stands in for H where it is inlined
    raise AssertionError("inlined heuristic called")


class _JumpSearch(SteppedSearch):
    """The machinery JPS and JPS+ share: validation, stepping, results, trace.

    The constructor takes ``search.AStar``'s arguments, so callers can swap one for the other;
    ``open_list`` must be "heap" and ``turn_penalty`` 0 (anything else is a ValueError).
    """

    name = "JPS"

    def __init__(self, graph: GridGraph, start: int, goals: int | list[int], heuristic: str = "octile",
                 weight: float = 1.0, stop: str = "closed", max_expansions: int | None = None,
                 trace: bool = False, open_list: str = "heap", turn_penalty: float = 0.0) -> None:
        if open_list != "heap":
            raise ValueError(f"{self.name} keeps its open list in a binary heap: open_list must be 'heap', "
                             f"got {open_list!r}")
        if turn_penalty != 0 or isinstance(turn_penalty, bool):
            raise ValueError(f"{self.name} cannot apply a turn penalty (jumps skip the tiles where turns would "
                             f"be charged): turn_penalty must be 0, got {turn_penalty!r}")
        check_search_args(stop, weight, max_expansions)
        if heuristic not in HEURISTICS:
            raise ValueError(f"heuristic must be one of {', '.join(HEURISTICS)}, got {heuristic!r}")
        prep = graph.jps if type(graph) is GridGraph else None
        if type(prep) is not Prep:
            prep = prepare(graph)
        assert isinstance(prep, Prep)
        if type(goals) is list and len(goals) == 1:
            goal = goals[0]
        elif isinstance(goals, (list, tuple)):
            distinct = list(dict.fromkeys(goals))
            if not distinct:
                raise ValueError("a search needs at least one goal")
            if len(distinct) > 1:
                raise ValueError(f"{self.name} takes one goal, got {len(distinct)}")
            goal = distinct[0]
        else:
            goal = goals
        P = prep.P
        size = len(P)
        if not (type(start) is int and type(goal) is int and 0 <= start < size and 0 <= goal < size
                and P[start] and P[goal]):  # the common case passes this one test
            for role, n in (("start", start), ("goal", goal)):
                if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 0 <= n < size:
                    raise ValueError(f"{role} must be a node id of the graph (0..{size - 1}), got {n!r}")
                if not P[n]:
                    raise ValueError(f"{role} tile {graph.tile(int(n))} is blocked")
            start, goal = int(start), int(goal)
        self.graph = graph
        self._prep = prep
        self.start, self.goal = start, goal
        self.goals = [goal]
        self.stop = stop
        self.max_expansions = max_expansions
        self.status = RUNNING
        self.expanded = 0
        self.ms = 0.0
        self.goal_found: int | None = None
        self.cost: float | None = None
        self.trace = Trace() if trace else None
        self._heuristic, self._weight = heuristic, weight
        self._hfun: Callable[[int], float] | None = None
        self._hs: float | None
        self._hextra: float | None
        s = prep.stride
        if heuristic == "octile":  # inlined in the hot loops, same arithmetic as make_heuristic
            self._hs, self._hextra = prep.octile if weight == 1.0 else octile_constants(graph, weight)
            hx, hy = abs(start % s - goal % s), abs(start // s - goal // s)
            h0 = hx * self._hs + hy * self._hextra if hx > hy else hy * self._hs + hx * self._hextra
        else:
            self._hs = self._hextra = None
            h0 = self._h(start)
        self._ws = ws = acquire_workspace(size)
        self._open_stamp = ws.next_generation()
        self._path: list[int] | None = None
        self._jump_path: list[int] | None = None
        self._tiles: list[tuple[int, int]] | None = None
        ws.g[start], ws.parent[start], ws.stamp[start] = 0.0, -1, self._open_stamp
        self._heap: list[tuple[float, float, int, int]] = [(h0, h0, start, ARRIVE_START)]
        # the best entry of the last expansion, kept off the heap: ``heappushpop`` at the next pop
        # returns it without a heap operation when it is the smallest (as in ``search.AStar``)
        self._held: tuple[float, float, int, int] | None = None
        if self.trace is not None:
            self.trace.updates.extend((start, 0.0, -1))

    @property
    def _h(self) -> Callable[[int], float]:
        """``heuristics.make_heuristic``'s estimate toward the goal (built on first use)."""
        if self._hfun is None:
            self._hfun = make_heuristic(self._heuristic, self.graph, self.goal, self._weight)
        return self._hfun

    def _finish(self, status: Status, goal: int | None) -> None:
        self.status = status
        self.goal_found = goal
        ws = self._ws
        if goal is not None:
            self._jump_path = parent_chain(ws.parent, self.start, goal)
            self.cost = ws.g[goal]
        if self.trace is not None:
            self.trace.snapshot(self._h)
        self._heap, self._held = [], None
        release_workspace(ws)

    # -- results ----------------------------------------------------------------------------
    @property
    def open_count(self) -> int:
        """Entries on the open list (stale duplicates included)."""
        return len(self._heap) + (self._held is not None)

    @property
    def path_nodes(self) -> list[int] | None:
        """Every node of the path, start to goal (jump points and the tiles between them)."""
        if self._path is None and self._jump_path is not None:
            self._path = interpolate(self._jump_path, self._prep.stride)
        return self._path

    @property
    def jump_points(self) -> list[int] | None:
        """The jump points of the path only (start and goal included)."""
        return self._jump_path

    @property
    def length(self) -> float | None:
        """The geometric length of the path in tiles, ``path_length(self.path)`` (read from its
        legs: each is ``min(|dx|, |dy|)`` diagonal steps, then the rest straight); None unless found."""
        jumps = self._jump_path
        if jumps is None:
            return None
        s = self._prep.stride
        straight = diagonal = 0
        ay, ax = divmod(jumps[0], s)
        for b in jumps[1:]:
            by, bx = divmod(b, s)
            adx = bx - ax if bx > ax else ax - bx
            ady = by - ay if by > ay else ay - by
            if adx < ady:
                diagonal += adx
                straight += ady - adx
            else:
                diagonal += ady
                straight += adx - ady
            ax, ay = bx, by
        return steps_length(straight, diagonal)

    @property
    def path(self) -> list[tuple[int, int]] | None:
        """The path as tiles (x, y), start first, one 8-neighbour step apart; None unless found."""
        if self._jump_path is None:
            return None
        if self._tiles is None:
            self._tiles = interpolate_tiles(self._jump_path, self._prep.stride)
        return list(self._tiles)


class JPS(_JumpSearch):
    """Jump Point Search from ``start`` to ``goal`` (node ids of ``graph``); see the module doc.

    ``goals`` may be one node id or a list holding one goal. ``heuristic`` (default "octile"),
    ``weight`` and ``stop`` are as for ``search.AStar``; with "octile", weight 1 and stop
    "closed" the path is optimal. ``expanded`` counts jump points taken off the open list.
    """

    name = "JPS"

    def _expand(self, budget: int) -> None:
        prep = self._prep
        P, T, s, ts = prep.P, prep.T, prep.stride, prep.tstride
        S, D = prep.straight, prep.diagonal
        ws, heap = self._ws, self._heap
        inline = self._hs is not None and self._hextra is not None  # octile: computed in the loop
        hs = self._hs if self._hs is not None else 0.0
        hextra = self._hextra if self._hextra is not None else 0.0
        h_of = _unused if inline else self._h
        g, parent, stamp = ws.g, ws.parent, ws.stamp
        open_s = self._open_stamp
        closed_s = open_s + 1
        goal = self.goal
        gy, gx = divmod(goal, s)
        gt = gx * ts + gy
        reached_rule = self.stop == "reached"
        tr = self.trace
        fwd, bwd, plans = _fwd, _bwd, PLANS
        sides = ((-1, s), (1, s), (-s, 1), (s, 1))  # per arrival: (offset back, offset to the side)
        held = self._held
        n = 0
        while n < budget:
            if held is not None:  # the best entry the last expansion added, held back from the heap
                _f, _hh, i, arr = heappushpop(heap, held)
                held = None
            elif heap:
                _f, _hh, i, arr = heappop(heap)
            else:
                self.expanded += n
                self._finish(NO_PATH, None)
                return
            if stamp[i] == closed_s:
                continue
            stamp[i] = closed_s
            n += 1
            if tr is not None:
                tr.expand(i)
            if i == goal:
                self.expanded += n
                self._finish(FOUND, i)
                return
            gi = g[i]
            y, x = divmod(i, s)
            it = x * ts + y
            if arr == ARRIVE_START:
                dirs = START_ORDERS[((gx > x) - (gx < x)) * 3 + (gy > y) - (gy < y) + 4]
            else:
                back, side = sides[arr]
                dirs = plans[arr][(P[i - side] and not P[i + back - side])
                                  | (2 * (P[i + side] and not P[i + back + side]))]
            found = []
            for dx, dy in dirs:
                if dy == 0:
                    j = fwd(P, i, s, goal) if dx > 0 else bwd(P, i, s, goal)
                    if j >= 0:
                        found.append((j, gi + (j - i) * dx * S, x + j - i, y, ARRIVE_E if dx > 0 else ARRIVE_W))
                        if j == goal:
                            break
                elif dx == 0:
                    jt = fwd(T, it, ts, gt) if dy > 0 else bwd(T, it, ts, gt)
                    if jt >= 0:
                        steps = (jt - it) * dy
                        j = i + steps * dy * s
                        found.append((j, gi + steps * S, x, y + steps * dy, ARRIVE_S if dy > 0 else ARRIVE_N))
                        if j == goal:
                            break
                else:
                    # A diagonal ray, walked to its end: at every tile the straight scans along
                    # its two components run, and the jump points they find become successors
                    # of i directly (the tile on the ray is an intermediate jump point that
                    # never goes on the open list: Harabor and Grastien, 2014).
                    ds = dy * s
                    dd = dx + ds
                    ddt = dy + dx * ts
                    m, mt, t = i, it, 0
                    while P[m + dx] and P[m + ds] and P[m + dd]:
                        m += dd
                        mt += ddt
                        t += 1
                        if m == goal:
                            found.append((m, gi + t * D, gx, gy, ARRIVE_START))
                            break
                        if P[m + dx]:
                            j = fwd(P, m, s, goal) if dx > 0 else bwd(P, m, s, goal)
                            if j >= 0:
                                found.append((j, gi + t * D + (j - m) * dx * S, x + t * dx + j - m, y + t * dy,
                                              ARRIVE_E if dx > 0 else ARRIVE_W))
                                if j == goal:
                                    break
                        if P[m + ds]:
                            jt = fwd(T, mt, ts, gt) if dy > 0 else bwd(T, mt, ts, gt)
                            if jt >= 0:
                                steps = (jt - mt) * dy
                                j = m + steps * ds
                                found.append((j, gi + t * D + steps * S, x + t * dx, y + (t + steps) * dy,
                                              ARRIVE_S if dy > 0 else ARRIVE_N))
                                if j == goal:
                                    break
                    if found and found[-1][0] == goal:
                        break  # the goal at octile distance from i: nothing else from i can beat it
            for j, ng, jx, jy, code in found:
                st = stamp[j]
                if st == closed_s:
                    continue
                if st == open_s:
                    if ng >= g[j]:
                        continue
                else:
                    stamp[j] = open_s
                g[j] = ng
                parent[j] = i
                if tr is not None:
                    tr.updates.extend((j, ng, i))
                if not inline:
                    hj = h_of(j)
                else:
                    hx = gx - jx if jx < gx else jx - gx
                    hy = gy - jy if jy < gy else jy - gy
                    hj = hx * hs + hy * hextra if hx > hy else hy * hs + hx * hextra
                entry = (ng + hj, hj, j, code)
                if held is None:
                    held = entry
                elif entry < held:
                    heappush(heap, held)
                    held = entry
                else:
                    heappush(heap, entry)
                if reached_rule and j == goal:
                    self.expanded += n
                    self._finish(FOUND, j)
                    return
        self._held = held
        self.expanded += n


class JPSPlus(_JumpSearch):
    """JPS+ (Rabin): JPS with every jump distance read from tables precomputed with numpy.

    The tables are built on the first query of a graph (``jump_tables``) and cached with it, so
    a map edit, which makes a new graph, rebuilds them. Same interface and results as ``JPS``.
    """

    name = "JPS+"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self._prep.tables is None:
            jump_tables(self.graph)

    def _expand(self, budget: int) -> None:
        prep = self._prep
        s = prep.stride
        S, D = prep.straight, prep.diagonal
        plans, forced = prep.plans, prep.forced
        assert plans is not None and forced is not None
        start_plans = plans[ARRIVE_START]
        ws, heap = self._ws, self._heap
        inline = self._hs is not None and self._hextra is not None  # octile: computed in the loop
        hs = self._hs if self._hs is not None else 0.0
        hextra = self._hextra if self._hextra is not None else 0.0
        h_of = _unused if inline else self._h
        g, parent, stamp = ws.g, ws.parent, ws.stamp
        open_s = self._open_stamp
        closed_s = open_s + 1
        goal = self.goal
        gy, gx = divmod(goal, s)
        reached_rule = self.stop == "reached"
        tr = self.trace
        held = self._held
        n = 0
        while n < budget:
            if held is not None:  # the best entry the last expansion added, held back from the heap
                _f, _hh, i, arr = heappushpop(heap, held)
                held = None
            elif heap:
                _f, _hh, i, arr = heappop(heap)
            else:
                self.expanded += n
                self._finish(NO_PATH, None)
                return
            if stamp[i] == closed_s:
                continue
            stamp[i] = closed_s
            n += 1
            if tr is not None:
                tr.expand(i)
            if i == goal:
                self.expanded += n
                self._finish(FOUND, i)
                return
            gi = g[i]
            y, x = divmod(i, s)
            ddx, ddy = gx - x, gy - y
            if arr == ARRIVE_START:
                dirs = start_plans[((ddx > 0) - (ddx < 0)) * 3 + (ddy > 0) - (ddy < 0) + 4]
            else:
                dirs = plans[arr][(forced[i] >> (arr + arr)) & 3]
            found = []
            for rec in dirs:
                kind = rec[0]
                if kind == 0:
                    _, tab, dx, code = rec
                    d = tab[i]
                    if ddy == 0:
                        k = ddx * dx
                        if 0 < k <= (d if d > 0 else -d):
                            found.append((goal, gi + k * S, gx, gy, ARRIVE_START))
                            break
                    if d > 0 and stamp[i + d * dx] != closed_s:
                        found.append((i + d * dx, gi + d * S, x + d * dx, y, code))
                elif kind == 1:
                    _, tab, dy, step, code = rec
                    d = tab[i]
                    if ddx == 0:
                        k = ddy * dy
                        if 0 < k <= (d if d > 0 else -d):
                            found.append((goal, gi + k * S, gx, gy, ARRIVE_START))
                            break
                    if d > 0 and stamp[i + d * step] != closed_s:
                        found.append((i + d * step, gi + d * S, x, y + d * dy, code))
                else:
                    _, tab, tab_x, tab_y, dx, dy, dd, step_y, code_x, code_y = rec
                    ax, ay = ddx * dx, ddy * dy
                    k = (ax if ax < ay else ay) if ax > 0 and ay > 0 else 0  # steps to the goal's row/column
                    m, t = i, 0
                    while True:
                        d = tab[m]
                        if t < k <= t + (d if d > 0 else -d):
                            # the ray crosses the goal's row or column here: Rabin's target jump point
                            mk = i + k * dd
                            if ax == ay:
                                found.append((goal, gi + k * D, gx, gy, ARRIVE_START))
                                break
                            if ay < ax:
                                rest, r = ax - k, tab_x[mk]
                            else:
                                rest, r = ay - k, tab_y[mk]
                            if rest <= (r if r > 0 else -r):
                                found.append((goal, gi + k * D + rest * S, gx, gy, ARRIVE_START))
                                break
                        if d <= 0:
                            break
                        t += d
                        m += d * dd
                        r = tab_x[m]
                        if r > 0 and stamp[m + r * dx] != closed_s:
                            found.append((m + r * dx, gi + t * D + r * S, x + (t + r) * dx, y + t * dy, code_x))
                        r = tab_y[m]
                        if r > 0 and stamp[m + r * step_y] != closed_s:
                            found.append((m + r * step_y, gi + t * D + r * S, x + t * dx, y + (t + r) * dy, code_y))
                    if found and found[-1][0] == goal:
                        break  # the goal at octile distance from i: nothing else from i can beat it
            for j, ng, jx, jy, code in found:
                st = stamp[j]
                if st == closed_s:
                    continue
                if st == open_s:
                    if ng >= g[j]:
                        continue
                else:
                    stamp[j] = open_s
                g[j] = ng
                parent[j] = i
                if tr is not None:
                    tr.updates.extend((j, ng, i))
                if not inline:
                    hj = h_of(j)
                else:
                    hx = gx - jx if jx < gx else jx - gx
                    hy = gy - jy if jy < gy else jy - gy
                    hj = hx * hs + hy * hextra if hx > hy else hy * hs + hx * hextra
                entry = (ng + hj, hj, j, code)
                if held is None:
                    held = entry
                elif entry < held:
                    heappush(heap, held)
                    held = entry
                else:
                    heappush(heap, entry)
                if reached_rule and j == goal:
                    self.expanded += n
                    self._finish(FOUND, j)
                    return
        self._held = held
        self.expanded += n
