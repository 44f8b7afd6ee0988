"""The best-first search engine: A*, weighted A* and Dijkstra over a ``GridGraph``.

A search is a resumable object: ``step(budget)`` expands at most ``budget`` nodes and returns,
so a caller (the Web Worker's scheduler) can timeslice it and cancel it between slices.

Node data lives in flat lists stamped with a search generation (Lester's whichList trick):
a node is on the open list when its stamp equals the generation, closed when it equals the
generation + 1, and unseen otherwise. Lists are pooled per map size and never cleared, so a
query costs time in proportion to the nodes it touches, not to the map.

Ties on F are broken toward the lower H (the node nearer the goal), then the lower node id.
Closed nodes are never reopened (Lester's rule); with an admissible *consistent* heuristic
(octile, euclidean, chebyshev, none) the path is optimal, with Manhattan on 8 neighbours or a
weight above 1 it may not be.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from heapq import heappop, heappush

from .grid import GridGraph
from .heuristics import make_heuristic

RUNNING, FOUND, NO_PATH, BUDGET, CANCELLED = "running", "found", "no_path", "budget_exhausted", "cancelled"
STOP_RULES = ("closed", "reached")


class Workspace:
    """Per-node g, parent and list-stamp arrays for one map size, reused across searches."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.g = [0.0] * size
        self.parent = [-1] * size
        self.stamp = [0] * size
        self.generation = 0

    def next_generation(self) -> int:
        """A fresh (open, closed) stamp pair: old stamps become 'unseen' without clearing."""
        self.generation += 2
        return self.generation


_POOL: dict[int, list[Workspace]] = {}
_POOL_KEEP = 2


def _acquire(size: int) -> Workspace:
    free = _POOL.setdefault(size, [])
    return free.pop() if free else Workspace(size)


def _release(ws: Workspace) -> None:
    free = _POOL.setdefault(ws.size, [])
    if len(free) < _POOL_KEEP:
        free.append(ws)


@dataclass
class Trace:
    """What the lab draws: expansion order, re-parentings, and (at the end) every seen node."""

    expanded: list[int] = field(default_factory=list)
    seen: list[int] = field(default_factory=list)
    reparented: list[tuple[int, float, float, int, int]] = field(default_factory=list)
    nodes: dict[int, dict] = field(default_factory=dict)


