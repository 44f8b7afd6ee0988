"""Keyboard and touch (issue 12): the lab without a mouse, and on a phone-sized touch screen.

Keyboard: Tab reaches Open file and the map; the keyboard cursor moves, paints, erases, puts the
start and the goal down, Enter finds the path, Ctrl+Z undoes, all from the keyboard alone.
Touch (390 px wide, has_touch, is_mobile; real touches through the DevTools protocol): a pinch
zooms by the fingers' spread about their centre, a two-finger drag pans, one finger paints, and
a second finger takes back the stroke it interrupted. The page never scrolls sideways.

``window.arcstar`` only sets up (a map) and reads back (rows, state, view, cursor).
"""

from __future__ import annotations

import math

import pytest
from labkit import SEARCH_TIMEOUT_MS, check_legal_path, rows, set_map, state, view
from playwright.sync_api import Page, expect

from conftest import BOOT_TIMEOUT_MS, RECORDER

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
OPEN = [
    "............",
    ".S..........",
    "............",
    "............",
    "..........G.",
    "............",
]
ENDS = ["S" + "." * 19] + ["." * 20] * 10 + ["." * 19 + "G"]


def cursor(page: Page) -> dict | None:
    return page.evaluate("window.arcstar.cursor()")


def cursor_text(page: Page) -> str:
    return page.get_by_test_id("map-cursor-text").inner_text()


def tab_to(page: Page, testid: str, start: str, limit: int = 40) -> int:
    """Focus `start`, then press Tab until `testid` has the focus; returns how many presses."""
    page.get_by_test_id(start).focus()
    for n in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate("(id) => document.activeElement?.dataset.testid === id", testid):
            return n
    raise AssertionError(f"{limit} presses of Tab from {start} never reached {testid}")


def tab_to_map(page: Page) -> None:
    """From the toolbar's Fit button, Tab to the map: the keyboard cursor shows."""
    tab_to(page, "map", "fit")
    expect(page.get_by_test_id("map-cursor")).to_be_visible()


def cell(map_rows: list[str], x: int, y: int) -> str:
    return map_rows[y][x]


# ----------------------------------------------------------------------------- keyboard


def test_tab_reaches_open_file_and_enter_opens_it(lab: Page, tmp_path):
    set_map(lab, OPEN)
    # Listening for file choosers from the start makes the browser hand them to the test at once.
    opened: list = []
    lab.on("filechooser", lambda chooser: opened.append(chooser))
    tab_to(lab, "file", "map-select", limit=3)
    # The focus ring shows on the button the input sits in.
    ring = lab.evaluate(
        "() => { const s = getComputedStyle(document.querySelector('[data-testid=open-file]'));"
        " return [s.outlineStyle, parseFloat(s.outlineWidth)]; }"
    )
    assert ring[0] != "none" and ring[1] >= 1, f"no visible focus ring on Open file: {ring}"
    # Enter opens the file chooser; a map chosen there opens.
    good = tmp_path / "small.txt"
    good.write_text("S..#\n...G\n")
    with lab.expect_file_chooser() as chosen:
        lab.keyboard.press("Enter")
    chosen.value.set_files(str(good))
    lab.wait_for_function("window.arcstar.rows().join('/') === 'S..#/...G'")
    # Space too; a file that is not a map gets a clear error and the map shown stays.
    bad = tmp_path / "notes.txt"
    bad.write_text("S..#\n...G\nthis line is not a map row ✗\n")
    lab.get_by_test_id("file").focus()
    with lab.expect_file_chooser() as chosen:
        lab.keyboard.press(" ")
    chosen.value.set_files(str(bad))
    expect(lab.get_by_test_id("status")).to_have_attribute("data-state", "error")
    assert "notes.txt" in lab.get_by_test_id("status-text").inner_text()
    assert rows(lab) == ["S..#", "...G"]


