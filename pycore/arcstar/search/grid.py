"""The implicit graph a grid search walks: neighbourhood, diagonal policy and step costs.

Node ids index a *padded* copy of the map (one impassable tile of border all round), so the
search needs no bounds checks: node ``(y + 1) * (width + 2) + (x + 1)`` is tile (x, y).
"""

from __future__ import annotations

import copy
import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..maps.tilemap import INF, TileMap
from . import graph as _graph
from .graph import node_table
from .heuristics import HEURISTICS, admissible, make_heuristic

SQRT2 = math.sqrt(2.0)
#: ``GridGraph.uniform_steps``: straight offsets by mask, diagonal offsets by mask, their two costs
UniformSteps = tuple[list[tuple[int, ...]], list[tuple[int, ...]], float, float]
DIAGONAL_POLICIES = ("never", "both", "either", "always")
COST_MODELS = {"lester": (10.0, 14.0), "octile": (1.0, SQRT2)}
_NO_CHECK, _BOTH_FREE, _ONE_FREE = 0, 1, 2
@dataclass(frozen=True)
class GridOptions:
    """How a grid is walked.

    neighbours: 4 or 8.
    diagonal: when a diagonal step is allowed: "never"; "both" orthogonal neighbours free
        (Lester's no-corner-cutting rule, the default); "either" is free; "always".
    costs: "lester" (10 per straight step, 14 per diagonal) or "octile" (1 and sqrt 2).
        A step into a tile costs that base times the tile's terrain cost, plus its influence.
    """

    neighbours: int = 8
    diagonal: str = "both"
    costs: str = "lester"

    def __post_init__(self) -> None:
        if self.neighbours not in (4, 8):
            raise ValueError(f"neighbours must be 4 or 8, got {self.neighbours!r}")
        if self.diagonal not in DIAGONAL_POLICIES:
            raise ValueError(f"diagonal must be one of {', '.join(DIAGONAL_POLICIES)}, got {self.diagonal!r}")
        if self.costs not in COST_MODELS:
            raise ValueError(f"costs must be one of {', '.join(COST_MODELS)}, got {self.costs!r}")

    @property
    def allows_diagonals(self) -> bool:
        return self.neighbours == 8 and self.diagonal != "never"

    @property
    def units(self) -> tuple[float, float]:
        """The (straight, diagonal) base step costs."""
        return COST_MODELS[self.costs]


@functools.cache
def _moves_of_masks(count: int) -> tuple[tuple[int, ...], ...]:
    """Per legal-move bit mask of ``count`` moves, the indices of its moves in order (the same
    for every graph, so made once)."""
    return tuple(tuple(k for k in range(count) if mask >> k & 1) for mask in range(1 << count))


