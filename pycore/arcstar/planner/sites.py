"""Where a plan runs: one adapter per kind of map, turning its points into graph nodes and the
found nodes back into a path. The job and the engine never look at a map's shape.

Sites: ``GridSite`` (square tiles, (x, y)), ``HexSite`` (axial (q, r)), ``WaypointSite``
(waypoint ids). A site checks the start and goals (a clear ``BadInput`` naming ``start``, ``goal`` or
``target``), builds the graph for the options, answers whether the goals can be reached at all
(islands fail fast, no search), and reads a found path back in the map's own coordinates.
"""

from __future__ import annotations

import math
from array import array
from typing import Any, Protocol

import numpy as np

from ..collision.clearance import passable_for
from ..collision.unit import unit_graph
from ..directional.hybrid import ASTAR_GRID
from ..maps.hexmap import HexMap
from ..maps.tilemap import TileMap
from ..maps.waypoints import WaypointMap
from ..outcomes import BadInput
from ..search.engine import path_length
from ..search.graph import Graph
from ..search.grid import GridGraph
from ..search.hexgrid import HexGraph, hex_graph_for
from ..search.regions import regions
from ..search.waypoint_graph import WaypointGraph
from .options import PlanOptions


class Site(Protocol):
    """A map made searchable for one plan's options."""

    # read-only: a site may narrow them (a GridSite's graph is a GridGraph)
    @property
    def kind(self) -> str: ...

    @property
    def graph(self) -> Graph: ...

    @property
    def tilemap(self) -> Any: ...

    def split(self, point: object, role: str) -> tuple[object, Heading]: ...

    def node(self, point: Any, role: str) -> int: ...

    def reachable(self, start: int, goals: list[int]) -> bool: ...

    def path(self, nodes: list[int]) -> list[Any]: ...

    def found(self, search: Any) -> tuple[list[Any], float]:
        """A finished search's path in the map's coordinates, and its length."""
        ...


def split_heading(point: object, role: str) -> tuple[object, float | None]:
    """[x, y] or [x, y, heading]: the position part, and the heading (radians) or None."""
    if type(point) in (tuple, list) and len(point) == 2:  # type: ignore[arg-type]
        return point, None
    if isinstance(point, (str, bytes)) or not hasattr(point, "__len__") or len(point) not in (2, 3):
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
    if isinstance(point, (str, bytes)) or not hasattr(point, "__len__") or len(point) != 2:
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


#: A point's heading: radians, a set of them (a directional goal), or None.
Heading = float | tuple[float, ...] | None


def one_heading(heading: Heading, role: str) -> float | None:
    """A heading where a set of them has no meaning (a start; the turning stage; the hybrid)."""
    if isinstance(heading, tuple):
        raise BadInput(f"{role}: a set of headings is for the methods {', '.join(HEADING_SETS)}", role)
    return heading


#: The methods whose goal may take a set of headings (the lattice arrives at any of them).
HEADING_SETS = ("directional8", "directional24", "directional48")


def split_headings(point: object, role: str) -> tuple[object, Heading]:
    """``split_heading``, and also [x, y, [heading, ...]]: a goal that takes any of a set of
    headings (the directional methods). ``BadInput`` naming ``role`` for an empty set or a
    heading that is not a finite number."""
    seq: Any = point
    if type(seq) in (tuple, list) and len(seq) == 3 and isinstance(seq[2], (list, tuple)):
        headings = seq[2]
        if not headings:
            raise BadInput(f"{role} headings must name at least one heading, got {point!r}", role)
        for h in headings:
            if isinstance(h, bool) or not isinstance(h, (int, float)) or not math.isfinite(h):
                raise BadInput(f"{role} headings must be finite numbers of radians, got {h!r}", role)
        return (seq[0], seq[1]), tuple(float(h) for h in headings)
    return split_heading(point, role)