def test_keyboard_only_editing(lab: Page):
    set_map(lab, OPEN)
    lab.keyboard.press("0")  # not on the map yet: fit
    before = state(lab)
    tab_to_map(lab)
    here = cursor(lab)
    assert here == {"x": 1, "y": 1, "active": True}, "the cursor starts on the start"
    assert "the start" in cursor_text(lab)

    # Arrows move it, Shift+arrows by 5, never off the map.
    lab.keyboard.press("ArrowRight")
    lab.keyboard.press("ArrowRight")
    lab.keyboard.press("ArrowDown")
    assert cursor(lab)["x"] == 3 and cursor(lab)["y"] == 2
    assert "x 3, y 2: ground" in cursor_text(lab)
    lab.keyboard.press("Shift+ArrowRight")
    assert cursor(lab)["x"] == 8
    lab.keyboard.press("Shift+ArrowRight")
    assert cursor(lab)["x"] == 11, "the cursor left the map"
    for _ in range(3):
        lab.keyboard.press("Shift+ArrowUp")
    assert cursor(lab)["y"] == 0
    assert view(lab)["tileSize"] == before["tileSize"], "the arrows zoomed"
    assert rows(lab) == OPEN, "moving the cursor painted"

    # Space paints the chosen terrain (2: wall) at the cursor: one undo step.
    lab.keyboard.press("Shift+ArrowLeft")  # (6, 0)
    lab.keyboard.press("ArrowDown")  # (6, 1)
    lab.keyboard.press("2")
    lab.keyboard.press(" ")
    assert cell(rows(lab), 6, 1) == "#"
    # Held down, the arrows paint a line: (6, 2) .. (6, 4), one more undo step.
    lab.keyboard.down(" ")
    for _ in range(3):
        lab.keyboard.press("ArrowDown")
    lab.keyboard.up(" ")
    painted = rows(lab)
    assert [cell(painted, 6, y) for y in range(6)] == [".", "#", "#", "#", "#", "."]
    assert sum(r.count("#") for r in painted) == 4
    # Delete erases at the cursor (6, 4).
    lab.keyboard.press("Delete")
    assert cell(rows(lab), 6, 4) == "."
    # Undo steps: the erase, the line, the single wall, as the mouse's strokes would be.
    lab.keyboard.press("Control+z")
    assert cell(rows(lab), 6, 4) == "#"
    lab.keyboard.press("Control+z")
    assert [cell(rows(lab), 6, y) for y in range(6)] == [".", "#", ".", ".", ".", "."]
    lab.keyboard.press("Control+z")
    assert rows(lab) == OPEN
    lab.keyboard.press("Control+Shift+z")
    lab.keyboard.press("Control+Shift+z")
    assert rows(lab) == painted

    # S and G put the endpoints on the cursor; on a wall G is refused and says why.
    lab.keyboard.press("ArrowUp")  # (6, 3): a wall
    lab.keyboard.press("g")
    assert state(lab)["goal"] == [10, 4]
    assert "cannot go here" in cursor_text(lab)
    lab.keyboard.press("ArrowRight")
    lab.keyboard.press("ArrowRight")  # (8, 3)
    lab.keyboard.press("g")
    assert state(lab)["goal"] == [8, 3]
    lab.keyboard.press("Shift+ArrowLeft")
    lab.keyboard.press("ArrowLeft")  # (2, 3)
    lab.keyboard.press("s")
    assert state(lab)["start"] == [2, 3]
    lab.keyboard.press("s")  # again on the same tile: nothing changes
    assert state(lab)["start"] == [2, 3]

    # Enter finds the path (the cursor does not take it); checked against the rows on screen.
    done = state(lab)["searches"]
    lab.keyboard.press("Enter")
    lab.wait_for_function(
        f"window.arcstar.state().searches > {done} && !window.arcstar.state().searching",
        timeout=SEARCH_TIMEOUT_MS,
    )
    result = state(lab)["lastResult"]
    assert result["status"] == "found"
    shown = rows(lab)
    check_legal_path(result["path"], shown, (2, 3), (8, 3))
    assert any(tuple(p) == (6, 0) or tuple(p) == (6, 5) for p in result["path"]), "the path went through the wall"

    # Ctrl+Z takes back the start's move, then the goal's.
    lab.keyboard.press("Control+z")
    assert state(lab)["start"] == [1, 1]
    lab.keyboard.press("Control+z")
    assert state(lab)["goal"] == [10, 4]
    assert lab.evaluate("document.activeElement.dataset.testid") == "map"


