"""Directional A* (arcstar.directional): tables, heuristic, search and plan(), checked against
code independent of the search (the exact swept-disc test, an exhaustive Dijkstra)."""

from __future__ import annotations

import heapq
import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arcstar
from arcstar.collision.sweep_cells import swept_cells
from arcstar.collision.swept import path_clear
from arcstar.directional.graph import DirectionalGraph
from arcstar.directional.heuristic import curve_table, dubins_lengths
from arcstar.directional.lattice import Neighbourhood, UnitKind, best_curve, dir_table, heading_angle
from arcstar.directional.tables import build_table, centre_cells
from arcstar.geometry.curves import dubins, dubins_length, reeds_shepp
from arcstar.geometry.primitives import Pose
from arcstar.maps.tilemap import TileMap
from arcstar.outcomes import BadInput
from arcstar.search.engine import AStar

FIGURE_12 = """\
............
............
............
............
.S...#.#..G.
.##.........
............
............
............
"""


def test_dir_table_is_pinters():
    assert [len(dir_table(n)) for n in (1, 2, 3)] == [8, 24, 48]
    assert dir_table(3)[-1] != dir_table(3)[0] and (3, 3) in dir_table(3)


def test_swept_cells_is_the_exact_test():
    """Tile by tile, a tile is listed exactly when path_clear fails with only it blocked."""
    rng = random.Random(1)
    for trial in range(12):
        w, r = rng.choice([0.3, 1.0, 1.7]), rng.choice([0.6, 1.5, 3.0])
        p0 = Pose(10.5 + rng.uniform(-.5, .5), 10.5 + rng.uniform(-.5, .5), rng.uniform(-3, 3))
        p1 = Pose(10.5 + rng.randint(-3, 3), 10.5 + rng.randint(-3, 3), rng.randint(0, 7) * math.pi / 4)
        path = reeds_shepp(p0, p1, r) if trial % 2 else dubins(p0, p1, r)
        cells = swept_cells(path, w)
        for i in range(21):
            for j in range(21):
                b = np.zeros((21, 21), bool)
                b[j, i] = True
                assert (not path_clear(TileMap.from_blocked(b), path, w)) == ((i, j) in cells)


@pytest.mark.parametrize("kind", [UnitKind(1.3, 1.5, Neighbourhood.D24), UnitKind(0.6, 0.8, Neighbourhood.D8, True)])
def test_table_masks_are_their_curves(kind):
    """Every entry (a quarter computed, the rest by symmetry) ends where its key says, and its
    mask is exactly the tiles its own curve touches."""
    table = build_table(kind)
    assert table.computed * 7 < len(table.entries)  # only about one octant was computed
    for key, ent in table.entries.items():
        path = ent.move.path(0.5, 0.5)
        end = path.end_pose()
        assert math.isclose(end.x, key[1] + 0.5, abs_tol=1e-9) and math.isclose(end.y, key[2] + 0.5, abs_tol=1e-9)
        assert abs(math.remainder(end.heading - heading_angle(key[3]), 2 * math.pi)) < 1e-9
        assert swept_cells(path, kind.width) == table.cells(key)
        assert math.isclose(ent.move.cost, sum(centre_cells(path, kind.reverse_penalty).values()), rel_tol=1e-9)


def test_curve_table_is_dubins():
    rng = random.Random(3)
    table, reach = curve_table(1.5), 40
    for _ in range(200):
        h, e, ox, oy = rng.randint(0, 7), rng.randint(0, 7), rng.randint(-6, 6), rng.randint(-6, 6)
        ref = dubins_length((0, 0, h * math.pi / 4), (ox, oy, e * math.pi / 4), 1.5)
        assert math.isclose(table[h, e, oy + reach, ox + reach], ref, abs_tol=1e-7)
    v = dubins_lengths(np.array([-3.0]), np.array([-3.0]), np.array([math.pi]), np.array([math.pi]), 1.5)
    assert math.isclose(v[0], dubins_length((0, 0, math.pi), (-3, -3, math.pi), 1.5))


