"""Grid-search measurement on Moving AI scenarios: arcstar's methods and the PyPI peer.

One module for every runtime: CPython (imported by ``bench/sections_search.py``), Pyodide under
Node.js (``bench/pyodide_runner.mjs`` mounts ``bench/`` and calls ``run_request_json``) and
Pyodide in a browser Web Worker (``bench/browser/bench_worker.js`` calls ``worker_*``). It uses
only the standard library, numpy and arcstar, so it imports the same way in all three.

Rules (the Moving AI metric): 8-connected, straight steps cost 1 and diagonal ones sqrt 2, no
corner cutting (a diagonal step needs both orthogonal neighbours open). arcstar runs as
``plan(map, start, goal, method=..., costs="octile", heuristic="octile", diagonal="both")``;
the peer ``pathfinding`` (PyPI) runs its ``AStarFinder`` with
``DiagonalMovement.only_when_no_obstacle`` and the octile heuristic, which is the same rule.

Each query is timed alone with ``time.perf_counter`` (the per-query cost a caller pays,
including arcstar's option checks and the peer's ``grid.cleanup()``, which its ``find_path``
runs on a used grid). Before the timed queries each method answers one untimed query on the
map (``setup_ms``: graph snapshots, preprocessing such as JPS+ tables, the peer's first use of
its grid). Queries are interleaved: scenario by scenario, every method in turn, so a noisy
neighbour on the machine slows all methods alike. Every answer is checked: its cost against
the scenario's optimal length, and the path itself (connected, on open tiles, no corner cut,
its length equal to the reported cost).
"""

from __future__ import annotations

import gc
import json
import math
import random
import re
import statistics
import sys
import time
from dataclasses import dataclass, field, replace

try:
    from bench.compat import arcstar_module
except ImportError:  # Pyodide and the browser worker: bench/'s files sit on sys.path themselves
    from compat import arcstar_module

SQRT2 = math.sqrt(2.0)
GRID_RULES = {"costs": "octile", "heuristic": "octile", "diagonal": "both"}
KNOWN_OPEN_LISTS = ("heap", "fixed_matrix")  # probed when arcstar does not list its own
PEER_LABEL = "pathfinding A*"
PRIMARY_BUDGET = 4.0

# Map families by file name (Moving AI's sets). The per-query targets hold on the
# Dragon Age (Origins), Baldur's Gate and room maps; the other families are measured too.
FAMILY_PATTERNS = (
    (
        r"^(arena|arena2|brc\d+\w*|lak\d+\w*|den\d+\w*|orz\d+\w*|ost\d+\w*|hrt\d+\w*|isound\d+|combat\d*)$",
        "dao",
    ),
    (r"^(ca_|dr_|ht_|lgt_)", "da2"),
    (r"^AR\d+SR$", "bg512"),
    (r"^maze\d+-", "maze"),
    (r"^random\d+-", "random"),
    (r"^\d+room_", "room"),
    (r"^[A-Z][A-Za-z]+_\d+_\d+$", "street"),
)
FAMILY_NAMES = {
    "dao": "Dragon Age: Origins",
    "da2": "Dragon Age 2",
    "bg512": "Baldur's Gate II",
    "sc1": "StarCraft",
    "maze": "maze",
    "random": "random",
    "room": "rooms",
    "street": "street",
    "other": "other",
}
TARGET_FAMILIES = ("dao", "bg512", "room")


def family_of(name: str) -> str:
    for pattern, fam in FAMILY_PATTERNS:
        if re.search(pattern, name):
            return fam
    # StarCraft maps are CamelCase words without digits (AcrosstheCape, BigGameHunters, ...)
    if re.fullmatch(r"[A-Z][A-Za-z]+", name):
        return "sc1"
    return "other"


# --- scenarios -----------------------------------------------------------------------------------