def test_the_view_follows_the_cursor_and_a_click_hands_the_keys_back(lab: Page):
    set_map(lab, ["S" + "." * 59] + ["." * 60] * 38 + ["." * 59 + "G"])
    tab_to_map(lab)
    for _ in range(5):
        lab.keyboard.press("+")
    v = view(lab)
    assert not v["fitted"] and v["tileSize"] > 40
    for _ in range(8):
        lab.keyboard.press("Shift+ArrowRight")
        lab.keyboard.press("Shift+ArrowDown")
    at = cursor(lab)
    assert (at["x"], at["y"]) == (40, 39), "the cursor did not start on the new map's start"
    moved = view(lab)
    assert (moved["ox"], moved["oy"]) != (v["ox"], v["oy"]), "the view did not scroll"
    box = lab.evaluate("document.querySelector('[data-testid=map]').getBoundingClientRect().toJSON()")
    x0, y0 = lab.evaluate("([x, y]) => window.arcstar.pointToClient(x, y)", [at["x"], at["y"]])
    x1, y1 = lab.evaluate("([x, y]) => window.arcstar.pointToClient(x, y)", [at["x"] + 1, at["y"] + 1])
    assert box["left"] <= x0 and x1 <= box["right"] and box["top"] <= y0 and y1 <= box["bottom"], (
        "the cursor's tile is not in view"
    )
    # A click on the map hides the cursor: the arrows pan again and Space does not paint.
    before = rows(lab)
    lab.get_by_test_id("map").click(button="middle")
    assert cursor(lab)["active"] is False
    expect(lab.get_by_test_id("map-cursor")).to_be_hidden()
    ox = view(lab)["ox"]
    lab.keyboard.press("ArrowLeft")
    assert view(lab)["ox"] > ox
    lab.keyboard.press(" ")
    assert rows(lab) == before
    lab.keyboard.press("0")


def test_command_units_from_the_keyboard(lab: Page):
    set_map(lab, OPEN)
    lab.get_by_test_id("mode-units").focus()
    lab.keyboard.press(" ")
    lab.get_by_test_id("tool-tank").focus()
    lab.keyboard.press(" ")
    assert lab.evaluate("window.arcstar.world().mode") == "units"
    n = len(lab.evaluate("window.arcstar.world().units"))
    tab_to_map(lab)
    lab.keyboard.press("ArrowDown")  # (1, 2)
    lab.keyboard.press(" ")  # a tank there, selected
    lab.wait_for_function(f"window.arcstar.world().units.length === {n + 1}", timeout=SEARCH_TIMEOUT_MS)
    world = lab.evaluate("window.arcstar.world()")
    tank = world["units"][-1]
    assert (tank["kind"], tank["x"], tank["y"]) == ("tank", 1.5, 2.5)
    assert world["selected"] == [tank["id"]]
    assert rows(lab) == OPEN, "Space painted in Command units mode"
    for _ in range(4):
        lab.keyboard.press("ArrowRight")  # (5, 2)
    lab.keyboard.press("m")
    lab.wait_for_function(
        f"window.arcstar.world().units.find((u) => u.id === {tank['id']!r}).orders.length === 1",
        timeout=SEARCH_TIMEOUT_MS,
    )
    orders = next(u for u in lab.evaluate("window.arcstar.world().units") if u["id"] == tank["id"])["orders"]
    assert orders == ["move to (5.5, 2.5)"]
    # Delete keeps its Command units meaning: it removes the selected unit.
    lab.keyboard.press("Delete")
    lab.wait_for_function(f"window.arcstar.world().units.length === {n}", timeout=SEARCH_TIMEOUT_MS)
    lab.keyboard.press("u")
    assert lab.evaluate("window.arcstar.world().mode") == "edit"


# ----------------------------------------------------------------------------- touch, 390 px


@pytest.fixture(scope="module")
def phone(browser, site_url):
    """The lab on a 390 px wide touch screen (a new context), with the engine ready."""
    # bypass_csp: see conftest.open_lab (wait_for_function runs a string with eval)
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2,
                                  bypass_csp=True)
    context.add_init_script(RECORDER)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(site_url)
    page.wait_for_function("window.arcstar !== undefined")
    page.evaluate("() => { window.arcstar.ready.then(() => { window.__ready = true; }); }")
    page.wait_for_function("window.__ready === true", timeout=BOOT_TIMEOUT_MS)
    page.cdp = context.new_cdp_session(page)
    yield page
    errors += page.evaluate("window.__errors")
    context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


