"""Waypoint maps and their graph: JSON round trips, hard validation of hostile input, and
least-cost paths checked against a Dijkstra written here from the raw JSON document."""

from __future__ import annotations

import heapq
import json
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcstar.maps.waypoints import (
    MAX_EDGES,
    MAX_NODES,
    MAX_TEXT,
    Waypoint,
    WaypointEdge,
    WaypointMap,
    waypoints_from_json,
    waypoints_from_points,
    waypoints_to_json,
)
from arcstar.outcomes import BadInput, Status
from arcstar.search.engine import AStar
from arcstar.search.graph import Graph
from arcstar.search.waypoint_graph import WaypointGraph


def _search(graph, start: int, goal: int, heuristic: str | None = None, weight: float = 1.0):
    """The engine (generic loop) on the graph: (cost, node path), or (inf, None) without a path."""
    if not (graph.usable(start) and graph.usable(goal)):
        return math.inf, None
    search = AStar(graph, start, [goal], heuristic=heuristic, weight=weight)
    search.run()
    if search.status != Status.FOUND:
        return math.inf, None
    return search.cost, search.path_nodes


def reference_edges(doc: dict) -> dict[object, list[tuple[object, float]]]:
    """id -> [(id, cost)]: cost as given, else the straight-line length; both ways unless oneway."""
    where = {n["id"]: (n["x"], n["y"]) for n in doc["nodes"]}
    out: dict[object, list[tuple[object, float]]] = {i: [] for i in where}
    for e in doc["edges"]:
        (ax, ay), (bx, by) = where[e["from"]], where[e["to"]]
        cost = e.get("cost", math.sqrt((ax - bx) ** 2 + (ay - by) ** 2))
        out[e["from"]].append((e["to"], cost))
        if not e.get("oneway", False):
            out[e["to"]].append((e["from"], cost))
    return out


def reference_costs(adjacency, start) -> dict[object, float]:
    dist = {start: 0.0}
    heap = [(0.0, 0, start)]
    done = set()
    tie = 0
    while heap:
        d, _t, node = heapq.heappop(heap)
        if node in done:
            continue
        done.add(node)
        for nxt, cost in adjacency[node]:
            if d + cost < dist.get(nxt, math.inf):
                dist[nxt] = d + cost
                tie += 1
                heapq.heappush(heap, (d + cost, tie, nxt))
    return dist


def random_doc(rng: random.Random, cheap: bool = True) -> dict:
    """Nodes at random points (some on tile centres), random edges; some costed, some one-way,
    some (when ``cheap``) cheaper than their length."""
    n = rng.randint(1, 30)
    ids: list[object] = rng.sample(range(1000), n)
    ids = [f"n{i}" if rng.random() < 0.5 else i for i in ids]
    nodes = [{"id": i, "x": rng.randint(0, 20) + 0.5, "y": rng.uniform(0, 20)} for i in ids]
    edges = []
    for _ in range(rng.randint(0, 3 * n)):
        a, b = rng.sample(ids, 2) if n > 1 else (None, None)
        if a is None:
            break
        e: dict[str, object] = {"from": a, "to": b}
        roll = rng.random()
        if roll < 0.3:
            e["cost"] = round(rng.uniform(0.5, 40.0), 3)
        elif cheap and roll < 0.4:
            e["cost"] = round(rng.uniform(0.01, 1.0), 3)
        if rng.random() < 0.25:
            e["oneway"] = True
        edges.append(e)
    return {"format": "arcstar-waypoints", "nodes": nodes, "edges": edges}


# -- round trips and conventions -------------------------------------------------------------
ids = st.one_of(st.integers(-(2**53) + 1, 2**53 - 1), st.text(min_size=1, max_size=12))
coords = st.floats(-1e6, 1e6, allow_nan=False)


@st.composite
def waypoint_maps(draw) -> WaypointMap:
    node_ids = draw(st.lists(ids, min_size=0, max_size=12, unique=True))
    m = WaypointMap()
    for i in node_ids:
        m.add_node(i, draw(coords), draw(coords))
    if len(node_ids) > 1:
        for _ in range(draw(st.integers(0, 20))):
            a, b = draw(st.sampled_from(node_ids)), draw(st.sampled_from(node_ids))
            if a == b:
                continue
            cost = draw(st.one_of(st.none(), st.floats(1e-6, 1e9)))
            if cost is None and m.length_between(m.index(a), m.index(b)) == 0:
                cost = 1.0
            m.add_edge(a, b, cost, draw(st.booleans()))
    return m


