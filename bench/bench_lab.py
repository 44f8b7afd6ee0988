"""The lab's own numbers (issue 2): cold load to ready in headless Chromium, and one A* query on
a 256 x 256 map in CPython and in the lab's worker.

Cold load: a fresh browser context (no cache) opens the built site and waits for
``window.arcstar.ready``; the median of several. The query: the longest scenario of the Moving AI
map ``Berlin_0_256`` with the lab's default settings (A*, octile heuristic, 10/14 costs, no
corner cutting), timed by the engine (search time) and, in the browser, also end to end
(``findPath`` round trip, the explored tiles included, drawing excluded).
"""

from __future__ import annotations

import io
import math
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "pycore"))

import arcstar  # noqa: E402
import build  # noqa: E402
from arcstar import load_map, parse_scen  # noqa: E402

MAP = "Berlin_0_256"
#: The lab as issue 9 found it (the end of the core-reshape work): its cold load is measured
#: beside the current one, interleaved, so both see the same machine.
BASELINE = "0e9c8e1"
# Runs in the page before its scripts: when each boot stage's first message arrived, for any
# build (it wraps Worker, so it needs nothing from the lab's own code).
BOOT_RECORDER = """(() => {
  const Native = window.Worker;
  window.__bootStages = [];
  const seen = new Set();
  window.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        const m = e.data;
        if (m && m.type === 'boot' && !seen.has(m.stage)) {
          seen.add(m.stage);
          window.__bootStages.push([m.stage, performance.now()]);
        }
      });
    }
  };
})();"""


def _problem():
    folder = build.benchmarks_source()
    if folder is None:
        raise RuntimeError("the Moving AI benchmarks are not beside the repo (set ARCSTAR_BENCHMARKS)")
    tilemap = load_map(folder / "maps" / f"{MAP}.map").map
    scen = max(parse_scen((folder / "scen" / f"{MAP}.map.scen").read_text()), key=lambda s: s.optimal)
    return tilemap, scen


def baseline_site(rev: str, say) -> Path:
    """dist/ of commit ``rev``, built by that commit's own build.py from a ``git archive`` of it
    (once, into the build cache)."""
    sha = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT, capture_output=True,
                         text=True, timeout=30).stdout.strip()
    if not sha:
        raise RuntimeError(f"baseline {rev} is not a commit in this clone")
    tree = build.cache_dir() / "bench-old-site" / sha
    if not (tree / "dist" / "index.html").is_file():
        say(f"building the lab of {sha[:10]} for the baseline")
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", "--format=tar", sha], cwd=ROOT, capture_output=True,
                                 timeout=300, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tree, filter="data")
        subprocess.run([sys.executable, str(tree / "build.py")], cwd=tree, check=True, capture_output=True,
                       timeout=900)
    return tree / "dist"


def hybrid_in_worker(page, queries: int) -> list[dict]:
    """The hybrid on Pinter's rebuilt Figures 20, 21a and 21b in the lab's own worker (the
    browser's Pyodide), as the lab runs it (its trace and heading fans included): the first
    query on each map (tables built, for the first figure) and the median of the rest."""
    from arcstar.directional.figures import FIGURES
    pinter = {"figure20": 200.0, "figure21a": 85.0, "figure21b": 6.0}
    out = []
    for name, limit in pinter.items():
        fig = FIGURES[name]
        page.evaluate("rows => window.arcstar.setMap(rows)", fig.text.strip("\n").split("\n"))
        page.get_by_test_id("method").select_option("hybrid")  # through the panels, as a person would
        page.get_by_test_id("radius").fill(f"{fig.radius:g}")
        page.get_by_test_id("unit-width").fill("1")
        page.evaluate("deg => window.arcstar.setHeading('start', deg)", fig.start_heading * 180 / math.pi)
        times, first, res = [], None, None
        for k in range(queries + 1):
            res = page.evaluate("() => window.arcstar.findPath()")
            if res["status"] != "found":
                raise RuntimeError(f"the hybrid found no path on {name} in the lab: {res['status']}")
            if k == 0:
                first = res["ms"]
            else:
                times.append(res["ms"])
        assert res is not None and first is not None
        med = statistics.median(times)
        out.append({"name": f"hybrid, {name}, lab worker (Pyodide, browser)", "median_ms": med,
                    "runs": len(times), "note": f"first query {first:.0f} ms; {res['expanded']} expanded; "
                                                f"Pinter {limit:g} ms: {'below' if med < limit else 'NOT below'}"})
    return out


