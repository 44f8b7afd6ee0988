"""Hex maps and their graph: axial storage, drawing, readers, hostile input, and least-cost
paths checked against a Dijkstra written here from the axial definition."""

from __future__ import annotations

import heapq
import json
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcstar.maps.hexmap import (
    MAX_HEX_CELLS,
    MAX_HEX_SIDE,
    MAX_HEX_TEXT,
    HexMap,
    axial_to_offset,
    hex_distance,
    hex_map_from_json,
    hex_map_to_json,
    hex_to_ascii,
    offset_to_axial,
    parse_hex_ascii,
)
from arcstar.maps.tilemap import DEFAULT_TERRAINS
from arcstar.outcomes import BadInput, Status
from arcstar.search.engine import AStar
from arcstar.search.graph import Graph
from arcstar.search.hexgrid import HexGraph, hex_graph_for

# -- the test's own hex rules (Red Blob Games), sharing nothing with the code under test ----
DIRS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
COST = {t.code: t.cost for t in DEFAULT_TERRAINS}
CODES = [0, 0, 0, 0, 1, 2, 3, 4, 5, 6]  # mostly ground; walls, water, road, sand, swamp, hills
SQRT3 = math.sqrt(3)


def to_storage(q: int, r: int, orientation: str) -> tuple[int, int]:
    """(col, row): odd-r rows (pointy) or odd-q columns (flat)."""
    if orientation == "pointy":
        return q + math.floor(r / 2), r
    return q, r + math.floor(q / 2)


def from_storage(col: int, row: int, orientation: str) -> tuple[int, int]:
    if orientation == "pointy":
        return col - math.floor(row / 2), row
    return col, row - math.floor(col / 2)


def cells_of(codes: np.ndarray, orientation: str) -> dict[tuple[int, int], float]:
    """Axial cell -> cost of entering it, for every cell of a stored rectangle."""
    h, w = codes.shape
    return {from_storage(c, r, orientation): COST[int(codes[r, c])] for r in range(h) for c in range(w)}


def reference_costs(cells: dict[tuple[int, int], float], start: tuple[int, int]) -> dict[tuple[int, int], float]:
    """Plain Dijkstra over axial cells: a step enters a neighbour and costs its terrain cost."""
    dist = {start: 0.0}
    heap = [(0.0, start)]
    done: set[tuple[int, int]] = set()
    while heap:
        d, (q, r) = heapq.heappop(heap)
        if (q, r) in done:
            continue
        done.add((q, r))
        for dq, dr in DIRS:
            n = (q + dq, r + dr)
            cost = cells.get(n, math.inf)
            if math.isinf(cost):
                continue
            if d + cost < dist.get(n, math.inf):
                dist[n] = d + cost
                heapq.heappush(heap, (d + cost, n))
    return dist


def _search(graph, start: int, goal: int, heuristic: str | None = None, weight: float = 1.0):
    """The engine (generic loop) on the graph: (cost, node path), or (inf, None) without a path."""
    if not (graph.usable(start) and graph.usable(goal)):
        return math.inf, None
    search = AStar(graph, start, [goal], heuristic=heuristic, weight=weight)
    search.run()
    if search.status != Status.FOUND:
        return math.inf, None
    return search.cost, search.path_nodes


def random_map(rng: random.Random, orientation: str, max_side: int = 12) -> HexMap:
    w, h = rng.randint(1, max_side), rng.randint(1, max_side)
    return HexMap(np.array([[rng.choice(CODES) for _ in range(w)] for _ in range(h)], dtype=np.uint8), orientation)


