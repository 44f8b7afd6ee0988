"""Jump Point Search and JPS+: optimal on the Moving AI maps and against an independent Dijkstra,
full legal tile paths, the same resumable interface as A*, and clear refusals."""

import functools
import math
import os
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arcstar
from arcstar.maps.mapio import load_map, parse_scen
from arcstar.search.engine import AStar
from arcstar.search.grid import GridOptions, graph_for
from arcstar.search.heuristics import make_heuristic
from arcstar.search.jps import JPS, JPSPlus
from arcstar.search.jps_prep import check_graph, jump_tables
from arcstar.search.jump_tables import DIRECTIONS, compute_tables, forced_bits, padded_free
from conftest import benchmarks_dir
from reference import check_path, dijkstra, path_cost

SEARCHES = [JPS, JPSPlus]
ROOT = benchmarks_dir()
MAPS = sorted(p.name[:-4] for p in (ROOT / "maps").glob("*.map")) if ROOT else []
NO_BENCHMARKS = "the shared Moving AI benchmarks are not beside this checkout"
needs_benchmarks = pytest.mark.skipif(ROOT is None, reason=NO_BENCHMARKS)


# -- Moving AI scenarios ---------------------------------------------------------------------------

@functools.lru_cache(maxsize=2)
def benchmark(name):
    m = load_map(ROOT / "maps" / f"{name}.map").map
    text = (ROOT / "scen" / f"{name}.map.scen").read_text()
    return m, parse_scen(text, m), text.startswith("version 1.0")


def tolerance(opt: float, two_decimals: bool) -> float:
    """The benchmark README: 1e-5 relative, or half a unit of the printed digits (2 decimals for
    the version 1.0 files, otherwise 6 significant digits)."""
    if two_decimals:
        half_unit = 0.005
    else:
        half_unit = 0.5 * 10.0 ** (math.floor(math.log10(opt)) - 5) if opt > 0 else 0.0
    return max(1e-5 * opt, half_unit) + 1e-9


def scenario_sample(scens, n=20, longest=2, seed=3):
    """The ``longest`` longest problems and ``n - longest`` others drawn with a fixed seed."""
    by_len = sorted(scens, key=lambda s: s.optimal)
    rest = by_len[:-longest]
    return by_len[-longest:] + random.Random(seed).sample(rest, min(n - longest, len(rest)))


def solve_all(name, scens, two_dec, searches=SEARCHES):
    m = benchmark(name)[0]
    graph = graph_for(m, GridOptions(costs="octile"))
    for sc in scens:
        s, g = graph.node(*sc.start), graph.node(*sc.goal)
        for cls in searches:
            q = cls(graph, s, g)
            assert q.run() == "found", (cls.name, sc)
            assert abs(q.cost - sc.optimal) <= tolerance(sc.optimal, two_dec), (cls.name, sc, q.cost)
            yield cls, sc, q


@needs_benchmarks
@pytest.mark.parametrize("name", MAPS)
def test_moving_ai_optimal_lengths(name):
    m, scens, two_dec = benchmark(name)
    ones = np.ones(m.blocked.shape)
    checked = 0
    for _cls, sc, q in solve_all(name, scenario_sample(scens), two_dec):
        # the full tile path is legal and exactly as long as the cost says
        check_path(m.blocked, q.path, sc.start, sc.goal)
        assert abs(path_cost(ones, q.path, 1.0, math.sqrt(2)) - q.cost) < 1e-6 * max(1.0, q.cost)
        checked += 1
    assert checked == 2 * min(20, len(scens))


@needs_benchmarks
@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("ARCSTAR_SLOW_TESTS"), reason="set ARCSTAR_SLOW_TESTS=1 (about half an hour)")
@pytest.mark.parametrize("name", MAPS)
def test_moving_ai_every_scenario(name):
    # JPS+ on every scenario, JPS on every 10th one.
    _m, scens, two_dec = benchmark(name)
    assert sum(1 for _ in solve_all(name, scens, two_dec, [JPSPlus])) == len(scens)
    assert sum(1 for _ in solve_all(name, scens[::10], two_dec, [JPS])) == len(scens[::10])


# -- random maps against A* and an independent Dijkstra ---------------------------------------------

