"""The search engine: optimal against an independent Dijkstra, legal paths, resumable, bounded."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arcstar
from arcstar.search.engine import AStar
from arcstar.search.grid import GridOptions, graph_for
from reference import check_path, dijkstra, path_cost

COSTS = np.array([1.0, math.inf, 0.5, 2.0, 4.0, 3.0, math.inf])  # the default terrain costs by code


@st.composite
def terrain_maps(draw, max_side=12):
    w = draw(st.integers(2, max_side))
    h = draw(st.integers(2, max_side))
    codes = draw(st.lists(st.sampled_from([0, 0, 0, 0, 1, 1, 2, 3, 4, 5, 6]), min_size=w * h, max_size=w * h))
    grid = np.array(codes, dtype=np.uint8).reshape(h, w)
    cells = [(x, y) for y in range(h) for x in range(w)]
    start = draw(st.sampled_from(cells))
    goal = draw(st.sampled_from(cells))
    grid[start[1], start[0]] = 0
    grid[goal[1], goal[0]] = 0
    return arcstar.TileMap(grid), start, goal


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(terrain_maps(), st.sampled_from(["octile", "euclidean", "chebyshev", "none"]),
       st.sampled_from(["never", "both", "either", "always"]), st.sampled_from([4, 8]),
       st.sampled_from(["lester", "octile"]))
def test_admissible_heuristics_find_the_least_cost(case, heuristic, diagonal, neighbours, costs):
    tilemap, start, goal = case
    before = tilemap.terrain.copy()
    version = tilemap.version
    result = arcstar.plan(tilemap, start, goal, heuristic=heuristic, diagonal=diagonal,
                          neighbours=neighbours, costs=costs)
    straight, diag = (10.0, 14.0) if costs == "lester" else (1.0, math.sqrt(2))
    best = dijkstra(tilemap.cost_grid, start, goal, straight, diag, diagonal, neighbours)
    assert np.array_equal(tilemap.terrain, before) and tilemap.version == version, "the search changed the map"
    if best is None:
        assert result.status == "unreachable" and result.path == [] and result.expanded == 0
        return
    assert result.status == "found"
    assert result.optimal
    check_path(tilemap.blocked, result.path, start, goal, diagonal, neighbours)
    assert result.cost == pytest.approx(best, rel=1e-9, abs=1e-9)
    assert result.cost == pytest.approx(path_cost(tilemap.cost_grid, result.path, straight, diag), rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(terrain_maps(), st.floats(1.0, 5.0))
def test_inadmissible_searches_still_return_legal_paths(case, weight):
    tilemap, start, goal = case
    result = arcstar.plan(tilemap, start, goal, heuristic="manhattan", weight=weight, stop="reached")
    best = dijkstra(tilemap.cost_grid, start, goal, 10, 14)
    if best is None:
        assert result.status == "unreachable"
    else:
        check_path(tilemap.blocked, result.path, start, goal)
        assert result.cost >= best - 1e-9
        assert not result.optimal


def test_manhattan_with_diagonals_can_return_a_longer_path():
    # Manhattan x 10 overestimates diagonal moves (Lester's own caveat); this map shows it.
    loaded = arcstar.parse_ascii("""
