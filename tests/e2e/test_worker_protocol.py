"""The real worker speaks the protocol schema: typed errors (kind, field), typed results with
their binary parts as typed arrays, and describe.

Messages go straight to the worker through ``window.arcstar._rawPlan``; each answer comes back
in its JSON form (typed arrays shown as the schema's binary descriptors) and is validated with
jsonschema against ``pycore/arcstar/service/protocol.schema.json``.
"""

from __future__ import annotations

import jsonschema
import pytest
from playwright.sync_api import Page

from arcstar.service import protocol

pytestmark = pytest.mark.e2e

# Post a message (a JS literal) and return the answer with typed arrays as {name, dtype, length}.
RAW = """async () => {
  const answer = await window.arcstar._rawPlan(%s);
  const dtypes = new Map([[Uint8Array, 'uint8'], [Int32Array, 'int32'], [Float64Array, 'float64']]);
  const form = (v, path) => {
    if (ArrayBuffer.isView(v)) {
      return {name: path, dtype: dtypes.get(v.constructor) || v.constructor.name, length: v.length};
    }
    if (Array.isArray(v)) return v.map((x, i) => form(x, `${path}.${i}`));
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, form(x, path ? `${path}.${k}` : k)]));
    }
    return v;
  };
  return form(answer, '');
}"""

MAP = "map: {width: 4, height: 3, version: '%s', cells: new Uint8Array([0,0,0,0, 0,1,1,0, 0,0,0,0])}"


@pytest.fixture(scope="module")
def answer_of(lab: Page):
    doc = protocol.schema()
    validator = jsonschema.Draft202012Validator({**doc, "anyOf": [{"$ref": "#/$defs/answer"}]})

    def ask(literal: str) -> dict:
        lab.evaluate("window.arcstar.ready")
        out = lab.evaluate(RAW % literal)
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in validator.iter_errors(out)]
        assert not errors, (out, errors)
        return out

    return ask


def test_a_result_is_typed_and_carries_typed_arrays(answer_of):
    out = answer_of("{type: 'plan', id: 'r1', %s, start: [0, 0], goal: [3, 2]}" % (MAP % "p1"))
    result = out["result"]
    assert out["type"] == "result" and result["status"] == "found"
    assert result["explored"] == {"name": "result.explored", "dtype": "uint8", "length": 12}
    trace = result["trace"]
    assert trace["order"]["dtype"] == "int32" and trace["updates"]["dtype"] == "float64"
    assert trace["order"]["length"] == result["expanded"]


def test_errors_name_their_kind_and_field(answer_of):
    cases = {  # the service's refusals, relayed, and the worker's own
        "{type: 'plan', id: 'e1', %s, start: [0, 0], goal: [3, 2], options: {weight: 'heavy'}}" % (MAP % "p2"):
            "options.weight",
        "{type: 'plan', id: 'e2', %s, start: [0, 0], goal: [9, 9]}" % (MAP % "p3"): "goal",
        "{type: 'plan', id: 'e3', %s, start: [0, 0], goal: [3, 2], options: {weight: NaN}}" % (MAP % "p4"):
            "options.weight",
        "{type: 'plan', id: 'e4', map: {width: 2, height: 2, version: 'p5', cells: [0, 0, 0, 0]},"
        " start: [0, 0], goal: [1, 1]}": "map.cells",
        "{type: 'plan', id: 'e5', start: [0, 0], goal: [1, 1]}": "map",
        "{type: 'teleport', id: 'e6'}": "type",
        "{type: 'info', id: 'e7', extra: 1}": "extra",
        "{type: 'load_scen', id: 'e8', text: 'version 1\\n', width: 0, height: 2}": "width",
        "42": "",
    }
    for literal, field in cases.items():
        out = answer_of(literal)
        assert (out["type"], out["kind"], out["field"]) == ("error", "bad_input", field), (literal, out)
    assert answer_of("42")["id"] is None


def test_describe_says_what_options_guarantee(answer_of):
    out = answer_of("{type: 'describe', id: 'd1', options: {method: 'dijkstra'}}")
    assert (out["type"], out["id"], out["optimal"], out["legal"]) == ("describe", "d1", True, None)
    out = answer_of("{type: 'describe', id: 'd2', options: {turning: 'ignore', radius: 2}}")
    assert out["legal"] is False and out["text"]


def test_info_and_a_loaded_map_validate(answer_of):
    info = answer_of("{type: 'info', id: 'i1'}")
    assert set(info["limits"]) == set(info["methods"])
    loaded = answer_of("{type: 'load_map', id: 'm1', text: 'S.#\\n..G\\n'}")
    assert loaded["cells"] == {"name": "cells", "dtype": "uint8", "length": 6}


# A slow search (Dijkstra through a 400 x 400 serpentine) and a quick one started 30 ms later.
LANES = """async (alongside) => {
  const W = 400, H = 400, cells = new Uint8Array(W * H);
  for (let x = 10; x < W - 1; x += 20) {
    const top = x % 40 === 10 ? 0 : 1;
    for (let y = top; y < H - (1 - top); y++) cells[y * W + x] = 1;
  }
  const t0 = performance.now(), when = {};
  const timed = (name, p) => p.then((a) => { when[name] = performance.now() - t0; return a; });
  const slow = timed('slow', window.arcstar._rawPlan({type: 'plan', id: 'slow', start: [0, 0], goal: [W - 1, H - 1],
    map: {width: W, height: H, version: 'lanes-big', cells}, options: {method: 'dijkstra'}}));
  await new Promise((r) => setTimeout(r, 30));
  const quick = {type: 'plan', id: 'quick', start: [0, 0], goal: [3, 2],
    map: {width: 4, height: 3, version: 'lanes-small', cells: new Uint8Array(12)}};
  if (alongside !== null) quick.alongside = alongside;
  const fast = timed('fast', window.arcstar._rawPlan(quick));
  const [s, f] = await Promise.all([slow, fast]);
  return {slow: [s.type, s.result ? s.result.status : null], fast: [f.type, f.result ? f.result.status : null], when};
}"""


def test_a_quick_search_alongside_a_slow_one_finishes_first_and_both_finish(lab: Page):
    lab.evaluate("window.arcstar.ready")
    out = lab.evaluate(LANES, True)
    assert out["slow"] == ["result", "found"] and out["fast"] == ["result", "found"], out
    assert out["when"]["fast"] < out["when"]["slow"], out  # Pinter's two matrices: the quick one flows


def test_without_alongside_a_new_search_replaces_the_running_one(lab: Page):
    lab.evaluate("window.arcstar.ready")
    out = lab.evaluate(LANES, None)
    assert out["slow"][0] == "cancelled" and out["fast"] == ["result", "found"], out


def test_alongside_must_be_a_boolean(answer_of):
    out = answer_of("{type: 'plan', id: 'a1', alongside: 'yes', %s, start: [0, 0], goal: [3, 2]}" % (MAP % "a1"))
    assert (out["type"], out["kind"], out["field"]) == ("error", "bad_input", "alongside")
