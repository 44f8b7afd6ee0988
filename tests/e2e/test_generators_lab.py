"""The Map panel's Generate and Resize, driven as a person would: each generator seeded twice
gives the same map (and the map the core makes from those settings), another seed another map;
one Undo brings back the map before a generate or a resize; resize keeps the overlap; bad sizes
and seeds are named, and the map stays. The maps are checked here, from the page's rows, with a
breadth-first search of this file's own."""

from __future__ import annotations

from collections import deque

import pytest
from labkit import BLOCKED, rows, set_map, state
from playwright.sync_api import Page, expect

from arcstar.maps import generate_map, to_ascii

pytestmark = pytest.mark.e2e
GEN_TIMEOUT_MS = 60_000


def generate(page: Page, kind: str, width: int, height: int, seed: int, density: float | None = None) -> list[str]:
    """Fill the Generate part and press Generate; wait for the new map; its rows."""
    page.get_by_test_id("gen-kind").select_option(kind)
    page.get_by_test_id("gen-width").fill(str(width))
    page.get_by_test_id("gen-height").fill(str(height))
    page.get_by_test_id("gen-seed").fill(str(seed))
    if density is not None:
        page.get_by_test_id("gen-density").fill(str(density))
    version = state(page)["version"]
    page.get_by_test_id("gen-go").click()
    page.wait_for_function(f"window.arcstar.state().version !== {version}", timeout=GEN_TIMEOUT_MS)
    expect(page.get_by_test_id("gen-error")).to_be_hidden()
    return rows(page)


