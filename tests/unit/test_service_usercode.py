"""The Python panel's core: a plan with the user's heuristic() and/or cost() (service.usercode).

Costs are checked against ``reference.dijkstra`` (shares nothing with the engine); every way user
code can be wrong is checked for a structured ``code_error`` (function, line, reason), and the
service keeps working after each.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from arcstar.service import Service
from arcstar.service.protocol import schema
from protocol_samples import call, plan_msg, run_to_end
from reference import check_path, dijkstra, path_cost

OCTILE = """
def heuristic(x, y, gx, gy):
    dx, dy = abs(x - gx), abs(y - gy)
    return 10 * max(dx, dy) + 4 * min(dx, dy)
"""
ZERO = "def heuristic(x, y, gx, gy):\n    return 0\n"
# Lester's costs: 10 a straight step, 14 a diagonal one
STRAIGHT, DIAGONAL = 10.0, 14.0


class answer_schema:  # noqa: N801 (reads as a call: answer_schema("result").validate(out))
    """Validate an answer against one of the schema's definitions; on CPython only (jsonschema needs
    compiled rpds-py, absent in Pyodide, where the rest of each test still runs)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def validate(self, answer: dict) -> None:
        try:
            from jsonschema import Draft202012Validator
        except ImportError:
            return
        Draft202012Validator({**schema(), "$ref": f"#/$defs/{self.name}"}).validate(answer)


def rooms(w: int = 24, h: int = 16) -> np.ndarray:
    """Walls with gaps and some swamp (code 4): a map where the path must bend."""
    grid = np.zeros((h, w), dtype=np.uint8)
    grid[2:h, 6] = 1
    grid[0:h - 3, 13] = 1
    grid[5:9, 16:21] = 4
    return grid


def costs_of(svc_grid: np.ndarray) -> np.ndarray:
    """Per-tile cost multipliers under the default terrains, written out here: ground 1, wall
    impassable, swamp (code 4) 4."""
    table = {0: 1.0, 1: math.inf, 4: 4.0}
    return np.vectorize(table.__getitem__)(svc_grid).astype(float)


def plan(svc: Service, grid: np.ndarray, start: list, goal: list, code: object = None, version: object = 1,
         **options: object) -> dict:
    h, w = grid.shape
    msg = plan_msg("p", w, h, start, goal, version=version, **options)
    if code is not None:
        msg["code"] = code
    started = call(svc, msg, grid.tobytes())
    if started["type"] != "started":
        return started
    out, _ = run_to_end(svc, "p", budget_ms=20)
    return out


def test_swamp_costs_match_the_terrain_table():
    from arcstar.maps.tilemap import DEFAULT_TERRAINS

    assert {t.code: t.cost for t in DEFAULT_TERRAINS if t.code in (0, 1, 4)} == {0: 1.0, 1: math.inf, 4: 4.0}


def test_an_admissible_heuristic_gives_the_least_cost_and_says_optimal():
    svc, grid = Service(), rooms()
    start, goal = [1, 14], [22, 1]
    out = plan(svc, grid, start, goal, OCTILE)
    assert out["type"] == "result", out
    r = out["result"]
    want = dijkstra(costs_of(grid), start, goal, STRAIGHT, DIAGONAL)
    assert r["status"] == "found" and r["cost"] == pytest.approx(want)
    check_path(~np.isfinite(costs_of(grid)), r["path"], start, goal)
    assert path_cost(costs_of(grid), r["path"], STRAIGHT, DIAGONAL) == pytest.approx(r["cost"])
    assert r["optimal"] is True
    assert r["user_code"]["heuristic_used"] and r["user_code"]["admissible"] is True
    assert r["user_code"]["calls"]["heuristic"] > 0
    answer_schema("result").validate(out)
    # the same query without code: the built-in A* with octile finds the same cost
    plain = plan(svc, grid, start, goal, version=1, heuristic="octile")
    assert plain["result"]["cost"] == pytest.approx(r["cost"])