@st.composite
def open_maps(draw, max_side=14):
    """A map of one open terrain (ground, or all road / all sand: uniform, not 1) and walls."""
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    density = draw(st.sampled_from([0.0, 0.1, 0.25, 0.4, 0.55]))
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    blocked = np.array([[rnd.random() < density for _ in range(w)] for _ in range(h)], dtype=bool).reshape(h, w)
    cells = [(x, y) for y in range(h) for x in range(w)]
    start = draw(st.sampled_from(cells))
    goal = draw(st.sampled_from(cells))
    blocked[start[1], start[0]] = blocked[goal[1], goal[0]] = False
    open_code = draw(st.sampled_from([0, 0, 2, 3]))  # ground 1.0, road 0.5, sand 2.0
    terrain = np.where(blocked, 1, open_code).astype(np.uint8)
    return arcstar.TileMap(terrain), start, goal


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(open_maps(), st.sampled_from(["octile", "lester"]))
def test_costs_equal_astar_and_dijkstra_and_paths_are_legal(case, costs):
    tilemap, start, goal = case
    before, version = tilemap.terrain.copy(), tilemap.version
    graph = graph_for(tilemap, GridOptions(costs=costs))
    s, g = graph.node(*start), graph.node(*goal)
    astar = AStar(graph, s, [g], heuristic="octile")
    astar.run()
    straight, diag = (10.0, 14.0) if costs == "lester" else (1.0, math.sqrt(2))
    best = dijkstra(tilemap.cost_grid, start, goal, straight, diag)
    for cls in SEARCHES:
        q = cls(graph, s, g)
        status = q.run()
        if best is None:
            assert status == astar.status == "no_path"
            assert q.path is None and q.path_nodes is None and q.cost is None
            continue
        assert status == "found"
        assert q.cost == pytest.approx(best, rel=1e-9, abs=1e-9)
        assert q.cost == pytest.approx(astar.cost, rel=1e-9, abs=1e-9)
        check_path(tilemap.blocked, q.path, start, goal)
        assert q.cost == pytest.approx(path_cost(tilemap.cost_grid, q.path, straight, diag), rel=1e-9, abs=1e-9)
        assert q.path == [graph.tile(n) for n in q.path_nodes]
        assert q.jump_points[0] == s and q.jump_points[-1] == g
        assert set(q.jump_points) <= set(q.path_nodes)
    assert np.array_equal(tilemap.terrain, before) and tilemap.version == version, "a search changed the map"


def naive_tables(free: np.ndarray) -> np.ndarray:
    """The JPS+ jump distances straight from their definitions, one tile at a time."""
    rows, cols = free.shape

    def ok(x, y):
        return 0 <= x < cols and 0 <= y < rows and bool(free[y, x])

    def forced(x, y, dx, dy):
        if dy == 0:
            return any(ok(x, y + e) and not ok(x - dx, y + e) for e in (-1, 1))
        return any(ok(x + e, y) and not ok(x + e, y - dy) for e in (-1, 1))

    def straight(x, y, dx, dy):
        t = 0
        while ok(x + dx, y + dy):
            x, y, t = x + dx, y + dy, t + 1
            if forced(x, y, dx, dy):
                return t
        return -t

    def diagonal(x, y, dx, dy):
        t = 0
        while ok(x + dx, y) and ok(x, y + dy) and ok(x + dx, y + dy):
            x, y, t = x + dx, y + dy, t + 1
            if straight(x, y, dx, 0) > 0 or straight(x, y, 0, dy) > 0:
                return t
        return -t

    out = np.zeros((8, rows, cols), dtype=np.int32)
    for y in range(rows):
        for x in range(cols):
            if free[y, x]:
                for k, (dx, dy) in enumerate(DIRECTIONS):
                    out[k, y, x] = (diagonal if dx and dy else straight)(x, y, dx, dy)
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 16), st.integers(1, 16), st.floats(0.0, 0.6), st.integers(0, 2**32 - 1))
def test_jump_tables_follow_their_definition(w, h, density, seed):
    rnd = np.random.default_rng(seed)
    free = np.zeros((h + 2, w + 2), dtype=bool)
    free[1:-1, 1:-1] = rnd.random((h, w)) >= density
    tables = compute_tables(free)
    expected = naive_tables(free)
    for k in range(8):
        assert np.array_equal(np.where(free, tables[k], 0), expected[k]), DIRECTIONS[k]
    bits = forced_bits(free)
    for y in range(1, h + 1):
        for x in range(1, w + 1):
            if free[y, x]:
                for k, (dx, dy) in enumerate(DIRECTIONS[:4]):
                    sides = [(0, -1), (0, 1)] if dy == 0 else [(-1, 0), (1, 0)]
                    want = [free[y + ey, x + ex] and not free[y + ey - dy, x + ex - dx] for ex, ey in sides]
                    assert [(bits[y, x] >> (2 * k + b)) & 1 for b in (0, 1)] == [int(v) for v in want]


