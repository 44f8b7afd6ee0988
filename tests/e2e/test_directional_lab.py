"""The lab's Directional A* (issue 10, Lab): the methods in the picker, headings on the markers,
the unit driving true arcs and reversing, Compare's e. panel, cancelling a long search.

The paths the page returns are checked here with code independent of the lab: the segments are
rebuilt as arcstar geometry and tested with the exact swept-disc test (``path_clear``), sampled
against the walls by this file's own arithmetic, and compared with the library's own plan.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from labkit import SEARCH_TIMEOUT_MS, search, set_map, state, status, tile_point
from playwright.sync_api import Page, expect

from arcstar import parse_ascii, plan
from arcstar.collision.swept import path_clear
from arcstar.geometry.primitives import Arc, Line, Pose
from arcstar.geometry.primitives import Path as Route

pytestmark = pytest.mark.e2e

SHOTS = Path("/tmp/shots")

# A 1-tile A* path here turns back on itself at the wall's end (a hairpin no unit can drive).
HAIRPIN = [
    "................",
    ".S..............",
    "###########.....",
    "................",
    ".G..............",
    "................",
]
# A dead end one tile wide: facing east, the unit can only back out to the goal behind it.
DEAD_END = [
    "#######",
    "#G..S.#",
    "#######",
]
OPEN = [
    "............",
    "............",
    "..S.........",
    "............",
    "............",
    "........G...",
    "............",
]


def use(page: Page, method: str, *, radius: str = "1.5", width: str = "1", reverse: bool = False,
        turning: str = "") -> None:
    """Choose the method and the unit through the panels, as a person would."""
    page.get_by_test_id("compare").set_checked(False)
    page.get_by_test_id("method").select_option(method)
    turn = page.get_by_test_id("turning")
    if turn.is_enabled():
        turn.select_option(turning)
    page.get_by_test_id("radius").fill(radius)
    page.get_by_test_id("unit-width").fill(width)
    page.get_by_test_id("can-reverse").set_checked(reverse)
    for field in ("start-heading", "goal-heading"):
        page.get_by_test_id(field).fill("")
        page.get_by_test_id(field).dispatch_event("change")


def route_of(segments: list[dict]) -> Route:
    """The page's segments as arcstar geometry, built from their poses (not trusted as joined)."""
    out = []
    for s in segments:
        pose = Pose(s["x"], s["y"], s["heading"])
        gear = s.get("gear", 1)
        if s["type"] == "line":
            out.append(Line.from_pose(pose, s["length"], gear))
        else:
            out.append(Arc.from_pose(pose, s["radius"], s["sweep"], gear))
    return Route(tuple(out))


def sampled_points(segments: list[dict], step: float = 0.02):
    """Points along the segments, by this file's own arithmetic (a line: x + d cos h; an arc: the
    body turns about its centre by sweep * s / length)."""
    for s in segments:
        n = max(1, math.ceil(s["length"] / step))
        for i in range(n + 1):
            d = s["length"] * i / n
            if s["type"] == "line":
                g = s.get("gear", 1)
                yield s["x"] + math.cos(s["heading"]) * d * g, s["y"] + math.sin(s["heading"]) * d * g
            else:
                cx, cy = s["center"]
                a0 = math.atan2(s["y"] - cy, s["x"] - cx)
                turn = s["sweep"] * d / s["length"] if s["length"] else 0.0
                yield cx + s["radius"] * math.cos(a0 + turn), cy + s["radius"] * math.sin(a0 + turn)


def clearance(px: float, py: float, rows: list[str]) -> float:
    """Distance from a point to the nearest wall tile or the map's edge."""
    h, w = len(rows), len(rows[0])
    best = min(px, py, w - px, h - py)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == "#":
                dx = max(x - px, 0.0, px - (x + 1))
                dy = max(y - py, 0.0, py - (y + 1))
                best = min(best, math.hypot(dx, dy))
    return best