# -- coordinates and drawing -----------------------------------------------------------------
@given(st.integers(-10**6, 10**6), st.integers(-10**6, 10**6), st.sampled_from(["pointy", "flat"]))
def test_axial_and_offset_convert_both_ways(q, r, orientation):
    col, row = axial_to_offset(q, r, orientation)
    assert (col, row) == to_storage(q, r, orientation)
    assert offset_to_axial(col, row, orientation) == (q, r)


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_neighbours_are_the_six_axial_directions_clipped_to_the_map(orientation):
    m = HexMap.empty(5, 4, orientation)
    g = HexGraph(m)
    cells = cells_of(m.terrain, orientation)
    for node in range(g.node_count):
        q, r = g.cell(node)
        got = sorted(g.cell(n) for n, _c in g.successors(node))
        assert got == sorted((q + dq, r + dr) for dq, dr in DIRS if (q + dq, r + dr) in cells)
        assert all(c == 1.0 for _n, c in g.successors(node))
        x, y = g.place(node)
        for n, _c in g.successors(node):  # neighbouring centres are sqrt 3 apart, either way up
            nx, ny = g.place(n)
            assert math.hypot(nx - x, ny - y) == pytest.approx(SQRT3)


def test_pointy_and_flat_share_axial_neighbours_and_differ_only_in_drawing():
    pointy, flat = HexGraph(HexMap.empty(6, 6, "pointy")), HexGraph(HexMap.empty(6, 6, "flat"))
    both = set(map(pointy.cell, range(pointy.node_count))) & set(map(flat.cell, range(flat.node_count)))
    assert len(both) > 10
    for q, r in both:
        around_p = {pointy.cell(n) for n, _c in pointy.successors(pointy.node(q, r))} & both
        around_f = {flat.cell(n) for n, _c in flat.successors(flat.node(q, r))} & both
        assert around_p == around_f == {(q + dq, r + dr) for dq, dr in DIRS} & both
    assert pointy.place(pointy.node(1, 0)) != flat.place(flat.node(1, 0))
    # east in axial is +x on screen for pointy hexes, and down-right for flat ones
    (px0, py0), (px1, py1) = pointy.place(pointy.node(0, 0)), pointy.place(pointy.node(1, 0))
    (fx0, fy0), (fx1, fy1) = flat.place(flat.node(0, 0)), flat.place(flat.node(1, 0))
    assert (px1 - px0, py1 - py0) == pytest.approx((SQRT3, 0.0))
    assert (fx1 - fx0, fy1 - fy0) == pytest.approx((1.5, SQRT3 / 2))


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_centres_corners_extent_and_point_lookup(orientation):
    m = HexMap.empty(5, 3, orientation)
    first = (SQRT3 / 2, 1.0) if orientation == "pointy" else (1.0, SQRT3 / 2)
    assert m.center(0, 0) == pytest.approx(first)
    width, height = m.extent()
    for q, r in m.cells():
        cx, cy = m.center(q, r)
        corners = m.corners(q, r)
        assert all(math.hypot(x - cx, y - cy) == pytest.approx(1.0) for x, y in corners)
        assert all(-1e-9 <= x <= width + 1e-9 and -1e-9 <= y <= height + 1e-9 for x, y in corners)
        assert m.cell_at_point(cx, cy) == (q, r)
        for x, y in corners:  # just inside each corner is still this cell
            assert m.cell_at_point(cx + 0.9 * (x - cx), cy + 0.9 * (y - cy)) == (q, r)
    xs = [x for c in m.cells() for x, _y in m.corners(*c)]
    ys = [y for c in m.cells() for _x, y in m.corners(*c)]
    assert (min(xs), min(ys), max(xs), max(ys)) == pytest.approx((0.0, 0.0, width, height))


# -- readers and writers ---------------------------------------------------------------------
terrain_grids = st.integers(1, 9).flatmap(lambda w: st.lists(
    st.lists(st.sampled_from(CODES), min_size=w, max_size=w), min_size=1, max_size=9))


@settings(max_examples=60, deadline=None)
@given(terrain_grids, st.sampled_from(["pointy", "flat"]))
def test_readers_round_trip(rows, orientation):
    m = HexMap(np.array(rows, dtype=np.uint8), orientation)
    assert parse_hex_ascii(hex_to_ascii(m), orientation) == m
    doc = hex_map_to_json(m)
    assert doc["format"] == "arcstar-hex" and doc["orientation"] == orientation
    assert (doc["width"], doc["height"]) == (m.width, m.height)
    assert hex_map_from_json(doc) == m
    assert hex_map_from_json(json.dumps(doc)) == m
    assert hex_map_from_json(json.dumps(doc).encode()) == m