def test_a_padded_mask_must_have_a_blocked_border():
    with pytest.raises(ValueError, match="border"):
        compute_tables(np.ones((4, 4), dtype=bool))


# -- small worked cases ----------------------------------------------------------------------------

def graph_of(ascii_map, **options):
    loaded = arcstar.parse_ascii(ascii_map)
    graph = graph_for(loaded.map, GridOptions(**{"costs": "octile", **options}))
    return loaded, graph, graph.node(*loaded.start), graph.node(*loaded.goal)


ROOMS = """
S.......#.......#.......
........#.......#.......
........#...............
........#.......#.......
................#.......
........#.......#.......
#####.######.####....###
........#.......#.......
........#...............
....................#...
........#.......#...#..E
"""


@pytest.mark.parametrize("cls", SEARCHES)
def test_start_equal_to_goal(cls):
    graph = graph_for(arcstar.TileMap.empty(5, 5), GridOptions())
    q = cls(graph, graph.node(2, 2), graph.node(2, 2))
    assert q.run() == "found" and q.path == [(2, 2)] and q.cost == 0 and q.expanded == 1


@pytest.mark.parametrize("cls", SEARCHES)
def test_lester_costs_and_one_goal_in_a_list(cls):
    loaded, graph, s, g = graph_of(ROOMS, costs="lester")
    q = cls(graph, s, [g, g])  # a repeated goal is one goal
    q.run()
    assert q.cost == pytest.approx(dijkstra(loaded.map.cost_grid, loaded.start, loaded.goal, 10, 14))
    check_path(loaded.map.blocked, q.path, loaded.start, loaded.goal)


@pytest.mark.parametrize("cls", SEARCHES)
def test_stepping_one_at_a_time_gives_the_same_result_as_run(cls):
    _loaded, graph, s, g = graph_of(ROOMS)
    whole = cls(graph, s, g)
    whole.run()
    sliced = cls(graph, s, g)
    steps = 0
    while sliced.step(1) == "running":
        steps += 1
        assert sliced.expanded == steps
        assert sliced.open_count > 0
    assert whole.expanded > 3
    assert sliced.status == whole.status == "found"
    assert (sliced.path, sliced.cost, sliced.expanded) == (whole.path, whole.cost, whole.expanded)
    assert sliced.step(1) == "found"  # a finished search stays finished
    assert sliced.ms > 0


@pytest.mark.parametrize("cls", SEARCHES)
def test_max_expansions_budget_and_cancel(cls):
    blocked = np.random.default_rng(1).random((60, 60)) < 0.2  # obstacles make jump points
    blocked[:, 30] = True  # a full wall: no path
    blocked[0, 0] = blocked[59, 59] = False
    graph = graph_for(arcstar.TileMap.from_blocked(blocked), GridOptions())
    s, g = graph.node(0, 0), graph.node(59, 59)
    whole = cls(graph, s, g)
    assert whole.run() == "no_path" and whole.expanded > 10 and whole.path is None
    capped = cls(graph, s, g, max_expansions=5)
    assert capped.run() == "budget_exhausted" and capped.expanded == 5 and capped.path is None
    job = cls(graph, s, g)
    job.step(1)
    job.cancel()
    assert job.status == "cancelled" and job.step(5) == "cancelled" and job.cost is None
    for bad in (0, -1, 1.5, None, True):
        with pytest.raises(ValueError, match="budget"):
            cls(graph, s, g).step(bad)