def joined(map_rows: list[str], a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether open tiles join a and b on 4 neighbours."""
    h, w = len(map_rows), len(map_rows[0])
    seen = {a}
    queue = deque([a])
    while queue:
        x, y = queue.popleft()
        if (x, y) == b:
            return True
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and (nx, ny) not in seen and map_rows[ny][nx] not in BLOCKED:
                seen.add((nx, ny))
                queue.append((nx, ny))
    return False


@pytest.mark.parametrize("kind, density", [("maze", None), ("rooms", None), ("caves", 0.45), ("obstacles", 0.3),
                                           ("roads", 0.5)])
def test_each_generator_seeded_twice_gives_the_same_map(lab: Page, kind, density):
    first = generate(lab, kind, 41, 29, 1234, density)
    other = generate(lab, kind, 41, 29, 99, density)
    again = generate(lab, kind, 41, 29, 1234, density)
    assert first == again
    assert other != first
    # the very map the core makes from those settings, with its start and goal
    made = generate_map(kind, 41, 29, 1234, density=density)
    assert first == to_ascii(made.map, made.start, made.goal).split()
    s = state(lab)
    assert s["generator"] == {"kind": kind, "width": 41, "height": 29, "seed": 1234,
                              "density": density}
    assert joined(first, tuple(s["start"]), tuple(s["goal"]))
    assert s["map"] == "" and (s["width"], s["height"]) == (41, 29)


def test_a_generated_map_is_searchable(lab: Page):
    generate(lab, "maze", 31, 21, 5)
    result = lab.evaluate("window.arcstar.findPath()")
    assert result["status"] == "found"


def test_undo_restores_the_map_before_and_redo_the_generated_one(lab: Page):
    before = ["S....#...", "..#..#...", "..#.....G"]
    set_map(lab, before)
    generated = generate(lab, "caves", 30, 20, 7)
    assert state(lab)["canUndo"]
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("Control+z")
    lab.wait_for_function("window.arcstar.state().width === 9")
    assert rows(lab) == before
    lab.keyboard.press("Control+Shift+z")
    lab.wait_for_function("window.arcstar.state().width === 30")
    assert rows(lab) == generated


def test_the_dice_and_n_draw_a_new_seed(lab: Page):
    generate(lab, "obstacles", 20, 15, 1, 0.2)
    version = state(lab)["version"]
    lab.get_by_test_id("gen-dice").click()
    lab.wait_for_function(f"window.arcstar.state().version !== {version}", timeout=GEN_TIMEOUT_MS)
    seed = int(lab.get_by_test_id("gen-seed").input_value())
    assert state(lab)["generator"]["seed"] == seed
    version = state(lab)["version"]
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("n")
    lab.wait_for_function(f"window.arcstar.state().version !== {version}", timeout=GEN_TIMEOUT_MS)
    assert state(lab)["generator"]["seed"] == int(lab.get_by_test_id("gen-seed").input_value())
    # two undos: back to the map of seed 1
    lab.keyboard.press("Control+z")
    lab.keyboard.press("Control+z")
    made = generate_map("obstacles", 20, 15, 1, density=0.2)
    seed_one = "".join(to_ascii(made.map, made.start, made.goal).split())
    lab.wait_for_function(f"window.arcstar.rows().join('') === {seed_one!r}")


def test_resize_keeps_the_overlap_and_fills_with_ground(lab: Page):
    before = ["S.#~:", "..#^.", "%.=.G"]
    set_map(lab, before)
    lab.get_by_test_id("resize-width").fill("7")
    lab.get_by_test_id("resize-height").fill("2")
    lab.get_by_test_id("resize-go").click()
    lab.wait_for_function("window.arcstar.state().width === 7")
    # the 5 x 2 overlap kept, two columns of ground added, the goal clamped onto the last row
    assert rows(lab) == ["S.#~:..", "..#^G.."]
    s = state(lab)
    assert s["start"] == [0, 0]
    assert s["goal"] == [4, 1]  # clamped inside (it was on the row cut off)
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("Control+z")
    lab.wait_for_function("window.arcstar.state().width === 5")
    assert rows(lab) == before


@pytest.mark.parametrize("width, height, field", [("0", "5", "width"), ("5", "100000", "height"),
                                                  ("", "5", "width"), ("2.5", "5", "width")])
def test_bad_resize_sizes_are_named_and_the_map_stays(lab: Page, width, height, field):
    before = ["S...", "..#.", "...G"]
    set_map(lab, before)
    lab.get_by_test_id("resize-width").fill(width)
    lab.get_by_test_id("resize-height").fill(height)
    lab.get_by_test_id("resize-go").click()
    expect(lab.get_by_test_id("resize-error")).to_be_visible()
    expect(lab.get_by_test_id(f"resize-{field}")).to_have_attribute("aria-invalid", "true")
    expect(lab.get_by_test_id("status")).to_have_attribute("data-state", "error")
    assert rows(lab) == before
    assert not state(lab)["canUndo"]


@pytest.mark.parametrize("fields, field", [
    ({"gen-width": "0"}, "width"), ({"gen-height": "5000"}, "height"), ({"gen-seed": "-1"}, "seed"),
    ({"gen-seed": ""}, "seed"), ({"gen-kind": "obstacles", "gen-density": "2"}, "density"),
])
def test_bad_generator_settings_are_named_and_the_map_stays(lab: Page, fields, field):
    before = ["S...", "..#.", "...G"]
    set_map(lab, before)
    lab.get_by_test_id("gen-kind").select_option("maze")
    lab.get_by_test_id("gen-width").fill("21")
    lab.get_by_test_id("gen-height").fill("15")
    lab.get_by_test_id("gen-seed").fill("3")
    for testid, value in fields.items():
        if testid == "gen-kind":
            lab.get_by_test_id(testid).select_option(value)
        else:
            lab.get_by_test_id(testid).fill(value)
    lab.get_by_test_id("gen-go").click()
    expect(lab.get_by_test_id("gen-error")).to_be_visible()
    expect(lab.get_by_test_id(f"gen-{field}")).to_have_attribute("aria-invalid", "true")
    assert rows(lab) == before
    assert not state(lab)["canUndo"]


def test_the_worker_answers_hostile_generate_requests_with_an_error(lab: Page):
    for msg, field in [({"kind": "maze", "width": 10**6}, "width"), ({"kind": "nope"}, "kind"),
                       ({"kind": "maze", "seed": "abc"}, "seed"), ({"kind": "caves", "density": 0.99}, "density")]:
        answer = lab.evaluate("(m) => window.arcstar._rawPlan(m)", {"type": "generate", "id": "h", **msg})
        assert answer["type"] == "error" and answer["kind"] == "bad_input" and answer["field"] == field, answer
    # the engine still works
    generate(lab, "rooms", 25, 17, 2)


def test_the_generator_settings_survive_a_reload(lab_factory):
    context, page = lab_factory()
    try:
        made = generate(page, "roads", 33, 22, 4242, 0.4)
        page.wait_for_function("(localStorage.getItem('arcstar.lab.v1') || '').includes('\"seed\":4242')")
        page.reload()
        page.wait_for_function("window.arcstar !== undefined")
        page.wait_for_function("window.arcstar.state().width === 33")
        assert rows(page) == made
        assert state(page)["generator"] == {"kind": "roads", "width": 33, "height": 22, "seed": 4242, "density": 0.4}
        expect(page.get_by_test_id("gen-seed")).to_have_value("4242")
        expect(page.get_by_test_id("gen-kind")).to_have_value("roads")
        expect(page.get_by_test_id("gen-density")).to_have_value("0.4")
    finally:
        context.close()


def test_screenshot_of_the_generate_part(lab: Page, save_screen):
    generate(lab, "caves", 64, 40, 17)
    lab.get_by_test_id("gen-kind").select_option("caves")
    save_screen(lab, "generators-caves")
