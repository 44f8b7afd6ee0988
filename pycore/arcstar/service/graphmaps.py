"""The plan request's hex and waypoint maps: reading them from a request, and drawing their traces.

A plan's ``map`` names its kind (``map.kind``; squares when absent):

- ``"hex"``: ``orientation`` (``pointy``: odd-r rows, ``flat``: odd-q columns), ``width`` and
  ``height`` of the offset storage, ``version``, ``terrain_costs``, and the cells beside the JSON
  as for squares (``row * width + col``). Start and goal are axial ``[q, r]``. The lab's costs are
  the map's own here (a hex map takes no cost profile).
- ``"waypoints"``: ``nodes`` (``[{id, x, y}]``, tile units) and ``edges`` (``[{from, to, cost?,
  oneway?}]``, cost defaults to the length) as in arcstar waypoint JSON, with ``version`` (and a
  ``width``/``height`` the lab draws them in, not used). Start and goal are node ids.

Maps are cached by version (one of each kind), so a repeated plan reuses the map and its graph.
Both graphs number their nodes by cell (hex: the flat storage index) or by node (waypoints: the
order listed), so a trace's explored mask is one byte per cell or per node (``drawable``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..maps.hexmap import HexMap, check_orientation
from ..maps.tilemap import TileMap
from ..maps.waypoints import WAYPOINT_FORMAT, WaypointMap, waypoints_from_json
from ..outcomes import BadInput, shown
from .protocol import check_keys, within

KINDS = ("squares", "hex", "waypoints")
HEX_KEYS = ("kind", "orientation", "width", "height", "version", "terrain_costs")
WAYPOINT_KEYS = ("kind", "width", "height", "version", "nodes", "edges")


def map_kind(spec: dict) -> str:
    """The kind a plan's map names (``squares`` when it names none); anything else is refused."""
    kind = spec.get("kind", "squares")
    if not isinstance(kind, str) or kind not in KINDS:
        raise BadInput(f"map.kind must be one of {', '.join(KINDS)}, got {shown(kind, 40)}", "map.kind")
    return kind


def graph_end(kind: str, value: object, field: str) -> Any:
    """A hex plan's start or goal (axial ``[q, r]`` integers) or a waypoint plan's (a node id)."""
    if kind == "hex":
        if (isinstance(value, list) and len(value) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            return (value[0], value[1])
        raise BadInput(f"{field} on a hex map must be axial [q, r] integers, got {shown(value, 60)}", field)
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise BadInput(f"{field} on a waypoint map must be a node id (a string or an integer), got "
                       f"{shown(value, 60)}", field)
    return value


@dataclass
class _Cached:
    version: object
    map: Any


class GraphMaps:
    """The last hex map and the last waypoint map a service was sent, by version."""

    def __init__(self) -> None:
        self.hex: _Cached | None = None
        self.waypoints: _Cached | None = None

    def get(self, kind: str, spec: dict, cells: object, tiles: Callable[[dict, object], TileMap]) -> Any:
        """The map of a plan's ``map`` (``kind`` hex or waypoints). ``tiles`` reads (and caches)
        the cells as the service reads a square map's, so they travel the same way."""
        if kind == "hex":
            return self._hex(spec, cells, tiles)
        return self._waypoints(spec)

    def _hex(self, spec: dict, cells: object, tiles: Callable[[dict, object], TileMap]) -> HexMap:
        check_keys(spec, HEX_KEYS, "map")
        try:
            orientation = check_orientation(spec.get("orientation"), "map.orientation")
        except ValueError as e:
            raise within("map.orientation", e) from None
        version = (spec.get("version"), orientation)
        if cells is None and self.hex is not None and self.hex.version == version:
            return self.hex.map
        grid = tiles({k: v for k, v in spec.items() if k in ("width", "height", "version")}, cells)
        try:
            hexmap = HexMap(grid.terrain.copy(), orientation)
        except ValueError as e:
            raise within("map", e) from None
        for pair in _costs(spec.get("terrain_costs")):
            code, cost = pair
            if code not in hexmap.terrains:
                raise BadInput(f"map.terrain_costs names the unknown terrain code {shown(code)}", "map.terrain_costs")
            hexmap.set_cost(code, math.inf if cost is None else cost)
        self.hex = _Cached(version, hexmap)
        return hexmap

    def _waypoints(self, spec: dict) -> WaypointMap:
        check_keys(spec, WAYPOINT_KEYS, "map")
        version = spec.get("version")
        if isinstance(version, bool) or not isinstance(version, (int, str)):
            raise BadInput(f"map.version must be an integer or a string, got {shown(version, 40)}", "map.version")
        if "nodes" not in spec:
            if self.waypoints is not None and self.waypoints.version == version:
                return self.waypoints.map
            raise BadInput(f"no waypoint map with version {shown(version, 40)} was sent: send its nodes",
                           "map.nodes")
        self.waypoints = None  # let go of the old graph first
        try:
            graph = waypoints_from_json({"format": WAYPOINT_FORMAT, "nodes": spec.get("nodes"),
                                         "edges": spec.get("edges", [])})
        except ValueError as e:
            raise within("map", e) from None
        self.waypoints = _Cached(version, graph)
        return graph


def _costs(raw: object) -> list[tuple[int, float | None]]:
    """``[[code, cost or null], ...]``: each cost positive and finite, or null (impassable)."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise BadInput("map.terrain_costs must be a list of [code, cost] pairs", "map.terrain_costs")
    out = []
    for i, pair in enumerate(raw):
        ok = isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], int) and not isinstance(pair[0], bool)
        cost = pair[1] if ok else None
        if ok and cost is not None:
            ok = (isinstance(cost, (int, float)) and not isinstance(cost, bool) and math.isfinite(cost)
                  and 0 < cost <= 1e6)
        if not ok:
            raise BadInput(f"map.terrain_costs[{i}] must be [code, cost > 0] or [code, null], got {shown(pair, 40)}",
                           f"map.terrain_costs[{i}]")
        out.append((pair[0], cost))
    return out


class _NodeCells:
    """A graph whose nodes are its cells (hex: the storage index; waypoints: the node's index),
    as the trace's drawing wants it: ``cell_count`` and ``cell_index``."""

    def __init__(self, graph: Any) -> None:
        self.graph = graph
        self.cell_count = int(graph.node_count)

    def cell_index(self, nodes: np.ndarray) -> np.ndarray:
        return np.asarray(nodes, dtype=np.int64)


def drawable(graph: Any) -> Any:
    """The graph as ``Trace.explored`` and the trace arrays read it: itself when it has cells
    (squares), else its nodes as cells."""
    if hasattr(graph, "cell_count") and hasattr(graph, "cell_index"):
        return graph
    return _NodeCells(graph)
