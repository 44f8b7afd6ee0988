"""Directional A* measurement (issue 10): Directional-8/24/48 on 60 x 60 windows of Moving AI maps.

One module for every runtime: CPython (imported by ``bench/sections_directional.py``) and
Pyodide under Node.js (``bench/pyodide_runner.mjs`` mounts ``bench/`` and calls
``run_request_json``). Standard library, numpy and arcstar only.

Per turning radius (a unit 1 tile wide by default):

- **tables**: each neighbourhood's hit-check table built cold (``directional.tables``, every kept
  table and curve set dropped first; one untimed build of another kind before, so the first
  calls into numpy are not counted), the median of a few builds; and the heuristic's curve table
  (Dubins lengths to every offset within 40 tiles, per radius) built cold once, after an untimed
  one for another radius.
- **queries**: windows of 60 x 60 tiles cut from the maps (seeded, at least ``min_open`` of
  their tiles open), start and goal on tiles the unit fits on, in one 8-connected region, at
  least ``min_distance`` tiles apart, the start facing one of the 8 lattice headings, the goal at
  any heading. Directional-48 is the reference: a query is *solvable* when it finds a path (its
  moves include every move of Directional-24 and -8, so when -48 finds none neither can the
  others). Only solvable queries are timed; a method that fails a solvable query is counted in
  its own ``no_path`` columns and never in the medians.
- each method answers one untimed query per window first (``setup_ms``: the map's windows,
  clearance and region labels), then every solvable query, interleaved method by method;
  ``ms`` is the wall time of ``plan()`` (options, heuristic, search, path, the exact legality
  check) and ``cpu_ms`` this process's CPU time over it (``time.process_time``: what other work on
  a shared machine does not inflate), ``expanded`` the states expanded, ``exp/ms`` the expansions per millisecond of the
  search loop itself (``result.ms``).

Every answer is checked: a found path must be legal (the independent swept-disc test), and the
least costs must not rise from Directional-8 to -24 to -48 (nested lattices).
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
import time

METHODS = ["directional8", "directional24", "directional48"]
#: Pyodide has no process clock (``time.process_time`` stays 0 there): no CPU column then.
HAS_CPU_CLOCK = sys.platform != "emscripten"


def cpu_ms(c0: float) -> float | None:
    return (time.process_time() - c0) * 1000.0 if HAS_CPU_CLOCK else None


def runtime() -> dict:
    import numpy

    import arcstar

    info = {"python": ".".join(map(str, sys.version_info[:3])), "numpy": numpy.__version__,
            "arcstar": getattr(arcstar, "__version__", "?")}
    if sys.platform == "emscripten":
        try:
            import pyodide

            info["pyodide"] = getattr(pyodide, "__version__", "?")
        except ImportError:
            pass
    return info


def windows(data_dir: str, names: list[str], per_map: int, size: int, min_open: float, rng: random.Random) -> list:
    """[(label, TileMap)]: ``per_map`` windows of ``size`` x ``size`` tiles from each map."""
    from arcstar import TileMap, parse_movingai_map

    out = []
    for name in names:
        with open(f"{data_dir}/maps/{name}.map", encoding="latin-1") as fh:
            tilemap = parse_movingai_map(fh.read())
        if tilemap.width < size or tilemap.height < size:
            continue
        got = 0
        for _ in range(200):
            x0, y0 = rng.randrange(tilemap.width - size + 1), rng.randrange(tilemap.height - size + 1)
            blocked = tilemap.blocked[y0:y0 + size, x0:x0 + size]
            if 1.0 - blocked.mean() >= min_open:
                out.append((f"{name}@{x0},{y0}", TileMap.from_blocked(blocked.copy())))
                got += 1
                if got == per_map:
                    break
    return out


def queries(tilemap, width: float, n: int, min_distance: float, rng: random.Random) -> list:
    """[((x, y, heading), (x, y))]: start and goal where the unit fits, in one region, apart."""
    from arcstar.collision.clearance import passable_for
    from arcstar.search.regions import regions

    fits = passable_for(tilemap, width)
    labels = regions(tilemap, "always", 8)
    tiles = [(x, y) for y in range(tilemap.height) for x in range(tilemap.width) if fits[y, x]]
    out = []
    for _ in range(50 * n):
        if len(out) == n or len(tiles) < 2:
            break
        s, g = rng.choice(tiles), rng.choice(tiles)
        if math.dist(s, g) >= min_distance and labels[s[1], s[0]] == labels[g[1], g[0]]:
            out.append(((s[0], s[1], rng.randrange(8) * math.pi / 4), g))
    return out


def table_times(radius: float, width: float, builds: int) -> list[dict]:
    """Cold build times of the hit-check tables (per neighbourhood) and the heuristic table."""
    from arcstar.directional.heuristic import curve_table, forget_curve_tables
    from arcstar.directional.lattice import Neighbourhood, UnitKind
    from arcstar.directional.tables import build_table, forget_tables

    rows = []
    forget_tables()
    build_table(UnitKind(width, radius + 0.5, Neighbourhood.D8))  # untimed: first calls into numpy and the code
    for nb, method in zip(Neighbourhood, METHODS):
        times, cpu, table = [], [], None
        for _ in range(builds):
            forget_tables()
            c0 = time.process_time()
            table = build_table(UnitKind(width, radius, nb))
            cpu.append(cpu_ms(c0))
            times.append(table.build_ms)
        assert table is not None
        rows.append({"method": method, "build_ms": statistics.median(times), "cpu_ms": med(cpu),
                     "moves": len(table.entries),
                     "computed": table.computed, "window": table.size})
    forget_tables()
    forget_curve_tables()
    curve_table(radius + 0.5)  # untimed, as above
    forget_curve_tables()
    c0, t0 = time.process_time(), time.perf_counter()
    curve_table(radius)
    rows.append({"method": "heuristic", "build_ms": (time.perf_counter() - t0) * 1000.0, "cpu_ms": cpu_ms(c0)})
    return rows


def plan_once(tilemap, query, method: str, radius: float, width: float, budget: int | None) -> dict:
    import arcstar

    c0, t0 = time.process_time(), time.perf_counter()
    r = arcstar.plan(tilemap, query[0], query[1], method=method, width=width, radius=radius,
                     max_expansions=budget)
    return {"status": str(r.status), "ms": (time.perf_counter() - t0) * 1000.0, "cpu_ms": cpu_ms(c0),
            "search_ms": r.ms, "expanded": r.expanded,
            "cost": r.cost, "legal": r.legal}


def summarise(method: str, records: list[dict], setup: list[float]) -> dict:
    found = [r for r in records if r["status"] == "found"]
    failed = [r for r in records if r["status"] != "found"]
    search_ms = sum(r["search_ms"] for r in found)
    return {"method": method, "solvable": len(records), "found": len(found),
            "median_ms": med([r["ms"] for r in found]), "p90_ms": _quantile([r["ms"] for r in found], 0.9),
            "median_cpu_ms": med([r["cpu_ms"] for r in found if r["cpu_ms"] is not None]),
            "median_expanded": med([r["expanded"] for r in found]),
            "exp_per_ms": sum(r["expanded"] for r in found) / search_ms if search_ms > 0 else None,
            "failed": len(failed), "failed_median_ms": med([r["ms"] for r in failed]),
            "failed_statuses": sorted({r["status"] for r in failed}),
            "setup_ms": med(setup), "illegal": sum(1 for r in found if not r["legal"])}


def med(xs: list) -> float | None:
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def _quantile(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def measure_radius(request: dict, radius: float, progress) -> dict:
    seed = int(request.get("seed", 1))
    rng = random.Random(f"{seed}:{radius}")
    width = float(request.get("width", 1.0))
    budget = request.get("max_expansions")
    tables = table_times(radius, width, int(request.get("builds", 3)))
    wins = windows(request["data_dir"], request["maps"], int(request["windows_per_map"]), 60,
                   float(request.get("min_open", 0.45)), rng)
    records: dict[str, list[dict]] = {m: [] for m in METHODS}
    setup: dict[str, list[float]] = {m: [] for m in METHODS}
    excluded = {"unsolvable": 0, "reference_gave_up": 0}
    wrong: list[str] = []
    for label, tilemap in wins:
        qs = queries(tilemap, width, int(request["queries_per_window"]), float(request.get("min_distance", 12)), rng)
        if not qs:
            continue
        for m in METHODS:  # untimed: the window's per-map caches
            setup[m].append(plan_once(tilemap, qs[0], m, radius, width, budget)["ms"])
        for q in qs:
            ref = plan_once(tilemap, q, "directional48", radius, width, budget)
            if ref["status"] != "found":
                excluded["unsolvable" if ref["status"] == "no_path" else "reference_gave_up"] += 1
                continue
            got = {m: plan_once(tilemap, q, m, radius, width, budget) for m in METHODS}
            for m in METHODS:
                records[m].append(got[m])
                if got[m]["status"] == "found" and not got[m]["legal"]:
                    wrong.append(f"{m} on {label} {q}: illegal path")
            costs = [got[m]["cost"] for m in METHODS if got[m]["status"] == "found"]
            if any(b > a * (1 + 1e-9) + 1e-9 for a, b in zip(costs, costs[1:])):
                wrong.append(f"{label} {q}: least cost rises from a smaller to a larger neighbourhood: {costs}")
        if progress:
            progress(f"r={radius}: {label}: {len(qs)} queries")
    return {"radius": radius, "width": width, "tables": tables, "windows": len(wins), "excluded": excluded,
            "rows": [summarise(m, records[m], setup[m]) for m in METHODS], "wrong": wrong}


def run_request(request: dict, progress=None) -> dict:
    """request: {"data_dir", "maps": [names], "windows_per_map", "queries_per_window", "radii",
    "width", "seed", "min_distance", "min_open", "builds", "max_expansions"}."""
    out = {"runtime": runtime(), "radii": []}
    for radius in request["radii"]:
        t0 = time.perf_counter()
        out["radii"].append(measure_radius(request, float(radius), progress))
        out["radii"][-1]["seconds"] = time.perf_counter() - t0
    return out


def run_request_json(request_json: str) -> str:
    """``run_request`` with JSON in and out, progress on stderr (for Pyodide under Node.js)."""

    def progress(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    return json.dumps(run_request(json.loads(request_json), progress))
