"""Fog re-planning (issue 11): D* Lite's incremental re-plan against a fresh A* per discovery.

- ``fog_cpython``: bench/fog_bench.py on this CPython.
- ``fog_pyodide``: the same module inside Pyodide under Node.js (bench/pyodide_runner.mjs).

Target (issue 11): on 128x128 and 256x256 maps, at least 5x fewer expansions per re-plan than a
fresh A* after each discovery. Maps: 20% random walls, and windows of a Moving AI city map when
the benchmarks are there (``build.benchmarks_source()``).
"""

from __future__ import annotations

import tempfile

from bench.common import Context, SectionResult, Table, data_dir, fmt_ms, fmt_num, fmt_ratio

TARGET = 5.0  # x fewer expansions per re-plan


def make_request(ctx: Context) -> dict:
    folder = data_dir()
    return {"sizes": [128, 256], "kinds": ["random", "movingai"], "walks": 1 if ctx.quick else 3,
            "seed": ctx.seed, "radius": 5.0, "data_dir": str(folder) if folder else None}


def fog_table(caption: str, result: dict) -> tuple[Table, int]:
    rows, wrong = [], 0
    for r in result["results"]:
        wrong += r["wrong"]
        first = sum(e for e, _ms in r["first_plan"]) / len(r["first_plan"])
        first_astar = sum(e for e, _ms in r["first_astar"]) / len(r["first_astar"])
        rows.append([
            r["map"], f"{r['arrived']}/{r['walks']}", r["discoveries"],
            fmt_num(r["incremental_expansions"]), fmt_num(r["astar_expansions"]),
            fmt_ratio(r["expansion_ratio"]), fmt_ratio(r["total_expansion_ratio"]),
            fmt_ms(r["incremental_ms"]), fmt_ms(r["astar_ms"]), fmt_ms(r["astar_with_graph_ms"]),
            fmt_ratio(r["time_ratio"]), fmt_ratio(r["time_ratio_with_graph"]),
            f"{fmt_num(first)} / {fmt_num(first_astar)}", r["wrong"],
        ])
    headers = ["map", "arrived", "discoveries", "D* Lite exp. (median)", "A* exp. (median)",
               "exp. ratio (medians)", "exp. ratio (totals)", "D* Lite ms (median)", "A* ms (median)",
               "A* + graph ms (median)", "time ratio", "time ratio (A* + graph)",
               "first plan exp. D* Lite / A*", "cost mismatches"]
    return Table(caption, headers, rows), wrong


NOTES = [
    "A unit with sight radius 5 (between tile centres) walks from a start to a goal at least 0.6 of the "
    "map apart, knowing nothing at first (unknown tiles planned as open ground); 8 neighbours, no "
    "corner cutting, steps of 1 and sqrt 2. Each step it moves to the next tile of its plan and sees; "
    "a discovery is a step whose sight changed the known map.",
    "Per discovery: D* Lite (`arcstar.search.incremental.IncrementalPlanner`: move_to + update + plan, "
    "timed together) and, on the same known map, a fresh A* (`AStar`, octile H) from the unit's tile: "
    "A* ms is the search alone, A* + graph also builds the `GridGraph` of the changed map, which a "
    "fresh search needs and D* Lite does not. Both costs are compared (cost mismatches: must be 0).",
    f"Target: expansions ratio >= {TARGET:g}x. The median re-plan is what a unit pays per discovery; "
    "the totals (sum of A*'s expansions over all discoveries / sum of D* Lite's) include D* Lite's "
    "rare large re-plans: a wall found near the unit after a long optimistic plan makes the search "
    "from the goal expand the band of nodes whose key is below the start's, where a search from the "
    "start stops at the detour. First plans are not in either ratio: D* Lite's searches from the goal "
    "and on open unknown ground expands the ties between goal and start (its keys break ties toward "
    "the goal it searches from), where A* breaks them toward the goal it searches to and goes straight.",
    "Time: D* Lite pays more per expansion than the engine's specialised grid loop (rhs upkeep, keys, "
    "lazy heap), so against the A* search alone it is slower per re-plan; a fresh A* on a changed map "
    "also needs the map's graph rebuilt, and against that D* Lite is faster.",
]


def finish(res: SectionResult, result: dict, caption: str) -> SectionResult:
    table, wrong = fog_table(caption, result)
    res.tables.append(table)
    res.wrong_answers = wrong
    res.data = result
    res.notes += NOTES
    if not any("window" in r["map"] for r in result["results"]):
        res.notes.append("no Moving AI benchmarks here (set ARCSTAR_BENCHMARKS): random maps only")
    return res


def fog_cpython(ctx: Context) -> SectionResult:
    """D* Lite re-plans vs a fresh A* per discovery, on CPython."""
    import platform

    from bench import fog_bench  # imports arcstar: only once run.py has put the measured core on the path

    res = SectionResult("fog_cpython", "Fog re-planning on CPython: D* Lite vs a fresh A* per discovery")
    result = fog_bench.run_request(make_request(ctx))
    return finish(res, result, f"CPython {platform.python_version()}")


def fog_pyodide(ctx: Context) -> SectionResult:
    """The same inside Pyodide under Node.js."""
    from bench.sections_search import run_in_pyodide

    res = SectionResult("fog_pyodide", "Fog re-planning in Pyodide (Node.js): D* Lite vs a fresh A* per discovery")
    request = make_request(ctx)
    with tempfile.TemporaryDirectory(prefix="arcstar-bench-") as tmp:  # no Moving AI maps: an empty folder
        result, under = run_in_pyodide(ctx, "fog_bench", request, request["data_dir"] or tmp)
    if request["data_dir"] is None:
        result["results"] = [r for r in result["results"] if "window" not in r["map"]]
    return finish(res, result, f"Pyodide (Python {result['runtime']['python']}) {under}")


SECTIONS = {"fog_cpython": fog_cpython, "fog_pyodide": fog_pyodide}
