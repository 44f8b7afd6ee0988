"""The lab tells the truth about its results and keeps the user's work (issue 9: bugs 3 and 4,
"Never lose a user's work", "Easier on the eye and the hand"). Each test failed before its fix."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from labkit import (
    EXAMPLE,
    SEARCH_TIMEOUT_MS,
    drag,
    open_example,
    rows,
    search,
    set_map,
    state,
    status,
)
from playwright.sync_api import Page, expect

from conftest import RECORDER, VIEWPORT

pytestmark = pytest.mark.e2e

RESTART_TIMEOUT_MS = 120_000
SAVE_KEY = "arcstar.lab.v1"
# A long open corridor: the unit drives along row 2 for a while.
CORRIDOR = [
    "........................................",
    "........................................",
    "S......................................G",
    "........................................",
    "........................................",
]
L_MAP = [
    "S.........",
    ".########.",
    ".#......#.",
    ".#......#.",
    ".#.....G#.",
    "..........",
]


@pytest.fixture
def fresh(lab_factory):
    context, page = lab_factory()
    yield page
    errors = page.page_errors + page.evaluate("window.__errors")
    context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


def _slow_unit(page: Page) -> None:
    page.get_by_test_id("speed").fill("1")


def _idle(page: Page) -> None:
    page.wait_for_function("!window.arcstar.state().searching", timeout=SEARCH_TIMEOUT_MS)


# ---------------------------------------------------------------- bug 3: stale results


def test_painting_walls_while_the_unit_drives_stops_it_and_marks_the_result_out_of_date(lab: Page):
    set_map(lab, CORRIDOR)
    _slow_unit(lab)
    search(lab)
    expect(status(lab)).to_contain_text("Path found")
    lab.wait_for_function("window.arcstar.state().unit.moving")
    drag(lab, (20, 0), (20, 4))  # a wall across the corridor, ahead of the unit
    assert all(r[20] == "#" for r in rows(lab))
    expect(status(lab)).to_have_attribute("data-state", "stale")
    expect(status(lab)).to_contain_text("out of date")
    expect(status(lab)).not_to_contain_text("Path found")
    st = state(lab)
    assert st["resultStale"] is True
    assert st["unit"]["moving"] is False
    x = st["unit"]["x"]
    lab.wait_for_timeout(400)
    assert state(lab)["unit"]["x"] == x < 20, "the unit drove on into the new wall"
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("Control+z")
    expect(status(lab)).to_contain_text("out of date")  # undo is an edit too


def test_on_map_edit_replan_plans_again_from_where_the_unit_is(lab: Page):
    set_map(lab, CORRIDOR)
    _slow_unit(lab)
    lab.get_by_test_id("on-edit").select_option("replan")
    search(lab)
    lab.wait_for_function("window.arcstar.state().unit.x > 2.5")
    before = state(lab)["searches"]
    drag(lab, (20, 0), (20, 3))  # leaves row 4 open
    lab.wait_for_function(f"window.arcstar.state().searches > {before} && !window.arcstar.state().searching",
                          timeout=SEARCH_TIMEOUT_MS)
    result = state(lab)["lastResult"]
    assert result["status"] == "found"
    assert result["start"] != [0, 2] and result["start"][0] >= 2, result["start"]  # from the unit, not from S
    assert [20, 4] in result["path"] and not any(p[0] == 20 and p[1] < 4 for p in result["path"])
    expect(status(lab)).to_have_attribute("data-state", "found")
    assert state(lab)["unit"]["moving"]
    lab.get_by_test_id("on-edit").select_option("stop")


@pytest.mark.parametrize("edit", ["paint", "undo"])
def test_an_edit_during_a_search_reports_its_result_for_the_map_before(lab: Page, edit: str):
    lab.get_by_test_id("map-select").select_option("maze")
    lab.wait_for_function("window.arcstar.state().width === 1024")
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("5")  # swamp: it changes ground and wall tiles alike
    if edit == "undo":
        drag(lab, (500, 3), (502, 3))
    lab.get_by_test_id("find").click()
    expect(status(lab)).to_contain_text("nodes expanded", timeout=SEARCH_TIMEOUT_MS)
    assert state(lab)["searching"], "the search ended before the edit"
    if edit == "paint":
        drag(lab, (600, 3), (602, 3))
    else:
        lab.get_by_test_id("map").focus()
        lab.keyboard.press("Control+z")
    _idle(lab)
    lab.keyboard.press("2")  # back to painting walls
    result = state(lab)["lastResult"]
    assert result["status"] == "found" and result["edited"] is True
    expect(status(lab)).to_have_attribute("data-state", "stale")
    expect(status(lab)).to_contain_text("for the map before your edit")
    expect(status(lab)).not_to_contain_text("(shortest)")
    assert state(lab)["unit"]["moving"] is False  # a path for another map is not driven
    open_example(lab)


# ---------------------------------------------------------------- bug 4


def test_the_turning_menu_lists_each_choice_once(lab: Page):
    labels = lab.get_by_test_id("turning").locator("option").all_inner_texts()
    assert labels.count("none (tile path)") == 1 and len(labels) == len(set(labels)), labels


def test_switching_to_the_example_map_replaces_the_last_maps_status(lab: Page):
    lab.get_by_test_id("map-select").select_option("lester")
    expect(status(lab)).to_contain_text("Lester's example")
    lab.get_by_test_id("map-select").select_option("example")
    expect(status(lab)).to_contain_text("example map")
    expect(status(lab)).not_to_contain_text("Lester")
    lab.evaluate("window.arcstar.setOptions({heuristic: 'octile'})")


@pytest.mark.parametrize(("field", "text", "says"), [
    ("turn-penalty", "x", 'Turn cost "x" is not a number'),
    ("budget", "abc", 'Budget "abc" is not a number'),
    ("weight", "heavy", 'Weight "heavy" is not a number'),
    ("weight", "0x10", 'Weight "0x10" is not a number'),
])
def test_text_in_a_number_field_is_refused_inline_and_never_searched(lab: Page, field: str, text: str, says: str):
    set_map(lab, CORRIDOR)
    box = lab.get_by_test_id(field)
    box.fill(text)
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(lab.get_by_test_id("options-error")).to_contain_text(says)
    before = state(lab)
    box.press("Enter")
    lab.wait_for_function(f"window.arcstar.state().searches > {before['searches']}")
    expect(status(lab)).to_have_attribute("data-state", "error")
    expect(status(lab)).to_contain_text("Not searching")
    assert state(lab)["lastResult"] == before["lastResult"]  # nothing was searched with a guessed value
    box.fill({"turn-penalty": "0", "budget": "", "weight": "1"}[field])
    expect(lab.get_by_test_id("options-error")).to_be_hidden()


def _wait_for_methods(page: Page) -> None:
    page.wait_for_function("[...document.querySelectorAll('#method option')].some((o) => o.value === 'jps')")


@pytest.mark.parametrize(("method", "setup", "why"), [
    ("jps", {"neighbours": 4}, "needs 8 neighbours (4 chosen)"),
    ("jpsplus", {"diagonal": "always"}, "needs the diagonal rule"),
    ("jps", {}, "mixes costs"),
])
def test_a_jump_search_that_runs_as_a_star_says_so_and_why(lab: Page, method: str, setup: dict, why: str):
    _wait_for_methods(lab)
    set_map(lab, ["S....%%...", ".........G"] if not setup else ["S.........", ".........G"])
    lab.evaluate("(o) => window.arcstar.setOptions(o)", {"method": method, **setup})
    expect(lab.get_by_test_id("method-note")).to_contain_text("plan with A* instead")
    result = search(lab)
    assert result["fallback"]["ran"] == "astar" and result["fallback"]["asked"] == method
    expect(status(lab)).to_contain_text("Planned with A* instead of")
    expect(status(lab)).to_contain_text(why)
    lab.evaluate("window.arcstar.setOptions({method: 'astar', neighbours: 8, diagonal: 'both'})")
    search(lab)
    expect(status(lab)).not_to_contain_text("instead of")


def test_a_path_whose_unit_pivots_in_place_says_so(lab: Page):
    set_map(lab, L_MAP)
    lab.get_by_test_id("turning").select_option("smooth")
    result = search(lab)
    assert result["pivots"] > 0
    expect(status(lab)).to_contain_text("pivots in place")
    expect(status(lab)).not_to_contain_text("Legal path (smooth)")
    lab.get_by_test_id("turning").select_option("")


def test_a_json_file_that_is_no_map_is_not_called_ascii(lab: Page, tmp_path: Path):
    set_map(lab, CORRIDOR)
    for name, text in [("notes.json", "hello"), ("list.json", "[1, 2, 3]")]:
        bad = tmp_path / name
        bad.write_text(text)
        lab.set_input_files("#file", str(bad))
        expect(status(lab)).to_contain_text(name)
        expect(status(lab)).to_have_attribute("data-state", "error")
        expect(status(lab)).to_contain_text("JSON")
        expect(status(lab)).not_to_contain_text("ASCII")
    assert rows(lab) == CORRIDOR


def test_counts_of_one_are_singular(lab: Page, tmp_path: Path):
    set_map(lab, ["SG.", "..."])
    search(lab)
    scen = tmp_path / "one.scen"
    scen.write_text("version 1\n0\tx.map\t3\t2\t0\t0\t2\t1\t2.41421356\n")
    lab.set_input_files("#file", str(scen))
    expect(status(lab)).to_contain_text("1 scenario for")
    log = " ".join(e["text"] for e in lab.evaluate("window.__statusLog"))
    assert not re.search(r"(?<![\d.,])1 (tiles|nodes|scenarios|turns|corners|stretches)\b", log), log


# ---------------------------------------------------------------- never lose a user's work


def _saved(page: Page) -> dict:
    page.wait_for_function(f"localStorage.getItem('{SAVE_KEY}') !== null")
    return json.loads(page.evaluate(f"localStorage.getItem('{SAVE_KEY}')"))


def _ready(page: Page) -> None:
    page.wait_for_function("window.arcstar !== undefined")
    page.evaluate("window.arcstar.ready.then(() => { window.__ready = true; })")
    page.wait_for_function("window.__ready === true", timeout=RESTART_TIMEOUT_MS)


def test_work_is_autosaved_and_comes_back_after_a_reload_or_a_closed_tab(fresh: Page):
    set_map(fresh, L_MAP)
    swamp = fresh.get_by_test_id("cost-swamp")
    swamp.fill("7")
    swamp.press("Enter")
    fresh.get_by_test_id("method").select_option("dijkstra")
    fresh.get_by_test_id("turning").select_option("tighter")
    fresh.get_by_test_id("on-edit").select_option("replan")
    drag(fresh, (3, 3), (5, 3))
    expected_rows = rows(fresh)
    st = state(fresh)
    fresh.wait_for_function(
        f"JSON.parse(localStorage.getItem('{SAVE_KEY}') || 'null')?.unit?.on_edit === 'replan'"
        f" && JSON.parse(localStorage.getItem('{SAVE_KEY}')).map.width === {len(L_MAP[0])}")
    assert _saved(fresh)["costs"] == st["costs"]

    fresh.reload()
    _ready(fresh)
    assert rows(fresh) == expected_rows
    assert state(fresh)["costs"] == st["costs"]
    assert fresh.evaluate("window.arcstar.options()")["method"] == "dijkstra"
    assert fresh.evaluate("window.arcstar.unitOptions()")["turning"] == "tighter"
    expect(fresh.get_by_test_id("on-edit")).to_have_value("replan")
    expect(fresh.get_by_test_id("cost-swamp")).to_have_value("7")
    expect(fresh.get_by_test_id("notice")).to_contain_text("restored")

    # A closed tab: a new one in the same browser gets the work back.
    other = fresh.context.new_page()
    other.goto(fresh.url)
    _ready(other)
    assert rows(other) == expected_rows
    other.close()

    # Reset returns to the example and the default settings.
    fresh.once("dialog", lambda d: d.accept())
    fresh.get_by_test_id("reset").click()
    fresh.wait_for_function("window.arcstar.state().width === 48")
    assert rows(fresh) == EXAMPLE
    assert fresh.evaluate("window.arcstar.options()")["method"] == "astar"
    assert _saved(fresh)["map"]["width"] == 48


def test_a_huge_map_is_autosaved_compressed_or_said_not_to_be(fresh: Page, tmp_path: Path):
    path = tmp_path / "open4096.map"
    path.write_text("type octile\nheight 4096\nwidth 4096\nmap\n" + ("." * 4096 + "\n") * 4096)
    fresh.set_input_files("#file", str(path))
    fresh.wait_for_function("window.arcstar.state().width === 4096", timeout=SEARCH_TIMEOUT_MS)
    fresh.wait_for_function(f"JSON.parse(localStorage.getItem('{SAVE_KEY}') || 'null')?.map?.width === 4096")
    assert len(fresh.evaluate(f"localStorage.getItem('{SAVE_KEY}')")) < 10_000  # run-length encoded
    # A 4096^2 map of noise cannot fit: the Map panel says it is not autosaved, nothing breaks.
    fresh.evaluate("""() => {
        const m = window.arcstar.state();
        const rows = [];
        for (let y = 0; y < 1200; y++) {
            let r = '';
            for (let x = 0; x < 1200; x++) r += ((x * 7 + y * 13) % 3) ? '.' : '~';
            rows.push(r);
        }
        return window.arcstar.setMap(rows);
    }""")
    expect(fresh.get_by_test_id("save-note")).to_contain_text("too large to autosave", timeout=10_000)
    assert fresh.evaluate(f"localStorage.getItem('{SAVE_KEY}')") is None  # no older map comes back instead
    assert state(fresh)["width"] == 1200


TAMPERED = {
    "not json": "{{{",
    "wrong version": json.dumps({"v": 99}),
    "absurd size": json.dumps({"v": 1, "map": {"width": 10**9, "height": 2, "runs": [0, 1], "start": [0, 0],
                                               "goal": [1, 0]}}),
    "unknown terrain": json.dumps({"v": 1, "map": {"width": 2, "height": 1, "runs": [250, 2], "start": [0, 0],
                                                   "goal": [1, 0]}}),
    "short cells": json.dumps({"v": 1, "map": {"width": 3, "height": 3, "runs": [0, 2], "start": [0, 0],
                                               "goal": [1, 0]}}),
    "goal off the map": json.dumps({"v": 1, "map": {"width": 2, "height": 1, "runs": [0, 2], "start": [0, 0],
                                                    "goal": [5, 9]}}),
    "poisoned settings": json.dumps({"v": 1, "map": {"width": 2, "height": 1, "runs": [0, 2], "start": [0, 0],
                                                     "goal": [1, 0]}, "costs": [1, None, 1.5, 2, 4, 3, None],
                                     "mapKey": "", "search": {"method": {"__proto__": {"x": 1}}}, "unit": {}}),
    "a string for costs": json.dumps({"v": 1, "map": {"width": 2, "height": 1, "runs": [0, 2], "start": [0, 0],
                                                      "goal": [1, 0]}, "costs": "NaN"}),
}


@pytest.mark.parametrize("case", sorted(TAMPERED))
def test_tampered_autosave_gives_a_clear_message_and_the_example(browser, site_url, case: str):
    context = browser.new_context(viewport=VIEWPORT, bypass_csp=True)  # see conftest.open_lab
    context.add_init_script(RECORDER)
    context.add_init_script(f"localStorage.setItem({json.dumps(SAVE_KEY)}, {json.dumps(TAMPERED[case])});")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(site_url)
        _ready(page)
        expect(page.get_by_test_id("notice")).to_contain_text("could not be restored")
        assert rows(page) == EXAMPLE
        assert page.evaluate("window.arcstar.findPath()")["status"] == "found"
        assert page.evaluate("localStorage.getItem('arcstar.lab.v1.unreadable')") == TAMPERED[case]
        assert not errors and not page.evaluate("window.__errors"), errors
    finally:
        context.close()


def test_undo_history_survives_an_engine_restart(fresh: Page):
    set_map(fresh, CORRIDOR)
    drag(fresh, (5, 0), (5, 3))
    drag(fresh, (9, 1), (9, 4))
    painted = rows(fresh)
    fresh.workers[0].evaluate("setTimeout(() => { throw new Error('x') }, 0)")
    fresh.wait_for_function("window.arcstar.state().worker.restarts === 1", timeout=RESTART_TIMEOUT_MS)
    fresh.wait_for_function("window.arcstar.state().engine === 'ready'", timeout=RESTART_TIMEOUT_MS)
    assert rows(fresh) == painted
    fresh.get_by_test_id("map").focus()
    fresh.keyboard.press("Control+z")
    assert all(r[9] == "." for r in rows(fresh)) and all(r[5] == "#" for r in rows(fresh)[:4])
    fresh.keyboard.press("Control+z")
    assert rows(fresh) == CORRIDOR
    fresh.keyboard.press("Control+y")
    assert all(r[5] == "#" for r in rows(fresh)[:4])
    assert search(fresh)["status"] == "found"


def test_a_preset_shows_the_settings_it_changes_and_undoes_them(lab: Page):
    open_example(lab)
    lab.evaluate("window.arcstar.setOptions({heuristic: 'octile', costs: 'octile'})")
    lab.get_by_test_id("map-select").select_option("lester")
    note = lab.get_by_test_id("settings-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("heuristic octile \u2192 Manhattan")
    expect(note).to_contain_text("step costs")
    expect(status(lab)).to_contain_text("changed the search settings")
    assert lab.evaluate("window.arcstar.options()")["heuristic"] == "manhattan"
    lab.get_by_test_id("settings-undo").click()
    opts = lab.evaluate("window.arcstar.options()")
    assert opts["heuristic"] == "octile" and opts["costs"] == "octile"
    expect(note).to_contain_text("back")
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("Control+y")  # and redo
    assert lab.evaluate("window.arcstar.options()")["heuristic"] == "manhattan"
    open_example(lab)


def test_a_json_map_that_brings_its_costs_says_so_and_undo_restores_yours(lab: Page, tmp_path: Path):
    set_map(lab, CORRIDOR)
    before = state(lab)["costs"]
    doc = {"format": "arcstar-map", "width": 3, "height": 1, "rows": ["%.%"],
           "terrains": [{"code": 0, "name": "ground", "char": ".", "cost": 1},
                        {"code": 1, "name": "wall", "char": "#", "cost": None},
                        {"code": 4, "name": "swamp", "char": "%", "cost": 9}]}
    path = tmp_path / "own.json"
    path.write_text(json.dumps(doc))
    lab.set_input_files("#file", str(path))
    expect(status(lab)).to_contain_text("own.json")
    expect(status(lab)).to_contain_text("set its own terrain costs")
    expect(status(lab)).to_contain_text("swamp")
    assert state(lab)["costs"][4] == 9
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("Control+z")
    assert state(lab)["costs"] == before


# ---------------------------------------------------------------- easier on the eye and the hand


@pytest.mark.parametrize("size", [{"width": 800, "height": 600}, {"width": 390, "height": 844}])
def test_no_horizontal_scroll_and_a_status_line_of_fixed_height(lab_factory, size: dict):
    context, page = lab_factory(viewport=size)
    try:
        set_map(page, CORRIDOR)
        scroll = "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        sw, cw = page.evaluate(scroll)
        assert sw <= cw, f"horizontal scroll at {size}: {sw} > {cw}"
        box = page.get_by_test_id("status")
        h0 = box.bounding_box()["height"]
        page.get_by_test_id("turn-penalty").fill("not a number at all " * 10)
        page.get_by_test_id("map").focus()
        page.keyboard.press("Enter")
        expect(box).to_contain_text("Not searching")
        assert abs(box.bounding_box()["height"] - h0) < 1
        sw, cw = page.evaluate(scroll)
        assert sw <= cw, f"horizontal scroll at {size} after a long message: {sw} > {cw}"
        # The side panel's sections fold.
        summary = page.locator("summary", has_text="Search")
        summary.click()
        expect(page.get_by_test_id("method")).to_be_hidden()
        summary.click()
        expect(page.get_by_test_id("method")).to_be_visible()
    finally:
        context.close()


def test_the_replay_bar_says_why_there_is_nothing_to_replay(fresh: Page):
    pos = fresh.get_by_test_id("rp-pos")
    expect(pos).to_contain_text("no search")
    set_map(fresh, CORRIDOR)
    fresh.get_by_test_id("explored").uncheck()
    search(fresh)
    expect(pos).to_contain_text("was off")
    fresh.get_by_test_id("explored").check()
    search(fresh)
    expect(pos).to_contain_text("expansion")
    drag(fresh, (30, 0), (30, 0))
    expect(pos).to_contain_text("the map was edited")


def test_the_compare_legend_does_not_cover_the_map(lab: Page):
    set_map(lab, L_MAP)
    lab.get_by_test_id("turning").select_option("tighter")
    lab.get_by_test_id("compare").check()
    search(lab)
    legend = lab.get_by_test_id("compare-legend")
    expect(legend).to_be_visible()
    expect(legend).not_to_contain_text("(coming)")
    a = legend.bounding_box()
    b = lab.get_by_test_id("map").bounding_box()
    overlap = min(a["x"] + a["width"], b["x"] + b["width"]) > max(a["x"], b["x"]) and \
        min(a["y"] + a["height"], b["y"] + b["height"]) > max(a["y"], b["y"])
    assert not overlap, (a, b)
    lab.get_by_test_id("compare").uncheck()
    lab.get_by_test_id("turning").select_option("")


def test_help_opens_with_the_key_and_the_button_and_escape_closes_it(lab: Page):
    dialog = lab.get_by_test_id("help-dialog")
    expect(dialog).to_be_hidden()
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("?")
    expect(dialog).to_be_visible()
    for words in ("Enter", "Undo", "Terrain", "Unit", "Map", "replay"):
        expect(dialog).to_contain_text(words)
    lab.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    lab.get_by_test_id("help-open").click()
    expect(dialog).to_be_visible()
    lab.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert not state(lab)["helpOpen"]
