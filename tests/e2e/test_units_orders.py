"""Patrol and nearest orders in the lab: chosen with P / T (or the Units panel), points marked
with right-clicks and drawn on the map, sent with Enter, cancelled with Esc; a patrol visits its
points in turn and keeps looping, a nearest order sends each unit to the target nearest to it by
the ground; bad marks and hostile order messages get clear errors and the world keeps running.

The page is driven with the mouse and keyboard (``window.arcstar`` sets the map up and reads the
world back); which target is nearest is worked out here with a Dijkstra of our own on the map's
rows, independent of the core's planner.
"""

from __future__ import annotations

import heapq
import math
import shutil
import tempfile
from pathlib import Path

import pytest
from labkit import BLOCKED, point, press_on_map, rows, set_map, world
from playwright.sync_api import Page
from test_units_lab import load_preset

from arcstar.service.worlds import MAX_POINTS

pytestmark = pytest.mark.e2e

TIMEOUT_MS = 90_000

ROOM = [
    "####################",
    "#..................#",
    "#..................#",
    "#..................#",
    "#..................#",
    "#..................#",
    "#..................#",
    "#..................#",
    "#..................#",
    "#S................G#",
    "####################",
]
# S and G: the search's markers, which the lab always has. SPLIT: a wall from the bottom up to
# row 3 at x = 8; the way from one side to the other is round its top.
SPLIT = [r[:8] + ("#" if 3 <= y <= 9 else r[8]) + r[9:] for y, r in enumerate(ROOM)]


def fresh_world(page: Page, map_rows: list[str]) -> None:
    """A paused page on ``map_rows`` with no units, in Command units mode, avoidance none."""
    page.evaluate("window.arcstar.ready")
    page.wait_for_function("window.arcstar.world().presets.length > 0", timeout=TIMEOUT_MS)
    if world(page)["running"]:
        page.get_by_test_id("world-play").click()
        page.wait_for_function("!window.arcstar.world().running", timeout=TIMEOUT_MS)
    set_map(page, map_rows)
    page.wait_for_function("!window.arcstar.world().on", timeout=TIMEOUT_MS)
    page.get_by_test_id("mode-units").click()
    page.get_by_test_id("world-avoidance").select_option("none")
    page.get_by_test_id("world-speed").select_option("8")
    page.wait_for_function("window.arcstar.world().speed === 8")


def place(page: Page, kind: str, x: float, y: float) -> str:
    """Place a unit with the panel's tool and a click; its id (it is selected)."""
    n = len(world(page)["units"])
    page.get_by_test_id(f"tool-{kind}").click()
    page.mouse.click(*point(page, x, y))
    page.wait_for_function(f"window.arcstar.world().units.length === {n + 1}", timeout=TIMEOUT_MS)
    page.get_by_test_id("tool-select").click()
    return world(page)["units"][-1]["id"]


def right_click(page: Page, x: float, y: float, count_after: int | None = None) -> None:
    page.mouse.click(*point(page, x, y), button="right")
    if count_after is not None:
        page.wait_for_function(f"window.arcstar.world().order.points.length === {count_after}")


def record_track(page: Page, unit: str, until_game_s: float) -> list[tuple[float, float, float]]:
    """(game time, x, y) of one unit every 10 ms of wall time, from before the world is played
    (it is played here: at 8x a person leaves its start within a frame or two, and a recording
    begun after play missed it on a loaded machine) until the world's clock passes a time; the
    world is paused again after."""
    page.evaluate("""(id) => {
      window.__track = [];
      const sample = () => {
        const w = window.arcstar.world();
        const u = w.units.find((v) => v.id === id);
        if (u) window.__track.push([w.time, u.x, u.y]);
      };
      sample();
      window.__trackTimer = setInterval(sample, 10);
    }""", unit)
    page.get_by_test_id("world-play").click()
    page.wait_for_function("window.arcstar.world().running")
    page.wait_for_function(f"window.arcstar.world().time >= {until_game_s}", timeout=TIMEOUT_MS)
    done = page.evaluate("(() => { clearInterval(window.__trackTimer); return window.__track; })()")
    track = [tuple(p) for p in done]
    page.get_by_test_id("world-play").click()
    page.wait_for_function("!window.arcstar.world().running")
    return track


