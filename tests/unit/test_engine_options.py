"""Engine options from the articles: stop rules, open lists, turn penalty, nearest target."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arcstar
from reference import check_path, dijkstra
from test_search import terrain_maps


def test_river_crossing_goal_reached_is_not_goal_closed():
    # Lester: stopping when the target is first added to the open list "will almost always give
    # you the shortest path, but not always ... a river crossing". The goal is a ford (swamp, cost
    # x4) in the river: the diagonal step into it is found first but costs more.
    m = arcstar.parse_ascii("#.%\n..%\n..~\n").map
    start, goal = (0, 1), (2, 0)
    closed = arcstar.plan(m, start, goal, heuristic="octile", stop="closed")
    reached = arcstar.plan(m, start, goal, heuristic="octile", stop="reached")
    assert closed.cost == dijkstra(m.cost_grid, start, goal, 10, 14) == 60
    assert reached.cost == 66 > closed.cost
    assert closed.optimal and not reached.optimal
    for r in (closed, reached):
        check_path(m.blocked, r.path, start, goal)


@settings(max_examples=80, deadline=None)
@given(terrain_maps(max_side=10), st.sampled_from(["octile", "none", "manhattan"]))
def test_unsorted_open_list_finds_the_same_cost_as_the_heap(case, heuristic):
    tilemap, start, goal = case
    heap = arcstar.plan(tilemap, start, goal, heuristic=heuristic, open_list="heap")
    unsorted = arcstar.plan(tilemap, start, goal, heuristic=heuristic, open_list="unsorted")
    assert heap.status == unsorted.status
    if heap.status == "found":
        check_path(tilemap.blocked, unsorted.path, start, goal)
        if heuristic != "manhattan":  # same pop order rule, same optimum
            assert unsorted.cost == pytest.approx(heap.cost)
            assert unsorted.cost == pytest.approx(dijkstra(tilemap.cost_grid, start, goal, 10, 14))


def turns(path):
    dirs = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:])]
    return sum(1 for u, v in zip(dirs, dirs[1:]) if u != v)


def test_turn_penalty_gives_fewer_turns_for_the_same_length():
    # Pinter's Figure 2: A* zig-zags between obstacles (2a); a turn penalty keeps the length
    # but takes far fewer turns (2b).
    loaded = arcstar.parse_ascii("""
S......##
#...#....
..#......
.........
....#.#..
.#..#..#.
.....#...
........E
""")
    m = loaded.map
    plain = arcstar.plan(m, loaded.start, loaded.goal, heuristic="octile")
    smooth = arcstar.plan(m, loaded.start, loaded.goal, heuristic="octile", turn_penalty=5)
    check_path(m.blocked, smooth.path, loaded.start, loaded.goal)
    assert turns(smooth.path) + 5 <= turns(plain.path)
    assert smooth.length == pytest.approx(plain.length)
    assert plain.optimal and not smooth.optimal


@settings(max_examples=60, deadline=None)
@given(terrain_maps(max_side=10), st.floats(0, 50), st.sampled_from(["heap", "unsorted"]))
def test_turn_penalty_paths_are_legal(case, penalty, open_list):
    tilemap, start, goal = case
    r = arcstar.plan(tilemap, start, goal, heuristic="octile", turn_penalty=penalty, open_list=open_list)
    best = dijkstra(tilemap.cost_grid, start, goal, 10, 14)
    if best is None:
        assert r.status == "unreachable" and r.expanded == 0
    else:
        check_path(tilemap.blocked, r.path, start, goal)
        assert r.cost >= best - 1e-9


def test_nearest_target_is_the_cheapest_to_reach():
    loaded = arcstar.parse_ascii("""
