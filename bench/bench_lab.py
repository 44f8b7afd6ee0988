"""The lab's own numbers (issue 2): cold load to ready in headless Chromium, and one A* query on
a 256 x 256 map in CPython and in the lab's worker.

Cold load: a fresh browser context (no cache) opens the built site and waits for
``window.arcstar.ready``; the median of several. The query: the longest scenario of the Moving AI
map ``Berlin_0_256`` with the lab's default settings (A*, octile heuristic, 10/14 costs, no
corner cutting), timed by the engine (search time) and, in the browser, also end to end
(``findPath`` round trip, the explored tiles included, drawing excluded).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "pycore"))

import arcstar  # noqa: E402
import build  # noqa: E402
from arcstar import load_map, parse_scen  # noqa: E402

MAP = "Berlin_0_256"


def _problem():
    folder = build.benchmarks_source()
    if folder is None:
        raise RuntimeError("the Moving AI benchmarks are not beside the repo (set ARCSTAR_BENCHMARKS)")
    tilemap = load_map(folder / "maps" / f"{MAP}.map").map
    scen = max(parse_scen((folder / "scen" / f"{MAP}.map.scen").read_text()), key=lambda s: s.optimal)
    return tilemap, scen


def run(report=None, *, loads: int = 5, queries: int = 5) -> list[dict]:
    """Rows {name, median_ms, runs, note}; ``report`` (optional) gets a {"name": ...} per step."""
    def say(line: str) -> None:
        if report:
            report({"name": line})
    tilemap, scen = _problem()
    rows = []
    cpy = []
    for _ in range(queries):
        r = arcstar.plan(tilemap, scen.start, scen.goal, heuristic="octile", trace=True)
        cpy.append(r.ms)
    rows.append({"name": f"A* query, {MAP} longest scenario, CPython {sys.version.split()[0]}",
                 "median_ms": statistics.median(cpy), "runs": queries,
                 "note": f"{r.expanded} expanded, cost {r.cost:.0f} (10/14, octile, traced as in the lab)"})
    from playwright.sync_api import sync_playwright

    site = build.build_site(quiet=True)
    server, url = build.start_server(site)
    rows_text = ["".join("#" if b else "." for b in row) for row in tilemap.blocked]
    try:
        with sync_playwright() as pw:
            exe = build.find_chromium()
            browser = pw.chromium.launch(headless=True, args=list(build.CHROMIUM_ARGS),
                                         **({"executable_path": exe} if exe else {}))
            boots = []
            stages: dict[str, list[float]] = {}  # boot stage -> when it began, ms after navigation
            page = None
            for k in range(loads):
                context = browser.new_context()
                page = context.new_page()
                t0 = time.perf_counter()
                page.goto(url)
                page.wait_for_function("window.arcstar && window.arcstar.ready", timeout=120_000)
                page.evaluate("() => window.arcstar.ready")
                boots.append((time.perf_counter() - t0) * 1000)
                for mark in page.evaluate("window.arcstar.state().worker.bootStages || []"):
                    stages.setdefault(mark["stage"], []).append(mark["at"])
                paint = page.evaluate("performance.getEntriesByName('first-contentful-paint').map(e => e.startTime)")
                stages.setdefault("first paint", []).extend(paint)
                say(f"lab cold load {k + 1}/{loads}: {boots[-1]:.0f} ms")
                if k < loads - 1:
                    context.close()
            rows.append({"name": "lab cold load to ready (headless Chromium, fresh context)",
                         "median_ms": statistics.median(boots), "runs": loads,
                         "note": f"min {min(boots):.0f}, max {max(boots):.0f} ms"})
            for stage, times in sorted(stages.items(), key=lambda kv: statistics.median(kv[1])):
                rows.append({"name": f"  cold load: '{stage}' {'shown' if stage == 'first paint' else 'stage began'}",
                             "median_ms": statistics.median(times), "runs": len(times),
                             "note": "ms after navigation (page clock)"})
            page.evaluate("rows => window.arcstar.setMap(rows)", rows_text)
            engine, trip = [], []
            for _ in range(queries):
                t0 = time.perf_counter()
                res = page.evaluate("q => window.arcstar.findPath(q)",
                                    {"start": list(scen.start), "goal": list(scen.goal)})
                trip.append((time.perf_counter() - t0) * 1000)
                engine.append(res["ms"])
            rows.append({"name": f"A* query, {MAP} longest scenario, lab worker (Pyodide)",
                         "median_ms": statistics.median(engine), "runs": queries,
                         "note": f"{res['expanded']} expanded; findPath round trip median "
                                 f"{statistics.median(trip):.0f} ms"})
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return rows


if __name__ == "__main__":
    out = run(lambda r: print(r["name"]))
    print(f"| {'what':<72} | median ms | runs | note |")
    for row in out:
        print(f"| {row['name']:<72} | {row['median_ms']:9.1f} | {row['runs']:4d} | {row['note']} |")
