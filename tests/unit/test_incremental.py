"""D* Lite for fog of war: after every discovery its re-plan costs what a fresh A* on the same
known map costs, its path is legal on that map (checked by reference code), and it re-plans in
slices, cancels and resumes like every search."""

import math
import struct
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arcstar
from arcstar.outcomes import BadInput, Status
from arcstar.search.engine import AStar
from arcstar.search.grid import GridGraph, GridOptions
from arcstar.search.incremental import IncrementalPlanner, StepCosts
from reference import check_path, path_cost

GROUND, WALL = 0, 1


def fresh_astar(known, tile, goal, options):
    """A fresh A* on a freshly built graph of the known map: (cost or None)."""
    graph = GridGraph(known, options)
    search = AStar(graph, graph.node(*tile), [graph.node(*goal)], heuristic="octile")
    search.run()
    return search.cost if search.status == Status.FOUND else None


def reveal(true_map, known, at, radius):
    """Copy the true terrain within ``radius`` (between tile centres) of ``at`` into the known
    map; the tiles whose terrain changed."""
    x0, y0 = at
    changed = []
    r = int(math.ceil(radius))
    for y in range(max(0, y0 - r), min(true_map.height, y0 + r + 1)):
        for x in range(max(0, x0 - r), min(true_map.width, x0 + r + 1)):
            if math.hypot(x - x0, y - y0) <= radius and known.terrain[y, x] != true_map.terrain[y, x]:
                known.set_tile(x, y, int(true_map.terrain[y, x]))
                changed.append((x, y))
    return changed


def check_against_fresh(planner, known, tile, goal, options):
    """The planner's answer equals a fresh A*'s cost and its path is legal on the known map."""
    path = planner.plan()
    expected = fresh_astar(known, tile, goal, options)
    if expected is None:
        assert path is None and planner.status == Status.NO_PATH
        return None
    assert planner.status == Status.FOUND and path is not None
    check_path(known.blocked, path, tile, goal, diagonal=options.diagonal, neighbours=options.neighbours)
    straight, diagonal = options.units
    cost = path_cost(known.cost_grid, path, straight, diagonal)
    assert cost == pytest.approx(expected, rel=1e-9, abs=1e-9)
    assert planner.cost == pytest.approx(expected, rel=1e-9, abs=1e-9)
    return path


@st.composite
def fog_cases(draw):
    w = draw(st.integers(3, 16))
    h = draw(st.integers(3, 16))
    codes = draw(st.lists(st.sampled_from([0, 0, 0, 0, 1, 1, 1, 3, 4, 2]), min_size=w * h, max_size=w * h))
    terrain = np.array(codes, dtype=np.uint8).reshape(h, w)
    cells = [(x, y) for y in range(h) for x in range(w)]
    start, goal = draw(st.sampled_from(cells)), draw(st.sampled_from(cells))
    terrain[start[1], start[0]] = terrain[goal[1], goal[0]] = GROUND
    return arcstar.TileMap(terrain), start, goal


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fog_cases(), st.sampled_from([1.5, 2.0, 3.5]), st.sampled_from([(8, "both"), (8, "either"), (4, "never")]),
       st.sampled_from(["lester", "octile"]), st.booleans())
def test_every_replan_matches_a_fresh_astar(case, radius, walk, costs, name_tiles):
    true_map, start, goal = case
    neighbours, diagonal = walk
    options = GridOptions(neighbours=neighbours, diagonal=diagonal, costs=costs)
    known = arcstar.TileMap.empty(true_map.width, true_map.height)  # unknown tiles: open ground
    planner = IncrementalPlanner(known, start, goal, options)
    tile = start
    changed = reveal(true_map, known, tile, radius)
    planner.update(changed if name_tiles else None)
    for _ in range(true_map.width * true_map.height * 2):
        path = check_against_fresh(planner, known, tile, goal, options)
        if path is None or tile == goal:
            break
        tile = path[1]  # within sight (radius >= 1.5), so truly open
        assert not true_map.is_blocked(*tile)
        planner.move_to(tile)
        changed = reveal(true_map, known, tile, radius)
        assert planner.update(changed if name_tiles else None) == len(changed)
    else:
        pytest.fail("the unit never arrived nor gave up")
    if tile == goal:
        assert planner.path() == [goal] and planner.cost == 0.0
    assert len(planner.replans) >= 1 and planner.total_expanded == sum(planner.replans) + (
        planner.expanded if planner.status == Status.RUNNING else 0)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fog_cases(), st.data(), st.sampled_from([(8, "both"), (4, "never")]), st.booleans())
