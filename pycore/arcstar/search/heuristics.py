"""Distance estimates (H) for grid searches, and when each is admissible.

Each estimate is scaled by the straight step cost and by the map's cheapest terrain cost, so on
maps with cheap roads it still never overestimates unless said so below.

| heuristic  | admissible (never overestimates) when                                   |
|------------|--------------------------------------------------------------------------|
| manhattan  | 4 neighbours, or diagonals "never". With diagonals it overestimates:     |
|            | Lester's default, fast but not always shortest.                          |
| octile     | always (4 or 8 neighbours); exact on an open 8-neighbour grid            |
| euclidean  | always; weaker than octile on 8-neighbour grids                          |
| chebyshev  | always; weaker than octile                                               |
| none       | always: Dijkstra                                                         |

A weight above 1 (weighted A*) trades optimality for speed: the cost found is at most
``weight`` times the optimum when the unweighted heuristic is admissible.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Protocol

HEURISTICS = ("manhattan", "octile", "euclidean", "chebyshev", "none")


class GridOptionsLike(Protocol):
    @property
    def allows_diagonals(self) -> bool: ...

    @property
    def units(self) -> tuple[float, float]: ...


class GridShape(Protocol):
    """What the estimates read from a grid graph (``grid.GridGraph`` is one); read-only."""

    @property
    def options(self) -> GridOptionsLike: ...

    @property
    def min_cost(self) -> float: ...

    @property
    def xs(self) -> list[int]: ...

    @property
    def ys(self) -> list[int]: ...


def admissible(name: str, options: GridOptionsLike, weight: float = 1.0) -> bool:
    """Whether this heuristic (and weight) guarantees an optimal path on a grid walked by
    ``options`` (a ``grid.GridOptions``)."""
    if weight > 1.0:
        return False
    if name == "manhattan":
        return not options.allows_diagonals
    return name in HEURISTICS


def heuristic_constants(graph: GridShape, weight: float = 1.0) -> tuple[float, float]:
    """(s, extra): octile is ``max * s + min * extra`` and Manhattan ``(dx + dy) * s``, in the
    graph's cost units, scaled by the weight and the cheapest terrain (for inlining in loops)."""
    straight, diagonal = graph.options.units
    scale = weight * graph.min_cost
    extra = (diagonal - straight) * scale if graph.options.allows_diagonals else straight * scale
    return straight * scale, extra


def make_heuristic(name: str, graph: GridShape, goal: int, weight: float = 1.0) -> Callable[[int], float]:
    """H(node) toward ``goal`` (a node id of ``graph``)."""
    if name not in HEURISTICS:
        raise ValueError(f"heuristic must be one of {', '.join(HEURISTICS)}, got {name!r}")
    s, extra = heuristic_constants(graph, weight)
    xs, ys = graph.xs, graph.ys
    gx, gy = xs[goal], ys[goal]

    if name == "none":
        return lambda node: 0.0
    if name == "manhattan":
        def h(node: int) -> float:
            dx = xs[node] - gx
            dy = ys[node] - gy
            return ((dx if dx > 0 else -dx) + (dy if dy > 0 else -dy)) * s
    elif name == "octile":
        def h(node: int) -> float:
            dx = xs[node] - gx
            if dx < 0:
                dx = -dx
            dy = ys[node] - gy
            if dy < 0:
                dy = -dy
            return dx * s + dy * extra if dx > dy else dy * s + dx * extra
    elif name == "euclidean":
        def h(node: int) -> float:
            return math.hypot(xs[node] - gx, ys[node] - gy) * s
    else:  # chebyshev
        def h(node: int) -> float:
            dx = xs[node] - gx
            dy = ys[node] - gy
            return max(dx, -dx, dy, -dy) * s
    return h
