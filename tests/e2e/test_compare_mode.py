"""Compare mode end to end: 2 to 4 methods on one query, side by side, against separate runs.

The table is checked against each method run alone through the normal Find path (the Search
panel's method menu and Enter), and each path found by compare is checked legal on the map by
the test's own code. Bad choices (one method, a fifth, an unknown name through the API) are
refused with a message and change nothing; Cancel in the middle leaves the lab working; the
race reaches every method's end; a share link carries the ticked methods.
"""

from __future__ import annotations

import base64
import json
import math
import zlib

import pytest
from labkit import (
    EXAMPLE,
    SEARCH_TIMEOUT_MS,
    check_legal_path,
    open_example,
    rows,
    search,
    set_map,
    state,
    status,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

COLUMNS = ("ms", "expanded", "length", "cost", "legal")


def comparison(page: Page) -> dict:
    return page.evaluate("window.arcstar.comparison()")


def tick(page: Page, methods: list[str]) -> None:
    """Tick exactly these methods' boxes, as a person would (unticking the others first)."""
    boxes = page.get_by_test_id("cmp-methods").locator("input[type=checkbox]")
    for i in range(boxes.count()):
        box = boxes.nth(i)
        if box.is_checked() and box.get_attribute("value") not in methods:
            box.uncheck()
    for m in methods:
        page.get_by_test_id(f"cmp-method-{m}").check()
    assert comparison(page)["methods"] == methods


def run_compare(page: Page, expect_state: str = "found") -> dict:
    """Press Compare and wait for the comparison to settle."""
    before = comparison(page)["finished"]
    page.get_by_test_id("cmp-run").click()
    page.wait_for_function(
        f"window.arcstar.comparison().finished > {before} && !window.arcstar.state().searching",
        timeout=SEARCH_TIMEOUT_MS * 2,
    )
    expect(status(page)).to_have_attribute("data-state", expect_state)
    return comparison(page)


def table(page: Page, methods: list[str]) -> dict[str, dict]:
    """The stats table as shown: per method, each column's raw value (data-value) and text."""
    out = {}
    for m in methods:
        row = {}
        for col in COLUMNS:
            cell = page.get_by_test_id(f"cmp-{col}-{m}")
            expect(cell).to_be_visible()
            row[col] = (cell.get_attribute("data-value"), cell.inner_text())
        out[m] = row
    return out


def alone(page: Page, method: str) -> dict:
    """The method run alone through the normal Find path: the Search panel's menu, then Enter."""
    page.get_by_test_id("method").select_option(method)
    return search(page)


def close_view(page: Page) -> None:
    if comparison(page)["open"]:
        page.get_by_test_id("cmp-close").click()
    expect(page.get_by_test_id("cmp-view")).to_be_hidden()


@pytest.fixture(autouse=True)
def fresh(lab: Page):
    """Each test starts on the example map with A* chosen and no comparison shown."""
    close_view(lab)
    open_example(lab)
    lab.get_by_test_id("method").select_option("astar")
    yield


def test_two_methods_match_their_separate_runs(lab: Page, save_screen):
    methods = ["astar", "dijkstra"]
    tick(lab, methods)
    got = run_compare(lab)
    assert [r["method"] for r in got["runs"]] == methods
    assert all(r["state"] == "done" and r["status"] == "found" for r in got["runs"])
    expect(lab.get_by_test_id("cmp-view")).to_be_visible()
    shown = table(lab, methods)
    save_screen(lab, "compare-two")
    runs = {r["method"]: r for r in got["runs"]}
    for m in methods:
        check_legal_path(runs[m]["path"], EXAMPLE, state(lab)["start"], state(lab)["goal"])
        # The text shown is the value rounded as people read it.
        assert float(shown[m]["length"][1]) == pytest.approx(float(shown[m]["length"][0]), abs=0.006)
        assert shown[m]["legal"][1] == "yes"
    close_view(lab)
    for m in methods:
        ref = alone(lab, m)
        assert int(shown[m]["expanded"][0]) == ref["expanded"], m
        assert float(shown[m]["length"][0]) == ref["length"], m
        assert float(shown[m]["cost"][0]) == ref["cost"], m
    # Dijkstra has no heuristic: on the example it expands more than A*, and both find least cost.
    assert runs["dijkstra"]["expanded"] > runs["astar"]["expanded"]
    assert runs["dijkstra"]["cost"] == runs["astar"]["cost"]


def test_four_methods_from_the_keyboard_match_their_separate_runs(lab: Page, save_screen):
    methods = ["astar", "jps", "hpa", "directional24"]
    tick(lab, methods)
    before = comparison(lab)["finished"]
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("c")  # C compares, as the help says
    lab.wait_for_function(
        f"window.arcstar.comparison().finished > {before} && !window.arcstar.state().searching",
        timeout=SEARCH_TIMEOUT_MS * 2,
    )
    got = comparison(lab)
    assert [r["method"] for r in got["runs"]] == methods
    assert all(r["state"] == "done" and r["status"] == "found" for r in got["runs"]), got["runs"]
    expect(lab.get_by_test_id("cmp-grid").locator("canvas")).to_have_count(4)
    expect(lab.get_by_test_id("cmp-chart").locator("rect")).to_have_count(8)  # time and expanded per method
    shown = table(lab, methods)
    save_screen(lab, "compare-four")
    start, goal = state(lab)["start"], state(lab)["goal"]
    runs = {r["method"]: r for r in got["runs"]}
    for m in ("astar", "jps", "hpa"):
        check_legal_path(runs[m]["path"], EXAMPLE, start, goal)
        # The length is the path's own: the sum of its steps, measured here.
        steps = sum(math.dist(a, b) for a, b in zip(runs[m]["path"], runs[m]["path"][1:], strict=False))
        assert float(shown[m]["length"][0]) == pytest.approx(steps)
    assert runs["directional24"]["path"] == []  # lattice states are not drawn as a tile path
    # The bars are proportional to the table's numbers.
    bars = lab.get_by_test_id("cmp-chart-expanded").locator("rect")
    widths = [float(bars.nth(i).get_attribute("width")) for i in range(4)]
    most = max(runs[m]["expanded"] for m in methods)
    for w, m in zip(widths, methods, strict=True):
        assert w == pytest.approx(max(1, max(widths) * runs[m]["expanded"] / most), abs=0.11)
    close_view(lab)
    for m in methods:
        ref = alone(lab, m)
        assert int(shown[m]["expanded"][0]) == ref["expanded"], m
        assert float(shown[m]["length"][0]) == ref["length"], m
        assert float(shown[m]["cost"][0]) == ref["cost"], m
        assert shown[m]["legal"][1] == "yes"


def test_bad_choices_are_refused_with_a_message_and_change_nothing(lab: Page):
    tick(lab, ["astar", "dijkstra"])
    first = run_compare(lab)
    status_before = lab.get_by_test_id("status-text").inner_text()
    # One method: Compare says why and runs nothing.
    lab.get_by_test_id("cmp-method-dijkstra").uncheck()
    lab.get_by_test_id("cmp-run").click()
    expect(lab.get_by_test_id("cmp-error")).to_have_text("Choose at least 2 methods to compare (1 chosen).")
    after = comparison(lab)
    assert after["finished"] == first["finished"] and after["runs"] == first["runs"]
    assert lab.get_by_test_id("status-text").inner_text() == status_before
    # A fifth method: its box does not stay ticked, and the four stay chosen.
    tick(lab, ["astar", "dijkstra", "jps", "jpsplus"])
    expect(lab.get_by_test_id("cmp-error")).to_be_hidden()
    lab.get_by_test_id("cmp-method-hpa").click()
    expect(lab.get_by_test_id("cmp-error")).to_contain_text("At most 4 methods")
    expect(lab.get_by_test_id("cmp-method-hpa")).not_to_be_checked()
    assert comparison(lab)["methods"] == ["astar", "dijkstra", "jps", "jpsplus"]
    # Through the API: unknown, too few, too many, twice, not a list, hostile text.
    bad = {
        '["astar", "nope"]': 'unknown method "nope"',
        '["astar"]': "at least 2",
        '["astar", "dijkstra", "jps", "jpsplus", "hpa"]': "at most 4",
        '["astar", "astar"]': "chosen twice",
        '"astar,dijkstra"': "a list of names",
        '["astar", "<img src=x onerror=alert(1)>"]': "unknown method",
        '["astar", {"toString": 1}]': "unknown method",
    }
    for names, words in bad.items():
        err = lab.evaluate(
            f"() => {{ try {{ window.arcstar.compareMethods({names}); return null; }}"
            " catch (e) { return e.message; } }"
        )
        assert err is not None and words in err, (names, err)
        assert comparison(lab)["methods"] == ["astar", "dijkstra", "jps", "jpsplus"], names
    assert lab.locator("img").count() == 0
    assert comparison(lab)["runs"] == first["runs"]
    # A good choice through the API ticks the boxes.
    assert lab.evaluate('window.arcstar.compareMethods(["dijkstra", "astar"])') == ["astar", "dijkstra"]
    expect(lab.get_by_test_id("cmp-method-jps")).not_to_be_checked()
    expect(lab.get_by_test_id("cmp-method-dijkstra")).to_be_checked()


def wall_map(width: int = 120, height: int = 120) -> list[str]:
    """An open square with a long wall between S and G: slow for Directional-48."""
    grid = [["."] * width for _ in range(height)]
    for y in range(10, height - 10):
        grid[y][width // 2] = "#"
    grid[height // 2][2] = "S"
    grid[height // 2][width - 3] = "G"
    return ["".join(r) for r in grid]


def test_cancel_in_the_middle_keeps_what_finished_and_the_lab_working(lab: Page, save_screen):
    big = wall_map()
    set_map(lab, big)
    tick(lab, ["astar", "directional48"])
    before = comparison(lab)["finished"]
    lab.get_by_test_id("cmp-run").click()
    lab.wait_for_function(
        "(() => { const c = window.arcstar.comparison();"
        " return c.runs.length === 2 && c.runs[0].state === 'done' && c.runs[1].state === 'running'; })()",
        timeout=SEARCH_TIMEOUT_MS,
    )
    expect(status(lab)).to_have_attribute("data-state", "searching")
    expect(lab.get_by_test_id("status-text")).to_contain_text("Compare 2 of 2")
    assert lab.get_by_test_id("progress").get_attribute("value") == "0.5"
    save_screen(lab, "compare-running")
    lab.get_by_test_id("cancel").click()
    lab.wait_for_function(f"window.arcstar.comparison().finished > {before}", timeout=SEARCH_TIMEOUT_MS)
    expect(status(lab)).to_have_attribute("data-state", "cancelled")
    expect(lab.get_by_test_id("status-text")).to_contain_text("Compare cancelled")
    got = comparison(lab)
    assert not got["running"] and not state(lab)["searching"]
    assert [r["state"] for r in got["runs"]] == ["done", "cancelled"]
    expect(lab.get_by_test_id("cmp-why-directional48")).to_have_text("cancelled")
    expect(lab.get_by_test_id("cmp-expanded-astar")).to_be_visible()
    assert rows(lab) == big
    # The lab still searches, and compares again.
    close_view(lab)
    found = search(lab)
    check_legal_path(found["path"], big, state(lab)["start"], state(lab)["goal"])
    tick(lab, ["astar", "dijkstra"])
    again = run_compare(lab)
    assert [r["state"] for r in again["runs"]] == ["done", "done"]


def test_a_new_search_during_a_comparison_stops_it_and_owns_the_status(lab: Page):
    set_map(lab, wall_map())
    tick(lab, ["astar", "directional48"])
    lab.get_by_test_id("cmp-run").click()
    lab.wait_for_function(
        "(() => { const c = window.arcstar.comparison(); return c.running && c.runs[1].state === 'running'; })()",
        timeout=SEARCH_TIMEOUT_MS,
    )
    found = search(lab)  # Enter on the map: Find path with the Search panel's method (A*)
    assert found["status"] == "found"
    expect(lab.get_by_test_id("status-text")).not_to_contain_text("Compare")
    got = comparison(lab)
    assert not got["running"] and [r["state"] for r in got["runs"]] == ["done", "cancelled"]


def test_the_race_plays_every_method_in_step_to_its_end(lab: Page, save_screen):
    methods = ["astar", "dijkstra", "jps"]
    tick(lab, methods)
    got = run_compare(lab)
    n = {r["method"]: r["n"] for r in got["runs"]}
    assert all(r["recorded"] for r in got["runs"])
    assert got["race"]["n"] == max(n.values()) == n["dijkstra"]
    assert n["astar"] < n["dijkstra"]
    lab.get_by_test_id("cmp-race-speed").fill("606")  # about 100 expansions a second
    expect(lab.get_by_test_id("cmp-race-speed-out")).to_have_text("100/s")
    lab.get_by_test_id("cmp-race-play").click()
    lab.wait_for_function(
        f"(() => {{ const r = window.arcstar.comparison().race; return r.playing && r.k > {n['astar'] + 20}; }})()",
        timeout=SEARCH_TIMEOUT_MS,
    )
    lab.get_by_test_id("cmp-view").focus()
    lab.keyboard.press("Space")  # pause
    mid = comparison(lab)
    assert not mid["race"]["playing"]
    k = math.floor(mid["race"]["k"])
    assert n["astar"] < k < n["dijkstra"]
    for r in mid["runs"]:
        assert r["k"] == min(k, r["n"]), r  # the same expansion in every panel; the early ones stay finished
    expect(lab.get_by_test_id("cmp-panel-astar")).to_contain_text("finished")
    expect(lab.get_by_test_id("cmp-panel-dijkstra")).to_contain_text(f"{k:,} of {n['dijkstra']:,}")
    save_screen(lab, "compare-race")
    lab.wait_for_timeout(300)  # paused: nothing moves (a pause cannot be shown without waiting)
    assert comparison(lab)["race"]["k"] == mid["race"]["k"]
    lab.get_by_test_id("cmp-race-speed").fill("1000")
    lab.get_by_test_id("cmp-race-play").click()  # play on, at 2000 a second
    lab.wait_for_function("!window.arcstar.comparison().race.playing", timeout=SEARCH_TIMEOUT_MS)
    end = comparison(lab)
    assert end["race"]["k"] == end["race"]["n"]
    assert all(r["k"] == r["n"] for r in end["runs"])
    for m in methods:
        expect(lab.get_by_test_id(f"cmp-panel-{m}")).to_contain_text("finished")
    # Home goes back to the start: nothing expanded anywhere.
    lab.get_by_test_id("cmp-view").focus()
    lab.keyboard.press("Home")
    assert all(r["k"] == 0 for r in comparison(lab)["runs"])
    lab.keyboard.press("Escape")
    expect(lab.get_by_test_id("cmp-view")).to_be_hidden()
    lab.get_by_test_id("cmp-show").click()
    expect(lab.get_by_test_id("cmp-view")).to_be_visible()


def test_a_share_link_carries_the_ticked_methods(lab: Page, lab_factory):
    tick(lab, ["dijkstra", "jps", "hpa"])
    link = lab.evaluate("window.arcstar.shareLink()")
    context, fresh = lab_factory(url=link)
    try:
        fresh.wait_for_function(
            "window.arcstar.comparison().methods.join() === 'dijkstra,jps,hpa'", timeout=SEARCH_TIMEOUT_MS
        )
        for m in ("dijkstra", "jps", "hpa"):
            expect(fresh.get_by_test_id(f"cmp-method-{m}")).to_be_checked()
        expect(fresh.get_by_test_id("cmp-method-astar")).not_to_be_checked()
        # A link whose methods were tampered with opens its map; the page's methods stay.
        head, data = link.split("#arcstar=1.")
        doc = json.loads(zlib.decompress(base64.urlsafe_b64decode(data + "=="), -15))
        doc["compare"] = ["astar", 5, "<b>x</b>"]
        doc["map"]["start"] = [1, 1]
        packer = zlib.compressobj(9, zlib.DEFLATED, -15)
        packed = packer.compress(json.dumps(doc).encode()) + packer.flush()
        fragment = "arcstar=1." + base64.urlsafe_b64encode(packed).decode().rstrip("=")
        fresh.evaluate("(h) => { location.hash = h; }", fragment)
        fresh.wait_for_function("window.arcstar.state().start.join() === '1,1'", timeout=SEARCH_TIMEOUT_MS)
        assert fresh.evaluate("window.arcstar.comparison().methods") == ["dijkstra", "jps", "hpa"]
        assert fresh.locator("b:text-is('x')").count() == 0
    finally:
        context.close()


def test_the_comparison_fits_a_phone_width(lab_factory, save_screen):
    context, page = lab_factory(viewport={"width": 390, "height": 844})
    try:
        tick(page, ["astar", "dijkstra", "jps"])
        page.get_by_test_id("cmp-run").scroll_into_view_if_needed()
        got = run_compare(page)
        assert [r["state"] for r in got["runs"]] == ["done"] * 3
        page.get_by_test_id("cmp-view").scroll_into_view_if_needed()
        save_screen(page, "compare-phone")
        # Nothing is wider than the window: the panels, the table and the chart stay inside it.
        widest = page.evaluate(
            "Math.max(...[...document.querySelectorAll('#cmp-view canvas, #cmp-view table, #cmp-view svg')]"
            ".map((el) => el.getBoundingClientRect().right))"
        )
        assert widest <= 390
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


def test_a_method_that_refuses_the_settings_fails_alone(lab: Page):
    turn = lab.get_by_test_id("turn-penalty")
    turn.fill("1")  # A* charges turns; JPS refuses a turn cost
    try:
        tick(lab, ["astar", "jps"])
        got = run_compare(lab)
        assert [r["state"] for r in got["runs"]] == ["done", "error"]
        expect(lab.get_by_test_id("cmp-why-jps")).to_contain_text("failed: jps charges no turns")
        expect(lab.get_by_test_id("cmp-expanded-astar")).to_be_visible()
        expect(lab.get_by_test_id("status-text")).to_contain_text("1 method failed")
        # The chart draws no bar for the method that failed.
        assert lab.get_by_test_id("cmp-chart-expanded").locator("rect").nth(1).get_attribute("width") == "0.0"
    finally:
        turn.fill("0")


def test_an_edit_after_a_comparison_says_it_is_for_the_map_before(lab: Page):
    tick(lab, ["astar", "dijkstra"])
    first = run_compare(lab)
    expect(lab.get_by_test_id("cmp-note")).to_be_hidden()
    close_view(lab)
    free = [(x, y) for y, row in enumerate(EXAMPLE) for x, ch in enumerate(row) if ch == "."]
    x, y = free[len(free) // 2]
    page_point = lab.evaluate("([x, y]) => window.arcstar.tileToClient(x, y)", [x, y])
    lab.mouse.click(*page_point)  # paints one wall tile
    assert rows(lab)[y][x] == "#"
    lab.get_by_test_id("cmp-show").click()
    expect(lab.get_by_test_id("cmp-note")).to_contain_text("The map has changed since this comparison")
    assert comparison(lab)["stale"] and comparison(lab)["runs"] == first["runs"]
    again = run_compare(lab)
    expect(lab.get_by_test_id("cmp-note")).to_be_hidden()
    assert not again["stale"]


def test_compare_on_a_hex_map_says_it_runs_on_squares_and_changes_nothing(lab: Page):
    tick(lab, ["astar", "dijkstra"])
    first = run_compare(lab)
    close_view(lab)
    lab.get_by_test_id("map-kind").select_option("hex")
    try:
        lab.get_by_test_id("cmp-run").click()
        expect(lab.get_by_test_id("cmp-error")).to_contain_text("square maps")
        after = comparison(lab)
        assert after["finished"] == first["finished"] and after["runs"] == first["runs"] and not after["open"]
    finally:
        lab.get_by_test_id("map-kind").select_option("squares")


def test_overlaid_every_method_races_on_one_map(lab: Page, save_screen):
    tick(lab, ["astar", "dijkstra", "jps", "directional24"])
    got = run_compare(lab)
    lab.get_by_test_id("cmp-layout-overlay").click()
    expect(lab.get_by_test_id("cmp-grid").locator("canvas")).to_have_count(1)
    expect(lab.get_by_test_id("cmp-panel-overlay")).to_contain_text("Dijkstra")
    assert comparison(lab)["layout"] == "overlay"
    # The table and the chart are the same in either layout.
    assert comparison(lab)["runs"] == got["runs"]
    expect(lab.get_by_test_id("cmp-expanded-dijkstra")).to_have_attribute("data-value", str(got["runs"][1]["expanded"]))
    save_screen(lab, "compare-overlay")
    # The race runs on the one map too: paused midway, Dijkstra is still going while A* has finished.
    n = {r["method"]: r["n"] for r in got["runs"] if r["recorded"]}
    assert set(n) == {"astar", "dijkstra", "jps"}  # Directional-24's expansions are not recorded one by one
    lab.get_by_test_id("cmp-race-speed").fill("606")
    lab.get_by_test_id("cmp-race-play").click()
    lab.wait_for_function(
        f"(() => {{ const r = window.arcstar.comparison().race; return r.playing && r.k > {n['astar'] + 20}; }})()",
        timeout=SEARCH_TIMEOUT_MS,
    )
    lab.get_by_test_id("cmp-race-play").click()
    mid = comparison(lab)
    k = math.floor(mid["race"]["k"])
    assert not mid["race"]["playing"] and n["astar"] < k < n["dijkstra"]
    assert [r["k"] for r in mid["runs"]] == [n["astar"], k, n["jps"], None]
    save_screen(lab, "compare-overlay-race")
    lab.get_by_test_id("cmp-race-end").click()
    assert all(r["k"] == r["n"] for r in comparison(lab)["runs"])
    lab.get_by_test_id("cmp-view").focus()
    lab.keyboard.press("o")  # back to side by side
    expect(lab.get_by_test_id("cmp-grid").locator("canvas")).to_have_count(4)
    assert comparison(lab)["layout"] == "side"
