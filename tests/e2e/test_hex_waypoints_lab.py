"""Hex grids and waypoint graphs in the lab, driven with the mouse and keyboard.

On hex: a wall painted with the mouse through cell centres computed here (this file's own hex
maths, Red Blob's odd-r / odd-q offsets, not the page's) is avoided by the path found, whose
length equals this file's BFS over hex neighbours, pointy-top and flat-top. On waypoints: a graph
clicked and Shift-dragged together, a path found and compared with this file's Dijkstra over the
points as the page stores them; Delete, move and Undo. Share links carry both kinds; tampered
snapshots (built here with Python's zlib) are refused with the work kept.
"""

from __future__ import annotations

import base64
import heapq
import json
import math
import zlib
from collections import deque

import pytest
from labkit import SEARCH_TIMEOUT_MS, rows, search, set_map, state, status
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e
SQRT3 = math.sqrt(3)
LINK_TIMEOUT_MS = 120_000


# -- this test's own hex maths ---------------------------------------------------------------
def to_axial(col: int, row: int, orientation: str) -> tuple[int, int]:
    if orientation == "pointy":
        return col - (row - (row % 2)) // 2, row
    return col, row - (col - (col % 2)) // 2


def centre(col: int, row: int, orientation: str) -> tuple[float, float]:
    """A cell's centre in drawing units (hex size 1; the core's documented layout)."""
    if orientation == "pointy":
        return SQRT3 * (col + 0.5 * (row % 2)) + SQRT3 / 2, 1.5 * row + 1
    return 1.5 * col + 1, SQRT3 * (row + 0.5 * (col % 2)) + SQRT3 / 2


def adjacent(a, b, orientation: str) -> bool:
    (aq, ar), (bq, br) = to_axial(*a, orientation), to_axial(*b, orientation)
    dq, dr = aq - bq, ar - br
    return max(abs(dq), abs(dr), abs(dq + dr)) == 1


def hex_bfs(map_rows: list[str], start, goal, orientation: str) -> int | None:
    h, w = len(map_rows), len(map_rows[0])
    cells = [(c, r) for r in range(h) for c in range(w) if map_rows[r][c] != "#"]
    seen = {tuple(start): 0}
    todo = deque([tuple(start)])
    while todo:
        cur = todo.popleft()
        for n in cells:
            if n not in seen and adjacent(cur, n, orientation):
                seen[n] = seen[cur] + 1
                todo.append(n)
    return seen.get(tuple(goal))


def client(page: Page, x: float, y: float) -> tuple[float, float]:
    return tuple(page.evaluate("([x, y]) => window.arcstar.pointToClient(x, y)", [x, y]))


def kind(page: Page) -> dict:
    return state(page)["kind"]


def undo(page: Page) -> None:
    page.get_by_test_id("undo").click()


EMPTY = ["." * 12 for _ in range(8)]
EMPTY[4] = ".S........G."
WALL = [(6, r) for r in range(7)]  # a column of cells, open only below it


