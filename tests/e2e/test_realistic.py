"""Realistic paths in the lab: the unit's settings, true arcs, legality, Pinter's Figure 1.

The unit's settings are chosen with the mouse and keyboard; ``window.arcstar`` only sets up
the map and reads back what the page did.
"""

from __future__ import annotations

import math

from labkit import search, set_map, state, status
from playwright.sync_api import Page, expect

# An L corridor: a 3-tile hall, then a 3-tile corridor down (the corner is tight for radius 1.5).
L_MAP = [
    "..........",
    ".S........",
    "..........",
    "#######...",
    "#######...",
    "#######.G.",
]
# Two rooms joined by a one-tile door: no room for a body 2.5 tiles wide.
DOOR_MAP = [
    "############",
    "#....#.....#",
    "#.S..#.....#",
    "#........G.#",
    "#....#.....#",
    "#....#.....#",
    "############",
]


def set_unit(page: Page, *, turning: str = "", radius: str = "1.5", width: str = "", compare: bool = False) -> None:
    """Choose the unit's settings through the panel, as a person would."""
    page.get_by_test_id("compare").set_checked(compare)
    page.get_by_test_id("turning").select_option(turning)
    page.get_by_test_id("radius").fill(radius)
    page.get_by_test_id("unit-width").fill(width)


def angle_diff(a: float, b: float) -> float:
    return abs(math.atan2(math.sin(a - b), math.cos(a - b)))


def test_tighter_drives_arcs_with_a_smooth_heading_and_slows_down(lab: Page):
    set_map(lab, L_MAP)
    set_unit(lab, turning="tighter", radius="1.5")
    lab.get_by_test_id("speed").fill("4")
    res = search(lab)
    assert res["turning"] == "tighter" and res["legal"] is True
    assert any(s["type"] == "arc" for s in res["segments"]), res["segments"]
    assert res["blocked"] == [] and res["speedLimits"], res
    expect(status(lab)).to_contain_text("Legal path (tighter)")
    # Sample the unit as it drives: the heading never jumps, and it slows in the speed limit.
    samples = lab.evaluate(
        """() => new Promise((done) => {
            const out = [];
            const t0 = performance.now();
            function tick() {
                const u = window.arcstar.state().unit;
                out.push(u);
                if ((!u.moving && out.length > 5) || performance.now() - t0 > 8000) done(out);
                else requestAnimationFrame(tick);
            }
            requestAnimationFrame(tick);
        })"""
    )
    assert len(samples) > 20
    assert not samples[-1]["moving"]
    goal = (8.5, 5.5)
    assert math.hypot(samples[-1]["x"] - goal[0], samples[-1]["y"] - goal[1]) < 1e-6
    for a, b in zip(samples, samples[1:]):
        if not (a["pivoting"] or b["pivoting"]):
            assert angle_diff(a["heading"], b["heading"]) < 0.5, (a, b)
    start_h, end_h = samples[0]["heading"], samples[-1]["heading"]
    assert angle_diff(start_h, end_h) > 0.8  # it did turn the corner
    (lo, hi, factor) = res["speedLimits"][0]
    inside = [s["speed"] for s in samples if lo + 0.05 < s["travelled"] < hi - 0.05 and s["moving"]]
    outside = [s["speed"] for s in samples if s["travelled"] < lo - 0.05 and s["moving"] and s["travelled"] > 0]
    assert inside and outside
    assert max(inside) <= 4 * factor + 1e-6 < min(outside) - 1e-6
    assert samples[-1]["width"] == 1


def test_turns_ignoring_walls_are_reported_not_legal(lab: Page):
    set_map(lab, L_MAP)
    set_unit(lab, turning="ignore", radius="1.5")
    res = search(lab, expect_state="no_path")
    assert res["status"] == "not_legal" and res["legal"] is False
    assert res["blocked"] and all(b > a for a, b in res["blocked"])
    expect(status(lab)).to_contain_text("Path found but not legal for this unit: blockers ignored")


