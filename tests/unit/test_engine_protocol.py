"""One engine over any graph: the grid-specialised loop and the generic loop over the Graph
protocol expand the same nodes in the same order and find the same costs; the trace and the
explored mask come from the protocol too."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arcstar
from arcstar.maps.mapio import parse_ascii
from arcstar.maps.tilemap import TileMap
from arcstar.search.engine import AStar, steps_length
from arcstar.search.graph import CellGraph, Graph
from arcstar.search.grid import GridOptions, graph_for
from test_search import terrain_maps


def _run(graph, start, goals, fast, **kw):
    s = AStar(graph, start, goals, trace=True, fast=fast, **kw)
    assert (s._grid is not None) == fast  # the loop asked for is the loop that runs
    s.run(slice_size=7)  # small slices: stepping must not change the search
    return s


@settings(max_examples=120, deadline=None)
@given(terrain_maps(max_side=12), st.sampled_from(["octile", "manhattan", "euclidean", "chebyshev", "none"]),
       st.sampled_from([4, 8]), st.sampled_from(["never", "both", "either", "always"]),
       st.sampled_from(["lester", "octile"]), st.sampled_from([1.0, 1.5]), st.sampled_from(["closed", "reached"]),
       st.integers(1, 3))
def test_grid_loop_and_generic_loop_expand_the_same_nodes(case, heuristic, neighbours, diagonal, costs, weight,
                                                           stop, n_goals):
    tilemap, start, goal = case
    graph = graph_for(tilemap, GridOptions(neighbours, diagonal, costs))
    s, g = graph.node(*start), graph.node(*goal)
    open_nodes = [n for n in range(graph.node_count) if graph.usable(n)]
    goals = [g] + open_nodes[::max(1, len(open_nodes) // n_goals)][:n_goals - 1]
    kw = dict(heuristic=heuristic, weight=weight, stop=stop)
    fast, generic = _run(graph, s, goals, True, **kw), _run(graph, s, goals, False, **kw)
    assert fast.status == generic.status
    assert fast.trace.expanded == generic.trace.expanded
    assert fast.trace.updates == generic.trace.updates
    assert fast.cost == generic.cost and fast.path == generic.path
    assert fast.trace.explored(graph) == generic.trace.explored(graph)


def test_grid_graph_implements_the_protocol():
    graph = graph_for(parse_ascii("...\n.#.\n...\n").map, GridOptions())
    assert isinstance(graph, Graph) and isinstance(graph, CellGraph)
    centre = graph.node(0, 0)
    assert graph.place(centre) == (0.5, 0.5)
    steps = dict(graph.successors(centre))
    assert steps == {graph.node(1, 0): 10.0, graph.node(0, 1): 10.0}  # the diagonal would cut the wall's corner
    assert not graph.usable(graph.node(1, 1)) and graph.cell_count == 9
    with pytest.raises(ValueError, match="heuristic"):
        graph.heuristic([centre], "bogus")


@settings(max_examples=120, deadline=None)
@given(terrain_maps(max_side=12), st.sampled_from(["octile", "manhattan", "euclidean", "chebyshev", "none"]),
       st.sampled_from([4, 8]), st.sampled_from(["never", "both", "either", "always"]),
       st.sampled_from(["lester", "octile"]), st.sampled_from([1.0, 1.5]), st.integers(1, 3),
       st.sampled_from([None, 0, 2, 3]), st.integers(1, 40))
def test_untraced_grid_loops_expand_the_same_nodes_as_the_generic_loop(case, heuristic, neighbours, diagonal, costs,
                                                                        weight, n_goals, fill, cut):
    # without a trace the grid loops run as in production: on uniform step costs the leaner
    # loop (fill: every open tile that terrain code), else the grid loop; their closed lists
    # are the expansion order, to match the generic loop's trace
    tilemap, start, goal = case
    if fill is not None:
        terrain = tilemap.terrain.copy()
        terrain[np.isfinite(tilemap.cost_grid)] = fill
        tilemap = TileMap(terrain)
    graph = graph_for(tilemap, GridOptions(neighbours, diagonal, costs))
    assert (graph.uniform_steps is not None) == (fill is not None or len(set(tilemap.cost_grid[
        np.isfinite(tilemap.cost_grid)].tolist())) == 1)
    s, g = graph.node(*start), graph.node(*goal)
    open_nodes = [n for n in range(graph.node_count) if graph.usable(n)]
    goals = [g] + open_nodes[::max(1, len(open_nodes) // n_goals)][:n_goals - 1]
    kw = dict(heuristic=heuristic, weight=weight)
    fast = AStar(graph, s, goals, **kw)
    assert fast._loop == (AStar._expand_uniform if graph.uniform_steps is not None else AStar._expand_grid)
    fast.run(slice_size=5)
    generic = _run(graph, s, goals, False, **kw)
    assert fast.status == generic.status and fast.expanded == generic.expanded
    assert fast._closed == generic.trace.expanded
    assert fast.cost == generic.cost and fast.path == generic.path
    # the pooled g array is all inf again, after a finished search and after a cancelled one
    cancelled = AStar(graph, s, goals, **kw)
    cancelled.step(cut)
    cancelled.cancel()
    for search in (fast, cancelled):
        assert all(v == math.inf for v in search._ws.array("open_g", math.inf))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 3000), st.integers(0, 3000))
def test_steps_length_is_the_fsum_of_the_steps(straight, diagonal):
    assert steps_length(straight, diagonal) == math.fsum([1.0] * straight + [math.hypot(1.0, 1.0)] * diagonal)


@pytest.mark.parametrize("method", ["astar", "dijkstra", "jps", "jpsplus"])
def test_a_plans_length_is_the_fsum_of_its_steps(method):
    # the engines count their steps instead of measuring the tiles: the same number
    rng = np.random.default_rng(5)
    terrain = (rng.random((60, 90)) < 0.3).astype(np.uint8)  # code 1: wall
    terrain[0, 0] = terrain[-1, -1] = 0
    tilemap = TileMap(terrain)
    for start, goal in (((0, 0), (89, 59)), ((0, 0), (1, 1)), ((5, 5), (5, 5))):
        if terrain[start[1], start[0]] or terrain[goal[1], goal[0]]:
            continue
        r = arcstar.plan(tilemap, start, goal, method=method, costs="octile", heuristic="octile")
        if r.status != "found":
            continue
        exact = math.fsum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(r.path, r.path[1:]))
        assert r.length == exact
