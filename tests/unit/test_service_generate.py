"""The worker's ``generate`` request: the map comes back as bytes beside the JSON, equal to the
core's own; malformed and hostile requests get a bad_input error naming the field, and the map
the service holds for searches is untouched."""

from __future__ import annotations

import json

import numpy as np
import pytest

from arcstar.maps import generate_map
from arcstar.service import Service
from protocol_samples import call, plan_msg, run_to_end


def gen(id_: object = "g", **fields: object) -> dict:
    return {"type": "generate", "id": id_, **fields}


def test_a_generated_map_comes_back_as_bytes_equal_to_the_cores():
    svc = Service()
    out = call(svc, gen(kind="rooms", width=30, height=20, seed=8))
    assert out["type"] == "generated" and out["id"] == "g"
    assert out["cells"] == {"name": "cells", "dtype": "uint8", "length": 600}
    made = generate_map("rooms", 30, 20, 8)
    cells = svc.take_buffer("cells")
    assert cells == made.map.terrain.tobytes()
    assert (out["start"], out["goal"]) == (list(made.start), list(made.goal))
    assert out["params"] == {"kind": "rooms", "width": 30, "height": 20, "seed": 8, "density": None,
                             "corridor": 1, "room": 5}
    assert {t["name"] for t in out["terrains"]} >= {"ground", "wall", "road"}
    assert svc.take_buffer("cells") is None  # taken once


def test_the_density_used_comes_back_when_none_was_given():
    out = call(Service(), gen(kind="caves", width=20, height=20, seed=1))
    assert out["params"]["density"] == 0.45
    out = call(Service(), gen(kind="obstacles", width=20, height=20, seed=1, density=None))
    assert out["params"]["density"] == 0.25


def test_the_generated_map_is_searchable_once_sent_back():
    """The page sends the cells back with a plan, as for any map: a path joins the ends."""
    svc = Service()
    out = call(svc, gen(kind="maze", width=21, height=15, seed=3))
    cells = svc.take_buffer("cells")
    call(svc, plan_msg("p", 21, 15, out["start"], out["goal"], version="m"), cells)
    result, _ = run_to_end(svc, "p")
    assert result["result"]["status"] == "found"


@pytest.mark.parametrize("fields, field", [
    ({"kind": "labyrinth", "width": 9, "height": 9}, "kind"),
    ({"width": 9, "height": 9}, "kind"),
    ({"kind": None}, "kind"),
    ({"kind": ["maze"]}, "kind"),
    ({"kind": "maze", "width": 0}, "width"),
    ({"kind": "maze", "width": 10**6}, "width"),
    ({"kind": "maze", "height": -3}, "height"),
    ({"kind": "maze", "height": "9"}, "height"),
    ({"kind": "maze", "width": 9.5}, "width"),
    ({"kind": "maze", "width": True}, "width"),
    ({"kind": "obstacles", "density": 2}, "density"),
    ({"kind": "obstacles", "density": "dense"}, "density"),
    ({"kind": "obstacles", "density": 1e308}, "density"),
    ({"kind": "maze", "density": 0.5}, "density"),
    ({"kind": "maze", "seed": "abc"}, "seed"),
    ({"kind": "maze", "seed": -1}, "seed"),
    ({"kind": "maze", "seed": 10**20}, "seed"),
    ({"kind": "maze", "seed": [1]}, "seed"),
    ({"kind": "maze", "corridor": 99}, "corridor"),
    ({"kind": "rooms", "room": {"a": 1}}, "room"),
    ({"kind": "maze", "cells": [0, 1]}, "cells"),
    ({"kind": "maze", "params": {}}, "params"),
])
def test_bad_requests_name_the_field(fields, field):
    out = call(Service(), gen(**fields))
    assert out["type"] == "error" and out["kind"] == "bad_input", out
    assert out["field"] == field, out
    assert out["message"] and len(out["message"]) < 400


@pytest.mark.parametrize("text", [
    '{"type": "generate", "id": 1, "kind": "obstacles", "density": NaN}',
    '{"type": "generate", "id": 1, "kind": "obstacles", "density": Infinity}',
    '{"type": "generate", "id": 1, "kind": "maze", "seed": ' + "9" * 5000 + "}",
    '{"type": "generate", "id": 1, "kind": "maze", "width": ' + "[" * 500 + "]" * 500 + "}",
    '{"type": "generate", "id": {"x": 1}, "kind": "maze"}',
    '{"type": "generate", "kind": "maze"}',
])
def test_hostile_text_gets_an_error_answer(text):
    out = json.loads(Service().handle(text))
    assert out["type"] == "error" and out["kind"] == "bad_input"


def test_a_bad_request_keeps_the_searches_map():
    svc = Service()
    grid = np.zeros((4, 5), dtype=np.uint8)
    assert call(svc, plan_msg("a", 5, 4, [0, 0], [4, 3], version="mine"), grid.tobytes())["type"] == "started"
    run_to_end(svc, "a")
    assert call(svc, gen(kind="maze", width=0))["type"] == "error"
    assert call(svc, gen(kind="maze", width=9, height=9, seed=1))["type"] == "generated"
    # the map cached under "mine" is still the one searched without resending its cells
    assert call(svc, plan_msg("b", 5, 4, [0, 0], [4, 3], version="mine"))["type"] == "started"
    result, _ = run_to_end(svc, "b")
    assert result["result"]["status"] == "found"
