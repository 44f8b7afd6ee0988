"""The lab's frames with units in motion (issue 11, "Speed": the lab at 60 frames per second with
100 units moving while a slow search runs), measured in headless Chromium from the built site.

The lab is driven as a person would (the Units panel's scenario select and Load, Play, the speed;
the Search panel's method, the Unit panel's radius and width, Find path); only the start and the
goal of the slow search and the read-backs go through ``window.arcstar``. A rAF loop installed
before the page's own scripts records every ``requestAnimationFrame`` timestamp; a
PerformanceObserver records the main thread's long tasks (over 50 ms) and what the page marks.

Each case records ``seconds`` of frames after a warm-up second:

- ``units + slow search``: the crowd preset (100 units, 128 x 128, its own avoidance) playing at
  1x while the lab plans Directional-24 across the map again and again (each search's explored
  tiles and heading fans recorded, as the lab always does);
- ``units only``: the same crowd playing, no search;
- ``slow search only``: the crowd's map without units (no world), the same searches;
- ``idle``: the same map, nothing running (what headless Chromium's frames are here).

Rows: median and 95th percentile frame interval, the worst frame, frames over 33 ms, long tasks,
world ticks per second of wall time and game seconds per wall second, searches finished. Then,
still running, a Chromium trace of a few seconds gives the main thread's CPU time (not wall time:
a busy machine stretches frames, not the CPU work in them): per wall second, and per frame the
canvas's raster (``LayerTreeHost::DoUpdateLayers``, where a 2D canvas's drawing is rasterised).
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402

VIEWPORT = {"width": 1280, "height": 860}
BOOT_TIMEOUT_MS = 180_000
#: The slow search: Pinter's Directional-24 for a unit 1 tile wide that turns on a radius of 3 tiles.
SLOW_METHOD = "directional24"
SLOW_RADIUS = "3"
SLOW_WIDTH = "1"
#: Seconds of Chromium trace per case (the main thread's CPU time), after the frames are recorded.
TRACE_S = 3.0
TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel", "cc"]
#: A frame longer than this missed at least one 60 Hz vsync and one 30 Hz frame too.
SLOW_FRAME_MS = 33.0

# Installed before the page's scripts: every rAF timestamp while recording, the long tasks, and
# the page's own performance marks and measures (none are needed; they are reported if present).
RECORDER = """(() => {
  const rec = window.__frames = {on: false, t: [], long: []};
  const loop = (t) => { if (rec.on) rec.t.push(t); requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
  try {
    new PerformanceObserver((list) => {
      if (rec.on) for (const e of list.getEntries()) rec.long.push([e.startTime, e.duration]);
    }).observe({type: 'longtask', buffered: false});
  } catch (e) { /* no long-task timing in this browser */ }
})();"""

# The slow search again and again until stopped: Find path as the button does (window.arcstar's
# findPath is the button's code with the start and goal given).
SEARCH_LOOP = """([start, goal]) => {
  const s = window.__slow = {on: true, results: [], errors: []};
  (async () => {
    while (s.on) {
      try {
        const r = await window.arcstar.findPath({start, goal});
        if (s.on) s.results.push({status: r.status, ms: r.ms, expanded: r.expanded});
      } catch (e) {
        s.errors.push(String(e && e.message || e));
        if (s.errors.length > 3) break;
      }
    }
  })();
}"""


def crowd_doc() -> dict[str, Any]:
    """The crowd preset as the lab loads it (the core's own ``presets.crowd``)."""
    from arcstar.world.presets import crowd

    return crowd()


def far_corners(rows: list[str]) -> tuple[list[int], list[int]]:
    """The open tiles nearest the top-left and bottom-right corners: the slow search's ends."""
    cells = [(x, y) for y, r in enumerate(rows) for x, c in enumerate(r) if c not in "#~"]
    h, w = len(rows), len(rows[0])
    a = min(cells, key=lambda p: p[0] + p[1])
    b = min(cells, key=lambda p: (w - 1 - p[0]) + (h - 1 - p[1]))
    return [a[0], a[1]], [b[0], b[1]]


def frame_stats(stamps: list[float], long_tasks: list[list[float]]) -> dict[str, Any]:
    gaps = [b - a for a, b in zip(stamps, stamps[1:])]
    if not gaps:
        return {"frames": 0}
    ordered = sorted(gaps)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {"frames": len(gaps), "median_ms": statistics.median(gaps), "p95_ms": p95, "worst_ms": max(gaps),
            "over_33": sum(g > SLOW_FRAME_MS for g in gaps), "fps": 1000.0 * len(gaps) / (stamps[-1] - stamps[0]),
            "long_tasks": len(long_tasks), "long_ms": sum(d for _, d in long_tasks),
            "longest_task_ms": max((d for _, d in long_tasks), default=0.0)}


def main_thread_cpu(trace: bytes, seconds: float) -> dict[str, float]:
    """From a Chromium trace: the page's main thread's CPU ms per wall second (top-level tasks'
    thread time) and per frame (BeginMainFrame), and the canvas raster's CPU ms per frame."""
    doc = json.loads(trace)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    main = {(e["pid"], e["tid"]) for e in events if e.get("name") == "thread_name"
            and e.get("args", {}).get("name") == "CrRendererMain"}
    tasks, frames, raster = [], 0, 0.0
    for e in events:
        if e.get("ph") != "X" or (e.get("pid"), e.get("tid")) not in main:
            continue
        if e["name"] == "RunTask":
            tasks.append((e["ts"], e["ts"] + e.get("dur", 0), e.get("tdur", 0)))
        elif e["name"] == "ProxyMain::BeginMainFrame":
            frames += 1
        elif e["name"] == "LayerTreeHost::DoUpdateLayers":
            raster += e.get("tdur", 0) / 1000.0
    cpu, end = 0.0, -1.0
    for start, stop, tdur in sorted(tasks):
        if start >= end:  # a top-level task (nested ones are inside it)
            cpu += tdur / 1000.0
            end = stop
    return {"main_cpu_ms_per_s": cpu / seconds, "main_frames": frames,
            "main_cpu_ms_per_frame": cpu / frames if frames else 0.0,
            "raster_ms_per_frame": raster / frames if frames else 0.0}


class LabFrames:
    """One lab page and the cases measured on it."""

    def __init__(self, browser, page, say: Callable[[str], None]) -> None:
        self.browser = browser
        self.page = page
        self.say = say
        self.doc = crowd_doc()
        self.start, self.goal = far_corners(self.doc["map"])

    def world(self) -> dict[str, Any]:
        return self.page.evaluate("(() => { const w = window.arcstar.world();"
                                  " return {on: w.on, running: w.running, time: w.time, ticks: w.ticks,"
                                  " states: w.states, units: w.units.length, lag: w.lag ?? null,"
                                  " moving: w.units.filter((u) => u.status === 'moving').length,"
                                  " speed: w.speed, message: w.message}; })()")

    def set_search(self) -> None:
        """The slow search's settings, through the panels."""
        p = self.page
        p.get_by_test_id("method").select_option(SLOW_METHOD)
        p.get_by_test_id("radius").fill(SLOW_RADIUS)
        p.get_by_test_id("unit-width").fill(SLOW_WIDTH)
        p.get_by_test_id("radius").press("Tab")

    def load_crowd(self) -> None:
        """The crowd preset through the Units panel (paused), speed 1x."""
        p = self.page
        if self.world()["running"]:
            p.get_by_test_id("world-play").click()
            p.wait_for_function("!window.arcstar.world().running", timeout=60_000)
        before = self.world()["states"]
        p.get_by_test_id("world-preset").select_option("crowd")
        p.get_by_test_id("world-load").click()
        p.wait_for_function(f"(() => {{ const w = window.arcstar.world(); return w.preset === 'crowd'"
                            f" && w.units.length === {len(self.doc['units'])} && w.states > {before}"
                            " && !w.running; })()", timeout=120_000)
        p.get_by_test_id("world-speed").select_option("1")
        p.wait_for_function("window.arcstar.world().speed === 1")

    def no_units(self) -> None:
        """The crowd's map alone (a new map: the world is let go)."""
        self.page.evaluate("rows => window.arcstar.setMap(rows)", self.doc["map"])
        self.page.wait_for_function("!window.arcstar.world().on", timeout=60_000)

    def record(self, seconds: float, units: bool, search: bool) -> dict[str, Any]:
        p = self.page
        if units:
            p.get_by_test_id("world-play").click()
            p.wait_for_function("window.arcstar.world().running", timeout=60_000)
        if search:
            p.evaluate(SEARCH_LOOP, [self.start, self.goal])
            p.wait_for_function("window.arcstar.state().searching", timeout=60_000)
        time.sleep(1.0)  # warm-up: the first plans of every route, the first search's tables
        w0 = self.world()
        p.evaluate("(() => { const r = window.__frames; r.t = []; r.long = []; r.on = true; })()")
        t0 = time.perf_counter()
        time.sleep(seconds)
        p.evaluate("window.__frames.on = false")
        wall = time.perf_counter() - t0
        w1 = self.world()
        rec = p.evaluate("(() => ({t: window.__frames.t, long: window.__frames.long}))()")
        self.browser.start_tracing(page=p, categories=TRACE_CATEGORIES)
        time.sleep(TRACE_S)
        cpu = main_thread_cpu(self.browser.stop_tracing(), TRACE_S)
        slow = {"results": [], "errors": []}
        if search:
            slow = p.evaluate("(() => { const s = window.__slow; s.on = false; window.arcstar.cancel();"
                              " return {results: s.results, errors: s.errors}; })()")
            p.wait_for_function("!window.arcstar.state().searching", timeout=60_000)
        if units:
            p.get_by_test_id("world-play").click()
            p.wait_for_function("!window.arcstar.world().running", timeout=60_000)
        out = frame_stats(rec["t"], rec["long"])
        out.update(cpu)
        out.update(wall_s=wall, ticks_per_s=(w1["ticks"] - w0["ticks"]) / wall if units else None,
                   game_per_s=(w1["time"] - w0["time"]) / wall if units else None,
                   states_per_s=(w1["states"] - w0["states"]) / wall if units else None,
                   moving=w1["moving"] if units else 0, units=w1["units"] if units else 0,
                   searches=[r for r in slow["results"] if r["status"] != "cancelled"],
                   search_errors=slow["errors"])
        return out


CASES = (("units + slow search", True, True), ("units only", True, False),
         ("slow search only", False, True), ("idle", False, False))


def open_lab(browser, url: str, say: Callable[[str], None]) -> tuple[Any, LabFrames]:
    """A fresh context on the lab at ``url``, the engine ready and the slow search set up."""
    context = browser.new_context(viewport=VIEWPORT, bypass_csp=True)  # string predicates use eval
    context.add_init_script(RECORDER)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("window.arcstar && window.arcstar.ready", timeout=BOOT_TIMEOUT_MS)
    page.evaluate("() => window.arcstar.ready")
    page.wait_for_function("window.arcstar.world().presets.length > 0", timeout=60_000)
    lab = LabFrames(browser, page, say)
    lab.set_search()
    return context, lab


def run(report: Callable[[str], None] | None = None, *, seconds: float = 10.0, rounds: int = 1,
        baseline: str | None = None) -> dict[str, Any]:
    """{"cases": {site: {case: [stats per round]}}, "browser": version, "search": {...}}: the lab
    as built from this tree ("current") and, with ``baseline`` (a commit), that commit's lab, the
    two taking turns within each round (which goes first alternates) so both see the same machine."""
    from playwright.sync_api import sync_playwright

    say = report or (lambda _line: None)
    site = build.build_site(quiet=True)
    servers = [build.start_server(site)]
    sites = [("current", servers[0][1])]
    if baseline:
        from bench.bench_lab import baseline_site

        servers.append(build.start_server(baseline_site(baseline, say)))
        sites.append((f"baseline {baseline}", servers[1][1]))
    out: dict[str, Any] = {"cases": {name: {label: [] for label, _, _ in CASES} for name, _ in sites}}
    try:
        with sync_playwright() as pw:
            exe = build.find_chromium()
            browser = pw.chromium.launch(headless=True, args=list(build.CHROMIUM_ARGS),
                                         **({"executable_path": exe} if exe else {}))
            out["browser"] = f"Chromium {browser.version}"
            for k in range(rounds):
                for name, url in (sites if k % 2 == 0 else sites[::-1]):
                    context, lab = open_lab(browser, url, say)
                    out["search"] = {"method": SLOW_METHOD, "radius": float(SLOW_RADIUS), "width": float(SLOW_WIDTH),
                                     "start": lab.start, "goal": lab.goal}
                    for label, units, search in CASES:
                        if units:
                            lab.load_crowd()
                        else:
                            lab.no_units()
                        say(f"round {k + 1}/{rounds}, {name}: {label}")
                        stats = lab.record(seconds, units, search)
                        out["cases"][name][label].append(stats)
                        say(f"  median {stats.get('median_ms', 0):.1f} ms, p95 {stats.get('p95_ms', 0):.1f} ms, "
                            f"worst {stats.get('worst_ms', 0):.0f} ms, {stats.get('over_33', 0)} over 33 ms, "
                            f"{len(stats['searches'])} searches; main thread {stats['main_cpu_ms_per_s']:.0f} "
                            f"CPU ms/s, raster {stats['raster_ms_per_frame']:.1f} ms/frame")
                    context.close()
            browser.close()
    finally:
        for server, _ in servers:
            server.shutdown()
            server.server_close()
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(print, seconds=float(sys.argv[1]) if len(sys.argv) > 1 else 10.0), indent=1))