def _reference(m: TileMap, kind: UnitKind, start: Pose, goal: tuple[int, int], headings: set[int],
               turn_penalty: float = 0.0):
    """An exhaustive Dijkstra over the same lattice, built independently: every move's curve
    recomputed, tested with path_clear on the map, costed by its centreline per tile (plus
    ``turn_penalty`` per radian its arcs turn)."""
    w, h = m.width, m.height
    offsets = dir_table(kind.neighbourhood.value)
    costs = m.cost_grid
    edges: dict[object, list] = {}

    def moves(state):
        if state not in edges:
            p = start if state == "start" else Pose(state[0] + .5, state[1] + .5, heading_angle(state[2]))
            sx, sy = (math.floor(p.x), math.floor(p.y))
            out = []
            for dx, dy in offsets:
                x, y = sx + dx, sy + dy
                if not (0 <= x < w and 0 <= y < h) or m.blocked[y, x]:
                    continue
                for e in range(8):
                    path = best_curve(p, Pose(x + .5, y + .5, heading_angle(e)), kind)
                    if path_clear(m, path, kind.width):
                        c = sum(costs[cy, cx] * v for (cx, cy), v in centre_cells(path, 1.0).items())
                        c += turn_penalty * sum(abs(seg.sweep) for seg in path.segments if hasattr(seg, "sweep"))
                        out.append(((x, y, e), c))
            edges[state] = out
        return edges[state]

    dist = {"start": 0.0}
    heap = [(0.0, 0, "start")]
    n = 0
    while heap:
        d, _, s = heapq.heappop(heap)
        if d > dist[s]:
            continue
        if s != "start" and (s[0], s[1]) == goal and s[2] in headings:
            return d, dist
        for t, c in moves(s):
            if d + c < dist.get(t, math.inf):
                dist[t] = d + c
                n += 1
                heapq.heappush(heap, (d + c, n, t))
    return None, dist


@pytest.mark.parametrize("art,goal,headings", [
    ("........\n...#....\n...#..#.\n........\n.#......\n", (6, 3), set(range(8))),
    ("........\n..::....\n..::.#..\n.....#..\n........\n", (7, 1), {2}),
])
def test_directional24_cost_is_the_exhaustive_reference(art, goal, headings):
    m = arcstar.parse_ascii(art).map
    kind = UnitKind(0.8, 1.0, Neighbourhood.D24)
    start = Pose(0.5, 0.5, 0.0)
    ref, _ = _reference(m, kind, start, goal, headings)
    g = DirectionalGraph(m, kind, start, goal, headings)
    s = AStar(g, g.start_node, g.goal_nodes, heuristic="directional")
    s.run()
    assert ref is not None and s.cost is not None and math.isclose(s.cost, ref, rel_tol=1e-9)
    assert path_clear(m, g.path_of(s.path_nodes), kind.width)


def test_heuristic_is_admissible_against_exhaustive_search():
    """h(state) <= the least cost from the state to the goal, for every reachable state
    (the cost-to-go from an exhaustive Dijkstra started at that state)."""
    m = arcstar.parse_ascii("......\n..#...\n......\n....#.\n......\n").map
    kind = UnitKind(0.8, 1.0, Neighbourhood.D24)
    goal = (5, 4)
    g = DirectionalGraph(m, kind, Pose(0.5, 0.5, 0.0), goal, range(8))
    h_of = g.heuristic(g.goal_nodes, "directional")
    rng = random.Random(4)
    open_tiles = [(x, y) for y in range(m.height) for x in range(m.width) if not m.blocked[y, x]]
    for x, y in rng.sample(open_tiles, 8):
        e = rng.randrange(8)
        cost, _ = _reference(m, kind, Pose(x + .5, y + .5, heading_angle(e)), goal, set(range(8)))
        node = (y * m.width + x) * 8 + e
        if cost is not None and (x, y) != goal:
            assert h_of(node) <= cost + 1e-9


def test_figure_12_directional8_fails_directional24_succeeds():
    """Pinter's Figure 12: a ship with a wide turning radius (2 tiles) weaving between blockers;
    Directional-8's one-tile hops cannot, a curve to a tile two away can."""
    loaded = arcstar.parse_ascii(FIGURE_12)
    opts = {"width": 0.8, "radius": 2.0}
    r8 = arcstar.plan(loaded.map, (*loaded.start, 0.0), loaded.goal, method="directional8", **opts)
    r24 = arcstar.plan(loaded.map, (*loaded.start, 0.0), loaded.goal, method="directional24", **opts)
    assert r8.status == "no_path"
    assert r24.status == "found" and r24.legal
    assert path_clear(loaded.map, r24.segments, 0.8)


