"""One engine over any graph: the grid-specialised loop and the generic loop over the Graph
protocol expand the same nodes in the same order and find the same costs; the trace and the
explored mask come from the protocol too."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_search import terrain_maps

from arcstar.maps.mapio import parse_ascii
from arcstar.search.engine import AStar
from arcstar.search.graph import CellGraph, Graph
from arcstar.search.grid import GridOptions, graph_for


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
