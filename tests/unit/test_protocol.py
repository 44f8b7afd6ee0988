"""The worker protocol is one schema: every message the service reads or sends conforms to it.

Messages are made by the real ``Service`` (``protocol_samples``) and validated with jsonschema
(CPython only: jsonschema needs compiled rpds-py, so those tests are ``no_pyodide``); the rest
(the schema loads from the package, the hand-written checks agree with it, hostile text gets a
typed error naming the field) also runs inside Pyodide.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcstar.maps.jsontext import nesting_depth
from arcstar.outcomes import ErrorKind, Status
from arcstar.planner import Stage
from arcstar.service import Service, graphmaps, protocol
from arcstar.service.service import MAP_KEYS, REQUEST_KEYS
from protocol_samples import call, plan_msg, run_to_end, samples


@pytest.fixture(scope="module")
def validate():
    """``validate(message, direction)`` against the schema's ``$defs/<direction>``."""
    import jsonschema  # a test requirement on CPython; absent in Pyodide, hence no_pyodide below

    doc = protocol.schema()
    jsonschema.Draft202012Validator.check_schema(doc)
    validators = {d: jsonschema.Draft202012Validator({**doc, "anyOf": [{"$ref": f"#/$defs/{d}"}]})
                  for d in ("page_request", "service_request", "answer")}

    by_type = {d: {doc["$defs"][r["$ref"].rsplit("/", 1)[-1]]["properties"]["type"]["const"]: r["$ref"]
                   for r in doc["$defs"][d]["oneOf"]} for d in validators}

    def check(message: dict, direction: str = "answer") -> None:
        if validators[direction].is_valid(message):
            return
        # oneOf reports "not valid under any": say what the definition for this type objects to
        ref = by_type[direction].get(message.get("type") if isinstance(message, dict) else None)
        detail = jsonschema.Draft202012Validator({**doc, "anyOf": [{"$ref": ref}]}) if ref else validators[direction]
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:160]}" for e in detail.iter_errors(message)]
        raise AssertionError(f"{message!r:.200} breaks the schema ({direction}): {errors[:3]}")

    return check


@pytest.fixture(scope="module")
def sampled() -> dict[str, list[dict]]:
    return samples()


# ----------------------------------------------------------------------------- one definition

def test_schema_loads_from_the_package_and_names_every_message():
    doc = protocol.schema()
    assert doc["$schema"].endswith("2020-12/schema")
    assert protocol.schema_types("page_request") == protocol.PAGE_REQUEST_TYPES
    assert protocol.schema_types("service_request") == protocol.SERVICE_REQUEST_TYPES
    assert protocol.schema_types("answer") == protocol.ANSWER_TYPES
    defs = doc["$defs"]
    assert defs["status"]["enum"] == [s.value for s in Status if s is not Status.RUNNING]
    assert defs["error_kind"]["enum"] == [k.value for k in ErrorKind]
    assert defs["plan_result"]["properties"]["stage"]["enum"] == [s.value for s in Stage]
    assert protocol.schema() is not protocol.schema()  # callers may change their copy


def test_hand_written_checks_accept_exactly_the_schema_fields():
    defs = protocol.schema()["$defs"]
    for ref in defs["service_request"]["oneOf"]:
        entry = defs[ref["$ref"].rsplit("/", 1)[-1]]
        kind = entry["properties"]["type"]["const"]
        assert set(REQUEST_KEYS[kind]) == set(entry["properties"]), kind
        assert entry["additionalProperties"] is False
    plan_map = defs["plan"]["properties"]["map"]["properties"]
    graph_keys = set(graphmaps.HEX_KEYS) | set(graphmaps.WAYPOINT_KEYS)  # map.kind hex and waypoints
    assert set(MAP_KEYS) | graph_keys | {"cells"} == set(plan_map)  # cells travels beside the JSON
    assert set(protocol.DTYPES) == set(defs["dtype"]["enum"])


# ----------------------------------------------------------------------------- real messages

