"""The lab keeps the user's work round the units, as an outside survey of the lab found it did not:
a scenario or a map preset opened over painted walls and placed units is one undo step that brings
them back; a bad action in Command units mode is said where the user looks (the status line); the
metrics table under the map can be scrolled at phone width; a work file replaces the Units panel's
message, and one with an unknown avoidance method is refused; under fog what the units see is shown
at load; placing on a wall is said in words for people, and an order queued behind an endless
patrol is refused.

The page is driven with the mouse and keyboard; ``window.arcstar`` reads it back.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from labkit import BLOCKED, EXAMPLE, drag, point, press_on_map, rows, state, status, world
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

TIMEOUT_MS = 60_000
DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}


def units_of(page: Page) -> list[tuple]:
    return sorted((u["id"], u["kind"], u["team"], u["x"], u["y"]) for u in world(page)["units"])


def place(page: Page, kind: str, tile: tuple[int, int], team: str = "blue") -> str:
    """Place a unit with the Units panel's tool and a click on a tile; its id."""
    n = len(world(page)["units"])
    page.get_by_test_id("mode-units").click()
    page.get_by_test_id(f"tool-{kind}").click()
    page.get_by_test_id("world-team").select_option(team)
    page.mouse.click(*point(page, tile[0] + 0.5, tile[1] + 0.5))
    page.wait_for_function(f"window.arcstar.world().units.length === {n + 1}", timeout=TIMEOUT_MS)
    return world(page)["units"][-1]["id"]


def make_work(page: Page) -> tuple[list[str], list[tuple]]:
    """On the example map: a wall painted with the mouse (one stroke) and a car placed; the rows
    and the units as they are then."""
    assert rows(page) == EXAMPLE
    page.get_by_test_id("mode-edit").click()
    drag(page, (20, 25), (28, 25))
    painted = rows(page)
    assert painted != EXAMPLE and all(painted[25][x] == "#" for x in range(20, 29))
    assert EXAMPLE[18][35] not in BLOCKED
    place(page, "car", (35, 18), "green")
    return painted, units_of(page)


def load_scenario(page: Page, name: str) -> None:
    page.wait_for_function("window.arcstar.world().presets.length > 0", timeout=TIMEOUT_MS)
    loads = world(page)["loads"]
    page.get_by_test_id("world-preset").select_option(name)
    page.get_by_test_id("world-load").click()
    page.wait_for_function(
        f"(() => {{ const w = window.arcstar.world(); return w.loads > {loads} && w.preset === {name!r}"
        " && w.units.length > 0 && !w.running; })()", timeout=TIMEOUT_MS)


def wait_units(page: Page, units: list[tuple]) -> None:
    ids = json.dumps(json.dumps(sorted(u[0] for u in units), separators=(",", ":")))
    page.wait_for_function(f"JSON.stringify(window.arcstar.world().units.map((u) => u.id).sort()) === {ids}",
                           timeout=TIMEOUT_MS)


def work_file(page: Page, tmp_path: Path, name: str = "work.json") -> dict:
    """The work as the JSON export writes it (downloaded as a person would)."""
    with page.expect_download(timeout=TIMEOUT_MS) as info:
        page.get_by_test_id("export-json").click()
    path = tmp_path / name
    info.value.save_as(path)
    return json.loads(path.read_text())


# ----------------------------------------------------------------------------- 1: one undo step


