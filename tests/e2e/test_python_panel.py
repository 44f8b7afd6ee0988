"""The Python panel, driven as a person would: type the code, Run, Find path (Enter on the map), Off.

Path costs are checked against a Dijkstra written here (Lester's 10/14 steps, no corner
cutting), so a result that uses the user's functions is told apart from one that does not by
its cost and its tiles, not by what the page says about itself.
"""

from __future__ import annotations

import base64
import heapq
import json
import math
import zlib

import pytest
from labkit import SEARCH_TIMEOUT_MS, check_legal_path, rows, search, set_map, state, status
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

# A wall with a gap at the bottom and a column x = 10 that cost() closes but for one tile.
MAP = [
    "S.......#...........",
    "........#...........",
    "........#.....#.....",
    "........#.....#.....",
    "..............#....G",
    "..............#.....",
    "....................",
    "....................",
]
START, GOAL = (0, 0), (19, 4)
OCTILE = """def heuristic(x, y, gx, gy):
    dx, dy = abs(x - gx), abs(y - gy)
    return 10 * max(dx, dy) + 4 * min(dx, dy)
"""
ZERO = "def heuristic(x, y, gx, gy):\n    return 0\n"
COLUMN = "def cost(x, y, terrain):\n    if x == 10 and y != 7:\n        return None\n    return 1.0\n"
RESTART_TIMEOUT_MS = 120_000


def dijkstra(open_tile, start, goal) -> float:
    """Least cost with Lester's steps (10 straight, 14 diagonal), no corner cutting."""
    dist, heap, done = {start: 0.0}, [(0.0, start)], set()
    while heap:
        d, (x, y) = heapq.heappop(heap)
        if (x, y) == goal:
            return d
        if (x, y) in done:
            continue
        done.add((x, y))
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                nb = (x + dx, y + dy)
                if (dx, dy) == (0, 0) or not open_tile(*nb):
                    continue
                if dx and dy and not (open_tile(x + dx, y) and open_tile(x, y + dy)):
                    continue
                nd = d + (14 if dx and dy else 10)
                if nd < dist.get(nb, math.inf):
                    dist[nb] = nd
                    heapq.heappush(heap, (nd, nb))
    return math.inf


def on_map(x: int, y: int) -> bool:
    return 0 <= x < len(MAP[0]) and 0 <= y < len(MAP) and MAP[y][x] != "#"


def with_column(x: int, y: int) -> bool:
    return on_map(x, y) and not (x == 10 and y != 7)


def run_code(page: Page, code: str) -> None:
    """Type the code into the panel and press Run; wait until the core has checked it."""
    page.get_by_test_id("python-code").fill(code)
    page.get_by_test_id("python-run").click()
    page.wait_for_function("!document.querySelector('[data-testid=python-run]').disabled", timeout=SEARCH_TIMEOUT_MS)


def python(page: Page) -> dict:
    return state(page)["python"]


@pytest.fixture
def panel(lab: Page) -> Page:
    set_map(lab, MAP)
    fold = lab.get_by_test_id("python-fold")
    if fold.get_attribute("open") is None:
        lab.locator("#h-python").click()
    if python(lab)["on"]:
        lab.get_by_test_id("python-off").click()
    return lab


def test_run_then_find_path_uses_the_functions(panel: Page, save_screen):
    plain = search(panel)
    assert plain.get("status") == "found"
    least = dijkstra(on_map, START, GOAL)

    run_code(panel, OCTILE)
    expect(panel.get_by_test_id("python-state")).to_contain_text("On: Find path uses heuristic()")
    assert python(panel)["on"] and python(panel)["error"] is None
    guided = search(panel)
    check_legal_path(guided["path"], MAP, START, GOAL)
    assert guided["cost"] == pytest.approx(least) and guided["optimal"] is True
    expect(panel.get_by_test_id("python-note")).to_contain_text("heuristic() and 0 cost() calls")

    run_code(panel, ZERO)  # a zero heuristic is Dijkstra: the same cost, more tiles expanded
    blind = search(panel)
    assert blind["cost"] == pytest.approx(least) and blind["expanded"] > guided["expanded"]

    run_code(panel, COLUMN)  # cost() closes the column but for its bottom tile: the path goes round
    rerouted = search(panel)
    check_legal_path(rerouted["path"], MAP, START, GOAL)
    assert [10, 7] in rerouted["path"] and all(x != 10 or y == 7 for x, y in rerouted["path"])
    assert rerouted["cost"] == pytest.approx(dijkstra(with_column, START, GOAL))
    assert rerouted["cost"] > least
    save_screen(panel, "python-panel-on")

    panel.get_by_test_id("python-off").click()
    expect(panel.get_by_test_id("python-state")).to_contain_text("Off")
    again = search(panel)
    assert again["cost"] == pytest.approx(plain["cost"]) and again["path"] == plain["path"]


