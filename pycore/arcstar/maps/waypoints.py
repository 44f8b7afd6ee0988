"""Waypoint maps: nodes at arbitrary points joined by edges with costs (Lester's "non-square
search areas": a table of which places are adjacent, and what a move between them costs).

Points are in tile units (tile (x, y) covers [x, x+1) x [y, y+1), its centre is (x + 0.5,
y + 0.5), x grows right and y grows down). Node ids are strings or integers, unique; an edge
joins two ids, both ways unless ``oneway`` (then from ``source`` to ``target`` only).

Costs: an edge without a cost costs its Euclidean length; a given cost may be any positive
finite number up to ``MAX_COST``, including less than the length (a road, a teleporter).
``cost_scale()`` is the smallest ratio cost / length over all edges, capped at 1: a Euclidean
estimate multiplied by it never overestimates, so the graph's heuristic stays admissible
without forbidding cheap edges. An edge between two nodes at the same point needs a cost.

Limits (input beyond them is refused with ``BadInput``, before any work in proportion to it):
``MAX_NODES`` nodes, ``MAX_EDGES`` edges, ``MAX_TEXT`` characters (or bytes) of JSON text,
coordinates within +-``MAX_COORD``, string ids up to ``MAX_ID_LENGTH`` characters, integer ids
within +-(2**53 - 1) (exact in JavaScript).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..outcomes import BadInput, shown
from .jsontext import load_json

T = TypeVar("T")

WAYPOINT_FORMAT = "arcstar-waypoints"
MAX_NODES = 200_000
MAX_EDGES = 1_000_000
MAX_TEXT = 32 * 1024 * 1024
MAX_COORD = 1e9
MAX_COST = 1e12
MAX_ID_LENGTH = 256
MAX_INT_ID = 2**53 - 1
_DOC_KEYS = ("format", "version", "nodes", "edges")
_NODE_KEYS = ("id", "x", "y")
_EDGE_KEYS = ("from", "to", "cost", "oneway")

WaypointId = str | int


@dataclass(frozen=True)
class Waypoint:
    """A node: its id and its point in tile units."""

    id: WaypointId
    x: float
    y: float


@dataclass(frozen=True)
class WaypointEdge:
    """An edge between two node ids; ``cost`` None means the Euclidean length."""

    source: WaypointId
    target: WaypointId
    cost: float | None = None
    oneway: bool = False


@dataclass
class WaypointMap:
    """Nodes and edges, validated as they are added (field names as in the JSON, e.g.
    ``nodes[4].x``, ``edges[12].to``). Compared by content: nodes and edges in order. Every
    addition bumps ``version``, and values derived from the map (its search graph) are cached
    per version, as a ``TileMap``'s are: add nodes and edges with ``add_node``/``add_edge``."""

    nodes: list[Waypoint] = field(default_factory=list)
    edges: list[WaypointEdge] = field(default_factory=list)
    _index: dict[WaypointId, int] = field(default_factory=dict, init=False, repr=False, compare=False)
    version: int = field(default=0, init=False, repr=False, compare=False)
    _cache: dict[str, tuple[int, Any]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        nodes, edges = list(self.nodes), list(self.edges)
        _check_count(len(nodes), MAX_NODES, "nodes")
        _check_count(len(edges), MAX_EDGES, "edges")
        self.nodes, self.edges, self._index = [], [], {}
        for i, n in enumerate(nodes):
            if not isinstance(n, Waypoint):
                raise BadInput(f"node {i} must be a Waypoint, got {shown(n)}", f"nodes[{i}]")
            self.add_node(n.id, n.x, n.y)
        for i, e in enumerate(edges):
            if not isinstance(e, WaypointEdge):
                raise BadInput(f"edge {i} must be a WaypointEdge, got {shown(e)}", f"edges[{i}]")
            self.add_edge(e.source, e.target, e.cost, e.oneway)

    # -- building -------------------------------------------------------------------------
    def add_node(self, id: WaypointId, x: float, y: float) -> int:
        """Add a node; its index (the order of adding) is returned."""
        i = len(self.nodes)
        _check_count(i + 1, MAX_NODES, "nodes")
        _check_id(id, f"nodes[{i}].id")
        if id in self._index:
            raise BadInput(f"duplicate node id {shown(id)} (first at nodes[{self._index[id]}])", f"nodes[{i}].id")
        if type(x) is not float or not -MAX_COORD <= x <= MAX_COORD:  # the common case, checked fast
            x = _check_coord(x, f"nodes[{i}].x")
        if type(y) is not float or not -MAX_COORD <= y <= MAX_COORD:
            y = _check_coord(y, f"nodes[{i}].y")
        self._index[id] = i
        self.nodes.append(Waypoint(id, x, y))
        self.version += 1
        return i

    def add_edge(self, source: WaypointId, target: WaypointId, cost: float | None = None,
                 oneway: bool = False) -> int:
        """Add an edge between two existing node ids; its index is returned."""
        i = len(self.edges)
        _check_count(i + 1, MAX_EDGES, "edges")
        a = self._known(source, i, "from")
        b = self._known(target, i, "to")
        if a == b:
            raise BadInput(f"edge {i} joins node {shown(source)} to itself", f"edges[{i}].to")
        if oneway is not True and oneway is not False:
            raise BadInput(f"oneway must be true or false, got {shown(oneway)}", f"edges[{i}].oneway")
        if cost is not None:
            if type(cost) is not float or not 0.0 < cost <= MAX_COST:  # the common case, checked fast
                cost = _check_cost(cost, f"edges[{i}].cost")
        elif self.length_between(a, b) == 0.0:
            raise BadInput(f"edge {i} joins two nodes at the same point: give it a cost", f"edges[{i}].cost")
        self.edges.append(WaypointEdge(source, target, cost, oneway))
        self.version += 1
        return i

    def _known(self, id: object, edge: int, end: str) -> int:
        try:
            return self._index[id]  # type: ignore[index]
        except (KeyError, TypeError):
            raise BadInput(f"no node has the id {shown(id)}", f"edges[{edge}].{end}" if edge >= 0 else end) from None

    def cached(self, key: str, build: Callable[[], T]) -> T:
        """A value derived from this version of the map, built once (the planner's graph)."""
        hit = self._cache.get(key)
        if hit is None or hit[0] != self.version:
            hit = self._cache[key] = (self.version, build())
        return hit[1]

    # -- lookups --------------------------------------------------------------------------
    def index(self, id: WaypointId) -> int:
        """The index of the node with this id; ``BadInput`` when there is none."""
        return self._known(id, -1, "id")

    def __contains__(self, id: object) -> bool:
        try:
            return id in self._index
        except TypeError:
            return False

    def length_between(self, a: int, b: int) -> float:
        """The Euclidean distance between the nodes at indices a and b, in tiles."""
        na, nb = self.nodes[a], self.nodes[b]
        return math.hypot(nb.x - na.x, nb.y - na.y)

    def edge_cost(self, edge: WaypointEdge) -> float:
        """What the edge costs: its given cost, or else its Euclidean length."""
        if edge.cost is not None:
            return edge.cost
        return self.length_between(self._index[edge.source], self._index[edge.target])

    def cost_scale(self) -> float:
        """min(1, smallest cost / length over edges of non-zero length): the factor that keeps
        a Euclidean estimate admissible (1 when no edge is cheaper than its length)."""
        scale = 1.0
        for e in self.edges:
            if e.cost is not None:
                length = self.length_between(self._index[e.source], self._index[e.target])
                if length > 0 and e.cost < length * scale:
                    scale = e.cost / length
        return scale


# -- JSON -----------------------------------------------------------------------------------
def waypoints_to_json(waypoints: WaypointMap) -> dict:
    """arcstar waypoint JSON; ``cost`` and ``oneway`` are written only when given/true."""
    edges = []
    for e in waypoints.edges:
        d: dict[str, object] = {"from": e.source, "to": e.target}
        if e.cost is not None:
            d["cost"] = e.cost
        if e.oneway:
            d["oneway"] = True
        edges.append(d)
    return {"format": WAYPOINT_FORMAT, "version": 1,
            "nodes": [{"id": n.id, "x": n.x, "y": n.y} for n in waypoints.nodes], "edges": edges}


def waypoints_from_json(doc: object) -> WaypointMap:
    """Read arcstar waypoint JSON (a dict, or its text); the inverse of ``waypoints_to_json``.
    Every malformed entry is refused with ``BadInput`` naming it (``edges[3].to``)."""
    if isinstance(doc, (str, bytes, bytearray)):
        doc = _load_json(doc)
    if not isinstance(doc, dict):
        raise BadInput(f"a waypoint map must be a JSON object, got {shown(doc)}")
    if doc.get("format") != WAYPOINT_FORMAT:
        raise BadInput(f"not an arcstar waypoint map: format must be {WAYPOINT_FORMAT!r}, got "
                       f"{shown(doc.get('format'))}", "format")
    _check_keys(doc, _DOC_KEYS, "")
    version = doc.get("version", 1)
    if isinstance(version, bool) or version != 1:
        raise BadInput(f"waypoint map version must be 1, got {shown(version)}", "version")
    nodes, edges = doc.get("nodes"), doc.get("edges", [])
    for name, items, limit in (("nodes", nodes, MAX_NODES), ("edges", edges, MAX_EDGES)):
        if not isinstance(items, list):
            raise BadInput(f"'{name}' must be a list, got {shown(items)}", name)
        _check_count(len(items), limit, name)
    assert isinstance(nodes, list) and isinstance(edges, list)
    out = WaypointMap()
    for i, n in enumerate(nodes):
        where = f"nodes[{i}]"
        if not isinstance(n, dict):
            raise BadInput(f"node {i} must be an object with id, x and y, got {shown(n)}", where)
        _check_keys(n, _NODE_KEYS, where)
        for key in _NODE_KEYS:
            if key not in n:
                raise BadInput(f"node {i} has no '{key}'", f"{where}.{key}")
        out.add_node(n["id"], n["x"], n["y"])
    for i, e in enumerate(edges):
        where = f"edges[{i}]"
        if not isinstance(e, dict):
            raise BadInput(f"edge {i} must be an object with from and to, got {shown(e)}", where)
        _check_keys(e, _EDGE_KEYS, where)
        for key in ("from", "to"):
            if key not in e:
                raise BadInput(f"edge {i} has no '{key}'", f"{where}.{key}")
        if "cost" in e and e["cost"] is None:
            raise BadInput(f"edge {i} has a null cost: leave 'cost' out for the Euclidean length", f"{where}.cost")
        out.add_edge(e["from"], e["to"], e.get("cost"), e.get("oneway", False))
    return out


def _load_json(text: str | bytes | bytearray) -> object:
    """Parse JSON text after checking its length; hostile nesting and numbers become BadInput."""
    return load_json(text, "waypoint JSON", 8, max_chars=MAX_TEXT)  # the format nests three levels


# -- validation -----------------------------------------------------------------------------
def _check_count(n: int, limit: int, field: str) -> None:
    if n > limit:
        raise BadInput(f"{n} {field} is over the limit of {limit}", field)


def _check_keys(d: dict, allowed: tuple[str, ...], where: str) -> None:
    for key in d:
        if key not in allowed:
            name = str(key)[:40]
            raise BadInput(f"unknown key {shown(name)}: expected {', '.join(allowed)}",
                           f"{where}.{name}" if where else name)


def _check_id(id: object, field: str) -> None:
    if isinstance(id, bool) or not isinstance(id, (str, int)):
        raise BadInput(f"a node id must be a string or an integer, got {shown(id)}", field)
    if isinstance(id, int) and abs(id) > MAX_INT_ID:
        raise BadInput(f"integer node ids must lie within +-{MAX_INT_ID}", field)
    if isinstance(id, str) and not 0 < len(id) <= MAX_ID_LENGTH:
        raise BadInput(f"string node ids must have 1..{MAX_ID_LENGTH} characters, got {len(id)}", field)


def _number(value: object, field: str, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadInput(f"{what} must be a number, got {shown(value)}", field)
    try:
        return float(value)
    except OverflowError:
        raise BadInput(f"{what} is too large", field) from None


def _check_coord(value: object, field: str) -> float:
    v = _number(value, field, "a coordinate")
    if not math.isfinite(v) or abs(v) > MAX_COORD:
        raise BadInput(f"a coordinate must be a finite number within +-{MAX_COORD:g}, got {shown(v)}", field)
    return v


def _check_cost(value: object, field: str) -> float:
    v = _number(value, field, "an edge cost")
    if not math.isfinite(v) or not 0 < v <= MAX_COST:
        raise BadInput(f"an edge cost must be a finite number > 0 and <= {MAX_COST:g}, got {shown(v)}", field)
    return v


def waypoints_from_points(points: Iterable[tuple[WaypointId, float, float]],
                          edges: Iterable[tuple[WaypointId, WaypointId]] = ()) -> WaypointMap:
    """A map from (id, x, y) triples and undirected (id, id) pairs costed by length."""
    out = WaypointMap()
    for id, x, y in points:
        out.add_node(id, x, y)
    for a, b in edges:
        out.add_edge(a, b)
    return out
