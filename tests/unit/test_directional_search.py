"""The specialised directional loop (``directional.search.DirectionalSearch``) against the engine's
generic loop over the same ``DirectionalGraph``: the same nodes expanded in the same order, the
same updates and the same cost, on random maps and options (as test_engine_protocol does for the
grid loops); and the table build's symmetry and caches."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arcstar
from arcstar.directional.graph import DirectionalGraph, lattice_node
from arcstar.directional.lattice import Neighbourhood, UnitKind
from arcstar.directional.search import DirectionalSearch
from arcstar.directional.tables import build_table
from arcstar.geometry.primitives import Pose
from arcstar.maps.tilemap import TileMap
from arcstar.search.engine import AStar


@st.composite
def lattice_cases(draw):
    w, h = draw(st.integers(5, 11)), draw(st.integers(4, 9))
    terrain = np.zeros((h, w), dtype=np.uint8)
    for x, y, code in draw(st.lists(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1),
                                              st.sampled_from([1, 1, 1, 3, 4])), max_size=w * h // 3)):
        terrain[y, x] = code  # 1: wall; 3, 4: costlier terrain (non-uniform maps)
    sx, sy = draw(st.integers(0, w - 1)), draw(st.integers(0, h - 1))
    gx, gy = draw(st.integers(0, w - 1)), draw(st.integers(0, h - 1))
    terrain[sy, sx] = terrain[gy, gx] = 0
    if draw(st.booleans()):
        terrain[terrain > 1] = 0  # uniform terrain: the bulk path
    on_lattice = draw(st.booleans())
    heading = draw(st.integers(0, 7)) * math.pi / 4 if on_lattice else draw(st.floats(-3.0, 3.0))
    start = Pose(sx + 0.5, sy + 0.5, heading)
    headings = draw(st.sets(st.integers(0, 7), min_size=1))
    return TileMap(terrain), start, (gx, gy), headings


KINDS = [UnitKind(0.8, 1.0, Neighbourhood.D8), UnitKind(0.7, 1.0, Neighbourhood.D24),
         UnitKind(1.0, 1.5, Neighbourhood.D24, can_reverse=True), UnitKind(0.6, 0.8, Neighbourhood.D48)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lattice_cases(), st.sampled_from(KINDS), st.sampled_from(["directional", "none"]), st.sampled_from([1.0, 1.5]),
       st.sampled_from(["closed", "reached"]), st.sampled_from([0.0, 0.7]), st.integers(1, 9))
def test_fast_loop_and_generic_loop_expand_the_same_nodes(case, kind, heuristic, weight, stop, turn, slice_size):
    tilemap, start, goal, headings = case
    graph = DirectionalGraph(tilemap, kind, start, goal, headings, turn_penalty=turn)
    fast = DirectionalSearch(graph, heuristic=heuristic, weight=weight, stop=stop, trace=True)
    fast.run(slice_size=slice_size)  # small slices: stepping must not change the search
    generic = AStar(graph, graph.start_node, graph.goal_nodes, heuristic=heuristic, weight=weight, stop=stop,
                    trace=True)
    generic.run()
    assert fast.status == generic.status and fast.expanded == generic.expanded
    assert fast.trace.expanded == generic.trace.expanded
    assert fast.trace.updates == generic.trace.updates
    assert fast.cost == generic.cost and fast.path_nodes == generic.path_nodes
    # untraced, as plans run it: the same expansions; the folded G list is all inf again (and
    # the H list all -1) after a finished search and after a cancelled one
    plain = DirectionalSearch(graph, heuristic=heuristic, weight=weight, stop=stop)
    plain.run()
    assert plain.expanded == fast.expanded and plain.cost == fast.cost
    cut = DirectionalSearch(graph, heuristic=heuristic, weight=weight, stop=stop)
    cut.step(slice_size)
    cut.cancel()
    for s in (plain, cut):
        assert all(v == math.inf for v in s._ws.array("directional_g", math.inf))
        assert all(v == -1.0 for v in s._ws.array("directional_h", -1.0))


def test_a_lattice_start_is_its_node_and_an_off_lattice_start_the_extra_one():
    m = TileMap.empty(6, 5)
    kind = UnitKind(1.0, 1.0, Neighbourhood.D24)
    on = DirectionalGraph(m, kind, Pose(2.5, 1.5, math.pi / 2), (4, 3), [0])
    assert on.start_node == (1 * 6 + 2) * 8 + 2 == lattice_node(on.start_pose, 6, 5)
    off = DirectionalGraph(m, kind, Pose(2.5, 1.5, 0.3), (4, 3), [0])
    assert off.start_node == off.off_lattice == 6 * 5 * 8
    assert lattice_node(Pose(2.6, 1.5, 0.0), 6, 5) == -1 and lattice_node(Pose(-0.5, 1.5, 0.0), 6, 5) == -1
    # the table's curve from a lattice state is the full computation from that pose: a start a
    # hair off the lattice (computed in full) costs the same to within that hair
    nearly = DirectionalGraph(m, kind, Pose(2.5, 1.5, math.pi / 2 + 1e-7), (4, 3), [0])
    costs = []
    for g in (on, nearly):
        s = DirectionalSearch(g)
        s.run()
        costs.append(s.cost)
    assert nearly.start_node == nearly.off_lattice and math.isclose(costs[0], costs[1], rel_tol=1e-6)

def test_table_build_reuses_curves_across_widths():
    a = build_table(UnitKind(1.0, 2.0, Neighbourhood.D24))
    b = build_table(UnitKind(1.6, 2.0, Neighbourhood.D24))
    key = (3, 1, -2, 5)
    assert a.entries[key].move == b.entries[key].move and a.entries[key].cost == b.entries[key].cost
    assert a.cells(key) <= b.cells(key) and a.reach <= b.reach  # a wider body touches more tiles


def test_heading_fans_fold_the_trace_per_tile():
    m = TileMap.empty(9, 6)
    kind = UnitKind(0.8, 1.0, Neighbourhood.D24)
    g = DirectionalGraph(m, kind, Pose(1.5, 1.5, 0.0), (7, 4), range(8))
    s = DirectionalSearch(g, trace=True)
    s.run()
    opened, closed = g.heading_fans(s.trace.expanded, s.trace.updates)
    assert len(opened) == len(closed) == 9 * 6
    for node in s.trace.expanded:
        assert closed[node >> 3] >> (node & 7) & 1 and opened[node >> 3] >> (node & 7) & 1
    assert sum(bin(b).count("1") for b in closed) == len(set(s.trace.expanded))
    assert closed[1 * 9 + 1] == 1  # the start: tile (1, 1) facing east, expanded first
    for trace in (True, False):
        job = arcstar.PlanJob(m, (1, 1, 0.0), (7, 4), arcstar.PlanOptions.from_dict(
            {"method": "directional24", "width": 0.8, "trace": trace}))
        while job.step(50) == "running":
            pass
        fans = job.search.fans()
        assert (fans is not None) == trace and job.result().trace is None
        if fans is not None:
            assert fans[1] == closed  # the plan's search is the same search
