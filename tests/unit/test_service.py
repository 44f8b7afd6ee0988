"""The worker's service protocol: plans, timeslices, cancellation, and hostile messages."""

import json
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arcstar.service import Service
from reference import check_path


def call(svc, msg, cells=None):
    return json.loads(svc.handle(json.dumps(msg), cells))


def plan_msg(id_, w, h, start, goal, version=1, **options):
    return {"type": "plan", "id": id_, "map": {"width": w, "height": h, "version": version},
            "start": start, "goal": goal, "options": options}


def run_to_end(svc, id_, budget_ms=5):
    for _ in range(100000):
        out = call(svc, {"type": "step", "id": id_, "budget_ms": budget_ms})
        if out["type"] != "progress":
            return out
    raise AssertionError("search did not end")


def test_plan_step_result_with_explored_tiles():
    svc = Service()
    grid = np.zeros((10, 12), dtype=np.uint8)
    grid[1:10, 6] = 1
    assert call(svc, plan_msg("a", 12, 10, [0, 9], [11, 9]), grid.tobytes()) == {"type": "started", "id": "a"}
    out = run_to_end(svc, "a")
    assert out["type"] == "result" and out["id"] == "a"
    res = out["result"]
    assert res["status"] == "found" and res["expanded"] > 0 and res["ms"] >= 0
    check_path(grid.astype(bool), [tuple(p) for p in res["path"]], (0, 9), (11, 9))
    explored = np.frombuffer(svc.take_buffer(), dtype=np.uint8).reshape(10, 12)
    assert svc.take_buffer() is None  # handed over once
    assert not explored[grid == 1].any()  # nothing explored on a wall
    assert (explored == 2).sum() == res["closed_count"] == res["expanded"]
    assert (explored == 1).sum() == res["open_count"]
    assert res["explored"] == {"name": "explored", "dtype": "uint8", "length": 120}
    assert all(explored[y, x] == 2 for x, y in res["path"])  # the path was closed tile by tile
    # the same version again needs no cells
    assert call(svc, plan_msg("b", 12, 10, [11, 9], [0, 9]))["type"] == "started"
    assert run_to_end(svc, "b")["result"]["cost"] == res["cost"]


def test_long_search_reports_progress_and_can_be_cancelled():
    svc = Service()
    w = h = 300
    grid = np.zeros((h, w), dtype=np.uint8)
    for x in range(10, w - 1, 20):  # a serpentine of walls: a long search
        grid[0 if x % 40 == 10 else 1:h - (1 if x % 40 == 10 else 0), x] = 1
    call(svc, plan_msg(7, w, h, [0, 0], [w - 1, h - 1], heuristic="octile"), grid.tobytes())
    first = call(svc, {"type": "step", "id": 7, "budget_ms": 2})
    assert first["type"] == "progress" and first["expanded"] > 0
    second = call(svc, {"type": "step", "id": 7, "budget_ms": 2})
    assert second["expanded"] > first["expanded"]
    assert call(svc, {"type": "cancel", "id": 7}) == {"type": "cancelled", "id": 7}
    gone = call(svc, {"type": "step", "id": 7})
    assert (gone["type"], gone["kind"], gone["field"]) == ("error", "bad_input", "id")


def test_errors_are_answers_not_exceptions():
    svc = Service()
    cells = bytes(9)
    cases = [  # (request, the field its error names; "" for the request as a whole)
        (None, ""), ("[1,2]", ""), ({"type": "plan"}, "id"),
        ({"type": "fly", "id": 1}, "type"),
        (plan_msg(1, 3, 3, [0, 0], [2, 2], version=2), "map.version"),
        ({**plan_msg(1, 3, 3, [0, 0], [2, 2]), "map": "big"}, "map"),
        (plan_msg(1, 3, 4, [0, 0], [2, 2]), "map.cells"),
        (plan_msg(1, 3, -3, [0, 0], [2, 2]), "map.height"),
        (plan_msg(1, 10**5, 10**5, [0, 0], [2, 2]), "map"),
        (plan_msg(1, 3, 3, [0, 0], [5, 5]), "goal"),
        (plan_msg(1, 3, 3, [0, 0], "home"), "goal"),
        (plan_msg(1, 3, 3, [0, 0], [2, 2], weight="heavy"), "options.weight"),
        ({**plan_msg(1, 3, 3, [0, 0], [2, 2]), "options": [1]}, "options"),
        ({"type": "step", "id": 1, "budget_ms": 0}, "id"),
    ]
    for msg, field in cases:
        text = msg if isinstance(msg, str) or msg is None else json.dumps(msg)
        needs_cells = isinstance(msg, dict) and msg.get("map", {}) != {} and "version" in str(msg.get("map"))
        out = json.loads(svc.handle(text, cells if needs_cells and "version\": 2" not in text else None))
        assert (out["type"], out["kind"], out["field"]) == ("error", "bad_input", field), (msg, out)
        assert out["message"]  # for people
    # an unknown map version after these still fails clearly, then a good plan works
    assert call(svc, plan_msg(2, 3, 3, [0, 0], [2, 2]), cells)["type"] == "started"
    assert call(svc, {"type": "step", "id": 2, "budget_ms": -5})["field"] == "budget_ms"
    assert run_to_end(svc, 2)["result"]["status"] == "found"