def test_planners_sharing_step_costs_each_match_a_fresh_astar(case, data, walk, name_tiles):
    """Units of one team share the known map's step costs (``StepCosts``): each sees what any
    of them revealed, and every re-plan of each still costs what a fresh A* does. A third planner
    is made part way, on tables others have changed since."""
    true_map, start, goal = case
    neighbours, diagonal = walk
    options = GridOptions(neighbours=neighbours, diagonal=diagonal, costs="octile")
    known = arcstar.TileMap.empty(true_map.width, true_map.height)
    costs = StepCosts(known, options)
    open_tiles = [(x, y) for y in range(true_map.height) for x in range(true_map.width)
                  if not true_map.is_blocked(x, y)]
    other = data.draw(st.sampled_from(open_tiles))
    units = [[IncrementalPlanner(known, start, goal, options, costs=costs), start, goal, set()],
             [IncrementalPlanner(known, other, start, options, costs=costs), other, start, set()]]
    late = data.draw(st.integers(0, 6))
    for turn in range(true_map.width * true_map.height * 2):
        if turn == late:
            units.append([IncrementalPlanner(known, goal, other, options, costs=costs), goal, other, set()])
        moving = [u for u in units if u[1] != u[2]]
        if not moving:
            break
        unit = moving[turn % len(moving)]
        planner, tile, target, unseen = unit
        changed = reveal(true_map, known, tile, 1.5)
        for u in units:
            u[3].update(changed)  # what each planner has not looked at yet
        assert planner.update(changed if name_tiles else None) == len(unseen)
        unseen.clear()
        path = check_against_fresh(planner, known, tile, target, options)
        if path is None:
            unit[2] = tile  # no way: it stays
            continue
        unit[1] = path[1]  # within sight (1.5), so truly open
        planner.move_to(path[1])
    else:
        pytest.fail("the units never arrived nor gave up")


def test_step_costs_of_another_map_or_other_options_are_refused():
    known, other = arcstar.TileMap.empty(5, 5), arcstar.TileMap.empty(5, 5)
    costs = StepCosts(known, GridOptions())
    for call in (lambda: IncrementalPlanner(other, (0, 0), (4, 4), GridOptions(), costs=costs),
                 lambda: IncrementalPlanner(known, (0, 0), (4, 4), GridOptions(neighbours=4), costs=costs),
                 lambda: IncrementalPlanner(known, (0, 0), (4, 4), costs="tables")):
        with pytest.raises(BadInput) as err:
            call()
        assert err.value.field == "costs"
    with pytest.raises(BadInput) as err:
        StepCosts("map")
    assert err.value.field == "known"
    with pytest.raises(BadInput) as err:
        costs.refresh([(5, 0)])
    assert err.value.field == "tiles"


def test_a_dead_end_discovered_reroutes_with_fewer_expansions_than_fresh_searches():
    rows = ["..........",
            ".#######..",
            ".......#..",
            ".#######..",
            ".........."]
    true_map = arcstar.TileMap(np.array([[WALL if c == "#" else GROUND for c in r] for r in rows], np.uint8))
    known = arcstar.TileMap.empty(10, 5)
    options = GridOptions(costs="octile")
    planner = IncrementalPlanner(known, (0, 2), (9, 2), options)
    assert planner.plan()[:3] == [(0, 2), (1, 2), (2, 2)]  # straight into the corridor
    tile, walked = (0, 2), [(0, 2)]
    while tile != (9, 2):
        planner.update(reveal(true_map, known, tile, 1.5))
        path = check_against_fresh(planner, known, tile, (9, 2), options)
        tile = path[1]
        planner.move_to(tile)
        walked.append(tile)
    assert (6, 2) in walked and (1, 2) in walked[walked.index((6, 2)):]  # in, then back out


