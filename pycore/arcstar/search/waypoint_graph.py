"""The graph a search walks on a waypoint map: precomputed adjacency lists.

Node ids are the map's node indices (the order the nodes were added or listed in the JSON);
``node(id)``/``ident(node)`` convert. Every node is usable. An undirected edge gives a step
each way, a one-way edge one step; parallel edges are kept as they are. The graph is a
snapshot: edits to the map after it was built are not seen.

Heuristics: "euclidean" (straight-line distance in tiles times the map's ``cost_scale()``,
so it never overestimates even where an edge costs less than its length, and is consistent)
and "none" (Dijkstra).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from ..maps.waypoints import WaypointId, WaypointMap
from ..outcomes import BadInput, shown
from .graph import check_heuristic, check_node
from .options import check_number

WAYPOINT_HEURISTICS = ("euclidean", "none")


class WaypointGraph:
    """A waypoint map as the search protocol (``search.graph.Graph``) sees it."""

    heuristics = WAYPOINT_HEURISTICS
    default_heuristic = "euclidean"

    def __init__(self, waypoints: WaypointMap) -> None:
        self.map = waypoints
        nodes = waypoints.nodes
        self.node_count = len(nodes)
        self.xs: list[float] = [n.x for n in nodes]
        self.ys: list[float] = [n.y for n in nodes]
        self.ids: list[WaypointId] = [n.id for n in nodes]
        self._index = {n.id: i for i, n in enumerate(nodes)}
        adjacency: list[list[tuple[int, float]]] = [[] for _ in nodes]
        for e in waypoints.edges:
            a, b = self._index[e.source], self._index[e.target]
            cost = e.cost if e.cost is not None else math.hypot(self.xs[b] - self.xs[a], self.ys[b] - self.ys[a])
            adjacency[a].append((b, cost))
            if not e.oneway:
                adjacency[b].append((a, cost))
        self.adjacency = adjacency
        self.scale = waypoints.cost_scale()

    # -- the graph protocol ---------------------------------------------------------------
    def usable(self, node: int) -> bool:
        return 0 <= node < self.node_count

    def successors(self, node: int) -> list[tuple[int, float]]:
        """(neighbour, edge cost) for every edge out of ``node`` (the stored list itself)."""
        return self.adjacency[node]

    def place(self, node: int) -> tuple[float, float]:
        """The node's point in tile units."""
        node = check_node(node, self.node_count)
        return self.xs[node], self.ys[node]

    def heuristic(self, goals: Sequence[int], name: str, weight: float = 1.0) -> Callable[[int], float]:
        """H(node) to the nearest goal: Euclidean distance times ``scale`` times ``weight``."""
        check_heuristic(name, WAYPOINT_HEURISTICS)
        weight = check_number(weight, "weight")
        try:
            goal_list = list(goals)
        except TypeError:
            raise BadInput("goals must be a sequence of node ids", "goals") from None
        targets = [check_node(g, self.node_count, f"goals[{i}]") for i, g in enumerate(goal_list)]
        if not targets:
            raise BadInput("a heuristic needs at least one goal", "goals")
        if name == "none":
            return lambda node: 0.0
        s = weight * self.scale
        xs, ys = self.xs, self.ys
        if len(targets) == 1:
            gx, gy = xs[targets[0]], ys[targets[0]]
            return lambda node: math.hypot(xs[node] - gx, ys[node] - gy) * s
        points = [(xs[g], ys[g]) for g in targets]
        return lambda node: min(math.hypot(xs[node] - gx, ys[node] - gy) for gx, gy in points) * s

    def admissible(self, name: str, weight: float = 1.0) -> bool:
        """"none" always; "euclidean" at a weight up to 1 (scaled for cheap edges)."""
        check_heuristic(name, WAYPOINT_HEURISTICS)
        return name == "none" or check_number(weight, "weight") <= 1.0

    # -- conversions ----------------------------------------------------------------------
    def node(self, id: WaypointId) -> int:
        """The node of a waypoint id; ``BadInput`` (field "id") when there is none."""
        try:
            return self._index[id]
        except (KeyError, TypeError):
            raise BadInput(f"no waypoint has the id {shown(id)}", "id") from None

    def ident(self, node: int) -> WaypointId:
        """The waypoint id of a node."""
        return self.ids[check_node(node, self.node_count)]
