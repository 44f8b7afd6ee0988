"""The world_lab section (issue 11, "Speed"): the lab's frames in headless Chromium with 100 units
moving while a slow search runs, beside the same page without the search, without units, and
idle, all in one run (``bench/world_lab_bench.py`` drives the page).
"""

from __future__ import annotations

import statistics
from typing import Any

from bench.common import BenchError, Context, SectionResult, Table, fmt_ms

SECONDS = 10.0
#: The lab before its paths were drawn through a cached layer (the orders UI in): measured beside
#: the current lab in the same run.
BASELINE = "26ec392"


def _median(rounds: list[dict[str, Any]], key: str) -> float | None:
    values = [r[key] for r in rounds if r.get(key) is not None]
    return statistics.median(values) if values else None


def _num(v: float | None, digits: int = 1) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def _row(site: str, label: str, stats: list[dict[str, Any]]) -> list[object]:
    searches = [s for r in stats for s in r["searches"]]
    done = "-"
    if "search" in label:
        done = f"{len(searches)} finished"
        if searches:
            done += (f" (median {statistics.median(s['ms'] for s in searches) / 1000:.1f} s,"
                     f" {searches[0]['expanded']} expanded)")
    return [
        site, label, sum(r["frames"] for r in stats), fmt_ms(_median(stats, "median_ms")),
        fmt_ms(_median(stats, "p95_ms")), fmt_ms(max((r.get("worst_ms", 0.0) for r in stats), default=None)),
        sum(r.get("over_33", 0) for r in stats), _num(_median(stats, "fps")),
        f"{sum(r.get('long_tasks', 0) for r in stats)} ({sum(r.get('long_ms', 0.0) for r in stats) / 1000:.1f} s)",
        _num(_median(stats, "ticks_per_s")), _num(_median(stats, "game_per_s"), 2),
        _num(_median(stats, "main_cpu_ms_per_s"), 0), fmt_ms(_median(stats, "main_cpu_ms_per_frame")),
        fmt_ms(_median(stats, "raster_ms_per_frame")), done,
    ]


def world_lab(ctx: Context) -> SectionResult:
    """The lab at 60 fps: rAF frame intervals with 100 units moving and a slow search (Chromium)."""
    try:
        from bench import world_lab_bench
    except ModuleNotFoundError as exc:  # playwright missing
        raise BenchError(f"cannot drive the browser: {exc}") from exc
    if world_lab_bench.build.find_chromium() is None:
        raise BenchError("no Chromium found (set ARCSTAR_CHROMIUM or install Playwright's)")
    seconds = 5.0 if ctx.quick else SECONDS
    rounds = 1 if ctx.quick else 3
    data = world_lab_bench.run(ctx.log, seconds=seconds, rounds=rounds, baseline=None if ctx.quick else BASELINE)
    res = SectionResult("world_lab", "The lab's frames with 100 units moving while a slow search runs "
                        "(headless Chromium, rAF timestamps)")
    rows = []
    for site, cases in data["cases"].items():
        for label, stats in cases.items():
            rows.append(_row(site, label, stats))
    s = data.get("search", {})
    res.tables.append(Table(
        f"{data.get('browser', 'Chromium')}, {seconds:g} s recorded per case and round, {rounds} round(s), "
        "medians over rounds (frames, worst, counts: all rounds)",
        ["lab", "case", "frames", "median interval ms", "p95 ms", "worst ms", "frames > 33 ms", "fps",
         "main-thread long tasks (total)", "world ticks / wall s", "game s / wall s", "main thread CPU ms / s",
         "main thread CPU ms / frame", "canvas raster CPU ms / frame", "slow searches"], rows))
    res.notes += [
        "Page: the built site, 1280 x 860 viewport, the map fitted; rAF timestamps recorded by a loop installed "
        "before the page's scripts; long tasks from a PerformanceObserver (main thread, over 50 ms).",
        "Units: the lab's crowd preset (`arcstar.world.presets.crowd`: 100 units, tanks, cars and people, random "
        "starts and goals on a 128 x 128 map of 3 x 3 wall blocks, seed 7, its own avoidance `pinter`), loaded with "
        "the Units panel and played at 1x (a 20 Hz world: 20 ticks and 1 game second per wall second when it keeps "
        "up); planned paths shown (the panel's default).",
        f"Slow search: {s.get('method')} (Pinter's Directional A*, 24 neighbours) for a unit {s.get('width'):g} "
        f"wide turning on radius {s.get('radius'):g}, from tile {s.get('start')} to {s.get('goal')} across the "
        "crowd's map, started with Find path again as soon as one ends (its explored tiles and heading fans "
        "recorded, as the lab always does); 'slow searches' counts those that ended inside the recording.",
        "Peers in the same run: the same crowd without the search, the same searches on the same map without units "
        "(no world), and the page idle on that map. Cases run in this order each round, one page throughout.",
        "Frames over 33 ms missed at least one 60 Hz frame and would miss a 30 Hz one too.",
        f"CPU columns: after each case's frames, {world_lab_bench.TRACE_S:g} s of Chromium trace while it still runs: "
        "the main thread's top-level tasks' thread time (CPU, not wall: a loaded machine stretches frames but not "
        "the work in them) per wall second and per frame (BeginMainFrame), and of it the canvas raster "
        "(`LayerTreeHost::DoUpdateLayers`, where the 2D canvas's drawing is rasterised in software).",
        f"'baseline {BASELINE}': the lab of commit {BASELINE} (built from that commit with its own build.py), which "
        "drew the units' 100 dashed paths anew every frame; the current lab draws them into a layer when they "
        "change and copies it each frame (it also has whatever main merged since, none of it in the units' "
        "drawing; the raster column is the canvas alone). The two labs take turns in each round (a fresh page "
        "each, which goes first alternates), so load on the machine hits both alike over the rounds, not within "
        "one: on a shared 2-core machine the frame intervals follow the load (the worker's Python, the "
        "compositor and other processes share the cores), and the CPU columns are the steadier comparison.",
    ]
    res.data = data
    return res


SECTIONS = {"world_lab": world_lab}