def test_a_zero_heuristic_is_dijkstra():
    svc, grid = Service(), rooms()
    out = plan(svc, grid, [0, 0], [23, 15], ZERO)
    r = out["result"]
    assert r["cost"] == pytest.approx(dijkstra(costs_of(grid), [0, 0], [23, 15], STRAIGHT, DIAGONAL))
    assert r["optimal"] is True
    # with no estimate it expands at least as much as the octile one
    guided = plan(svc, grid, [0, 0], [23, 15], OCTILE)["result"]
    assert r["expanded"] >= guided["expanded"]


def test_an_overestimating_heuristic_is_allowed_but_not_called_optimal():
    svc, grid = Service(), rooms()
    greedy = "def heuristic(x, y, gx, gy):\n    return 50 * (abs(x - gx) + abs(y - gy))\n"
    out = plan(svc, grid, [1, 14], [22, 1], greedy)
    r = out["result"]
    assert r["status"] == "found" and r["optimal"] is False
    assert r["user_code"]["admissible"] is False
    assert "may not be least-cost" in r["message"]
    check_path(~np.isfinite(costs_of(grid)), r["path"], [1, 14], [22, 1])
    assert r["cost"] >= dijkstra(costs_of(grid), [1, 14], [22, 1], STRAIGHT, DIAGONAL) - 1e-9


def test_a_cost_function_making_a_column_impassable_reroutes():
    svc = Service()
    grid = np.zeros((9, 12), dtype=np.uint8)
    code = "def cost(x, y, terrain):\n    return None if x == 5 and y != 8 else 1.0\n"
    free = plan(svc, grid, [1, 1], [10, 1])["result"]
    assert all(x != 5 or y == 1 for x, y in free["path"])  # the plain path goes straight across
    out = plan(svc, grid, [1, 1], [10, 1], code)
    r = out["result"]
    assert r["status"] == "found", r
    costs = np.ones((9, 12))
    costs[0:8, 5] = math.inf
    check_path(~np.isfinite(costs), r["path"], [1, 1], [10, 1])
    assert [5, 8] in r["path"]
    assert r["cost"] == pytest.approx(dijkstra(costs, [1, 1], [10, 1], STRAIGHT, DIAGONAL))
    assert r["optimal"] is True  # cost() alone searches as Dijkstra
    assert r["user_code"]["calls"]["cost"] > 0 and r["user_code"]["admissible"] is None
    # the map itself is untouched: the next plan without code goes straight again
    again = plan(svc, grid, [1, 1], [10, 1])["result"]
    assert again["cost"] == pytest.approx(free["cost"])


def test_cost_sees_terrain_names_and_its_values_price_the_steps():
    svc, grid = Service(), rooms()
    code = "def cost(x, y, terrain):\n    return 0.5 if terrain == 'swamp' else 1\n"
    r = plan(svc, grid, [7, 6], [22, 6], code)["result"]
    costs = costs_of(grid)
    costs[costs == 4.0] = 0.5
    assert r["cost"] == pytest.approx(dijkstra(costs, [7, 6], [22, 6], STRAIGHT, DIAGONAL))
    assert any(grid[y, x] == 4 for x, y in r["path"])  # the cheap swamp is now worth crossing


def test_walls_stay_walls_whatever_cost_says():
    svc, grid = Service(), rooms()
    code = "def cost(x, y, terrain):\n    return 1\n"
    r = plan(svc, grid, [1, 14], [22, 1], code)["result"]
    assert all(grid[y, x] != 1 for x, y in r["path"])


def test_an_impassable_start_under_cost_is_named():
    svc, grid = Service(), rooms()
    out = plan(svc, grid, [1, 1], [22, 1], "def cost(x, y, t):\n    return None if (x, y) == (1, 1) else 1\n")
    assert out["type"] == "error" and out["field"] == "start" and "cost()" in out["message"]


