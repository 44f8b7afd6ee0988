"""The graph protocol every engine walks: squares, hexes, waypoints, the hierarchical graph.

A graph is a finite set of nodes numbered ``0 .. node_count - 1`` (ids need not all be usable:
a grid pads its border with blocked nodes). The engine asks only what this protocol offers, so
it never knows a graph's shape; per-search state lives in the engine's arrays, never on the
graph (the Rust ``pathfinding`` crate's model: search as functions over callbacks).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..outcomes import BadInput, shown

#: Above this many nodes a graph's per-node tables are packed arrays, not lists: 8 bytes an entry
#: instead of a pointer plus an object, and nothing for the garbage collector to walk (a list of
#: 17 M entries costs a tenth of a second at every full collection, in the middle of a search).
#: Below it, lists: indexing one is a little faster in a search's inner loop. 2**21 nodes is a
#: 1446 x 1446 map; every Moving AI benchmark map is smaller.
COMPACT_NODES = 1 << 21


def node_table(values: np.ndarray) -> Any:
    """A per-node table for a search to index: a list, or a packed ``array`` on large graphs."""
    if values.size <= COMPACT_NODES:
        return values.tolist()
    code = "d" if values.dtype.kind == "f" else "i" if values.dtype == np.int32 else "q"
    table = array(code)
    table.frombytes(np.ascontiguousarray(values, dtype=np.dtype(code)).data.cast("B"))
    return table


def filled(size: int, fill: float) -> Any:
    """A per-node table of ``size`` entries all ``fill`` (a list, or an ``array`` on large graphs)."""
    if size <= COMPACT_NODES:
        return [fill] * size
    return array("d" if isinstance(fill, float) else "q", [fill]) * size



@runtime_checkable
class Graph(Protocol):
    """What a search needs from a graph.

    node_count: how many node ids there are (the size of the engine's per-node arrays).
    heuristics: the heuristic names this graph offers ("none" always among them).
    default_heuristic: the one used when none is asked for.
    """

    # Read-only members (a search never sets them), so a graph may hold them as plain or
    # class attributes of narrower types, e.g. a fixed-length tuple of names.
    @property
    def node_count(self) -> int: ...

    @property
    def heuristics(self) -> tuple[str, ...]: ...

    @property
    def default_heuristic(self) -> str: ...

    def usable(self, node: int) -> bool:
        """Whether a search may start, end or pass at ``node``."""
        ...

    def successors(self, node: int) -> Iterable[tuple[int, float]]:
        """(neighbour, step cost) for every step out of ``node``; costs are finite and > 0."""
        ...

    def place(self, node: int) -> tuple[float, float]:
        """Where ``node`` is drawn, in the graph's own drawing units (tile units for maps)."""
        ...

    def heuristic(self, goals: Sequence[int], name: str, weight: float = 1.0) -> Callable[[int], float]:
        """H(node): the estimate to the nearest of ``goals``, scaled by ``weight``; a
        ``ValueError`` naming the options for an unknown ``name``."""
        ...

    def admissible(self, name: str, weight: float = 1.0) -> bool:
        """Whether ``name`` at ``weight`` never overestimates (so A* finds least-cost paths)."""
        ...


@runtime_checkable
class CellGraph(Graph, Protocol):
    """A graph laid on an array of cells (square tiles, hexes), so what a search saw can be
    drawn as one byte per cell. cell_count: the cells; cell_index: node ids to cell indices
    (-1 for nodes that are no cell, such as a grid's padding)."""

    @property
    def cell_count(self) -> int: ...

    def cell_index(self, nodes: np.ndarray) -> np.ndarray:
        ...


def check_node(node: object, count: int, field: str = "node") -> int:
    """A node id of a graph of ``count`` nodes (a numpy integer too), else ``BadInput``."""
    if isinstance(node, bool) or not isinstance(node, (int, np.integer)) or not 0 <= node < count:
        raise BadInput(f"{field} must be a node id 0..{count - 1}, got {shown(node)}", field)
    return int(node)


def check_heuristic(name: object, offered: tuple[str, ...]) -> str:
    """One of the heuristic names a graph offers, else ``BadInput`` listing them."""
    if not isinstance(name, str) or name not in offered:
        raise BadInput(f"heuristic must be one of {', '.join(offered)}, got {shown(name)}", "heuristic")
    return name