@pytest.mark.no_pyodide
def test_every_message_type_made_by_the_service_validates(validate, sampled):
    for msg in sampled["requests"]:
        validate(msg, "service_request")
    for msg in sampled["answers"]:
        validate(msg, "answer")
    assert {m["type"] for m in sampled["requests"]} == set(protocol.SERVICE_REQUEST_TYPES)
    assert {m["type"] for m in sampled["answers"]} == set(protocol.ANSWER_TYPES)
    statuses = {m["result"]["status"] for m in sampled["answers"] if m["type"] == "result"}
    assert {"found", "no_path", "unreachable", "budget_exhausted"} <= statuses
    results = [m["result"] for m in sampled["answers"] if m["type"] == "result"]
    assert any("trace" in r and "explored" in r for r in results), "no result carried binary parts"
    assert any("segments" in r for r in results), "no turned path was checked"
    errors = [m for m in sampled["answers"] if m["type"] == "error"]
    assert {(e["kind"], e["field"]) for e in errors} >= {("bad_input", "options.weight"), ("bad_input", "id")}


def test_messages_round_trip_through_json(sampled):
    for msg in sampled["requests"] + sampled["answers"]:
        text = json.dumps(msg, allow_nan=False)
        assert json.loads(text) == msg
    # a request the service accepted is accepted again from its own JSON
    svc = Service()
    grid = np.zeros((3, 3), dtype=np.uint8).tobytes()
    msg = plan_msg("again", 3, 3, [0, 0], [2, 2])
    assert call(svc, json.loads(json.dumps(msg)), grid) == {"type": "started", "id": "again"}


@pytest.mark.no_pyodide
def test_page_form_requests_validate(validate):
    """What engine.js posts: a plan's cells as a typed array, seen by validators as a descriptor."""
    plan = plan_msg(1, 3, 2, [0, 0, math.pi / 2], [2, 1], heuristic="octile")
    plan["map"]["cells"] = {"name": "map.cells", "dtype": "uint8", "length": 6}
    plan["map"]["terrain_costs"] = [[2, None], [3, 1.5]]
    for msg in (plan, {"type": "cancel", "id": 1}, {"type": "info", "id": "r2"},
                {"type": "load_map", "id": "r3", "text": "..\n"},
                {"type": "load_scen", "id": "r4", "text": "version 1\n", "width": 2, "height": 1},
                {"type": "describe", "id": "r5", "options": {"method": "dijkstra"}}):
        validate(msg, "page_request")


@pytest.mark.no_pyodide
def test_the_schema_refuses_what_the_service_refuses(validate):
    import jsonschema

    for msg, direction in [
        ({"type": "info", "id": 1, "extra": True}, "page_request"),
        ({"type": "step", "id": 1}, "page_request"),  # only the worker steps
        ({"type": "info", "id": 2**53}, "service_request"),
        ({"type": "result", "id": 1, "result": {"status": "lost", "path": [], "cost": None, "length": 0,
                                                "expanded": 0, "ms": 0, "optimal": False, "message": ""}}, "answer"),
        ({"type": "error", "id": 1, "message": "no kind"}, "answer"),
        ({"type": "error", "id": 1, "kind": "oops", "field": "", "message": "m"}, "answer"),
    ]:
        with pytest.raises(AssertionError):
            validate(msg, direction)
    assert jsonschema  # imported for the validator fixture's sake


def test_binary_parts_wait_where_their_descriptors_say():
    svc = Service()
    grid = np.zeros((5, 7), dtype=np.uint8)
    grid[1:4, 3] = 1
    call(svc, plan_msg("t", 7, 5, [1, 2], [5, 2]), grid.tobytes())
    result = run_to_end(svc, "t")[0]["result"]
    parts = [result["explored"], *result["trace"].values()]
    assert result["explored"] == {"name": "explored", "dtype": "uint8", "length": 35}
    for part in parts:
        data = svc.take_buffer(part["name"])
        assert data is not None and len(data) == part["length"] * np.dtype(part["dtype"]).itemsize, part
        assert svc.take_buffer(part["name"]) is None  # handed over once
    out = call(svc, {"type": "load_map", "id": 1, "text": "S.#\n..G\n"})
    assert out["cells"] == {"name": "cells", "dtype": "uint8", "length": 6}
    assert list(svc.take_buffer("cells")) == [0, 0, 1, 0, 0, 0]
    call(svc, {"type": "load_map", "id": 2, "text": "S.#\n..G\n"})
    call(svc, {"type": "info", "id": 3})
    assert svc.take_buffer("cells") is None  # a binary part lives until the next request


