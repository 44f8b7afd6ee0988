"""``engine_compare``: the engine's A*, Dijkstra, JPS and JPS+ per query, old core vs new, in one run.

The "new" core is the one every section measures (this tree's pycore/, or --pycore); the "old"
one is --old-pycore DIR, or pycore/arcstar of --old-commit REV (default BASELINE_COMMIT) taken
with ``git archive`` into the cache (no checkout needed). Each runtime gets two workers, one per
core (``engine_bench.py``: CPython subprocesses; ``engine_worker.mjs``: Pyodide under Node.js),
and sends both the same requests: the same maps, the same sample of scenarios as the search
sections, query by query in the order A B B A (which core is A alternating), so machine load
falls on both alike. Only one worker runs at a time.
"""

from __future__ import annotations

import io
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
from collections import deque
from pathlib import Path

from bench import common
from bench import search_bench as sb
from bench.common import BENCH, ROOT, BenchError, Context, SectionResult, Table, cache_dir, fmt_ms, fmt_num
from bench.engine_bench import METHODS, RULES
from bench.sections_search import core_name, need_data, plan_maps, pyodide_package_dir, pyodide_runtime_dir

# The commit before the core was reshaped into layered subpackages (arcstar.maps, arcstar.search,
# arcstar.planner, ...): the "old" core unless --old-commit or --old-pycore says otherwise.
BASELINE_COMMIT = "1e44237"
# Per method, map and core: past this many seconds of timed queries a method stops on the map
# (for both cores); --quick halves it.
BUDGET_S = {"CPython": 20.0, "Pyodide": 40.0}
EXACT_EXPANSIONS = ("astar", "dijkstra")  # the same search order: the same nodes expanded
# Each query runs on the cores in the order A B B A (A: old and new by turns), each turn running it
# REPEATS times back to back (the first run after the other core's turn meets cold caches); a
# core's time for the query is its fastest run. A burst of load from elsewhere then rarely hits
# one core's runs only.
REPEATS = 2


class WorkerError(RuntimeError):
    """A worker died or answered with an error."""


class Worker:
    """One core in one runtime: a subprocess that takes a JSON request per line on stdin and
    answers `REPLY {json}` on stdout; its stderr goes to the log."""

    def __init__(self, label: str, cmd: list[str], data_dir: str, ctx: Context) -> None:
        self.label, self.data_dir = label, data_dir
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}  # both cores alike
        self.proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.tail: deque[str] = deque(maxlen=20)

        def drain() -> None:
            assert self.proc.stderr is not None
            for line in self.proc.stderr:
                self.tail.append(line.rstrip())
                ctx.log(f"{label}: {line.rstrip()}")

        threading.Thread(target=drain, daemon=True).start()

    def call(self, op: str, **fields) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(json.dumps({"op": op, **fields}) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass  # reported below, with the worker's last words
        while True:
            line = self.proc.stdout.readline()
            if not line:
                code = self.proc.wait(timeout=30)
                raise WorkerError(f"{self.label} exited (code {code}) during '{op}':\n" + "\n".join(self.tail))
            if line.startswith("REPLY "):
                reply = json.loads(line[len("REPLY ") :])
                break
        if "error" in reply:
            raise WorkerError(f"{self.label}, '{op}': {reply['error']}")
        return reply

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# --- the two cores -------------------------------------------------------------------------------


def old_core_from_git(rev: str, ctx: Context) -> tuple[Path, str]:
    """(folder holding arcstar/, description): pycore/arcstar of commit ``rev``, extracted with
    ``git archive`` once into ``<cache>/bench-old-pycore/<sha>/`` (outside the repo)."""
    if shutil.which("git") is None:
        raise BenchError("git is not on PATH: pass the old core with --old-pycore DIR")
    proc = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    if proc.returncode != 0 or not proc.stdout.strip():
        raise BenchError(
            f"--old-commit {rev} is not a commit in this clone's history (a shallow clone: "
            "`git fetch --unshallow`); or pass the old core with --old-pycore DIR"
        )
    sha = proc.stdout.strip()
    dest = cache_dir() / "bench-old-pycore" / sha
    desc = f"commit {sha[:10]} (`git archive` into the build cache)"
    if (dest / "arcstar" / "__init__.py").is_file():
        return dest, desc
    ctx.log(f"engine_compare: extracting pycore/arcstar of {sha[:10]} into {dest}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging.", dir=dest.parent))
    try:
        arch = subprocess.run(
            ["git", "archive", "--format=tar", sha, "pycore/arcstar"], cwd=ROOT, capture_output=True, timeout=300
        )
        if arch.returncode != 0:
            raise BenchError(f"git archive {sha[:10]} pycore/arcstar failed: {arch.stderr.decode()[-300:]}")
        with tarfile.open(fileobj=io.BytesIO(arch.stdout)) as tar:
            tar.extractall(staging, filter="data")
        if not (staging / "pycore" / "arcstar" / "__init__.py").is_file():
            raise BenchError(f"commit {sha[:10]} has no pycore/arcstar package")
        (staging / "core").mkdir()
        (staging / "pycore" / "arcstar").rename(staging / "core" / "arcstar")
        try:
            (staging / "core").rename(dest)
        except OSError:  # another run extracted it meanwhile
            pass
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return dest, desc


