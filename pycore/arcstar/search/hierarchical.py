"""Hierarchical search (HPA*, Botea, Mueller and Schaeffer 2004): Lester's "two-tiered search"
and Pinter's "region map", built on the ordinary grid engine.

The map is cut into square clusters whose border transitions are the nodes of an *abstract
graph*, joined inside each cluster by exact least-cost paths (``abstract_graph``: how it is
built, cached per map version and reused after edits).

A query (``HierarchicalAStar``) first asks ``regions`` whether the goal can be reached at all (an
unreachable goal is ``no_path`` with no search). A goal within ``DIRECT_RADIUS`` cluster sizes
first gets a plain A* on the whole graph, capped at ``DIRECT_CAP * cluster_size**2`` expansions:
short paths are where detours through transitions cost the most, and when that search finishes
its path is optimal (``exact``). Otherwise start and goal are inserted into the abstract graph
with searches inside their clusters, A* (octile, admissible and consistent) runs over the
abstract graph, and each abstract edge is refined into its cached tile path. Repeated tiles (a
path that walks into a transition and back) are cut out; nothing else is smoothed, that is
another layer. Every step of the result is one legal move of the graph, and ``cost`` is the real
cost of the returned tiles under the graph's costs. It is not optimal:

On the Moving AI maps, paths are at most 40% longer than optimal, and on average 0-6% longer.

Measured with octile costs, 8 neighbours, no corner cutting, cluster sizes 8, 16 and 32, on 12
maps (8room_000, AR0011SR, brc202d, maze512-1-0, maze512-16-0, random512-10-0, arena, lak303d,
ca_cave, Berlin_0_256, AcrosstheCape, NewYork_0_1024): 300 scenarios per map and size sampled over
all buckets, plus every scenario with an optimal length between 1 and 5 cluster sizes (where the
worst cases are). Worst ratio seen: 1.39 (maze512-16-0, cluster 32, a 107-tile path), 1.26 with
clusters of 8 or 16. Mean per map: 1.00 (8room_000 and maze512-1-0, where every entrance is one
tile wide) to 1.06 (ca_cave, lak303d, random512-10-0 at cluster 8). ``HPA_MAX_RATIO`` is that
bound; the tests check it on samples of 8room_000, AR0011SR, brc202d and maze512-16-0. Against
plain octile A* (median per query, abstract graph built, cluster 16), HPA* expands 8-37 times
fewer nodes and runs 1.3-18 times faster on the maps of 512 tiles and more, except
random512-10-0 (2.6 times fewer, about as fast); on small maps (arena, ca_cave) A* is faster.

Resumable like ``search.AStar``: ``step(budget)`` does at most ``budget`` expansions in all,
counting the cluster searches that build the graph, the start/goal insertion searches and the
abstract search; ``max_expansions`` bounds that same total. ``expanded`` reports the query's own
work (direct search + insertion + abstract search); ``build_expanded`` the graph building it
paid for.

Tiles are (x, y), x right, y down; node ids are those of the ``GridGraph`` the query was given.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..maps.tilemap import TileMap
from ..outcomes import Status
from .abstract_graph import (
    DEFAULT_CLUSTER,
    DEFAULT_WIDE_ENTRANCE,
    AbstractGraph,
    Job,
    Meter,
    abstract_graph,
    check_cluster_size,
    check_wide,
)
from .engine import BUDGET, CANCELLED, FOUND, NO_PATH, RUNNING, AStar, Trace
from .grid import GridGraph, GridOptions, graph_for
from .regions import regions

HPA_MAX_RATIO = 1.4  # measured bound on found/optimal cost (see the module docstring)
DIRECT_RADIUS = 2  # goals within this many cluster sizes (Chebyshev) first get a plain A* ...
DIRECT_CAP = 2.0  # ... capped at this many times cluster_size**2 expansions


@dataclass
class HierarchicalTrace(Trace):
    """``search.Trace`` over abstract nodes, plus what the lab needs to draw the abstraction."""

    cluster_size: int = 0
    transitions: list[int] = field(default_factory=list)
    abstract_path: list[int] = field(default_factory=list)


class AbstractView:
    """The abstract graph of one query as a ``graph.Graph``: transitions (grid node ids) joined
    by inter-cluster steps and intra-cluster paths, plus the query's own start and goal edges
    (``extra``). Heuristics are the grid's; a transition's cluster must be built (``advance``)
    before the engine asks for its successors."""

    def __init__(self, ag: AbstractGraph, extra: dict[int, list[tuple[int, float]]], start: int,
                 goals: list[int]) -> None:
        self.ag, self.extra = ag, extra
        self.node_count = ag.graph.node_count
        self.heuristics = ag.graph.heuristics
        self.default_heuristic = "octile"
        self._ends = {start, *goals}

    def usable(self, node: int) -> bool:
        return node in self.ag.inter or node in self._ends

    def successors(self, node: int) -> list[tuple[int, float]]:
        ag = self.ag
        edges = list(ag.inter.get(node, ()))
        if node in ag.inter:
            intra = ag.intra[ag.cluster_of(node)]
            assert intra is not None, "the cluster is built before its transitions are expanded"
            edges += intra[node]
        edges += self.extra.get(node, ())
        return edges

    def place(self, node: int) -> tuple[float, float]:
        return self.ag.graph.place(node)

    def heuristic(self, goals: Sequence[int], name: str, weight: float = 1.0) -> Callable[[int], float]:
        return self.ag.graph.heuristic(goals, name, weight)

    def admissible(self, name: str, weight: float = 1.0) -> bool:
        return self.ag.graph.admissible(name, weight)


class HierarchicalAStar:
    """One HPA* query from ``start`` to the nearest of ``goals`` (node ids of ``graph``).

    The same interface as ``search.AStar``: ``status``, ``step(budget)``, ``run()``, ``cancel()``,
    ``expanded``, ``ms``, ``cost``, ``path``, ``path_nodes``, ``open_count``, ``trace``.
    cluster_size: tiles per cluster side (MIN_CLUSTER..MAX_CLUSTER); wide_entrance: entrances at
    least this long get two transitions; max_expansions: bound on all work (graph building too).
    """

    def __init__(self, tilemap: TileMap, graph: GridGraph, start: int, goals: list[int],
                 cluster_size: int = DEFAULT_CLUSTER, wide_entrance: int = DEFAULT_WIDE_ENTRANCE,
                 max_expansions: int | None = None, trace: bool = False, direct: bool = True) -> None:
        if not isinstance(direct, bool):
            raise ValueError(f"direct must be true or false, got {direct!r}")
        if not isinstance(graph, GridGraph):
            raise ValueError(f"graph must be a GridGraph, got {type(graph).__name__}")
        if max_expansions is not None and (isinstance(max_expansions, bool) or not isinstance(max_expansions, int)
                                           or max_expansions < 1):
            raise ValueError(f"max_expansions must be a positive integer, got {max_expansions!r}")
        goals = list(goals)
        if not goals:
            raise ValueError("a search needs at least one goal")
        for n in [start, *goals]:
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < len(graph.passable):
                raise ValueError(f"node {n!r} is not a node of the graph")
            if not graph.passable[n]:
                raise ValueError(f"tile {graph.tile(n)} is blocked")
        cluster_size, wide_entrance = check_cluster_size(cluster_size), check_wide(wide_entrance)
        if not isinstance(tilemap, TileMap):
            raise ValueError(f"map must be a TileMap, got {type(tilemap).__name__}")
        if graph.map_version != tilemap.version or (graph.width, graph.height) != (tilemap.width, tilemap.height):
            raise ValueError("the graph was not built from this version of the map")
        t0 = time.perf_counter()
        self.ag: AbstractGraph | None = None
        self.graph = graph
        self.start, self.goals = start, goals
        self.max_expansions = max_expansions
        self.direct = direct
        self.exact = False
        self.status = RUNNING
        self.expanded = 0
        self.build_expanded = 0
        self.ms = 0.0
        self.cost: float | None = None
        self.goal_found: int | None = None
        self.abstract_path: list[int] | None = None
        self.trace = HierarchicalTrace(cluster_size=cluster_size) if trace else None
        self._path: list[int] | None = None
        self._abstract: AStar | None = None
        self._searches: list[AStar] = []
        self._meter = Meter()
        labels = regions(tilemap, graph.options.diagonal, graph.options.neighbours)
        sx, sy = graph.tile(start)
        reachable = [g for g in goals if labels[graph.tile(g)[1], graph.tile(g)[0]] == labels[sy, sx]]
        self._goals = reachable
        self._job: Job | None = None
        if not reachable:
            self._finish(NO_PATH)
        elif start in reachable:
            self._path = [start]
            self._finish(FOUND, start)
        else:  # the abstract graph is only needed (and built) once a search is due
            self.ag = abstract_graph(tilemap, graph, cluster_size, wide_entrance)
            self._job = self._work()
        self.ms += (time.perf_counter() - t0) * 1000.0

    # -- running ------------------------------------------------------------------------------
    def step(self, budget: int = 1) -> Status:
        """Do at most ``budget`` expansions (all kinds); return the status."""
        if self.status != RUNNING:
            return self.status
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise ValueError(f"step budget must be a positive integer, got {budget!r}")
        m = self._meter
        if self.max_expansions is not None:
            budget = min(budget, self.max_expansions - m.total)
        m.left = budget
        t0 = time.perf_counter()
        assert self._job is not None  # set whenever the status is RUNNING
        try:
            next(self._job)
        except StopIteration:
            pass
        finally:
            self.expanded = m.direct + m.insert + m.abstract
            self.build_expanded = m.build
            self.ms += (time.perf_counter() - t0) * 1000.0
        if self.status == RUNNING and self.max_expansions is not None and m.total >= self.max_expansions:
            self._finish(BUDGET)
        if self.status != RUNNING:
            self._close()
        return self.status

    def run(self, slice_size: int = 4096) -> Status:
        """Step to the end (bounded by ``max_expansions`` if given)."""
        while self.step(slice_size) == RUNNING:
            pass
        return self.status

    def cancel(self) -> None:
        """Stop for good (clusters already built stay built for later queries)."""
        if self.status == RUNNING:
            self._finish(CANCELLED)
            self._close()

    def _close(self) -> None:
        job, self._job = self._job, None
        if job is not None:
            job.close()

    def _finish(self, status: Status, goal: int | None = None) -> None:
        self.status = status
        self.goal_found = goal
        for s in self._searches:
            s.cancel()
        self._searches = []
        if self._path is not None:
            self.cost = _path_cost(self.graph, self._path)
        if self.trace is not None and self.ag is not None:
            self.trace.transitions = sorted(self.ag.inter)
            self.trace.abstract_path = list(self.abstract_path or [])

    # -- the work, as one generator that yields whenever the meter runs dry -------------------
    def _drive(self, search: AStar, kind: str) -> Job:
        """Step an engine search to its end within the meter, yielding whenever it runs dry."""
        self._searches.append(search)
        m = self._meter
        while search.status == RUNNING:
            while m.left <= 0:
                yield
            before = search.expanded
            search.step(m.left)
            spent = search.expanded - before
            m.left -= spent
            setattr(m, kind, getattr(m, kind) + spent)
        self._searches.remove(search)

    def _local(self, cid: int, a: int, b: int) -> Generator[None, None, tuple[float, list[int]] | None]:
        """Search a -> b inside cluster ``cid``; returns (cost, tile path as node ids) or None."""
        ag = self.ag
        assert ag is not None  # built before any work
        sub = ag.subgraph(cid)
        search = AStar(sub[0], ag.to_sub(sub, a), [ag.to_sub(sub, b)])
        yield from self._drive(search, "insert")
        if search.status != FOUND:
            return None
        nodes, cost = search.path_nodes, search.cost
        assert nodes is not None and cost is not None  # status is FOUND
        return cost, ag.from_sub(sub, nodes)

    def _work(self) -> Job:
        ag, m = self.ag, self._meter
        assert ag is not None  # built before the work starts
        start, goals = self.start, self._goals
        # 0. a goal within DIRECT_RADIUS cluster sizes: try plain A* first, capped at
        #    DIRECT_CAP * cluster_size**2 expansions; when it finishes it is optimal (short paths
        #    are where HPA*'s detours through transitions cost the most, relatively).
        c = ag.cluster_size
        sx, sy = self.graph.tile(start)
        near = DIRECT_RADIUS * c
        if self.direct and any(max(abs(gx - sx), abs(gy - sy)) <= near for gx, gy in map(self.graph.tile, goals)):
            search = AStar(self.graph, start, goals, heuristic="octile", max_expansions=int(DIRECT_CAP * c * c),
                           trace=self.trace is not None)
            yield from self._drive(search, "direct")
            if search.status == FOUND:
                if self.trace is not None:  # the lab then shows that plain search
                    for name in ("expanded", "marks", "updates", "nodes"):
                        setattr(self.trace, name, getattr(search.trace, name))
                nodes, reached = search.path_nodes, search.goal_found
                assert nodes is not None and reached is not None  # status is FOUND
                self.exact = True
                self._path = list(nodes)
                self.abstract_path = [start, reached]
                self._finish(FOUND, reached)
                return
        # 1. insert start and goals: edges to the transitions of their clusters.
        extra: dict[int, list[tuple[int, float]]] = {}
        extra_paths: dict[tuple[int, int], list[int]] = {}

        def add(a: int, b: int, found: tuple[float, list[int]] | None) -> None:
            if found is not None:
                extra.setdefault(a, []).append((b, found[0]))
                extra_paths[(a, b)] = found[1]

        cs, ls = ag.cluster_of(start), ag.local_component(start)
        start_is_node = start in ag.inter
        if not start_is_node:
            for n in ag.cluster_nodes[cs]:
                if ag.local_component(n) == ls:
                    add(start, n, (yield from self._local(cs, start, n)))
        for goal in goals:
            cg, lg = ag.cluster_of(goal), ag.local_component(goal)
            if goal in ag.inter:
                continue
            if cg == cs and lg == ls and not start_is_node:
                add(start, goal, (yield from self._local(cs, start, goal)))
            for n in ag.cluster_nodes[cg]:
                if ag.local_component(n) == lg:
                    add(n, goal, (yield from self._local(cg, n, goal)))
        # 2. A* over the abstract graph: the engine, over a view of it (the graph protocol);
        #    a transition's cluster is built (in slices) before the engine expands it.
        view = AbstractView(ag, extra, start, goals)
        search = AStar(view, start, goals, heuristic="octile", trace=self.trace is not None)
        self._abstract = search
        self._searches.append(search)  # cancel() stops it with the local searches
        while True:
            nxt = search.next_node()
            if nxt is None:
                search.step(1)  # the open list is empty: the engine ends the search
                break
            if nxt in ag.inter:
                cid = ag.cluster_of(nxt)
                while not ag.advance(cid, m):
                    yield
            while m.left <= 0:
                yield
            before = search.expanded
            if search.step(1) != RUNNING:
                m.abstract += search.expanded - before
                m.left -= search.expanded - before
                break
            m.abstract += search.expanded - before
            m.left -= search.expanded - before
        if self.trace is not None and search.trace is not None:
            for name in ("expanded", "marks", "updates", "nodes"):
                setattr(self.trace, name, getattr(search.trace, name))
        if search.status != FOUND or search.goal_found is None:  # cannot happen when regions agree
            self._finish(NO_PATH)
            return
        found = search.goal_found
        chain = list(search.path_nodes or [found])
        # 3. refine: concatenate the edges' tile paths, cut out any loops.
        self.abstract_path = chain
        tiles = [start]
        for a, b in zip(chain, chain[1:]):
            piece = extra_paths.get((a, b)) or ag.edge_path(a, b)
            tiles.extend(piece[1:])
        self._path = _cut_loops(tiles)
        self._finish(FOUND, found)

    # -- results ------------------------------------------------------------------------------
    @property
    def open_count(self) -> int:
        """Entries on the abstract open list (stale duplicates included)."""
        return 0 if self._abstract is None else self._abstract.open_count

    @property
    def path_nodes(self) -> list[int] | None:
        return self._path

    @property
    def path(self) -> list[tuple[int, int]] | None:
        """The path as tiles (x, y), start first; None unless found."""
        return None if self._path is None else [self.graph.tile(n) for n in self._path]


def _cut_loops(nodes: list[int]) -> list[int]:
    """Drop every stretch between two visits of the same tile (costs are positive)."""
    out: list[int] = []
    where: dict[int, int] = {}
    for n in nodes:
        k = where.get(n)
        if k is not None:
            for m in out[k + 1:]:
                del where[m]
            del out[k + 1:]
            continue
        where[n] = len(out)
        out.append(n)
    return out


def _path_cost(graph: GridGraph, nodes: list[int]) -> float:
    total = 0.0
    for a, b in zip(nodes, nodes[1:]):
        c = graph.step_cost(a, b)
        if c == math.inf:
            raise AssertionError(f"hierarchical path has an illegal step {graph.tile(a)} -> {graph.tile(b)}")
        total += c
    return total


def find_path(tilemap: TileMap, start: tuple[int, int], goal: tuple[int, int], options: GridOptions | None = None,
              cluster_size: int = DEFAULT_CLUSTER, **kwargs: Any) -> HierarchicalAStar:
    """Run one HPA* query between tiles to the end and return the finished search."""
    graph = graph_for(tilemap, options or GridOptions())
    for role, (x, y) in (("start", start), ("goal", goal)):
        if not tilemap.in_bounds(x, y):
            raise ValueError(f"{role} ({x}, {y}) is off the {tilemap.width}x{tilemap.height} map")
    search = HierarchicalAStar(tilemap, graph, graph.node(*start), [graph.node(*goal)], cluster_size, **kwargs)
    search.run()
    return search