@settings(max_examples=80, deadline=None)
@given(waypoint_maps())
def test_json_round_trip(m):
    doc = waypoints_to_json(m)
    assert doc["format"] == "arcstar-waypoints"
    assert waypoints_from_json(doc) == m
    text = json.dumps(doc)
    assert waypoints_from_json(text) == m
    assert waypoints_from_json(text.encode()) == m
    assert WaypointMap(list(m.nodes), list(m.edges)) == m


def test_points_are_tile_units_and_default_costs_are_lengths():
    # nodes on the centres of tiles (0, 0), (3, 0) and (3, 4): tile (x, y)'s centre is (x + .5, y + .5)
    m = waypoints_from_points([("a", 0.5, 0.5), ("b", 3.5, 0.5), ("c", 3.5, 4.5)], [("a", "b"), ("b", "c"), ("a", "c")])
    g = WaypointGraph(m)
    assert isinstance(g, Graph) and g.node_count == 3
    assert [g.place(n) for n in range(3)] == [(0.5, 0.5), (3.5, 0.5), (3.5, 4.5)]
    assert sorted(g.successors(g.node("a"))) == [(1, 3.0), (2, 5.0)]
    assert _search(g, g.node("a"), g.node("c"))[0] == 5.0
    assert g.ident(2) == "c" and g.node("c") == 2
    assert g.heuristic([2], "euclidean")(0) == 5.0 and g.scale == 1.0


def test_one_way_edges_go_one_way_only():
    doc = {"format": "arcstar-waypoints",
           "nodes": [{"id": 1, "x": 0, "y": 0}, {"id": 2, "x": 1, "y": 0}, {"id": 3, "x": 1, "y": 1}],
           "edges": [{"from": 1, "to": 2, "oneway": True}, {"from": 2, "to": 3, "cost": 7}, {"from": 3, "to": 1}]}
    g = WaypointGraph(waypoints_from_json(doc))
    assert g.successors(0) == [(1, 1.0), (2, math.sqrt(2))]
    assert g.successors(1) == [(2, 7.0)]
    assert _search(g, 1, 0)[0] == pytest.approx(7 + math.sqrt(2))
    assert _search(g, 0, 1)[0] == 1.0
    assert g.successors(0) is g.successors(0)  # precomputed lists, returned as they are


def test_cheap_edges_scale_the_heuristic_so_it_stays_admissible():
    m = waypoints_from_points([("a", 0, 0), ("b", 10, 0), ("c", 20, 0)])
    m.add_edge("a", "b")
    m.add_edge("b", "c", cost=2.5)  # a road: a quarter of its length
    g = WaypointGraph(m)
    assert g.scale == 0.25 and m.cost_scale() == 0.25
    assert g.heuristic([2], "euclidean")(0) == 5.0
    assert g.admissible("euclidean") and g.admissible("none", 9.0) and not g.admissible("euclidean", 1.1)
    assert _search(g, 0, 2)[0] == 12.5
    assert g.heuristic([0, 2], "euclidean", 2.0)(1) == 5.0  # nearest goal, weighted


# -- hostile and malformed input -------------------------------------------------------------
def _doc(**changes):
    doc = {"format": "arcstar-waypoints",
           "nodes": [{"id": "a", "x": 0.5, "y": 0.5}, {"id": "b", "x": 2.5, "y": 0.5}, {"id": 7, "x": 1.5, "y": 3.5}],
           "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": 7, "cost": 4.0, "oneway": True}]}
    doc.update(changes)
    return {k: v for k, v in doc.items() if v is not ...}


def _node(i, **changes):
    doc = _doc()
    doc["nodes"][i].update(changes)
    doc["nodes"][i] = {k: v for k, v in doc["nodes"][i].items() if v is not ...}
    return doc


def _edge(i, **changes):
    doc = _doc()
    doc["edges"][i].update({("from" if k == "from_" else k): v for k, v in changes.items()})
    doc["edges"][i] = {k: v for k, v in doc["edges"][i].items() if v is not ...}
    return doc


