"""Large maps: packed per-node tables, memory that returns after a map is swapped out.

Maps near the size limit (4096 x 4096) keep their per-node tables as packed arrays; these tests
force that representation on small maps (``COMPACT_NODES`` lowered) and check the searches are
unchanged, then check that nothing keeps a replaced map alive.
"""

from __future__ import annotations

import gc
import json
import tracemalloc
import weakref
from array import array

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arcstar
from arcstar.search import engine, graph
from arcstar.search.engine import AStar
from arcstar.search.grid import GridOptions, graph_for
from arcstar.service import Service
from test_search import terrain_maps


def _search(tilemap, start, goal, options, **kw):
    g = graph_for(tilemap, options)
    s = AStar(g, g.node(*start), [g.node(*goal)], **kw)
    s.run(slice_size=9)
    return g, s


@settings(max_examples=80, deadline=None)
@given(terrain_maps(max_side=14), st.sampled_from([4, 8]), st.sampled_from(["never", "both", "either", "always"]),
       st.sampled_from(["lester", "octile"]), st.booleans(), st.sampled_from([True, False]))
def test_packed_tables_search_exactly_as_lists(case, neighbours, diagonal, costs, trace, fast):
    tilemap, start, goal = case
    options = GridOptions(neighbours, diagonal, costs)
    lists, a = _search(tilemap, start, goal, options, trace=trace, fast=fast)
    packed_map = arcstar.TileMap(tilemap.terrain.copy())
    saved = graph.COMPACT_NODES
    graph.COMPACT_NODES = 0
    engine._POOL.clear()  # a pooled workspace of lists would hide the packed one
    try:
        packed, b = _search(packed_map, start, goal, options, trace=trace, fast=fast)
    finally:
        graph.COMPACT_NODES = saved
        engine._POOL.clear()
    assert isinstance(packed.xs, array) and isinstance(packed.straight_cost, array)
    assert isinstance(lists.xs, list)
    assert (a.status, a.cost, a.path, a.expanded) == (b.status, b.cost, b.path, b.expanded)
    if trace:
        assert a.trace.expanded == b.trace.expanded and a.trace.updates == b.trace.updates


def test_a_finished_search_holds_no_reference_cycle():
    # Without the garbage collector, a replaced map and its graph must be freed at once: on a
    # 4096 x 4096 map they are a gigabyte, and the collector runs when it likes.
    gc.disable()
    try:
        tilemap = arcstar.TileMap(np.zeros((40, 40), dtype=np.uint8))
        result = arcstar.plan(tilemap, (1, 1), (38, 30), trace=True)
        assert result.status == "found"
        graphs = [weakref.ref(v) for k, v in tilemap._cache.items() if k.startswith("graph:")]
        assert graphs
        del tilemap, result
        assert all(ref() is None for ref in graphs)
    finally:
        gc.enable()


def _plan_to_end(svc: Service, n: int, version: int) -> dict:
    msg = {"type": "plan", "id": version, "map": {"width": n, "height": n, "version": version},
           "start": [1, 1], "goal": [n - 2, n - 3], "options": {"method": "astar"}}
    assert json.loads(svc.handle(json.dumps(msg), np.zeros(n * n, dtype=np.uint8)))["type"] == "started"
    while True:
        answer = json.loads(svc.handle(json.dumps({"type": "step", "id": version, "budget_ms": 50})))
        if answer["type"] != "progress":
            return answer


@pytest.mark.parametrize("small, large", [(1500, 2100)])
def test_memory_returns_to_its_level_after_swapping_maps_back(small, large):
    # sizes above COMPACT_NODES: the packed tables of the lab's large maps
    assert small * small > graph.COMPACT_NODES
    svc = Service()
    gc.collect()
    tracemalloc.start()
    try:
        levels = []
        for version, n in enumerate([small, large, small, large, small], start=1):
            answer = _plan_to_end(svc, n, version)
            assert answer["type"] == "result" and answer["result"]["status"] == "found"
            levels.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    first_small, first_large = levels[0], levels[1]
    assert first_large > first_small * 1.5  # the large map really is held while it is current
    for later in levels[2::2]:
        assert later <= first_small * 1.1
    assert levels[3] <= first_large * 1.1