def test_cells_must_be_a_buffer():
    svc = Service()
    out = call(svc, plan_msg(1, 2, 1, [0, 0], [1, 0]), cells=12)
    assert (out["type"], out["field"]) == ("error", "map.cells")
    out = call(svc, plan_msg(1, 2, 1, [0, 0], [1, 0]), cells=bytes([0, 77]))
    assert (out["type"], out["field"]) == ("error", "map.cells")


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                           lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
                           max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.fixed_dictionaries({"type": st.sampled_from(["plan", "step", "cancel", "x"]), "id": json_values},
                             optional={"map": json_values, "start": json_values, "goal": json_values,
                                       "options": json_values, "budget_ms": json_values}),
       st.one_of(st.none(), st.binary(max_size=32)))
def test_hostile_messages_always_get_a_json_answer(msg, cells):
    svc = Service()
    out = json.loads(svc.handle(json.dumps(msg), cells))
    assert out["type"] in ("started", "error", "cancelled", "progress", "result")
    if out["type"] == "error":
        assert out["message"] and out["kind"] == "bad_input", out


def test_trace_replays_to_the_final_state():
    svc = Service()
    grid = np.zeros((5, 7), dtype=np.uint8)
    grid[1:4, 3] = 1  # Lester's wall
    call(svc, plan_msg("t", 7, 5, [1, 2], [5, 2]), grid.tobytes())
    res = run_to_end(svc, "t")["result"]
    parts = res["trace"]
    tr = {k: np.frombuffer(svc.take_buffer(p["name"]), dtype=p["dtype"]).tolist() for k, p in parts.items()}
    assert svc.take_buffer("trace.nodes") is None  # handed over once
    assert tr["order"][0] == 2 * 7 + 1 and tr["order"][-1] == 2 * 7 + 5  # start first, goal last
    assert len(tr["marks"]) == len(tr["order"]) == res["expanded"]
    # replay every update: the last g and parent of each tile equal the final state sent
    g, parent = {}, {}
    u = tr["updates"]
    for k in range(0, len(u), 3):
        g[int(u[k])], parent[int(u[k])] = u[k + 1], int(u[k + 2])
    for node, fg, fp in zip(tr["nodes"], tr["g"], tr["parent"]):
        assert (g[node], parent[node]) == (fg, fp)
    # Lester's scores: the tile right of the start has G 10, H 30
    right = tr["nodes"].index(2 * 7 + 2)
    assert (tr["g"][right], tr["h"][right]) == (10, 30)
    # parents lead from the goal back to the start along the path
    back, node = [], 2 * 7 + 5
    while node != -1:
        back.append([node % 7, node // 7])
        node = tr["parent"][tr["nodes"].index(node)]
    assert back[::-1] == res["path"]


def test_load_map_and_scen_use_the_core_readers():
    svc = Service()
    text = "type octile\nheight 2\nwidth 3\nmap\n.@.\n...\n"
    out = call(svc, {"type": "load_map", "id": 1, "text": text})
    assert out["type"] == "map" and (out["width"], out["height"]) == (3, 2) and out["start"] is None
    cells = np.frombuffer(svc.take_buffer("cells"), dtype=np.uint8).reshape(2, 3)
    assert cells.tolist() == [[0, 1, 0], [0, 0, 0]]
    assert {t["name"] for t in out["terrains"]} >= {"ground", "wall"}
    art = call(svc, {"type": "load_map", "id": 2, "text": "S.#\n..E\n"})
    assert art["start"] == [0, 0] and art["goal"] == [2, 1]
    scen = call(svc, {"type": "load_scen", "id": 3, "width": 3, "height": 2,
                      "text": "version 1\n0\tm.map\t3\t2\t0\t0\t2\t0\t3.41421\n"})
    assert scen["scenarios"] == [{"id": 0, "bucket": 0, "start": [0, 0], "goal": [2, 0], "optimal": 3.41421}]
    for msg, field in [
        ({"type": "load_map", "id": 4, "text": "type octile\nheight 9\nwidth 3\nmap\n...\n"}, "text"),
        ({"type": "load_map", "id": 5, "text": 42}, "text"),
        ({"type": "load_map", "id": 6, "text": "..?\n"}, "text"),
        ({"type": "load_scen", "id": 7, "width": 3, "height": 2,
          "text": "version 1\n0\tm.map\t3\t2\t0\t0\t7\t0\t3\n"}, "text"),
        ({"type": "load_scen", "id": 8, "width": 0, "height": 2, "text": "version 1\n"}, "width"),
    ]:
        bad = call(svc, msg)
        assert (bad["type"], bad["kind"], bad["field"]) == ("error", "bad_input", field), bad


def test_terrain_costs_change_the_plan():
    svc = Service()
    grid = np.zeros((3, 5), dtype=np.uint8)
    grid[1, 1:4] = 2  # a road through the middle row
    call(svc, plan_msg(1, 5, 3, [0, 1], [4, 1], heuristic="octile"), grid.tobytes())
    cheap = run_to_end(svc, 1)["result"]
    assert all(y == 1 for _x, y in cheap["path"]) and cheap["cost"] == 5 + 5 + 5 + 10  # entering road tiles costs half
    msg = plan_msg(2, 5, 3, [0, 1], [4, 1], version=2, heuristic="octile")
    msg["map"]["terrain_costs"] = [[2, None]]  # the road becomes impassable
    call(svc, msg, grid.tobytes())
    detour = run_to_end(svc, 2)["result"]
    assert not any(grid[y, x] == 2 for x, y in detour["path"])
    for bad in ([[2, -1]], [[2, "free"]], [["road", 1]], "cheap", [[99, 1]]):
        msg = plan_msg(3, 5, 3, [0, 1], [4, 1], version=3)
        msg["map"]["terrain_costs"] = bad
        out = call(svc, msg, grid.tobytes())
        assert (out["type"], out["kind"], out["field"]) == ("error", "bad_input", "map.terrain_costs"), (bad, out)


def test_info_lists_what_a_plan_accepts():
    svc = Service()
    info = call(svc, {"type": "info", "id": "i"})
    assert "astar" in info["methods"] and "octile" in info["heuristics"] and "both" in info["diagonal"]
    grid = bytes(16)
    assert set(info["limits"]) == set(info["methods"])
    for method in info["methods"]:  # every advertised method plans on a plain map
        for open_list in info["limits"][method]["open_lists"]:
            out = call(svc, plan_msg(method + open_list, 4, 4, [0, 0], [3, 3], method=method, open_list=open_list),
                       grid)
            assert out["type"] == "started", out
            assert run_to_end(svc, method + open_list)["result"]["status"] == "found"
        refused = set(info["open_lists"]) - set(info["limits"][method]["open_lists"])
        for open_list in refused:  # and what a method's limits leave out is refused clearly
            out = call(svc, plan_msg("x", 4, 4, [0, 0], [3, 3], method=method, open_list=open_list), grid)
            assert (out["type"], out["field"]) == ("error", "options.open_list"), out


def test_load_map_reads_the_format_it_is_told_and_says_which_it_read():
    svc = Service()
    ascii_text = "S.\n.G\n"
    told_json = call(svc, {"type": "load_map", "id": 1, "text": ascii_text, "format": "json"})
    assert told_json["type"] == "error" and told_json["field"] == "text" and "JSON" in told_json["message"]
    guessed = call(svc, {"type": "load_map", "id": 2, "text": ascii_text})
    assert guessed["type"] == "map" and guessed["format"] == "ascii" and guessed["start"] == [0, 0]
    movingai = call(svc, {"type": "load_map", "id": 3, "text": "type octile\nheight 1\nwidth 2\nmap\n.@\n"})
    assert movingai["format"] == "movingai" and movingai["width"] == 2
    for bad in ("png", ["json"], 3, ""):
        refused = call(svc, {"type": "load_map", "id": 4, "text": ascii_text, "format": bad})
        assert refused["type"] == "error" and refused["field"] == "format", bad


def test_a_goal_may_allow_a_set_of_headings():
    svc = Service()
    grid = np.zeros((9, 14), dtype=np.uint8)
    msg = {"type": "plan", "id": "set", "map": {"width": 14, "height": 9, "version": 1}, "start": [2, 4, 0.0],
           "goal": [11, 4, [math.pi / 2, -math.pi / 2]], "options": {"method": "directional24", "radius": 1.0}}
    assert call(svc, msg, grid.tobytes())["type"] == "started"
    out = run_to_end(svc, "set")
    assert out["type"] == "result" and out["result"]["status"] == "found" and out["result"]["legal"]
    import arcstar
    same = arcstar.plan(arcstar.TileMap(grid), (2, 4, 0.0), (11, 4, [math.pi / 2, -math.pi / 2]),
                        method="directional24", radius=1.0)
    assert math.isclose(out["result"]["cost"], same.cost)  # the library's plan to the same heading set
    for bad in ([11, 4, []], [11, 4, [0.0] * 9], [11, 4, ["north"]], [11, 4, [0.5, True]]):
        refused = call(svc, {**msg, "id": "bad", "goal": bad})
        assert refused["type"] == "error" and refused["field"] == "goal", bad
    refused = call(svc, {**msg, "id": "bad", "start": [2, 4, [0.0]]})
    assert refused["type"] == "error" and refused["field"] == "start"