def error_of(out: dict) -> dict:
    assert out["type"] == "error", out
    assert out["kind"] == "bad_input"
    answer_schema("error").validate(out)
    return out["code_error"]


@pytest.mark.parametrize("code, reason, function, line", [
    ("def heuristic(x, y, gx, gy)\n    return 0\n", "syntax", None, 1),
    ("x = 1\n\ndef cost(x, y, terrain):\n    return (\n", "syntax", None, 4),
    ("def heuristic(x, y):\n    return 0\n", "arity", "heuristic", 1),
    ("\n\ndef cost(x, y):\n    return 1\n", "arity", "cost", 3),
    ("heuristic = 3\n", "not_callable", "heuristic", None),
    ("def helper():\n    return 1\n", "missing", None, None),
    ("import math\nraise RuntimeError('at import')\n", "exception", "module", 2),
    ("def heuristic(x, y, gx, gy):\n    return float('nan')\n", "nan", "heuristic", 1),
    ("def heuristic(x, y, gx, gy):\n    return -1\n", "negative", "heuristic", 1),
    ("def heuristic(x, y, gx, gy):\n    return 'far'\n", "not_a_number", "heuristic", 1),
    ("def heuristic(x, y, gx, gy):\n    return True\n", "not_a_number", "heuristic", 1),
    ("def heuristic(x, y, gx, gy):\n    return float('inf')\n", "infinite", "heuristic", 1),
    ("def cost(x, y, terrain):\n    return -0.5\n", "negative", "cost", 1),
    ("def cost(x, y, terrain):\n    return [1]\n", "not_a_number", "cost", 1),
    ("def cost(x, y, terrain):\n    return float('nan')\n", "nan", "cost", 1),
    ("def cost(x, y, terrain):\n    x = 1 / 0\n    return x\n", "exception", "cost", 2),
])
def test_bad_code_is_a_structured_error_and_the_service_goes_on(code, reason, function, line):
    svc, grid = Service(), rooms()
    detail = error_of(plan(svc, grid, [1, 14], [22, 1], code))
    assert detail == {"function": function, "line": line, "reason": reason}
    checked = error_of(call(svc, {"type": "check_code", "id": "c", "code": code}))
    assert checked["reason"] == reason
    # the service and its map are fine: the same map (by version, no cells) plans without code
    msg = plan_msg("after", grid.shape[1], grid.shape[0], [1, 14], [22, 1], version=1)
    assert call(svc, msg)["type"] == "started"
    assert run_to_end(svc, "after")[0]["result"]["status"] == "found"


def test_an_exception_at_call_n_ends_the_search_with_the_line_of_the_raise():
    code = """calls = 0

def helper(n):
    if n == 40:
        raise ValueError("call forty")
    return 0

def heuristic(x, y, gx, gy):
    global calls
    calls += 1
    return helper(calls)
"""
    svc, grid = Service(), rooms()
    h, w = grid.shape
    assert call(svc, {**plan_msg("p", w, h, [1, 14], [22, 1]), "code": code}, grid.tobytes())["type"] == "started"
    out, progress = run_to_end(svc, "p", budget_ms=20)
    detail = error_of(out)
    assert detail == {"function": "heuristic", "line": 5, "reason": "exception"}
    assert "ValueError: call forty" in out["message"]
    # the job is gone, the next step says so; a new plan works
    assert call(svc, {"type": "step", "id": "p"})["field"] == "id"
    assert plan(svc, grid, [1, 14], [22, 1], OCTILE, version=1)["result"]["status"] == "found"


def test_a_cost_that_fails_mid_search_names_cost_and_its_line():
    code = ("seen = set()\ndef cost(x, y, terrain):\n    seen.add((x, y))\n"
            "    assert len(seen) < 30, 'tired'\n    return 1\n")
    detail = error_of(plan(Service(), rooms(), [1, 14], [22, 1], code))
    assert detail == {"function": "cost", "line": 4, "reason": "exception"}