def run(report=None, *, loads: int = 5, queries: int = 5, baseline: str | None = BASELINE) -> list[dict]:
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
    base_dir = baseline_site(baseline, say) if baseline else None
    base_server, base_url = build.start_server(base_dir) if base_dir else (None, None)
    sites = [("current", url)] + ([(f"baseline {baseline}", base_url)] if base_url else [])
    rows_text = ["".join("#" if b else "." for b in row) for row in tilemap.blocked]
    try:
        with sync_playwright() as pw:
            exe = build.find_chromium()
            browser = pw.chromium.launch(headless=True, args=list(build.CHROMIUM_ARGS),
                                         **({"executable_path": exe} if exe else {}))
            boots: dict[str, list[float]] = {label: [] for label, _ in sites}
            # build -> boot stage (or first paint) -> when it began, ms after navigation
            stages: dict[str, dict[str, list[float]]] = {label: {} for label, _ in sites}
            for k in range(loads):
                order = sites if k % 2 == 0 else sites[::-1]  # interleaved: noise hits both alike
                for label, site_url in order:
                    context = browser.new_context(bypass_csp=True)  # string predicates use eval
                    context.add_init_script(BOOT_RECORDER)
                    page = context.new_page()
                    t0 = time.perf_counter()
                    page.goto(site_url)
                    page.wait_for_function("window.arcstar && window.arcstar.ready", timeout=120_000)
                    page.evaluate("() => window.arcstar.ready")
                    boots[label].append((time.perf_counter() - t0) * 1000)
                    marks = page.evaluate("window.__bootStages")
                    paint = page.evaluate(
                        "performance.getEntriesByName('first-contentful-paint').map(e => e.startTime)")
                    for stage, at in [*marks, *[("first paint", t) for t in paint]]:
                        stages[label].setdefault(stage, []).append(at)
                    say(f"lab cold load {k + 1}/{loads}, {label}: {boots[label][-1]:.0f} ms")
                    context.close()
            for label, _ in sites:
                times = boots[label]
                rows.append({"name": f"lab cold load to ready, {label} (headless Chromium, fresh context)",
                             "median_ms": statistics.median(times), "runs": len(times),
                             "note": f"min {min(times):.0f}, max {max(times):.0f} ms"})
                for stage, at in sorted(stages[label].items(), key=lambda kv: statistics.median(kv[1])):
                    what = "shown" if stage == "first paint" else "stage began"
                    rows.append({"name": f"  {label}: '{stage}' {what}", "median_ms": statistics.median(at),
                                 "runs": len(at), "note": "ms after navigation (page clock)"})
            page = browser.new_context(bypass_csp=True).new_page()  # the queries: on the current lab
            page.goto(url)
            page.wait_for_function("window.arcstar && window.arcstar.ready", timeout=120_000)
            page.evaluate("() => window.arcstar.ready")
            page.evaluate("rows => window.arcstar.setMap(rows)", rows_text)
            engine, trip = [], []
            for _ in range(queries):
                t0 = time.perf_counter()
                res = page.evaluate("q => window.arcstar.findPath(q)",
                                    {"start": list(scen.start), "goal": list(scen.goal)})
                trip.append((time.perf_counter() - t0) * 1000)
                engine.append(res["ms"])
            rows.extend(hybrid_in_worker(page, queries))
            rows.append({"name": f"A* query, {MAP} longest scenario, lab worker (Pyodide)",
                         "median_ms": statistics.median(engine), "runs": queries,
                         "note": f"{res['expanded']} expanded; findPath round trip median "
                                 f"{statistics.median(trip):.0f} ms"})
            browser.close()
    finally:
        for srv in (server, base_server):
            if srv is not None:
                srv.shutdown()
                srv.server_close()
    return rows


if __name__ == "__main__":
    out = run(lambda r: print(r["name"]))
    print(f"| {'what':<72} | median ms | runs | note |")
    for row in out:
        print(f"| {row['name']:<72} | {row['median_ms']:9.1f} | {row['runs']:4d} | {row['note']} |")
