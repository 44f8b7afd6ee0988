"""The service plans on hex maps and waypoint graphs (``map.kind``), as the lab sends them:
results checked against this file's own hex maths and Dijkstra, and hostile maps refused with
the field named and the service still answering."""

from __future__ import annotations

import heapq
import json
import math
import random

import numpy as np
import pytest

from arcstar.service import Service


def call(svc, msg, cells=None):
    return json.loads(svc.handle(json.dumps(msg), cells))


def run_to_end(svc, id_):
    for _ in range(100000):
        out = call(svc, {"type": "step", "id": id_, "budget_ms": 5})
        if out["type"] != "progress":
            return out
    raise AssertionError("search did not end")


# -- this test's own hex maths (Red Blob's odd-r / odd-q offsets) -------------------------
def to_axial(col, row, orientation):
    if orientation == "pointy":
        return col - (row - (row % 2)) // 2, row
    return col, row - (col - (col % 2)) // 2


def hex_dijkstra(grid, orientation, start, costs):
    """Least cost from the axial start to every open cell; a step costs the entered cell's cost."""
    h, w = grid.shape
    cell = {to_axial(c, r, orientation): (c, r) for r in range(h) for c in range(w)}
    best = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        d, (q, r) = heapq.heappop(heap)
        if d > best[(q, r)]:
            continue
        for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
            n = (q + dq, r + dr)
            if n not in cell:
                continue
            c = costs[grid[cell[n][1], cell[n][0]]]
            if c is None:
                continue
            if d + c < best.get(n, math.inf):
                best[n] = d + c
                heapq.heappush(heap, (d + c, n))
    return best


def hex_msg(id_, grid, orientation, start, goal, version="h1", costs=None, **extra):
    h, w = grid.shape
    spec = {"kind": "hex", "orientation": orientation, "width": w, "height": h, "version": version}
    if costs is not None:
        spec["terrain_costs"] = costs
    return {"type": "plan", "id": id_, "map": {**spec, **extra}, "start": start, "goal": goal,
            "options": {"method": "astar"}}


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_hex_plans_are_least_cost_and_step_to_neighbours(orientation):
    rng = random.Random(5)
    svc = Service()
    costs = {0: 1.0, 1: None, 4: 3.0}
    found = 0
    for k in range(40):
        grid = rng.choices([0, 0, 0, 1, 4], k=9 * 7)
        grid = np.array(grid, dtype=np.uint8).reshape(7, 9)
        opened = [(c, r) for r in range(7) for c in range(9) if grid[r, c] != 1]
        (sc, sr), (gc, gr) = rng.sample(opened, 2)
        start, goal = to_axial(sc, sr, orientation), to_axial(gc, gr, orientation)
        msg = hex_msg(k, grid, orientation, list(start), list(goal), version=f"v{k}",
                      costs=[[0, 1.0], [1, None], [4, 3.0]])
        assert call(svc, msg, grid.tobytes())["type"] == "started"
        res = run_to_end(svc, k)["result"]
        best = hex_dijkstra(grid, orientation, start, costs).get(goal)
        if best is None:
            assert res["status"] == "no_path"
            continue
        found += 1
        assert res["status"] == "found" and res["cost"] == pytest.approx(best)
        path = [tuple(p) for p in res["path"]]
        assert path[0] == start and path[-1] == goal
        for (q0, r0), (q1, r1) in zip(path, path[1:]):
            dq, dr = q1 - q0, r1 - r0
            assert max(abs(dq), abs(dr), abs(dq + dr)) == 1
        explored = np.frombuffer(svc.take_buffer(), dtype=np.uint8)
        assert explored.size == 63 and not explored[grid.ravel() == 1].any()
    assert found > 20


def test_hex_map_reused_by_version_and_orientation_kept_apart():
    svc = Service()
    grid = np.zeros((3, 5), dtype=np.uint8)
    grid[1, 2] = 1
    assert call(svc, hex_msg(1, grid, "pointy", [0, 1], [4, 1], version="a"), grid.tobytes())["type"] == "started"
    first = run_to_end(svc, 1)["result"]
    again = call(svc, hex_msg(2, grid, "pointy", [0, 1], [4, 1], version="a"))  # no cells: the cached map
    assert again["type"] == "started" and run_to_end(svc, 2)["result"]["cost"] == first["cost"]
    flat = call(svc, hex_msg(3, grid, "flat", [0, 1], [4, 1], version="b"))  # another version, no cells
    assert flat["type"] == "error" and flat["field"] == "map.version"


def waypoint_msg(id_, nodes, edges, start, goal, version=1):
    return {"type": "plan", "id": id_, "map": {"kind": "waypoints", "width": 20, "height": 20, "version": version,
                                                "nodes": nodes, "edges": edges},
            "start": start, "goal": goal, "options": {"method": "astar"}}


