"""Terrain palette, brushes, terrain costs, search settings, zoom and pan, and bad input.

Driven with the mouse and the keyboard; ``window.arcstar`` only sets up maps and reads back.
"""

from __future__ import annotations

import pytest
from labkit import (
    check_legal_path,
    drag,
    open_example,
    rows,
    search,
    set_map,
    state,
    status,
    tile_point,
    tiles_of,
    view,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

# 20 x 13, open inside a border: the start and the goal on the middle row.
FIELD = ["#" * 20] + ["#" + "." * 18 + "#" for _ in range(11)] + ["#" * 20]
FIELD[6] = "#S................G#"
START, GOAL = (1, 6), (18, 6)


def options(page: Page) -> dict:
    return page.evaluate("window.arcstar.options()")


def costs(page: Page) -> list:
    return state(page)["costs"]


def test_palette_paints_swamp_and_road_and_the_path_follows(lab: Page):
    set_map(lab, FIELD)
    lab.get_by_test_id("map").focus()
    # Swamp (key 5) with a 3 x 3 brush (] twice), one stroke across the middle.
    lab.keyboard.press("5")
    expect(lab.get_by_test_id("terrain-swamp")).to_have_attribute("aria-pressed", "true")
    lab.keyboard.press("]")
    lab.keyboard.press("]")
    expect(lab.get_by_test_id("brush-3")).to_have_attribute("aria-checked", "true")
    assert state(lab)["brush"] == 3
    drag(lab, (9, 4), (9, 8))
    swamp = tiles_of(rows(lab), "%")
    assert swamp == {(x, y) for x in (8, 9, 10) for y in range(3, 10)}, sorted(swamp)

    # The path goes around the swamp (cost 4), not through it.
    result = search(lab)
    path = result["path"]
    check_legal_path(path, rows(lab), START, GOAL)
    assert not {tuple(p) for p in path} & swamp, "the path crosses the swamp"
    assert result["optimal"] is True

    # Road (key 3), brush 1 (click), along row 10: the path takes the road.
    lab.keyboard.press("3")
    lab.get_by_test_id("brush-1").click()
    drag(lab, (2, 10), (17, 10))
    road = tiles_of(rows(lab), "=")
    assert road == {(x, 10) for x in range(2, 18)}
    result = search(lab)
    path = result["path"]
    check_legal_path(path, rows(lab), START, GOAL)
    on_road = {tuple(p) for p in path} & road
    assert len(on_road) >= 8, f"the path uses only {len(on_road)} road tiles: {path}"
    assert not {tuple(p) for p in path} & swamp

    # Painting is undoable stroke by stroke.
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("Control+z")
    assert not tiles_of(rows(lab), "=") and tiles_of(rows(lab), "%") == swamp
    lab.keyboard.press("Control+z")
    assert rows(lab) == FIELD


def test_editing_a_terrain_cost_changes_the_path_and_undo_restores_it(lab: Page):
    set_map(lab, FIELD)
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("5")
    lab.keyboard.press("]")
    lab.keyboard.press("]")
    drag(lab, (9, 4), (9, 8))
    swamp = tiles_of(rows(lab), "%")
    around = search(lab)
    assert not {tuple(p) for p in around["path"]} & swamp

    # Swamp as cheap as ground: straight through.
    cell = lab.get_by_test_id("cost-swamp")
    expect(cell).to_have_value("4")
    cell.fill("1")
    cell.press("Enter")
    assert costs(lab)[4] == 1
    through = search(lab)
    assert all(y == START[1] for _x, y in through["path"]), through["path"]
    assert through["cost"] < around["cost"]

    # Undo (keyboard, outside the input) puts the cost back, in the table too.
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("Control+z")
    assert costs(lab)[4] == 4
    expect(cell).to_have_value("4")
    again = search(lab)
    assert again["path"] == around["path"]

    # Swamp impassable (∞): around it again.
    cell.fill("∞")
    cell.press("Enter")
    assert costs(lab)[4] is None
    assert not {tuple(p) for p in search(lab)["path"]} & swamp
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("Control+z")
    assert costs(lab)[4] == 4


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("-1", "cannot be negative"),
        ("0", "cannot be 0"),
        ("", "is empty"),
        ("NaN", "is not a number"),
        ("abc", "is not a number"),
    ],
)
def test_a_bad_cost_shows_an_inline_error_and_is_not_sent(lab: Page, typed: str, says: str):
    if state(lab)["width"] != 20:
        set_map(lab, FIELD)
    cell = lab.get_by_test_id("cost-swamp")
    error = lab.get_by_test_id("cost-error")
    cell.fill(typed)
    cell.press("Enter")
    expect(error).to_be_visible()
    expect(error).to_contain_text("swamp")
    expect(error).to_contain_text(says)
    expect(cell).to_have_attribute("aria-invalid", "true")
    assert costs(lab)[4] == 4, "a bad cost was applied"
    # A search is refused with the reason, not sent with a bad cost.
    before = state(lab)["searches"]
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("Enter")
    expect(status(lab)).to_have_attribute("data-state", "error")
    expect(status(lab)).to_contain_text("Not searching")
    expect(status(lab)).to_contain_text(says)
    assert state(lab)["searches"] == before + 1
    # Esc in the field puts the valid cost back and clears the error.
    cell.focus()
    cell.press("Escape")
    expect(cell).to_have_value("4")
    expect(error).to_be_hidden()
    expect(cell).not_to_have_attribute("aria-invalid", "true")