def test_an_error_shows_its_line_and_the_lab_finds_paths_after_off(panel: Page, save_screen):
    failing = (
        "calls = 0\n"
        "\n"
        "def heuristic(x, y, gx, gy):\n"
        "    global calls\n"
        "    calls += 1\n"
        "    if calls > 5:\n"
        "        raise ValueError('too many calls')\n"
        "    return 0\n"
    )
    run_code(panel, failing)  # the sample call passes: the error comes mid-search
    assert python(panel)["on"]
    search(panel, expect_state="error")
    error = panel.get_by_test_id("python-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("ValueError: too many calls")
    expect(panel.get_by_test_id("python-goto")).to_have_text("Show line 7")
    assert python(panel)["error"]["line"] == 7 and python(panel)["error"]["function"] == "heuristic"
    expect(status(panel)).to_contain_text("heuristic() raised")
    save_screen(panel, "python-panel-error")
    panel.get_by_test_id("python-goto").click()
    picked = panel.evaluate(
        "(() => { const a = document.querySelector('[data-testid=python-code]');"
        " return a.value.slice(a.selectionStart, a.selectionEnd); })()")
    assert picked == "        raise ValueError('too many calls')"
    assert rows(panel) == MAP  # the map is the user's still

    panel.get_by_test_id("python-off").click()
    found = search(panel)
    check_legal_path(found["path"], MAP, START, GOAL)

    # a syntax error at Run: named with its line, and Python stays Off
    run_code(panel, "def cost(x, y, terrain):\n    return (\n")
    expect(panel.get_by_test_id("python-error")).to_contain_text("syntax error on line 2")
    assert not python(panel)["on"]
    assert search(panel)["status"] == "found"


def test_a_share_link_carries_the_code_and_it_runs_only_after_run(panel: Page, lab_factory, save_screen):
    run_code(panel, COLUMN)
    assert python(panel)["on"]
    link = panel.evaluate("window.arcstar.shareLink()")
    context, page = lab_factory(url=link)
    try:
        page.wait_for_function("window.arcstar.state().width === 20", timeout=SEARCH_TIMEOUT_MS)
        pending = page.get_by_test_id("python-pending")
        expect(pending).to_be_visible()
        expect(pending).to_contain_text("came with the shared link")
        expect(page.get_by_test_id("notice")).to_contain_text("It carries Python code")
        assert page.get_by_test_id("python-code").input_value() == COLUMN
        got = python(page)
        assert got["on"] is False and got["pending"] == "link" and got["ran"] is None
        expect(page.get_by_test_id("python-state")).to_contain_text("Off")
        save_screen(page, "python-panel-from-link")
        not_run = search(page)  # the receiver's search does not use it
        assert not_run["cost"] < dijkstra(with_column, START, GOAL)
        assert any(x == 10 and y != 7 for x, y in not_run["path"])

        page.get_by_test_id("python-run").click()
        page.wait_for_function("window.arcstar.state().python.on", timeout=SEARCH_TIMEOUT_MS)
        expect(pending).to_be_hidden()
        used = search(page)
        assert used["cost"] == pytest.approx(dijkstra(with_column, START, GOAL))
        # and one Undo takes the link back: the receiver's own code (the example) is back, Off
        page.keyboard.press("Control+z")
        page.wait_for_function("!window.arcstar.state().python.pending && !window.arcstar.state().python.on",
                               timeout=SEARCH_TIMEOUT_MS)
        assert "def heuristic" in page.get_by_test_id("python-code").input_value()
    finally:
        context.close()


def test_an_endless_loop_restarts_the_engine_the_map_stays_and_python_goes_off(lab_factory):
    context, page = lab_factory()
    try:
        set_map(page, MAP)
        page.locator("#h-python").click()
        loop = "def heuristic(x, y, gx, gy):\n    while (x, y) != (0, 0):\n        pass\n    return 0\n"
        run_code(page, loop)  # Run's sample call is at (0, 0): it returns
        assert python(page)["on"]
        page.get_by_test_id("map").focus()
        page.keyboard.press("Enter")
        page.wait_for_function("window.arcstar.state().worker.restarts === 1", timeout=RESTART_TIMEOUT_MS)
        page.wait_for_function("window.arcstar.state().engine === 'ready'", timeout=RESTART_TIMEOUT_MS)
        page.wait_for_function("!window.arcstar.state().searching", timeout=SEARCH_TIMEOUT_MS)
        expect(page.get_by_test_id("python-error")).to_contain_text("endless loop")
        assert python(page)["on"] is False and python(page)["code"] == loop
        assert rows(page) == MAP
        found = search(page)
        check_legal_path(found["path"], MAP, START, GOAL)
    finally:
        context.close()


def _link_with_python(good_fragment: str, part: object) -> str:
    """The link's snapshot with its Python part replaced (packed here with Python's zlib)."""
    doc = json.loads(zlib.decompress(base64.urlsafe_b64decode(good_fragment.split(".", 1)[1] + "=="), -15))
    doc["python"] = part
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = c.compress(json.dumps(doc).encode()) + c.flush()
    return "arcstar=1." + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def test_hostile_python_in_a_link_is_refused_and_the_work_stays(panel: Page):
    good = panel.evaluate("window.arcstar.shareLink()").split("#", 1)[1]
    set_map(panel, ["S...", "..#G"])
    code_before = python(panel)["code"]
    for part in ({"code": 5, "ran": None, "pending": "", "functions": []},
                 {"code": "x", "ran": None, "pending": "everyone", "functions": []},
                 {"code": "x", "ran": None, "pending": "", "functions": ["exec"]},
                 {"code": "#" * 70_000, "ran": None, "pending": "", "functions": []},
                 "def heuristic(x, y, gx, gy): return 0"):
        panel.evaluate("() => { window.__statusLog.length = 0; }")
        panel.evaluate("(frag) => { location.hash = frag; }", _link_with_python(good, part))
        panel.wait_for_function("window.__statusLog.some(e => e.state === 'error')", timeout=SEARCH_TIMEOUT_MS)
        expect(status(panel)).to_contain_text("the Python code is malformed")
        assert rows(panel) == ["S...", "..#G"] and python(panel)["code"] == code_before
    # code the sender had run arrives Off and pending all the same ("ran" is not trusted)
    panel.evaluate("(frag) => { location.hash = frag; }",
                   _link_with_python(good, {"code": COLUMN, "ran": COLUMN, "pending": "", "functions": ["cost"]}))
    panel.wait_for_function("window.arcstar.state().width === 20", timeout=SEARCH_TIMEOUT_MS)
    got = python(panel)
    assert got["on"] is False and got["pending"] == "link" and got["code"] == COLUMN
    # a code too long for the core is refused by it with a reason, and the lab still searches
    run_code(panel, "#" * 70_000)
    expect(panel.get_by_test_id("python-error")).to_contain_text("more than the 65,536")
    assert search(panel)["status"] == "found"


RAW = "async (msg) => { try { return await window.arcstar._rawPlan(msg); } catch (e) { return {thrown: String(e)}; } }"


def raw(page: Page, literal: str) -> dict:
    """Post a message (a JS literal, so it may hold what JSON cannot) straight to the worker."""
    return page.evaluate(f"async () => {{ const m = {literal}; return ({RAW})(m); }}")


def test_hostile_code_messages_to_the_worker_get_field_and_reason_and_the_worker_lives(lab: Page):
    cells = "new Uint8Array([0,0,0,0, 0,1,1,0, 0,0,0,0])"

    def plan(n: int, code: str) -> str:
        return (f"{{type: 'plan', id: 'u{n}', map: {{width: 4, height: 3, version: 'py{n}', cells: {cells}}}, "
                f"start: [0, 0], goal: [3, 2], code: {code}}}")

    hostile = [("12", "not_text"), ("null", "not_text"), ("{a: 1}", "not_text"), ("'x'.repeat(1 << 20)", "too_long"),
               ("'def cost(x, y, t):\\n return -1\\n'", "negative"),
               ("'def heuristic(x, y, gx, gy):\\n return \\'far\\'\\n'", "not_a_number")]
    for n, (code, reason) in enumerate(hostile):
        out = raw(lab, plan(n, code))
        assert out["type"] == "error" and out["kind"] == "bad_input" and out["field"] == "code", out
        assert out["code_error"]["reason"] == reason, out
        checked = raw(lab, f"{{type: 'check_code', id: 'c{n}', code: {code}}}")
        assert checked["type"] == "error" and checked["code_error"]["reason"] == reason, checked
    assert raw(lab, "{type: 'check_code', id: 'c9'}")["field"] == "code"
    ok = raw(lab, plan(99, "'def heuristic(x, y, gx, gy):\\n return 0\\n'"))
    assert ok["type"] == "result" and ok["result"]["status"] == "found"
    assert ok["result"]["user_code"]["functions"] == ["heuristic"]
    assert state(lab)["worker"]["restarts"] == 0


def test_autosave_keeps_the_code_and_whether_it_is_on(lab_factory):
    context, page = lab_factory()
    try:
        set_map(page, MAP)
        page.locator("#h-python").click()
        run_code(page, COLUMN)
        page.get_by_test_id("python-code").fill(COLUMN + "# edited after Run\n")
        expect(page.get_by_test_id("python-state")).to_contain_text("you edited it since")
        page.wait_for_function("(localStorage.getItem('arcstar.lab.v1') || '').includes('edited after Run')",
                               timeout=SEARCH_TIMEOUT_MS)
        page.reload()
        page.wait_for_function("window.arcstar !== undefined && window.arcstar.state().width === 20",
                               timeout=SEARCH_TIMEOUT_MS)
        got = python(page)
        assert got["code"] == COLUMN + "# edited after Run\n" and got["ran"] == COLUMN and got["on"]
        assert got["pending"] == ""  # the user's own code, run before the reload
        page.evaluate("window.arcstar.ready")
        page.wait_for_function("window.arcstar.state().engine === 'ready'", timeout=RESTART_TIMEOUT_MS)
        assert search(page)["cost"] == pytest.approx(dijkstra(with_column, START, GOAL))
    finally:
        context.close()