def test_loading_a_scenario_is_one_undo_step_that_brings_back_walls_units_and_history(lab_factory):
    context, page = lab_factory()
    try:
        painted, mine = make_work(page)
        settings = page.evaluate("window.arcstar.options()")
        load_scenario(page, "door")
        assert rows(page) != painted and len(world(page)["units"]) == 20
        undo = page.get_by_test_id("undo")
        expect(undo).to_be_enabled()
        # one undo: the painted map and the placed car are back, where they were
        press_on_map(page, "Control+z")
        wait_units(page, mine)
        assert rows(page) == painted
        assert units_of(page) == mine
        assert page.evaluate("window.arcstar.options()") == settings
        assert world(page)["preset"] == ""
        expect(status(page)).to_contain_text("back")
        # and the history before it stays: the car's placing, then the stroke
        expect(undo).to_be_enabled()
        press_on_map(page, "Control+z")
        page.wait_for_function("window.arcstar.world().units.length === 0", timeout=TIMEOUT_MS)
        assert rows(page) == painted
        press_on_map(page, "Control+z")
        assert rows(page) == EXAMPLE
        expect(undo).to_be_disabled()
        # redo all three: the stroke, the car, the scenario
        press_on_map(page, "Control+Shift+z")
        assert rows(page) == painted
        press_on_map(page, "Control+Shift+z")
        wait_units(page, mine)
        press_on_map(page, "Control+Shift+z")
        page.wait_for_function("(() => { const w = window.arcstar.world();"
                               " return w.preset === 'door' && w.units.length === 20; })()", timeout=TIMEOUT_MS)
        assert rows(page) != painted
        press_on_map(page, "Control+z")
        wait_units(page, mine)
        assert rows(page) == painted
    finally:
        context.close()


def test_a_map_preset_is_one_undo_step_that_brings_back_walls_units_and_settings(lab_factory):
    context, page = lab_factory()
    try:
        painted, mine = make_work(page)
        page.get_by_test_id("heuristic").select_option("octile")
        settings = page.evaluate("window.arcstar.options()")
        page.get_by_test_id("map-select").select_option("lester")
        page.wait_for_function("window.arcstar.state().width !== 48")
        expect(status(page)).to_contain_text("changed the search settings")
        expect(status(page)).to_contain_text("Undo (Ctrl+Z) brings back your work")
        assert page.evaluate("window.arcstar.options()")["heuristic"] == "manhattan"
        assert world(page)["units"] == []
        press_on_map(page, "Control+z")
        wait_units(page, mine)
        assert rows(page) == painted
        assert units_of(page) == mine
        assert page.evaluate("window.arcstar.options()") == settings
        # the status line no longer offers an undo that was used
        expect(status(page)).not_to_contain_text("Undo (Ctrl+Z) brings back")
        expect(status(page)).to_contain_text("back")
        expect(page.get_by_test_id("undo")).to_be_enabled()  # the car's placing and the stroke
        # the settings note's own Undo takes the whole step back too
        page.get_by_test_id("map-select").select_option("lester")
        page.wait_for_function("window.arcstar.state().width !== 48")
        page.get_by_test_id("settings-undo").click()
        wait_units(page, mine)
        assert rows(page) == painted and page.evaluate("window.arcstar.options()") == settings
    finally:
        context.close()


# ----------------------------------------------------------------------------- 2 and 7: bad actions said


def test_a_bad_placement_is_said_in_the_status_line_in_words_for_people(lab_factory):
    context, page = lab_factory(viewport=DESKTOP)
    try:
        assert EXAMPLE[5][0] == "#"
        page.get_by_test_id("mode-units").click()
        page.get_by_test_id("tool-tank").click()
        page.mouse.click(*point(page, 0.5, 5.5))
        page.wait_for_function("(window.arcstar.world().message || {}).error === true", timeout=TIMEOUT_MS)
        said = page.get_by_test_id("world-message").inner_text()
        # words for people: the tile and what is wrong, no field of the worker's protocol
        assert said.startswith("Could not place the tank on tile (0, 5)") and "wall" in said, said
        assert "units[" not in said and ".start" not in said, said
        # the status line at the top of the page says it too, as an error
        expect(status(page)).to_contain_text("Could not place the tank on tile (0, 5)")
        expect(status(page)).to_have_attribute("data-state", "error")
        assert world(page)["units"] == []
        # a good placing next replaces it there
        place(page, "tank", (35, 18))
        expect(status(page)).to_contain_text("Placed tank-")
        expect(status(page)).not_to_have_attribute("data-state", "error")
    finally:
        context.close()


