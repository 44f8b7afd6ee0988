"""Hybrid measurement (issue 10, "Speed"): Pinter's hybrid on his Figures 20, 21a and 21b.

One module for every runtime: CPython (imported by ``bench/sections_hybrid.py``) and Pyodide
under Node.js (``bench/pyodide_runner.mjs`` mounts ``bench/`` and calls ``run_request_json``).
Standard library, numpy and arcstar only. The maps are ``arcstar.directional.figures`` (rebuilt
from the captions; the tests assert what the article says of each).

Per figure, a unit 1 tile wide of the figure's turning radius, ``plan(method="hybrid")`` run as a
``PlanJob`` stepped in slices of ``slice`` units (as the lab's worker does):

- **cold**: the first query in a fresh process state (every hit-check and heuristic table
  dropped first, a fresh copy of the map): what the very first plan of a unit kind costs;
- **warm**: ``repeats`` queries on the same map (its windows, region labels and the goal's
  heuristic kept, as a game re-planning on one map): median and p90 wall time, expansions;
- **fresh map**: ``repeats`` queries each on a new copy of the map (the unit kind's tables kept,
  the per-map caches rebuilt): what one query costs on a map just edited.

Every answer is checked: found, legal by the independent exact swept-disc test, and made by the
hybrid itself (not its Directional-24 fallback).

**Windows** (when the request names maps): the hybrid beside Directional-24 on 60 x 60 windows of
the Moving AI maps (``directional_bench``'s windows and queries), per radius: how many each
finds, how many of the hybrid's came from its fallback, and the median wall time of each over
the queries both found. A found path must be legal, and the hybrid must find every query
Directional-24 finds (its fallback is Directional-24).
"""

from __future__ import annotations

import json
import math
import statistics
import time

try:
    from bench import directional_bench as dbench
    from bench import search_bench as sb
except ImportError:  # Pyodide: bench/'s files sit on sys.path themselves
    import directional_bench as dbench
    import search_bench as sb

FIGURES = ["figure20", "figure21a", "figure21b"]
PINTER_MS = {"figure20": 200.0, "figure21a": 85.0, "figure21b": 6.0}


def _forget() -> None:
    """Drop every table kept per unit kind and radius (the cold case)."""
    from arcstar.directional.heuristic import forget_curve_tables
    from arcstar.directional.tables import forget_tables

    forget_tables()
    forget_curve_tables()


def one(tilemap, fig, slice_size: int) -> dict:
    """One hybrid query on ``tilemap``: wall time, expansions, the stages it ran, the check."""
    from arcstar.collision.swept import path_clear
    from arcstar.planner.job import PlanJob
    from arcstar.planner.options import PlanOptions

    f = fig.loaded
    t0 = time.perf_counter()
    job = PlanJob(tilemap, (*f.start, fig.start_heading), f.goal,
                  PlanOptions.from_dict({"method": "hybrid", "width": 1.0, "radius": fig.radius}))
    while job.step(slice_size) == "running":
        pass
    r = job.result()
    ms = (time.perf_counter() - t0) * 1000.0
    h = job.search.hybrid
    stages = ["astar", "forward"]
    if h is not None and h.backward is not None:
        stages.append("backward")
    if h is not None and h.patch_ends is not None:
        stages.append("patch (D8)")
    ok = r.status == "found" and r.segments is not None and path_clear(tilemap, r.segments, 1.0)
    return {"ms": ms, "expanded": r.expanded, "method": r.method, "status": str(r.status), "legal": ok,
            "stages": stages, "length": r.length}


def measure(name: str, repeats: int, slice_size: int) -> dict:
    from arcstar.directional.figures import FIGURES as MAPS

    fig = MAPS[name]
    _forget()
    cold = one(fig.loaded.map, fig, slice_size)
    base = fig.loaded.map
    warm = [one(base, fig, slice_size) for _ in range(repeats + 1)][1:]
    fresh = [one(base.copy(), fig, slice_size) for _ in range(repeats)]
    runs = [cold, *warm, *fresh]
    wrong = [f"{name}: {r['status']} by {r['method']}, legal {r['legal']}" for r in runs
             if not r["legal"] or r["method"] != "hybrid"]

    def stats(rows: list[dict]) -> dict:
        ms = sorted(r["ms"] for r in rows)
        p90 = ms[min(len(ms) - 1, math.ceil(0.9 * len(ms)) - 1)]
        return {"median_ms": statistics.median(ms), "best_ms": ms[0], "p90_ms": p90,
                "expanded": statistics.median(r["expanded"] for r in rows)}

    return {"figure": name, "pinter_ms": PINTER_MS[name], "radius": fig.radius, "cold_ms": cold["ms"],
            "warm": stats(warm), "fresh": stats(fresh), "stages": cold["stages"], "length": cold["length"],
            "wrong": wrong}


def compare(request: dict, radius: float, progress=None) -> dict:
    """The hybrid beside Directional-24 on Moving AI windows at one radius."""
    import random

    import arcstar

    rng = random.Random(request["seed"])
    wins = dbench.windows(request["data_dir"], request["maps"], request["windows_per_map"], 60, 0.45, rng)
    rows: list[dict] = []
    wrong: list[str] = []
    for label, tilemap in wins:
        if progress:
            progress(f"hybrid windows, radius {radius:g}: {label}")
        queries = dbench.queries(tilemap, 1.0, request["queries_per_window"] + 1, 12, rng)
        for method in ("hybrid", "directional24"):  # untimed: the window's own tables and labels
            if queries:
                arcstar.plan(tilemap, *queries[0], method=method, width=1.0, radius=radius,
                             max_expansions=request["max_expansions"])
        for start, goal in queries[1:]:
            row = {}
            for method in ("hybrid", "directional24"):
                t0 = time.perf_counter()
                r = arcstar.plan(tilemap, start, goal, method=method, width=1.0, radius=radius,
                                 max_expansions=request["max_expansions"])
                row[method] = {"ms": (time.perf_counter() - t0) * 1000.0, "found": r.status == "found",
                               "by": r.method}
                if r.status == "found" and not r.legal:
                    wrong.append(f"{label} {start} -> {goal}: {method} returned an illegal path")
            if row["directional24"]["found"] and not row["hybrid"]["found"]:
                wrong.append(f"{label} {start} -> {goal}: directional24 found a path, the hybrid none")
            rows.append(row)
    both = [r for r in rows if r["hybrid"]["found"] and r["directional24"]["found"]]

    def median(method: str) -> float | None:
        return statistics.median(r[method]["ms"] for r in both) if both else None

    return {"radius": radius, "windows": len(wins), "queries": len(rows),
            "found": {m: sum(r[m]["found"] for r in rows) for m in ("hybrid", "directional24")},
            "fallbacks": sum(r["hybrid"]["found"] and r["hybrid"]["by"] != "hybrid" for r in rows),
            "median_ms": {m: median(m) for m in ("hybrid", "directional24")}, "wrong": wrong}


def run_request(request: dict, progress=None) -> dict:
    out = {"runtime": sb.runtime(), "slice": request["slice"], "repeats": request["repeats"], "figures": [],
           "windows": []}
    for name in request.get("figures", FIGURES):
        if progress:
            progress(f"hybrid: {name}")
        out["figures"].append(measure(name, request["repeats"], request["slice"]))
    if request.get("maps"):
        for radius in request["radii"]:
            out["windows"].append(compare(request, radius, progress))
    return out


def run_request_json(text: str) -> str:
    return json.dumps(run_request(json.loads(text)))
