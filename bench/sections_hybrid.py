"""The hybrid sections (issue 10, "Speed"): Pinter's hybrid on his Figures 20, 21a and 21b
(``arcstar.directional.figures``), against his own times for them: about 200 ms, 85 ms and
under 6 ms. Goal: below each, in Pyodide.

- ``hybrid_cpython``: ``bench/hybrid_bench.py`` on this CPython.
- ``hybrid_pyodide``: the same module inside Pyodide under Node.js (``pyodide_runner.mjs``).
"""

from __future__ import annotations

import sys

from bench.common import Context, SectionResult, Table, fmt_ms, fmt_num
from bench.sections_directional import MAPS, QUICK_MAPS
from bench.sections_search import core_name, need_data, run_in_pyodide

SLICE = 256  # units per PlanJob.step, as a worker slice
RADII = [1.0, 1.5, 3.0]

NOTES = [
    "a unit 1 tile wide, turning radius 1 tile; plan(method='hybrid') as a PlanJob stepped in slices of "
    f"{SLICE} units; ms: wall time of the whole plan (options, region check, every step, the exact legality check)",
    "cold: the first query with every hit-check and heuristic table dropped and a fresh map (table builds "
    "included); warm: the same map again (its windows, regions and the goal's heuristic kept); fresh map: a new "
    "copy of the map per query (the unit kind's tables kept)",
    "met?: the warm median below Pinter's time; best: the fastest warm query (least disturbed by other work on "
    "the machine)",
    "windows: directional_bench's 60x60 windows and queries (start and goal at least 12 tiles apart, start "
    "facing a lattice heading, goal at any heading); medians over the queries both methods found, one untimed "
    "query per window and method first",
    "stages: the hybrid's steps the query ran (Figure 21b's A* is not misled, so no Directional-8 patch); "
    "Pinter's times are his 2001 machine's, quoted from the article",
]


def make_request(ctx: Context) -> dict:
    return {"repeats": 5 if ctx.quick else 25, "slice": SLICE, "data_dir": str(need_data()),
            "maps": ctx.maps or (QUICK_MAPS if ctx.quick else MAPS), "windows_per_map": 1 if ctx.quick else 2,
            "queries_per_window": ctx.per_map or (4 if ctx.quick else 6), "radii": RADII, "seed": ctx.seed,
            "max_expansions": 200_000}


def finish(res: SectionResult, result: dict, runtime: str, judged: bool) -> SectionResult:
    rows, wrong = [], 0
    for f in result["figures"]:
        met = ""
        if judged:
            met = "yes" if f["warm"]["median_ms"] < f["pinter_ms"] else "**no**"
        warm = f["warm"]
        rows.append([f["figure"], " + ".join(f["stages"]), fmt_ms(f["cold_ms"]), fmt_ms(warm["median_ms"]),
                     fmt_ms(warm["best_ms"]), fmt_ms(warm["p90_ms"]), fmt_ms(f["fresh"]["median_ms"]),
                     fmt_num(warm["expanded"]),
                     f"{f['length']:.1f}", f"< {f['pinter_ms']:g}", met])
        wrong += len(f["wrong"])
        res.notes += [f"{runtime}: WRONG: {w}" for w in f["wrong"]]
    res.tables.append(Table(f"{runtime}: the hybrid on Pinter's figures",
                            ["figure", "stages", "cold ms", "warm median ms", "warm best ms", "warm p90 ms",
                             "fresh-map median ms", "expanded", "length", "Pinter ms", "met?"], rows))
    w_rows = []
    for w in result.get("windows", []):
        h, d = w["median_ms"]["hybrid"], w["median_ms"]["directional24"]
        found = w["found"]
        w_rows.append([f"{w['radius']:g}", w["windows"], w["queries"], found["directional24"], found["hybrid"],
                       w["fallbacks"], fmt_ms(h), fmt_ms(d), "-" if not h or not d else f"{d / h:.1f}x"])
        wrong += len(w["wrong"])
        res.notes += [f"{runtime}: WRONG: {x}" for x in w["wrong"]]
    if w_rows:
        res.tables.append(Table(f"{runtime}: the hybrid beside Directional-24 on 60x60 Moving AI windows",
                                ["radius", "windows", "queries", "directional24 found", "hybrid found",
                                 "of those by its fallback", "hybrid median ms", "directional24 median ms",
                                 "hybrid faster by"], w_rows))
    rt = result["runtime"]
    res.notes = [f"runtime: Python {rt.get('python')}" + (f", Pyodide {rt['pyodide']}" if rt.get("pyodide") else "")
                 + f", numpy {rt.get('numpy')}, arcstar {rt.get('arcstar')} ({core_name()})"] + NOTES + res.notes
    if not judged:
        res.notes.append("the goal is judged in Pyodide (section hybrid_pyodide)")
    res.data, res.wrong_answers = result, wrong
    return res


def hybrid_cpython(ctx: Context) -> SectionResult:
    """The hybrid on Figures 20, 21a and 21b on this CPython."""
    from bench import hybrid_bench

    res = SectionResult("hybrid_cpython", "The hybrid on CPython: Pinter's Figures 20, 21a, 21b")
    return finish(res, hybrid_bench.run_request(make_request(ctx), ctx.log), f"CPython {sys.version.split()[0]}",
                  judged=False)


def hybrid_pyodide(ctx: Context) -> SectionResult:
    """The same inside Pyodide under Node.js (the goal is judged here)."""
    res = SectionResult("hybrid_pyodide", "The hybrid in Pyodide (Node.js): Pinter's Figures 20, 21a, 21b")
    result, under = run_in_pyodide(ctx, "hybrid_bench", make_request(ctx), str(need_data()), timeout=1800)
    rt = result["runtime"]
    return finish(res, result, f"Pyodide {rt.get('pyodide')} (Python {rt.get('python')}) {under}", judged=True)


SECTIONS = {"hybrid_cpython": hybrid_cpython, "hybrid_pyodide": hybrid_pyodide}