@dataclass
class Case:
    """One map with its scenarios, ready to query."""

    name: str
    tilemap: object
    scenarios: list
    two_decimals: bool  # "version 1.0" files (Baldur's Gate) print lengths with 2 decimals
    blocked_rows: list = field(default_factory=list)  # blocked[y][x] as plain lists, for checks

    @property
    def family(self) -> str:
        return family_of(self.name)

    def tolerance(self, optimal: float) -> float:
        """How far a cost may sit from the file's length and still be the same cost.

        6 significant digits (relative error < 5e-6) or 8 decimals; Baldur's Gate files print
        2 decimals (absolute error up to 0.005). See shared/benchmarks/README.md.
        """
        return max(1e-5 * optimal, 0.0051 if self.two_decimals else 1e-6)


def load_case(data_dir: str, name: str) -> Case:
    """Read ``maps/<name>.map`` and ``scen/<name>.map.scen`` under ``data_dir``."""
    from arcstar import parse_movingai_map, parse_scen

    with open(f"{data_dir}/maps/{name}.map", encoding="latin-1") as fh:
        tilemap = parse_movingai_map(fh.read())
    with open(f"{data_dir}/scen/{name}.map.scen", encoding="latin-1") as fh:
        text = fh.read()
    first = text.split("\n", 1)[0].strip().lower()
    scenarios = parse_scen(text, tilemap)
    return Case(
        name,
        tilemap,
        scenarios,
        first == "version 1.0",
        [[bool(v) for v in row] for row in tilemap.blocked.tolist()],
    )


