"""The lab survives what would lose a user's work: hostile files, a worker that dies, maps at the
size limit (issue 9's bugs 1 and 2). Each test failed before its fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from labkit import SEARCH_TIMEOUT_MS, rows, set_map, state, status
from playwright.sync_api import Page, expect

import build

pytestmark = pytest.mark.e2e

MAP = [
    "S.........",
    "..####....",
    ".....#....",
    ".....#..~.",
    ".........G",
]
RESTART_TIMEOUT_MS = 120_000


@pytest.fixture
def fresh(lab_factory):
    context, page = lab_factory()
    yield page
    context.close()


def _find(page: Page, start, goal) -> dict:
    return page.evaluate("([s, g]) => window.arcstar.findPath({start: s, goal: g})", [start, goal])


def _open_file(page: Page, path: Path) -> None:
    page.set_input_files("#file", str(path))


def _wait_idle(page: Page) -> None:
    page.wait_for_function("!window.arcstar.state().searching", timeout=SEARCH_TIMEOUT_MS)


@pytest.mark.parametrize("nested", ["[" * 5000 + "]" * 5000, '{"a":' * 5000 + "1" + "}" * 5000])
def test_a_deeply_nested_json_map_is_refused_by_name_and_the_engine_lives(fresh: Page, tmp_path: Path, nested):
    set_map(fresh, MAP)
    bad = tmp_path / "deep.json"
    bad.write_text('{"format":"arcstar-map","width":3,"height":1,"rows":["..."],"influence":' + nested + "}")
    _open_file(fresh, bad)
    expect(status(fresh)).to_contain_text("deep.json", timeout=SEARCH_TIMEOUT_MS)
    text = status(fresh).inner_text()
    for leak in ("RecursionError", "call stack", "fatally", "internal error"):
        assert leak not in text
    assert rows(fresh) == MAP  # the user's map stays
    result = _find(fresh, [0, 0], [9, 4])
    assert result["status"] == "found"  # and the engine still searches
    assert state(fresh)["worker"]["restarts"] == 0


def test_a_worker_that_throws_is_replaced_and_the_map_and_settings_are_kept(fresh: Page):
    set_map(fresh, MAP)
    fresh.evaluate("window.arcstar.setOptions({method: 'dijkstra', weight: 1})")
    options = fresh.evaluate("window.arcstar.options()")
    fresh.workers[0].evaluate("setTimeout(() => { throw new Error('simulated crash'); }, 0)")
    fresh.wait_for_function("window.arcstar.state().worker.restarts === 1", timeout=RESTART_TIMEOUT_MS)
    expect(status(fresh)).to_contain_text("stopped", timeout=RESTART_TIMEOUT_MS)
    fresh.wait_for_function("window.arcstar.state().engine === 'ready'", timeout=RESTART_TIMEOUT_MS)
    assert rows(fresh) == MAP
    assert fresh.evaluate("window.arcstar.options()") == options
    result = _find(fresh, [0, 0], [9, 4])
    assert result["status"] == "found" and result["path"][-1] == [9, 4]


def test_a_worker_that_goes_silent_is_taken_for_dead(fresh: Page):
    set_map(fresh, MAP)
    fresh.workers[0].evaluate("close()")  # gone, without a word: as when the browser kills it
    fresh.evaluate("window.arcstar.findPath({start: [0, 0], goal: [9, 4]}).catch(() => null)")
    fresh.wait_for_function("window.arcstar.state().worker.restarts === 1", timeout=RESTART_TIMEOUT_MS)
    fresh.wait_for_function("window.arcstar.state().engine === 'ready'", timeout=RESTART_TIMEOUT_MS)
    _wait_idle(fresh)
    assert rows(fresh) == MAP
    assert _find(fresh, [0, 0], [9, 4])["status"] == "found"


def _open_map(n: int, folder: Path) -> Path:
    path = folder / f"open{n}.map"
    if not path.exists():
        path.write_text(f"type octile\nheight {n}\nwidth {n}\nmap\n" + ("." * n + "\n") * n)
    return path


def test_maps_at_the_size_limit_open_search_replay_and_swap(fresh: Page, tmp_path: Path):
    # 3000^2, then 4096^2, then back: every later search failed ("ConversionError") before, and
    # on 4095^2 and 4096^2 a found search could not be replayed
    for n in (3000, 4096, 3000, 4095):
        _open_file(fresh, _open_map(n, tmp_path))
        fresh.wait_for_function(f"window.arcstar.state().width === {n} && window.arcstar.state().height === {n}",
                                timeout=SEARCH_TIMEOUT_MS)
        _wait_idle(fresh)
        goal = [n - 40, n - 90]
        result = _find(fresh, [2, 3], goal)
        assert result["status"] == "found" and result["path"][-1] == goal
        replay = fresh.evaluate("window.arcstar.replay()")
        assert replay is not None and replay["n"] == result["expanded"], (n, replay)
    assert state(fresh)["worker"]["restarts"] == 0


def test_the_engine_starts_from_the_sites_python_snapshot(fresh: Page, site_dir: Path):
    manifest = json.loads((site_dir / "manifest.json").read_text())
    if "snapshot" not in manifest:
        pytest.skip("this build made no Pyodide snapshot (no Node.js at build time)")
    assert state(fresh)["worker"]["fromSnapshot"] is True
    set_map(fresh, MAP)
    assert _find(fresh, [0, 0], [9, 4])["status"] == "found"


@pytest.fixture
def bad_snapshot_url(site_dir: Path, tmp_path: Path):
    """The site with its Pyodide snapshot replaced by garbage of the same size."""
    for entry in site_dir.iterdir():
        if entry.name != "pyodide":
            (tmp_path / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    (tmp_path / "pyodide").mkdir()
    for entry in (site_dir / "pyodide").iterdir():
        if entry.name != "snapshot.bin":
            (tmp_path / "pyodide" / entry.name).symlink_to(entry)
    size = (site_dir / "pyodide" / "snapshot.bin").stat().st_size if (site_dir / "pyodide" / "snapshot.bin").exists() \
        else 1 << 20
    (tmp_path / "pyodide" / "snapshot.bin").write_bytes(bytes(range(256)) * (size // 256))
    manifest = json.loads((site_dir / "manifest.json").read_text())
    manifest["snapshot"] = "pyodide/snapshot.bin"
    (tmp_path / "manifest.json").unlink()
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    server, url = build.start_server(tmp_path)
    yield url
    server.shutdown()
    server.server_close()


def test_a_snapshot_that_cannot_be_used_only_costs_time(lab_factory, bad_snapshot_url):
    context, page = lab_factory(url=bad_snapshot_url)
    try:
        assert state(page)["worker"]["fromSnapshot"] is False  # booted the ordinary way
        set_map(page, MAP)
        assert _find(page, [0, 0], [9, 4])["status"] == "found"
    finally:
        context.close()