S....
#.##.
.....
.##.E
""")
    best = arcstar.plan(loaded.map, loaded.start, loaded.goal, heuristic="octile")
    lester = arcstar.plan(loaded.map, loaded.start, loaded.goal, heuristic="manhattan")
    assert best.optimal and not lester.optimal
    assert lester.status == best.status == "found"
    assert best.cost == dijkstra(loaded.map.cost_grid, loaded.start, loaded.goal, 10, 14)
    assert lester.cost > best.cost  # 70 against 64 on this map
    check_path(loaded.map.blocked, lester.path, loaded.start, loaded.goal)


def test_step_budget_gives_the_same_result_as_one_run():
    loaded = arcstar.parse_ascii("S" + "." * 39 + "\n" + ("." * 20 + "#" * 19 + ".\n") * 10 + "." * 39 + "E\n")
    graph = graph_for(loaded.map, GridOptions(costs="octile"))
    whole = AStar(graph, graph.node(*loaded.start), [graph.node(*loaded.goal)])
    whole.run()
    sliced = AStar(graph, graph.node(*loaded.start), [graph.node(*loaded.goal)])
    steps = 0
    while sliced.step(3) == "running":
        steps += 1
        assert sliced.expanded == 3 * steps
    assert sliced.status == whole.status == "found"
    assert sliced.path == whole.path and sliced.cost == whole.cost and sliced.expanded == whole.expanded


def test_max_expansions_ends_the_search_and_cancel_stops_it():
    tilemap = arcstar.TileMap.empty(200, 200)
    tilemap.terrain[:-1, 100] = 1  # a wall with its only gap at the far end: a long search
    tilemap.touch()
    capped = arcstar.plan(tilemap, (0, 0), (199, 0), max_expansions=500)
    assert capped.status == "budget_exhausted" and capped.expanded == 500 and capped.path == []
    job = arcstar.PlanJob(tilemap, (0, 0), (199, 0))
    job.step(10)
    job.cancel()
    assert job.done and job.result().status == "cancelled"
    assert job.step(10) == "cancelled"


def test_unreachable_goal_fails_fast_and_the_engine_would_search_its_island():
    tilemap = arcstar.TileMap.empty(30, 30)
    tilemap.terrain[:, 15] = 1
    tilemap.touch()
    for method in arcstar.planner.METHODS:  # islands answer before any search
        result = arcstar.plan(tilemap, (0, 0), (29, 29), method=method)
        assert result.status == "unreachable" and result.cost is None and result.expanded == 0
        assert "another island" in result.message
    graph = graph_for(tilemap, GridOptions())
    engine = AStar(graph, graph.node(0, 0), [graph.node(29, 29)])
    assert engine.run() == "no_path" and engine.expanded == 15 * 30  # what fail-fast saves


def test_repeated_searches_reuse_node_arrays_without_stale_data():
    loaded = arcstar.parse_ascii("S....#....\n.###.#.##.\n...#...#.E\n")
    first = arcstar.plan(loaded.map, loaded.start, loaded.goal, heuristic="octile")
    for _ in range(5):  # many generations on the same pooled arrays
        again = arcstar.plan(loaded.map, loaded.start, loaded.goal, heuristic="octile")
        assert (again.path, again.cost, again.expanded) == (first.path, first.cost, first.expanded)
    # interleaved searches each keep their own arrays
    a = arcstar.PlanJob(loaded.map, loaded.start, loaded.goal, arcstar.PlanOptions.from_dict({"heuristic": "octile"}))
    b = arcstar.PlanJob(loaded.map, loaded.goal, loaded.start, arcstar.PlanOptions.from_dict({"heuristic": "octile"}))
    while not (a.done and b.done):
        a.step(1)
        b.step(1)
    assert a.result().cost == b.result().cost == first.cost
    assert b.result().path == list(reversed(a.result().path)) or b.result().cost == a.result().cost


def test_start_equal_to_goal():
    tilemap = arcstar.TileMap.empty(5, 5)
    result = arcstar.plan(tilemap, (2, 2), (2, 2))
    assert result.status == "found" and result.path == [(2, 2)] and result.cost == 0


def test_edits_after_a_search_starts_do_not_reach_it():
    tilemap = arcstar.TileMap.empty(20, 1)
    job = arcstar.PlanJob(tilemap, (0, 0), (19, 0))
    job.step(1)
    tilemap.set_tile(10, 0, 1)  # the map changes mid-search; the search keeps its snapshot
    while job.step(5) == "running":
        pass
    assert job.result().status == "found"
    assert arcstar.plan(tilemap, (0, 0), (19, 0)).status == "unreachable"


@pytest.mark.parametrize("start,goal,msg", [
    ((-1, 0), (1, 1), "off the"), ((0, 0), (9, 9), "off the"), ((1, 0), (0, 0), "blocked"),
    ((0, 0), (1, 0), "blocked"), ("0,0", (2, 2), r"\[x, y\]"), ((0.5, 0), (2, 2), "pair of integers"),
    ((0, 0, 0, 0), (2, 2), r"\[x, y\]"), ((math.nan, 0), (2, 2), "pair of integers"),
    ((True, 0), (2, 2), "pair of integers"), (None, (2, 2), r"\[x, y\]"), ((0, 0, "n"), (2, 2), "heading"),
])
def test_bad_start_or_goal_is_a_clear_error(start, goal, msg):
    tilemap = arcstar.TileMap.empty(3, 3)
    tilemap.set_tile(1, 0, 1)
    with pytest.raises(ValueError, match=msg):
        arcstar.plan(tilemap, start, goal)


@pytest.mark.parametrize("options,msg", [
    ({"heuristic": "magic"}, "heuristic"), ({"weight": -1}, "weight"), ({"weight": math.nan}, "weight"),
    ({"neighbours": 6}, "neighbours"), ({"diagonal": "sometimes"}, "diagonal"), ({"costs": "free"}, "costs"),
    ({"stop": "whenever"}, "stop"), ({"max_expansions": 0}, "max_expansions"), ({"method": "bfs"}, "method"),
    ({"colour": "red"}, "unknown option"), ({"trace": "yes"}, "trace"),
])
def test_bad_options_are_a_clear_error(options, msg):
    with pytest.raises(ValueError, match=msg):
        arcstar.plan(arcstar.TileMap.empty(3, 3), (0, 0), (2, 2), **options)


def test_a_zero_step_budget_is_refused():
    job = arcstar.PlanJob(arcstar.TileMap.empty(3, 3), (0, 0), (2, 2))
    for bad in (0, -1, 1.5, None):
        with pytest.raises(ValueError, match="budget"):
            job.step(bad)