def test_describe_reads_the_method_registry():
    svc = Service()
    dijkstra = call(svc, {"type": "describe", "id": 1, "options": {"method": "dijkstra"}})
    assert dijkstra["type"] == "describe" and dijkstra["optimal"] is True and dijkstra["legal"] is None
    assert dijkstra["text"]
    weighted = call(svc, {"type": "describe", "id": 2, "options": {"weight": 3}})
    assert weighted["optimal"] is False
    turned = call(svc, {"type": "describe", "id": 3, "options": {"turning": "ignore", "radius": 2}})
    assert turned["legal"] is False
    assert call(svc, {"type": "describe", "id": 4})["type"] == "describe"  # options are optional
    bad = call(svc, {"type": "describe", "id": 5, "options": {"method": "teleport"}})
    assert (bad["type"], bad["kind"], bad["field"]) == ("error", "bad_input", "options.method")


def test_info_limits_come_from_the_registry():
    info = call(Service(), {"type": "info", "id": "i"})
    assert set(info["limits"]) == set(info["methods"]) and "astar" in info["methods"]
    assert all(isinstance(spec, dict) for spec in info["limits"].values())


# ----------------------------------------------------------------------------- hostile input

DEEP = 5000
HOSTILE_TEXT = [  # (request text, the field the error names)
    ('{"type": "step", "id": 1, "budget_ms": NaN}', ""),
    ('{"type": "step", "id": 1, "budget_ms": Infinity}', ""),
    ('{"type": "step", "id": 1, "budget_ms": -Infinity}', ""),
    ('{"type": "step", "id": 1, "budget_ms": 1e400}', ""),
    ('{"type": "info", "id": ' + "9" * 5000 + "}", ""),
    ('{"type": "info", "id": 100000000000000000000000}', "id"),
    ('{"type": "info", "id": 9007199254740992}', "id"),
    ('{"type": "info", "id": "' + "x" * 300 + '"}', "id"),
    ('{"type": "info", "id": true}', "id"),
    ('{"type": "info", "id": null}', "id"),
    ('{"type": "info"}', "id"),
    ('{"type": "plan", "id": 1, "options": ' + "[" * DEEP + "]" * DEEP + "}", ""),
    ('{"type": "plan", "id": 1, "options": ' + '{"a":' * DEEP + "1" + "}" * DEEP + "}", ""),
    ("[" * DEEP + "]" * DEEP, ""),
    ("[" * DEEP, ""),
    ("not json", ""),
    ("[1, 2]", ""),
    ('"text"', ""),
    ("", ""),
    ('{"type": "fly", "id": 1}', "type"),
    ('{"type": ["plan"], "id": 1}', "type"),
    ('{"type": "info", "id": 1, "extra": 2}', "extra"),
    ('{"type": "cancel", "id": 1, "budget_ms": 2}', "budget_ms"),
]


def hostile_plans() -> list[tuple[dict, object, str]]:
    """(request, cells, the field the error names): wrong types, extra fields, bad values."""
    cells = bytes(9)

    def plan(**changes: object) -> dict:
        msg = plan_msg(1, 3, 3, [0, 0], [2, 2])
        for key, value in changes.items():
            if key.startswith("map_"):
                msg["map"][key[4:]] = value
            else:
                msg[key] = value
        return msg

    return [
        (plan(map="big"), cells, "map"),
        (plan(map_width="3"), cells, "map.width"),
        (plan(map_height=-3), cells, "map.height"),
        (plan(map_width=True), cells, "map.width"),
        (plan(map_width=10**5, map_height=10**5), cells, "map"),
        (plan(map_height=4), cells, "map.cells"),
        (plan(map_version=[1]), cells, "map.version"),
        (plan(map_version=99), None, "map.version"),
        (plan(map_extra=1), cells, "map.extra"),
        (plan(map_cells=[0] * 9), cells, "map.cells"),
        (plan(map_terrain_costs="cheap"), cells, "map.terrain_costs"),
        (plan(map_terrain_costs=[[2, -1]]), cells, "map.terrain_costs"),
        (plan(map_terrain_costs=[["road", 1]]), cells, "map.terrain_costs"),
        (plan(map_terrain_costs=[[99, 1]]), cells, "map.terrain_costs"),
        (plan(start="home"), cells, "start"),
        (plan(start=[0]), cells, "start"),
        (plan(start=[0.5, 1]), cells, "start"),
        (plan(goal=[True, 1]), cells, "goal"),
        (plan(goal=[2, 2, "north"]), cells, "goal"),
        (plan(options=[1]), cells, "options"),
        (plan(options={"weight": "heavy"}), cells, "options.weight"),
        (plan(options={"fly": True}), cells, "options.fly"),
        (plan(extra={}), cells, "extra"),
        (plan(), 12, "map.cells"),
        (plan(), bytes([0] * 8 + [77]), "map.cells"),
        ({"type": "step", "id": "none"}, None, "id"),
        ({"type": "load_map", "id": 1, "text": 42}, None, "text"),
        ({"type": "load_map", "id": 1, "text": "type octile\nheight 9\nwidth 3\nmap\n...\n"}, None, "text"),
        ({"type": "load_map", "id": 1, "text": "..?\n"}, None, "text"),
        ({"type": "load_scen", "id": 1, "text": "version 1\n", "width": 0, "height": 2}, None, "width"),
        ({"type": "load_scen", "id": 1, "text": "version 1\n", "width": 10**5, "height": 10**5}, None, ""),
        ({"type": "load_scen", "id": 1, "width": 3, "height": 2,
          "text": "version 1\n0\tm.map\t3\t2\t0\t0\t7\t0\t3\n"}, None, "text"),
        ({"type": "describe", "id": 1, "options": "fast"}, None, "options"),
    ]


