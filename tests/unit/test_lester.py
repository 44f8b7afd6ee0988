"""Lester's worked example ("A* Pathfinding for Beginners", Figures 3 to 7), as a test.

His map: the start, a wall three tiles tall, the target three tiles to the right of the tile
beside the start. Costs 10/14, Manhattan x 10, no corner cutting, stop when the target closes.
"""

import arcstar
from arcstar.search.grid import GridOptions, graph_for
from reference import check_path, dijkstra, path_cost

LESTER = """
.......
...#...
.S.#.E.
...#...
.......
"""


def run():
    loaded = arcstar.parse_ascii(LESTER)
    result = arcstar.plan(loaded.map, loaded.start, loaded.goal, trace=True)
    graph = graph_for(loaded.map, GridOptions())
    return loaded, result, graph


def scores(result, graph, x, y):
    node = result.trace.nodes[graph.node(x, y)]
    return node["f"], node["g"], node["h"], graph.tile(node["parent"])


def test_first_step_scores_match_figure_3():
    loaded, result, graph = run()
    sx, sy = loaded.start
    # G is 10 straight and 14 diagonal next to the start
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if (dx, dy) != (0, 0):
                _f, g, _h, parent = scores(result, graph, sx + dx, sy + dy)
                assert parent == (sx, sy)
                assert g == (14 if dx and dy else 10)
    # the tile right of the start: G 10, H 30, F 40; the one above it: H 40
    assert scores(result, graph, sx + 1, sy)[:3] == (40, 10, 30)
    assert scores(result, graph, sx + 1, sy - 1)[2] == 40
    # the two 54s (above-right and below-right of the start)
    assert scores(result, graph, sx + 1, sy - 1)[0] == 54
    assert scores(result, graph, sx + 1, sy + 1)[0] == 54


def test_tile_right_of_start_is_expanded_first():
    loaded, result, graph = run()
    order = [graph.tile(n) for n in result.trace.expanded]
    assert order[0] == loaded.start
    assert order[1] == (loaded.start[0] + 1, loaded.start[1])  # lowest F, 40
    assert set(order[2:4]) == {(2, 1), (2, 3)}  # then the two 54s


def test_reparented_tile_two_below_the_start():
    loaded, result, graph = run()
    sx, sy = loaded.start
    below2 = graph.node(sx, sy + 2)
    events = [e for e in result.trace.reparented if e[0] == below2]
    assert events, "the tile two below the start was never re-parented"
    _node, old_g, new_g, old_parent, new_parent = events[0]
    assert (old_g, new_g) == (28, 20)
    assert graph.tile(old_parent) == (sx + 1, sy + 1)  # first: up and to the right
    assert graph.tile(new_parent) == (sx, sy + 1)  # then: the square just above it
    assert scores(result, graph, sx, sy + 2)[1] == 20


def test_path_goes_around_the_wall_and_is_least_cost():
    loaded, result, _graph = run()
    assert result.status == "found"
    blocked = loaded.map.blocked
    check_path(blocked, result.path, loaded.start, loaded.goal)
    assert not any(blocked[y, x] for x, y in result.path)
    best = dijkstra(loaded.map.cost_grid, loaded.start, loaded.goal, 10, 14)
    assert result.cost == best == path_cost(loaded.map.cost_grid, result.path, 10, 14)
    assert result.cost == 68