def test_an_order_queued_behind_an_endless_patrol_is_refused(lab: Page):
    lab.evaluate("window.arcstar.ready")
    lab.get_by_test_id("map-select").select_option("empty")
    lab.wait_for_function("window.arcstar.world().units.length === 0")
    grid = rows(lab)
    open_tiles = [(x, y) for y in range(3, len(grid) - 3) for x in range(3, len(grid[0]) - 3)
                  if grid[y][x] not in BLOCKED]
    a, b, c, d = open_tiles[0], open_tiles[6], open_tiles[-1], open_tiles[-7]
    uid = place(lab, "person", a)
    lab.get_by_test_id("tool-select").click()
    press_on_map(lab, "p")
    for t in (b, c):
        lab.mouse.click(*point(lab, t[0] + 0.5, t[1] + 0.5), button="right")
    press_on_map(lab, "Enter")
    lab.wait_for_function("window.arcstar.world().units[0].orders.length === 1", timeout=TIMEOUT_MS)
    press_on_map(lab, "t")
    for t in (d, b):
        lab.mouse.click(*point(lab, t[0] + 0.5, t[1] + 0.5), button="right")
    lab.wait_for_function("window.arcstar.world().order.points.length === 2")
    press_on_map(lab, "Shift+Enter")
    lab.wait_for_function("(window.arcstar.world().message || {}).error === true", timeout=TIMEOUT_MS)
    said = lab.get_by_test_id("world-message").inner_text()
    assert "patrol" in said and "never" in said and "queued" not in said.split(":")[0], said
    u = next(v for v in world(lab)["units"] if v["id"] == uid)
    assert len(u["orders"]) == 1 and u["orders"][0].startswith("patrol")
    # the same order without Shift replaces the patrol
    press_on_map(lab, "Enter")
    lab.wait_for_function("window.arcstar.world().units[0].orders.join().startsWith('nearest')", timeout=TIMEOUT_MS)
    # a move queued with Shift+right-click behind a patrol is refused as well
    press_on_map(lab, "p")
    lab.mouse.click(*point(lab, c[0] + 0.5, c[1] + 0.5), button="right")
    press_on_map(lab, "Enter")
    lab.wait_for_function("window.arcstar.world().units[0].orders.join().startsWith('patrol')", timeout=TIMEOUT_MS)
    lab.keyboard.down("Shift")
    lab.mouse.click(*point(lab, d[0] + 0.5, d[1] + 0.5), button="right")
    lab.keyboard.up("Shift")
    lab.wait_for_function("(window.arcstar.world().message || {}).error === true", timeout=TIMEOUT_MS)
    assert "patrol" in lab.get_by_test_id("world-message").inner_text()
    assert len(world(lab)["units"][0]["orders"]) == 1


# ----------------------------------------------------------------------------- 3: the metrics at phone width


def test_the_metrics_table_scrolls_in_its_box_at_phone_width(lab_factory, save_screen):
    context, page = lab_factory(viewport=PHONE)
    try:
        page.get_by_test_id("mode-units").scroll_into_view_if_needed()
        page.get_by_test_id("mode-units").click()
        load_scenario(page, "door")
        metrics = page.get_by_test_id("world-metrics")
        metrics.scroll_into_view_if_needed()
        box = metrics.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        last = page.locator("[data-testid=world-metrics] th").last
        expect(last).to_have_text("Avoidance")
        # scrolled sideways inside its own box, every column comes into view
        metrics.evaluate("(e) => { e.scrollLeft = e.scrollWidth; }")
        for cell in ("th", "td"):
            right = page.locator(f"[data-testid=world-metrics] {cell}").last.bounding_box()
            assert right and right["x"] >= 0 and right["x"] + right["width"] <= PHONE["width"] + 1, right
        avoidance = page.locator("[data-testid=world-metrics] td[data-metric=avoidance]")
        expect(avoidance).to_have_text(world(page)["avoidance"])
        save_screen(page, "units-phone-metrics")
        # and from the keyboard: the box takes focus, and the arrow keys scroll it
        metrics.evaluate("(e) => { e.scrollLeft = 0; }")
        metrics.focus()
        assert page.evaluate("document.activeElement && document.activeElement.dataset.testid") == "world-metrics"
        for _ in range(6):
            page.keyboard.press("ArrowRight")
        page.wait_for_function("document.querySelector('[data-testid=world-metrics]').scrollLeft > 0")
    finally:
        context.close()


