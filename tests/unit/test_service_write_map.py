"""write_map: the lab's map as a Moving AI .map under its terrain costs, what it loses, and hostile input.

The .map written is read back with the core's own reader and compared with a passability mask
worked out here from the grid and the costs sent (not from the writer)."""

import json

import numpy as np
import pytest

from arcstar.maps.mapio import parse_movingai_map
from arcstar.service import Service


def call(svc, msg, cells=None):
    return json.loads(svc.handle(json.dumps(msg), cells))


def write_msg(w, h, version="v", costs=None, **extra):
    spec = {"width": w, "height": h, "version": version}
    if costs is not None:
        spec["terrain_costs"] = costs
    return {"type": "write_map", "id": "w", "map": spec, "format": "movingai", **extra}


def test_a_map_written_reads_back_with_the_same_walls():
    rng = np.random.default_rng(7)
    grid = rng.integers(0, 7, size=(9, 13), dtype=np.uint8)  # every default terrain
    svc = Service()
    out = call(svc, write_msg(13, 9), grid.tobytes())
    assert out["type"] == "map_text" and out["format"] == "movingai"
    back = parse_movingai_map(out["text"])
    assert (back.width, back.height) == (13, 9)
    impassable = np.isin(grid, [1, 6])  # wall and water, by the default costs
    assert np.array_equal(back.blocked, impassable)
    assert out["text"].startswith("type octile\nheight 9\nwidth 13\nmap\n")


def test_the_lab_costs_decide_what_is_passable_and_the_losses_are_named():
    grid = np.array([[0, 2, 2, 6], [1, 3, 0, 6]], dtype=np.uint8)  # ground, road x2, water; wall, sand, ground, water
    svc = Service()
    out = call(svc, write_msg(4, 2, costs=[[6, 2.5], [3, None]]), grid.tobytes())  # water passable, sand not
    rows = out["text"].splitlines()[4:]
    assert rows == ["....", "@@.."]
    lost = {e["name"]: e for e in out["lost"]}
    assert set(lost) == {"road", "sand", "water"}  # ground and wall keep their meaning
    assert lost["road"] == {"code": 2, "name": "road", "tiles": 2, "cost": 0.5, "written": "."}
    assert lost["water"]["written"] == "." and lost["water"]["cost"] == 2.5 and lost["water"]["tiles"] == 2
    assert lost["sand"]["written"] == "@" and lost["sand"]["cost"] is None


def test_a_map_of_ground_and_walls_loses_nothing_and_uses_the_cached_version():
    grid = np.array([[0, 1, 0]], dtype=np.uint8)
    svc = Service()
    assert call(svc, write_msg(3, 1, version=5), grid.tobytes())["lost"] == []
    again = call(svc, write_msg(3, 1, version=5))  # no cells: the map held under version 5
    assert again["text"].endswith("map\n.@.\n") and again["lost"] == []


@pytest.mark.parametrize(("msg", "cells", "field"), [
    (write_msg(3, 1, format="png"), b"\0\0\0", "format"),
    ({"type": "write_map", "id": "w", "map": {"width": 3, "height": 1, "version": 1}}, b"\0\0\0", "format"),
    ({"type": "write_map", "id": "w", "map": "3x1", "format": "movingai"}, b"\0\0\0", "map"),
    (write_msg(3, 1), b"\0\0", "map.cells"),  # too few cells
    (write_msg(3, 1), b"\0\0\x63", "map.cells"),  # a terrain code with no terrain type
    (write_msg(100000, 100000), None, "map.version"),  # absurd size, no cells: nothing held
    (write_msg(100000, 100000), b"\0", "map"),  # absurd size with cells
    (write_msg(3, 1, version=None), b"\0\0\0", "map.version"),
    (write_msg(3, 1, version="nothing-held"), None, "map.version"),
    (write_msg(3, 1, costs=[[0, "cheap"]]), b"\0\0\0", "map.terrain_costs"),
    (write_msg(3, 1, costs=[[99, 1.0]]), b"\0\0\0", "map.terrain_costs"),
    (write_msg(3, 1, costs="all free"), b"\0\0\0", "map.terrain_costs"),
    (write_msg(3, 1, costs=[[0, -1]]), b"\0\0\0", "map.terrain_costs"),
    ({**write_msg(3, 1), "extra": 1}, b"\0\0\0", "extra"),
    ({**write_msg(3, 1), "map": {"width": 3, "height": 1, "version": 1, "cells": [0, 0, 0]}}, None, "map.cells"),
])
def test_hostile_requests_get_an_error_naming_the_field(msg, cells, field):
    svc = Service()
    out = call(svc, msg, cells)
    assert out["type"] == "error" and out["kind"] == "bad_input", out
    assert out["field"] == field, out
    assert out["message"]


def test_a_refused_request_keeps_the_map_held():
    grid = np.array([[0, 1]], dtype=np.uint8)
    svc = Service()
    call(svc, write_msg(2, 1, version=1), grid.tobytes())
    assert call(svc, write_msg(2, 1, version=1, format="svg"))["type"] == "error"
    assert call(svc, write_msg(2, 1, version=1))["text"].endswith("map\n.@\n")
