"""The grid-search sections (issue 3): arcstar against its peers on Moving AI scenarios.

- ``search_cpython``: arcstar's methods and the PyPI ``pathfinding`` A* on this CPython.
- ``search_pyodide``: the same measurement module inside Pyodide under Node.js.
- ``search_browser``: PathFinding.js (A*, JPS) on a page and arcstar in Pyodide in a Web Worker
  of the same page, in headless Chromium.

Targets (issue 3), on the Dragon Age (Origins), Baldur's Gate and room maps: arcstar's A* at
least 3x, JPS at least 10x and JPS+ at least 50x faster per query than the PyPI peer's A*, on
CPython and in Pyodide; in the browser, on every map family, arcstar's fastest optimal method
no slower per query than PathFinding.js's A* (grid clone included).
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from bench import common
from bench import search_bench as sb
from bench.common import (
    BENCH,
    ROOT,
    BenchError,
    Context,
    SectionResult,
    Table,
    build,
    cache_dir,
    data_dir,
    find_chromium,
    fmt_ms,
    fmt_num,
    fmt_ratio,
    pinned_wheel,
    serve,
)

MAIN_MAPS = ["arena", "brc202d", "lak303d", "AR0011SR", "8room_000"]
OTHER_MAPS = ["ca_cave", "AcrosstheCape", "maze512-16-0", "random512-10-0", "Berlin_0_256"]
QUICK_MAPS = ["arena", "lak303d", "AR0011SR", "8room_000"]
N_MAIN, N_OTHER = 24, 8
N_QUICK = 6

PYPI_PEER = (
    "pathfinding-1.0.23-py3-none-any.whl",
    "pathfinding==1.0.23",
    "06259dc0831c5e3b77b394c4f0073d79ae67542d89ad92a88881984a824df408",
)
PF_JS_VERSION = "0.4.18"
CPY_TARGETS = {
    "astar": 3.0,
    "jps": 10.0,
    "jpsplus": 50.0,
    "jps_plus": 50.0,
    "jps+": 50.0,
}  # x faster than the PyPI peer's A*
CHROMIUM_ARGS = list(build.CHROMIUM_ARGS)


def plan_maps(ctx: Context) -> list[dict]:
    """[{"name", "n", "slow_n"}]: the maps and how many scenarios each (Dijkstra: a quarter)."""
    names = ctx.maps or (QUICK_MAPS if ctx.quick else MAIN_MAPS + OTHER_MAPS)
    out = []
    for name in names:
        if ctx.per_map:
            n = ctx.per_map
        elif ctx.quick:
            n = N_QUICK
        else:
            n = N_MAIN if name in MAIN_MAPS else N_OTHER
        out.append({"name": name, "n": n, "slow_n": max(2, n // 4)})
    return out


def core_name() -> str:
    """Where the measured arcstar comes from, for the notes."""
    where = "the working tree's pycore/" if common.PYCORE_SOURCE == ROOT / "pycore" else str(common.PYCORE_SOURCE)
    return where + (", as copied at the start of the run" if common.PYCORE != common.PYCORE_SOURCE else "")


def need_data() -> Path:
    d = data_dir()
    if d is None:
        raise BenchError(
            "no Moving AI benchmark folder: put shared/benchmarks/movingai beside the repo or set ARCSTAR_BENCHMARKS"
        )
    return d


def make_request(ctx: Context, budget_s: float, peer_budget_s: float) -> dict:
    return {
        "data_dir": str(need_data()),
        "maps": plan_maps(ctx),
        "seed": ctx.seed,
        "methods": ctx.methods,
        "peer": True,
        "budget_s": budget_s / 2 if ctx.quick else budget_s,
        "peer_budget_s": peer_budget_s / 2 if ctx.quick else peer_budget_s,
    }


def paired(peer: dict | None, row: dict) -> tuple[float | None, float | None]:
    """(peer median, ratio peer/arcstar), both over the scenarios the two answered alike.

    That is the whole sample unless the row is Dijkstra's subset or one of them was stopped by
    its time budget; then the ratio still compares the same problems."""
    if not peer or not peer.get("per_query") or not row.get("per_query"):
        return None, None
    theirs = {q[0]: q[1] for q in peer["per_query"]}
    common = [(theirs[q[0]], q[1]) for q in row["per_query"] if q[0] in theirs]
    if not common:
        return None, None
    p = statistics.median(c[0] for c in common)
    a = statistics.median(c[1] for c in common)
    return p, (p / a if a > 0 else None)


# --- tables --------------------------------------------------------------------------------------


def answers_cell(row: dict) -> str:
    """'0', or what went wrong: cost mismatches, illegal paths; excess for non-optimal methods."""
    if row.get("error") and not row.get("queries"):
        return f"error: {row['error']}"
    bits = [str(row["mismatches"])]
    if row.get("bad_paths"):
        bits.append(f"{row['bad_paths']} illegal path(s)")
    if row.get("optimal") is False:
        bits.append(f"not optimal by design, worst +{100 * row['max_excess']:.2f}%")
    if row.get("error"):
        bits.append(f"stopped: {row['error']}")
    if row.get("stopped"):
        bits.append(f"stopped early: {row['stopped']}")
    return "; ".join(bits)


def wrong_count(rows: list[dict]) -> int:
    return sum(r.get("mismatches", 0) + r.get("bad_paths", 0) for r in rows)


def python_table(caption: str, result: dict, section: str) -> tuple[Table, list[str], dict]:
    """One table for a Python runtime: arcstar rows with their ratio to the PyPI peer's A*."""
    headers = [
        "map",
        "family",
        "method",
        "queries",
        "median ms",
        "median expanded",
        "setup ms",
        "peer",
        "peer median ms",
        "ratio (peer/arcstar)",
        "target",
        "met?",
        "cost mismatches",
    ]
    rows, notes = [], []
    tally = {"met": 0, "missed": 0}
    for m in result["maps"]:
        peer = next((r for r in m["rows"] if r["who"] == "peer"), None)
        for r in m["rows"]:
            if r["who"] == "peer":
                rows.append(
                    [
                        m["map"],
                        sb.FAMILY_NAMES.get(m["family"], m["family"]),
                        f"*{r['label']} (peer)*",
                        r["queries"],
                        fmt_ms(r.get("median_ms")),
                        fmt_num(r.get("median_expanded")),
                        fmt_ms(r.get("setup_ms")),
                        "",
                        "",
                        "",
                        "",
                        "",
                        answers_cell(r),
                    ]
                )
                continue
            peer_ms, ratio = paired(peer, r)
            # The targets judge each method with its default open list (the other lists are shown).
            judged = m["family"] in sb.TARGET_FAMILIES and r.get("primary", True)
            goal = CPY_TARGETS.get(r.get("method")) if judged else None
            met = ""
            if goal is not None and r.get("stopped"):
                met = "n/a (stopped early)"
            elif goal is not None and ratio is not None:
                ok = ratio >= goal
                met = "yes" if ok else "**no**"
                tally["met" if ok else "missed"] += 1
                if not ok:
                    notes.append(f"{section}: {r['label']} on {m['map']} is {ratio:.2f}x the peer, target {goal:g}x")
            rows.append(
                [
                    m["map"],
                    sb.FAMILY_NAMES.get(m["family"], m["family"]),
                    r["label"],
                    r["queries"],
                    fmt_ms(r.get("median_ms")),
                    fmt_num(r.get("median_expanded")),
                    fmt_ms(r.get("setup_ms")),
                    sb.PEER_LABEL if peer else "-",
                    fmt_ms(peer_ms),
                    fmt_ratio(ratio),
                    f">= {goal:g}x" if goal else "-",
                    met,
                    answers_cell(r),
                ]
            )
            for p in r.get("problems") or []:
                notes.append(f"{section}: {r['label']} on {m['map']}: {p}")
        if peer:
            for p in peer.get("problems") or []:
                notes.append(f"{section}: peer on {m['map']}: {p}")
    return Table(caption, headers, rows), notes, tally


