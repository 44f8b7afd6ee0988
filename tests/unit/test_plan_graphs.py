"""Hex maps and waypoint graphs through the front door: ``plan()`` and the command line,
checked against the independent Dijkstras of test_hexgrid and test_waypoints."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys

import numpy as np
import pytest

import arcstar
from arcstar.maps.hexmap import HexMap, hex_distance, hex_map_to_json, hex_to_ascii
from arcstar.maps.waypoints import waypoints_from_json
from arcstar.outcomes import BadInput, Status
from test_hexgrid import cells_of, random_map
from test_hexgrid import reference_costs as hex_reference
from test_waypoints import random_doc, reference_edges
from test_waypoints import reference_costs as waypoint_reference

QUERIES = 300


def hex_neighbours(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return hex_distance(a, b) == 1


@pytest.mark.parametrize("method", ["astar", "dijkstra"])
def test_hex_plans_are_optimal_against_an_independent_dijkstra(method):
    rng = random.Random(8)
    checked = found = 0
    while checked < QUERIES:
        m = random_map(rng, rng.choice(["pointy", "flat"]))
        cells = cells_of(m.terrain, m.orientation)
        open_cells = [c for c, cost in cells.items() if math.isfinite(cost)]
        if len(open_cells) < 2:
            continue
        start, goal = rng.sample(open_cells, 2)
        best = hex_reference(cells, start).get(goal, math.inf)
        r = arcstar.plan(m, start, goal, method=method)
        checked += 1
        if math.isinf(best):
            assert r.status == Status.NO_PATH and r.path == []
            continue
        found += 1
        assert r.status == Status.FOUND and r.optimal
        assert r.cost == pytest.approx(best)
        assert r.path[0] == start and r.path[-1] == goal
        assert all(hex_neighbours(a, b) for a, b in zip(r.path, r.path[1:]))  # legal: one hex step each
        assert all(math.isfinite(cells[c]) for c in r.path)
        assert math.fsum(cells[c] for c in r.path[1:]) == pytest.approx(r.cost)
    assert found > QUERIES // 2  # the sample is mostly solvable, so optimality was really tested


@pytest.mark.parametrize("method", ["astar", "dijkstra"])
def test_waypoint_plans_are_optimal_against_an_independent_dijkstra(method):
    rng = random.Random(9)
    checked = found = 0
    while checked < QUERIES:
        doc = random_doc(rng)
        if len(doc["nodes"]) < 2:
            continue
        m = waypoints_from_json(doc)
        adjacency = reference_edges(doc)
        a, b = rng.sample([n["id"] for n in doc["nodes"]], 2)
        best = waypoint_reference(adjacency, a).get(b, math.inf)
        r = arcstar.plan(m, a, b, method=method)
        checked += 1
        if math.isinf(best):
            assert r.status == Status.NO_PATH
            continue
        found += 1
        assert r.status == Status.FOUND and r.optimal
        assert r.cost == pytest.approx(best)
        steps = [min(c for n, c in adjacency[u] if n == v) for u, v in zip(r.path, r.path[1:])]  # each an edge
        assert math.fsum(steps) == pytest.approx(r.cost)
    assert found > QUERIES // 4


def test_hex_and_waypoint_bad_input_names_the_field():
    m = HexMap.empty(6, 6, "pointy")
    cases = [
        (lambda: arcstar.plan(m, (0, 0), (999, 0)), "goal"),
        (lambda: arcstar.plan(m, (0, 0, 1.0), (1, 0)), "start"),
        (lambda: arcstar.plan(m, (0, 0), (1, 0), width=1.0), "width"),
        (lambda: arcstar.plan(m, (0, 0), (1, 0), heuristic="octile"), "heuristic"),
        (lambda: arcstar.plan(m, (0, 0), (1, 0), method="jps"), "method"),
        (lambda: arcstar.plan(m, ("a", 0), (1, 0)), "start"),
    ]
    w = waypoints_from_json({"format": "arcstar-waypoints", "nodes": [{"id": "a", "x": 0, "y": 0},
                                                                      {"id": "b", "x": 1, "y": 0}], "edges": []})
    cases += [(lambda: arcstar.plan(w, "a", "zz"), "goal"), (lambda: arcstar.plan(w, ["a"], "b"), "start"),
              (lambda: arcstar.plan(w, "a", "b", turning="smooth"), "width")]
    for call, field in cases:
        with pytest.raises(BadInput) as e:
            call()
        assert e.value.field == field, (field, str(e.value))


def test_waypoint_islands_say_no_path():
    w = waypoints_from_json({"format": "arcstar-waypoints",
                             "nodes": [{"id": i, "x": i, "y": 0} for i in range(4)],
                             "edges": [{"from": 0, "to": 1}, {"from": 2, "to": 3}]})
    assert arcstar.plan(w, 0, 3).status == Status.NO_PATH
    assert arcstar.plan(w, 0, 1).path == [0, 1]


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arcstar", *args], capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": str(arcstar.__file__).rsplit("/arcstar/", 1)[0], "PATH": ""})


@pytest.mark.no_pyodide
def test_cli_plans_on_hex_ascii_and_json_and_on_waypoint_json(tmp_path):
    rng = random.Random(3)
    for orientation in ("pointy", "flat"):
        m = HexMap.empty(rng.randint(2, 8), rng.randint(2, 8), orientation)  # all open: a path exists
        start, goal = (0, 0), m.cell_of(m.width * m.height - 1)
        ascii_file = tmp_path / f"{orientation}.txt"
        ascii_file.write_text(hex_to_ascii(m))
        json_file = tmp_path / f"{orientation}.json"
        json_file.write_text(json.dumps(hex_map_to_json(m)))
        for file, extra in ((ascii_file, ["--hex", orientation]), (json_file, [])):
            out = _cli("plan", str(file), *extra, "--from", "0,0", "--to", f"{goal[0]},{goal[1]}", "--json")
            assert out.returncode == 0, out.stderr
            got = json.loads(out.stdout)
            assert got["status"] == "found" and got["cost"] == hex_distance(start, goal)
    doc = random_doc(random.Random(4))
    doc["nodes"] = [{"id": "a", "x": 0.5, "y": 0.5}, {"id": "b", "x": 3.5, "y": 4.5}, {"id": 7, "x": 6.5, "y": 0.5}]
    doc["edges"] = [{"from": "a", "to": "b"}, {"from": "b", "to": 7}, {"from": "a", "to": 7, "cost": 20}]
    f = tmp_path / "w.json"
    f.write_text(json.dumps(doc))
    out = _cli("plan", str(f), "--from", "a", "--to", "7", "--json")
    got = json.loads(out.stdout)
    assert out.returncode == 0 and got["path"] == ["a", "b", 7] and got["cost"] == pytest.approx(10.0)
    bad = _cli("plan", str(f), "--from", "a", "--to", "nowhere")
    assert bad.returncode == 2 and "nowhere" in bad.stderr


def test_hex_plan_does_not_change_the_map():
    m = random_map(random.Random(5), "flat")
    before, version = m.terrain.copy(), m.version
    open_cells = [m.cell_of(i) for i in np.flatnonzero(~m.blocked.ravel())]
    if len(open_cells) >= 2:
        arcstar.plan(m, open_cells[0], open_cells[-1])
    assert np.array_equal(m.terrain, before) and m.version == version