def touch(page: Page, kind: str, points: list[tuple[float, float]]) -> None:
    """One touch event with the fingers now on the glass (ids by position in the list)."""
    page.cdp.send(
        "Input.dispatchTouchEvent",
        {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]},
    )


def fingers(page: Page, paths: list[list[tuple[float, float]]]) -> None:
    """Fingers that land together, move along their paths in step, and lift together."""
    touch(page, "touchStart", [p[0] for p in paths])
    for k in range(1, len(paths[0])):
        touch(page, "touchMove", [p[k] for p in paths])
    touch(page, "touchEnd", [])


def line(a: tuple[float, float], b: tuple[float, float], steps: int) -> list[tuple[float, float]]:
    return [(a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps) for k in range(steps + 1)]


def canvas_box(page: Page) -> dict:
    return page.evaluate("document.querySelector('[data-testid=map]').getBoundingClientRect().toJSON()")


def map_point(page: Page, client: tuple[float, float]) -> tuple[float, float]:
    """The map point (tiles) under a client point, from the view read back."""
    v = view(page)
    box = canvas_box(page)
    return ((client[0] - box["left"] - v["ox"]) / v["tileSize"], (client[1] - box["top"] - v["oy"]) / v["tileSize"])


def test_phone_layout_does_not_overflow(phone: Page, save_screen):
    assert phone.evaluate("window.innerWidth") == 390
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.evaluate("document.body.scrollWidth") <= 390
    # Every panel and the canvas lie inside the screen's width.
    wide = phone.evaluate(
        "() => [...document.querySelectorAll('.fold, .toolbar, canvas, .status, .keys')]"
        ".map((e) => [e.className || e.tagName, e.getBoundingClientRect().left, e.getBoundingClientRect().right])"
        ".filter(([, l, r]) => l < 0 || r > 390)"
    )
    assert wide == [], f"outside the 390 px: {wide}"
    box = canvas_box(phone)
    assert box["height"] >= 260 and box["height"] < 844, "the canvas leaves no page to scroll by"
    save_screen(phone, "touch-390")
    phone.evaluate("window.scrollTo(0, 99999)")
    save_screen(phone, "touch-390-bottom")
    phone.evaluate("window.scrollTo(0, 0)")


def test_pinch_zooms_about_its_centre_and_two_fingers_pan(phone: Page):
    phone.evaluate("(r) => window.arcstar.setMap(r)", ["." * 48 for _ in range(32)])
    box = canvas_box(phone)
    before = state(phone)
    map_before = rows(phone)
    v0 = view(phone)
    c = (box["left"] + box["width"] * 0.4, box["top"] + box["height"] * 0.45)
    under = map_point(phone, c)
    # Fingers 40 px apart, spread to 100 px apart about the same centre: zoom x2.5.
    fingers(
        phone,
        [line((c[0] - 20, c[1]), (c[0] - 50, c[1]), 6), line((c[0] + 20, c[1]), (c[0] + 50, c[1]), 6)],
    )
    v1 = view(phone)
    assert v1["tileSize"] / v0["tileSize"] == pytest.approx(2.5, rel=0.02)
    after = map_point(phone, c)
    assert after == pytest.approx(under, abs=0.05), "the pinch did not zoom about its centre"
    # Pinching in again by 1/2 about another point.
    c2 = (c[0] + 30, c[1] - 40)
    under2 = map_point(phone, c2)
    fingers(
        phone,
        [line((c2[0], c2[1] - 40), (c2[0], c2[1] - 20), 5), line((c2[0], c2[1] + 40), (c2[0], c2[1] + 20), 5)],
    )
    v2 = view(phone)
    assert v2["tileSize"] / v1["tileSize"] == pytest.approx(0.5, rel=0.02)
    assert map_point(phone, c2) == pytest.approx(under2, abs=0.05)
    # Two fingers moved together pan by as much, and do not zoom.
    a, b = (c[0] - 30, c[1]), (c[0] + 30, c[1] + 10)
    fingers(phone, [line(a, (a[0] + 45, a[1] + 25), 5), line(b, (b[0] + 45, b[1] + 25), 5)])
    v3 = view(phone)
    assert v3["tileSize"] == pytest.approx(v2["tileSize"])
    assert (v3["ox"] - v2["ox"], v3["oy"] - v2["oy"]) == pytest.approx((45, 25), abs=1)
    # None of it painted or left an undo step.
    assert rows(phone) == map_before
    assert state(phone)["canUndo"] == before["canUndo"]