def describe_runtime(rt: dict) -> str:
    bits = [f"Python {rt.get('python')}"]
    if rt.get("pyodide"):
        bits.append(f"Pyodide {rt['pyodide']}")
    bits += [
        f"numpy {rt.get('numpy')}",
        f"arcstar {rt.get('arcstar')}",
        f"pathfinding {rt.get('pathfinding') or 'not installed'}",
    ]
    return ", ".join(bits)


def common_notes(result: dict) -> list[str]:
    notes = list(result.get("notes", []))
    notes.append(
        "median ms: median over the map's sampled scenarios of one query's wall time "
        "(time.perf_counter around plan() / the peer's find_path, which includes its "
        "grid.cleanup()); setup ms: the first, untimed query on the map (graph snapshot, "
        "preprocessing; for the peer also building its Grid), shared by the methods "
        "that follow the first"
    )
    notes.append(
        "peer median ms and the ratio (peer median / arcstar median) are taken over the scenarios "
        "both answered: the whole sample unless the row is Dijkstra's subset or a method (or the "
        "peer) was stopped by its time budget; median ms is over all of the row's queries"
    )
    notes.append("Dijkstra runs on a quarter of the sample (spread over the buckets); its rows carry no target")
    notes.append(
        f"targets apply on {', '.join(sb.FAMILY_NAMES[f] for f in sb.TARGET_FAMILIES)} "
        "maps; other families are measured for information (Dragon Age 2's ca_cave "
        "included)"
    )
    return notes


