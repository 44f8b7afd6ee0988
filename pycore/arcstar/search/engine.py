"""The best-first search engine: A*, weighted A* and Dijkstra over any ``graph.Graph``.

A search is a resumable object: ``step(budget)`` expands at most ``budget`` nodes and returns,
so a caller (the Web Worker's scheduler) can timeslice it and cancel it between slices.

Node data lives in flat lists stamped with a search generation (Lester's whichList trick):
a node is on the open list when its stamp equals the generation, closed when it equals the
generation + 1, and unseen otherwise. Lists are pooled per map size and never cleared, so a
query costs time in proportion to the nodes it touches, not to the map. The grid loops fold
the stamp into g instead (one list ``open_g``: inf unseen, the best g while open, ``CLOSED``
once closed), so one read and one compare tell unseen, better, worse and closed apart; they
put back inf on the nodes they touched when they end, which costs a pass over the closed nodes
and the open list, far less than the stamp reads and writes it saves.

Ties on F are broken toward the lower H (the node nearer the goal), then the lower node id
(see ``openlists``: one float key F + TIE * H).
Closed nodes are never reopened (Lester's rule); with an admissible *consistent* heuristic
(octile, euclidean, chebyshev, none) the path is optimal, with Manhattan on 8 neighbours or a
weight above 1 it may not be.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from heapq import heappop, heappush, heappushpop
from itertools import chain, islice, repeat
from operator import sub
from typing import Any

import numpy as np

from ..outcomes import BadInput, Status
from .graph import CellGraph, Graph, filled
from .grid import GridGraph
from .heuristics import heuristic_constants
from .openlists import TIE, HeapOpenList, make_open_list

RUNNING, FOUND, NO_PATH = Status.RUNNING, Status.FOUND, Status.NO_PATH
BUDGET, CANCELLED = Status.BUDGET_EXHAUSTED, Status.CANCELLED
STOP_RULES = ("closed", "reached")
TRACE_DETAIL_LIMIT = 50_000  # above this many expansions a trace keeps the explored mask only
INF = math.inf
CLOSED = -1.0  # the grid loops' g of a closed node: below every g, so no step ever improves it


class Workspace:
    """Per-node g, parent and list-stamp arrays for one map size, reused across searches.

    Each array is allocated on first use: the grid loops keep g and the stamps folded in one
    array of their own (``open_g``), so on a large map they never pay for ``g`` or ``stamp``.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.generation = 0
        self._extra: dict[str, Any] = {}

    @property
    def g(self) -> Any:
        return self.array("g", 0.0)

    @property
    def parent(self) -> Any:
        return self.array("parent", -1)

    @property
    def stamp(self) -> Any:
        return self.array("stamp", 0)

    def array(self, name: str, fill: float) -> Any:
        """A further per-node array (allocated on first use, then reused like the others)."""
        if name not in self._extra:
            self._extra[name] = filled(self.size, fill)
        return self._extra[name]

    def links(self) -> tuple[Any, Any, Any]:
        """The next/prev/key arrays Pinter's unsorted open list threads through the nodes."""
        return self.array("next", -1), self.array("prev", -1), self.array("f", 0.0)

    def next_generation(self) -> int:
        """A fresh (open, closed) stamp pair: old stamps become 'unseen' without clearing."""
        self.generation += 2
        return self.generation


# Workspaces kept for reuse: of one map size only (the last one searched), at most two, so
# swapping between large maps never holds the arrays of a map no longer searched.
_POOL: list[Workspace] = []
_POOL_KEEP = 2


def acquire_workspace(size: int) -> Workspace:
    if _POOL and _POOL[0].size != size:
        _POOL.clear()
    return _POOL.pop() if _POOL else Workspace(size)


def release_workspace(ws: Workspace) -> None:
    if _POOL and _POOL[0].size != ws.size:
        _POOL.clear()
    if len(_POOL) < _POOL_KEEP:
        _POOL.append(ws)