def check_segments(segments: list[dict], rows: list[str], width: float, start, goal) -> None:
    """Joined, from the start's centre to the goal tile, and clear of walls for the body."""
    assert segments, "no segments"
    route = route_of(segments)  # raises when a segment does not start where the last one ended
    first = segments[0]
    assert math.hypot(first["x"] - (start[0] + 0.5), first["y"] - (start[1] + 0.5)) < 1e-6
    end = route.end_pose() if hasattr(route, "end_pose") else route.segments[-1].end_pose()
    assert math.floor(end.x) == goal[0] and math.floor(end.y) == goal[1]
    loaded = parse_ascii("\n".join(rows))
    assert path_clear(loaded.map, route, width), "the exact swept-disc test finds the body on a wall"
    worst = min(clearance(x, y, rows) for x, y in sampled_points(segments))
    assert worst >= width / 2 - 1e-6, f"a sampled point comes within {worst:.3f} of a wall"


def shoot(page: Page, name: str) -> Path:
    """A screenshot at 1280x800 in /tmp/shots."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_timeout(300)
    path = SHOTS / f"directional-{name}.png"
    page.screenshot(path=str(path))
    if size:
        page.set_viewport_size(size)
    return path


def wait_settled(page: Page, before: int) -> None:
    page.wait_for_function(
        f"window.arcstar.state().searches > {before} && !window.arcstar.state().searching",
        timeout=SEARCH_TIMEOUT_MS,
    )


def test_the_picker_lists_the_directional_methods_from_the_engine(lab: Page):
    options = lab.get_by_test_id("method").locator("option")
    labels = dict(zip(options.evaluate_all("os => os.map(o => o.value)"),
                      options.evaluate_all("os => os.map(o => o.textContent)"), strict=True))
    for name, text in [("directional8", "Directional-8"), ("directional24", "Directional-24"),
                       ("directional48", "Directional-48"), ("hybrid", "Hybrid")]:
        assert labels.get(name) == text
    lab.get_by_test_id("method").select_option("directional24")
    # The guarantee is the core's (describe); the grid's own moves do not apply to the lattice.
    expect(lab.get_by_test_id("method-note")).to_contain_text("Directional-24")
    expect(lab.get_by_test_id("neighbours")).to_be_disabled()
    expect(lab.get_by_test_id("turning")).to_be_disabled()
    expect(lab.get_by_test_id("heuristic")).to_be_disabled()  # the lattice has its own heuristic
    expect(lab.get_by_test_id("method-note")).not_to_contain_text("octile")
    lab.get_by_test_id("method").select_option("astar")
    expect(lab.get_by_test_id("neighbours")).to_be_enabled()
    expect(lab.get_by_test_id("turning")).to_be_enabled()
    expect(lab.get_by_test_id("heuristic")).to_be_enabled()


def test_directional24_drives_a_legal_hairpin_checked_outside_the_lab(lab: Page):
    set_map(lab, HAIRPIN)
    # The 1-tile A* path turns back on itself at the wall's end.
    loaded = parse_ascii("\n".join(HAIRPIN))
    tiles = plan(loaded.map, loaded.start, loaded.goal).path
    steps = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(tiles, tiles[1:], strict=False)]
    assert (1, 0) in steps and (-1, 0) in steps
    use(lab, "directional24", radius="1.5", width="1")
    r = search(lab)
    assert r["status"] == "found" and r["legal"] is True
    assert r["curves"] == "directional24" and r["method"] == "directional24"
    assert r["ends"] == {"start": [1, 1], "goal": [1, 4]}
    expect(status(lab)).to_contain_text("Legal path (Directional-24)")
    check_segments(r["segments"], HAIRPIN, 1.0, (1, 1), (1, 4))
    # The library, asked the same, plans the same length.
    again = plan(loaded.map, (1, 1), (1, 4), method="directional24", width=1.0, radius=1.5)
    assert abs(again.segments.length - r["segmentsLength"]) < 1e-6
    # The unit drives the true arcs: every pose it reports lies on the route.
    lab.wait_for_timeout(400)
    u = state(lab)["unit"]
    assert u["moving"] and u["width"] == 1
    route = route_of(r["segments"])
    pose = route.pose_at(u["travelled"])
    assert math.hypot(pose.x - u["x"], pose.y - u["y"]) < 1e-6
    assert abs(math.atan2(math.sin(pose.heading - u["heading"]), math.cos(pose.heading - u["heading"]))) < 1e-6
    shot = shoot(lab, "hairpin")
    assert shot.stat().st_size > 10_000


def test_hybrid_finds_a_legal_path_and_says_so(lab: Page):
    set_map(lab, HAIRPIN)
    use(lab, "hybrid", radius="1.5", width="1")
    r = search(lab)
    assert r["status"] == "found" and r["legal"] is True and r["method"] in ("hybrid", "directional24")
    check_segments(r["segments"], HAIRPIN, 1.0, (1, 1), (1, 4))
    expect(status(lab)).to_contain_text("Legal path (")
    shoot(lab, "hybrid")


def test_marker_headings_by_knob_wheel_and_keys_are_undoable_sent_and_saved(lab: Page):
    set_map(lab, OPEN)
    use(lab, "directional24", radius="1", width="1")
    heads = state(lab)["headings"]
    assert heads["start"] is None and heads["goal"] is None
    # Drag the start's knob (east of S while it has no heading) round to the south.
    ts = lab.evaluate("window.arcstar.view().tileSize")
    sx, sy = tile_point(lab, 2, 2)
    assert ts >= 24  # the knob is there from 24 px a tile
    reach = ts * 0.74
    lab.mouse.move(sx + reach, sy)
    lab.mouse.down()
    lab.mouse.move(sx + reach * 0.7, sy + reach * 0.7, steps=4)
    lab.mouse.move(sx, sy + reach, steps=4)
    lab.mouse.up()
    heads = state(lab)["headings"]
    assert heads["typed"]["start"] == "90" and heads["start"] == pytest.approx(math.pi / 2)
    assert state(lab)["start"] == [2, 2]  # the marker did not move, no terrain was painted
    assert "#" not in "".join(lab.evaluate("window.arcstar.rows()"))
    expect(lab.get_by_test_id("start-heading")).to_have_value("90")
    # One undo step for the whole drag.
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("Control+z")
    assert state(lab)["headings"]["start"] is None
    lab.keyboard.press("Control+Shift+z")
    assert state(lab)["headings"]["typed"]["start"] == "90"
    # The wheel over G turns it 15 degrees a notch; notches close together are one undo step.
    gx, gy = tile_point(lab, 8, 5)
    lab.mouse.move(gx, gy)
    tile_before = lab.evaluate("window.arcstar.view().tileSize")
    lab.mouse.wheel(0, 100)
    lab.mouse.wheel(0, 100)
    lab.wait_for_timeout(100)
    assert lab.evaluate("window.arcstar.view().tileSize") == tile_before  # it turned, it did not zoom
    assert state(lab)["headings"]["typed"]["goal"] == "30"
    lab.keyboard.press("Control+z")
    assert state(lab)["headings"]["goal"] is None
    # R and Shift+R turn the marker touched last (G here) by 45 degrees; Delete clears it.
    assert state(lab)["headings"]["focus"] == "goal"
    lab.keyboard.press("r")
    lab.keyboard.press("r")
    lab.keyboard.press("Shift+R")
    assert state(lab)["headings"]["typed"]["goal"] == "45"
    lab.keyboard.press("Delete")
    assert state(lab)["headings"]["goal"] is None
    lab.keyboard.press("r")
    # Sent as [x, y, radians], and the plan honours them: it leaves S facing south, reaches G facing south-east.
    r = search(lab)
    assert r["status"] == "found" and r["legal"] is True
    assert r["ends"]["start"] == [2, 2, pytest.approx(math.pi / 2)]
    assert r["ends"]["goal"] == [8, 5, pytest.approx(math.pi / 4)]
    route = route_of(r["segments"])
    assert abs(route.segments[0].start_pose().heading - math.pi / 2) < 1e-6
    end = route.segments[-1].end_pose().heading
    assert abs(math.atan2(math.sin(end - math.pi / 4), math.cos(end - math.pi / 4))) < 1e-6
    check_segments(r["segments"], OPEN, 1.0, (2, 2), (8, 5))
    shoot(lab, "headings")
    # Autosaved with the unit's settings, and back after a reload.
    lab.wait_for_timeout(500)
    saved = lab.evaluate("JSON.parse(localStorage.getItem('arcstar.lab.v1')).unit")
    assert saved["start_heading"] == "90" and saved["goal_heading"] == "45"
    lab.reload()
    lab.wait_for_function("window.arcstar !== undefined")
    lab.evaluate("window.arcstar.ready.then(() => { window.__ready = true; })")
    lab.wait_for_function("window.__ready === true", timeout=120_000)
    assert state(lab)["headings"]["typed"] == {"start": "90", "goal": "45"}


def test_bad_heading_input_is_refused_inline(lab: Page):
    set_map(lab, OPEN)
    use(lab, "directional24", radius="1", width="1")
    before = state(lab)["searches"]
    field = lab.get_by_test_id("start-heading")
    field.fill("north-ish")
    field.dispatch_event("change")
    error = lab.get_by_test_id("unit-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text('Start heading "north-ish" is not a number of degrees')
    expect(field).to_have_attribute("aria-invalid", "true")
    assert state(lab)["headings"]["start"] is None
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("Enter")
    lab.wait_for_function(f"window.arcstar.state().searches > {before}")
    expect(status(lab)).to_have_attribute("data-state", "error")
    expect(status(lab)).to_contain_text("Not searching: Start heading")
    # Out-of-range turns are read modulo 360; the goal takes "any".
    field.fill("450")
    field.dispatch_event("change")
    expect(error).to_be_hidden()
    expect(field).to_have_value("90")
    goal = lab.get_by_test_id("goal-heading")
    goal.fill("any")
    goal.dispatch_event("change")
    assert state(lab)["headings"]["goal"] is None
    for bad in ["'south'", "NaN", "Infinity", "[1]"]:
        got = lab.evaluate(f"() => {{ try {{ window.arcstar.setHeading('goal', {bad}); return 'no error'; }}"
                           " catch (e) { return e.message; } }")
        assert "heading must be a finite number of degrees" in got
    assert "start" in lab.evaluate(
        "() => { try { window.arcstar.setHeading('north', 0); } catch (e) { return e.message; } }")
    field.fill("")
    field.dispatch_event("change")


def test_the_unit_reverses_where_the_plan_reverses(lab: Page):
    set_map(lab, DEAD_END)
    use(lab, "directional24", radius="1.5", width="1", reverse=False)
    r = search(lab, expect_state="no_path")
    assert r["status"] in ("no_path", "unreachable")
    use(lab, "directional24", radius="1.5", width="1", reverse=True)
    lab.get_by_test_id("speed").fill("2")  # slow enough to watch
    r = search(lab)
    assert r["status"] == "found" and r["legal"] is True
    assert any(s.get("gear") == -1 for s in r["segments"])
    check_segments(r["segments"], DEAD_END, 1.0, (4, 1), (1, 1))
    lab.wait_for_timeout(250)
    shoot(lab, "reverse")
    seen = []
    for _ in range(12):
        u = state(lab)["unit"]
        seen.append(u)
        if not u["moving"]:
            break
        lab.wait_for_timeout(120)
    backing = [u for u in seen if u["moving"] and u["gear"] == -1]
    assert backing, f"the unit never drove in reverse: {seen}"
    # In reverse it still faces east while it moves west.
    assert all(abs(math.atan2(math.sin(u["heading"]), math.cos(u["heading"]))) < 1e-6 for u in backing)
    xs = [u["x"] for u in seen]
    assert xs == sorted(xs, reverse=True) and xs[0] > xs[-1]
    lab.get_by_test_id("speed").fill("8")


def test_a_long_directional_search_shows_progress_and_cancels(lab: Page):
    rows = ["." * 128 for _ in range(128)]
    rows[1] = ".S" + "." * 126
    rows[120] = "." * 120 + "G" + "." * 7
    set_map(lab, rows)
    use(lab, "directional48", radius="3", width="1", reverse=True)
    lab.evaluate("window.arcstar.setOptions({heuristic: 'none'})")  # no heuristic: it spreads over the map
    before = state(lab)["searches"]
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("Enter")
    expect(status(lab)).to_have_attribute("data-state", "searching")
    expect(lab.get_by_test_id("status-text")).to_contain_text("expanded", timeout=20_000)
    expect(lab.get_by_test_id("cancel")).to_be_enabled()
    assert lab.get_by_test_id("progress").is_visible()
    lab.get_by_test_id("cancel").click()
    wait_settled(lab, before)
    expect(status(lab)).to_have_attribute("data-state", "cancelled")
    assert state(lab)["lastResult"]["status"] == "cancelled"
    lab.evaluate("window.arcstar.setOptions({heuristic: 'octile'})")


def test_compare_draws_e_as_the_directional_plan(lab: Page):
    set_map(lab, HAIRPIN)
    use(lab, "directional24", radius="1.5", width="1")
    lab.get_by_test_id("turning").evaluate("el => el.disabled")
    lab.get_by_test_id("compare").check()
    lab.get_by_test_id("explored").uncheck()
    r = search(lab)
    entries = lab.evaluate("window.arcstar.compare()")
    assert [e["key"] for e in entries] == ["raw", "smooth", "ignore", "chosen", "directional"]
    by = {e["key"]: e for e in entries}
    assert by["directional"]["label"] == "Directional-24" and by["directional"]["legal"] is True
    assert by["directional"]["length"] == pytest.approx(r["segmentsLength"])
    legend = lab.get_by_test_id("compare-legend")
    expect(legend.get_by_test_id("compare-directional")).to_contain_text("e. Directional-24")
    expect(legend.get_by_test_id("compare-legal-directional")).to_have_text("\u2713")
    check_segments(r["segments"], HAIRPIN, 1.0, (1, 1), (1, 4))
    lab.wait_for_timeout(500)
    shoot(lab, "compare")
    lab.get_by_test_id("compare").uncheck()
    lab.get_by_test_id("explored").check()
    lab.get_by_test_id("method").select_option("astar")


def test_people_plan_with_the_cores_tight_turns(lab: Page):
    set_map(lab, HAIRPIN)
    use(lab, "directional8", radius="1.5", width="1")
    people = lab.get_by_test_id("people")
    expect(people).to_be_disabled()  # Directional-8 charges no turns
    expect(lab.get_by_test_id("turn-penalty")).to_be_disabled()
    lab.get_by_test_id("method").select_option("directional24")
    expect(people).to_be_enabled()
    expect(lab.get_by_test_id("turn-penalty")).to_be_enabled()
    people.check()
    expect(lab.get_by_test_id("radius")).to_be_disabled()
    expect(lab.get_by_test_id("turn-penalty")).to_be_disabled()
    r = search(lab)
    assert r["status"] == "found" and r["legal"] is True
    loaded = parse_ascii("\n".join(HAIRPIN))
    again = plan(loaded.map, (1, 1), (1, 4), method="directional24", width=1.0, people=True)
    assert abs(again.segments.length - r["segmentsLength"]) < 1e-6
    check_segments(r["segments"], HAIRPIN, 1.0, (1, 1), (1, 4))
    shoot(lab, "people")
    people.uncheck()
    expect(lab.get_by_test_id("radius")).to_be_enabled()


def test_the_hybrid_says_when_its_directional24_fallback_made_the_path(lab: Page):
    # Two bends more than 12 tiles apart: Smoothing48's failure points are too far apart for the
    # Directional-8 patch, so the hybrid falls back to Directional-24 (Pinter's "Path Failure").
    from arcstar.directional.figures import FIGURES

    fig = FIGURES["two_bends"]
    rows = fig.text.split()
    set_map(lab, rows)
    use(lab, "hybrid", radius=str(fig.radius), width="1")
    r = search(lab)
    assert r["status"] == "found" and r["legal"] is True
    assert r["method"] == "directional24"
    assert r["fallback"]["ran"] == "directional24" and r["fallback"]["asked"] == "hybrid"
    expect(status(lab)).to_contain_text("Planned with Directional-24 instead of Hybrid: Smoothing48's failure"
                                        " points were more than 12 tiles apart, and the goal is reachable")
    loaded = parse_ascii(fig.text)
    check_segments(r["segments"], rows, 1.0, loaded.start, loaded.goal)
    shoot(lab, "hybrid-fallback")


def test_the_hybrid_on_figure_20_draws_its_stages(lab: Page):
    from arcstar.directional.figures import FIGURES

    fig = FIGURES["figure20"]
    rows = fig.text.split()
    set_map(lab, rows)
    use(lab, "hybrid", radius=str(fig.radius), width="1")
    lab.get_by_test_id("start-heading").fill(str(round(math.degrees(fig.start_heading))))
    lab.get_by_test_id("start-heading").dispatch_event("change")
    r = search(lab)
    assert r["status"] == "found" and r["legal"] is True and r["method"] == "hybrid"
    loaded = parse_ascii(fig.text)
    check_segments(r["segments"], rows, 1.0, loaded.start, loaded.goal)
    lab.wait_for_timeout(300)
    shoot(lab, "hybrid-figure20")
    lab.get_by_test_id("start-heading").fill("")
    lab.get_by_test_id("start-heading").dispatch_event("change")