def test_start_equals_goal_and_no_path():
    known = arcstar.TileMap.empty(5, 5)
    planner = IncrementalPlanner(known, (2, 2), (2, 2))
    assert planner.plan() == [(2, 2)] and planner.cost == 0.0 and planner.status == Status.FOUND
    walled = arcstar.TileMap.from_blocked(np.array([[0, 1, 0], [1, 1, 0], [0, 0, 0]], bool))
    planner = IncrementalPlanner(walled, (0, 0), (2, 2))
    assert planner.plan() is None and planner.status == Status.NO_PATH and planner.cost is None
    # a goal that a discovery walls in: no path, then the wall is known wrong and it comes back
    known = arcstar.TileMap.empty(6, 6)
    planner = IncrementalPlanner(known, (0, 0), (4, 4))
    assert planner.plan() is not None
    ring = [(x, y) for x in (3, 4, 5) for y in (3, 4, 5) if (x, y) != (4, 4)]
    for x, y in ring:
        known.set_tile(x, y, WALL)
    planner.update(ring)
    assert planner.plan() is None and planner.status == Status.NO_PATH
    known.set_tile(3, 3, GROUND)
    planner.update([(3, 3)])
    check_against_fresh(planner, known, (0, 0), (4, 4), GridOptions())


def test_timesliced_cancelled_and_budgeted_replans_end_the_same():
    rng = np.random.default_rng(5)
    true_map = arcstar.TileMap.from_blocked(rng.random((40, 40)) < 0.25)
    for t in ((1, 1), (38, 38)):
        true_map.set_tile(*t, GROUND)
    known = arcstar.TileMap.empty(40, 40)
    sliced = IncrementalPlanner(known, (1, 1), (38, 38))
    budgeted = IncrementalPlanner(known, (1, 1), (38, 38), max_expansions=7)
    whole = IncrementalPlanner(known, (1, 1), (38, 38))
    whole.plan()
    for planner in (sliced, budgeted):
        assert planner.step(3) == Status.RUNNING and planner.expanded == 3
    sliced.cancel()
    assert sliced.status == Status.CANCELLED and sliced.step(5) == Status.CANCELLED
    known.terrain[:] = true_map.terrain
    known.touch()
    for planner in (whole, sliced, budgeted):
        planner.update()
    while sliced.step(5) == Status.RUNNING:
        assert sliced.expanded % 5 == 0
    plans = 0
    while budgeted.plan() is None:
        assert budgeted.status == Status.BUDGET_EXHAUSTED and budgeted.expanded == 7
        plans += 1
    assert plans > 1
    path = whole.plan()
    assert sliced.path() == path and budgeted.path() == path
    assert sliced.cost == whole.cost == budgeted.cost == fresh_astar(known, (1, 1), (38, 38), GridOptions())


def test_a_cheaper_terrain_discovered_restarts_the_search():
    known = arcstar.TileMap(np.full((6, 12), 3, np.uint8))  # sand everywhere: H scaled by 2
    planner = IncrementalPlanner(known, (0, 0), (11, 5), GridOptions(costs="octile"))
    planner.plan()
    road = [(x, 2) for x in range(12)]
    for x, y in road:
        known.set_tile(x, y, 2)  # road costs 0.5: H must drop to stay admissible
    planner.update(road)
    check_against_fresh(planner, known, (0, 0), (11, 5), GridOptions(costs="octile"))