@pytest.mark.parametrize("cls", SEARCHES)
def test_interleaved_searches_keep_their_own_node_arrays(cls):
    _loaded, graph, s, g = graph_of(ROOMS)
    alone = cls(graph, s, g)
    alone.run()
    a, b, c = cls(graph, s, g), cls(graph, g, s), AStar(graph, s, [g], heuristic="octile")
    while "running" in (a.status, b.status, c.status):
        for q in (a, b, c):
            q.step(1)
    assert a.path == alone.path and a.expanded == alone.expanded
    assert a.cost == pytest.approx(b.cost) and a.cost == pytest.approx(c.cost)
    for _ in range(5):  # many generations on the same pooled arrays
        again = cls(graph, s, g)
        again.run()
        assert (again.path, again.cost, again.expanded) == (alone.path, alone.cost, alone.expanded)


def test_jps_plus_tables_are_rebuilt_after_an_edit():
    tilemap = arcstar.TileMap.empty(30, 12)
    graph = graph_for(tilemap, GridOptions(costs="octile"))
    first = JPSPlus(graph, graph.node(0, 5), graph.node(29, 5))
    first.run()
    assert first.cost == pytest.approx(29)
    tables = jump_tables(graph)
    assert jump_tables(graph) is tables  # cached with the graph
    for y in range(11):
        tilemap.set_tile(15, y, 1)  # a wall with one gap at the bottom
    edited = graph_for(tilemap, GridOptions(costs="octile"))
    assert edited is not graph and jump_tables(edited) is not tables
    q = JPSPlus(edited, edited.node(0, 5), edited.node(29, 5))
    q.run()
    assert q.cost == pytest.approx(dijkstra(tilemap.cost_grid, (0, 5), (29, 5)))
    assert q.cost > first.cost
    check_path(tilemap.blocked, q.path, (0, 5), (29, 5))
    stale = JPSPlus(graph, graph.node(0, 5), graph.node(29, 5))  # the old snapshot is unchanged
    stale.run()
    assert stale.cost == pytest.approx(29)


@pytest.mark.parametrize("cls", SEARCHES)
def test_trace_records_jump_points_with_g_h_f_and_parent(cls):
    _loaded, graph, s, g = graph_of(ROOMS)
    q = cls(graph, s, g, trace=True)
    q.run()
    tr = q.trace
    assert tr.expanded[0] == s and tr.expanded[-1] == g and len(tr.expanded) == q.expanded
    assert s in tr.nodes and g in tr.nodes and tr.nodes[s]["parent"] == -1
    h = make_heuristic("octile", graph, g)
    for node, d in tr.nodes.items():
        assert d["h"] == h(node) and d["f"] == pytest.approx(d["g"] + d["h"])
    chain = [g]
    while chain[-1] != s:
        chain.append(tr.nodes[chain[-1]]["parent"])
    assert chain[::-1] == q.jump_points
    assert tr.nodes[g]["g"] == q.cost and tr.nodes[g]["closed"]
    assert cls(graph, s, g).trace is None


@pytest.mark.parametrize("cls", SEARCHES)
@pytest.mark.parametrize("weight", [0.0, 0.5, 1.0, 3.0])
def test_inlined_octile_estimate_matches_make_heuristic(cls, weight):
    _loaded, graph, s, g = graph_of(ROOMS)
    rnd = random.Random(5)
    open_nodes = [n for n in range(len(graph.passable)) if graph.passable[n]]
    for _ in range(40):
        a, b = rnd.choice(open_nodes), rnd.choice(open_nodes)
        q = cls(graph, a, b, weight=weight)
        assert q.open_count == 1 and q._heap[0][1] == make_heuristic("octile", graph, b, weight)(a)
        q.cancel()


@pytest.mark.parametrize("cls", SEARCHES)
def test_other_heuristics_weights_and_stop_rules(cls):
    loaded, graph, s, g = graph_of(ROOMS)
    best = dijkstra(loaded.map.cost_grid, loaded.start, loaded.goal)
    for options in ({"heuristic": "none"}, {"heuristic": "euclidean"}, {"heuristic": "chebyshev"}):
        q = cls(graph, s, g, **options)
        q.run()
        assert q.cost == pytest.approx(best), options
    for options in ({"weight": 3.0}, {"stop": "reached"}, {"heuristic": "manhattan"}):
        q = cls(graph, s, g, **options)
        assert q.run() == "found", options
        assert q.cost >= best - 1e-9
        check_path(loaded.map.blocked, q.path, loaded.start, loaded.goal)