def test_dijkstra_expands_more_than_a_star(lab: Page):
    open_example(lab)
    method = lab.get_by_test_id("method")
    values = method.evaluate("(s) => [...s.options].map((o) => o.value)")
    assert {"astar", "dijkstra"} <= set(values), values  # the menu comes from the engine

    method.select_option("dijkstra")
    expect(lab.get_by_test_id("heuristic")).to_be_disabled()
    expect(lab.get_by_test_id("weight")).to_be_disabled()
    expect(lab.get_by_test_id("method-note")).to_contain_text("Dijkstra")
    dijkstra = search(lab)

    method.select_option("astar")
    lab.get_by_test_id("heuristic").select_option("octile")
    expect(lab.get_by_test_id("heuristic")).to_be_enabled()
    expect(lab.get_by_test_id("method-note")).to_contain_text("least-cost")
    astar = search(lab)

    assert dijkstra["optimal"] and astar["optimal"]
    assert astar["cost"] == pytest.approx(dijkstra["cost"])
    assert dijkstra["expanded"] > 2 * astar["expanded"], (dijkstra["expanded"], astar["expanded"])
    assert dijkstra["closedCount"] > astar["closedCount"]

    # Manhattan with diagonals: the note warns it may not find the shortest path.
    lab.get_by_test_id("heuristic").select_option("manhattan")
    expect(lab.get_by_test_id("method-note")).to_contain_text("may not find the shortest path")
    manhattan = search(lab)
    assert manhattan["optimal"] is False
    expect(status(lab)).to_contain_text("not guaranteed shortest")
    lab.get_by_test_id("heuristic").select_option("octile")


def test_four_neighbours_change_the_path(lab: Page):
    field = [r.replace("S", ".").replace("G", ".") for r in FIELD]
    field[2] = "#S" + field[2][2:]
    field[10] = field[10][:18] + "G#"
    set_map(lab, field)
    st = state(lab)
    eight = search(lab)
    assert any(a[0] != b[0] and a[1] != b[1] for a, b in zip(eight["path"], eight["path"][1:])), (
        "no diagonal step with 8 neighbours"
    )
    lab.get_by_test_id("neighbours").select_option("4")
    expect(lab.get_by_test_id("diagonal")).to_be_disabled()
    four = search(lab)
    check_legal_path(four["path"], field, st["start"], st["goal"], neighbours=4)
    assert four["path"] != eight["path"]
    assert four["cost"] > eight["cost"]
    lab.get_by_test_id("neighbours").select_option("8")
    expect(lab.get_by_test_id("diagonal")).to_be_enabled()