class AStar:
    """One A*/Dijkstra query from ``start`` to the nearest of ``goals`` (node ids of ``graph``).

    heuristic: a name from ``heuristics.HEURISTICS``; weight: H multiplier (>= 0).
    stop: "closed" ends when a goal leaves the open list (optimal; the default), "reached" when
    a goal is first put on it (faster, may be longer: Lester's warning about the river crossing).
    max_expansions: a total budget; the search ends with status ``budget_exhausted`` past it.
    """

    def __init__(self, graph: GridGraph, start: int, goals: list[int], heuristic: str = "octile",
                 weight: float = 1.0, stop: str = "closed", max_expansions: int | None = None,
                 trace: bool = False) -> None:
        if stop not in STOP_RULES:
            raise ValueError(f"stop must be one of {', '.join(STOP_RULES)}, got {stop!r}")
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not math.isfinite(weight) or weight < 0:
            raise ValueError(f"weight must be a finite number >= 0, got {weight!r}")
        if max_expansions is not None and (isinstance(max_expansions, bool) or not isinstance(max_expansions, int)
                                           or max_expansions < 1):
            raise ValueError(f"max_expansions must be a positive integer, got {max_expansions!r}")
        if not goals:
            raise ValueError("a search needs at least one goal")
        for n in [start, *goals]:
            if not graph.passable[n]:
                raise ValueError(f"tile {graph.tile(n)} is blocked")
        self.graph = graph
        self.start, self.goals = start, list(goals)
        self.stop = stop
        self.max_expansions = max_expansions
        self.status = RUNNING
        self.expanded = 0
        self.ms = 0.0
        self.goal_found: int | None = None
        self.cost: float | None = None
        self.trace = Trace() if trace else None
        hs = [make_heuristic(heuristic, graph, g, weight) for g in self.goals]
        self._h = hs[0] if len(hs) == 1 else (lambda n: min(h(n) for h in hs))
        self._ws = _acquire(len(graph.passable))
        self._open_stamp = self._ws.next_generation()
        self._heap: list[tuple[float, float, int]] = []
        self._path: list[int] | None = None
        ws = self._ws
        ws.g[start], ws.parent[start], ws.stamp[start] = 0.0, -1, self._open_stamp
        h0 = self._h(start)
        self._heap.append((h0, h0, start))
        if self.trace is not None:
            self.trace.seen.append(start)

    # -- running --------------------------------------------------------------------------
    def step(self, budget: int = 1) -> str:
        """Expand at most ``budget`` nodes; return the status (``running`` until it ends)."""
        if self.status != RUNNING:
            return self.status
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise ValueError(f"step budget must be a positive integer, got {budget!r}")
        if self.max_expansions is not None:
            budget = min(budget, self.max_expansions - self.expanded)
        t0 = time.perf_counter()
        try:
            self._expand(budget)
        finally:
            self.ms += (time.perf_counter() - t0) * 1000.0
        if self.status == RUNNING and self.max_expansions is not None and self.expanded >= self.max_expansions:
            self._finish(BUDGET, None)
        return self.status

    def run(self, slice_size: int = 4096) -> str:
        """Step to the end (bounded by ``max_expansions`` if given)."""
        while self.step(slice_size) == RUNNING:
            pass
        return self.status

    def cancel(self) -> None:
        """Stop for good; the node arrays go back to the pool."""
        if self.status == RUNNING:
            self._finish(CANCELLED, None)

    def _expand(self, budget: int) -> None:
        ws, heap, h_of = self._ws, self._heap, self._h
        g, parent, stamp = ws.g, ws.parent, ws.stamp
        open_s = self._open_stamp
        closed_s = open_s + 1
        passable = self.graph.passable
        moves = self.graph.moves
        goals = set(self.goals)
        single_goal = self.goals[0] if len(self.goals) == 1 else -1
        reached_rule = self.stop == "reached"
        tr = self.trace
        n = 0
        while n < budget:
            if not heap:
                self.expanded += n
                self._finish(NO_PATH, None)
                return
            _f, _h, i = heappop(heap)
            if stamp[i] == closed_s:
                continue  # a stale duplicate: the node was closed through a better entry
            stamp[i] = closed_s
            n += 1
            if tr is not None:
                tr.expanded.append(i)
            if i == single_goal or (single_goal < 0 and i in goals):
                self.expanded += n
                self._finish(FOUND, i)
                return
            gi = g[i]
            for d, costs, check, sa, sb in moves:
                j = i + d
                sc = costs[j]
                if sc == math.inf:
                    continue
                st = stamp[j]
                if st == closed_s:
                    continue
                if check:
                    if check == 1:
                        if not (passable[i + sa] and passable[i + sb]):
                            continue
                    elif not (passable[i + sa] or passable[i + sb]):
                        continue
                ng = gi + sc
                if st == open_s:
                    if ng >= g[j]:
                        continue
                    if tr is not None:
                        tr.reparented.append((j, g[j], ng, parent[j], i))
                else:
                    stamp[j] = open_s
                    if tr is not None:
                        tr.seen.append(j)
                g[j] = ng
                parent[j] = i
                hj = h_of(j)
                heappush(heap, (ng + hj, hj, j))
                if reached_rule and (j == single_goal or (single_goal < 0 and j in goals)):
                    self.expanded += n
                    self._finish(FOUND, j)
                    return
        self.expanded += n

    def _finish(self, status: str, goal: int | None) -> None:
        self.status = status
        self.goal_found = goal
        ws = self._ws
        if goal is not None:
            path = [goal]
            while path[-1] != self.start:
                path.append(ws.parent[path[-1]])
            path.reverse()
            self._path = path
            self.cost = ws.g[goal]
        if self.trace is not None:
            self._snapshot_trace()
        self._heap = []
        _release(ws)

    def _snapshot_trace(self) -> None:
        ws, tr, h_of = self._ws, self.trace, self._h
        closed_s = self._open_stamp + 1
        for node in tr.seen:
            g = ws.g[node]
            h = h_of(node)
            tr.nodes[node] = {"closed": ws.stamp[node] == closed_s, "g": g, "h": h, "f": g + h,
                              "parent": ws.parent[node]}

    # -- results ----------------------------------------------------------------------------
    @property
    def open_count(self) -> int:
        """Entries on the open list (stale duplicates included)."""
        return len(self._heap)

    @property
    def path_nodes(self) -> list[int] | None:
        return self._path

    @property
    def path(self) -> list[tuple[int, int]] | None:
        """The path as tiles (x, y), start first; None unless found."""
        return None if self._path is None else [self.graph.tile(n) for n in self._path]


def path_length(path: list[tuple[int, int]]) -> float:
    """Geometric length in tiles of a tile path (1 per straight step, sqrt 2 per diagonal)."""
    return sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:]))