S....#......
.###.#.####.
...#...#....
##.#####.##.
............
""")
    m = loaded.map
    targets = [(11, 0), (0, 4), (8, 2)]
    r = arcstar.nearest(m, loaded.start, targets)
    costs = {t: dijkstra(m.cost_grid, loaded.start, t, 10, 14) for t in targets}
    best = min(costs, key=costs.get)
    assert r.status == "found" and r.path[-1] == best and r.cost == costs[best]
    check_path(m.blocked, r.path, loaded.start, best)
    astar = arcstar.nearest(m, loaded.start, targets, method="astar", heuristic="octile")
    assert astar.cost == r.cost and astar.expanded <= r.expanded


def test_nearest_bad_targets():
    m = arcstar.TileMap.empty(4, 4)
    for bad in ([], "0,0", [[9, 9]], [[0, 0], "x"], 5):
        with pytest.raises(ValueError):
            arcstar.nearest(m, (0, 0), bad)


def test_unsorted_list_matches_heap_on_lesters_example():
    loaded = arcstar.parse_ascii(".......\n...#...\n.S.#.E.\n...#...\n.......\n")
    a = arcstar.plan(loaded.map, loaded.start, loaded.goal, trace=True)
    b = arcstar.plan(loaded.map, loaded.start, loaded.goal, trace=True, open_list="unsorted")
    assert a.path == b.path and a.trace.expanded == b.trace.expanded


def test_bad_engine_options():
    m = arcstar.TileMap.empty(3, 3)
    for opts, msg in (({"open_list": "stack"}, "open_list"), ({"turn_penalty": -1}, "turn_penalty"),
                      ({"turn_penalty": float("inf")}, "turn_penalty")):
        with pytest.raises(ValueError, match=msg):
            arcstar.plan(m, (0, 0), (2, 2), **opts)


def test_influence_layer_steers_the_path():
    m = arcstar.TileMap.empty(9, 5)
    plain = arcstar.plan(m, (0, 2), (8, 2), heuristic="octile")
    assert all(y == 2 for _x, y in plain.path)
    danger = np.zeros((5, 9))
    danger[1:4, 3:6] = 50  # an enemy tower's influence across the straight line
    m.set_influence(danger)
    steered = arcstar.plan(m, (0, 2), (8, 2), heuristic="octile")
    assert not any(danger[y, x] for x, y in steered.path)
    assert steered.cost == dijkstra(m.cost_grid, (0, 2), (8, 2), 10, 14, penalty=danger) == 96


@settings(max_examples=60, deadline=None)
@given(terrain_maps(max_side=9), st.data())
def test_influence_costs_are_least_cost(case, data):
    tilemap, start, goal = case
    penalty = np.array(data.draw(st.lists(st.sampled_from([0.0, 0.0, 3.0, 25.0]), min_size=tilemap.terrain.size,
                                          max_size=tilemap.terrain.size))).reshape(tilemap.terrain.shape)
    tilemap.set_influence(penalty)
    r = arcstar.plan(tilemap, start, goal, heuristic="octile")
    best = dijkstra(tilemap.cost_grid, start, goal, 10, 14, penalty=penalty)
    if best is None:
        assert r.status == "unreachable" and r.expanded == 0
    else:
        check_path(tilemap.blocked, r.path, start, goal)
        assert r.cost == pytest.approx(best)


def test_jps_is_chosen_only_where_it_is_valid_and_says_so():
    m = arcstar.parse_ascii("S.....\n.====.\n.....G\n").map  # a road: non-uniform terrain
    for method in ("jps", "jpsplus"):
        r = arcstar.plan(m, (0, 0), (5, 2), method=method)
        assert r.method == "astar" and "planned with astar instead" in r.message
        assert r.cost == dijkstra(m.cost_grid, (0, 0), (5, 2), 10, 14)  # octile default: still optimal
    uniform = arcstar.TileMap.empty(6, 3)
    r = arcstar.plan(uniform, (0, 0), (5, 2), method="jps")
    assert r.method == "jps" and r.message == "" and r.optimal
    with pytest.raises(ValueError, match="point unit"):
        arcstar.plan(uniform, (1, 1), (4, 1), method="jps", width=1.0)


@settings(max_examples=80, deadline=None)
@given(terrain_maps(max_side=10), st.sampled_from(["octile", "manhattan"]), st.sampled_from([4, 8]),
       st.floats(0.5, 3))
def test_inlined_heuristics_order_the_search_exactly_as_make_heuristic(case, heuristic, neighbours, weight):
    # the heap loop computes these two heuristics inline; the unsorted list calls make_heuristic:
    # with the same pop rule, the two must expand the same tiles in the same order
    tilemap, start, goal = case
    kw = dict(heuristic=heuristic, neighbours=neighbours, weight=weight, trace=True)
    a = arcstar.plan(tilemap, start, goal, open_list="heap", **kw)
    b = arcstar.plan(tilemap, start, goal, open_list="unsorted", **kw)
    assert a.status == b.status
    if a.status == "found":
        assert a.trace.expanded == b.trace.expanded and a.path == b.path