def test_open_list_turn_penalty_and_stop_rule_reach_the_search(lab: Page):
    open_example(lab)
    heap = search(lab)
    lab.get_by_test_id("open-list").select_option("unsorted")  # Pinter's fixed matrix
    unsorted = search(lab)
    assert unsorted["cost"] == pytest.approx(heap["cost"]) and unsorted["optimal"]
    lab.get_by_test_id("open-list").select_option("heap")

    lab.get_by_test_id("stop").select_option("reached")
    expect(lab.get_by_test_id("method-note")).to_contain_text("first reached")
    reached = search(lab)
    assert reached["optimal"] is False and reached["expanded"] <= heap["expanded"]
    lab.get_by_test_id("stop").select_option("closed")

    lab.get_by_test_id("turn-penalty").fill("30")
    expect(lab.get_by_test_id("method-note")).to_contain_text("turn penalty")
    turned = search(lab)
    assert turned["optimal"] is False

    def turns(path):
        steps = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:])]
        return sum(1 for s, t in zip(steps, steps[1:]) if s != t)

    assert turns(turned["path"]) <= turns(heap["path"])
    lab.get_by_test_id("turn-penalty").fill("0")
    expect(lab.get_by_test_id("method-note")).not_to_contain_text("turn penalty")


def test_a_budget_of_zero_and_other_bad_numbers_are_refused(lab: Page):
    open_example(lab)
    budget = lab.get_by_test_id("budget")
    errors = lab.get_by_test_id("options-error")
    budget.fill("0")
    expect(errors).to_be_visible()
    expect(errors).to_contain_text("budget of 0")
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("Enter")
    expect(status(lab)).to_have_attribute("data-state", "error")
    expect(status(lab)).to_contain_text("budget of 0")

    budget.fill("-3")
    expect(errors).to_contain_text("negative")
    lab.get_by_test_id("weight").fill("-1")
    expect(errors).to_contain_text("Weight cannot be negative")
    lab.get_by_test_id("weight").fill("1")

    # A small budget is sent: the search gives up, clearly.
    budget.fill("5")
    expect(errors).to_be_hidden()
    result = search(lab, "no_path")
    assert result["status"] == "budget_exhausted" and result["expanded"] == 5
    expect(status(lab)).to_contain_text("budget exhausted")
    budget.fill("")
    assert search(lab)["status"] == "found"


def test_the_worker_refuses_bad_messages_clearly_and_lives_on(lab: Page):
    """Bad costs, budgets, sizes and files sent straight to the worker: one-line errors."""
    plan = (
        "{type: 'plan', id: '%s', map: {width: 4, height: 3, version: '%s',"
        " cells: new Uint8Array(12)%s}, start: [0, 0], goal: [3, 2], options: %s}"
    )
    cases = {
        "budget of zero": (plan % ("b0", "v1", "", "{max_expansions: 0}"), "max_expansions"),
        "NaN cost": (plan % ("nan", "v2", ", terrain_costs: [[0, NaN]]", "{}"), "finite"),
        "negative cost": (plan % ("neg", "v3", ", terrain_costs: [[0, -2]]", "{}"), "positive"),
        "NaN weight": (plan % ("w", "v4", "", "{weight: NaN}"), "finite"),
        "absurd size": (
            "{type: 'plan', id: 'huge', map: {width: 10000, height: 10000, version: 'v5',"
            " cells: new Uint8Array(16)}, start: [0, 0], goal: [1, 1]}",
            "10000x10000",
        ),
        "absurd size, no cells": (
            "{type: 'plan', id: 'huge2', map: {width: 10000, height: 10000, version: 'v6'},"
            " start: [0, 0], goal: [1, 1]}",
            "no map with version",
        ),
        "absurd .map header": (
            "{type: 'load_map', id: 'm1', text: 'type octile\\nheight 10000\\nwidth 10000\\nmap\\n'}",
            "larger than the limit",
        ),
        "truncated .map": (
            "{type: 'load_map', id: 'm2', text: 'type octile\\nheight 9\\nwidth 3\\nmap\\n...\\n'}",
            "truncated",
        ),
        "map text not text": ("{type: 'load_map', id: 'm3', text: 42}", "text"),
        "scenario outside": (
            "{type: 'load_scen', id: 's1', width: 3, height: 2,"
            " text: 'version 1\\n0\\tm.map\\t3\\t2\\t0\\t0\\t7\\t0\\t3\\n'}",
            "outside",
        ),
        "scenario for an absurd map": (
            "{type: 'load_scen', id: 's2', width: 100000, height: 100000, text: 'version 1\\n'}",
            "limit",
        ),
    }
    for name, (literal, hint) in cases.items():
        reply = lab.evaluate(f"window.arcstar._rawPlan({literal})")
        assert reply["type"] == "error", f"{name}: {reply}"
        assert hint in reply["message"], f"{name}: {reply['message']!r} lacks {hint!r}"
        assert len(reply["message"]) < 300 and "Traceback" not in reply["message"], (name, reply)
    info = lab.evaluate("window.arcstar._rawPlan({type: 'info', id: 'i'})")
    assert info["type"] == "info" and "astar" in info["methods"]
    open_example(lab)
    assert search(lab)["status"] == "found"