@functools.lru_cache(maxsize=8)
def _offsets_by_mask(offsets: tuple[int, ...], straight: tuple[bool, ...]
                     ) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Per legal-move mask, the node offsets of its straight moves and of its diagonal ones
    (``offsets`` per move, ``straight`` whether each is straight): the same for every graph of a
    width and diagonal policy (read only, so graphs share them)."""
    masks = _moves_of_masks(len(offsets))
    return ([tuple(offsets[k] for k in ks if straight[k]) for ks in masks],
            [tuple(offsets[k] for k in ks if not straight[k]) for ks in masks])


def _coordinates(rows: int, stride: int) -> tuple[Any, Any]:
    """The x and the y of every node of a padded grid, as node tables. Those of a grid small
    enough for lists are the same for every map of its size, and a map walled round other units
    for a re-plan is a new graph each time: they are made once (read only, so graphs share
    them); those of a large grid, packed, are made afresh, not kept after its map has gone."""
    if rows * stride <= _graph.COMPACT_NODES:
        return _list_coordinates(rows, stride)
    xs = np.tile(np.arange(stride, dtype=np.int32), rows)
    return node_table(xs), node_table(np.repeat(np.arange(rows, dtype=np.int32), stride))


@functools.lru_cache(maxsize=8)
def _list_coordinates(rows: int, stride: int) -> tuple[list[int], list[int]]:
    # one row's ints repeated: a comprehension made a new int object a node past 256 (22 MB on
    # 1024 x 1024, kept for the map's size)
    return list(range(stride)) * rows, [y for y in range(rows) for _ in range(stride)]


class GridGraph:
    """A snapshot of a map as flat lists a search can walk fast; never changes the map.

    ``moves`` holds, per direction: (node offset, step-cost list, check kind, side offsets).
    Step-cost lists hold ``inf`` for impassable tiles and the border. ``legal[node]`` is a bit
    mask of the moves allowed from a node (bit k for ``moves[k]``, diagonal policy applied),
    built with numpy, and ``moves_by_mask[mask]`` lists just those moves as (offset, costs, k):
    the search's inner loop then visits only legal steps and checks nothing.
    """

    def __init__(self, tilemap: TileMap, options: GridOptions) -> None:
        self.options = options
        self.width, self.height = tilemap.width, tilemap.height
        self.stride = self.width + 2
        self.map_version = tilemap.version
        cost = np.full((self.height + 2, self.stride), INF)
        cost[1:-1, 1:-1] = tilemap.cost_grid
        penalty: Any = 0.0
        if tilemap.influence is not None:
            penalty = np.zeros_like(cost)
            penalty[1:-1, 1:-1] = tilemap.influence
        straight, diagonal = options.units
        free = np.isfinite(cost)
        self.passable = bytes(free.ravel().view(np.uint8))
        straight_cost, diagonal_cost = (cost * straight + penalty).ravel(), (cost * diagonal + penalty).ravel()
        self.straight_cost = node_table(straight_cost)
        self.diagonal_cost = node_table(diagonal_cost)
        # one step cost per kind of move on every open tile (the same float the lists hold)?
        self._unit_costs = self._one_cost_each(straight_cost, diagonal_cost, free.ravel())
        self.min_cost = tilemap.min_cost()
        # padded coordinates per node, for heuristics
        self.xs, self.ys = _coordinates(self.height + 2, self.stride)
        self.moves = self._moves()
        self.legal = self._legal_masks(free)
        self._index_moves()
        self.node_count = (self.height + 2) * self.stride
        self.cell_count = self.width * self.height
        self.jps: Any = None  # what search.jps derives from this graph (``jps_prep.prepare``), on first use

    def _index_moves(self) -> None:
        """The tables of the legal moves by mask, over the cost lists of ``moves``."""
        masks = _moves_of_masks(len(self.moves))
        entries = [(m[0], m[1], k) for k, m in enumerate(self.moves)]
        self.moves_by_mask = [tuple(map(entries.__getitem__, ks)) for ks in masks]
        # what the search's grid loops read: (offset, step-cost list) per legal move, and on a map
        # whose every open tile costs the same, the straight and the diagonal offsets and the cost
        # of each kind of step
        steps = [(m[0], m[1]) for m in self.moves]
        self.steps_by_mask: list[tuple[tuple[int, list[float]], ...]] = [
            tuple(map(steps.__getitem__, ks)) for ks in masks]
        self.uniform_steps = self._uniform_steps()

    @staticmethod
    def _one_cost_each(straight: np.ndarray, diagonal: np.ndarray, free: np.ndarray) -> tuple[float, float] | None:
        """The one (straight, diagonal) step cost of every open tile, or None when they differ."""
        k = int(np.argmax(free))  # the first open tile
        if not free[k]:
            return None
        s, d = straight[k], diagonal[k]
        if np.any((straight != s) & free) or np.any((diagonal != d) & free):
            return None
        return float(s), float(d)

    def _moves(self) -> list[tuple[int, list, int, int, int]]:
        s = self.stride
        moves = [(1, self.straight_cost, _NO_CHECK, 0, 0), (-1, self.straight_cost, _NO_CHECK, 0, 0),
                 (s, self.straight_cost, _NO_CHECK, 0, 0), (-s, self.straight_cost, _NO_CHECK, 0, 0)]
        if self.options.allows_diagonals:
            check = {"both": _BOTH_FREE, "either": _ONE_FREE, "always": _NO_CHECK}[self.options.diagonal]
            for dx in (1, -1):
                for dy in (1, -1):
                    moves.append((dx + dy * s, self.diagonal_cost, check, dx, dy * s))
        return moves

    def _uniform_steps(self) -> UniformSteps | None:
        """Per legal-move mask the offsets of its straight moves and of its diagonal ones (each in
        the order of ``moves``, straight moves first as there), and the one cost of a straight and
        of a diagonal step on every open tile (the very floats the cost lists hold); None when
        open tiles differ in cost."""
        if self._unit_costs is None:
            return None
        straight, diagonal = _offsets_by_mask(tuple(m[0] for m in self.moves),
                                              tuple(m[1] is self.straight_cost for m in self.moves))
        return straight, diagonal, self._unit_costs[0], self._unit_costs[1]

    def _legal_masks(self, free: np.ndarray) -> bytes:
        h, w = self.height, self.width
        s = self.stride
        mask = np.zeros((h + 2, s), dtype=np.uint8)
        inner = mask[1:-1, 1:-1]

        def shifted(dx: int, dy: int) -> np.ndarray:
            return free[1 + dy:h + 1 + dy, 1 + dx:w + 1 + dx]
        for k, (d, _costs, check, _sa, _sb) in enumerate(self.moves):
            dy, dx = divmod(d + s + 1, s)
            dx, dy = dx - 1, dy - 1
            ok = shifted(dx, dy).copy()
            if check == _BOTH_FREE:
                ok &= shifted(dx, 0) & shifted(0, dy)
            elif check == _ONE_FREE:
                ok &= shifted(dx, 0) | shifted(0, dy)
            inner |= ok.astype(np.uint8) << k
        mask[~free] = 0
        return bytes(mask.ravel())

    def restricted(self, legal: np.ndarray, standable: np.ndarray, map_version: int | None = None) -> GridGraph:
        """A copy whose moves are limited to ``legal`` (an unpadded per-tile bit mask in the
        order of ``moves``) and whose passable tiles are ``standable`` (for a wide unit);
        ``map_version``: the version of the map it is for, when that is another map (one with
        some of this map's tiles walled: a search reads costs only of tiles it may enter)."""
        other = copy.copy(self)
        other.jps = None
        if map_version is not None:
            other.map_version = map_version
        mask = np.pad(np.asarray(legal, dtype=np.uint8), 1)
        if not self.options.allows_diagonals:
            mask &= 0x0F
        other.legal = bytes(mask.ravel())
        other.passable = bytes(np.pad(np.asarray(standable, dtype=np.uint8), 1).ravel())
        return other

    def penalised(self, cells: np.ndarray, amounts: np.ndarray) -> GridGraph:
        """A copy whose steps into the tiles ``cells`` (flat, unpadded indices) cost ``amounts``
        more: on a graph built without an influence layer, the very floats a graph built with
        that layer holds (``cost * unit + penalty``, one addition), for the price of two list
        copies instead of a build (the world's claimed tiles, several plans a tick)."""
        other = copy.copy(self)
        other.jps = None
        straight, diagonal = copy.copy(self.straight_cost), copy.copy(self.diagonal_cost)
        nodes = (np.asarray(cells) // self.width + 1) * self.stride + np.asarray(cells) % self.width + 1
        for node, extra in zip(nodes.tolist(), np.asarray(amounts, dtype=np.float64).tolist()):
            straight[node] += extra
            diagonal[node] += extra
        other.straight_cost, other.diagonal_cost = straight, diagonal
        other._unit_costs = None
        other.moves = other._moves()
        other._index_moves()
        return other

    # -- the graph protocol (``search.graph.Graph``) -------------------------------------------
    heuristics = HEURISTICS
    default_heuristic = "octile"

    def usable(self, node: int) -> bool:
        return 0 <= node < self.node_count and bool(self.passable[node])

    def successors(self, node: int) -> list[tuple[int, float]]:
        return [(node + d, costs[node + d]) for d, costs, _k in self.moves_by_mask[self.legal[node]]]

    def place(self, node: int) -> tuple[float, float]:
        """The tile's centre (x + 0.5, y + 0.5)."""
        y, x = divmod(node, self.stride)
        return x - 0.5, y - 0.5

    def heuristic(self, goals: Sequence[int], name: str, weight: float = 1.0) -> Callable[[int], float]:
        hs = [make_heuristic(name, self, g, weight) for g in goals]
        if len(hs) == 1:
            return hs[0]
        return lambda n: min(h(n) for h in hs)

    def admissible(self, name: str, weight: float = 1.0) -> bool:
        return admissible(name, self.options, weight)

    def cell_index(self, nodes: np.ndarray) -> np.ndarray:
        """Flat tile indices ``y * width + x`` of padded node ids (-1 stays -1)."""
        n = np.asarray(nodes, dtype=np.int64)
        y, x = np.divmod(n, self.stride)
        return np.where(n >= 0, (y - 1) * self.width + x - 1, -1)

    def node(self, x: int, y: int) -> int:
        return (y + 1) * self.stride + x + 1

    def tile(self, node: int) -> tuple[int, int]:
        y, x = divmod(node, self.stride)
        return x - 1, y - 1

    def flat(self, node: int) -> int:
        """The unpadded flat index ``y * width + x`` of a node."""
        y, x = divmod(node, self.stride)
        return (y - 1) * self.width + x - 1

    def step_allowed(self, a: int, b: int) -> bool:
        """Whether one step from node a to node b is a move of this graph."""
        for d, _costs, check, sa, sb in self.moves:
            if a + d == b:
                if not self.passable[b]:
                    return False
                if check == _BOTH_FREE:
                    return bool(self.passable[a + sa] and self.passable[a + sb])
                if check == _ONE_FREE:
                    return bool(self.passable[a + sa] or self.passable[a + sb])
                return True
        return False

    def step_cost(self, a: int, b: int) -> float:
        """The cost of the step a -> b (inf when it is not a move)."""
        if not self.step_allowed(a, b):
            return INF
        y0, x0 = divmod(a, self.stride)
        y1, x1 = divmod(b, self.stride)
        return (self.diagonal_cost if x0 != x1 and y0 != y1 else self.straight_cost)[b]


def one_step_cost(tilemap: TileMap, options: GridOptions) -> bool:
    """Whether a step into every open tile of ``tilemap`` costs the same (a straight one, and a
    diagonal one): what decides whether its graph's searches take the uniform loop."""
    free = np.isfinite(tilemap.cost_grid)
    penalty: Any = 0.0 if tilemap.influence is None else tilemap.influence
    straight, diagonal = options.units
    return GridGraph._one_cost_each((tilemap.cost_grid * straight + penalty).ravel(),
                                    (tilemap.cost_grid * diagonal + penalty).ravel(), free.ravel()) is not None


def graph_for(tilemap: TileMap, options: GridOptions) -> GridGraph:
    """The graph of this map version and options, built once and cached on the map."""
    return tilemap.cached(f"graph:{options}", lambda: GridGraph(tilemap, options))