def test_hex_wall_painted_by_mouse_is_avoided_and_the_path_is_shortest(lab: Page, save_screen):
    set_map(lab, EMPTY)
    lab.get_by_test_id("map-kind").select_option("hex")
    expect(lab.get_by_test_id("hex-part")).to_be_visible()
    assert kind(lab)["kind"] == "hex" and kind(lab)["orientation"] == "pointy"
    # Paint the wall through the cell centres, as a person drags the mouse.
    points = [client(lab, *centre(c, r, "pointy")) for c, r in WALL]
    lab.mouse.move(*points[0])
    lab.mouse.down()
    for p in points[1:]:
        lab.mouse.move(*p, steps=6)
    lab.mouse.up()
    painted = rows(lab)
    assert {(c, r) for r in range(8) for c in range(12) if painted[r][c] == "#"} == set(WALL)
    for orientation in ("pointy", "flat"):
        if orientation == "flat":
            lab.get_by_test_id("hex-orientation").select_option("flat")
            assert kind(lab)["orientation"] == "flat"
        res = search(lab)
        path = [tuple(p) for p in res["path"]]
        st = state(lab)
        assert path[0] == tuple(st["start"]) and path[-1] == tuple(st["goal"])
        assert all(adjacent(a, b, orientation) for a, b in zip(path, path[1:])), path
        assert not set(path) & set(WALL)
        best = hex_bfs(painted, st["start"], st["goal"], orientation)
        assert best is not None and len(path) - 1 == best == res["length"] == res["cost"]
        save_screen(lab, f"hex-{orientation}")
    # Undo: the orientation, then the wall, then the kind; redo brings them all back.
    undo(lab)
    assert kind(lab)["orientation"] == "pointy"
    undo(lab)
    assert "#" not in "".join(rows(lab))
    undo(lab)
    assert kind(lab)["kind"] == "squares"
    for _ in range(3):
        lab.get_by_test_id("redo").click()
    assert kind(lab)["kind"] == "hex" and kind(lab)["orientation"] == "flat" and rows(lab) == painted


def test_hex_hit_testing_is_exact_near_cell_edges(lab: Page):
    set_map(lab, EMPTY)
    lab.get_by_test_id("map-kind").select_option("hex")
    lab.get_by_test_id("hex-orientation").select_option("pointy")
    # Points just inside a cell, towards each of its six corners: each paints that cell only.
    target = (5, 3)
    cx, cy = centre(*target, "pointy")
    for k in range(6):
        angle = math.radians(-30 + 60 * k)
        x, y = cx + 0.9 * math.cos(angle), cy + 0.9 * math.sin(angle)
        lab.mouse.click(*client(lab, x, y))
    painted = rows(lab)
    assert {(c, r) for r in range(8) for c in range(12) if painted[r][c] == "#"} == {target}


def dijkstra(nodes: dict[int, tuple[float, float]], edges: list[tuple[int, int]], start: int) -> dict[int, float]:
    adj: dict[int, list[tuple[int, float]]] = {n: [] for n in nodes}
    for a, b in edges:
        d = math.dist(nodes[a], nodes[b])
        adj[a].append((b, d))
        adj[b].append((a, d))
    best = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > best[u]:
            continue
        for v, c in adj[u]:
            if d + c < best.get(v, math.inf):
                best[v] = d + c
                heapq.heappush(heap, (d + c, v))
    return best


PLACES = [(3, 3), (12, 3), (12, 12), (22, 12), (3, 16), (22, 3)]
LINKS = [(0, 1), (1, 2), (2, 3), (0, 4), (4, 3), (1, 5), (5, 3)]


def shift_drag(page: Page, a: tuple[float, float], b: tuple[float, float]) -> None:
    page.keyboard.down("Shift")
    page.mouse.move(*client(page, *a))
    page.mouse.down()
    page.mouse.move(*client(page, *b), steps=8)
    page.mouse.up()
    page.keyboard.up("Shift")