BAD = [
    ("not an object", [1, 2], ""),
    ("invalid json", "{nodes: []}", ""),
    ("deeply nested json", "[" * 100_000 + "]" * 100_000, ""),
    ("deeply nested in a field", '{"format": "arcstar-waypoints", "nodes": ' + "[" * 100_000, ""),
    ("huge integer", '{"format": "arcstar-waypoints", "nodes": [{"id": ' + "9" * 5000 + ', "x": 0, "y": 0}]}', ""),
    ("text over the limit", " " * (MAX_TEXT + 1), ""),
    ("bytes not utf-8", b'{"format": "\xff"}', ""),
    ("wrong format", _doc(format="arcstar-hex"), "format"),
    ("no format", _doc(format=...), "format"),
    ("bad version", _doc(version="1"), "version"),
    ("unknown key", _doc(colour="red"), "colour"),
    ("nodes not a list", _doc(nodes={"a": [0, 0]}), "nodes"),
    ("no nodes", _doc(nodes=...), "nodes"),
    ("edges not a list", _doc(edges="a-b"), "edges"),
    ("too many nodes", _doc(nodes=[0] * (MAX_NODES + 1)), "nodes"),
    ("too many edges", _doc(edges=[0] * (MAX_EDGES + 1)), "edges"),
    ("node not an object", _doc(nodes=[{"id": "a", "x": 0, "y": 0}, ["b", 1, 1]]), "nodes[1]"),
    ("node unknown key", _node(0, z=1.0), "nodes[0].z"),
    ("node no id", _node(1, id=...), "nodes[1].id"),
    ("node no x", _node(1, x=...), "nodes[1].x"),
    ("duplicate id", _node(2, id="a"), "nodes[2].id"),
    ("float id", _node(2, id=7.0), "nodes[2].id"),
    ("bool id", _node(2, id=True), "nodes[2].id"),
    ("null id", _node(2, id=None), "nodes[2].id"),
    ("empty id", _node(2, id=""), "nodes[2].id"),
    ("long id", _node(2, id="x" * 1000), "nodes[2].id"),
    ("id beyond 2**53", _node(2, id=2**60), "nodes[2].id"),
    ("nan x", _node(1, x=math.nan), "nodes[1].x"),
    ("inf y", _node(1, y=math.inf), "nodes[1].y"),
    ("-inf x", _node(0, x=-math.inf), "nodes[0].x"),
    ("x too far", _node(0, x=1e300), "nodes[0].x"),
    ("x a string", _node(0, x="1"), "nodes[0].x"),
    ("y a bool", _node(0, y=False), "nodes[0].y"),
    ("y a list", _node(0, y=[[[0]]]), "nodes[0].y"),
    ("edge not an object", _doc(edges=[["a", "b"]]), "edges[0]"),
    ("edge unknown key", _edge(1, weight=2), "edges[1].weight"),
    ("dangling to", _edge(1, to="zz"), "edges[1].to"),
    ("dangling from", _edge(0, from_=99), "edges[0].from"),
    ("to of the wrong type", _edge(0, to=["b"]), "edges[0].to"),
    ("id 7 is not '7'", _edge(1, to="7"), "edges[1].to"),
    ("no to", _edge(0, to=...), "edges[0].to"),
    ("self loop", _edge(0, to="a"), "edges[0].to"),
    ("negative cost", _edge(1, cost=-1.0), "edges[1].cost"),
    ("zero cost", _edge(1, cost=0), "edges[1].cost"),
    ("nan cost", _edge(1, cost=math.nan), "edges[1].cost"),
    ("inf cost", _edge(1, cost=math.inf), "edges[1].cost"),
    ("huge cost", _edge(1, cost=1e300), "edges[1].cost"),
    ("null cost", _edge(1, cost=None), "edges[1].cost"),
    ("string cost", _edge(1, cost="3"), "edges[1].cost"),
    ("bool cost", _edge(1, cost=True), "edges[1].cost"),
    ("oneway not bool", _edge(1, oneway="yes"), "edges[1].oneway"),
    ("same point needs a cost", _doc(nodes=[{"id": "a", "x": 1, "y": 1}, {"id": "b", "x": 1, "y": 1}],
                                     edges=[{"from": "a", "to": "b", "cost": 1}, {"from": "b", "to": "a"}]),
     "edges[1].cost"),
]


