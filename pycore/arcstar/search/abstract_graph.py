"""The abstract graph of hierarchical search (HPA*, Botea, Mueller and Schaeffer 2004; the query
is ``hierarchical``'s ``HierarchicalAStar``).

The map is cut into square clusters (``cluster_size`` tiles a side; 8, 16 or 32 are sensible).
Where two neighbouring clusters share a maximal stretch of open tile pairs across their border
(an *entrance*), one transition is placed in its middle, or two at its ends when the stretch is at
least ``wide_entrance`` tiles long; a transition is a pair of tiles, one each side, joined by one
straight step. Under the "always" diagonal policy a diagonal step that squeezes between two walls
across a border is a transition too. The two tiles of every transition are the nodes of the
*abstract graph*; inside each cluster, every pair of its nodes that can reach each other without
leaving the cluster is joined by an edge whose cost and tile path come from ``search.AStar`` run
on a ``GridGraph`` in which the cluster stands alone (a block of clusters with an impassable line
between neighbours), so they are exact within the cluster, and legal for the same move rules and
terrain costs. Costs are directed: a step costs what the tile it
enters costs, so a->b and b->a can differ on weighted terrain.

The abstract graph is cached on the map per version and cluster size. Its entrances are found
with numpy at once; the intra-cluster edges of a cluster are built lazily, the first time a query
needs them (``AbstractGraph.build_all`` builds them all, e.g. in idle time). After an edit the
next version's graph reuses the intra-cluster edges of every cluster whose tiles, costs and nodes
did not change, so a brush stroke costs the clusters it touched, not the whole map.

Building is metered: ``AbstractGraph.advance(cluster, meter)`` spends at most ``meter.left``
expansions on a cluster's searches and resumes where it stopped. Stored edge paths are one byte
per step (``_encode`` / ``_decode``). Tiles are (x, y), x right, y down; node ids are those of the
``GridGraph`` the graph was built on.
"""

from __future__ import annotations

import math
import time
import weakref
from collections import OrderedDict
from collections.abc import Generator

import numpy as np

from ..maps.tilemap import Terrain, TileMap
from .engine import FOUND, RUNNING, AStar
from .grid import GridGraph, GridOptions, graph_for
from .regions import connectivity_of, label

__all__ = ["DEFAULT_CLUSTER", "DEFAULT_WIDE_ENTRANCE", "MAX_CLUSTER", "MIN_CLUSTER", "AbstractGraph", "Job",
           "Meter", "abstract_graph", "check_cluster_size", "check_wide"]

MIN_CLUSTER, MAX_CLUSTER = 2, 256
DEFAULT_CLUSTER = 16
DEFAULT_WIDE_ENTRANCE = 6
BLOCK_TILES = 128  # cluster searches run on graphs of blocks of clusters about this wide
_BLOCKS_KEPT = 8

# Steps of a stored tile path, one byte each: index into this table.
_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
_DIR_INDEX = {d: k for k, d in enumerate(_DIRS)}

#: A piece of work that yields whenever its expansion meter runs dry.
Job = Generator[None, None, None]

_PREVIOUS: weakref.WeakKeyDictionary[TileMap, dict[str, AbstractGraph]] = weakref.WeakKeyDictionary()


def check_cluster_size(cluster_size: object) -> int:
    """A cluster size must be an integer from MIN_CLUSTER to MAX_CLUSTER."""
    if isinstance(cluster_size, bool) or not isinstance(cluster_size, (int, np.integer)) \
            or not MIN_CLUSTER <= cluster_size <= MAX_CLUSTER:
        raise ValueError(f"cluster_size must be an integer from {MIN_CLUSTER} to {MAX_CLUSTER}, "
                         f"got {cluster_size!r}")
    return int(cluster_size)


def check_wide(wide: object) -> int:
    if isinstance(wide, bool) or not isinstance(wide, (int, np.integer)) or wide < 1:
        raise ValueError(f"wide_entrance must be a positive integer, got {wide!r}")
    return int(wide)


class Meter:
    """The expansions left in this slice, and what they were spent on."""

    __slots__ = ("left", "build", "direct", "insert", "abstract")

    def __init__(self) -> None:
        self.left = 0
        self.build = self.direct = self.insert = self.abstract = 0

    @property
    def total(self) -> int:
        return self.build + self.direct + self.insert + self.abstract