def finish_python_section(res: SectionResult, result: dict, caption: str) -> SectionResult:
    table, notes, tally = python_table(caption, result, res.name)
    res.tables.append(table)
    res.notes = [f"runtime: {describe_runtime(result['runtime'])}"] + common_notes(result) + notes
    res.notes.append(f"targets met: {tally['met']} of {tally['met'] + tally['missed']}")
    res.data = result
    res.wrong_answers = sum(wrong_count([r for r in m["rows"] if r["who"] == "arcstar"]) for m in result["maps"])
    return res


# --- CPython -------------------------------------------------------------------------------------


def search_cpython(ctx: Context) -> SectionResult:
    """arcstar's methods vs PyPI pathfinding A* on this CPython (Moving AI scenarios)."""
    res = SectionResult("search_cpython", "Grid search on CPython: arcstar vs PyPI pathfinding A*")
    if sb.pypi_peer_version() is None:
        res.notes.append("the peer is missing: `pip install pathfinding==1.0.23` (requirements-test.txt)")
    result = sb.run_request(make_request(ctx, budget_s=6.0, peer_budget_s=20.0), ctx.log)
    return finish_python_section(res, result, f"CPython {sys.version.split()[0]}")


# --- Pyodide under Node.js -----------------------------------------------------------------------


def pyodide_package_dir(ctx: Context) -> Path:
    """A folder with Pyodide's numpy, packaging and micropip wheels (build.py's cache)."""
    folder = cache_dir() / "pyodide-wheels"
    wanted = ("numpy-*-pyodide_*_wasm32.whl", "micropip-*.whl", "packaging-*.whl")
    if all(list(folder.glob(p)) for p in wanted):
        return folder
    ctx.log("Pyodide's wheels are not cached yet: asking build.py to fetch and verify them")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "build.py"), "pyodide-test-deps"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=900,
    )
    if proc.returncode == 0:
        try:
            found = Path(json.loads(proc.stdout.strip().splitlines()[-1])["package_cache_dir"])
            if all(list(found.glob(p)) for p in wanted):
                return found
        except (ValueError, KeyError, IndexError):
            pass
    raise BenchError(
        "Pyodide's numpy/micropip wheels are not in the cache "
        f"({folder}); run `python build.py test` or `python build.py pyodide-test-deps` "
        f"once. build.py said: {(proc.stderr or proc.stdout).strip()[-300:]}"
    )


