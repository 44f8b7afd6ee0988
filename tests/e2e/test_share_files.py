"""Share and keep: share links, the files the lab saves, and opening them again.

A link made in one page opens the same work in a fresh page (map, costs, start and goal with
their headings, search and unit settings, units); each file saved opens again equal to what was
saved; the .scen's optimal length is checked with a small octile Dijkstra written here, over the
exported .map. Tampered links are built here with Python's own zlib and base64 (not the page's
codec), and each kind leaves the map as it was and says why in the status line.
"""

from __future__ import annotations

import base64
import heapq
import json
import math
import struct
import zlib
from pathlib import Path

import pytest
from labkit import SEARCH_TIMEOUT_MS, rows, set_map, state, status
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

# Every terrain, walls that make the .scen's path bend, and room for units.
MAP = [
    "S.......:::.........",
    "..####..:::..~~~....",
    "..#..#.......~~~....",
    "..#..####=====......",
    "..#.........%%%..^^.",
    "..######....%%%..^^.",
    "...........#######..",
    "..................G.",
]
LINK_TIMEOUT_MS = 120_000


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def deflate_raw(data: bytes) -> bytes:
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def inflate_raw(data: bytes) -> bytes:
    return zlib.decompress(data, -15)


def work_of(page: Page) -> dict:
    """What the page shows, read back through the API (not the snapshot the link carries)."""
    st = state(page)
    world = page.evaluate("window.arcstar.world()")
    opts = page.evaluate("window.arcstar.options()")
    unit = page.evaluate("window.arcstar.unitOptions()")
    return {
        "rows": rows(page),
        "costs": st["costs"],
        "start": st["start"],
        "goal": st["goal"],
        "headings": {k: v for k, v in st["headings"].items() if k != "focus"},  # focus: the last marker touched
        "options": opts,
        "unit": unit,
        "units": sorted((u["id"], u["kind"], u["team"], u["x"], u["y"], u["heading"]) for u in world["units"]),
        "avoidance": world["avoidance"],
        "generator": st["generator"],  # added to the snapshot by the generators: it travels too
    }


def place_tank(page: Page, x: int, y: int, team: str) -> None:
    n = len(page.evaluate("window.arcstar.world().units"))
    page.get_by_test_id("mode-units").click()
    page.get_by_test_id("tool-tank").click()
    page.get_by_test_id("world-team").select_option(team)
    pt = page.evaluate("([x, y]) => window.arcstar.tileToClient(x, y)", [x, y])
    page.mouse.click(pt[0], pt[1])
    page.wait_for_function(f"window.arcstar.world().units.length === {n + 1}", timeout=SEARCH_TIMEOUT_MS)
    page.get_by_test_id("mode-edit").click()


def set_up_work(page: Page) -> None:
    """A generator's settings, then a map with every terrain, costs, headings, settings and two
    units, set as a person would."""
    page.get_by_test_id("gen-kind").select_option("caves")
    page.get_by_test_id("gen-width").fill("30")
    page.get_by_test_id("gen-height").fill("20")
    page.get_by_test_id("gen-seed").fill("4242")
    version = state(page)["version"]
    page.get_by_test_id("gen-go").click()
    page.wait_for_function(f"window.arcstar.state().version !== {version}", timeout=SEARCH_TIMEOUT_MS)
    set_map(page, MAP)
    swamp = page.get_by_test_id("cost-swamp")
    swamp.fill("7")
    swamp.press("Enter")
    water = page.get_by_test_id("cost-water")
    water.fill("9")
    water.press("Enter")
    page.get_by_test_id("weight").fill("1.5")
    page.get_by_test_id("weight").press("Tab")
    page.get_by_test_id("method").select_option("dijkstra")
    page.get_by_test_id("neighbours").select_option("4")
    page.get_by_test_id("turning").select_option("tighter")
    page.get_by_test_id("radius").fill("2.25")
    page.get_by_test_id("radius").press("Tab")
    page.evaluate("window.arcstar.setHeading('start', 135)")
    page.evaluate("window.arcstar.setHeading('goal', 270)")
    place_tank(page, 5, 7, "red")
    place_tank(page, 15, 0, "blue")