# ----------------------------------------------------------------------------- 4 and 5: work files


def test_a_work_file_replaces_the_units_panel_message(lab: Page, tmp_path: Path):
    lab.get_by_test_id("map-select").select_option("example")
    lab.wait_for_function("window.arcstar.world().units.length === 0 && window.arcstar.state().width === 48")
    place(lab, "tank", (35, 18))
    doc = work_file(lab, tmp_path)
    doc["world"]["units"][0]["id"] = "tank-from-file"
    path = tmp_path / "other.json"
    path.write_text(json.dumps(doc))
    car = place(lab, "car", (30, 18))
    assert car in lab.get_by_test_id("world-message").inner_text()
    lab.set_input_files("#file", str(path))
    expect(status(lab)).to_contain_text("Opened other.json")
    wait_units(lab, [("tank-from-file",)])
    message = lab.get_by_test_id("world-message")
    expect(message).not_to_contain_text(car)
    expect(message).not_to_contain_text("Right-click somewhere")


def test_a_work_file_with_an_unknown_avoidance_is_refused_and_the_work_kept(lab: Page, tmp_path: Path):
    lab.get_by_test_id("map-select").select_option("example")
    lab.wait_for_function("window.arcstar.world().units.length === 0 && window.arcstar.state().width === 48")
    place(lab, "tank", (35, 18))
    doc = work_file(lab, tmp_path)
    doc["world"]["avoidance"] = "warp"
    path = tmp_path / "warp.json"
    path.write_text(json.dumps(doc))
    lab.get_by_test_id("mode-edit").click()
    drag(lab, (20, 25), (28, 25))
    before_rows, before_units, version = rows(lab), units_of(lab), state(lab)["version"]
    lab.set_input_files("#file", str(path))
    expect(status(lab)).to_have_attribute("data-state", "error")
    expect(status(lab)).to_contain_text("warp.json")
    expect(status(lab)).to_contain_text('avoidance "warp"')
    expect(status(lab)).to_contain_text("as they were")
    assert rows(lab) == before_rows and units_of(lab) == before_units and state(lab)["version"] == version
    assert world(lab)["avoidance"] == "none"


# ----------------------------------------------------------------------------- 6: fog at load


def test_under_fog_what_the_units_see_is_shown_at_load(lab_factory, save_screen):
    context, page = lab_factory(viewport=DESKTOP)
    try:
        page.wait_for_function("window.arcstar.world().presets.length > 0", timeout=TIMEOUT_MS)
        if not world(page)["fogBuilt"]:
            pytest.skip("fog of war is not built in this core")
        load_scenario(page, "fog_dead_end")
        w = world(page)
        assert w["fog"] and w["player"] == "blue" and w["ticks"] == 0
        page.wait_for_function("window.arcstar.world().known > 0", timeout=TIMEOUT_MS)
        grid = rows(page)
        # the units' own tiles are among the seen ones, and not the whole map is
        assert 0 < world(page)["known"] < len(grid) * len(grid[0])
        seen = page.evaluate("""() => { const w = window.arcstar.world();
            return w.units.map((u) => window.arcstar.knownAt(Math.floor(u.x), Math.floor(u.y))); }""")
        assert seen and all(seen), seen
        assert world(page)["ticks"] == 0
        save_screen(page, "units-fog-at-load")
    finally:
        context.close()