def test_ascii_uses_the_square_readers_characters():
    m = parse_hex_ascii("\n.#=:\n%^~@\n\n", "flat")
    assert (m.width, m.height, m.orientation) == (4, 2, "flat")
    assert m.terrain.tolist() == [[0, 1, 2, 3], [4, 5, 6, 1]]
    assert m.is_blocked(*m.to_axial(1, 0)) and m.is_blocked(*m.to_axial(3, 1))
    assert m.cost_at(*m.to_axial(2, 0)) == 0.5 and m.is_blocked(99, 99)
    assert m != HexMap(m.terrain, "pointy")


def _doc(**changes):
    doc = {"format": "arcstar-hex", "orientation": "pointy", "width": 3, "height": 2, "rows": ["...", ".#."]}
    doc.update(changes)
    return {k: v for k, v in doc.items() if v is not ...}


BAD = [
    ("ragged ascii row", lambda: parse_hex_ascii("...\n..\n..."), "rows[1]"),
    ("unknown ascii char", lambda: parse_hex_ascii("...\n..x\n"), "rows[1]"),
    ("marker is not terrain", lambda: parse_hex_ascii("S..\n"), "rows[0]"),
    ("empty ascii", lambda: parse_hex_ascii("\n\n"), "rows"),
    ("ascii bad orientation", lambda: parse_hex_ascii("...", "round"), "orientation"),
    ("ascii too wide", lambda: parse_hex_ascii("." * (MAX_HEX_SIDE + 1)), "rows[0]"),
    ("ascii too long", lambda: parse_hex_ascii("." * (MAX_HEX_TEXT + 1)), ""),
    ("ascii not text", lambda: parse_hex_ascii(12), ""),  # type: ignore[arg-type]
    ("ascii not utf-8", lambda: parse_hex_ascii(b"\xff\xfe"), ""),
    ("not an object", lambda: hex_map_from_json([1]), ""),
    ("bad json", lambda: hex_map_from_json("{nope"), ""),
    ("deep json", lambda: hex_map_from_json("[" * 100_000 + "]" * 100_000), ""),
    ("wrong format", lambda: hex_map_from_json(_doc(format="arcstar-map")), "format"),
    ("no format", lambda: hex_map_from_json(_doc(format=...)), "format"),
    ("unknown key", lambda: hex_map_from_json(_doc(colour="red")), "colour"),
    ("bad version", lambda: hex_map_from_json(_doc(version=2)), "version"),
    ("bad orientation", lambda: hex_map_from_json(_doc(orientation="square")), "orientation"),
    ("orientation not text", lambda: hex_map_from_json(_doc(orientation=["pointy"])), "orientation"),
    ("no width", lambda: hex_map_from_json(_doc(width=...)), "width"),
    ("width not int", lambda: hex_map_from_json(_doc(width=3.0)), "width"),
    ("width bool", lambda: hex_map_from_json(_doc(width=True)), "width"),
    ("width zero", lambda: hex_map_from_json(_doc(width=0)), "width"),
    ("width over limit", lambda: hex_map_from_json(_doc(width=MAX_HEX_SIDE + 1)), "width"),
    ("height over limit", lambda: hex_map_from_json(_doc(height=10**12)), "height"),
    ("cells over limit", lambda: hex_map_from_json(_doc(width=MAX_HEX_SIDE, height=MAX_HEX_CELLS // MAX_HEX_SIDE + 1)),
     "height"),
    ("rows not a list", lambda: hex_map_from_json(_doc(rows="...")), "rows"),
    ("too few rows", lambda: hex_map_from_json(_doc(rows=["..."])), "rows"),
    ("row not text", lambda: hex_map_from_json(_doc(rows=["...", [0, 0, 0]])), "rows[1]"),
    ("ragged row", lambda: hex_map_from_json(_doc(rows=["...", "...."])), "rows[1]"),
    ("unknown char", lambda: hex_map_from_json(_doc(rows=["..?", "..."])), "rows[0]"),
    ("non-latin char", lambda: hex_map_from_json(_doc(rows=["...", ".\u263a."])), "rows[1]"),
    ("array not 2-d", lambda: HexMap(np.zeros(3, dtype=np.uint8)), "terrain"),
    ("unknown code", lambda: HexMap(np.full((2, 2), 77, dtype=np.uint8)), "terrain"),
    ("map bad orientation", lambda: HexMap(np.zeros((2, 2), dtype=np.uint8), "Pointy"), "orientation"),
    ("empty array", lambda: HexMap(np.zeros((0, 3), dtype=np.uint8)), "height"),
]


@pytest.mark.parametrize("make, field", [(b[1], b[2]) for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_names_the_field(make, field):
    with pytest.raises(BadInput) as e:
        make()
    assert e.value.field == field
    assert isinstance(e.value, ValueError) and str(e.value)


# -- the graph protocol ----------------------------------------------------------------------
def test_graph_api_and_protocol():
    m = parse_hex_ascii("..#.\n=...\n~...\n", "pointy")
    g = HexGraph(m)
    assert isinstance(g, Graph) and g.node_count == 12
    assert g.heuristics == ("hex", "none") and g.default_heuristic == "hex"
    for node in range(g.node_count):
        assert g.node(*g.cell(node)) == node
        col, row = g.offset(node)
        assert node == row * m.width + col
    wall, water = g.node(*m.to_axial(2, 0)), g.node(*m.to_axial(0, 2))
    assert not g.usable(wall) and not g.usable(water) and g.usable(0)
    assert not g.usable(-1) and not g.usable(g.node_count)
    assert g.successors(wall) == []
    assert g.successors(0) is g.successors(0)  # precomputed, returned as they are
    road = g.node(*m.to_axial(0, 1))
    assert (road, 0.5) in g.successors(0)
    assert g.cell_index(np.array([3, -1, 5])).tolist() == [3, -1, 5]
    assert g.admissible("hex") and g.admissible("none", 5.0) and not g.admissible("hex", 1.5)
    assert g.heuristic([0], "none")(5) == 0.0
    # the cheapest terrain is road (0.5): one hex of distance is worth 0.5
    assert g.heuristic([0], "hex")(g.node(3, 0)) == pytest.approx(1.5)
    assert g.heuristic([0, g.node(3, 0)], "hex", 2.0)(g.node(2, 0)) == pytest.approx(1.0)
    assert HexGraph(m, step=10.0).successors(0) == [(n, c * 10) for n, c in g.successors(0)]


@pytest.mark.parametrize("call, field", [
    (lambda g: g.node(9, 9), "cell"),
    (lambda g: g.cell(99), "node"),
    (lambda g: g.cell(True), "node"),
    (lambda g: g.place(-1), "node"),
    (lambda g: g.heuristic([0], "manhattan"), "heuristic"),
    (lambda g: g.heuristic([0], "hex", -1.0), "weight"),
    (lambda g: g.heuristic([0], "hex", math.nan), "weight"),
    (lambda g: g.heuristic([], "hex"), "goals"),
    (lambda g: g.heuristic(5, "hex"), "goals"),
    (lambda g: g.heuristic([0, 99], "hex"), "goals[1]"),
    (lambda g: g.admissible("octile"), "heuristic"),
    (lambda g: HexGraph(g.map, step=0), "step"),
    (lambda g: g.map.set_cell(40, 0, 0), "cell"),
    (lambda g: g.map.set_cell(0, 0, 99), "code"),
    (lambda g: g.map.set_cost(0, -1.0), "cost"),
])
def test_graph_bad_input_names_the_field(call, field):
    g = HexGraph(HexMap.empty(3, 3))
    with pytest.raises(BadInput) as e:
        call(g)
    assert e.value.field == field


def test_graph_is_a_snapshot_and_cached_per_version():
    m = HexMap.empty(4, 4, "flat")
    g = hex_graph_for(m)
    assert hex_graph_for(m) is g and not g.stale
    m.set_cell(1, 1, 1)
    assert g.stale and g.usable(g.node(1, 1))
    fresh = hex_graph_for(m)
    assert fresh is not g and not fresh.usable(fresh.node(1, 1))
    assert m.copy() == m and m.copy() is not m


# -- least-cost paths against the independent Dijkstra ---------------------------------------
def test_astar_is_optimal_against_an_independent_dijkstra():
    rng = random.Random(20240611)
    queries = found = 0
    while queries < 200:
        orientation = ("pointy", "flat")[queries % 2]
        m = random_map(rng, orientation)
        g = HexGraph(m)
        cells = cells_of(m.terrain, orientation)
        open_cells = [c for c, cost in cells.items() if not math.isinf(cost)]
        if not open_cells:
            continue
        start = rng.choice(open_cells)
        truth = reference_costs(cells, start)
        for _ in range(5):
            goal = rng.choice(open_cells)
            for heuristic in ("hex", "none"):
                cost, path = _search(g, g.node(*start), g.node(*goal), heuristic)
                expected = truth.get(goal, math.inf)
                assert cost == pytest.approx(expected), (orientation, start, goal, heuristic)
                if path is not None:
                    steps = [g.cell(n) for n in path]
                    assert steps[0] == start and steps[-1] == goal
                    for (q0, r0), (q1, r1) in zip(steps, steps[1:]):
                        assert (q1 - q0, r1 - r0) in DIRS
                    assert sum(cells[c] for c in steps[1:]) == pytest.approx(cost)
                    found += 1
            weighted, _ = _search(g, g.node(*start), g.node(*goal), "hex", 2.0)  # weighted A*: within 2x
            expected = truth.get(goal, math.inf)
            assert expected - 1e-9 <= weighted <= 2.0 * expected + 1e-9
            queries += 1
    assert found > 150  # most queries have a path: the test is not vacuous


def test_hex_heuristic_is_admissible_and_consistent():
    rng = random.Random(7)
    for trial in range(40):
        orientation = ("pointy", "flat")[trial % 2]
        m = random_map(rng, orientation, max_side=7)
        g = HexGraph(m)
        cells = cells_of(m.terrain, orientation)
        open_cells = [c for c, cost in cells.items() if not math.isinf(cost)]
        if len(open_cells) < 2:
            continue
        goals = rng.sample(open_cells, 2)
        dist_from = {c: reference_costs(cells, c) for c in open_cells}
        for heuristic_goals in ([goals[0]], goals):
            h = g.heuristic([g.node(*c) for c in heuristic_goals], "hex")
            for c in open_cells:
                node = g.node(*c)
                truth = min(dist_from[c].get(goal, math.inf) for goal in heuristic_goals)
                assert h(node) <= truth + 1e-9
                for dq, dr in DIRS:  # consistency along every step the reference allows
                    n = (c[0] + dq, c[1] + dr)
                    if not math.isinf(cells.get(n, math.inf)):
                        assert h(node) <= cells[n] + h(g.node(*n)) + 1e-9
            for goal in heuristic_goals:
                assert h(g.node(*goal)) == 0.0


@given(st.tuples(st.integers(-50, 50), st.integers(-50, 50)), st.tuples(st.integers(-50, 50), st.integers(-50, 50)))
def test_hex_distance_is_the_open_grid_step_count(a, b):
    d = hex_distance(a, b)
    assert d == hex_distance(b, a) and (d == 0) == (a == b)
    # one step changes the distance by exactly one in some direction, never more
    assert min(hex_distance((a[0] + dq, a[1] + dr), b) for dq, dr in DIRS) == (d - 1 if d else 1)