def open_with_link(lab_factory, link: str):
    context, page = lab_factory(url=link)
    page.wait_for_function("window.arcstar.state().width !== 48 || window.__statusLog.some(e => e.state === 'error')",
                           timeout=LINK_TIMEOUT_MS)
    return context, page


def download(page: Page, testid: str, tmp_path: Path) -> Path:
    with page.expect_download(timeout=SEARCH_TIMEOUT_MS) as info:
        page.get_by_test_id(testid).click()
    dl = info.value
    path = tmp_path / dl.suggested_filename
    dl.save_as(path)
    return path


# ---------------------------------------------------------------- links


def test_a_link_opens_the_same_work_in_a_fresh_page_and_one_undo_takes_it_back(lab: Page, lab_factory, save_screen):
    set_up_work(lab)
    original = work_of(lab)
    assert len(original["units"]) == 2 and original["options"]["method"] == "dijkstra"
    assert original["generator"]["seed"] == 4242
    lab.get_by_test_id("share").click()
    field = lab.get_by_test_id("share-link")
    expect(field).to_be_visible()
    link = field.input_value()
    assert link == lab.evaluate("window.arcstar.shareLink()")
    assert "#arcstar=1." in link and len(link) < 32_000
    expect(lab.get_by_test_id("share-note")).to_contain_text("opens this map")
    save_screen(lab, "share-link-panel")

    # The link's data is raw deflate of the work's JSON, readable without the page's code.
    doc = json.loads(inflate_raw(base64.urlsafe_b64decode(link.split("#arcstar=1.")[1] + "==")))
    assert doc["format"] == "arcstar-work" and doc["v"] == 1 and doc["map"]["width"] == len(MAP[0])

    context, fresh = open_with_link(lab_factory, link)
    try:
        fresh.wait_for_function(f"window.arcstar.world().units.length === {len(original['units'])}",
                                timeout=LINK_TIMEOUT_MS)
        assert work_of(fresh) == original
        expect(status(fresh)).to_contain_text("Opened the shared link")
        assert fresh.evaluate("location.hash") == ""  # a reload does not open it again
        expect(fresh.get_by_test_id("cost-swamp")).to_have_value("7")
        expect(fresh.get_by_test_id("start-heading")).to_have_value("135")
        save_screen(fresh, "share-link-opened")
        # One undo step brings back the work there was (the example, in a fresh browser), redo the link's.
        fresh.get_by_test_id("undo").click()
        fresh.wait_for_function("window.arcstar.state().width === 48")
        assert fresh.evaluate("window.arcstar.world().units.length") == 0
        assert fresh.evaluate("window.arcstar.options()")["method"] == "astar"
        fresh.get_by_test_id("redo").click()
        fresh.wait_for_function(f"window.arcstar.world().units.length === {len(original['units'])}",
                                timeout=LINK_TIMEOUT_MS)
        assert work_of(fresh) == original
        # A reload keeps the work (autosave), and does not apply the link again.
        fresh.get_by_test_id("undo").click()
        fresh.wait_for_function("window.arcstar.state().width === 48")
        fresh.wait_for_function("JSON.parse(localStorage.getItem('arcstar.lab.v1') || 'null')?.map?.width === 48")
        fresh.reload()
        fresh.wait_for_function("window.arcstar !== undefined")
        fresh.evaluate("window.arcstar.ready.then(() => { window.__ready2 = true; })")
        fresh.wait_for_function("window.__ready2 === true", timeout=LINK_TIMEOUT_MS)
        assert state(fresh)["width"] == 48
    finally:
        context.close()


def test_a_link_pasted_into_the_open_lab_opens_over_the_work_and_undo_restores_it(lab: Page):
    set_map(lab, ["S..#", "..#G"])
    link = lab.evaluate("window.arcstar.shareLink()")
    set_map(lab, MAP)
    lab.get_by_test_id("method").select_option("dijkstra")
    before = work_of(lab)
    lab.evaluate("(frag) => { location.hash = frag; }", link.split("#", 1)[1])
    lab.wait_for_function("window.arcstar.state().width === 4")
    assert rows(lab) == ["S..#", "..#G"]
    assert lab.evaluate("location.hash") == ""
    lab.get_by_test_id("undo").click()
    lab.wait_for_function(f"window.arcstar.state().width === {len(MAP[0])}")
    assert work_of(lab) == before