def pyodide_npm_dir() -> Path:
    d = ROOT / "node_modules" / "pyodide"
    if not (d / "pyodide.mjs").is_file():
        raise BenchError("node_modules/pyodide is missing: run `npm ci` (or `python build.py test`)")
    return d


def pyodide_runtime_dir(ctx: Context) -> Path:
    """Pyodide's runtime for Node.js: node_modules/pyodide (`npm ci`), else dist/pyodide
    (`python build.py`), else the runtime files unpacked from build.py's verified npm tarball
    into the cache (fetched with `npm pack` when it is not there yet)."""
    for d in (ROOT / "node_modules" / "pyodide", ROOT / "dist" / "pyodide"):
        if all((d / n).is_file() for n in build.PYODIDE_RUNTIME_FILES):
            return d
    dest = cache_dir() / f"bench-pyodide-{build.PYODIDE_VERSION}"
    if all((dest / n).is_file() for n in build.PYODIDE_RUNTIME_FILES):
        return dest
    ctx.log(f"no node_modules/pyodide or dist/pyodide: unpacking pyodide@{build.PYODIDE_VERSION} into {dest}")
    try:
        tarball = build.pyodide_tarball(quiet=not ctx.verbose)
        staging = Path(tempfile.mkdtemp(prefix=".bench-pyodide.", dir=cache_dir()))
        build.copy_pyodide(tarball, [], staging / "pyodide")
    except build.BuildError as exc:
        raise BenchError(f"no Pyodide runtime: run `npm ci`, or fix this: {exc}") from exc
    try:
        (staging / "pyodide").rename(dest)
    except OSError:  # another run unpacked it meanwhile
        pass
    shutil.rmtree(staging, ignore_errors=True)
    return dest


