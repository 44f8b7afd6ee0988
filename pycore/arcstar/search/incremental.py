"""Incremental re-planning for fog of war: D* Lite (Koenig & Likhachev 2002) on a tile grid.

A unit plans on what its player knows (unknown tiles planned as whatever the known map says,
usually open ground), walks, sees walls, and re-plans. A fresh A* after every discovery repeats
almost all the work of the last search; D* Lite searches *from the goal* and keeps its g-values,
so a discovery re-opens only the part of the search it invalidates, and the unit's advance costs
nothing but a heuristic offset (``km``).

The graph is the search layer's square grid (``grid.GridGraph``'s moves): 4 or 8 neighbours, the
diagonal policy of ``GridOptions`` (Lester's no-corner-cutting rule by default), and a step into
a tile costs its straight or diagonal base times the tile's terrain cost, plus its influence,
exactly as ``GridGraph`` computes it, so the cost found equals a fresh ``AStar`` on a freshly
built graph of the same known map. Tiles are (x, y) with tile (x, y) covering [x, x+1) x
[y, y+1), y down.

Use (a world layer holding one known ``TileMap`` per player)::

    planner = IncrementalPlanner(known, start=(2, 3), goal=(40, 17))  # GridOptions() by default
    path = planner.plan()            # [(x, y), ...] start..goal, or None (see planner.status)
    planner.move_to((3, 3))          # the unit entered another tile (usually path[1])
    known.set_tile(5, 3, WALL)       # the unit saw a wall: change the known map ...
    planner.update([(5, 3)])         # ... and say which tiles changed (None: compare them all)
    path = planner.plan()            # the incremental re-plan; planner.expanded counts it

Units of one player plan on one known map: they share its step costs (``StepCosts``, made
once and passed as ``costs=``), so a planner holds only its own search, the g and rhs of the
nodes it touched. Any planner's ``update`` re-reads the tiles into the shared tables; each
planner repairs its search for every change read since it last looked.

Timeslicing: ``update``/``move_to`` start a re-plan; ``step(budget)`` expands at most
``budget`` nodes and returns ``Status.RUNNING`` until it ends (``FOUND`` or ``NO_PATH``), so a
scheduler can spread it over frames; ``cancel()`` stops the re-plan (the planner stays usable:
the next ``plan()``/``step()`` after a ``move_to``/``update`` or ``plan()`` itself picks up where it
stopped, nothing is lost). ``max_expansions`` bounds each re-plan (``BUDGET_EXHAUSTED``; call
``plan()`` again to go on). Per re-plan: ``expanded`` and ``ms``; over the planner's life:
``total_expanded`` and ``replans`` (the expansions of each finished re-plan, the first plan
included).

The heuristic is octile (Manhattan on 4 neighbours) scaled by the cheapest terrain cost present
when the planner was made; an update that brings a cheaper terrain rebuilds the search from
scratch (it would otherwise overestimate). Bad input raises ``BadInput`` naming the field.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from heapq import heappop, heappush

import numpy as np

from ..maps.tilemap import TileMap
from ..outcomes import BadInput, Status, shown
from .engine import SteppedSearch
from .grid import GridGraph, GridOptions
from .heuristics import heuristic_constants

INF = math.inf
RUNNING, FOUND, NO_PATH = Status.RUNNING, Status.FOUND, Status.NO_PATH
BUDGET, CANCELLED = Status.BUDGET_EXHAUSTED, Status.CANCELLED
Tile = tuple[int, int]
KEY_EPS = 1e-9  # keys closer than this (relative) are a tie (see ``_before``)


def _tile_arg(value: object, tilemap: TileMap, field: str) -> Tile:
    """An (x, y) tile on the map, else ``BadInput`` naming ``field``."""
    ok = isinstance(value, (tuple, list)) and len(value) == 2 and all(
        isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value)
    if not ok:
        raise BadInput(f"{field} must be an (x, y) tile of integers, got {shown(value)}", field)
    x, y = int(value[0]), int(value[1])  # type: ignore[index]
    if not tilemap.in_bounds(x, y):
        raise BadInput(f"{field} ({x}, {y}) is off the {tilemap.width}x{tilemap.height} map", field)
    return x, y


def _interned(values: Iterable[float]) -> list[float]:
    """``values`` as a list in which equal floats are one object. A map has a few step costs, but
    the graph's tables hold a float object apiece: kept by every unit's planner under fog, they
    made 20 units on a 1024 x 1024 map take 2.2 GB."""
    one: dict[float, float] = {}
    return [one.setdefault(v, v) for v in values]


class StepCosts:
    """A known map's step costs as D* Lite reads them (``GridGraph``'s tables, copied once), for
    every planner on that map to share. Under fog all units of a team plan on one known map; with
    tables the size of the map apiece, 60 units on 1024 x 1024 took over 2 GB. ``refresh``
    re-reads tiles after the map changed and logs the nodes whose costs changed; each planner
    repairs its search for the nodes logged since it last looked (``IncrementalPlanner.update``).
    """

    def __init__(self, known: TileMap, options: GridOptions | None = None) -> None:
        if not isinstance(known, TileMap):
            raise BadInput(f"known must be a TileMap, got {shown(known)}", "known")
        if options is None:
            options = GridOptions()
        if not isinstance(options, GridOptions):
            raise BadInput(f"options must be GridOptions, got {shown(options)}", "options")
        self.known, self.options = known, options
        graph = GridGraph(known, options)
        self.stride = graph.stride
        #: padded coordinates per node (the heuristic's)
        self.xs, self.ys = graph.xs, graph.ys
        # per direction: (node offset, diagonal?, side offsets a and b); the side rule in ``moves``
        straight_d = {1, -1, graph.stride, -graph.stride}
        self.dirs = [(d, d not in straight_d, sa, sb) for d, _costs, _check, sa, sb in graph.moves]
        self.corner = options.diagonal if options.allows_diagonals else "never"
        self.passable = bytearray(graph.passable)
        self.straight = _interned(graph.straight_cost)
        self.diagonal = _interned(graph.diagonal_cost)
        #: the nodes whose step costs changed, in the order ``refresh`` found them
        self.log: list[int] = []
        self._version = known.version

    @property
    def node_count(self) -> int:
        return len(self.passable)

    @property
    def min_cost(self) -> float:
        """The cheapest terrain cost on the known map (the heuristic's scale; planners read it
        after a refresh, when the tables are the map's)."""
        return self.known.min_cost()

    def refresh(self, tiles: Iterable[Tile] | None = None) -> None:
        """Re-read these tiles of the known map (None: every tile, unless the map is the version
        last read whole) and log the nodes whose step costs changed."""
        known = self.known
        grid, influence = known.cost_grid, known.influence
        if tiles is None:
            if known.version == self._version:
                return
            changed = self._changed_tiles(grid, influence)
        else:
            changed = [_tile_arg(t, known, "tiles") for t in tiles]
        straight, diagonal = self.options.units
        stride = self.stride
        for x, y in changed:
            node = (y + 1) * stride + x + 1
            c = grid[y, x]
            pen = 0.0 if influence is None else influence[y, x]
            sc, dc = float(c * straight + pen), float(c * diagonal + pen)
            if sc == self.straight[node] and dc == self.diagonal[node]:
                continue
            self.straight[node], self.diagonal[node] = sc, dc
            self.passable[node] = 1 if math.isfinite(sc) else 0
            self.log.append(node)
        if tiles is None:
            self._version = known.version

    def _changed_tiles(self, grid: np.ndarray, influence: np.ndarray | None) -> list[Tile]:
        straight, diagonal = self.options.units
        pen = 0.0 if influence is None else influence
        h, w = grid.shape
        now = np.asarray(self.straight).reshape(h + 2, self.stride)[1:-1, 1:-1]
        now_d = np.asarray(self.diagonal).reshape(h + 2, self.stride)[1:-1, 1:-1]
        differ = (now != grid * straight + pen) | (now_d != grid * diagonal + pen)
        ys, xs = np.nonzero(differ)
        return list(zip(xs.tolist(), ys.tolist(), strict=True))


class IncrementalPlanner(SteppedSearch):
    """D* Lite from ``goal`` to a moving ``start`` over the known map ``known`` (a ``TileMap``
    the caller edits, then names the edited tiles in ``update``).

    options: how the grid is walked (``GridOptions``; octile costs suit tile units best).
    max_expansions: a budget per re-plan (None: none). costs: the known map's ``StepCosts`` to
    share with other planners on it (None: tables of its own); every planner on one ``StepCosts``
    sees each change any of them re-read. The search state is per planner: one planner per unit
    and goal, holding only the nodes its searches touched.
    """

    def __init__(self, known: TileMap, start: Tile, goal: Tile, options: GridOptions | None = None,
                 max_expansions: int | None = None, costs: StepCosts | None = None) -> None:
        if not isinstance(known, TileMap):
            raise BadInput(f"known must be a TileMap, got {shown(known)}", "known")
        if costs is not None and not isinstance(costs, StepCosts):
            raise BadInput(f"costs must be StepCosts, got {shown(costs)}", "costs")
        if options is None:
            options = GridOptions() if costs is None else costs.options
        if not isinstance(options, GridOptions):
            raise BadInput(f"options must be GridOptions, got {shown(options)}", "options")
        if max_expansions is not None and (isinstance(max_expansions, bool) or not isinstance(max_expansions, int)
                                           or max_expansions < 1):
            raise BadInput(f"max_expansions must be a positive integer, got {shown(max_expansions)}",
                           "max_expansions")
        if costs is not None and (costs.known is not known or costs.options != options):
            raise BadInput(f"costs must be the StepCosts of this known map and options, got {shown(costs)}",
                           "costs")
        sx, sy = _tile_arg(start, known, "start")
        gx, gy = _tile_arg(goal, known, "goal")
        for field, (x, y) in (("start", (sx, sy)), ("goal", (gx, gy))):
            if known.is_blocked(x, y):
                raise BadInput(f"{field} ({x}, {y}) is blocked on the known map", field)
        self.known, self.options = known, options
        self.max_expansions = max_expansions
        self.total_expanded = 0
        self.replans: list[int] = []
        if costs is None:
            costs = StepCosts(known, options)
        else:
            costs.refresh()  # the map as it is now, as tables of its own would read it
        self._costs = costs
        self._read = len(costs.log)  # the changes logged before are in the tables it starts from
        self._stride = costs.stride
        self._xs, self._ys = costs.xs, costs.ys
        self._dirs, self._corner = costs.dirs, costs.corner
        self._passable, self._sc, self._dc = costs.passable, costs.straight, costs.diagonal
        self.goal_node = self.node_of((gx, gy))
        self.start_node = self.node_of((sx, sy))
        self._build()
        self.status = RUNNING
        self.expanded = 0
        self.ms = 0.0
        self._path: list[int] | None = None

    # -- state -------------------------------------------------------------------------------
    def _build(self) -> None:
        """Fresh search state over the step costs as they are (a snapshot of the known map):
        g and rhs only for the nodes a search touches (``INF`` for the rest)."""
        self._min_cost = self._costs.min_cost
        self._hs, self._hextra = heuristic_constants(self._costs)
        self._g: dict[int, float] = {}
        self._rhs: dict[int, float] = {}
        self._queued: dict[int, tuple[float, float]] = {}
        self._heap: list[tuple[float, float, int]] = []
        self._km = 0.0
        self._last = self.start_node
        self._rhs[self.goal_node] = 0.0
        self._push(self.goal_node, (self._h(self.goal_node), 0.0))

    def _h(self, node: int) -> float:
        """The heuristic from the current start to ``node`` (consistent: octile or Manhattan)."""
        return self._h_between(self.start_node, node)

    def _h_between(self, a: int, b: int) -> float:
        dx = abs(self._xs[a] - self._xs[b])
        dy = abs(self._ys[a] - self._ys[b])
        return dx * self._hs + dy * self._hextra if dx > dy else dy * self._hs + dx * self._hextra

    def _key(self, node: int) -> tuple[float, float]:
        m = min(self._g.get(node, INF), self._rhs.get(node, INF))
        return m + self._h(node) + self._km, m

    def _push(self, node: int, key: tuple[float, float]) -> None:
        self._queued[node] = key
        heappush(self._heap, (key[0], key[1], node))

    def _moves(self, node: int) -> Iterator[tuple[int, bool]]:
        """(neighbour, diagonal?) for every legal move out of ``node``. Moves are symmetric (a
        diagonal's side tiles are the same both ways), so these are also the moves into it; a
        step costs what entering its end tile costs (``_cost``)."""
        p = self._passable
        if not p[node]:
            return
        corner = self._corner
        for d, diagonal, sa, sb in self._dirs:
            j = node + d
            if not p[j]:
                continue
            if diagonal and (corner == "both" and not (p[node + sa] and p[node + sb])
                             or corner == "either" and not (p[node + sa] or p[node + sb])):
                continue
            yield j, diagonal

    def _cost(self, into: int, diagonal: bool) -> float:
        return self._dc[into] if diagonal else self._sc[into]

    def _best_rhs(self, node: int) -> float:
        g = self._g
        return min((self._cost(j, dg) + g.get(j, INF) for j, dg in self._moves(node)), default=INF)

    def _update_vertex(self, node: int) -> None:
        g, rhs = self._g.get(node, INF), self._rhs.get(node, INF)
        if g != rhs:
            m = g if g < rhs else rhs  # _key(node), the values read once
            self._push(node, (m + self._h(node) + self._km, m))
        else:
            self._queued.pop(node, None)

    # -- what the caller does ----------------------------------------------------------------
    def _begin(self) -> None:
        """Start a re-plan (unless one is running): its counters start at zero."""
        self._path = None
        if self.status != RUNNING:
            self.status = RUNNING
            self.expanded = 0
            self.ms = 0.0

    def node_of(self, tile: Tile) -> int:
        """The node id of tile (x, y) (``GridGraph``'s padded ids)."""
        return (tile[1] + 1) * self._stride + tile[0] + 1

    def tile_of(self, node: int) -> Tile:
        y, x = divmod(node, self._stride)
        return x - 1, y - 1

    def move_to(self, tile: Tile) -> None:
        """The unit now stands on ``tile`` (any open tile; normally the next one of the path)."""
        x, y = _tile_arg(tile, self.known, "start")
        node = self.node_of((x, y))
        if not self._passable[node]:
            raise BadInput(f"start ({x}, {y}) is blocked on the known map", "start")
        if node == self.start_node:
            return
        self._begin()
        self.start_node = node
        self._km += self._h_between(self._last, node)
        self._last = node

    def update(self, tiles: Iterable[Tile] | None = None) -> int:
        """Re-read these tiles of the known map (None: compare every tile); return how many
        changed since this planner last looked (on shared ``StepCosts``, by any planner's
        reading). Changed tiles start a re-plan."""
        costs = self._costs
        costs.refresh(tiles)
        touched = set(costs.log[self._read:])
        self._read = len(costs.log)
        if not touched:
            return 0
        self._begin()
        if self.known.min_cost() < self._min_cost:  # the heuristic would overestimate: start over
            costs.refresh()  # the whole map, as a planner made now would read it
            self._read = len(costs.log)
            self._build()
            return len(touched)
        # a tile's change alters the moves into it, out of it and the diagonals past its corner:
        # all start at the tile or one of its 8 neighbours, whose rhs is recomputed
        s = self._stride
        around = {n + dx + dy * s for n in touched for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
        for n in sorted(around):  # all inside the padded grid (the border is never a tile)
            if n != self.goal_node:
                self._rhs[n] = self._best_rhs(n)
                self._update_vertex(n)
        return len(touched)

    def plan(self) -> list[Tile] | None:
        """Run the re-plan to its end (or its budget) and return the path, start to goal, as
        tiles; None when there is none (``status`` says why)."""
        if self.status in (BUDGET, CANCELLED):
            self._begin()
        self.run()
        return self.path()

    @property
    def cost(self) -> float | None:
        """The path's cost (the graph's cost units), when the last re-plan found one."""
        return self._g.get(self.start_node, INF) if self.status == FOUND else None

    def path(self) -> list[Tile] | None:
        """The path found by the last finished re-plan: from the start, each step to the
        neighbour of least step cost + g (D* Lite's rule); None unless ``status`` is FOUND."""
        if self.status != FOUND:
            return None
        if self._path is None:
            node, g, sc, dc = self.start_node, self._g, self._sc, self._dc
            nodes = [node]
            while node != self.goal_node and len(nodes) <= self._costs.node_count:
                # the first move of least step cost + g, as min() with that key picks it
                moves = self._moves(node)
                node, diagonal = next(moves)
                best = (dc[node] if diagonal else sc[node]) + g.get(node, INF)
                for j, diagonal in moves:
                    via = (dc[j] if diagonal else sc[j]) + g.get(j, INF)
                    if via < best:
                        node, best = j, via
                nodes.append(node)
            self._path = nodes
        return [self.tile_of(n) for n in self._path]

    # -- the search (SteppedSearch) ----------------------------------------------------------
    def _top(self) -> tuple[float, float, int] | None:
        heap, queued = self._heap, self._queued
        while heap:
            k1, k2, node = heap[0]
            if queued.get(node) == (k1, k2):
                return heap[0]
            heappop(heap)  # stale: the node was re-keyed or left the queue
        return None

    def _next(self, start_key: tuple[float, float]) -> int | None:
        """A queued node whose key comes before the start's (``_before``), or None. The heap
        top first; when it does not, any valid entry within rounding of the start's first
        component (the heap's children never come before their parent, so only that band of
        the heap is walked)."""
        top = self._top()
        if top is None:
            return None
        if self._before(top, start_key):
            return top[2]
        heap, queued = self._heap, self._queued
        limit = start_key[0] + KEY_EPS * max(1.0, abs(start_key[0]))
        stack = [0]
        while stack:
            i = stack.pop()
            if i < len(heap) and heap[i][0] <= limit:
                k1, k2, node = heap[i]
                if queued.get(node) == (k1, k2) and self._before(heap[i], start_key):
                    return node
                stack += (2 * i + 1, 2 * i + 2)
        return None

    def _expand(self, budget: int) -> None:
        g, rhs, queued = self._g, self._rhs, self._queued
        start, goal = self.start_node, self.goal_node
        n = 0
        while True:
            start_key = self._key(start)
            u = self._next(start_key)
            if u is None:
                if rhs.get(start, INF) == g.get(start, INF):
                    self.expanded += n
                    self.total_expanded += n
                    self._finish(FOUND if g.get(start, INF) < INF else NO_PATH, None)
                    return
                top = self._top()  # the start itself, queued at a key equal to its own
                if top is None:  # pragma: no cover - an inconsistent start is always queued
                    raise AssertionError("D* Lite: the start is inconsistent but not queued")
                u = top[2]
            if n >= budget:
                break
            k_new = self._key(u)
            if queued[u] < k_new:
                self._push(u, k_new)
                continue
            del queued[u]  # its heap entry is now stale
            n += 1
            gu = rhs.get(u, INF)
            if g.get(u, INF) > gu:  # over-consistent: settle it, offer it to its predecessors
                g[u] = gu
                for p, diagonal in self._moves(u):
                    via = self._cost(u, diagonal) + gu
                    if p != goal and via < rhs.get(p, INF):
                        rhs[p] = via
                        self._update_vertex(p)
            else:  # under-consistent: forget it, its predecessors look again
                g.pop(u, None)
                for p in [u, *(p for p, _diagonal in self._moves(u))]:
                    if p != goal:
                        rhs[p] = self._best_rhs(p)
                    self._update_vertex(p)
        self.expanded += n
        self.total_expanded += n

    @staticmethod
    def _before(top: tuple[float, float, int], key: tuple[float, float]) -> bool:
        """Whether the queue's top comes before ``key``, treating first components within
        rounding (KEY_EPS, relative) as equal: a node on a straight path to the start has the
        start's first component exactly, but sums of sqrt 2 in another order can differ in the
        last bit, and stopping there would skip a wall just found on the path."""
        eps = KEY_EPS * max(1.0, abs(key[0]))
        return top[0] < key[0] - eps or (top[0] <= key[0] + eps and top[1] < key[1])

    def _finish(self, status: Status, goal: int | None) -> None:
        self.status = status
        if status in (FOUND, NO_PATH):
            self.replans.append(self.expanded)