@pytest.mark.parametrize(("call", "field"), [
    (lambda m: IncrementalPlanner("map", (0, 0), (1, 1)), "known"),
    (lambda m: IncrementalPlanner(m, (9, 0), (1, 1)), "start"),
    (lambda m: IncrementalPlanner(m, (0, 0), [1]), "goal"),
    (lambda m: IncrementalPlanner(m, (0, 0), (True, 1)), "goal"),
    (lambda m: IncrementalPlanner(m, (0, 0), (2, 2)), "goal"),  # a wall
    (lambda m: IncrementalPlanner(m, (0, 0), (1, 1), options={"neighbours": 8}), "options"),
    (lambda m: IncrementalPlanner(m, (0, 0), (1, 1), max_expansions=0), "max_expansions"),
    (lambda m: IncrementalPlanner(m, (0, 0), (1, 1)).move_to((2, 2)), "start"),
    (lambda m: IncrementalPlanner(m, (0, 0), (1, 1)).move_to((-1, 0)), "start"),
    (lambda m: IncrementalPlanner(m, (0, 0), (1, 1)).update([(0, 5)]), "tiles"),
    (lambda m: IncrementalPlanner(m, (0, 0), (1, 1)).step(0), "budget"),
])
def test_bad_input_names_the_field(call, field):
    tilemap = arcstar.TileMap.from_blocked(np.array([[0, 0, 0], [0, 0, 0], [0, 0, 1]], bool))
    with pytest.raises(BadInput) as err:
        call(tilemap)
    assert err.value.field == field


@pytest.mark.parametrize("seed", range(4))
def test_long_walks_where_sqrt2_sums_tie_in_the_last_bit(seed):
    """On larger open maps a wall found on a straight stretch of the path has the start's key up
    to rounding; every re-plan must still match a fresh A*."""
    rng = np.random.default_rng(seed)
    true_map = arcstar.TileMap.from_blocked(rng.random((60, 60)) < 0.2)
    start, goal = (1, 58), (58, 2)
    for t in (start, goal):
        true_map.set_tile(*t, GROUND)
    known = arcstar.TileMap.empty(60, 60)
    options = GridOptions(costs="octile")
    planner = IncrementalPlanner(known, start, goal, options)
    tile = start
    planner.update(reveal(true_map, known, tile, 5.0))
    while tile != goal:
        path = check_against_fresh(planner, known, tile, goal, options)
        if path is None:
            break
        tile = path[1]
        planner.move_to(tile)
        planner.update(reveal(true_map, known, tile, 5.0))


def test_planners_on_a_large_map_share_its_step_costs_and_hold_only_their_search():
    """Every unit under fog has a planner of its own. With step-cost tables the size of the map
    apiece (and a float object per tile), 20 units on a 1024 x 1024 map took 2.2 GB; one float
    per step cost made it 1.03 GB. Planners on a team's ``StepCosts`` hold neither: on 512 x 512
    (262,000 tiles) the tables take about 4.2 MB (two of 8-byte slots on 64-bit CPython, 4-byte
    in Pyodide), a planner made on them about a hundred bytes a node its searches touch."""
    n = 512
    rng = np.random.default_rng(3)
    grid = np.where(rng.random((n, n)) < 0.2, WALL, GROUND).astype(np.uint8)
    grid[1, 1] = grid[n - 2, n - 2] = grid[n // 2, n // 2] = GROUND
    known = arcstar.TileMap(grid)
    IncrementalPlanner(known, (1, 1), (n - 2, n - 2), GridOptions())  # what the tables share, made once
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        alone = IncrementalPlanner(known, (1, 1), (n - 2, n - 2), GridOptions())
        own = tracemalloc.get_traced_memory()[0] - before
        costs = StepCosts(known, GridOptions())
        before = tracemalloc.get_traced_memory()[0]
        shared = IncrementalPlanner(known, (n // 2, n // 2), (n // 2 + 3, n // 2), GridOptions(), costs=costs)
        path = shared.plan()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert alone.plan() is not None and path is not None
    slots = struct.calcsize("P") * (n + 2) ** 2  # a list the size of the padded map
    assert 1.8 * slots < own < 3.5 * slots, f"{own / 1e6:.1f} MB"  # its own two tables, one float per step cost
    assert held < 0.1e6, f"{held / 1e6:.3f} MB"  # a short plan touches a few nodes