def visits(track: list[tuple[float, float, float]], points: list[tuple[float, float]], near: float) -> list[int]:
    """The points the track came within ``near`` of, in order, repeats collapsed."""
    seq: list[int] = []
    for _, x, y in track:
        for i, (px, py) in enumerate(points):
            if math.hypot(x - px, y - py) <= near and (not seq or seq[-1] != i):
                seq.append(i)
    return seq


def ground_distances(map_rows: list[str], start: tuple[int, int], diagonal: bool) -> dict[tuple[int, int], float]:
    """Dijkstra over the open tiles: 4 neighbours, or 8 with sqrt 2 diagonals that cut no wall corner."""
    steps = [(1, 0, 1.0), (-1, 0, 1.0), (0, 1, 1.0), (0, -1, 1.0)]
    if diagonal:
        steps += [(dx, dy, math.sqrt(2)) for dx in (-1, 1) for dy in (-1, 1)]

    def open_(x: int, y: int) -> bool:
        return 0 <= y < len(map_rows) and 0 <= x < len(map_rows[0]) and map_rows[y][x] not in BLOCKED

    dist = {start: 0.0}
    todo = [(0.0, start)]
    while todo:
        d, (x, y) = heapq.heappop(todo)
        if d > dist[(x, y)]:
            continue
        for dx, dy, c in steps:
            n = (x + dx, y + dy)
            if not open_(*n) or (dx and dy and not (open_(x + dx, y) and open_(x, y + dy))):
                continue
            if d + c < dist.get(n, math.inf):
                dist[n] = d + c
                heapq.heappush(todo, (d + c, n))
    return dist


# ----------------------------------------------------------------------------- patrol

def test_patrol_visits_its_points_in_turn_and_keeps_looping(lab: Page, save_screen):
    fresh_world(lab, ROOM)
    unit = place(lab, "person", 2.5, 2.5)
    assert world(lab)["selected"] == [unit]
    loop = [(12.5, 2.5), (12.5, 7.5), (4.5, 7.5)]
    press_on_map(lab, "p")
    lab.wait_for_function("window.arcstar.world().order.kind === 'patrol'")
    assert lab.get_by_test_id("order-patrol").get_attribute("aria-checked") == "true"
    assert lab.get_by_test_id("order-pending").is_visible()
    for i, (x, y) in enumerate(loop):
        right_click(lab, x, y, i + 1)
    assert "3 points marked" in lab.get_by_test_id("order-hint").inner_text()
    assert [tuple(p) for p in world(lab)["order"]["points"]] == loop
    # the marked points are drawn: the canvas differs there from the bare floor beside it
    shot = save_screen(lab, "units-patrol-pending")
    shutil.copyfile(shot, Path(tempfile.gettempdir()) / "arcstar-units-patrol-pending.png")
    assert lab.evaluate("window.arcstar.world().units.length") == 1  # nothing was sent yet
    press_on_map(lab, "Enter")
    lab.wait_for_function("window.arcstar.world().order.kind === 'move'")
    w = world(lab)
    assert w["units"][0]["orders"] and w["units"][0]["orders"][0].startswith("patrol (12.5, 2.5)"), w["units"][0]
    assert not lab.get_by_test_id("order-pending").is_visible()
    track = record_track(lab, unit, 75.0)
    seq = visits(track, loop, 0.3)
    # in turn, and round again: A B C A B C ... (at least two whole loops in 75 s of game time)
    assert len(seq) >= 7, (seq, track[-1])
    assert seq == [i % 3 for i in range(len(seq))], seq
    assert world(lab)["units"][0]["status"] == "patrolling"
    # it never left the room's floor
    for _, x, y in track:
        assert 1.25 <= x <= 18.75 and 1.25 <= y <= 9.75, (x, y)