def run_in_pyodide(ctx: Context, module: str, request: dict, data: str, wheels: list[str] | None = None,
                   timeout: float = 3600) -> tuple[dict, str]:
    """Run bench/<module>.py's ``run_request_json(request)`` inside Pyodide under Node.js
    (``pyodide_runner.mjs``, bench/ and pycore/ mounted, ``data`` the Moving AI folder), its
    stderr passed to the log as it comes: (the module's result, "under Node.js <version>")."""
    node = shutil.which("node")
    if node is None:
        raise BenchError("node is not on PATH")
    config = {"pyodide_dir": str(pyodide_runtime_dir(ctx)), "package_cache_dir": str(pyodide_package_dir(ctx)),
              "pycore": str(common.PYCORE), "bench": str(BENCH), "data_dir": data, "wheels": wheels or [],
              "module": module, "request": request}
    with tempfile.TemporaryDirectory(prefix="arcstar-bench-") as tmp:
        cfg = Path(tmp) / "config.json"
        cfg.write_text(json.dumps(config))
        proc = subprocess.Popen([node, str(BENCH / "pyodide_runner.mjs"), str(cfg)], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        tail: list[str] = []
        assert proc.stderr is not None and proc.stdout is not None
        for line in proc.stderr:
            line = line.rstrip()
            tail = (tail + [line])[-30:]
            ctx.log(f"pyodide: {line}")
        out = proc.stdout.read()
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise BenchError(f"the Pyodide run of {module} took over {timeout:.0f} s") from None
    result_line = next((ln for ln in reversed(out.splitlines()) if ln.startswith("RESULT ")), None)
    if code != 0 or result_line is None:
        raise BenchError(f"the Pyodide run of {module} failed (exit {code}):\n" + "\n".join(tail[-15:]))
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    return json.loads(result_line[len("RESULT "):]), f"under Node.js {version}"


def search_pyodide(ctx: Context) -> SectionResult:
    """The same inside Pyodide under Node.js."""
    res = SectionResult("search_pyodide", "Grid search in Pyodide (Node.js): arcstar vs PyPI pathfinding A*")
    result, under = run_in_pyodide(ctx, "search_bench", make_request(ctx, budget_s=10.0, peer_budget_s=20.0),
                                   str(need_data()), [str(pinned_wheel(*PYPI_PEER, ctx.log))])
    import_note = (
        "pathfinding installed with micropip from the cached wheel; bench/ and arcstar "
        f"({core_name()}) mounted with NODEFS"
    )
    res = finish_python_section(
        res,
        result,
        f"Pyodide {result['runtime'].get('pyodide')} "
        f"(Python {result['runtime'].get('python')}) {under}",
    )
    res.notes.insert(1, import_note)
    return res


# --- the browser ---------------------------------------------------------------------------------


PF_LOADER = """
  function resolve(from, spec) {
    if (spec === 'heap') return 'heap/index.js';
    var base = from.split('/').slice(0, -1);
    spec.split('/').forEach(function (p) {
      if (p === '..') base.pop(); else if (p !== '.') base.push(p);
    });
    var name = base.join('/');
    return /\\.js$/.test(name) ? name : name + '.js';
  }
  function load(name) {
    if (cache[name]) return cache[name].exports;
    if (!defs[name]) throw new Error('PF bundle: no module ' + name);
    var module = cache[name] = { exports: {} };
    var req = function (spec) { return load(resolve(name, spec)); };
    defs[name].call(module.exports, module, module.exports, req);
    return module.exports;
  }
  window.PF = load('pathfinding/src/PathFinding.js');
  window.PF_VERSION = __VERSION__;
})();
"""


def pf_bundle(dest: Path) -> str:
    """PathFinding.js for a plain <script>: npm's package ships only CommonJS sources (src/,
    no lib/ or dist/ build), so wrap each module of it and of its dependency `heap` in a tiny
    require() registry. Sets window.PF. Returns the package's version."""
    nm = ROOT / "node_modules"
    pkg = nm / "pathfinding"
    if not (pkg / "src" / "PathFinding.js").is_file() or not (nm / "heap" / "lib" / "heap.js").is_file():
        raise BenchError("node_modules/pathfinding (and its dependency heap) is missing: run `npm ci`")
    version = json.loads((pkg / "package.json").read_text())["version"]
    modules = {}
    for f in sorted((pkg / "src").rglob("*.js")):
        modules["pathfinding/" + f.relative_to(pkg).as_posix()] = f.read_text(encoding="utf-8")
    for f in sorted((nm / "heap").rglob("*.js")):
        rel = f.relative_to(nm / "heap").as_posix()
        if rel.startswith(("test", "node_modules")):
            continue
        modules["heap/" + rel] = f.read_text(encoding="utf-8")
    parts = [
        f"// PathFinding.js {version} and heap: CommonJS modules wrapped for a browser (bench)",
        "(function () {",
        "  var defs = {}, cache = {};",
    ]
    for name, src in modules.items():
        parts.append(f"  defs[{json.dumps(name)}] = function (module, exports, require) {{\n{src}\n}};")
    parts.append(PF_LOADER.replace("__VERSION__", json.dumps(version)))
    dest.write_text("\n".join(parts), encoding="utf-8")
    return version


def pyodide_site_dir(tmp: Path, ctx: Context) -> tuple[Path, list[str], str]:
    """The Pyodide runtime and numpy wheel for the page: dist/pyodide (`python build.py`), else
    node_modules/pyodide with the cached wheels. Returns (folder, numpy wheels, source)."""
    dist = ROOT / "dist" / "pyodide"
    if (dist / "pyodide.mjs").is_file() and list(dist.glob("numpy-*.whl")):
        return dist, [p.name for p in dist.glob("numpy-*.whl")], "dist/pyodide (python build.py)"
    ctx.log("dist/pyodide is not built; using node_modules/pyodide and the cached wheels")
    src, wheels = pyodide_npm_dir(), pyodide_package_dir(ctx)
    folder = tmp / "pyodide-files"
    folder.mkdir()
    for name in (
        "pyodide.mjs",
        "pyodide.asm.js",
        "pyodide.asm.wasm",
        "python_stdlib.zip",
        "pyodide-lock.json",
    ):
        (folder / name).symlink_to(src / name)
    for w in wheels.glob("*.whl"):
        (folder / w.name).symlink_to(w)
    return (
        folder,
        [p.name for p in folder.glob("numpy-*.whl")],
        "node_modules/pyodide + cached wheels",
    )


def make_site(tmp: Path, ctx: Context) -> dict:
    """The bench page next to Pyodide, the core's source, PathFinding.js and the maps."""
    site = tmp / "site"
    site.mkdir()
    for f in (BENCH / "browser").iterdir():
        if f.is_file():
            shutil.copy(f, site / f.name)
    pyo, numpy_wheels, pyo_source = pyodide_site_dir(tmp, ctx)
    (site / "pyodide").symlink_to(pyo, target_is_directory=True)
    (site / "movingai").symlink_to(need_data(), target_is_directory=True)
    (site / "py").mkdir()
    for name in ("search_bench.py", "compat.py"):
        shutil.copy(BENCH / name, site / "py" / name)
    # The core as it is in the working tree (dist/wheels may be older than pycore/).
    with zipfile.ZipFile(site / "py" / "arcstar-src.zip", "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted((common.PYCORE / "arcstar").rglob("*.py")):
            z.write(f, f.relative_to(common.PYCORE).as_posix())
    (site / "pf").mkdir()
    pf_version = pf_bundle(site / "pf" / "pathfinding-browser.js")
    return {
        "site": site,
        "numpy_wheels": numpy_wheels,
        "pyodide_source": pyo_source,
        "pf_version": pf_version,
    }


def pf_summary(
    label: str,
    recs: list,
    case: sb.Case,
    sample_by_id: dict,
    setup_ms: float | None,
    build_ms: float,
) -> dict:
    checked = []
    for r in recs:
        scen = sample_by_id[r["id"]]
        path = [tuple(p) for p in r["path"]] if r["path"] else None
        cost = sb.octile_length(path) if path else None
        verdict = sb.judge(case, scen, cost, path, True)
        checked.append({"ms": r["ms"], "expanded": r["expanded"], "scenario": r["id"], **verdict})
    return sb._summary(label, "peer", checked, setup_ms, {"grid_build_ms": build_ms, "optimal": True})


def search_browser(ctx: Context) -> SectionResult:
    """arcstar in a Pyodide Web Worker vs PathFinding.js A*/JPS in headless Chromium."""
    res = SectionResult(
        "search_browser",
        "Grid search in headless Chromium: arcstar (Pyodide in a Web Worker) vs PathFinding.js",
    )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        raise BenchError("Python Playwright is missing: pip install playwright (requirements-test.txt)") from exc
    chromium = find_chromium()
    if chromium is None:
        raise BenchError("no Chromium: set ARCSTAR_CHROMIUM, or `apt-get install chromium`")
    maps = plan_maps(ctx)
    data = need_data()
    with tempfile.TemporaryDirectory(prefix="arcstar-bench-") as tmpname:
        tmp = Path(tmpname)
        site = make_site(tmp, ctx)
        server, url = serve(site["site"])
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
                try:
                    page = browser.new_page()
                    page.on(
                        "console",
                        lambda m: ctx.log(f"page: {m.text}") if m.type in ("error", "warning") else None,
                    )
                    page.on("pageerror", lambda e: ctx.log(f"page error: {e}"))
                    page.goto(url + "index.html")
                    t0 = time.perf_counter()
                    boot = page.evaluate(
                        "cfg => window.benchBoot(cfg)",
                        {
                            "pyodide": "pyodide/",
                            "numpy": [f"pyodide/{w}" for w in site["numpy_wheels"]],
                            "methods": ctx.methods,
                        },
                    )
                    boot["browser"] = f"Chromium {browser.version} (headless)"
                    ctx.log(
                        f"browser: {boot['browser']}; worker ready in "
                        f"{time.perf_counter() - t0:.1f} s "
                        f"({', '.join(v['label'] for v in boot['setup']['variants'])})"
                    )
                    maps_out = []
                    for spec in maps:
                        t1 = time.perf_counter()
                        raw = page.evaluate(
                            "cfg => window.benchMap(cfg)",
                            {
                                "name": spec["name"],
                                "n": spec["n"],
                                "slow_n": spec["slow_n"],
                                "seed": ctx.seed,
                                "budget_ms": 1000.0 * (10.0 / 2 if ctx.quick else 10.0),
                            },
                        )
                        maps_out.append(browser_map_result(raw, data, spec["name"]))
                        ctx.log(f"browser: {spec['name']} done in {time.perf_counter() - t1:.1f} s")
                    info = {
                        "browser": boot["browser"],
                        "runtime": boot["setup"]["runtime"],
                        "notes": boot["setup"]["notes"],
                        "isolated": boot["isolated"],
                        "timer_resolution_ms": boot.get("timer_resolution_ms"),
                        "worker_boot": boot["setup"].get("boot"),
                        "pf_version": site["pf_version"],
                        "pyodide_source": site["pyodide_source"],
                        "maps": maps_out,
                    }
                finally:
                    browser.close()
        finally:
            server.shutdown()
            server.server_close()
    return finish_browser_section(res, info)


def browser_map_result(raw: dict, data: Path, name: str) -> dict:
    """Check PathFinding.js's paths here (the same checker as arcstar's) and summarise the map."""
    case = sb.load_case(str(data), name)
    by_id = {s.id: s for s in case.scenarios}
    rows = []
    for label, recs in raw["arcstar"].items():
        ok_recs = [r for r in recs if "ms" in r]
        extra = {
            "method": raw["variants"][label]["method"],
            "optimal": all(r.get("optimal_claim") for r in ok_recs) if ok_recs else None,
            "error": raw["errors"].get(label),
            "stopped": raw["stopped"].get(label),
        }
        row = sb._summary(label, "arcstar", ok_recs, raw["setup"].get(label), extra)
        rt = [r["rt_ms"] for r in ok_recs]
        row["median_rt_ms"] = statistics.median(rt) if rt else None
        rows.append(row)
    for key, label in (("astar", "PathFinding.js A*"), ("jps", "PathFinding.js JPS")):
        rows.append(pf_summary(label, raw["pf"][key], case, by_id, raw["setup"].get("pf_" + key), raw["pf_grid_ms"]))
    return {
        "map": name,
        "family": case.family,
        "size": f"{case.tilemap.width}x{case.tilemap.height}",
        "sample": [s["id"] for s in raw["sample"]],
        "rows": rows,
    }


def finish_browser_section(res: SectionResult, info: dict) -> SectionResult:
    headers = [
        "map",
        "family",
        "method",
        "queries",
        "median ms (worker)",
        "median round trip ms",
        "median expanded",
        "setup ms",
        "PF A* ms",
        "ratio (PF A*/arcstar)",
        "PF JPS ms",
        "ratio (PF JPS/arcstar)",
        "target",
        "met?",
        "cost mismatches",
    ]
    rows, notes = [], []
    tally = {"met": 0, "missed": 0}
    for m in info["maps"]:
        pf = {r["label"]: r for r in m["rows"] if r["who"] == "peer"}
        ours = [r for r in m["rows"] if r["who"] == "arcstar"]
        optimal = [
            r
            for r in ours
            if r.get("optimal")
            and r.get("median_ms") is not None
            and not r.get("mismatches")
            and not r.get("bad_paths")
            and r.get("method") != "dijkstra"
        ]
        fastest = min(optimal, key=lambda r: r["median_ms"]) if optimal else None
        fam = sb.FAMILY_NAMES.get(m["family"], m["family"])
        for r in ours:
            ms = r.get("median_ms")
            pa, ratio_a = paired(pf.get("PathFinding.js A*"), r)
            pj, ratio_j = paired(pf.get("PathFinding.js JPS"), r)
            target, met = "-", ""
            if r is fastest:
                target = ">= 1x PF A* (fastest optimal)"
                ok = ratio_a is not None and ratio_a >= 1.0
                met = "yes" if ok else "**no**"
                tally["met" if ok else "missed"] += 1
                if not ok:
                    notes.append(
                        f"search_browser: fastest optimal method on {m['map']} ({r['label']}) is "
                        f"{fmt_ratio(ratio_a)} PF A*'s speed"
                    )
            rows.append(
                [
                    m["map"],
                    fam,
                    r["label"],
                    r["queries"],
                    fmt_ms(ms),
                    fmt_ms(r.get("median_rt_ms")),
                    fmt_num(r.get("median_expanded")),
                    fmt_ms(r.get("setup_ms")),
                    fmt_ms(pa),
                    fmt_ratio(ratio_a),
                    fmt_ms(pj),
                    fmt_ratio(ratio_j),
                    target,
                    met,
                    answers_cell(r),
                ]
            )
            for p in r.get("problems") or []:
                notes.append(f"search_browser: {r['label']} on {m['map']}: {p}")
        for label, r in pf.items():
            rows.append(
                [
                    m["map"],
                    fam,
                    f"*{label} (peer)*",
                    r["queries"],
                    fmt_ms(r.get("median_ms")),
                    "",
                    fmt_num(r.get("median_expanded")),
                    fmt_ms(r.get("setup_ms")),
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    answers_cell(r),
                ]
            )
            for p in r.get("problems") or []:
                notes.append(f"search_browser: {label} on {m['map']}: {p}")
        if fastest is None:
            notes.append(f"search_browser: no optimal arcstar method answered correctly on {m['map']}")
            tally["missed"] += 1
    rt = info["runtime"]
    res.tables.append(
        Table(
            f"{info['browser']}, arcstar in Pyodide {rt.get('pyodide')} (Python "
            f"{rt.get('python')}) in a module Web Worker; PathFinding.js "
            f"{info['pf_version']} on the page's main thread",
            headers,
            rows,
        )
    )
    res.notes = (
        list(info["notes"])
        + [
            f"cross-origin isolated: {info['isolated']}; timer resolution about "
            f"{info.get('timer_resolution_ms')} ms; Pyodide from {info['pyodide_source']}; "
            f"arcstar from {core_name()} (zipped and unpacked in the worker)",
            "median ms (worker): time.perf_counter around plan() inside the worker; round trip: "
            "performance.now() on the page around postMessage -> plan() -> reply, one query per "
            "message; the target is judged on the worker time",
            "PathFinding.js: each query is timed with grid.clone() (its finders dirty the grid) + "
            "findPath; A* = AStarFinder({diagonalMovement: OnlyWhenNoObstacles, heuristic: "
            "octile}), JPS = JumpPointFinder({same}); expanded = nodes it closed; its paths are "
            "checked by the same checker as arcstar's",
            "setup ms: the first, untimed query of each method on the map (for PathFinding.js, "
            "building its Grid from the map is separate and not counted)",
        ]
        + notes
    )
    wb = info.get("worker_boot") or {}
    if wb:
        res.notes.append(
            f"worker boot: loadPyodide {wb.get('pyodide_ms', 0) / 1000:.1f} s, numpy "
            f"{wb.get('numpy_ms', 0) / 1000:.1f} s, ready (arcstar imported) after "
            f"{wb.get('total_ms', 0) / 1000:.1f} s"
        )
    res.notes.append(f"targets met: {tally['met']} of {tally['met'] + tally['missed']}")
    res.data = info
    res.wrong_answers = sum(wrong_count([r for r in m["rows"] if r["who"] == "arcstar"]) for m in info["maps"])
    return res


SECTIONS = {
    "search_cpython": search_cpython,
    "search_pyodide": search_pyodide,
    "search_browser": search_browser,
}
