"""The Directional A* sections (issue 10, "Speed"): Directional-8/24/48 on 60 x 60 windows of the
Moving AI maps, units of turning radius 1.5 and 3 tiles (1 tile wide), solvable queries only.

- ``directional_cpython``: ``bench/directional_bench.py`` on this CPython.
- ``directional_pyodide``: the same module inside Pyodide under Node.js (``pyodide_runner.mjs``).

Targets (issue 10), in Pyodide: Directional-24's median query at most 50 ms, its table build at
most 100 ms, at both radii. Expansions per millisecond are reported beside Nav2's C++ Hybrid A*
(about 1,000).
"""

from __future__ import annotations

from bench.common import Context, SectionResult, Table, fmt_ms, fmt_num
from bench.sections_search import core_name, need_data, run_in_pyodide

MAPS = ["lak303d", "brc202d", "AR0011SR", "Berlin_0_256", "ca_cave", "8room_000", "AcrosstheCape"]
QUICK_MAPS = ["lak303d", "AR0011SR", "Berlin_0_256"]
RADII = [1.5, 3.0]
QUERY_TARGET_MS, TABLE_TARGET_MS = 50.0, 100.0  # Directional-24, in Pyodide
NAV2_EXP_PER_MS = 1000


def make_request(ctx: Context) -> dict:
    return {
        "data_dir": str(need_data()),
        "maps": ctx.maps or (QUICK_MAPS if ctx.quick else MAPS),
        "windows_per_map": 1 if ctx.quick else 2,
        "queries_per_window": ctx.per_map or (4 if ctx.quick else 6),
        "radii": RADII,
        "width": 1.0,
        "seed": ctx.seed,
        "min_distance": 12,
        "min_open": 0.45,
        "builds": 3,
        "max_expansions": 200_000,
    }


def tables_for(result: dict, runtime: str, judged: bool) -> tuple[list[Table], list[str], int]:
    """The query table and the table-build table of one runtime; the notes; wrong answers."""
    q_rows, t_rows, notes = [], [], []
    wrong = 0
    for rad in result["radii"]:
        r = rad["radius"]
        for row in rad["rows"]:
            target, met = "", ""
            if judged and row["method"] == "directional24":
                target = f"<= {QUERY_TARGET_MS:g} ms"
                met = "-" if row["median_ms"] is None else ("yes" if row["median_ms"] <= QUERY_TARGET_MS else "**no**")
            failed = ", ".join(row["failed_statuses"])
            q_rows.append([f"{r:g}", row["method"], row["solvable"], row["found"], fmt_ms(row["median_ms"]),
                           fmt_ms(row.get("median_cpu_ms")), fmt_ms(row["p90_ms"]), fmt_num(row["median_expanded"]),
                           fmt_num(row["exp_per_ms"]),
                           fmt_ms(row["setup_ms"]), f"{row['failed']}" + (f" ({failed})" if failed else ""),
                           fmt_ms(row["failed_median_ms"]), row["illegal"], target, met])
        for t in rad["tables"]:
            target, met = "", ""
            if judged and t["method"] == "directional24":
                target = f"<= {TABLE_TARGET_MS:g} ms"
                met = "yes" if t["build_ms"] <= TABLE_TARGET_MS else "**no**"
            t_rows.append([f"{r:g}", t["method"], fmt_ms(t["build_ms"]), fmt_ms(t.get("cpu_ms")), t.get("moves", ""),
                           t.get("computed", ""),
                           (f"{t['window']}x{t['window']}" if "window" in t else ""), target, met])
        ex = rad["excluded"]
        notes.append(f"{runtime}, radius {r:g}: {rad['windows']} windows; excluded (Directional-48 found no path): "
                     f"{ex['unsolvable']} no_path, {ex['reference_gave_up']} over the expansion budget")
        for w in rad["wrong"]:
            notes.append(f"{runtime}: WRONG: {w}")
        wrong += len(rad["wrong"]) + sum(row["illegal"] for row in rad["rows"])
    q = Table(f"{runtime}: queries (solvable only)",
              ["radius", "method", "solvable", "found", "median ms", "median CPU ms", "p90 ms", "median expanded",
               "exp/ms",
               "setup ms", "failed", "failed median ms", "illegal", "target", "met?"], q_rows)
    t = Table(f"{runtime}: tables built cold (median of 3; heuristic: once)",
              ["radius", "table", "build ms", "CPU ms", "moves", "computed", "window", "target", "met?"], t_rows)
    return [q, t], notes, wrong


NOTES = [
    "solvable: queries Directional-48 finds a path for (its lattice contains the others', so nothing else "
    "can find one where it does not); only those are timed. found/median/p90/expanded/exp/ms are over the "
    "method's found queries; failed (and its median) over the solvable queries it did not find",
    "median ms: wall time of one plan() (options, heuristic, search, path, exact legality check); CPU ms: "
    "this process's CPU time over the same (time.process_time; Pyodide has no process clock: -), "
    "which other work on a shared machine does not inflate; targets are judged on wall time; exp/ms: "
    f"expansions per ms of the search loop (result.ms), summed over the found queries; Nav2's C++ Hybrid A* "
    f"does about {NAV2_EXP_PER_MS}",
    "setup ms: the first, untimed query per window and method (windows, clearance, region labels of the map)",
    "a unit 1 tile wide, start at a tile centre facing one of the 8 lattice headings, goal at any heading, "
    "start and goal in one region and at least 12 tiles apart; windows at least 45% open",
]


def finish(res: SectionResult, result: dict, runtime: str, judged: bool) -> SectionResult:
    tables, notes, wrong = tables_for(result, runtime, judged)
    res.tables += tables
    rt = result["runtime"]
    res.notes = [f"runtime: Python {rt.get('python')}" + (f", Pyodide {rt['pyodide']}" if rt.get("pyodide") else "")
                 + f", numpy {rt.get('numpy')}, arcstar {rt.get('arcstar')} ({core_name()})"] + NOTES + notes
    if not judged:
        res.notes.append("the targets are judged in Pyodide (section directional_pyodide)")
    res.data = result
    res.wrong_answers = wrong
    return res


def directional_cpython(ctx: Context) -> SectionResult:
    """Directional-8/24/48 on 60x60 Moving AI windows, radius 1.5 and 3, on this CPython."""
    from bench import directional_bench

    res = SectionResult("directional_cpython", "Directional A* on CPython: 60x60 Moving AI windows")
    result = directional_bench.run_request(make_request(ctx), ctx.log)
    import sys

    return finish(res, result, f"CPython {sys.version.split()[0]}", judged=False)


def directional_pyodide(ctx: Context) -> SectionResult:
    """The same inside Pyodide under Node.js (the targets are judged here)."""
    res = SectionResult("directional_pyodide", "Directional A* in Pyodide (Node.js): 60x60 Moving AI windows")
    result, under = run_in_pyodide(ctx, "directional_bench", make_request(ctx), str(need_data()))
    rt = result["runtime"]
    return finish(res, result, f"Pyodide {rt.get('pyodide')} (Python {rt.get('python')}) {under}", judged=True)


SECTIONS = {"directional_cpython": directional_cpython, "directional_pyodide": directional_pyodide}