def test_waypoint_graph_built_by_mouse_finds_the_shortest_path(lab: Page, save_screen):
    set_map(lab, ["S" + "." * 25] + ["." * 26 for _ in range(18)] + ["." * 25 + "G"])
    lab.get_by_test_id("map-kind").select_option("waypoints")
    expect(lab.get_by_test_id("waypoint-part")).to_be_visible()
    for x, y in PLACES:
        lab.mouse.click(*client(lab, x, y))
    g = kind(lab)["waypoints"]
    ids = [n[0] for n in g["nodes"]]
    assert len(ids) == len(PLACES)
    assert all(math.dist(n[1:], p) < 0.01 for n, p in zip(g["nodes"], PLACES))
    assert g["start"] == ids[0] and g["goal"] == ids[1]  # the first two points
    lab.mouse.click(*client(lab, *PLACES[3]))  # select it, then G
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("g")
    assert kind(lab)["waypoints"]["goal"] == ids[3]
    for a, b in LINKS:
        shift_drag(lab, PLACES[a], PLACES[b])
    g = kind(lab)["waypoints"]
    assert sorted(tuple(sorted(e)) for e in g["edges"]) == sorted(tuple(sorted((ids[a], ids[b]))) for a, b in LINKS)
    nodes = {n[0]: (n[1], n[2]) for n in g["nodes"]}
    edges = [tuple(e) for e in g["edges"]]

    res = search(lab)
    best = dijkstra(nodes, edges, ids[0])[ids[3]]
    assert res["cost"] == pytest.approx(best)
    route = kind(lab)["shownPath"]
    assert route[0] == ids[0] and route[-1] == ids[3]
    linked = {frozenset(e) for e in edges}
    assert all(frozenset((a, b)) in linked for a, b in zip(route, route[1:]))
    assert math.fsum(math.dist(nodes[a], nodes[b]) for a, b in zip(route, route[1:])) == pytest.approx(best)
    save_screen(lab, "waypoints")

    # Shift-drag again over a link unlinks it; Undo links it back.
    shift_drag(lab, PLACES[5], PLACES[3])
    assert len(kind(lab)["waypoints"]["edges"]) == len(LINKS) - 1
    undo(lab)
    assert len(kind(lab)["waypoints"]["edges"]) == len(LINKS)
    # Delete removes the selected point and its edges; Undo brings both back.
    lab.mouse.click(*client(lab, *PLACES[5]))
    lab.keyboard.press("Delete")
    g2 = kind(lab)["waypoints"]
    assert ids[5] not in [n[0] for n in g2["nodes"]] and len(g2["edges"]) == len(LINKS) - 2
    undo(lab)
    assert kind(lab)["waypoints"]["nodes"] == g["nodes"] and len(kind(lab)["waypoints"]["edges"]) == len(LINKS)
    # Dragging a point moves it (one undo step); the path found then is for the graph as it is.
    lab.mouse.move(*client(lab, *PLACES[4]))
    lab.mouse.down()
    lab.mouse.move(*client(lab, 12, 16), steps=8)
    lab.mouse.up()
    moved = {n[0]: (n[1], n[2]) for n in kind(lab)["waypoints"]["nodes"]}
    assert math.dist(moved[ids[4]], (12, 16)) < 0.01
    res = search(lab)
    assert res["cost"] == pytest.approx(dijkstra(moved, edges, ids[0])[ids[3]])
    undo(lab)
    assert {n[0]: (n[1], n[2]) for n in kind(lab)["waypoints"]["nodes"]} == nodes


def test_waypoint_search_without_a_goal_says_so(lab: Page):
    lab.get_by_test_id("map-kind").select_option("waypoints")
    g = kind(lab)["waypoints"]
    if g["goal"] is not None:
        lab.mouse.click(*client(lab, *next((n[1], n[2]) for n in g["nodes"] if n[0] == g["goal"])))
        lab.keyboard.press("Delete")
    lab.get_by_test_id("map").focus()
    lab.keyboard.press("Enter")
    expect(status(lab)).to_have_attribute("data-state", "error")
    expect(status(lab)).to_contain_text("needs a start and a goal")
    undo(lab)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def deflate_raw(data: bytes) -> bytes:
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def snapshot_of(link: str) -> dict:
    payload = link.split("#", 1)[1].split(".", 1)[1]
    return json.loads(zlib.decompress(base64.urlsafe_b64decode(payload + "=="), -15))


def pack(doc: dict) -> str:
    return "arcstar=1." + b64url(deflate_raw(json.dumps(doc).encode()))


def ensure_graph(page: Page) -> None:
    """A graph of at least two linked points (built by mouse when an earlier test left none)."""
    page.get_by_test_id("map-kind").select_option("waypoints")
    if len(kind(page)["waypoints"]["nodes"]) < 2:
        for p in ((2, 2), (6, 5)):
            page.mouse.click(*client(page, *p))
        shift_drag(page, (2, 2), (6, 5))