class GridSite:
    """A square tile map: tiles (x, y), the grid of the unit's width, islands from region labels."""

    kind = "grid"

    def __init__(self, tilemap: TileMap, options: PlanOptions) -> None:
        self.options = options
        self.width = width = options.unit_width
        self.tilemap = view = options.costs.view(tilemap)
        search = options.search
        # the graph and, for a point unit, the padded island labels: looked up once per map
        # version, move rule and width (a query's cost profile has a map view of its own)
        sites: dict[tuple[int, str, str, float | None], tuple[GridGraph, array[int] | None]] = \
            view.cached("plan:grid-sites", dict)
        # the hybrid's site walks the grid of its first step, so the two share one graph per map
        grid = ASTAR_GRID if options.method == "hybrid" else search.grid
        key = (grid.neighbours, grid.diagonal, grid.costs, width)
        known = sites.get(key)
        if known is None:
            labels = None
            if width is None:  # (the islands of a width are not kept yet: the search decides)
                padded = np.pad(regions(view, grid.diagonal, grid.neighbours), 1, constant_values=-1)
                labels = array("i", padded.astype(np.int32).tobytes())
            known = sites[key] = (unit_graph(view, grid, width), labels)
        self.graph: GridGraph = known[0]
        self._labels = known[1]

    def split(self, point: object, role: str) -> tuple[object, Heading]:
        if role == "goal" and self.options.method in HEADING_SETS:
            return split_headings(point, role)
        return split_heading(point, role)

    def tile(self, point: Any, role: str) -> tuple[int, int]:
        return check_tile(self.tilemap, point, role, self.width)

    def node(self, point: Any, role: str) -> int:
        graph = self.graph
        if type(point) in (tuple, list) and len(point) == 2:
            x, y = point  # the common case, checked without building errors: plain ints, a tile the unit fits on
            if type(x) is int and type(y) is int and 0 <= x < graph.width and 0 <= y < graph.height:
                n = (y + 1) * graph.stride + x + 1
                if graph.passable[n]:
                    return n
        return graph.node(*self.tile(point, role))

    def reachable(self, start: int, goals: list[int]) -> bool:
        """Islands fail fast: no goal on the start's island means no search at all."""
        padded = self._labels
        if padded is None:
            return True
        home = padded[start]
        return any(padded[goal] == home for goal in goals)

    def path(self, nodes: list[int]) -> list[tuple[int, int]]:
        return [self.graph.tile(n) for n in nodes]

    def found(self, search: Any) -> tuple[list[tuple[int, int]], float]:
        """Every grid engine reads its own path fast; A* and JPS count its length as well."""
        path = list(search.path or [])
        length = getattr(search, "length", None)
        return path, path_length(path) if length is None else length


def place_length(graph: Graph, nodes: list[int]) -> float:
    """The length of a node path measured between the nodes' drawing places."""
    pts = [graph.place(n) for n in nodes]
    return math.fsum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(pts, pts[1:]))


class HexSite:
    """A hex map: cells in axial coordinates (q, r); a point unit (no widths on hexes yet); no
    island labels yet, so an unreachable goal is found by the search."""

    kind = "hex"

    def __init__(self, hexmap: HexMap, options: PlanOptions) -> None:
        if options.unit_width is not None:
            raise BadInput("hex maps plan for a point unit: no width or turning method", "width")
        if not options.costs.is_default:
            raise BadInput("hex maps take their terrain costs from the map, not a cost profile", "terrain_costs")
        self.tilemap = hexmap
        self.graph: HexGraph = hex_graph_for(hexmap)

    def split(self, point: object, role: str) -> tuple[object, float | None]:
        return point, None

    def node(self, point: Any, role: str) -> int:
        q, r = integer_pair(point, role)
        if not self.tilemap.in_bounds(q, r):
            raise BadInput(f"{role} ({q}, {r}) is off the hex map", role)
        n = self.graph.node(q, r)
        if not self.graph.usable(n):
            raise BadInput(f"{role} ({q}, {r}) is on a blocked cell", role)
        return n

    def reachable(self, start: int, goals: list[int]) -> bool:
        return True

    def path(self, nodes: list[int]) -> list[tuple[int, int]]:
        return [self.graph.cell(n) for n in nodes]

    def found(self, search: Any) -> tuple[list[tuple[int, int]], float]:
        """The cells, and the length in hex steps (one per cell entered)."""
        path = self.path(search.path_nodes or [])
        return path, float(max(len(path) - 1, 0))


class WaypointSite:
    """A waypoint graph: points named by their ids; islands left to the search."""

    kind = "waypoint"

    def __init__(self, waypoints: WaypointMap, options: PlanOptions) -> None:
        if options.unit_width is not None:
            raise BadInput("waypoint graphs plan for a point unit: no width or turning method", "width")
        if not options.costs.is_default:
            raise BadInput("waypoint graphs carry their own edge costs, not a cost profile", "terrain_costs")
        self.tilemap = waypoints
        self.graph: WaypointGraph = waypoints.cached("plan:graph", lambda: WaypointGraph(waypoints))

    def split(self, point: object, role: str) -> tuple[object, float | None]:
        return point, None

    def node(self, point: Any, role: str) -> int:
        try:
            return self.graph.node(point)
        except BadInput as e:
            raise BadInput(f"{role}: {e}", role) from None

    def reachable(self, start: int, goals: list[int]) -> bool:
        return True

    def path(self, nodes: list[int]) -> list[Any]:
        return [self.graph.ident(n) for n in nodes]

    def found(self, search: Any) -> tuple[list[Any], float]:
        """The waypoint ids, and the length along their points."""
        nodes = search.path_nodes or []
        return self.path(nodes), place_length(self.graph, nodes)