def test_a_patrol_of_one_point_goes_back_and_forth(lab: Page):
    fresh_world(lab, ROOM)
    unit = place(lab, "person", 3.5, 5.5)
    lab.get_by_test_id("order-patrol").click()  # the panel, instead of P
    lab.wait_for_function("window.arcstar.world().order.kind === 'patrol'")
    right_click(lab, 15.5, 5.5, 1)
    lab.get_by_test_id("order-send").click()
    lab.wait_for_function("window.arcstar.world().order.kind === 'move'")
    assert "\u2194" in world(lab)["units"][0]["orders"][0]
    track = record_track(lab, unit, 40.0)
    seq = visits(track, [(3.5, 5.5), (15.5, 5.5)], 0.3)
    assert seq[:4] == [0, 1, 0, 1], seq


# ----------------------------------------------------------------------------- nearest

def test_nearest_sends_each_unit_to_its_nearest_target_by_the_ground(lab: Page):
    fresh_world(lab, SPLIT)
    starts = {place(lab, "person", 6.5, 9.5): (6, 9)}
    starts[place(lab, "person", 15.5, 9.5)] = (15, 9)
    targets = [(10.5, 9.5), (1.5, 2.5), (18.5, 1.5)]
    # select both with a box
    lab.mouse.move(*point(lab, 5.2, 8.2))
    lab.mouse.down()
    lab.mouse.move(*point(lab, 16.8, 9.9), steps=6)
    lab.mouse.up()
    lab.wait_for_function("window.arcstar.world().selected.length === 2")
    press_on_map(lab, "t")
    lab.wait_for_function("window.arcstar.world().order.kind === 'nearest'")
    for i, (x, y) in enumerate(targets):
        right_click(lab, x, y, i + 1)
    press_on_map(lab, "Enter")
    lab.wait_for_function("window.arcstar.world().order.kind === 'move'")
    assert all(u["orders"][0].startswith("nearest of") for u in world(lab)["units"])
    lab.get_by_test_id("world-play").click()
    lab.wait_for_function("window.arcstar.world().units.every((u) => u.status === 'arrived')", timeout=TIMEOUT_MS)
    lab.get_by_test_id("world-play").click()
    lab.wait_for_function("!window.arcstar.world().running")
    tiles = [(math.floor(x), math.floor(y)) for x, y in targets]
    euclid_differs = False
    for u in world(lab)["units"]:
        start = starts[u["id"]]
        by_ground = {}
        for diagonal in (False, True):  # the same answer with 4 or 8 neighbours: the test does not hang on the rule
            dist = ground_distances(SPLIT, start, diagonal)
            best = min(range(len(tiles)), key=lambda i: dist[tiles[i]])
            second = sorted(dist[t] for t in tiles)[1]
            assert second - dist[tiles[best]] >= 2, "the map must make the nearest target clear"
            by_ground[diagonal] = best
        assert by_ground[False] == by_ground[True]
        want = targets[by_ground[True]]
        assert math.hypot(u["x"] - want[0], u["y"] - want[1]) < 0.3, (u, want)
        sx, sy = start[0] + 0.5, start[1] + 0.5
        by_air = min(range(len(targets)), key=lambda i: math.hypot(targets[i][0] - sx, targets[i][1] - sy))
        euclid_differs = euclid_differs or by_air != by_ground[True]
    assert euclid_differs, "one unit's nearest target as the crow flies must not be its nearest by the ground"


# ----------------------------------------------------------------------------- bad marks, hostile messages