def pick(scenarios: list, n: int, seed: int) -> list:
    """A fixed-seed sample of ``n`` scenarios spread over the buckets.

    The scenarios, sorted by (bucket, line), are cut into ``n`` runs of equal size and one is
    drawn from each run, so easy and hard problems appear as often as in the file.
    """
    ordered = sorted(scenarios, key=lambda s: (s.bucket, s.id))
    n = max(0, min(n, len(ordered)))
    rng = random.Random(f"{seed}:{len(ordered)}")
    out = []
    for k in range(n):
        lo = k * len(ordered) // n
        hi = max(lo + 1, (k + 1) * len(ordered) // n)
        out.append(ordered[rng.randrange(lo, hi)])
    return out


def spread_subset(items: list, n: int) -> list:
    """``n`` of ``items``, evenly spaced (the sample of a slow method keeps the bucket spread)."""
    if n >= len(items):
        return list(items)
    if n <= 0:
        return []
    return [items[(2 * k + 1) * len(items) // (2 * n)] for k in range(n)]


# --- checking answers ----------------------------------------------------------------------------


def walk_length(blocked_rows: list, path: list) -> tuple[float | None, str]:
    """The octile length of a path given as tiles, or (None, why) if it is not legal.

    Consecutive points may be further apart than one step (jump points), but only along a
    straight or diagonal line; every tile walked must be open and no diagonal step may cut a
    corner. A one-tile path has length 0.
    """
    if not path:
        return None, "empty path"
    height, width = len(blocked_rows), len(blocked_rows[0])
    length = 0.0
    x, y = int(path[0][0]), int(path[0][1])
    if not (0 <= x < width and 0 <= y < height) or blocked_rows[y][x]:
        return None, f"starts on a blocked or outside tile {(x, y)}"
    for p in path[1:]:
        tx, ty = int(p[0]), int(p[1])
        ddx, ddy = tx - x, ty - y
        if ddx and ddy and abs(ddx) != abs(ddy):
            return None, f"jump {(x, y)} -> {(tx, ty)} is neither straight nor diagonal"
        sx = (ddx > 0) - (ddx < 0)
        sy = (ddy > 0) - (ddy < 0)
        steps = max(abs(ddx), abs(ddy))
        for _ in range(steps):
            nx, ny = x + sx, y + sy
            if not (0 <= nx < width and 0 <= ny < height) or blocked_rows[ny][nx]:
                return None, f"step onto blocked tile {(nx, ny)}"
            if sx and sy:
                if blocked_rows[y][nx] or blocked_rows[ny][x]:
                    return None, f"diagonal step {(x, y)} -> {(nx, ny)} cuts a corner"
                length += SQRT2
            else:
                length += 1.0
            x, y = nx, ny
    return length, ""


def octile_length(path: list) -> float:
    """The length of a polyline of tiles whose pieces are straight or diagonal (octile distance)."""
    total = 0.0
    for a, b in zip(path, path[1:], strict=False):
        dx, dy = abs(b[0] - a[0]), abs(b[1] - a[1])
        total += max(dx, dy) + (SQRT2 - 1.0) * min(dx, dy)
    return total


def judge(case: Case, scen, cost: float | None, path: list | None, claims_optimal: bool) -> dict:
    """Check one answer: its path is legal, ends right, has the reported cost, which is optimal.

    Returns {"ok", "mismatch", "bad_path", "excess" (cost/optimal - 1), "why"}.
    A method that does not claim optimality is not counted as a mismatch for a longer cost
    (its excess is reported instead), only for a cost *below* the optimum or an illegal path.
    """
    out = {"ok": True, "mismatch": False, "bad_path": False, "excess": 0.0, "why": ""}
    if cost is None or path is None:
        out.update(ok=False, mismatch=True, why="no path found")
        return out
    tol = case.tolerance(scen.optimal)
    walked, why = walk_length(case.blocked_rows, path)
    if walked is None:
        out.update(ok=False, bad_path=True, why=why)
    elif tuple(path[0]) != tuple(scen.start) or tuple(path[-1]) != tuple(scen.goal):
        out.update(ok=False, bad_path=True, why=f"path runs {tuple(path[0])} -> {tuple(path[-1])}")
    elif abs(walked - cost) > max(1e-6 * max(cost, 1.0), 1e-9):
        out.update(ok=False, bad_path=True, why=f"path walks {walked:.6f} but cost says {cost:.6f}")
    if scen.optimal > 0:
        out["excess"] = cost / scen.optimal - 1.0
    if cost < scen.optimal - tol or (claims_optimal and cost > scen.optimal + tol):
        out.update(
            ok=False,
            mismatch=True,
            why=(out["why"] + "; " if out["why"] else "") + f"cost {cost:.6f} vs optimal {scen.optimal}",
        )
    return out


# --- arcstar -------------------------------------------------------------------------------------


@dataclass
class Variant:
    """One arcstar method with one open list, as run here."""

    label: str
    options: dict
    slow: bool = False  # measured on a smaller sample (Dijkstra)
    stepped: bool = True  # may run as PlanJob steps with a deadline (checked in warm_up)
    primary: bool = True  # a method with its default open list: the rows the targets judge

    @property
    def budget_factor(self) -> float:
        """Primary rows get PRIMARY_BUDGET x the time budget: they should answer every scenario."""
        return PRIMARY_BUDGET if self.primary and not self.slow else 1.0


def _default_open_list() -> str | None:
    """arcstar's default open list, or None if it has no such option: ``PlanOptions().open_list``
    in the flat layout, ``PlanOptions().search.open_list`` in the layered one."""
    from arcstar import PlanOptions

    opts = PlanOptions()
    for holder in (opts, getattr(opts, "search", None)):
        value = getattr(holder, "open_list", None)
        if isinstance(value, str):
            return value
    return None


def _open_lists() -> tuple[list, str | None]:
    """(open-list names arcstar accepts, its default); ([], None) if it has no such option."""
    default = _default_open_list()
    if default is None:
        return [], None
    listed = None
    for mod_name in ("arcstar.openlists", "arcstar.planner"):
        try:
            mod = arcstar_module(mod_name)
        except ImportError:
            continue
        for attr in ("OPEN_LISTS", "OPEN_LIST_KINDS"):
            val = getattr(mod, attr, None)
            if isinstance(val, (tuple, list, dict)) and val:
                listed = [str(v) for v in val]
                break
        if listed:
            break
    candidates = listed or list(KNOWN_OPEN_LISTS)
    if default and default not in candidates:
        candidates.insert(0, default)
    return candidates, default


def discover_variants() -> tuple[list[Variant], list[str]]:
    """Every (method, open list) that arcstar accepts now, probed on a small map.

    Returns (variants, notes): notes say what was found or refused, for the report.
    """
    import arcstar
    import arcstar.planner as planner

    # a tuple of names (flat layout) or a mapping name -> spec (layered): its keys either way
    methods = [str(m) for m in getattr(planner, "METHODS", ("astar",))]
    open_lists, default_ol = _open_lists()
    notes = [f"arcstar methods: {', '.join(methods)}"]
    if open_lists:
        notes.append(f"open lists: {', '.join(open_lists)} (default {default_ol})")
    probe = arcstar.parse_ascii("S...#\n.##.#\n....E\n").map
    variants = []
    skipped_dijkstra: list[str] = []
    for method in methods:
        for ol in open_lists or [None]:
            if method == "dijkstra" and ol is not None and ol != default_ol and len(open_lists) > 1:
                # Dijkstra is A* without H: the open lists are compared on A*. "dijkstra [x]" in
                # --methods asks for it all the same (see run_request).
                skipped_dijkstra.append(f"{method} [{ol}]")
                continue
            opts = dict(GRID_RULES, method=method)
            if ol is not None:
                opts["open_list"] = ol
            label = method if ol is None or len(open_lists) == 1 else f"{method} [{ol}]"
            try:
                r = arcstar.plan(probe, (0, 0), (4, 2), **opts)
                if r.status != "found":
                    raise ValueError(f"status {r.status} on the probe map")
            except Exception as exc:  # noqa: BLE001 - a refused combination is reported, not fatal
                msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                if ol is not None:
                    notes.append(f"{label}: not measured ({msg[:100]})")
                else:
                    notes.append(f"{method}: not measured ({msg[:100]})")
                continue
            primary = ol is None or ol == default_ol
            variants.append(Variant(label, opts, slow=(method == "dijkstra"), primary=primary))
    # A method that takes one open list only is labelled by its name alone.
    for method in methods:
        mine = [v for v in variants if v.options["method"] == method]
        if len(mine) == 1 and len(open_lists) > 1:
            mine[0].label = method
    if skipped_dijkstra:
        notes.append(
            f"not run unless named with --methods: {', '.join(skipped_dijkstra)} (the open lists are compared on A*)"
        )
    return variants, notes


def all_variants(include: list | None = None) -> tuple[list[Variant], list[str]]:
    """``discover_variants`` filtered by labels or method names (None: the default set).

    A label that the default set leaves out (``dijkstra [unsorted]``) is built on request.
    """
    variants, notes = discover_variants()
    if not include:
        return variants, notes
    chosen = [v for v in variants if v.label in include or v.options["method"] in include]
    have = {v.label for v in chosen}
    for want in include:
        m = re.fullmatch(r"(\w+) \[(\w+)\]", want)
        if m and want not in have:
            opts = dict(GRID_RULES, method=m.group(1), open_list=m.group(2))
            chosen.append(Variant(want, opts, slow=(m.group(1) == "dijkstra"), primary=False))
    return chosen, notes


def _stepper():
    """Run a plan as ``plan()`` does (``PlanJob`` stepped 8192 expansions at a time) but give up
    at a deadline, so a slow method cannot overrun its time budget by minutes. None when arcstar
    has no ``PlanJob``; then queries run through ``plan()`` and are never cut."""
    try:
        from arcstar import PlanJob, PlanOptions
    except ImportError:
        return None
    if not all(hasattr(PlanJob, a) for a in ("step", "result", "cancel")):
        return None

    def run(tilemap, start, goal, options: dict, deadline: float):
        job = PlanJob(tilemap, start, goal, PlanOptions.from_dict(options))
        while job.step(8192) == "running":
            if time.perf_counter() > deadline:
                job.cancel()
                return None
        return job.result()

    return run


def same_answer(a, b) -> bool:
    return (a.status, a.cost, list(a.path), a.expanded) == (b.status, b.cost, list(b.path), b.expanded)


def arcstar_query(case: Case, variant: Variant, scen, deadline: float | None = None) -> dict:
    """One timed query. With a deadline (and a variant whose stepped run was checked to give
    plan()'s answer) it may come back {"timed_out": True} instead of an answer."""
    from arcstar import plan

    stepper = _stepper() if deadline is not None and variant.stepped else None
    t0 = time.perf_counter()
    if stepper is None:
        r = plan(case.tilemap, scen.start, scen.goal, **variant.options)
    else:
        r = stepper(case.tilemap, scen.start, scen.goal, variant.options, deadline)
    ms = (time.perf_counter() - t0) * 1000.0
    if r is None:
        return {"ms": ms, "timed_out": True}
    found = r.status == "found"
    verdict = judge(
        case,
        scen,
        r.cost if found else None,
        list(r.path) if found else None,
        bool(getattr(r, "optimal", False)),
    )
    return {
        "ms": ms,
        "expanded": int(r.expanded),
        "cost": r.cost,
        "optimal_claim": bool(r.optimal),
        **verdict,
    }


def warm_up(case: Case, variant: Variant, scen) -> float:
    """The untimed first query of a variant on a map (graph snapshot, preprocessing): its ms.

    Also checks that the stepped run (used for time budgets) answers exactly as ``plan()``
    does on this map; if not, the variant runs through ``plan()`` only, without a deadline."""
    from arcstar import plan

    t0 = time.perf_counter()
    r = plan(case.tilemap, scen.start, scen.goal, **variant.options)
    ms = (time.perf_counter() - t0) * 1000.0
    stepper = _stepper()
    if stepper is None:
        variant.stepped = False
    elif variant.stepped:
        again = stepper(case.tilemap, scen.start, scen.goal, variant.options, math.inf)
        variant.stepped = again is not None and same_answer(r, again)
    return ms


# --- the PyPI peer -------------------------------------------------------------------------------


class PypiPeer:
    """``pathfinding`` (PyPI): A* with DiagonalMovement.only_when_no_obstacle and octile H."""

    def __init__(self, case: Case) -> None:
        from pathfinding.core.diagonal_movement import DiagonalMovement
        from pathfinding.core.grid import Grid
        from pathfinding.core.heuristic import octile
        from pathfinding.finder.a_star import AStarFinder

        t0 = time.perf_counter()
        matrix = [[0 if b else 1 for b in row] for row in case.blocked_rows]
        self.grid = Grid(matrix=matrix)
        self.build_ms = (time.perf_counter() - t0) * 1000.0
        self.finder = AStarFinder(diagonal_movement=DiagonalMovement.only_when_no_obstacle, heuristic=octile)
        self.case = case

    def query(self, scen) -> dict:
        grid, finder = self.grid, self.finder
        (sx, sy), (gx, gy) = scen.start, scen.goal
        t0 = time.perf_counter()
        # find_path runs grid.cleanup() itself when the grid was used before (grid.dirty)
        path, runs = finder.find_path(grid.node(sx, sy), grid.node(gx, gy), grid)
        ms = (time.perf_counter() - t0) * 1000.0
        tiles = [(n.x, n.y) for n in path] if path else None
        cost = octile_length(tiles) if tiles else None
        verdict = judge(self.case, scen, cost, tiles, True)
        # runs = iterations of its main loop = nodes taken off the open list and closed
        return {"ms": ms, "expanded": int(runs), "cost": cost, **verdict}


def pypi_peer_version() -> str | None:
    try:
        from importlib.metadata import version

        return version("pathfinding")
    except Exception:  # noqa: BLE001
        return None


# --- one map -------------------------------------------------------------------------------------


def _summary(label: str, who: str, records: list, setup_ms: float | None, extra: dict | None = None) -> dict:
    ms = [r["ms"] for r in records]
    exp = [r["expanded"] for r in records if r.get("expanded") is not None]
    bad = [r for r in records if not r["ok"]]
    out = {
        "label": label,
        "who": who,
        "queries": len(records),
        "median_ms": statistics.median(ms) if ms else None,
        "mean_ms": statistics.fmean(ms) if ms else None,
        "max_ms": max(ms) if ms else None,
        "median_expanded": statistics.median(exp) if exp else None,
        "setup_ms": setup_ms,
        "mismatches": sum(1 for r in records if r["mismatch"]),
        "bad_paths": sum(1 for r in records if r["bad_path"]),
        "max_excess": max((r["excess"] for r in records), default=0.0),
        "problems": [f"scenario {r.get('scenario')}: {r['why']}" for r in bad][:5],
        # (scenario id, ms, expanded) per query, so ratios can be taken on the same scenarios
        "per_query": [[r.get("scenario"), round(r["ms"], 4), r.get("expanded")] for r in records],
    }
    if extra:
        out.update(extra)
    return out


def _error_row(label: str, who: str, error: str | None, setup_ms: float | None = None) -> dict:
    return {
        "label": label,
        "who": who,
        "queries": 0,
        "error": error,
        "median_ms": None,
        "median_expanded": None,
        "mismatches": 0,
        "bad_paths": 0,
        "setup_ms": setup_ms,
        "max_excess": 0.0,
        "problems": [],
        "per_query": [],
    }


def run_order(sample: list, seed: int) -> list:
    """The sample in a fixed shuffled order: a method cut short by its time budget still has
    answered a spread of easy and hard problems."""
    order = list(sample)
    random.Random(f"order:{seed}").shuffle(order)
    return order


def measure_case(
    case: Case,
    sample: list,
    variants: list[Variant],
    slow_n: int,
    with_peer: bool = True,
    progress=None,
    budget_s: float | None = None,
    seed: int = 1,
    peer_budget_s: float | None = None,
) -> dict:
    """Time every variant (and the peer) on ``sample``, interleaved; return the map's summary.

    budget_s: a method whose timed queries on this map add up to more stops there (its row
    says so; a query still running at the budget is cut). peer_budget_s: the same for the peer,
    whose queries are never cut. Ratios are then taken on the scenarios both answered.
    """
    variants = [replace(v) for v in variants]  # warm_up may mark one as not steppable here
    slow_ids = {s.id for s in spread_subset(sample, slow_n)}
    records: dict[str, list] = {v.label: [] for v in variants}
    spent: dict[str, float] = {v.label: 0.0 for v in variants}
    setup: dict[str, float | None] = {}
    errors: dict[str, str] = {}
    stopped: dict[str, str] = {}
    gc.collect()
    warm = sample[0] if sample else None
    for v in variants:
        if warm is None:
            break
        try:
            setup[v.label] = warm_up(case, v, warm)
        except Exception as exc:  # noqa: BLE001 - reported in the table
            errors[v.label] = f"{type(exc).__name__}: {exc}"[:200]
    peer = None
    peer_records: list = []
    peer_note = None
    if with_peer:
        try:
            peer = PypiPeer(case)
            if warm is not None:
                t0 = time.perf_counter()
                peer.query(warm)
                setup["peer"] = (time.perf_counter() - t0) * 1000.0 + peer.build_ms
        except ImportError as exc:
            peer_note = f"pathfinding not installed ({exc})"
            peer = None
    peer_spent, peer_stopped = 0.0, None
    t_start = time.perf_counter()
    for k, scen in enumerate(run_order(sample, seed)):
        for v in variants:
            if v.label in errors or v.label in stopped or (v.slow and scen.id not in slow_ids):
                continue
            deadline, budget = None, None
            if budget_s is not None:
                budget = budget_s * v.budget_factor
                deadline = time.perf_counter() + max(0.0, budget - spent[v.label])
            try:
                rec = arcstar_query(case, v, scen, deadline)
            except Exception as exc:  # noqa: BLE001
                errors[v.label] = f"{type(exc).__name__}: {exc}"[:200]
                continue
            spent[v.label] += rec["ms"] / 1000.0
            if rec.get("timed_out"):
                stopped[v.label] = (
                    f"time budget of {budget:g} s on this map used up (a query was cut after {rec['ms'] / 1000:.1f} s)"
                )
                continue
            rec["scenario"] = scen.id
            records[v.label].append(rec)
            if budget is not None and spent[v.label] > budget:
                stopped[v.label] = f"time budget of {budget:g} s on this map used up"
        if peer is not None and peer_stopped is None:
            rec = peer.query(scen)
            rec["scenario"] = scen.id
            peer_records.append(rec)
            peer_spent += rec["ms"] / 1000.0
            if peer_budget_s is not None and peer_spent > peer_budget_s:
                peer_stopped = f"time budget of {peer_budget_s:g} s on this map used up"
        if progress is not None and (k + 1) % 10 == 0:
            progress(f"  {case.name}: {k + 1}/{len(sample)} scenarios, {time.perf_counter() - t_start:.1f} s")
    rows = []
    for v in variants:
        if v.label in errors and not records[v.label]:
            rows.append(_error_row(v.label, "arcstar", errors[v.label], setup.get(v.label)))
            continue
        optimal = all(r.get("optimal_claim") for r in records[v.label]) if records[v.label] else None
        rows.append(
            _summary(
                v.label,
                "arcstar",
                records[v.label],
                setup.get(v.label),
                {
                    "method": v.options.get("method"),
                    "open_list": v.options.get("open_list"),
                    "primary": v.primary,
                    "optimal": optimal,
                    "error": errors.get(v.label),
                    "stopped": stopped.get(v.label),
                },
            )
        )
    if peer is not None:
        rows.append(
            _summary(
                PEER_LABEL,
                "peer",
                peer_records,
                setup.get("peer"),
                {"grid_build_ms": peer.build_ms, "optimal": True, "stopped": peer_stopped},
            )
        )
    elif with_peer:
        rows.append(_error_row(PEER_LABEL, "peer", peer_note))
    return {
        "map": case.name,
        "family": case.family,
        "size": f"{case.tilemap.width}x{case.tilemap.height}",
        "sample": [s.id for s in sample],
        "rows": rows,
    }


# --- requests (the same JSON in every runtime) ---------------------------------------------------


def runtime() -> dict:
    import numpy

    import arcstar

    info = {
        "python": ".".join(map(str, sys.version_info[:3])),
        "platform": sys.platform,
        "numpy": numpy.__version__,
        "arcstar": getattr(arcstar, "__version__", "?"),
        "pathfinding": pypi_peer_version(),
    }
    if sys.platform == "emscripten":
        try:
            import pyodide

            info["pyodide"] = getattr(pyodide, "__version__", "?")
        except ImportError:
            pass
    return info


def run_request(request: dict, progress=None) -> dict:
    """Measure the maps a request names.

    request: {"data_dir", "maps": [{"name", "n", "slow_n"}], "seed", "methods": [labels] | null,
    "peer": bool, "budget_s": seconds per method per map | null, "peer_budget_s": the peer's}.
    Returns {"runtime", "variants", "notes", "maps": [measure_case(...)]}.
    """
    variants, notes = all_variants(request.get("methods"))
    out = {
        "runtime": runtime(),
        "variants": [v.label for v in variants],
        "notes": notes,
        "maps": [],
    }
    for spec in request["maps"]:
        t0 = time.perf_counter()
        case = load_case(request["data_dir"], spec["name"])
        sample = pick(case.scenarios, int(spec["n"]), int(request.get("seed", 1)))
        if progress:
            progress(f"{case.name} ({case.tilemap.width}x{case.tilemap.height}): {len(sample)} scenarios")
        result = measure_case(
            case,
            sample,
            variants,
            int(spec.get("slow_n", len(sample))),
            with_peer=bool(request.get("peer", True)),
            progress=progress,
            budget_s=request.get("budget_s"),
            seed=int(request.get("seed", 1)),
            peer_budget_s=request.get("peer_budget_s"),
        )
        result["seconds"] = time.perf_counter() - t0
        out["maps"].append(result)
        if progress:
            progress(f"{case.name}: done in {result['seconds']:.1f} s")
        del case
        gc.collect()
    return out


def run_request_json(request_json: str) -> str:
    """``run_request`` with JSON in and out, progress on stderr (for Pyodide under Node.js)."""

    def progress(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    return json.dumps(run_request(json.loads(request_json), progress))


# --- the browser worker's entry points -----------------------------------------------------------

_WORKER: dict = {}


def worker_setup(data_dir: str, methods_json: str) -> str:
    """Discover the variants (filtered by a JSON list of labels, or null) once per worker."""
    variants, notes = all_variants(json.loads(methods_json) if methods_json else None)
    _WORKER.update(data_dir=data_dir, variants={v.label: v for v in variants}, case=None)
    return json.dumps(
        {
            "runtime": runtime(),
            "variants": [
                {"label": v.label, "slow": v.slow, "method": v.options["method"], "budget_factor": v.budget_factor}
                for v in variants
            ],
            "notes": notes,
        }
    )


def worker_load_map(name: str, sample_n: int, slow_n: int, seed: int) -> str:
    """Load a map (its files are already in the worker's file system) and pick its sample.

    The sample comes back in run order (``run_order``), with the ids Dijkstra runs on."""
    _WORKER["case"] = None
    gc.collect()
    case = load_case(_WORKER["data_dir"], name)
    sample = pick(case.scenarios, sample_n, seed)
    _WORKER["case"] = case
    _WORKER["by_id"] = {s.id: s for s in case.scenarios}
    return json.dumps(
        {
            "map": name,
            "family": case.family,
            "width": case.tilemap.width,
            "height": case.tilemap.height,
            "two_decimals": case.two_decimals,
            "sample": [
                {
                    "id": s.id,
                    "bucket": s.bucket,
                    "start": list(s.start),
                    "goal": list(s.goal),
                    "optimal": s.optimal,
                }
                for s in run_order(sample, seed)
            ],
            "slow_ids": [s.id for s in spread_subset(sample, slow_n)],
        }
    )


def worker_warm_up(label: str, scenario_id: int) -> str:
    """The untimed first query of a variant on the loaded map: {"ms"}."""
    variant = _WORKER["variants"][label]
    variant.stepped = True
    ms = warm_up(_WORKER["case"], variant, _WORKER["by_id"][scenario_id])
    return json.dumps({"ms": ms, "stepped": variant.stepped})


def worker_query(label: str, scenario_id: int, budget_ms: float | None = None) -> str:
    """One timed arcstar query in the worker: {"ms", "expanded", "cost", "ok", ...}, or
    {"ms", "timed_out": true} when it ran past ``budget_ms``."""
    case = _WORKER["case"]
    deadline = None if budget_ms is None else time.perf_counter() + max(0.0, budget_ms) / 1000.0
    rec = arcstar_query(case, _WORKER["variants"][label], _WORKER["by_id"][scenario_id], deadline)
    return json.dumps(rec)