def test_compare_plans_five_ways(lab: Page, save_screen):
    set_map(lab, L_MAP)
    set_unit(lab, turning="tighter", radius="1.5", compare=True)
    lab.get_by_test_id("explored").uncheck()  # a clean map: only the four paths
    search(lab)
    entries = lab.evaluate("window.arcstar.compare()")
    assert [e["key"] for e in entries] == ["raw", "smooth", "ignore", "chosen", "directional"]
    by = {e["key"]: e for e in entries}
    assert by["raw"]["turns"] == max(e["turns"] for e in entries)
    assert by["smooth"]["length"] <= by["raw"]["length"] + 1e-9
    assert by["ignore"]["legal"] is False and by["chosen"]["legal"] is True
    legend = lab.get_by_test_id("compare-legend")
    expect(legend).to_be_visible()
    expect(legend.get_by_test_id("compare-legal-chosen")).to_have_text("\u2713")
    expect(legend.get_by_test_id("compare-legal-ignore")).to_have_text("\u2717")
    expect(legend).not_to_contain_text("(coming)")  # no placeholders (issue 9)
    # Each plan can be hidden and shown again.
    legend.get_by_test_id("compare-show-raw").uncheck()
    assert not lab.evaluate("window.arcstar.compare()")[0]["visible"]
    legend.get_by_test_id("compare-show-raw").check()
    lab.wait_for_timeout(700)  # the unit is on its way along the chosen path
    save_screen(lab, "realistic-compare")
    lab.get_by_test_id("compare").uncheck()
    expect(legend).to_be_hidden()
    lab.get_by_test_id("explored").check()


def test_bad_unit_inputs_are_refused_inline(lab: Page):
    set_map(lab, L_MAP)
    set_unit(lab, turning="tighter")
    before = state(lab)["lastResult"]
    error = lab.get_by_test_id("unit-error")
    for field, value, text in [
        ("radius", "0", "cannot be 0"),
        ("unit-width", "-1", "cannot be negative"),
        ("radius", "abc", "is not a number"),
    ]:
        set_unit(lab, turning="tighter")
        lab.get_by_test_id(field).fill(value)
        expect(error).to_be_visible()
        expect(error).to_contain_text(text)
        expect(lab.get_by_test_id(field)).to_have_attribute("aria-invalid", "true")
        lab.get_by_test_id("find").click()
        expect(status(lab)).to_have_attribute("data-state", "error")
        expect(status(lab)).to_contain_text("Not searching")
        assert state(lab)["lastResult"] == before  # nothing was sent
    set_unit(lab, turning="tighter")
    expect(error).to_be_hidden()


def test_a_unit_wider_than_every_corridor_finds_no_path(lab: Page):
    set_map(lab, DOOR_MAP)
    set_unit(lab, turning="tighter", width="2.5")
    res = search(lab, expect_state="no_path")
    assert res["status"] == "no_path"
    expect(status(lab)).to_contain_text("No path for a unit 2.5 tiles wide")
    set_unit(lab)


# Pinter's Figure 7b: a one-tile driveway off a hall; a unit turning on radius 2 must back up.
DRIVEWAY_MAP = [
    "####################",
    "#..................#",
    "#.S................#",
    "#..................#",
    "##########.#########",
    "##########.#########",
    "##########G#########",
    "####################",
]


def test_backup_reverses_into_the_driveway(lab: Page):
    set_map(lab, DRIVEWAY_MAP)
    set_unit(lab, turning="backup", radius="2")
    lab.get_by_test_id("can-reverse").set_checked(True)
    res = search(lab)
    assert res["legal"] is True, res
    gears = [s["gear"] for s in res["segments"]]
    assert -1 in gears and gears[0] == 1  # drives in forward, backs up, then goes on: a three-point turn
    expect(status(lab)).to_contain_text("Legal path (backup)")
    set_unit(lab, turning="ignore", radius="2")  # turning forward on radius 2 into the driveway clips a wall
    lab.get_by_test_id("can-reverse").set_checked(False)
    res = search(lab, expect_state="no_path")  # shown as "Path found but not legal"
    assert res["status"] == "not_legal" and res["legal"] is False
    expect(status(lab)).to_contain_text("not legal")


def test_fixed_angle_art_redraws_the_path_in_eight_directions(lab: Page):
    set_map(lab, L_MAP)
    set_unit(lab, turning="tighter", radius="1.5")
    lab.get_by_test_id("art").select_option("8")
    res = search(lab)
    assert res["segments"] and all(s["type"] == "line" for s in res["segments"])
    for s in res["segments"]:
        if s["length"] > 1e-9:  # every heading a multiple of 45 degrees (Pinter's Figure 15)
            k = s["heading"] / (math.pi / 4)
            assert abs(k - round(k)) < 1e-6, s
    assert isinstance(res["legal"], bool)
    lab.get_by_test_id("art").select_option("")