def test_bad_marks_and_sends_get_clear_messages_and_change_nothing(lab: Page):
    fresh_world(lab, SPLIT)
    unit = place(lab, "person", 3.5, 5.5)
    message = lab.get_by_test_id("world-message")
    press_on_map(lab, "p")
    lab.wait_for_function("window.arcstar.world().order.kind === 'patrol'")
    # Enter with no point marked
    press_on_map(lab, "Enter")
    lab.wait_for_function("window.arcstar.world().message.error")
    assert "Right-click at least one point" in message.inner_text()
    # a point in the wall is refused, and the count stays
    right_click(lab, 5.5, 5.5, 1)
    right_click(lab, 8.5, 6.5)
    lab.wait_for_function("window.arcstar.world().message.text.includes('is a wall')")
    assert world(lab)["order"]["points"] == [[5.5, 5.5]] and message.get_attribute("role") == "alert"
    # Backspace takes the last point back (and removes no unit)
    press_on_map(lab, "Backspace")
    lab.wait_for_function("window.arcstar.world().order.points.length === 0")
    assert [u["id"] for u in world(lab)["units"]] == [unit]
    # nothing selected: Enter says so, the points stay marked
    right_click(lab, 5.5, 2.5, 1)
    press_on_map(lab, "Escape")  # cancels the order (the selection stays)
    lab.wait_for_function("window.arcstar.world().order.kind === 'move'")
    assert "cancelled" in message.inner_text() and world(lab)["selected"] == [unit]
    press_on_map(lab, "Escape")  # now clears the selection, as before
    lab.wait_for_function("window.arcstar.world().selected.length === 0")
    press_on_map(lab, "t")
    right_click(lab, 5.5, 2.5, 1)
    press_on_map(lab, "Enter")
    lab.wait_for_function("window.arcstar.world().message.text.startsWith('Select units first')")
    assert world(lab)["order"]["points"] == [[5.5, 2.5]]
    assert world(lab)["units"][0]["orders"] == []
    press_on_map(lab, "Escape")
    # too many points: the core's limit, said before anything is sent
    limit = MAX_POINTS
    lab.mouse.click(*point(lab, 3.5, 5.5))
    lab.wait_for_function("window.arcstar.world().selected.length === 1")
    press_on_map(lab, "p")
    for i in range(limit):
        right_click(lab, 1.5 + (i % 6), 1.5 + (i // 6) % 2)
    lab.wait_for_function(f"window.arcstar.world().order.points.length === {limit}")
    right_click(lab, 10.5, 2.5)
    lab.wait_for_function("window.arcstar.world().message.text.startsWith('An order takes at most')")
    assert len(world(lab)["order"]["points"]) == limit
    press_on_map(lab, "Escape")
    # the world still runs
    ticks = world(lab)["ticks"]
    press_on_map(lab, ".")
    lab.wait_for_function(f"window.arcstar.world().ticks === {ticks + 1}")


def test_hostile_order_messages_are_refused_and_the_world_keeps_running(lab: Page):
    fresh_world(lab, SPLIT)
    unit = place(lab, "person", 3.5, 5.5)
    before = world(lab)["units"][0]
    raw = """async ([msg, big]) => {
      if (big) msg.points = Array.from({length: big}, (_, i) => [1.5 + (i % 5), 1.5]);
      const a = await window.arcstar._rawPlan(msg);
      return {type: a.type, kind: a.kind, field: a.field, message: a.message};
    }"""
    cases = [
        ({"order": "patrol", "points": []}, 0, "points"),
        ({"order": "nearest", "points": []}, 0, "points"),
        ({"order": "patrol", "points": [[8.5, 6.5], [2.5, 2.5]]}, 0, "points[0]"),
        ({"order": "nearest", "points": [[2.5, 2.5], [0.5, 0.5]]}, 0, "points[1]"),
        ({"order": "patrol", "points": [[2.5, 2.5], [1e6, 2.5]]}, 0, "points[1]"),
        ({"order": "patrol", "points": [[2.5, 2.5], [2.5]]}, 0, "points[1]"),
        ({"order": "patrol", "points": [[2.5, 2.5], ["a", 2.5]]}, 0, "points[1][0]"),
        ({"order": "nearest"}, 10**6, "points"),
        ({"order": "wander", "points": [[2.5, 2.5]]}, 0, "order"),
        ({"order": "patrol", "points": [[2.5, 2.5]], "queue": "yes"}, 0, "queue"),
    ]
    for k, (fields, big, field) in enumerate(cases):
        msg = {"type": "world_order", "id": f"hostile-{k}", "units": [unit], **fields}
        out = lab.evaluate(raw, [msg, big])
        assert out["type"] == "error" and out["kind"] == "bad_input", (fields, out)
        assert out["field"] == field, (fields, out)
        assert out["message"] and len(out["message"]) < 400, out
    # NaN and Infinity cannot be sent as JSON: they are refused before the core reads them
    for k, bad in enumerate(("NaN", "Infinity")):
        out = lab.evaluate(f"""async () => {{
          const a = await window.arcstar._rawPlan({{type: 'world_order', id: 'nan-{k}', units: [{unit!r}],
            order: 'patrol', points: [[2.5, 2.5], [{bad}, 2.5]]}});
          return {{type: a.type, kind: a.kind, field: a.field, message: a.message}};
        }}""")
        assert out["type"] == "error" and out["kind"] == "bad_input" and out["message"], out
        assert out["field"] and "points" in out["field"], out
    # nothing changed, and the world runs on: the unit stands where it stood and takes a good order
    after = world(lab)["units"][0]
    assert (after["x"], after["y"], after["status"]) == (before["x"], before["y"], before["status"])
    good = lab.evaluate(raw, [{"type": "world_order", "id": "good", "units": [unit], "order": "patrol",
                               "points": [[5.5, 2.5], [3.5, 5.5]]}, 0])
    assert good["type"] == "world_state", good
    ticks = world(lab)["ticks"]
    lab.get_by_test_id("world-play").click()
    lab.wait_for_function(f"window.arcstar.world().ticks > {ticks + 20}", timeout=TIMEOUT_MS)
    lab.get_by_test_id("world-play").click()
    lab.wait_for_function("!window.arcstar.world().running")
    moved = world(lab)["units"][0]
    assert math.hypot(moved["x"] - before["x"], moved["y"] - before["y"]) > 0.1
    assert rows(lab) == SPLIT


def test_a_patrol_from_the_keyboard_alone(lab: Page):
    """The keyboard cursor (Tab to the map): Space places a unit, P, then M marks each point, Enter sends."""
    fresh_world(lab, ROOM)
    lab.get_by_test_id("tool-person").click()
    lab.get_by_test_id("fit").focus()
    for _ in range(40):
        lab.keyboard.press("Tab")
        if lab.evaluate("document.activeElement?.dataset.testid === 'map'"):
            break
    lab.wait_for_function("window.arcstar.cursor() && window.arcstar.cursor().active")
    at = lab.evaluate("window.arcstar.cursor()")
    lab.keyboard.press(" ")  # a person on the cursor's tile, selected
    lab.wait_for_function("window.arcstar.world().units.length === 1", timeout=TIMEOUT_MS)
    assert len(world(lab)["selected"]) == 1
    lab.keyboard.press("p")
    lab.wait_for_function("window.arcstar.world().order.kind === 'patrol'")
    marked = []
    for dx, dy in ((6, 0), (0, -4)):
        for _ in range(abs(dx)):
            lab.keyboard.press("ArrowRight")
        for _ in range(abs(dy)):
            lab.keyboard.press("ArrowUp")
        c = lab.evaluate("window.arcstar.cursor()")
        marked.append([c["x"] + 0.5, c["y"] + 0.5])
        lab.keyboard.press("m")
        lab.wait_for_function(f"window.arcstar.world().order.points.length === {len(marked)}")
    assert world(lab)["order"]["points"] == marked
    assert marked[0] == [at["x"] + 6.5, at["y"] + 0.5]
    lab.keyboard.press("Enter")
    lab.wait_for_function("window.arcstar.world().order.kind === 'move'")
    orders = world(lab)["units"][0]["orders"]
    assert orders and orders[0].startswith("patrol"), orders
    assert world(lab)["units"][0]["status"] != "failed"


# ----------------------------------------------------------------------------- units that cannot pass

# A room with the search's markers, and below it (walled off) a corridor one tile wide, no bay.
CORRIDOR = ["############",
            "#S........G#",
            "############",
            "#..........#",
            "############"]


@pytest.mark.parametrize("method", ["pinter", "cooperative"])
def test_two_units_that_cannot_pass_in_a_corridor_read_stuck(lab: Page, method, save_screen):
    """Two people sent past each other through a corridor one tile wide: no plan can do it, so
    both give up their orders and the Units panel says so (before, under pinter they read
    'moving' for good); their order lists empty, and the world stops having work to do."""
    fresh_world(lab, CORRIDOR)
    lab.get_by_test_id("world-avoidance").select_option(method)
    a = place(lab, "person", 1.5, 3.5)
    b = place(lab, "person", 10.5, 3.5)
    for uid, target in ((a, (10.5, 3.5)), (b, (1.5, 3.5))):
        lab.get_by_test_id("tool-select").click()
        lab.mouse.click(*point(lab, 1.5 if uid == a else 10.5, 3.5))
        lab.wait_for_function(f"window.arcstar.world().selected.join() === {uid!r}")
        right_click(lab, *target)
        lab.wait_for_function(f"window.arcstar.world().units.find((u) => u.id === {uid!r}).orders.length === 1")
    lab.get_by_test_id("world-play").click()
    lab.wait_for_function("window.arcstar.world().units.every((u) => u.status === 'stuck')", timeout=TIMEOUT_MS)
    units = world(lab)["units"]
    assert all(u["orders"] == [] for u in units), units
    assert units[0]["x"] < units[1]["x"]  # they never passed
    lab.get_by_test_id("tool-select").click()
    lab.mouse.click(*point(lab, units[0]["x"], units[0]["y"]))
    card = lab.get_by_test_id("world-selected")
    lab.wait_for_function("document.querySelector('[data-testid=world-selected]').innerText.includes('stuck')")
    assert card.locator(".bad").count() >= 1
    card.scroll_into_view_if_needed()
    save_screen(lab, f"stuck-corridor-{method}")
    lab.get_by_test_id("world-play").click()
    lab.wait_for_function("!window.arcstar.world().running")


def test_under_cooperative_an_order_to_one_unit_leaves_the_others_moving(lab: Page, save_screen):
    """The crowd under cooperative: a move given to one unit as they go planned the whole round
    again, every unit braking and standing for it (72 moving units to none within 3 s). Now that
    unit brakes and is planned again on its own, and the others drive on."""
    load_preset(lab, "crowd", "cooperative")
    lab.get_by_test_id("world-speed").select_option("1")
    lab.get_by_test_id("world-play").click()
    lab.wait_for_function("window.arcstar.world().time > 4", timeout=TIMEOUT_MS)
    w = world(lab)
    moving = [u for u in w["units"] if abs(u["speed"]) > 0.05]
    assert len(moving) >= 40, len(moving)
    u = moving[0]
    lab.mouse.click(*point(lab, u["x"], u["y"]))
    lab.wait_for_function(f"window.arcstar.world().selected.includes({u['id']!r})", timeout=TIMEOUT_MS)
    grid = rows(lab)
    tx, ty = min(((x, y) for y, r in enumerate(grid) for x, c in enumerate(r) if c not in BLOCKED),
                 key=lambda t: math.hypot(t[0] - len(grid[0]) / 2, t[1] - len(grid) / 2))
    lab.mouse.click(*point(lab, tx + 0.5, ty + 0.5), button="right")
    lab.wait_for_function(f"window.arcstar.world().time > {world(lab)['time'] + 2.5}", timeout=TIMEOUT_MS)
    w = world(lab)
    save_screen(lab, "cooperative-order-mid-run")
    still = sum(1 for v in w["units"] if abs(v["speed"]) > 0.05)
    assert still >= len(moving) // 2, (still, len(moving))
    assert f"{u['id']}: move to ({tx + 0.5:g}, {ty + 0.5:g})" in lab.get_by_test_id("world-message").inner_text()
    lab.get_by_test_id("world-play").click()