@pytest.mark.parametrize("method", ["directional8", "directional24", "directional48"])
def test_plan_returns_legal_segments(method):
    loaded = arcstar.parse_ascii("...............\n..S....#.......\n.......#....G..\n.......#.......\n"
                                 "...............\n...............\n")
    r = arcstar.plan(loaded.map, (*loaded.start, 0.0), (*loaded.goal, math.pi / 2), method=method,
                     width=1.0, radius=1.0)
    assert r.status == "found" and r.legal and r.method == method
    assert path_clear(loaded.map, r.segments, 1.0)
    end = r.segments.end_pose()
    assert math.isclose(end.heading, math.pi / 2, abs_tol=1e-9) and (end.x, end.y) == (12.5, 2.5)
    assert r.to_json()["legal"] is True


def test_reversing_and_islands_and_slices():
    m = arcstar.parse_ascii(".........\n.........\n....#....\n.........\n").map
    r = arcstar.plan(m, (1, 1, 0.0), (7, 1, math.pi), method="directional24", width=0.8, radius=1.5, can_reverse=True)
    assert r.status == "found" and r.legal
    walled = arcstar.parse_ascii("....#....\n....#....\n....#....\n").map
    r = arcstar.plan(walled, (1, 1), (7, 1), method="directional24", width=0.8, radius=1.0)
    assert r.status == "unreachable" and r.expanded == 0
    job = arcstar.PlanJob(m, (1, 1, 0.0), (7, 3), arcstar.PlanOptions.from_dict(
        {"method": "directional24", "width": 0.8, "radius": 1.0}))
    job.step(1)
    job.cancel()
    assert job.result().status == "cancelled"
    r = arcstar.plan(m, (1, 1, 0.0), (7, 3), method="directional24", width=0.8, radius=1.0, max_expansions=1)
    assert r.status == "budget_exhausted"


@pytest.mark.parametrize("options,field", [
    ({"method": "directional24", "radius": -1.0}, "radius"),
    ({"method": "directional99"}, "method"),
    ({"method": "directional24", "turning": "smooth"}, "turning"),
])
def test_bad_options_name_the_field(options, field):
    m = TileMap.empty(8, 8)
    with pytest.raises(BadInput) as err:
        arcstar.plan(m, (1, 1), (6, 6), **options)
    assert err.value.field == field


def test_bad_headings_name_the_field():
    m = TileMap.empty(8, 8)
    with pytest.raises(BadInput) as err:
        arcstar.plan(m, (1, 1, math.nan), (6, 6), method="directional24")
    assert err.value.field == "start"
    with pytest.raises(BadInput) as err:
        DirectionalGraph(m, UnitKind(1.0, 1.0, Neighbourhood.D24), Pose(1.5, 1.5, 0.0), (6, 6), [])
    assert err.value.field == "goal_headings"
    with pytest.raises(BadInput) as err:
        UnitKind(1.0, math.nan, Neighbourhood.D8)
    assert err.value.field == "radius"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 6)), max_size=12), st.integers(0, 7))
def test_random_maps_legal_and_48_finds_when_24_does(walls, heading):
    b = np.zeros((7, 10), bool)
    for x, y in walls:
        b[y, x] = True
    b[1, 1] = b[5, 8] = False
    m = TileMap.from_blocked(b)
    opts = {"width": 0.7, "radius": 1.0}
    try:
        r24 = arcstar.plan(m, (1, 1, heading * math.pi / 4), (8, 5), method="directional24", **opts)
    except BadInput:
        return  # a start or goal the unit does not fit on
    r48 = arcstar.plan(m, (1, 1, heading * math.pi / 4), (8, 5), method="directional48", **opts)
    for r in (r24, r48):
        assert r.status != "not_legal"
        if r.status == "found":
            assert path_clear(m, r.segments, 0.7)
    if r24.status == "found":
        assert r48.status == "found"
