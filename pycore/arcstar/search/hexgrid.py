"""The graph a search walks on a hex map: six neighbours, costs by the terrain entered.

Node ids are the map's flat storage indices ``row * width + col`` (odd-r rows when pointy,
odd-q columns when flat; see ``maps.hexmap``), so ``cell_index`` is the identity. A step into a
cell costs ``step`` (1.0 per hex) times that cell's terrain cost; blocked cells are unusable.

The graph is a snapshot of the map version it was built from. Successor lists are built on a
node's first expansion and kept: later calls return the same list, and a large map costs
memory only for the nodes a search reaches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..maps.hexmap import AXIAL_DIRECTIONS, HexMap, axial_to_offset, offset_to_axial
from ..outcomes import BadInput, shown
from .graph import check_heuristic, check_node
from .options import check_number

HEX_HEURISTICS = ("hex", "none")


def _offset_steps(orientation: str) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """(dcol, drow) of the six neighbours from an even and from an odd row (pointy) or column
    (flat), derived from the axial directions so the two can never disagree."""
    out = []
    for parity in (0, 1):
        col, row = (0, parity) if orientation == "pointy" else (parity, 0)
        q, r = offset_to_axial(col, row, orientation)
        steps = []
        for dq, dr in AXIAL_DIRECTIONS:
            c, w = axial_to_offset(q + dq, r + dr, orientation)
            steps.append((c - col, w - row))
        out.append(tuple(steps))
    return out[0], out[1]


class HexGraph:
    """A hex map as the search protocol (``search.graph.Graph``) sees it.

    Heuristics: "hex" (hex distance times the cheapest terrain cost times ``step``: admissible
    and consistent) and "none" (Dijkstra). ``node(q, r)``/``cell(node)`` convert to axial.
    """

    heuristics = HEX_HEURISTICS
    default_heuristic = "hex"

    def __init__(self, hexmap: HexMap, step: float = 1.0) -> None:
        self.step = check_number(step, "step", strict=True)
        self.map = hexmap
        self.orientation = hexmap.orientation
        self.width, self.height = hexmap.width, hexmap.height
        self.map_version = hexmap.version
        self.node_count = self.width * self.height
        costs = hexmap.cost_grid.ravel()
        self.passable = bytes(np.isfinite(costs).astype(np.uint8))
        self.enter_cost: list[float] = (costs * self.step).tolist()  # inf where blocked
        self.min_cost = hexmap.min_cost() * self.step
        self._steps = _offset_steps(self.orientation)
        self._succ: list[list[tuple[int, float]] | None] = [None] * self.node_count

    # -- the graph protocol ---------------------------------------------------------------
    def usable(self, node: int) -> bool:
        return 0 <= node < self.node_count and bool(self.passable[node])

    def successors(self, node: int) -> list[tuple[int, float]]:
        """(neighbour, step cost) for each passable neighbour; empty for a blocked node."""
        out = self._succ[node]
        if out is None:
            out = self._succ[node] = self._build(node)
        return out

    def _build(self, node: int) -> list[tuple[int, float]]:
        if not self.passable[node]:
            return []
        w, h = self.width, self.height
        row, col = divmod(node, w)
        parity = (row if self.orientation == "pointy" else col) & 1
        out = []
        for dc, dr in self._steps[parity]:
            c, r = col + dc, row + dr
            if 0 <= c < w and 0 <= r < h:
                n = r * w + c
                if self.passable[n]:
                    out.append((n, self.enter_cost[n]))
        return out

    def place(self, node: int) -> tuple[float, float]:
        """The cell's centre in drawing units (hex size 1; see ``maps.hexmap``)."""
        return self.map.center(*self.cell(node))

    def heuristic(self, goals: Sequence[int], name: str, weight: float = 1.0) -> Callable[[int], float]:
        """H(node) to the nearest goal: hex distance times the cheapest step, times ``weight``."""
        check_heuristic(name, HEX_HEURISTICS)
        weight = check_number(weight, "weight")
        try:
            goal_list = list(goals)
        except TypeError:
            raise BadInput(f"goals must be a sequence of node ids, got {shown(goals)}", "goals") from None
        targets = [self.cell(check_node(g, self.node_count, f"goals[{i}]")) for i, g in enumerate(goal_list)]
        if not targets:
            raise BadInput("a heuristic needs at least one goal", "goals")
        if name == "none":
            return lambda node: 0.0
        scale = weight * self.min_cost
        w = self.width
        pointy = self.orientation == "pointy"

        def axial(node: int) -> tuple[int, int]:
            row, col = divmod(node, w)
            return (col - (row >> 1), row) if pointy else (col, row - (col >> 1))

        if len(targets) == 1:
            gq, gr = targets[0]

            def h(node: int) -> float:
                q, r = axial(node)
                dq, dr = q - gq, r - gr
                return max(abs(dq), abs(dr), abs(dq + dr)) * scale
            return h

        def h_many(node: int) -> float:
            q, r = axial(node)
            return min(max(abs(q - gq), abs(r - gr), abs(q - gq + r - gr)) for gq, gr in targets) * scale
        return h_many

    def admissible(self, name: str, weight: float = 1.0) -> bool:
        """"none" always; "hex" at a weight up to 1."""
        check_heuristic(name, HEX_HEURISTICS)
        return name == "none" or check_number(weight, "weight") <= 1.0

    # -- conversions ----------------------------------------------------------------------
    def node(self, q: int, r: int) -> int:
        """The node of axial (q, r); ``BadInput`` when off the map."""
        col, row = axial_to_offset(q, r, self.orientation)
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise BadInput(f"hex ({q}, {r}) is off the {self.width}x{self.height} {self.orientation} map", "cell")
        return row * self.width + col

    def cell(self, node: int) -> tuple[int, int]:
        """Axial (q, r) of a node."""
        row, col = divmod(check_node(node, self.node_count), self.width)
        return offset_to_axial(col, row, self.orientation)

    def offset(self, node: int) -> tuple[int, int]:
        """(col, row) of a node in the map's storage."""
        row, col = divmod(check_node(node, self.node_count), self.width)
        return col, row

    def cell_index(self, nodes: np.ndarray) -> np.ndarray:
        """Flat storage indices ``row * width + col`` of node ids (the ids themselves; -1 stays
        -1), for drawing, as ``GridGraph.cell_index``."""
        return np.array(nodes, dtype=np.int64)

    @property
    def stale(self) -> bool:
        """Whether the map changed since this snapshot was taken."""
        return self.map.version != self.map_version


def hex_graph_for(hexmap: HexMap, step: float = 1.0) -> HexGraph:
    """The graph of this map version, built once and cached on the map."""
    step = check_number(step, "step", strict=True)
    return hexmap.cached(f"hexgraph:{step!r}", lambda: HexGraph(hexmap, step))
