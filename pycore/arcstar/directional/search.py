"""``DirectionalSearch``: A* over a ``DirectionalGraph`` with the children of a node evaluated in
bulk, on the engine's stepping, workspaces, trace and results (as ``search.jps`` does for JPS).

The engine's generic loop asks ``successors(node)`` for a list of (child, cost) pairs and calls
a heuristic closure per child; on the lattice a node has up to 64, 192 or 384 children, so that
list and those calls were most of a search's time. Here, per expanded node:

- one window lookup (``MapWindows.window``: the blocked tiles around the parent as one integer);
- per start heading the table's precomputed children (``MotionTable.bulk``): node steps, costs
  already times the uniform terrain cost (and the turn penalty), masks; per offset group one
  test drops or passes its 8 end headings, and only mixed groups test each child's mask;
- G folded with the open/closed state in one per-node list (inf: unseen, the best G while open,
  -1 once closed), so a child that is closed or no better costs one read and one compare;
- H for the few children that improve, once per node and search (a per-node list like G):
  ``GoalHeuristic.value``, the curve table's value for (offset to the goal, heading) maxed with
  the lazy 2-D distance of the child's tile.

Non-uniform terrain and the off-lattice start take ``graph.successors`` (costs summed per tile),
with the same G, H and heap handling. Same search as the engine's generic loop over the graph
(``search.engine.AStar(graph, graph.start_node, graph.goal_nodes)``, the reference): the same
nodes expanded in the same order with the same updates and cost (a hypothesis test checks it).
Bench (60x60 Moving AI windows, ``bench/results/directional.md``): Directional-24 median query
about 5 ms (radius 1.5) and 16 ms (radius 3) in CPython, 10 and 36 ms in Pyodide.
"""

from __future__ import annotations

import math
from heapq import heappop, heappush, heappushpop

from ..outcomes import Status
from ..search.engine import (
    FOUND,
    NO_PATH,
    RUNNING,
    SteppedSearch,
    Trace,
    acquire_workspace,
    check_search_args,
    parent_chain,
    release_workspace,
)
from ..search.openlists import TIE
from .graph import DirectionalGraph

INF = math.inf
CLOSED = -1.0  # a closed node's G: below every G, so no move ever improves it