def _segments(open_pairs: np.ndarray, c: int, wide: int) -> tuple[np.ndarray, np.ndarray]:
    """Transition positions along rows of ``open_pairs`` (n, L): maximal runs of True, broken at
    multiples of ``c``; one in the middle of a run, or its two ends when it is ``wide`` or longer.
    Returns (row index, position) arrays."""
    prev = np.zeros_like(open_pairs)
    prev[:, 1:] = open_pairs[:, :-1]
    prev[:, ::c] = False
    nxt = np.zeros_like(open_pairs)
    nxt[:, :-1] = open_pairs[:, 1:]
    nxt[:, c - 1::c] = False
    rows, first = np.nonzero(open_pairs & ~prev)
    _rows, last = np.nonzero(open_pairs & ~nxt)  # same order: one end per start
    two = (last - first + 1) >= wide
    mid = (first + last) // 2
    pos = np.concatenate([np.where(two, first, mid), last[two & (last != first)]])
    return np.concatenate([rows, rows[two & (last != first)]]), pos


class AbstractGraph:
    """The abstract graph of one map version, move rule and cluster size.

    nodes: transition tiles as node ids of ``graph``; ``inter[n]``: steps to other clusters as
    (node, cost); ``intra[cluster][n]``: (node, cost) within the cluster, once built.
    """

    def __init__(self, tilemap: TileMap, graph: GridGraph, cluster_size: int = DEFAULT_CLUSTER,
                 wide_entrance: int = DEFAULT_WIDE_ENTRANCE, previous: AbstractGraph | None = None) -> None:
        t0 = time.perf_counter()
        c = self.cluster_size = check_cluster_size(cluster_size)
        self.wide_entrance = check_wide(wide_entrance)
        if graph.width != tilemap.width or graph.height != tilemap.height or graph.map_version != tilemap.version:
            raise ValueError("the graph was not built from this version of the map")
        self.graph = graph
        self.options = graph.options
        self.version = tilemap.version
        w, h = self.width, self.height = tilemap.width, tilemap.height
        self.cols, self.rows = -(-w // c), -(-h // c)
        self._terrain = tilemap.terrain.copy()
        self._terrains = tuple(tilemap.terrains.values())
        self._influence = None if tilemap.influence is None else tilemap.influence.copy()
        self._cost = tilemap.cost_grid.copy()
        passable = np.isfinite(self._cost)
        eight = connectivity_of(self.options) == 8
        self.local = label(passable, eight=eight, cut=c)[0]  # components of each cluster alone
        self.inter: dict[int, list[tuple[int, float]]] = {}
        self._find_transitions(passable, eight)
        n_clusters = self.cols * self.rows
        members: list[list[int]] = [[] for _ in range(n_clusters)]
        for n in sorted(self.inter):
            members[self.cluster_of(n)].append(n)
        self.cluster_nodes = members
        self.intra: list[dict[int, list[tuple[int, float]]] | None] = [None] * n_clusters
        self.paths: list[dict[tuple[int, int], bytes] | None] = [None] * n_clusters
        self._jobs: dict[int, Job] = {}
        self._meter = Meter()
        self._subgraphs: OrderedDict[int, GridGraph] = OrderedDict()
        self._block = max(1, BLOCK_TILES // c)
        self._wall, self._block_terrains = _wall_terrain(self._terrains)
        self.build_expanded = 0
        self.build_ms = 0.0
        self.reused = 0
        if previous is not None:
            self._reuse(previous)
        self.setup_ms = (time.perf_counter() - t0) * 1000.0

    # -- geometry ---------------------------------------------------------------------------
    def cluster_of(self, node: int) -> int:
        x, y = self.graph.tile(node)
        return (y // self.cluster_size) * self.cols + x // self.cluster_size

    def cluster_box(self, cid: int) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1) of a cluster, end-exclusive."""
        cy, cx = divmod(cid, self.cols)
        c = self.cluster_size
        return cx * c, cy * c, min(cx * c + c, self.width), min(cy * c + c, self.height)

    def local_component(self, node: int) -> int:
        x, y = self.graph.tile(node)
        return int(self.local[y, x])

    @property
    def node_count(self) -> int:
        return len(self.inter)

    @property
    def ready(self) -> bool:
        """Whether every cluster's intra edges are built."""
        return all(d is not None for d in self.intra)

    # -- transitions --------------------------------------------------------------------------
    def _find_transitions(self, passable: np.ndarray, eight: bool) -> None:
        c, wide, graph = self.cluster_size, self.wide_entrance, self.graph
        h, w = passable.shape
        pairs: list[tuple[int, int, int, int]] = []
        if w > c:
            xs = np.arange(c, w, c)
            j, y = _segments((passable[:, xs - 1] & passable[:, xs]).T, c, wide)
            x = xs[j]
            pairs += zip((x - 1).tolist(), y.tolist(), x.tolist(), y.tolist())
        if h > c:
            ys = np.arange(c, h, c)
            j, x = _segments(passable[ys - 1] & passable[ys], c, wide)
            y = ys[j]
            pairs += zip(x.tolist(), (y - 1).tolist(), x.tolist(), y.tolist())
        if eight and w > 1 and h > 1:  # "always": diagonal squeezes between two walls
            a, b, cc, d = passable[:-1, :-1], passable[:-1, 1:], passable[1:, :-1], passable[1:, 1:]
            ix = np.arange(w - 1)[None, :]
            iy = np.arange(h - 1)[:, None]
            crosses = ((ix + 1) % c == 0) | ((iy + 1) % c == 0)
            y, x = np.nonzero(a & d & ~b & ~cc & crosses)
            pairs += zip(x.tolist(), y.tolist(), (x + 1).tolist(), (y + 1).tolist())
            y, x = np.nonzero(b & cc & ~a & ~d & crosses)
            pairs += zip((x + 1).tolist(), y.tolist(), x.tolist(), (y + 1).tolist())
        inter = self.inter
        for ax, ay, bx, by in pairs:
            na, nb = graph.node(ax, ay), graph.node(bx, by)
            inter.setdefault(na, []).append((nb, graph.step_cost(na, nb)))
            inter.setdefault(nb, []).append((na, graph.step_cost(nb, na)))

    def _reuse(self, prev: AbstractGraph) -> None:
        """Take over the built clusters of the previous version that this one did not change."""
        if (prev.width, prev.height, prev.cluster_size, prev.options) != \
                (self.width, self.height, self.cluster_size, self.options):
            return
        changed = prev._cost != self._cost
        if (prev._influence is None) != (self._influence is None):
            changed[:] = True
        elif self._influence is not None and prev._influence is not None:
            changed |= prev._influence != self._influence
        c = self.cluster_size
        padded = np.zeros((self.rows * c, self.cols * c), dtype=bool)
        padded[:self.height, :self.width] = changed
        dirty = padded.reshape(self.rows, c, self.cols, c).any(axis=(1, 3)).ravel().tolist()
        for cid, d in enumerate(dirty):
            if not d and prev.intra[cid] is not None and prev.cluster_nodes[cid] == self.cluster_nodes[cid]:
                self.intra[cid] = prev.intra[cid]
                self.paths[cid] = prev.paths[cid]
                self.reused += 1

    # -- clusters -------------------------------------------------------------------------------
    # Searches inside a cluster run on a GridGraph of a *block* of clusters (about BLOCK_TILES
    # tiles a side) laid out with one impassable line between neighbouring clusters, so no move
    # leaves its cluster; one such graph serves many clusters, which is much cheaper than a
    # GridGraph per cluster. Inside a cluster every move, cost and diagonal rule is the same as
    # on the whole map (a diagonal step between two tiles of a cluster has its side tiles there).
    def _block_of(self, cid: int) -> tuple[int, int]:
        cy, cx = divmod(cid, self.cols)
        b = self._block
        return cx // b, cy // b

    def subgraph(self, cid: int) -> tuple[GridGraph, int, int]:
        """(graph, dx, dy): a graph holding cluster ``cid`` alone; tile (x, y) of the map is tile
        (x + dx, y + dy) of it. Block graphs are kept in a small LRU."""
        bx, by = self._block_of(cid)
        key = by * self.cols + bx
        g = self._subgraphs.get(key)
        if g is None:
            g = self._subgraphs[key] = self._build_block(bx, by)
            if len(self._subgraphs) > _BLOCKS_KEPT:
                self._subgraphs.popitem(last=False)
        else:
            self._subgraphs.move_to_end(key)
        cy, cx = divmod(cid, self.cols)
        b, c = self._block, self.cluster_size
        return g, cx - bx * b * (c + 1), cy - by * b * (c + 1)

    def _build_block(self, bx: int, by: int) -> GridGraph:
        b, c = self._block, self.cluster_size
        cx0, cy0 = bx * b, by * b
        ncx, ncy = min(b, self.cols - cx0), min(b, self.rows - cy0)
        x0, y0 = cx0 * c, cy0 * c
        x1, y1 = min(x0 + ncx * c, self.width), min(y0 + ncy * c, self.height)
        w, h = x1 - x0 + ncx - 1, y1 - y0 + ncy - 1
        terrain = np.full((h, w), self._wall, dtype=np.uint8)
        source = self._influence
        influence = None if source is None else np.zeros((h, w))
        for j in range(ncy):
            for i in range(ncx):
                sx0, sy0 = x0 + i * c, y0 + j * c
                sx1, sy1 = min(sx0 + c, self.width), min(sy0 + c, self.height)
                lx, ly = sx0 - x0 + i, sy0 - y0 + j
                terrain[ly:ly + sy1 - sy0, lx:lx + sx1 - sx0] = self._terrain[sy0:sy1, sx0:sx1]
                if influence is not None and source is not None:
                    influence[ly:ly + sy1 - sy0, lx:lx + sx1 - sx0] = source[sy0:sy1, sx0:sx1]
        return GridGraph(TileMap(terrain, self._block_terrains, influence), self.options)

    def to_sub(self, sub: tuple[GridGraph, int, int], node: int) -> int:
        g, dx, dy = sub
        x, y = self.graph.tile(node)
        return g.node(x + dx, y + dy)

    def from_sub(self, sub: tuple[GridGraph, int, int], nodes: list[int]) -> list[int]:
        g, dx, dy = sub
        graph = self.graph
        out = []
        for n in nodes:
            x, y = g.tile(n)
            out.append(graph.node(x - dx, y - dy))
        return out

    def advance(self, cid: int, meter: Meter) -> bool:
        """Build cluster ``cid``'s intra edges within the meter's budget; True once built."""
        if self.intra[cid] is not None:
            return True
        job = self._jobs.get(cid)
        if job is None:
            job = self._jobs[cid] = self._cluster_job(cid)
        self._meter = meter
        t0 = time.perf_counter()
        try:
            next(job)
        except StopIteration:
            self._jobs.pop(cid, None)
            return True
        finally:
            self.build_ms += (time.perf_counter() - t0) * 1000.0
        return False

    def _uniform(self, cid: int) -> bool:
        """Whether every open tile of a cluster costs the same (and no influence): then the reverse
        of a least-cost path is a least-cost path back, and only half the pairs need a search."""
        x0, y0, x1, y1 = self.cluster_box(cid)
        cost = self._cost[y0:y1, x0:x1]
        finite = cost[np.isfinite(cost)]
        if finite.size and finite.min() != finite.max():
            return False
        return self._influence is None or not self._influence[y0:y1, x0:x1].any()

    def _cluster_job(self, cid: int) -> Job:
        """A generator that builds one cluster's edges, yielding whenever the meter runs dry."""
        nodes = self.cluster_nodes[cid]
        edges: dict[int, list[tuple[int, float]]] = {n: [] for n in nodes}
        paths: dict[tuple[int, int], bytes] = {}
        if len(nodes) > 1:
            sub = self.subgraph(cid)
            comp = [self.local_component(n) for n in nodes]
            symmetric = self._uniform(cid)
            for i, a in enumerate(nodes):
                for j, b in enumerate(nodes):
                    if i == j or comp[i] != comp[j] or (symmetric and j < i):
                        continue
                    search = AStar(sub[0], self.to_sub(sub, a), [self.to_sub(sub, b)])
                    try:
                        while search.status == RUNNING:
                            while self._meter.left <= 0:
                                yield
                            meter = self._meter
                            before = search.expanded
                            search.step(meter.left)
                            spent = search.expanded - before
                            meter.left -= spent
                            meter.build += spent
                            self.build_expanded += spent
                    finally:
                        search.cancel()
                    if search.status != FOUND:  # cannot happen: same local component
                        continue
                    found, cost = search.path_nodes, search.cost
                    assert found is not None and cost is not None  # status is FOUND
                    moves = _encode(sub[0], found)  # steps are the same in both graphs
                    edges[a].append((b, cost))
                    paths[(a, b)] = moves
                    if symmetric:
                        edges[b].append((a, cost))
                        paths[(b, a)] = _reverse(moves)
        self.intra[cid] = edges
        self.paths[cid] = paths

    def build_all(self) -> AbstractGraph:
        """Build every cluster's intra edges now (the full precompute)."""
        meter = Meter()
        for cid in sorted(range(len(self.intra)), key=self._block_of):
            while True:
                meter.left = 1 << 30
                if self.advance(cid, meter):
                    break
        return self

    def edge_path(self, a: int, b: int) -> list[int]:
        """The tile path (node ids, both ends included) of abstract edge a -> b."""
        ca, cb = self.cluster_of(a), self.cluster_of(b)
        if ca != cb:
            return [a, b]
        paths = self.paths[ca]
        assert paths is not None, "an edge within a cluster exists only once the cluster is built"
        return _decode(self.graph, a, paths[(a, b)])


def _wall_terrain(terrains: tuple[Terrain, ...]) -> tuple[int, tuple[Terrain, ...]]:
    """An impassable terrain code for the lines between clusters (added when the map has none)."""
    for t in terrains:
        if math.isinf(t.cost):
            return t.code, terrains
    used = {t.code for t in terrains}
    code = next(k for k in range(256) if k not in used)
    return code, (*terrains, Terrain(code, "cluster edge", "|", math.inf))


def _encode(graph: GridGraph, nodes: list[int]) -> bytes:
    """A tile path of ``graph`` as one byte per step (an index into ``_DIRS``)."""
    s = graph.stride
    index = {dx + dy * s: k for k, (dx, dy) in enumerate(_DIRS)}
    return bytes([index[b - a] for a, b in zip(nodes, nodes[1:])])


_OPPOSITE = bytes([_DIR_INDEX[(-dx, -dy)] for dx, dy in _DIRS] + list(range(len(_DIRS), 256)))


def _reverse(moves: bytes) -> bytes:
    return moves[::-1].translate(_OPPOSITE)


def _decode(graph: GridGraph, start: int, moves: bytes) -> list[int]:
    s = graph.stride
    offsets = [dx + dy * s for dx, dy in _DIRS]
    out = [start]
    n = start
    for k in moves:
        n += offsets[k]
        out.append(n)
    return out


def abstract_graph(tilemap: TileMap, graph: GridGraph | GridOptions | None = None,
                   cluster_size: int = DEFAULT_CLUSTER, wide_entrance: int = DEFAULT_WIDE_ENTRANCE) -> AbstractGraph:
    """The abstract graph of this map version (cached on the map); intra edges are built lazily."""
    if not isinstance(tilemap, TileMap):
        raise ValueError(f"map must be a TileMap, got {type(tilemap).__name__}")
    c = check_cluster_size(cluster_size)
    wide = check_wide(wide_entrance)
    if graph is None or isinstance(graph, GridOptions):
        graph = graph_for(tilemap, graph or GridOptions())
    key = f"hpa:{graph.options}:{c}:{wide}"

    def build() -> AbstractGraph:
        prev = _PREVIOUS.get(tilemap, {}).get(key)
        ag = AbstractGraph(tilemap, graph, c, wide, previous=prev)
        _PREVIOUS.setdefault(tilemap, {})[key] = ag
        return ag

    ag = tilemap.cached(key, build)
    if ag.graph is not graph:  # an equal graph built separately: same version and options
        if graph.map_version != ag.version or graph.options != ag.options:
            raise ValueError("the graph was not built from this version of the map")
    return ag