# -- refusals --------------------------------------------------------------------------------------

@pytest.mark.parametrize("cls", SEARCHES)
def test_refuses_grids_it_cannot_search(cls):
    tilemap = arcstar.TileMap.empty(6, 6)
    for options, msg in (({"neighbours": 4}, "8 neighbours"), ({"diagonal": "either"}, "corner cutting"),
                         ({"diagonal": "always"}, "corner cutting"), ({"diagonal": "never"}, "corner cutting")):
        graph = graph_for(tilemap, GridOptions(**options))
        with pytest.raises(ValueError, match=msg):
            cls(graph, graph.node(0, 0), graph.node(5, 5))
    mixed = arcstar.TileMap.empty(6, 6)
    mixed.set_tile(3, 3, 3)  # one sand tile: costs are not uniform
    graph = graph_for(mixed, GridOptions())
    with pytest.raises(ValueError, match="uniform costs.*terrain costs"):
        cls(graph, graph.node(0, 0), graph.node(5, 5))
    for layer in (np.eye(6), np.full((6, 6), 2.0)):  # a varying layer, and a constant one
        influenced = arcstar.TileMap.empty(6, 6)
        influenced.set_influence(layer)
        graph = graph_for(influenced, GridOptions())
        with pytest.raises(ValueError, match="uniform costs.*influence"):
            cls(graph, graph.node(0, 0), graph.node(5, 5))
    zero = arcstar.TileMap.empty(6, 6)
    zero.set_influence(np.zeros((6, 6)))  # a layer of zeros adds nothing: accepted
    graph = graph_for(zero, GridOptions())
    assert check_graph(graph) == (10.0, 14.0)


@pytest.mark.parametrize("cls", SEARCHES)
def test_refuses_bad_queries(cls):
    tilemap = arcstar.TileMap.empty(6, 6)
    tilemap.set_tile(1, 1, 1)
    graph = graph_for(tilemap, GridOptions())
    s, g = graph.node(0, 0), graph.node(5, 5)
    for args, kwargs, msg in (
        ((s, [g, graph.node(4, 4)]), {}, "one goal"), ((s, []), {}, "at least one goal"),
        ((graph.node(1, 1), g), {}, "blocked"), ((s, graph.node(1, 1)), {}, "blocked"),
        ((s, 10**6), {}, "node id"), ((-1, g), {}, "node id"), ((1.5, g), {}, "node id"),
        ((s, g), {"heuristic": "magic"}, "heuristic"), ((s, g), {"weight": -1}, "weight"),
        ((s, g), {"weight": math.nan}, "weight"), ((s, g), {"stop": "whenever"}, "stop"),
        ((s, g), {"max_expansions": 0}, "max_expansions"), ((s, g), {"open_list": "unsorted"}, "open_list"),
        ((s, g), {"turn_penalty": 5}, "turn penalty"), ((s, g), {"turn_penalty": math.nan}, "turn penalty"),
    ):
        with pytest.raises(ValueError, match=msg):
            cls(graph, *args, **kwargs)
    with pytest.raises(ValueError, match="GridGraph"):
        cls("not a graph", s, g)
    q = cls(graph, s, [g], heuristic="octile", weight=1.0, stop="closed", max_expansions=None, trace=False,
            open_list="heap", turn_penalty=0.0)  # A*'s own keywords, as the planner passes them
    assert q.run() == "found" and q.goal_found == g


def test_the_tables_match_on_a_moving_ai_map_too():
    if ROOT is None:
        pytest.skip(NO_BENCHMARKS)
    m = benchmark("arena")[0]
    corner = arcstar.TileMap.from_blocked(m.blocked[:30, :30])  # the naive tables are slow
    graph = graph_for(corner, GridOptions(costs="octile"))
    free = padded_free(graph.passable, graph.height, graph.width)
    tables = np.array([np.frombuffer(t, dtype=np.int16) for t in jump_tables(graph)]).reshape((8,) + free.shape)
    assert np.array_equal(np.where(free, tables, 0), naive_tables(free))