@pytest.mark.parametrize("doc, field", [(b[1], b[2]) for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_names_the_field(doc, field):
    with pytest.raises(BadInput) as e:
        waypoints_from_json(doc)
    assert e.value.field == field
    assert isinstance(e.value, ValueError) and 0 < len(str(e.value)) < 400


@pytest.mark.parametrize("name", ["nan cost", "nan x", "inf y"])
def test_non_finite_numbers_in_json_text_are_refused_too(name):
    doc, field = next((b[1], b[2]) for b in BAD if b[0] == name)
    with pytest.raises(BadInput) as e:
        waypoints_from_json(json.dumps(doc))  # json writes NaN/Infinity, and Python reads them back
    assert e.value.field == field


def test_a_ten_megabyte_edge_list_is_read():
    nodes = [{"id": i, "x": i % 100 + 0.5, "y": i // 100 + 0.5} for i in range(1000)]
    count = 250_000
    edges = [{"from": k % 1000, "to": (k % 1000 + 1 + k % 997) % 1000, "cost": 50.0} for k in range(count)]
    text = json.dumps({"format": "arcstar-waypoints", "nodes": nodes, "edges": edges})
    assert len(text) >= 9_500_000
    g = WaypointGraph(waypoints_from_json(text))
    assert g.node_count == 1000 and sum(len(g.successors(n)) for n in range(1000)) == 2 * count


def test_programmatic_building_is_validated_the_same_way():
    m = WaypointMap()
    assert m.add_node("a", 0, 0) == 0 and m.add_node(2, 3, 4) == 1
    assert m.add_edge("a", 2) == 0 and m.edge_cost(m.edges[0]) == 5.0
    assert "a" in m and 3 not in m and [] not in m
    with pytest.raises(BadInput) as e:
        m.add_node("a", 1, 1)
    assert e.value.field == "nodes[2].id"
    with pytest.raises(BadInput) as e:
        m.add_edge("a", "q")
    assert e.value.field == "edges[1].to"
    with pytest.raises(BadInput) as e:
        WaypointMap([Waypoint("a", 0, 0)], [WaypointEdge("a", "b")])
    assert e.value.field == "edges[0].to"
    with pytest.raises(BadInput) as e:
        WaypointMap([("a", 0, 0)])  # type: ignore[list-item]
    assert e.value.field == "nodes[0]"
    with pytest.raises(BadInput) as e:
        m.index("zz")
    assert e.value.field == "id"


@pytest.mark.parametrize("call, field", [
    (lambda g: g.node("nope"), "id"),
    (lambda g: g.node(["a"]), "id"),
    (lambda g: g.ident(5), "node"),
    (lambda g: g.place(-1), "node"),
    (lambda g: g.heuristic([0], "octile"), "heuristic"),
    (lambda g: g.heuristic([0], "euclidean", math.inf), "weight"),
    (lambda g: g.heuristic([0], "euclidean", "1"), "weight"),
    (lambda g: g.heuristic([], "euclidean"), "goals"),
    (lambda g: g.heuristic([1, 3], "none"), "goals[1]"),
    (lambda g: g.admissible("hex"), "heuristic"),
])
def test_graph_bad_input_names_the_field(call, field):
    g = WaypointGraph(waypoints_from_json(_doc()))
    with pytest.raises(BadInput) as e:
        call(g)
    assert e.value.field == field


# -- least-cost paths against the independent Dijkstra ---------------------------------------
def test_astar_is_optimal_against_an_independent_dijkstra():
    rng = random.Random(99)
    queries = found = 0
    while queries < 200:
        doc = random_doc(rng)
        g = WaypointGraph(waypoints_from_json(doc))
        adjacency = reference_edges(doc)
        start = rng.choice(doc["nodes"])["id"]
        truth = reference_costs(adjacency, start)
        for _ in range(4):
            goal = rng.choice(doc["nodes"])["id"]
            expected = truth.get(goal, math.inf)
            for heuristic in ("euclidean", "none"):
                cost, path = _search(g, g.node(start), g.node(goal), heuristic)
                assert cost == pytest.approx(expected), (doc, start, goal, heuristic)
                if path is not None:
                    steps = [g.ident(n) for n in path]
                    assert steps[0] == start and steps[-1] == goal
                    total = sum(min(c for n, c in adjacency[a] if n == b) for a, b in zip(steps, steps[1:]))
                    assert total == pytest.approx(cost)
                    found += 1
            weighted, _ = _search(g, g.node(start), g.node(goal), "euclidean", 3.0)
            assert expected - 1e-9 <= weighted <= 3.0 * expected + 1e-9
            queries += 1
    assert found > 200  # most queries have a path: the test is not vacuous


def test_euclidean_heuristic_is_admissible_and_consistent():
    rng = random.Random(5)
    for _ in range(60):
        doc = random_doc(rng)
        g = WaypointGraph(waypoints_from_json(doc))
        adjacency = reference_edges(doc)
        ids = [n["id"] for n in doc["nodes"]]
        goals = rng.sample(ids, min(2, len(ids)))
        dist_from = {i: reference_costs(adjacency, i) for i in ids}
        for heuristic_goals in (goals[:1], goals):
            h = g.heuristic([g.node(i) for i in heuristic_goals], "euclidean")
            for i in ids:
                truth = min(dist_from[i].get(goal, math.inf) for goal in heuristic_goals)
                assert h(g.node(i)) <= truth + 1e-9
                for j, cost in adjacency[i]:
                    assert h(g.node(i)) <= cost + h(g.node(j)) + 1e-9
            assert all(h(g.node(goal)) == 0.0 for goal in heuristic_goals)