def test_share_links_carry_hex_and_waypoint_maps(lab: Page, lab_factory):
    set_map(lab, EMPTY)
    ensure_graph(lab)
    lab.get_by_test_id("map-kind").select_option("hex")
    lab.get_by_test_id("hex-orientation").select_option("flat")
    hex_link = lab.evaluate("window.arcstar.shareLink()")
    hex_state = kind(lab)
    lab.get_by_test_id("map-kind").select_option("waypoints")
    wp_link = lab.evaluate("window.arcstar.shareLink()")
    wp_state = kind(lab)
    context, page = lab_factory(url=wp_link)
    try:
        page.wait_for_function("window.arcstar.state().kind.kind === 'waypoints'", timeout=LINK_TIMEOUT_MS)
        got = kind(page)
        assert got["waypoints"] == wp_state["waypoints"] and got["orientation"] == "flat"
        search(page)  # the graph opened is one the engine plans on
        page.evaluate("(frag) => { location.hash = frag; }", hex_link.split("#", 1)[1])
        page.wait_for_function("window.arcstar.state().kind.kind === 'hex'", timeout=LINK_TIMEOUT_MS)
        assert kind(page)["orientation"] == hex_state["orientation"] == "flat"
        assert rows(page) == EMPTY
        # Autosaved: a reload brings the hex map back (the same snapshot as links).
        page.wait_for_function("(localStorage.getItem('arcstar.lab.v1') || '').includes('\"kind\":\"hex\"')")
        page.reload()
        page.wait_for_function("window.arcstar !== undefined && window.arcstar.state().kind.kind === 'hex'",
                               timeout=LINK_TIMEOUT_MS)
        assert kind(page)["orientation"] == "flat" and kind(page)["waypoints"] == wp_state["waypoints"]
        assert rows(page) == EMPTY
    finally:
        context.close()


def test_hostile_kind_snapshots_are_refused_and_the_work_kept(lab: Page):
    ensure_graph(lab)
    good = snapshot_of(lab.evaluate("window.arcstar.shareLink()"))
    before = (rows(lab), kind(lab))
    nodes = good["kind"]["waypoints"]["nodes"]
    bad = {
        "unknown kind": {"kind": "triangles"},
        "bad orientation": {"orientation": "round"},
        "dangling edge": {"waypoints": {**good["kind"]["waypoints"], "edges": [[nodes[0][0], 99999]]}},
        "NaN coordinates": {"waypoints": {**good["kind"]["waypoints"], "nodes": [[nodes[0][0], "NaN", 1]] + nodes[1:]}},
        "infinite coordinates": "INFINITY",
        "10^5 points": {"waypoints": {"nodes": [[i + 1, i % 300, i // 300] for i in range(100_000)], "edges": [],
                                      "start": None, "goal": None}},
        "ragged hex cells": "RAGGED",
    }
    for name, change in bad.items():
        doc = json.loads(json.dumps(good))
        if change == "INFINITY":
            text = json.dumps(doc).replace(f"[{nodes[0][0]}, {json.dumps(nodes[0][1])}", f"[{nodes[0][0]}, 1e999", 1)
            assert "1e999" in text
            fragment = "arcstar=1." + b64url(deflate_raw(text.encode()))
        elif change == "RAGGED":
            doc["kind"]["kind"] = "hex"
            doc["map"]["runs"] = doc["map"]["runs"] + [0, 3]  # more cells than width x height
            fragment = pack(doc)
        else:
            doc["kind"].update(change)
            fragment = pack(doc)
        lab.evaluate("() => { window.__statusLog.length = 0; }")
        lab.evaluate("(frag) => { location.hash = frag; }", fragment)
        lab.wait_for_function("window.__statusLog.some(e => e.state === 'error')", timeout=SEARCH_TIMEOUT_MS)
        text = status(lab).inner_text()
        assert "shared link could not be opened" in text, (name, text)
        assert (rows(lab), kind(lab)) == before, name
