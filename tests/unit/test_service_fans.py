"""A directional plan's heading fans through the worker protocol: two binary parts, one byte per
tile with a bit per heading (``DirectionalGraph.heading_fans``), as the lab's view/stages.js reads
them; checked against the schema on CPython (jsonschema)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from arcstar.service import Service, protocol


def call(svc, msg, cells=None):
    return json.loads(svc.handle(json.dumps(msg), cells))


def finish(svc, id_):
    for _ in range(10000):
        out = call(svc, {"type": "step", "id": id_, "budget_ms": 20})
        if out["type"] != "progress":
            return out
    raise AssertionError("search did not end")


def plan(svc, id_, method, grid):
    h, w = grid.shape
    msg = {"type": "plan", "id": id_, "map": {"width": w, "height": h, "version": 1}, "start": [1, 1, 0.0],
           "goal": [w - 2, h - 2], "options": {"method": method, "width": 0.8, "radius": 1.0}}
    assert call(svc, msg, grid.tobytes())["type"] == "started"
    return finish(svc, id_)


def test_a_directional_result_carries_its_heading_fans():
    svc = Service()
    grid = np.zeros((7, 10), dtype=np.uint8)
    grid[1:5, 5] = 1
    out = plan(svc, "d", "directional24", grid)
    res = out["result"]
    assert res["status"] == "found" and res["heading_fans"] == {
        "opened": {"name": "heading_fans.opened", "dtype": "uint8", "length": 70},
        "closed": {"name": "heading_fans.closed", "dtype": "uint8", "length": 70}}
    opened = np.frombuffer(svc.take_buffer("heading_fans.opened"), dtype=np.uint8).reshape(7, 10)
    closed = np.frombuffer(svc.take_buffer("heading_fans.closed"), dtype=np.uint8).reshape(7, 10)
    assert closed[1, 1] & 1  # the start, facing east, expanded first
    assert not closed[grid == 1].any() and not opened[grid == 1].any()
    assert (closed & ~opened).sum() == 0  # an expanded state was opened first
    assert int(np.unpackbits(closed).sum()) == res["expanded"]
    assert "heading_fans" not in plan(svc, "a", "astar", grid)["result"]


@pytest.mark.no_pyodide
def test_heading_fans_conform_to_the_schema():
    import jsonschema  # CPython only (see test_protocol)

    doc = protocol.schema()
    svc = Service()
    out = plan(svc, "d", "directional24", np.zeros((6, 8), dtype=np.uint8))
    jsonschema.Draft202012Validator({**doc, "anyOf": [{"$ref": "#/$defs/answer"}]}).validate(out)