def undo_by_tap(page: Page) -> None:
    """Press the Undo button (below the map on a phone), then scroll back to the map.

    A click, not a tap: in headless Chromium the first emulated tap after a touch sequence on the
    map brings pointerdown and pointerup but no click (with or without touch.js; the second tap
    clicks), which would test the emulation rather than the page.
    """
    page.get_by_test_id("undo").click()
    page.evaluate("window.scrollTo(0, 0)")


def tile_client(page: Page, x: int, y: int) -> tuple[float, float]:
    return tuple(page.evaluate("([x, y]) => window.arcstar.tileToClient(x, y)", [x, y]))


def test_one_finger_paints_and_a_second_finger_takes_the_stroke_back(phone: Page):
    set_map(phone, ENDS)
    base = rows(phone)
    # One finger from (3, 5) to (9, 5): a wall along the row, one undo step.
    fingers(phone, [line(tile_client(phone, 3, 5), tile_client(phone, 9, 5), 8)])
    painted = rows(phone)
    assert painted[5] == "..." + "#" * 7 + "." * 10
    assert sum(r.count("#") for r in painted) == 7
    assert state(phone)["canUndo"]
    undo_by_tap(phone)
    assert rows(phone) == base
    # A tap paints one tile.
    x, y = tile_client(phone, 4, 8)
    touch(phone, "touchStart", [(x, y)])
    touch(phone, "touchEnd", [])
    assert cell(rows(phone), 4, 8) == "#"
    undo_by_tap(phone)
    assert rows(phone) == base and not state(phone)["canUndo"]
    # A stroke under way, then a second finger: the stroke is taken back, nothing to undo.
    a = tile_client(phone, 2, 2)
    b = tile_client(phone, 8, 2)
    touch(phone, "touchStart", [a])
    for p in line(a, b, 6)[1:]:
        touch(phone, "touchMove", [p])
    assert rows(phone)[2].count("#") >= 5, "the one-finger stroke had not started"
    other = (b[0], b[1] + 60)
    touch(phone, "touchStart", [b, other])
    assert rows(phone) == base, "the second finger did not take the stroke back"
    touch(phone, "touchMove", [(b[0] - 10, b[1]), (other[0] + 10, other[1] + 10)])
    touch(phone, "touchMove", [(b[0] - 10, b[1])])  # one finger lifts; the other paints nothing
    touch(phone, "touchMove", [(b[0] - 80, b[1])])
    touch(phone, "touchEnd", [])
    assert rows(phone) == base and not state(phone)["canUndo"]
    # Three fingers at once: nothing happens but a pinch of two would.
    pts = [tile_client(phone, 5, 5), tile_client(phone, 10, 6), tile_client(phone, 7, 9)]
    touch(phone, "touchStart", pts)
    touch(phone, "touchMove", [(p[0] + 20, p[1] + 5) for p in pts])
    touch(phone, "touchEnd", [])
    assert rows(phone) == base


def test_one_finger_drags_the_start(phone: Page):
    set_map(phone, ENDS)
    fingers(phone, [line(tile_client(phone, 0, 0), tile_client(phone, 6, 3), 8)])
    assert state(phone)["start"] == [6, 3]
    assert all("#" not in r for r in rows(phone))


def test_desktop_screenshot(lab: Page, save_screen):
    lab.set_viewport_size({"width": 1280, "height": 800})
    lab.get_by_test_id("map-select").select_option("example")
    lab.wait_for_function("window.arcstar.state().width === 48")
    tab_to_map(lab)
    lab.keyboard.press("ArrowRight")
    assert math.isfinite(view(lab)["tileSize"])
    save_screen(lab, "keyboard-1280")
    lab.set_viewport_size({"width": 1280, "height": 860})