def test_zoom_and_pan_with_wheel_keys_slider_and_drags(lab: Page):
    open_example(lab)
    before = rows(lab)
    fit = view(lab)
    assert fit["fitted"] and not fit["lester"]
    canvas = lab.get_by_test_id("map")
    canvas.focus()

    lab.keyboard.press("+")
    zoomed = view(lab)
    assert zoomed["tileSize"] == pytest.approx(fit["tileSize"] * 1.25)
    assert not zoomed["fitted"]
    lab.keyboard.press("-")
    assert view(lab)["tileSize"] == pytest.approx(fit["tileSize"])

    # The wheel zooms around the pointer: the tile under it stays under it.
    x, y = tile_point(lab, 10, 20)
    lab.mouse.move(x, y)
    lab.mouse.wheel(0, -400)
    lab.wait_for_function(f"window.arcstar.view().tileSize > {fit['tileSize'] * 1.5}")
    assert tile_point(lab, 10, 20) == pytest.approx((x, y), abs=1.0)
    zoomed_in = view(lab)["tileSize"]
    lab.mouse.wheel(0, 300)
    lab.wait_for_function(f"window.arcstar.view().tileSize < {zoomed_in}")

    # The slider, all the way: 128 px a tile, Lester's view is on (no search yet: nothing to draw).
    lab.get_by_test_id("zoom").fill("1000")
    assert view(lab)["tileSize"] == pytest.approx(128)

    # Middle drag pans, and paints nothing.
    v0 = view(lab)
    box = canvas.bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    lab.mouse.move(cx, cy)
    lab.mouse.down(button="middle")
    lab.mouse.move(cx - 150, cy - 90, steps=6)
    lab.mouse.up(button="middle")
    v1 = view(lab)
    assert (v1["ox"] - v0["ox"], v1["oy"] - v0["oy"]) == pytest.approx((-150, -90), abs=1)

    # Space + left drag pans too (and releasing Space does not start a replay).
    canvas.focus()
    lab.keyboard.down(" ")
    lab.mouse.move(cx, cy)
    lab.mouse.down()
    lab.mouse.move(cx + 100, cy + 40, steps=6)
    lab.mouse.up()
    lab.keyboard.up(" ")
    v2 = view(lab)
    assert (v2["ox"] - v1["ox"], v2["oy"] - v1["oy"]) == pytest.approx((100, 40), abs=1)
    assert rows(lab) == before, "panning painted tiles"

    # Arrow keys pan; 0 and the Fit button show the whole map again.
    lab.keyboard.press("ArrowRight")
    assert view(lab)["ox"] < v2["ox"]
    lab.keyboard.press("0")
    assert view(lab)["fitted"] and view(lab)["tileSize"] == fit["tileSize"]
    lab.keyboard.press("+")
    lab.get_by_test_id("fit").click()
    assert view(lab)["fitted"]
    expect(lab.get_by_test_id("zoom-text")).to_contain_text(f"{round(fit['tileSize'])} px")