def _tampered(good_fragment: str) -> dict[str, str]:
    payload = good_fragment.split(".", 1)[1]
    doc = json.loads(inflate_raw(base64.urlsafe_b64decode(payload + "==")))

    def pack(value) -> str:
        return "arcstar=1." + b64url(deflate_raw(json.dumps(value).encode()))

    wrong_type = json.loads(json.dumps(doc))
    wrong_type["map"]["width"] = str(wrong_type["map"]["width"])
    absurd = json.loads(json.dumps(doc))
    absurd["map"].update(width=100000, height=100000, runs=[0, 10**10])
    bad_runs = json.loads(json.dumps(doc))
    bad_runs["map"]["runs"] = bad_runs["map"]["runs"][:-2]
    off_map = json.loads(json.dumps(doc))
    off_map["world"] = {"avoidance": "none", "seed": 1, "fog": False,
                        "units": [{"id": "t", "kind": "tank", "team": "red", "start": [999.5, 1.5, 0]}]}
    script = json.loads(json.dumps(doc))
    script["mapKey"] = "<img src=x onerror=window.__pwned=1>"
    return {
        "bad base64": "arcstar=1." + payload[:10] + "*!$" + payload[13:],
        "truncated": "arcstar=1." + payload[: len(payload) // 2],
        "bad deflate": "arcstar=1." + b64url(bytes(range(7, 250, 3))),
        "bad JSON": "arcstar=1." + b64url(deflate_raw(b'{"format": "arcstar-work", "v": 1, "map": {')),
        "not work": pack({"hello": "world"}),
        "wrong types": pack(wrong_type),
        "absurd size": pack(absurd),
        "tiles do not add up": pack(bad_runs),
        "unit off the map": pack(off_map),
        "decompression bomb": "arcstar=1." + b64url(deflate_raw(b" " * 60_000_000)),
        "newer format": "arcstar=2." + payload,
        "html in a name": pack(script),
    }


def test_tampered_links_keep_the_map_and_say_what_is_wrong(lab: Page):
    set_map(lab, ["S....", ".###.", "....G"])
    good = lab.evaluate("window.arcstar.shareLink()").split("#", 1)[1]
    set_map(lab, MAP)
    for name, fragment in _tampered(good).items():
        if name == "html in a name":
            continue
        searches = state(lab)["version"]
        lab.evaluate("() => { window.__statusLog.length = 0; }")
        lab.evaluate("(frag) => { location.hash = frag; }", fragment)
        lab.wait_for_function("window.__statusLog.some(e => e.state === 'error')", timeout=SEARCH_TIMEOUT_MS)
        text = status(lab).inner_text()
        assert "shared link could not be opened" in text and "as they were" in text, (name, text)
        assert rows(lab) == MAP, name
        assert state(lab)["version"] == searches, name  # not even replaced by an equal map
        assert lab.evaluate("location.hash") == "", name
    # Text in a link is only ever text: the map name is shown nowhere as HTML.
    lab.evaluate("(frag) => { location.hash = frag; }", _tampered(good)["html in a name"])
    lab.wait_for_function("window.arcstar.state().width === 5")
    assert lab.evaluate("window.__pwned === undefined && !document.querySelector('img[src=x]')")


def test_a_tampered_link_at_load_leaves_the_lab_working(lab: Page, lab_factory, site_url):
    good = lab.evaluate("window.arcstar.shareLink()").split("#", 1)[1]
    context, page = lab_factory(url=f"{site_url}#{_tampered(good)['truncated']}")
    try:
        # Said where the engine's boot messages do not overwrite it.
        notice = page.get_by_test_id("notice")
        expect(notice).to_contain_text("shared link could not be opened", timeout=LINK_TIMEOUT_MS)
        assert state(page)["width"] == 48  # the example
        assert page.evaluate("location.hash") == ""
    finally:
        context.close()


def test_a_link_too_long_says_so_and_offers_the_work_file(lab: Page, tmp_path: Path):
    # Noise: every tile its own run, far beyond what a link may carry.
    lab.evaluate("""() => {
        const rows = [];
        let seed = 7;
        for (let y = 0; y < 320; y++) {
            let r = '';
            for (let x = 0; x < 320; x++) { seed = (seed * 1103515245 + 12345) % 2147483648; r += '.:%^='[seed % 5]; }
            rows.push(r);
        }
        return window.arcstar.setMap(rows);
    }""")
    lab.get_by_test_id("share").click()
    note = lab.get_by_test_id("share-note")
    expect(note).to_contain_text("over the 32,000")
    expect(lab.get_by_test_id("share-link")).to_be_hidden()
    offer = lab.get_by_test_id("share-file")
    expect(offer).to_be_visible()
    with pytest.raises(Exception, match="over the 32,000"):
        lab.evaluate("window.arcstar.shareLink()")
    saved = download(lab, "share-file", tmp_path)
    doc = json.loads(saved.read_text())
    assert doc["format"] == "arcstar-work" and doc["map"]["width"] == 320
    # Editing the map takes the stale answer away.
    lab.evaluate("window.arcstar.setMap(['S.G'])")
    expect(lab.get_by_test_id("share-box")).to_be_hidden()


# ---------------------------------------------------------------- files


def test_the_work_file_reopens_equal_through_open_file_and_drop(lab: Page, tmp_path: Path, save_screen):
    set_map(lab, MAP)
    lab.get_by_test_id("method").select_option("dijkstra")
    lab.evaluate("window.arcstar.setHeading('start', 90)")
    saved_work = work_of(lab)
    path = download(lab, "export-json", tmp_path)
    assert path.name.endswith(".json")
    expect(status(lab)).to_contain_text(f"Saved {path.name}")

    set_map(lab, ["S.G"])
    lab.get_by_test_id("method").select_option("astar")
    lab.set_input_files("#file", str(path))
    lab.wait_for_function(f"window.arcstar.state().width === {len(MAP[0])}")
    assert work_of(lab) == saved_work
    expect(status(lab)).to_contain_text(f"Opened {path.name}")

    # Dropped on the page (a DataTransfer dispatched as a browser does): the highlight shows, then it opens.
    set_map(lab, ["S.G"])
    text = path.read_text()
    lab.evaluate("""([name, text]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], name, {type: 'application/json'}));
        window.__dt = dt;
        const map = document.querySelector('[data-testid="map"]');
        map.dispatchEvent(new DragEvent('dragenter', {dataTransfer: dt, bubbles: true}));
        map.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));
    }""", [path.name, text])
    expect(lab.locator("#drop-hint")).to_be_visible()
    save_screen(lab, "share-drop-highlight")
    lab.evaluate("""() => document.querySelector('[data-testid="map"]').dispatchEvent(
        new DragEvent('drop', {dataTransfer: window.__dt, bubbles: true, cancelable: true}))""")
    lab.wait_for_function(f"window.arcstar.state().width === {len(MAP[0])}")
    expect(lab.locator("#drop-hint")).to_be_hidden()
    assert work_of(lab) == saved_work

    # A map file dropped on the side panel opens too (the whole page takes drops).
    lab.evaluate("""() => {
        const dt = new DataTransfer();
        dt.items.add(new File(['S.#\\n..G\\n'], 'small.txt', {type: 'text/plain'}));
        document.querySelector('[data-testid="map-select"]').dispatchEvent(
            new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
    }""")
    lab.wait_for_function("window.arcstar.state().width === 3")
    assert rows(lab) == ["S.#", "..G"]


def test_a_damaged_work_file_changes_nothing(lab: Page, tmp_path: Path):
    set_map(lab, MAP)
    path = download(lab, "export-json", tmp_path)
    doc = json.loads(path.read_text())
    doc["map"]["start"] = [999, 0]
    bad = tmp_path / "bad.arcstar.json"
    bad.write_text(json.dumps(doc))
    version = state(lab)["version"]
    lab.set_input_files("#file", str(bad))
    expect(status(lab)).to_contain_text("bad.arcstar.json: the start or the goal lies off the map")
    assert rows(lab) == MAP and state(lab)["version"] == version


def octile_dijkstra(blocked: list[list[bool]], start: tuple[int, int], goal: tuple[int, int]) -> float | None:
    """Moving AI's rules: 8 neighbours, a diagonal only when both side tiles are open, cost 1 and sqrt 2."""
    h, w = len(blocked), len(blocked[0])
    dist = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        d, (x, y) = heapq.heappop(heap)
        if (x, y) == goal:
            return d
        if d > dist[(x, y)]:
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                nx, ny = x + dx, y + dy
                if (dx, dy) == (0, 0) or not (0 <= nx < w and 0 <= ny < h) or blocked[ny][nx]:
                    continue
                if dx and dy and (blocked[y][nx] or blocked[ny][x]):
                    continue
                nd = d + (math.sqrt(2) if dx and dy else 1.0)
                if nd < dist.get((nx, ny), math.inf):
                    dist[(nx, ny)] = nd
                    heapq.heappush(heap, (nd, (nx, ny)))
    return None


def test_movingai_map_and_scen_exports_are_right_and_reopen(lab: Page, tmp_path: Path):
    set_map(lab, MAP)
    water = lab.get_by_test_id("cost-water")
    water.fill("3")  # water passable: written as '.'
    water.press("Enter")
    map_path = download(lab, "export-map", tmp_path)
    text = map_path.read_text()
    lines = text.splitlines()
    assert lines[:4] == ["type octile", f"height {len(MAP)}", f"width {len(MAP[0])}", "map"]
    grid = lines[4:]
    expected = ["".join("@" if ch == "#" else "." for ch in row) for row in MAP]
    assert grid == expected
    said = status(lab).inner_text()
    for lost in ("road", "sand", "swamp", "hills", "water"):
        assert lost in said, said
    assert "written as '.'" in said

    scen_path = download(lab, "export-scen", tmp_path)
    expect(status(lab)).to_contain_text("optimal length")
    head, line = scen_path.read_text().splitlines()
    assert head == "version 1"
    f = line.split("\t")
    assert f[1] == map_path.name and (int(f[2]), int(f[3])) == (len(MAP[0]), len(MAP))
    start, goal = (int(f[4]), int(f[5])), (int(f[6]), int(f[7]))
    assert [start, goal] == [tuple(state(lab)["start"]), tuple(state(lab)["goal"])]
    blocked = [[ch == "@" for ch in row] for row in grid]
    mine = octile_dijkstra(blocked, start, goal)
    assert mine is not None and abs(float(f[8]) - mine) < 1e-6
    assert int(f[0]) == int(mine // 4)

    # Both reopen through Open file: the .map as open and blocked tiles, the .scen as its scenario.
    lab.set_input_files("#file", [str(map_path), str(scen_path)])
    lab.wait_for_function("window.arcstar.state().benchmark !== null", timeout=SEARCH_TIMEOUT_MS)
    assert rows(lab)[1:-1] == [r.replace("@", "#") for r in grid][1:-1]
    bench = state(lab)["benchmark"]
    assert bench["scenarios"] == 1


def test_scen_export_refuses_endpoints_that_are_not_connected(lab: Page, tmp_path: Path):
    set_map(lab, ["S.#..", "..#.G", "..#.."])
    before = len(list(tmp_path.iterdir()))
    lab.get_by_test_id("export-scen").click()
    expect(status(lab)).to_contain_text("not connected", timeout=SEARCH_TIMEOUT_MS)
    expect(status(lab)).to_contain_text("no .scen was saved")
    assert len(list(tmp_path.iterdir())) == before
    # Corner cutting is not allowed: a diagonal gap between walls does not connect them either.
    set_map(lab, ["S#...", "#.#..", "...#G"])
    lab.get_by_test_id("export-scen").click()
    expect(status(lab)).to_contain_text("not connected", timeout=SEARCH_TIMEOUT_MS)


def test_png_export_is_the_canvas(lab: Page, tmp_path: Path):
    set_map(lab, MAP)
    path = download(lab, "export-png", tmp_path)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == tuple(lab.evaluate("(() => { const c = document.querySelector('[data-testid=\"map\"]');"
                                                 " return [c.width, c.height]; })()"))
    # Not a blank image: the pixel rows hold more than one colour.
    idat = b""
    at = 8
    while at < len(data):
        (n,) = struct.unpack(">I", data[at:at + 4])
        kind = data[at + 4:at + 8]
        if kind == b"IDAT":
            idat += data[at + 8:at + 8 + n]
        at += 12 + n
    raw = zlib.decompress(idat)
    assert len(set(raw[1:4000])) > 4