@pytest.mark.parametrize("code, reason", [("x" * (1 << 20), "too_long"), (12, "not_text"), (None, "not_text"),
                                          (["def heuristic(x, y, gx, gy): return 0"], "not_text"),
                                          ("def cost(x, y, t):\n    return 1\n\x00", "syntax")])
def test_hostile_sources_are_refused_with_a_reason(code, reason):
    svc, grid = Service(), rooms()
    h, w = grid.shape
    msg = {**plan_msg("p", w, h, [1, 14], [22, 1]), "code": code}
    detail = error_of(call(svc, msg, grid.tobytes()))
    assert detail["reason"] == reason
    assert error_of(call(svc, {"type": "check_code", "id": "c", "code": code}))["reason"] == reason
    assert call(svc, {"type": "check_code", "id": "c"})["field"] == "code"


def test_user_code_refuses_what_it_cannot_do():
    svc, grid = Service(), rooms()
    for options, field in (({"method": "jps"}, "options.method"), ({"turning": "smooth"}, "options.turning"),
                           ({"width": 1.0}, "options.width")):
        out = plan(svc, grid, [1, 14], [22, 1], OCTILE, **options)
        assert out["type"] == "error" and out["field"] == field, out
    out = plan(svc, grid, [1, 14, 0.5], [22, 1], OCTILE)
    assert out["type"] == "error" and out["field"] == "start"


def test_user_code_on_a_hex_map_is_refused_by_name():
    svc = Service()
    msg = {**plan_msg("h", 5, 3, [0, 0], [4, 2]), "code": OCTILE}
    msg["map"]["kind"] = "hex"
    msg["map"]["orientation"] = "pointy"
    out = call(svc, msg, np.zeros(15, dtype=np.uint8).tobytes())
    assert out["type"] == "error" and out["field"] == "map.kind", out


def test_check_code_answers_the_functions_it_found():
    svc = Service()
    out = call(svc, {"type": "check_code", "id": 3, "code": OCTILE + "\ndef cost(x, y, t):\n    return 1\n"})
    assert out == {"type": "code_checked", "id": 3, "functions": ["heuristic", "cost"]}
    answer_schema("code_checked").validate(out)


def test_each_request_compiles_afresh():
    code = "n = [0]\ndef heuristic(x, y, gx, gy):\n    n[0] += 1\n    assert n[0] < 500, 'state kept'\n    return 0\n"
    svc, grid = Service(), rooms()
    for _ in range(3):  # each plan alone stays under the limit; state kept across plans would not
        assert plan(svc, grid, [7, 1], [12, 1], code)["result"]["status"] == "found"


def test_budget_and_cancel_still_work_with_user_code():
    svc, grid = Service(), rooms()
    out = plan(svc, grid, [1, 14], [22, 1], ZERO, max_expansions=5)
    assert out["result"]["status"] == "budget_exhausted" and out["result"]["expanded"] == 5
    h, w = grid.shape
    assert call(svc, {**plan_msg("c", w, h, [1, 14], [22, 1]), "code": ZERO}, grid.tobytes())["type"] == "started"
    assert call(svc, {"type": "cancel", "id": "c"})["type"] == "cancelled"
    assert call(svc, {"type": "step", "id": "c"})["type"] == "error"


def test_dijkstra_ignores_heuristic_and_says_so():
    svc, grid = Service(), rooms()
    r = plan(svc, grid, [1, 14], [22, 1], OCTILE, method="dijkstra")["result"]
    assert r["user_code"]["heuristic_used"] is False and r["user_code"]["calls"]["heuristic"] == 0
    assert "not used by Dijkstra" in r["message"] and r["optimal"] is True


def test_the_answers_are_json_the_page_can_read():
    svc, grid = Service(), rooms()
    out = plan(svc, grid, [1, 14], [22, 1], OCTILE)
    json.dumps(out, allow_nan=False)
    assert out["result"]["explored"]["length"] == grid.size
    assert svc.take_buffer("explored") is not None
