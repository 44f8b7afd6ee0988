"""The browser lab, driven as a person would: mouse drags, clicks, keys.

``window.arcstar`` is used only to set up (a map) and to read back (state, rows). Path
legality is checked here, independently of the code that made the path.
"""

from __future__ import annotations

import math
import time

import pytest
from labkit import (
    EXAMPLE,
    SEARCH_TIMEOUT_MS,
    check_legal_path,
    distance_to_polyline,
    drag,
    find_via_api,
    open_example,
    rows,
    state,
    status,
    tile_point,
    view,
    walls,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e


# ---------------------------------------------------------------- tests


def test_example_map_is_shown_and_the_engine_gets_ready(lab: Page):
    st = state(lab)
    assert (st["width"], st["height"]) == (48, 32)
    assert rows(lab) == EXAMPLE
    sy = next(y for y, r in enumerate(EXAMPLE) if "S" in r)
    gy = next(y for y, r in enumerate(EXAMPLE) if "G" in r)
    assert st["start"] == [EXAMPLE[sy].index("S"), sy]
    assert st["goal"] == [EXAMPLE[gy].index("G"), gy]
    box = lab.get_by_test_id("map").bounding_box()
    assert box["width"] > 300 and box["height"] > 200
    # The whole map is in view, centred, with tiles as large as fit.
    v = view(lab)
    assert v["fitted"] and v["tileSize"] >= 10
    assert 0 <= v["ox"] and v["ox"] + 48 * v["tileSize"] <= v["width"] + 0.5
    assert 0 <= v["oy"] and v["oy"] + 32 * v["tileSize"] <= v["height"] + 0.5
    assert abs(v["ox"] - (v["width"] - 48 * v["tileSize"]) / 2) <= 1, "the map is not centred"

    # The status line went through the loading stages, with a progress bar, to ready.
    expect(status(lab)).to_have_attribute("data-state", "ready")
    expect(status(lab)).to_contain_text("ready")
    log = " | ".join(entry["text"] for entry in lab.evaluate("window.__statusLog"))
    for stage in ("Pyodide", "numpy", "arcstar"):
        assert stage in log, f"no loading message for {stage}: {log[:500]}"
    expect(lab.get_by_test_id("find")).to_be_enabled()
    expect(lab.get_by_test_id("cancel")).to_be_disabled()
    expect(lab.get_by_test_id("help")).to_contain_text("Enter")

    # The hovered tile's coordinates are shown in the corner.
    lab.mouse.move(*tile_point(lab, 10, 5))
    expect(lab.get_by_test_id("hover")).to_contain_text("x 10, y 5")


def test_map_can_be_edited_while_the_engine_loads(lab_factory):
    context, page = lab_factory(wait_ready=False)
    try:
        page.wait_for_function("window.arcstar.state().width === 48")
        assert page.evaluate("window.arcstar.state().engine") == "loading"
        expect(page.get_by_test_id("find")).to_be_disabled()
        expect(page.get_by_test_id("find-hint")).to_be_visible()
        drag(page, (20, 12), (20, 14))
        after = rows(page)
        assert all(after[y][20] == "#" for y in (12, 13, 14))
        page.keyboard.press("Control+z")
        assert rows(page) == EXAMPLE
    finally:
        context.close()


def test_an_engine_that_cannot_load_is_reported_clearly(lab_factory, broken_site_url):
    context, page = lab_factory(wait_ready=False, url=broken_site_url)
    try:
        expect(status(page)).to_have_attribute("data-state", "error", timeout=120_000)
        expect(status(page)).to_contain_text("arcstar")
        expect(status(page)).to_contain_text("arcstar-0.0.0-py3-none-any.whl")
        expect(page.get_by_test_id("find")).to_be_disabled()
        expect(page.get_by_test_id("find-hint")).to_contain_text("could not be loaded")
        # The editor still works.
        drag(page, (20, 12), (22, 12))
        assert rows(page)[12][20:23] == "###"
        error = page.evaluate("window.arcstar.ready.then(() => null, (e) => e.message)")
        assert error and "arcstar" in error
    finally:
        context.close()


def test_paint_a_wall_then_the_path_goes_around_it(lab: Page, save_screen):
    open_example(lab)
    st = state(lab)
    start, goal = st["start"], st["goal"]
    assert start[1] == goal[1], "the example's start and goal share a row"
    mid = (start[0] + goal[0]) // 2
    top, bottom = start[1] - 6, start[1] + 6
    drag(lab, (mid, top), (mid, bottom))
    painted = rows(lab)
    assert all(painted[y][mid] == "#" for y in range(top, bottom + 1)), "the stroke left gaps"
    assert state(lab)["canUndo"]

    lab.keyboard.press("Enter")
    expect(status(lab)).to_have_attribute("data-state", "found", timeout=SEARCH_TIMEOUT_MS)
    expect(status(lab)).to_contain_text("Path found")
    expect(status(lab)).to_contain_text("nodes expanded")
    result = state(lab)["lastResult"]
    assert result["status"] == "found"
    path = result["path"]
    check_legal_path(path, painted, start, goal)
    assert not {tuple(p) for p in path} & {(mid, y) for y in range(top, bottom + 1)}
    assert any(p[1] != start[1] for p in path), "the path did not leave the blocked row"
    assert result["expanded"] > 0 and result["ms"] >= 0 and result["cost"] > 0
    assert result["closedCount"] > 0, "no explored tiles came back to draw"

    # The unit drives along the path: its pose changes over time and stays on the path.
    centres = [(x + 0.5, y + 0.5) for x, y in path]
    poses = []
    for _ in range(4):
        poses.append(state(lab)["unit"])
        lab.wait_for_timeout(250)
    assert poses[0]["moving"]
    assert len({(round(p["x"], 3), round(p["y"], 3)) for p in poses}) >= 3, (
        f"the unit does not move: {poses}"
    )
    for pose in poses:
        assert distance_to_polyline(pose["x"], pose["y"], centres) < 1e-6, (
            f"unit off the path: {pose}"
        )
        steps = pose["heading"] / (math.pi / 4)
        assert abs(steps - round(steps)) < 1e-6, (
            f"heading {pose['heading']} is not along a grid step"
        )

    save_screen(lab, "lab-path")

    # The unit arrives at the goal's centre and stops (faster with the speed slider).
    lab.get_by_test_id("speed").fill("40")
    lab.wait_for_function("!window.arcstar.state().unit.moving", timeout=30_000)
    end = state(lab)["unit"]
    assert end["x"] == pytest.approx(goal[0] + 0.5) and end["y"] == pytest.approx(goal[1] + 0.5)


def test_undo_and_redo_restore_the_walls(lab: Page):
    open_example(lab)
    original = rows(lab)
    assert not state(lab)["canUndo"]
    expect(lab.get_by_test_id("undo")).to_be_disabled()

    drag(lab, (20, 25), (28, 25))  # paint a wall: one stroke
    one = rows(lab)
    assert walls(one) - walls(original) == {(x, 25) for x in range(20, 29)}
    drag(lab, (16, 22), (16, 26), button="right")  # right drag erases part of a wall
    two = rows(lab)
    assert walls(one) - walls(two) == {(16, y) for y in range(22, 27)}
    drag(lab, tuple(state(lab)["goal"]), (40, 12))  # move the goal marker
    moved = state(lab)["goal"]
    assert moved == [40, 12]

    lab.get_by_test_id("map").focus()
    lab.keyboard.press("Control+z")
    assert state(lab)["goal"] == [42, 16] and rows(lab) == two
    lab.keyboard.press("Control+z")
    assert rows(lab) == one, "undo did not restore the erased wall in one step"
    lab.get_by_test_id("undo").click()
    assert rows(lab) == original, "undo did not remove the painted stroke in one step"
    expect(lab.get_by_test_id("undo")).to_be_disabled()

    lab.keyboard.press("Control+Shift+z")
    assert rows(lab) == one
    lab.keyboard.press("Control+y")
    assert rows(lab) == two
    lab.get_by_test_id("redo").click()
    assert state(lab)["goal"] == [40, 12]
    expect(lab.get_by_test_id("redo")).to_be_disabled()

    # Clear is one undoable step too.
    lab.get_by_test_id("clear").click()
    assert not walls(rows(lab))
    lab.keyboard.press("Control+z")
    assert walls(rows(lab)) == walls(two)


def test_cancel_a_long_search_and_stay_responsive(lab: Page):
    lab.get_by_test_id("map-select").select_option("maze")
    lab.wait_for_function("window.arcstar.state().width === 1024")
    st = state(lab)
    assert st["height"] == 1024

    lab.get_by_test_id("find").click()
    expect(status(lab)).to_have_attribute("data-state", "searching")
    expect(lab.get_by_test_id("cancel")).to_be_enabled()
    expect(status(lab)).to_contain_text("nodes expanded", timeout=SEARCH_TIMEOUT_MS)

    # While the worker searches, the page answers and edits still work.
    t0 = time.monotonic()
    assert lab.evaluate("1 + 1") == 2
    drag(lab, (500, 3), (520, 3))
    answered = time.monotonic() - t0
    assert answered < 5, f"the page took {answered:.1f} s to answer during a search"
    assert rows(lab)[3][500:521] == "#" * 21
    assert state(lab)["searching"], "the search ended before it could be cancelled"

    lab.get_by_test_id("cancel").click()
    expect(status(lab)).to_have_attribute("data-state", "cancelled")
    expect(status(lab)).to_contain_text("cancelled")
    expect(lab.get_by_test_id("cancel")).to_be_disabled()
    cancelled = state(lab)["lastResult"]
    assert cancelled["status"] == "cancelled" and cancelled["expanded"] > 0
    # The worker itself acknowledged the cancel (it reads messages between slices).
    lab.wait_for_function("window.arcstar.state().worker.cancelAcks >= 1", timeout=10_000)

    # Again, this time with Esc.
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("Enter")
    expect(status(lab)).to_contain_text("nodes expanded", timeout=SEARCH_TIMEOUT_MS)
    lab.keyboard.press("Escape")
    expect(status(lab)).to_have_attribute("data-state", "cancelled")
    lab.wait_for_function("window.arcstar.state().worker.cancelAcks >= 2", timeout=10_000)

    # The worker is free again: a small search right after succeeds.
    open_example(lab)
    lab.get_by_test_id("find").click()
    expect(status(lab)).to_have_attribute("data-state", "found", timeout=SEARCH_TIMEOUT_MS)
    result = state(lab)["lastResult"]
    check_legal_path(result["path"], rows(lab), state(lab)["start"], state(lab)["goal"])


def test_malformed_maps_and_messages_give_readable_errors(lab: Page):
    open_example(lab)
    before = rows(lab)

    def set_map_error(value) -> str:
        # The rows are read by the core, in the worker: setMap rejects with its message.
        return lab.evaluate(
            "async (rows) => { try { await window.arcstar.setMap(rows); return null; }"
            " catch (e) { return e instanceof Error ? e.message"
            " : 'not an Error: ' + String(e); } }",
            value,
        )

    message = set_map_error(["....", "...", "...."])
    assert message and "not rectangular" in message and "row 1" in message
    message = set_map_error(["....", "..x.", "...."])
    assert message and "unknown character" in message and "'x'" in message and "(2, 1)" in message
    message = set_map_error([])
    assert message and "empty" in message
    message = set_map_error([".#", 7])
    assert message and "Row 1" in message
    assert rows(lab) == before, "a rejected map replaced the current one"
    assert state(lab)["width"] == 48

    # Malformed messages straight to the worker: readable errors, and the worker lives on.
    bad_messages = {
        "too few cells": (
            "{type: 'plan', id: 'bad-cells', map: {width: 3, height: 2, version: 'r1',"
            " cells: new Uint8Array(5)}, start: [0, 0], goal: [2, 1]}",
            "cells",
        ),
        "cells not a Uint8Array": (
            "{type: 'plan', id: 'bad-array', map: {width: 2, height: 2, version: 'r2',"
            " cells: [0, 0, 0, 0]}, start: [0, 0], goal: [1, 1]}",
            "Uint8Array",
        ),
        "start not a tile": (
            "{type: 'plan', id: 'bad-start', map: {width: 2, height: 2, version: 'r3',"
            " cells: new Uint8Array(4)}, start: 'here', goal: [1, 1]}",
            "start",
        ),
        "no map": ("{type: 'plan', id: 'no-map', start: [0, 0], goal: [1, 1]}", "map"),
        "unknown option": (
            "{type: 'plan', id: 'bad-option', map: {width: 2, height: 2, version: 'r4',"
            " cells: new Uint8Array(4)}, start: [0, 0], goal: [1, 1], options: {fly: true}}",
            "fly",
        ),
        "unknown type": ("{type: 'teleport', id: 'bad-type'}", "teleport"),
        "not an object": ("42", "object"),
    }
    for name, (literal, hint) in bad_messages.items():
        reply = lab.evaluate(f"window.arcstar._rawPlan({literal})")
        assert reply["type"] == "error", f"{name}: {reply}"
        assert hint in reply["message"], f"{name}: {reply['message']!r} does not mention {hint!r}"
        assert len(reply["message"]) < 300 and "Traceback" not in reply["message"], (
            f"{name}: {reply}"
        )

    lab.get_by_test_id("map").focus()
    lab.keyboard.press("Enter")
    expect(status(lab)).to_have_attribute("data-state", "found", timeout=SEARCH_TIMEOUT_MS)
    check_legal_path(
        state(lab)["lastResult"]["path"], before, state(lab)["start"], state(lab)["goal"]
    )


def test_blocked_or_off_map_ends_and_walled_in_goal(lab: Page):
    open_example(lab)
    start, goal = state(lab)["start"], state(lab)["goal"]

    out = find_via_api(lab, [0, 0], goal)  # (0, 0) is in the border wall
    assert "error" in out and "start" in out["error"] and "(0, 0)" in out["error"], out
    expect(status(lab)).to_have_attribute("data-state", "error")
    expect(status(lab)).to_contain_text("start")
    assert state(lab)["lastResult"]["status"] == "error"

    out = find_via_api(lab, start, [60, 5])
    assert "error" in out and "goal" in out["error"] and "(60, 5)" in out["error"], out
    expect(status(lab)).to_contain_text("(60, 5)")
    out = find_via_api(lab, [-1, 3], goal)
    assert "error" in out and "start" in out["error"], out
    out = find_via_api(lab, [1.5, 3], goal)
    assert "error" in out and "integers" in out["error"], out
    assert state(lab)["start"] == start and state(lab)["goal"] == goal, (
        "a bad request moved a marker"
    )

    # Wall the goal in with four strokes, then search: no path.
    gx, gy = goal
    drag(lab, (gx - 1, gy - 1), (gx + 1, gy - 1))
    drag(lab, (gx + 1, gy), (gx + 1, gy + 1))
    drag(lab, (gx, gy + 1), (gx - 1, gy + 1))
    drag(lab, (gx - 1, gy), (gx - 1, gy))
    ring = {(gx + dx, gy + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - {(gx, gy)}
    assert ring <= walls(rows(lab))
    lab.get_by_test_id("find").click()
    expect(status(lab)).to_have_attribute("data-state", "no_path", timeout=SEARCH_TIMEOUT_MS)
    expect(status(lab)).to_contain_text("No path")
    result = state(lab)["lastResult"]
    # The core may see at once that the goal is on another island (no expansions needed).
    assert result["status"] in ("no_path", "unreachable") and result["path"] == []
    assert result["expanded"] > 0 or result["status"] == "unreachable"
    assert not state(lab)["unit"]["moving"]


def test_layout_fits_a_narrow_window(lab: Page):
    open_example(lab)
    lab.set_viewport_size({"width": 560, "height": 900})
    try:
        lab.wait_for_timeout(100)
        box = lab.get_by_test_id("map").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 560, box
        expect(lab.get_by_test_id("find")).to_be_visible()
        expect(lab.get_by_test_id("status")).to_be_visible()
    finally:
        lab.set_viewport_size({"width": 1280, "height": 860})