def test_waypoint_plans_match_a_dijkstra_over_edge_lengths():
    rng = random.Random(3)
    svc = Service()
    for k in range(30):
        n = rng.randint(2, 12)
        nodes = [{"id": f"p{i}", "x": rng.uniform(0, 20), "y": rng.uniform(0, 20)} for i in range(n)]
        pairs = {tuple(sorted(rng.sample(range(n), 2))) for _ in range(rng.randint(0, 2 * n))}
        edges = [{"from": f"p{a}", "to": f"p{b}"} for a, b in sorted(pairs)]
        adj = {i: [] for i in range(n)}
        for a, b in pairs:
            d = math.dist((nodes[a]["x"], nodes[a]["y"]), (nodes[b]["x"], nodes[b]["y"]))
            adj[a].append((b, d))
            adj[b].append((a, d))
        best = {0: 0.0}
        heap = [(0.0, 0)]
        while heap:
            d, u = heapq.heappop(heap)
            if d <= best[u]:
                for v, c in adj[u]:
                    if d + c < best.get(v, math.inf):
                        best[v] = d + c
                        heapq.heappush(heap, (d + c, v))
        assert call(svc, waypoint_msg(k, nodes, edges, "p0", f"p{n - 1}", version=k))["type"] == "started"
        res = run_to_end(svc, k)["result"]
        if n - 1 not in best:
            assert res["status"] == "no_path"
            continue
        assert res["status"] == "found" and res["cost"] == pytest.approx(best[n - 1])
        assert res["path"][0] == "p0" and res["path"][-1] == f"p{n - 1}"
        explored = np.frombuffer(svc.take_buffer(), dtype=np.uint8)
        assert explored.size == n and explored[0] == 2  # one byte per node, the start closed


@pytest.mark.parametrize("spec, field", [
    ({"kind": "triangles", "width": 3, "height": 3, "version": 1}, "map.kind"),
    ({"kind": "hex", "orientation": "round", "width": 3, "height": 3, "version": 1}, "map.orientation"),
    ({"kind": "hex", "orientation": "flat", "width": 3, "height": 3, "version": 1, "nodes": []}, "map.nodes"),
    ({"kind": "hex", "orientation": "flat", "width": 3, "height": 3, "version": 1,
      "terrain_costs": [[0, -1]]}, "map.terrain_costs[0]"),
    ({"kind": "waypoints", "width": 3, "height": 3, "version": 1,
      "nodes": [{"id": "a", "x": 0, "y": 0}], "edges": [{"from": "a", "to": "zz"}]}, "map.edges[0].to"),
    ({"kind": "waypoints", "width": 3, "height": 3, "version": 1,
      "nodes": [{"id": "a", "x": 1e300, "y": 0}]}, "map.nodes[0].x"),
    ({"kind": "waypoints", "width": 3, "height": 3, "version": 2}, "map.nodes"),
])
def test_hostile_graph_maps_are_refused_by_field(spec, field):
    svc = Service()
    cells = bytes(9) if spec["kind"] == "hex" else None
    ends = ([0, 0], [1, 1]) if spec["kind"] != "waypoints" else ("a", "a")
    text = json.dumps({"type": "plan", "id": 1, "map": spec, "start": ends[0], "goal": ends[1]})
    out = json.loads(svc.handle(text, cells))
    assert out["type"] == "error" and out["kind"] == "bad_input" and out["field"] == field, out
    assert call(svc, {"type": "info", "id": 2})["type"] == "info"  # still answering


def test_graph_ends_are_checked():
    svc = Service()
    grid = np.zeros((3, 3), dtype=np.uint8)
    out = call(svc, hex_msg(1, grid, "pointy", [0, 0, 1.5], [1, 1]), grid.tobytes())
    assert out["type"] == "error" and out["field"] == "start"
    out = call(svc, hex_msg(1, grid, "pointy", [0, 0], [40, 1]), grid.tobytes())
    assert out["type"] == "error" and out["field"] == "goal"
    nodes = [{"id": "a", "x": 0, "y": 0}, {"id": 2, "x": 1, "y": 0}]
    out = call(svc, waypoint_msg(1, nodes, [], "a", [2]))
    assert out["type"] == "error" and out["field"] == "goal"
    out = call(svc, waypoint_msg(1, nodes, [], "a", "nope"))
    assert out["type"] == "error" and out["field"] == "goal"
    assert call(svc, waypoint_msg(2, nodes, [{"from": "a", "to": 2}], "a", 2))["type"] == "started"
    assert run_to_end(svc, 2)["result"]["path"] == ["a", 2]