def check_error(out: dict, field: str, kind: str = "bad_input") -> None:
    assert out["type"] == "error", out
    assert (out["kind"], out["field"]) == (kind, field), out
    assert out["message"] and len(out["message"]) < 1000, out


def test_hostile_text_gets_a_typed_error_not_an_exception():
    svc = Service()
    for text, field in HOSTILE_TEXT:
        out = json.loads(svc.handle(text))
        check_error(out, field)
        assert out["id"] in (None, 1), out  # an unusable id is answered as null
    assert json.loads(svc.handle(None))["kind"] == "bad_input"  # type: ignore[arg-type]
    assert json.loads(svc.handle(b'{"type": "info", "id": 1}'))["type"] == "info"


def test_hostile_requests_name_the_field():
    svc = Service()
    for msg, cells, field in hostile_plans():
        check_error(call(svc, msg, cells), field)
    # the service still works, and a running search refuses a bad budget by name
    assert call(svc, plan_msg(2, 3, 3, [0, 0], [2, 2]), bytes(9))["type"] == "started"
    for budget in (-5, 0, "fast", True, None):
        check_error(call(svc, {"type": "step", "id": 2, "budget_ms": budget}), "budget_ms")
    assert call(svc, plan_msg(3, 3, 3, [0, 0], [2, 2]), bytes(9))["type"] == "started"
    assert run_to_end(svc, 3)[0]["result"]["status"] == "found"


@pytest.mark.no_pyodide
def test_hostile_answers_validate(validate):
    svc = Service()
    for text, _field in HOSTILE_TEXT:
        validate(json.loads(svc.handle(text)))
    for msg, cells, _field in hostile_plans():
        validate(call(svc, msg, cells))


def test_brackets_inside_strings_do_not_count_as_nesting():
    text = "[" * DEEP + "\n"  # an unknown character: the map reader's error, not the nesting limit
    out = call(Service(), {"type": "load_map", "id": 1, "text": text})
    check_error(out, "text")
    assert "nest" not in out["message"]
    assert nesting_depth(json.dumps({"a": ["[{" * 100, {"b": [1]}]}), 32) == 4


def test_a_bug_is_an_internal_error(monkeypatch):
    svc = Service()

    def broken(msg: dict, cells: object) -> dict:
        raise RuntimeError("boom")

    monkeypatch.setattr(svc, "_info", broken)
    check_error(call(svc, {"type": "info", "id": 1}), "", kind="internal")
    monkeypatch.setattr(svc, "_info", lambda msg, cells: {"type": "info", "id": msg["id"], "x": math.nan})
    check_error(call(svc, {"type": "info", "id": 1}), "", kind="internal")  # NaN never leaves as JSON


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                           lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
                           max_leaves=12)


@pytest.mark.no_pyodide
@settings(max_examples=200, deadline=None)
@given(st.fixed_dictionaries({"type": st.sampled_from(list(protocol.SERVICE_REQUEST_TYPES) + ["x"]),
                              "id": json_values},
                             optional={"map": json_values, "start": json_values, "goal": json_values,
                                       "options": json_values, "budget_ms": json_values, "text": json_values,
                                       "width": json_values, "height": json_values}),
       st.one_of(st.none(), st.binary(max_size=32)))
def test_any_request_gets_an_answer_the_schema_accepts(validate, msg, cells):
    out = call(Service(), msg, cells)
    validate(out)
    if out["type"] == "error":
        assert out["kind"] == "bad_input", out