class DirectionalSearch(SteppedSearch):
    """One query over ``graph`` from its ``start_node`` to its ``goal_nodes``.

    heuristic: "directional" or "none"; weight: H multiplier (>= 0); stop: "closed" (least
    cost) or "reached"; max_expansions: a total budget; trace: record expansions and updates
    in a ``search.engine.Trace``: ``expanded`` the node ids in expansion order, ``updates``
    flat (node, g, parent) triples, ``marks[k]`` the updates before expansion k; a node id is
    ``(y * map width + x) * 8 + k``, the state at tile (x, y) facing heading k (k * 45
    degrees, 0 east, 2 south), or ``graph.off_lattice`` for an off-lattice start pose.
    ``graph.heading_fans(trace.expanded, trace.updates)`` folds it into per-tile heading bytes
    for drawing.
    """

    def __init__(self, graph: DirectionalGraph, heuristic: str = "directional", weight: float = 1.0,
                 stop: str = "closed", max_expansions: int | None = None, trace: bool = False) -> None:
        check_search_args(stop, weight, max_expansions)
        self.graph = graph
        self.start, self.goals = graph.start_node, list(graph.goal_nodes)
        self.stop = stop
        self.max_expansions = max_expansions
        self.status = RUNNING
        self.expanded = 0
        self.ms = 0.0
        self.goal_found: int | None = None
        self.cost: float | None = None
        self.trace = Trace() if trace else None
        self._h = graph.heuristic(self.goals, heuristic, weight)
        self._weight = float(weight)
        self._inline = heuristic != "none"
        self._ws = ws = acquire_workspace(graph.node_count)
        self._g = ws.array("directional_g", INF)  # all inf between searches (put back in _finish)
        self._hc = ws.array("directional_h", -1.0)  # H once computed, -1 before (put back in _finish)
        self._closed: list[int] = []
        self._path: list[int] | None = None
        start = self.start
        self._g[start] = 0.0
        ws.parent[start] = -1
        h0 = self._h(start)
        self._heap: list[tuple[float, int]] = [(h0 + TIE * h0, start)]
        self._held: tuple[float, int] | None = None
        if self.trace is not None:
            self.trace.updates.extend((start, 0.0, -1))

    def _expand(self, budget: int) -> None:
        graph = self.graph
        heap, G, parent, closed = self._heap, self._g, self._ws.parent, self._closed
        close = closed.append
        bulk, window, successors = graph.bulk, graph.windows.window, graph.successors
        off = graph.off_lattice
        goals = set(self.goals)
        reached_rule = self.stop == "reached"
        tr = self.trace
        inline, weight, h_of = self._inline, self._weight, self._h
        value = graph.goal_h().value if inline else h_of
        H = self._hc
        tie = TIE
        better: list = []
        add = better.append
        held = self._held
        n = 0
        while n < budget:
            if held is not None:
                i = heappushpop(heap, held)[1]
                held = None
            elif heap:
                i = heappop(heap)[1]
            else:
                self.expanded += n
                self._finish(NO_PATH, None)
                return
            gi = G[i]
            if gi < 0.0:
                continue  # a stale duplicate: the node was closed through a better entry
            G[i] = CLOSED
            close(i)
            n += 1
            if tr is not None:
                tr.expand(i)
            if i in goals:
                self.expanded += n
                self.cost = gi
                self._finish(FOUND, i)
                return
            if bulk is None or i == off:
                for j, c in successors(i):
                    ng = gi + c
                    if ng < G[j]:
                        add(j)
                        add(ng)
            else:
                win = window(i >> 3)
                for union, inter, plain, masked in bulk[i & 7]:
                    if inter & win:
                        continue  # a tile every one of the 8 moves touches is blocked
                    if union & win:
                        for d, c, m in masked:
                            if m & win:
                                continue
                            j = i + d
                            ng = gi + c
                            if ng < G[j]:
                                add(j)
                                add(ng)
                    else:  # no tile any of the 8 moves touches is blocked
                        for d, c in plain:
                            j = i + d
                            ng = gi + c
                            if ng < G[j]:
                                add(j)
                                add(ng)
            if not better:
                continue
            pairs = iter(better)
            for j, ng in zip(pairs, pairs):  # (child, its new G), in the order they came
                G[j] = ng
                parent[j] = i
                if tr is not None:
                    tr.updates.extend((j, ng, i))
                hj = H[j]
                if hj < 0.0:  # first time this search: computed once, then read
                    hj = H[j] = value(j) * weight if inline else h_of(j)
                entry = (ng + hj + tie * hj, j)  # the key exactly as the engine's open list makes it
                if held is None:
                    held = entry
                elif entry < held:
                    heappush(heap, held)
                    held = entry
                else:
                    heappush(heap, entry)
                if reached_rule and j in goals:
                    better.clear()
                    self._held = held
                    self.expanded += n
                    self.cost = ng
                    self._finish(FOUND, j)
                    return
            better.clear()
        self._held = held
        self.expanded += n

    def _finish(self, status: Status, goal: int | None) -> None:
        self.status = status
        self.goal_found = goal
        ws = self._ws
        if goal is not None:
            self._path = parent_chain(ws.parent, self.start, goal)
        if self.trace is not None:
            self.trace.snapshot(self._h)
        G, H = self._g, self._hc  # every node with a G or an H is closed or on the heap
        for i in self._closed:
            G[i] = INF
            H[i] = -1.0
        for _key, i in self._heap:
            G[i] = INF
            H[i] = -1.0
        if self._held is not None:
            G[self._held[1]] = INF
            H[self._held[1]] = -1.0
        self._heap, self._held, self._closed = [], None, []
        release_workspace(ws)

    # -- results ----------------------------------------------------------------------------
    @property
    def open_count(self) -> int:
        """Entries on the open list (stale duplicates included)."""
        return len(self._heap) + (self._held is not None)

    @property
    def path_nodes(self) -> list[int] | None:
        return self._path
