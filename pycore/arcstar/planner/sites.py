"""Where a plan runs: one adapter per kind of map, turning its points into graph nodes and the
found nodes back into a path. The job and the engine never look at a map's shape.

A site checks the start and goals (a clear ``BadInput`` naming ``start``, ``goal`` or
``target``), builds the graph for the options, answers whether the goals can be reached at all
(islands fail fast, no search), and reads a found path back in the map's own coordinates.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import numpy as np

from ..collision.clearance import passable_for
from ..collision.unit import unit_graph
from ..maps.tilemap import TileMap
from ..outcomes import BadInput
from ..search.engine import path_length
from ..search.graph import Graph
from ..search.grid import GridGraph
from ..search.regions import regions
from .options import PlanOptions


class Site(Protocol):
    """A map made searchable for one plan's options."""

    kind: str
    graph: Graph
    tilemap: Any

    def node(self, point: Any, role: str) -> int: ...

    def reachable(self, start: int, goals: list[int]) -> bool: ...

    def path(self, nodes: list[int]) -> list[Any]: ...

    def found_path(self, search: Any) -> list[Any]: ...

    def length(self, path: list[Any]) -> float: ...


def split_heading(point: object, role: str) -> tuple[object, float | None]:
    """[x, y] or [x, y, heading]: the position part, and the heading (radians) or None."""
    if isinstance(point, (str, bytes)) or not hasattr(point, "__len__") or len(point) not in (2, 3):  # type: ignore[arg-type]
        raise BadInput(f"{role} must be [x, y] or [x, y, heading], got {point!r}", role)
    seq: Any = point
    if len(seq) == 2:
        return point, None
    heading = seq[2]
    if isinstance(heading, bool) or not isinstance(heading, (int, float)) or not math.isfinite(heading):
        raise BadInput(f"{role} heading must be a finite number of radians, got {heading!r}", role)
    return (seq[0], seq[1]), float(heading)


def integer_pair(point: object, role: str) -> tuple[int, int]:
    """Two integers (whole floats and numpy integers accepted), else ``BadInput``."""
    if isinstance(point, (str, bytes)) or not hasattr(point, "__len__") or len(point) != 2:  # type: ignore[arg-type]
        raise BadInput(f"{role} must be a pair of integers [x, y], got {point!r}", role)
    out = []
    for v in point:  # type: ignore[attr-defined]
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) \
                or not math.isfinite(float(v)) or float(v) != int(v):
            raise BadInput(f"{role} must be a pair of integers [x, y], got {point!r}", role)
        out.append(int(v))
    return out[0], out[1]


def check_tile(tilemap: TileMap, point: object, role: str, width: float | None = None) -> tuple[int, int]:
    """A start or goal must name an open tile on the map (where a unit of ``width`` fits)."""
    x, y = integer_pair(point, role)
    if not tilemap.in_bounds(x, y):
        raise BadInput(f"{role} ({x}, {y}) is off the {tilemap.width}x{tilemap.height} map", role)
    if tilemap.blocked[y, x]:
        raise BadInput(f"{role} ({x}, {y}) is on a blocked tile", role)
    if width is not None and not passable_for(tilemap, width)[y, x]:
        raise BadInput(f"{role} ({x}, {y}) is too close to a wall for a unit {width:g} tiles wide", role)
    return x, y


class GridSite:
    """A square tile map: tiles (x, y), the grid of the unit's width, islands from region labels."""

    kind = "grid"

    def __init__(self, tilemap: TileMap, options: PlanOptions) -> None:
        self.base = tilemap
        self.tilemap = options.costs.view(tilemap)
        self.options = options
        self.width = options.unit_width
        self.graph: GridGraph = unit_graph(self.tilemap, options.search.grid, self.width)

    def tile(self, point: Any, role: str) -> tuple[int, int]:
        return check_tile(self.tilemap, point, role, self.width)

    def node(self, point: Any, role: str) -> int:
        return self.graph.node(*self.tile(point, role))

    def reachable(self, start: int, goals: list[int]) -> bool:
        """Islands fail fast: no goal on the start's island means no search at all. (For a unit
        width the islands of the width are not kept yet: the search decides.)"""
        if self.width is not None:
            return True
        s = self.options.search
        labels = regions(self.tilemap, s.diagonal, s.neighbours)
        sx, sy = self.graph.tile(start)
        home = labels[sy, sx]
        return any(labels[y, x] == home for x, y in (self.graph.tile(g) for g in goals))

    def path(self, nodes: list[int]) -> list[tuple[int, int]]:
        return [self.graph.tile(n) for n in nodes]

    def found_path(self, search: Any) -> list[tuple[int, int]]:
        """The tiles of a finished search's path (every grid engine reads its own fast)."""
        return list(search.path or [])

    def length(self, path: list[Any]) -> float:
        return path_length(path)