@dataclass
class Trace:
    """What the lab draws and replays: every expansion and every g/parent update, in order.

    ``updates`` is flat: (node, g, parent) per entry; ``marks[k]`` is how many updates came
    before expansion k, so the state after any expansion can be rebuilt. ``nodes`` is the final
    state of every node seen: closed, g, h, f and parent (kept only for searches of at most
    ``TRACE_DETAIL_LIMIT`` expansions; empty above).
    """

    expanded: list[int] = field(default_factory=list)
    marks: list[int] = field(default_factory=list)
    updates: list = field(default_factory=list)
    nodes: dict[int, dict] = field(default_factory=dict)

    def snapshot(self, h_of: Callable[[int], float]) -> None:
        """Record every seen node's final state (small searches only): its last update gives
        its g and parent, the expansions say which nodes are closed."""
        if len(self.expanded) > TRACE_DETAIL_LIMIT:
            return
        u = self.updates
        last = {u[k]: k for k in range(0, len(u), 3)}  # node -> its last update, in first-seen order
        closed = set(self.expanded)
        for node, k in last.items():
            g, h = u[k + 1], h_of(node)
            self.nodes[node] = {"closed": node in closed, "g": g, "h": h, "f": g + h, "parent": u[k + 2]}

    def explored(self, graph: CellGraph) -> bytes:
        """One byte per cell of the graph (a map tile, row-major): 0 unseen, 1 open, 2 closed."""
        mask = np.zeros(graph.cell_count, dtype=np.uint8)
        for value, nodes in ((1, self.updates[0::3]), (2, self.expanded)):
            cells = graph.cell_index(np.asarray(nodes, dtype=np.int64))
            mask[cells[cells >= 0]] = value
        return mask.tobytes()

    def expand(self, node: int) -> None:
        self.expanded.append(node)
        self.marks.append(len(self.updates) // 3)

    @property
    def reparented(self) -> list[tuple[int, float, float, int, int]]:
        """(node, old g, new g, old parent, new parent) for every improvement of an open node."""
        last: dict[int, tuple[float, int]] = {}
        out = []
        u = self.updates
        for k in range(0, len(u), 3):
            node, g, parent = u[k], u[k + 1], u[k + 2]
            if node in last:
                out.append((node, last[node][0], g, last[node][1], parent))
            last[node] = (g, parent)
        return out


def parent_chain(parent: list[int], start: int, goal: int) -> list[int]:
    """The nodes from ``start`` to ``goal`` read back through the parent array."""
    chain = [goal]
    while chain[-1] != start:
        chain.append(parent[chain[-1]])
    chain.reverse()
    return chain


def check_search_args(stop: str, weight: float, max_expansions: int | None) -> None:
    """The arguments every engine shares; a clear ValueError for a bad one."""
    if stop not in STOP_RULES:
        raise BadInput(f"stop must be one of {', '.join(STOP_RULES)}, got {stop!r}", "stop")
    if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not math.isfinite(weight) or weight < 0:
        raise BadInput(f"weight must be a finite number >= 0, got {weight!r}", "weight")
    if max_expansions is not None and (isinstance(max_expansions, bool) or not isinstance(max_expansions, int)
                                       or max_expansions < 1):
        raise BadInput(f"max_expansions must be a positive integer, got {max_expansions!r}", "max_expansions")


class SteppedSearch:
    """What makes a search resumable: ``step(budget)`` runs ``_expand`` for at most ``budget``
    expansions and keeps time and the total budget; subclasses give ``_expand`` and
    ``_finish(status, goal)`` and set ``status``, ``expanded``, ``ms`` and ``max_expansions``."""

    status: Status
    expanded: int
    ms: float
    max_expansions: int | None

    def step(self, budget: int = 1) -> Status:
        """Expand at most ``budget`` nodes; return the status (``running`` until it ends)."""
        if self.status != RUNNING:
            return self.status
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise BadInput(f"step budget must be a positive integer, got {budget!r}", "budget")
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

    def run(self, slice_size: int = 4096) -> Status:
        """Step to the end (bounded by ``max_expansions`` if given)."""
        while self.step(slice_size) == RUNNING:
            pass
        return self.status

    def cancel(self) -> None:
        """Stop for good; the node arrays go back to the pool."""
        if self.status == RUNNING:
            self._finish(CANCELLED, None)

    def _expand(self, budget: int) -> None:  # pragma: no cover - every engine has its own
        raise NotImplementedError

    def _finish(self, status: Status, goal: int | None) -> None:  # pragma: no cover
        raise NotImplementedError


class AStar(SteppedSearch):
    """One A*/Dijkstra query from ``start`` to the nearest of ``goals`` (node ids of ``graph``,
    any ``graph.Graph``: squares, hexes, waypoints, the hierarchical abstract graph).

    heuristic: one of ``graph.heuristics`` (None: ``graph.default_heuristic``); weight: H
    multiplier (>= 0). stop: "closed" ends when a goal leaves the open list (optimal; the
    default), "reached" when a goal is first put on it (faster, may be longer: Lester's warning
    about the river crossing). max_expansions: a total budget; the search ends with status
    ``budget_exhausted`` past it. open_list: "heap" or "unsorted" (Pinter's fixed-matrix list),
    see ``openlists``. turn_penalty: extra cost (in the graph's cost units) for each change of
    direction (Pinter's Figure 2b, Lester's "smoother paths"); a direction is the node-id offset
    of a step, which names the direction on a grid. Each node keeps the one direction it was
    entered by, as in the articles, so the turn-penalised cost is not guaranteed minimal.

    One engine, three loops: on a ``GridGraph`` with the heap and no turn penalty the search
    runs a loop specialised for grids (legal-move bit masks, inlined octile and Manhattan, the
    stamp folded into g); on a grid of uniform step costs, without a trace or the "reached"
    rule, a leaner one still (each step's cost a constant). Every other case runs the generic
    loop over ``graph.successors``. All expand the same nodes in the same order (tests check
    it); ``fast=False`` forces the generic loop.

    The grid loops hold back the best entry each expansion adds and pass it to ``heappushpop``
    at the next pop: when it is the smallest (the usual case on open ground, where F stays
    constant toward the goal) it is expanded next without touching the heap.
    """

    def __init__(self, graph: Graph, start: int, goals: Sequence[int], heuristic: str | None = None,
                 weight: float = 1.0, stop: str = "closed", max_expansions: int | None = None,
                 trace: bool = False, open_list: str = "heap", turn_penalty: float = 0.0,
                 fast: bool = True) -> None:
        check_search_args(stop, weight, max_expansions)
        if isinstance(turn_penalty, bool) or not isinstance(turn_penalty, (int, float)) \
                or not math.isfinite(turn_penalty) or turn_penalty < 0:
            raise BadInput(f"turn_penalty must be a finite number >= 0, got {turn_penalty!r}", "turn_penalty")
        if not goals:
            raise BadInput("a search needs at least one goal", "goal")
        for role, n in [("start", start), *(("goal", g) for g in goals)]:
            if isinstance(n, bool) or not isinstance(n, int) or not graph.usable(n):
                raise BadInput(f"{role} node {n!r} is blocked or not on the graph", role)
        heuristic = graph.default_heuristic if heuristic is None else heuristic
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
        self._h = graph.heuristic(self.goals, heuristic, weight)
        self._turn = float(turn_penalty)
        self._grid = graph if fast and isinstance(graph, GridGraph) and open_list == "heap" and not self._turn \
            else None
        # the grid loops compute octile and Manhattan inline (same arithmetic as make_heuristic)
        self._hkind = "none" if heuristic == "none" else \
            heuristic if len(self.goals) == 1 and heuristic in ("octile", "manhattan") else ""
        self._hconst = heuristic_constants(self._grid, weight) if self._grid is not None else (0.0, 0.0)
        self._ws = ws = acquire_workspace(graph.node_count)
        self._open = make_open_list(open_list, ws.size, ws.links() if open_list == "unsorted" else None)
        self._open_stamp = ws.next_generation()
        self._path: list[int] | None = None
        ws.parent[start] = -1
        h0 = self._h(start)
        self._open.push(h0, h0, start, True)
        # the grid loops' state: g with the stamp folded in, the closed nodes, the held-back entry
        self._open_g: list[float] | None = None
        self._closed: list[int] = []
        self._held: tuple[float, int] | None = None
        # the loop as a plain function, not a bound method: a bound method kept on self is a
        # reference cycle, which would hold the graph (on a large map, a gigabyte) until the
        # garbage collector happens to run
        self._loop: Callable[[AStar, int], None] = AStar._expand_general
        if self._grid is not None:
            self._open_g = ws.array("open_g", INF)  # all inf between searches
            self._open_g[start] = 0.0
            uniform = self._grid.uniform_steps is not None and self.trace is None and stop == "closed"
            self._loop = AStar._expand_uniform if uniform else AStar._expand_grid
        else:
            ws.g[start], ws.stamp[start] = 0.0, self._open_stamp
        if self.trace is not None:
            self.trace.updates.extend((start, 0.0, -1))

    # -- running --------------------------------------------------------------------------
    def _expand(self, budget: int) -> None:
        self._loop(self, budget)

    def _expand_grid(self, budget: int) -> None:
        """The grid loop: binary heap, no turn penalty, any step costs, trace and stop rule."""
        assert isinstance(self._open, HeapOpenList)
        heap = self._open.heap
        g, parent, closed = self._open_g, self._ws.parent, self._closed
        assert g is not None and self._grid is not None
        close = closed.append
        grid = self._grid
        legal, successors = grid.legal, grid.steps_by_mask
        xs, ys = grid.xs, grid.ys
        goals = set(self.goals)
        single_goal = self.goals[0] if len(self.goals) == 1 else -1
        gx, gy = xs[self.goals[0]], ys[self.goals[0]]
        octile, manhattan, zero = self._hkind == "octile", self._hkind == "manhattan", self._hkind == "none"
        h_of = self._h
        hs, hextra = self._hconst
        tie = TIE
        reached_rule = self.stop == "reached"
        tr = self.trace
        held = self._held
        n = 0
        while n < budget:
            if held is not None:
                i = heappushpop(heap, held)[1]  # the held-back entry, unless the heap has a smaller
                held = None
            elif heap:
                i = heappop(heap)[1]
            else:
                self.expanded += n
                self._finish(NO_PATH, None)
                return
            gi = g[i]
            if gi < 0.0:
                continue  # a stale duplicate: the node was closed through a better entry
            g[i] = CLOSED
            close(i)
            n += 1
            if tr is not None:
                tr.expand(i)
            if i == single_goal or (single_goal < 0 and i in goals):
                self.expanded += n
                self.cost = gi
                self._finish(FOUND, i)
                return
            for d, costs in successors[legal[i]]:
                j = i + d
                ng = gi + costs[j]
                if ng >= g[j]:
                    continue  # closed (CLOSED), or open at least as cheaply (inf: unseen)
                g[j] = ng
                parent[j] = i
                if tr is not None:
                    tr.updates.extend((j, ng, i))
                if octile:
                    dx = xs[j] - gx
                    if dx < 0:
                        dx = -dx
                    dy = ys[j] - gy
                    if dy < 0:
                        dy = -dy
                    hj = dx * hs + dy * hextra if dx > dy else dy * hs + dx * hextra
                elif manhattan:
                    dx = xs[j] - gx
                    dy = ys[j] - gy
                    hj = ((dx if dx > 0 else -dx) + (dy if dy > 0 else -dy)) * hs
                elif zero:
                    hj = 0.0
                else:
                    hj = h_of(j)
                entry = (ng + hj + tie * hj, j)  # the key exactly as openlists computes it
                if held is None:
                    held = entry
                elif entry < held:
                    heappush(heap, held)
                    held = entry
                else:
                    heappush(heap, entry)
                if reached_rule and (j == single_goal or (single_goal < 0 and j in goals)):
                    self._held = held
                    self.expanded += n
                    self.cost = ng
                    self._finish(FOUND, j)
                    return
        self._held = held
        self.expanded += n

    def _expand_uniform(self, budget: int) -> None:
        """``_expand_grid`` on uniform step costs, without a trace or the "reached" rule: the
        hot path of the benchmarks. Every straight step costs the same and so does every
        diagonal one, so a node's straight moves and then its diagonal ones (the order of
        ``_expand_grid``) run as two loops over bare offsets, each with one G to beat."""
        assert isinstance(self._open, HeapOpenList)
        heap = self._open.heap
        g, parent, closed = self._open_g, self._ws.parent, self._closed
        assert g is not None and self._grid is not None
        close = closed.append
        grid = self._grid
        legal, uniform = grid.legal, grid.uniform_steps
        assert uniform is not None
        straight, diagonal, straight_cost, diagonal_cost = uniform
        xs, ys = grid.xs, grid.ys
        goals = set(self.goals)
        single_goal = self.goals[0] if len(self.goals) == 1 else -1
        gx, gy = xs[self.goals[0]], ys[self.goals[0]]
        octile, manhattan, zero = self._hkind == "octile", self._hkind == "manhattan", self._hkind == "none"
        h_of = self._h
        hs, hextra = self._hconst
        tie = TIE
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
            gi = g[i]
            if gi < 0.0:
                continue
            g[i] = CLOSED
            close(i)
            n += 1
            if i == single_goal or (single_goal < 0 and i in goals):
                self.expanded += n
                self.cost = gi
                self._finish(FOUND, i)
                return
            mask = legal[i]
            ng = gi + straight_cost
            for d in straight[mask]:
                j = i + d
                if ng >= g[j]:
                    continue
                g[j] = ng
                parent[j] = i
                if octile:
                    dx = xs[j] - gx
                    if dx < 0:
                        dx = -dx
                    dy = ys[j] - gy
                    if dy < 0:
                        dy = -dy
                    hj = dx * hs + dy * hextra if dx > dy else dy * hs + dx * hextra
                    entry = (ng + hj + tie * hj, j)
                elif zero:
                    entry = (ng, j)  # what ng + 0.0 + tie * 0.0 is
                else:
                    if manhattan:
                        dx = xs[j] - gx
                        dy = ys[j] - gy
                        hj = ((dx if dx > 0 else -dx) + (dy if dy > 0 else -dy)) * hs
                    else:
                        hj = h_of(j)
                    entry = (ng + hj + tie * hj, j)
                if held is None:
                    held = entry
                elif entry < held:
                    heappush(heap, held)
                    held = entry
                else:
                    heappush(heap, entry)
            ng = gi + diagonal_cost  # the same again for the diagonal moves
            for d in diagonal[mask]:
                j = i + d
                if ng >= g[j]:
                    continue
                g[j] = ng
                parent[j] = i
                if octile:
                    dx = xs[j] - gx
                    if dx < 0:
                        dx = -dx
                    dy = ys[j] - gy
                    if dy < 0:
                        dy = -dy
                    hj = dx * hs + dy * hextra if dx > dy else dy * hs + dx * hextra
                    entry = (ng + hj + tie * hj, j)
                elif zero:
                    entry = (ng, j)  # what ng + 0.0 + tie * 0.0 is
                else:
                    if manhattan:
                        dx = xs[j] - gx
                        dy = ys[j] - gy
                        hj = ((dx if dx > 0 else -dx) + (dy if dy > 0 else -dy)) * hs
                    else:
                        hj = h_of(j)
                    entry = (ng + hj + tie * hj, j)
                if held is None:
                    held = entry
                elif entry < held:
                    heappush(heap, held)
                    held = entry
                else:
                    heappush(heap, entry)
        self._held = held
        self.expanded += n

    def _expand_general(self, budget: int) -> None:
        """Any graph, any open list, and the turn penalty: the same search as ``_expand_grid``."""
        ws, open_list, h_of = self._ws, self._open, self._h
        g, parent, stamp = ws.g, ws.parent, ws.stamp
        turn = self._turn
        open_s = self._open_stamp
        closed_s = open_s + 1
        successors = self.graph.successors
        goals = set(self.goals)
        reached_rule = self.stop == "reached"
        tr = self.trace
        push, pop = open_list.push, open_list.pop
        n = 0
        while n < budget:
            i = pop()
            if i < 0:
                self.expanded += n
                self._finish(NO_PATH, None)
                return
            if stamp[i] == closed_s:
                continue
            stamp[i] = closed_s
            n += 1
            if tr is not None:
                tr.expand(i)
            if i in goals:
                self.expanded += n
                self._finish(FOUND, i)
                return
            gi = g[i]
            came = i - parent[i] if turn and parent[i] >= 0 else 0
            for j, cost in successors(i):
                st = stamp[j]
                if st == closed_s:
                    continue
                ng = gi + cost
                if came and j - i != came:
                    ng += turn
                new = st != open_s
                if not new:
                    if ng >= g[j]:
                        continue
                else:
                    stamp[j] = open_s
                g[j] = ng
                parent[j] = i
                if tr is not None:
                    tr.updates.extend((j, ng, i))
                hj = h_of(j)
                push(ng + hj, hj, j, new)
                if reached_rule and j in goals:
                    self.expanded += n
                    self._finish(FOUND, j)
                    return
        self.expanded += n

    def _finish(self, status: Status, goal: int | None) -> None:
        self.status = status
        self.goal_found = goal
        ws = self._ws
        if goal is not None:
            self._path = parent_chain(ws.parent, self.start, goal)
            if self._open_g is None:
                self.cost = ws.g[goal]  # (the grid loops set it: a closed node's g is CLOSED)
        if self.trace is not None:
            self.trace.snapshot(self._h)
        g = self._open_g
        if g is not None:  # every node the grid loop touched is closed or on the open list
            assert isinstance(self._open, HeapOpenList)
            for i in self._closed:
                g[i] = INF
            for _key, i in self._open.heap:
                g[i] = INF
            if self._held is not None:
                g[self._held[1]] = INF
            self._open_g, self._held = None, None
        self._open = make_open_list("heap", 0)
        release_workspace(ws)

    def next_node(self) -> int | None:
        """The node the next expansion will take (None when the open list is empty or the search
        has ended), so a caller can prepare what expanding it needs (the hierarchical search
        builds the node's cluster first, in slices of its own)."""
        if self.status != RUNNING:
            return None
        heap = getattr(self._open, "heap", None)
        if heap is None:
            raise NotImplementedError("next_node needs the heap open list")
        g = self._open_g
        if g is not None:
            if self._held is not None:
                heappush(heap, self._held)
                self._held = None
            while heap and g[heap[0][1]] < 0.0:
                heappop(heap)  # stale duplicates: the node was closed through a better entry
            return heap[0][1] if heap else None
        closed_s = self._open_stamp + 1
        stamp = self._ws.stamp
        while heap and stamp[heap[0][1]] == closed_s:
            heappop(heap)  # stale duplicates: the node was closed through a better entry
        return heap[0][1] if heap else None

    # -- results ----------------------------------------------------------------------------
    @property
    def open_count(self) -> int:
        """Entries on the open list (stale duplicates included)."""
        return len(self._open) + (self._held is not None)

    @property
    def path_nodes(self) -> list[int] | None:
        return self._path

    @property
    def length(self) -> float | None:
        """The geometric length of the path in tiles, ``path_length(self.path)`` (read from its
        node steps); None unless found on a grid."""
        nodes, graph = self._path, self.graph
        if nodes is None or not isinstance(graph, GridGraph):
            return None
        steps = list(map(sub, islice(nodes, 1, None), nodes))
        s = graph.stride
        straight = steps.count(1) + steps.count(-1) + steps.count(s) + steps.count(-s)
        return steps_length(straight, len(steps) - straight)

    @property
    def path(self) -> list[tuple[int, int]] | list[int] | None:
        """The path, start first; None unless found: tiles (x, y) on a grid, node ids elsewhere."""
        if self._path is None:
            return None
        graph = self.graph
        if not isinstance(graph, GridGraph):
            return list(self._path)
        stride = graph.stride
        if len(self._path) < _NUMPY_FROM:
            return [(n % stride - 1, n // stride - 1) for n in self._path]
        y, x = np.divmod(np.asarray(self._path, dtype=np.int64), stride)
        return list(zip((x - 1).tolist(), (y - 1).tolist()))


_NUMPY_FROM = 256  # below this many tiles, plain Python beats numpy's call overhead
_DIAGONAL = math.hypot(1.0, 1.0)  # one diagonal step, as path_length measures it
_DIAGONAL_HI = math.ldexp(math.floor(math.ldexp(_DIAGONAL, 32)), -32)  # its first 33 bits
_DIAGONAL_LO = _DIAGONAL - _DIAGONAL_HI  # and the other 20


def steps_length(straight: int, diagonal: int) -> float:
    """The length of a tile path of ``straight`` straight steps and ``diagonal`` diagonal ones:
    ``math.fsum`` of the steps (what ``path_length`` gives for it), in constant time. Below 2**20
    diagonal steps both products are exact, so the fsum of three terms is the fsum of all."""
    if diagonal < 1 << 20:
        return math.fsum((float(straight), diagonal * _DIAGONAL_HI, diagonal * _DIAGONAL_LO))
    return math.fsum(chain(repeat(1.0, straight), repeat(_DIAGONAL, diagonal)))  # pragma: no cover


def path_length(path: list[tuple[int, int]]) -> float:
    """Geometric length in tiles of a tile path (1 per straight step, sqrt 2 per diagonal)."""
    if len(path) < 2:
        return 0.0
    if len(path) < _NUMPY_FROM:
        return math.fsum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:]))
    d = np.diff(np.asarray(path, dtype=np.float64), axis=0)
    return math.fsum(np.hypot(d[:, 0], d[:, 1]).tolist())  # fsum as above: one answer at every length
