"""Helpers for the lab's end-to-end tests: reading the page back, driving the mouse.

``window.arcstar`` is used only to set up (a map, options) and to read back (state, rows,
what a tile shows, where a tile is on the screen). Path legality is checked here,
independently of the code that made the path.
"""

from __future__ import annotations

import math
from pathlib import Path

from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parents[2]
SEARCH_TIMEOUT_MS = 60_000
EXAMPLE = (ROOT / "static" / "maps" / "example.txt").read_text().split()
BLOCKED = "#~"  # wall and water: impassable at the default costs


def world(page: Page) -> dict:
    """The lab's world as its test hook reports it (units, metrics, known tiles...)."""
    return page.evaluate("window.arcstar.world()")


def point(page: Page, x: float, y: float) -> tuple[float, float]:
    """Where on the screen the map point (x, y) (tiles) is."""
    cx, cy = page.evaluate("([x, y]) => window.arcstar.pointToClient(x, y)", [x, y])
    return cx, cy


def press_on_map(page: Page, key: str) -> None:
    """Press ``key`` with the map focused (the lab's shortcuts)."""
    page.get_by_test_id("map").focus()
    page.keyboard.press(key)


def state(page: Page) -> dict:
    return page.evaluate("window.arcstar.state()")


def rows(page: Page) -> list[str]:
    return page.evaluate("window.arcstar.rows()")


def view(page: Page) -> dict:
    return page.evaluate("window.arcstar.view()")


def replay(page: Page) -> dict | None:
    return page.evaluate("window.arcstar.replay()")


def tile_info(page: Page, x: int, y: int) -> dict:
    return page.evaluate("([x, y]) => window.arcstar.tileInfo(x, y)", [x, y])


def status(page: Page):
    return page.get_by_test_id("status")


def open_example(page: Page) -> None:
    """Back to the example map, through the map selector (cancels a running search)."""
    page.get_by_test_id("map-select").select_option("empty")
    page.get_by_test_id("map-select").select_option("example")
    page.wait_for_function("window.arcstar.state().width === 48 && !window.arcstar.state().searching")
    assert rows(page) == EXAMPLE


def set_map(page: Page, map_rows: list[str]) -> None:
    """Set up a map through the API (the view is fitted to it)."""
    page.evaluate("(r) => window.arcstar.setMap(r)", map_rows)
    assert rows(page) == map_rows


def tile_point(page: Page, x: float, y: float) -> tuple[float, float]:
    """Where on the screen the centre of tile (x, y) is."""
    cx, cy = page.evaluate("([x, y]) => window.arcstar.tileToClient(x, y)", [x, y])
    return cx, cy


def drag(page: Page, a: tuple[int, int], b: tuple[int, int], button: str = "left") -> None:
    """Press on tile a, move to tile b, release: one stroke."""
    x0, y0 = tile_point(page, *a)
    x1, y1 = tile_point(page, *b)
    page.mouse.move(x0, y0)
    page.mouse.down(button=button)
    page.mouse.move(x1, y1, steps=max(4, int(math.hypot(b[0] - a[0], b[1] - a[1])) * 2))
    page.mouse.up(button=button)


def search(page: Page, expect_state: str = "found") -> dict:
    """Press Enter on the map (as a person would) and wait for the search to settle."""
    page.get_by_test_id("map").focus()
    done = state(page)["searches"]
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"window.arcstar.state().searches > {done} && !window.arcstar.state().searching",
        timeout=SEARCH_TIMEOUT_MS,
    )
    expect(status(page)).to_have_attribute("data-state", expect_state)
    return state(page)["lastResult"]


def find_via_api(page: Page, start, goal) -> dict:
    """findPath through the API; returns {"ok": result} or {"error": message}."""
    page.evaluate(
        """([start, goal]) => {
            window.__api = null;
            window.arcstar.findPath({start, goal}).then(
                (r) => { window.__api = {ok: r}; },
                (e) => { window.__api = {error: String(e && e.message || e)}; });
        }""",
        [start, goal],
    )
    page.wait_for_function("window.__api !== null", timeout=SEARCH_TIMEOUT_MS)
    return page.evaluate("window.__api")


def walls(map_rows: list[str]) -> set[tuple[int, int]]:
    return {(x, y) for y, row in enumerate(map_rows) for x, ch in enumerate(row) if ch == "#"}


def tiles_of(map_rows: list[str], ch: str) -> set[tuple[int, int]]:
    return {(x, y) for y, row in enumerate(map_rows) for x, c in enumerate(row) if c == ch}


def check_legal_path(path: list[list[int]], map_rows: list[str], start, goal, *, neighbours: int = 8) -> None:
    """Start to goal over passable tiles, 8- (or 4-) neighbour steps, no diagonal corner cutting."""
    assert path, "the path is empty"
    assert tuple(path[0]) == tuple(start) and tuple(path[-1]) == tuple(goal)
    height, width = len(map_rows), len(map_rows[0])

    def is_open(x: int, y: int) -> bool:
        return 0 <= x < width and 0 <= y < height and map_rows[y][x] not in BLOCKED

    for x, y in path:
        assert is_open(x, y), f"path tile ({x}, {y}) is not passable"
    for (x0, y0), (x1, y1) in zip(path, path[1:], strict=False):
        dx, dy = x1 - x0, y1 - y0
        if neighbours == 4:
            assert abs(dx) + abs(dy) == 1, f"step ({x0}, {y0}) -> ({x1}, {y1}) is not a 4-neighbour step"
        assert max(abs(dx), abs(dy)) == 1, f"step ({x0}, {y0}) -> ({x1}, {y1}) is not to an 8-neighbour"
        if dx and dy:
            assert is_open(x0 + dx, y0) and is_open(x0, y0 + dy), (
                f"diagonal step ({x0}, {y0}) -> ({x1}, {y1}) cuts a wall corner"
            )


def distance_to_polyline(px: float, py: float, points: list[tuple[float, float]]) -> float:
    if len(points) == 1:
        return math.hypot(px - points[0][0], py - points[0][1])
    best = math.inf
    for (ax, ay), (bx, by) in zip(points, points[1:], strict=False):
        vx, vy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((px - ax) * vx + (py - ay) * vy) / (vx * vx + vy * vy)))
        best = min(best, math.hypot(px - (ax + t * vx), py - (ay + t * vy)))
    return best