def old_core(ctx: Context, tmp: Path) -> tuple[Path, str]:
    """The old core: a copy of --old-pycore DIR taken now, or the commit's from the cache."""
    if ctx.old_pycore is not None:
        src = Path(ctx.old_pycore).resolve()
        shutil.copytree(src / "arcstar", tmp / "old" / "arcstar", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        return tmp / "old", f"{src} (copied at the start of the section)"
    return old_core_from_git(ctx.old_commit or BASELINE_COMMIT, ctx)


# --- measuring -----------------------------------------------------------------------------------


def measure(ctx: Context, old: Worker, new: Worker, methods: list[str], budget_s: float) -> dict:
    """Run both workers side by side over the maps; returns {"runtime", "methods", "notes", "maps"}."""
    notes: list[str] = []
    hello = {"old": old.call("hello"), "new": new.call("hello")}
    usable = []
    for m in methods:
        said = {k: h["methods"].get(m, "not offered") for k, h in hello.items()}
        if all(v == "ok" for v in said.values()):
            usable.append(m)
        else:
            notes.append(f"{m}: not measured ({'; '.join(f'{k}: {v}' for k, v in said.items() if v != 'ok')})")
    if not usable:
        raise WorkerError("no method runs on both cores: " + "; ".join(notes))
    maps_out = []
    for spec in plan_maps(ctx):
        lo = old.call("load", data_dir=old.data_dir, map=spec["name"], n=spec["n"], seed=ctx.seed)
        ln = new.call("load", data_dir=new.data_dir, map=spec["name"], n=spec["n"], seed=ctx.seed)
        theirs = {tuple(map(str, s)) for s in ln["sample"]}
        ids = [s[0] for s in lo["sample"] if tuple(map(str, s)) in theirs]
        if len(ids) != len(lo["sample"]) or len(ids) != len(ln["sample"]):
            notes.append(f"{spec['name']}: the cores read different scenario samples; measured on the {len(ids)} alike")
        slow_ids = set(sb.spread_subset(ids, spec["slow_n"]))
        setup = {}
        if ids:
            for key, w in (("old", old), ("new", new)):
                warm = w.call("warm", methods=usable, scenario=ids[0])
                setup[key] = warm["setup_ms"]
                for m, err in warm["errors"].items():
                    notes.append(f"{spec['name']}: {m} failed on the {key} core's first query: {err}")
        recs: dict = {"old": {m: {} for m in usable}, "new": {m: {} for m in usable}}
        spent = {(k, m): 0.0 for k in recs for m in usable}
        stopped: dict[str, str] = {}
        ctx.log(f"{spec['name']} ({lo['size']}): {len(ids)} scenarios, {', '.join(usable)}")
        turns = 0
        for k, sid in enumerate(sb.run_order(ids, ctx.seed)):
            for m in usable:
                if m in stopped or (m == "dijkstra" and sid not in slow_ids):
                    continue
                first, second = (("old", old), ("new", new)) if turns % 2 == 0 else (("new", new), ("old", old))
                turns += 1
                for key, w in (first, second, second, first):
                    (r,) = w.call("run", jobs=[[m, sid]], repeats=REPEATS)["results"]
                    spent[key, m] += r.get("ms", 0.0) * REPEATS / 1000.0
                    had = recs[key][m].get(sid)
                    if had is None or "error" in r:
                        recs[key][m][sid] = r
                    elif "ms" in had:
                        had["ms"] = min(had["ms"], r["ms"])
                if max(spent["old", m], spent["new", m]) > budget_s:
                    stopped[m] = f"time budget of {budget_s:g} s per core on this map used up"
            if (k + 1) % 10 == 0:
                ctx.log(f"  {spec['name']}: {k + 1}/{len(ids)} scenarios")
        maps_out.append(
            {
                "map": spec["name"],
                "family": lo["family"],
                "size": lo["size"],
                "sample": ids,
                "setup_ms": setup,
                "rows": [summarise(m, recs["old"][m], recs["new"][m], stopped.get(m)) for m in usable],
            }
        )
    return {"runtime": {k: h["runtime"] for k, h in hello.items()}, "methods": usable, "notes": notes, "maps": maps_out}


def summarise(method: str, old: dict, new: dict, stopped: str | None) -> dict:
    """One (map, method) row over the scenarios both cores answered."""
    both = [s for s in old if s in new and "ms" in old[s] and "ms" in new[s]]
    o_ms = [old[s]["ms"] for s in both]
    n_ms = [new[s]["ms"] for s in both]
    om = statistics.median(o_ms) if both else None
    nm = statistics.median(n_ms) if both else None

    def wrong(recs: dict) -> list[str]:
        return [f"scenario {s}: {r.get('error') or r['why']}" for s, r in recs.items() if "error" in r or not r["ok"]]

    return {
        "method": method,
        "queries": len(both),
        "old_median_ms": om,
        "new_median_ms": nm,
        "ratio": om / nm if om is not None and nm else None,  # old / new: > 1 is faster now
        # the median over the scenarios of old ms / new ms: the same comparison, paired
        "paired_ratio": statistics.median(o / n for o, n in zip(o_ms, n_ms) if n > 0) if both else None,
        "old_median_expanded": statistics.median(old[s]["expanded"] for s in both) if both else None,
        "new_median_expanded": statistics.median(new[s]["expanded"] for s in both) if both else None,
        "expanded_differ": [s for s in both if old[s]["expanded"] != new[s]["expanded"]],
        "old_wrong": wrong(old),
        "new_wrong": wrong(new),
        "stopped": stopped,
        "per_query": [
            [s, round(old[s]["ms"], 4), round(new[s]["ms"], 4), old[s]["expanded"], new[s]["expanded"]] for s in both
        ],
    }


# --- the tables ----------------------------------------------------------------------------------


def ratio_cell(v: float | None) -> str:
    return "-" if v is None else f"{v:.2f}x"


def table_for(runtime: str, result: dict, notes: list[str]) -> tuple[Table, Table, int]:
    """(per map and method, per method over the maps, wrong answers)."""
    headers = [
        "map",
        "method",
        "queries",
        "old median ms",
        "new median ms",
        "speed ratio (old/new)",
        "paired ratio",
        "old median expanded",
        "new median expanded",
        "expanded equal?",
        "costs optimal (old, new)",
    ]
    rows, wrong = [], 0
    per_method: dict[str, list[tuple[str, float]]] = {}
    for m in result["maps"]:
        for r in m["rows"]:
            n = r["queries"]
            differ = len(r["expanded_differ"])
            if not differ:
                equal = "yes" if n else "-"
            elif r["method"] in EXACT_EXPANSIONS:
                equal = f"**no: {differ} of {n} differ**"
                notes.append(
                    f"{runtime}: {r['method']} on {m['map']} expanded other node counts on scenarios "
                    f"{r['expanded_differ'][:8]}: the search order changed"
                )
            else:
                equal = f"no ({differ} of {n})"
            ow, nw = len(r["old_wrong"]), len(r["new_wrong"])
            wrong += ow + nw
            costs = "yes, both" if not ow and not nw else f"**old: {ow} wrong, new: {nw} wrong**"
            for who, bad in (("old", r["old_wrong"]), ("new", r["new_wrong"])):
                for p in bad[:3]:
                    notes.append(f"{runtime}: {who} {r['method']} on {m['map']}: {p}")
            if r["stopped"]:
                costs += f"; stopped early: {r['stopped']}"
            rows.append(
                [
                    m["map"],
                    r["method"],
                    n,
                    fmt_ms(r["old_median_ms"]),
                    fmt_ms(r["new_median_ms"]),
                    ratio_cell(r["ratio"]),
                    ratio_cell(r["paired_ratio"]),
                    fmt_num(r["old_median_expanded"]),
                    fmt_num(r["new_median_expanded"]),
                    equal,
                    costs,
                ]
            )
            if r["ratio"] and r["paired_ratio"]:
                per_method.setdefault(r["method"], []).append((m["map"], r["ratio"], r["paired_ratio"]))
    rt = result["runtime"]["new"]
    if rt.get("pyodide"):
        name = f"Pyodide {rt['pyodide']} (Python {rt['python']}) under Node.js"
    else:
        name = f"CPython {rt['python']}"

    def geo(values: list[float]) -> str:
        return ratio_cell(math.exp(statistics.fmean(math.log(v) for v in values)))

    summary = []
    for method, got in per_method.items():
        low = min(got, key=lambda g: g[1])
        low_p = min(got, key=lambda g: g[2])
        summary.append(
            [
                runtime,
                method,
                len(got),
                geo([g[1] for g in got]),
                f"{ratio_cell(low[1])} ({low[0]})",
                geo([g[2] for g in got]),
                f"{ratio_cell(low_p[2])} ({low_p[0]})",
            ]
        )
    over_maps = [
        "runtime",
        "method",
        "maps",
        "speed ratio: geometric mean",
        "lowest (map)",
        "paired ratio: geometric mean",
        "lowest (map)",
    ]
    return (
        Table(f"{name}: old core vs new, side by side", headers, rows),
        Table("speed ratio (old/new) per method over the maps", over_maps, summary),
        wrong,
    )


# --- the section ---------------------------------------------------------------------------------


def cpython_workers(ctx: Context, cores: dict[str, Path], data: Path) -> tuple[Worker, Worker]:
    def make(key: str) -> Worker:
        cmd = [sys.executable, "-u", str(BENCH / "engine_bench.py"), str(cores[key])]
        return Worker(f"cpython {key}", cmd, str(data), ctx)

    return make("old"), make("new")


def pyodide_workers(ctx: Context, cores: dict[str, Path], data: Path, tmp: Path) -> tuple[Worker, Worker]:
    node = shutil.which("node")
    if node is None:
        raise BenchError("node is not on PATH")
    runtime_dir, packages = pyodide_runtime_dir(ctx), pyodide_package_dir(ctx)

    def make(key: str) -> Worker:
        cfg = tmp / f"pyodide-{key}.json"
        cfg.write_text(
            json.dumps(
                {
                    "pyodide_dir": str(runtime_dir),
                    "package_cache_dir": str(packages),
                    "pycore": str(cores[key]),
                    "bench": str(BENCH),
                    "data_dir": str(data),
                }
            )
        )
        return Worker(f"pyodide {key}", [node, str(BENCH / "engine_worker.mjs"), str(cfg)], "/core/data", ctx)

    return make("old"), make("new")


def engine_compare(ctx: Context) -> SectionResult:
    """The engine's A*, Dijkstra, JPS, JPS+ per query: old core vs new, side by side (CPython, Pyodide)."""
    res = SectionResult("engine_compare", "Engine speed, old core vs new, side by side (CPython and Pyodide)")
    methods = [m for m in METHODS if not ctx.methods or m in ctx.methods]
    if not methods:
        raise BenchError(f"none of --methods is one of this section's methods ({', '.join(METHODS)})")
    data = need_data()
    summary = Table("speed ratio (old/new) per method over the maps", [], [])
    with tempfile.TemporaryDirectory(prefix="arcstar-engine-") as tmpname:
        tmp = Path(tmpname)
        old_dir, old_desc = old_core(ctx, tmp)
        cores = {"old": old_dir, "new": common.PYCORE}
        res.notes += [
            f"old core: {old_desc}",
            f"new core: {core_name()}",
            f"each query: `plan(map, start, goal, method=M, {', '.join(f'{k}={v!r}' for k, v in RULES.items())})` "
            "with the default open list, timed alone with time.perf_counter in the worker; median ms is over "
            "the scenarios both cores answered; speed ratio = old median / new median, paired ratio = the "
            "median over those scenarios of old ms / new ms (> 1: faster now; the paired one shrugs off a "
            "burst of load on a few queries better)",
            f"interleaved query by query: the cores take turns A B B A (which is A alternates), each turn "
            f"running the query {REPEATS} times back to back (the first run after the other's turn meets cold "
            "caches); a core's time for a query is its fastest of those runs; "
            "Dijkstra runs on a quarter of the sample; setup (the first, untimed query per method and map) "
            "is in the JSON",
            "expanded equal?: A* and Dijkstra must expand the same nodes on both cores (a difference is "
            "flagged in bold); JPS and JPS+ may differ when only their bookkeeping changed",
        ]
        runtimes = (
            ("CPython", lambda: cpython_workers(ctx, cores, data)),
            ("Pyodide", lambda: pyodide_workers(ctx, cores, data, tmp)),
        )
        for runtime, start in runtimes:
            budget = BUDGET_S[runtime] / (2 if ctx.quick else 1)
            ctx.log(f"engine_compare: {runtime}")
            try:
                old, new = start()
            except BenchError as exc:
                res.notes.append(f"**{runtime} part not run**: {exc}")
                continue
            try:  # both workers boot side by side; the first request waits for each
                result = measure(ctx, old, new, methods, budget)
            finally:
                old.close()
                new.close()
            for key in ("old", "new"):  # each imported its own core, not an installed arcstar
                where = str(cores[key].resolve()) if runtime == "CPython" else "/core/pycore/"
                got = result["runtime"][key].pop("arcstar_file", "?")  # checked, then not kept: a machine's path
                if not got.startswith(where):
                    raise WorkerError(f"{runtime} {key} worker imported arcstar from {got}, not from {where}")
            notes: list[str] = []
            table, per_method, wrong = table_for(runtime, result, notes)
            res.tables.append(table)
            summary.headers = per_method.headers
            summary.rows += per_method.rows
            res.notes += [f"{runtime}: {n}" for n in result["notes"]] + notes
            res.wrong_answers += wrong
            res.data[runtime] = result
    if summary.rows:
        res.tables.append(summary)
    if not res.tables:
        raise BenchError("neither runtime could run: " + "; ".join(n for n in res.notes if "not run" in n))
    return res


SECTIONS = {"engine_compare": engine_compare}
