"""Sections made from standalone bench modules: ``bench/bench_<name>.py`` with a
``run(report=None, **options) -> list[dict]`` function (each dict one table row).

Such a module stays runnable on its own (``python bench/bench_geometry.py``); here its rows
become a table in the run's report. Options are passed only if ``run`` takes them, so a module
may change its signature without breaking the run.
"""

from __future__ import annotations

import importlib
import inspect

from bench.common import BenchError, Context, SectionResult, Table

# name -> (module, options for a default run, options for --quick)
MODULES = {
    "geometry": ("bench.bench_geometry", {"calls": 20_000, "repeats": 3}, {"calls": 2_000, "repeats": 2}),
    "collision": ("bench.bench_collision", {"repeats": 3}, {"repeats": 2}),
    "turning": ("bench.bench_turning", {"repeats": 3, "calls": 2}, {"repeats": 2, "calls": 1}),
    "lab": ("bench.bench_lab", {"loads": 5, "queries": 5}, {"loads": 2, "queries": 2}),
}


def _cell(v: object) -> object:
    if isinstance(v, float):
        return f"{v:.3g}" if abs(v) < 100 else f"{v:.0f}"
    return v


def module_section(name: str):
    module_name, options, quick_options = MODULES[name]

    def section(ctx: Context) -> SectionResult:
        try:
            mod = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                raise BenchError(f"{module_name.replace('.', '/')}.py is not there") from exc
            raise
        title = ((mod.__doc__ or name).strip().splitlines() or [name])[0].rstrip(".").replace("``", "`")
        wanted = quick_options if ctx.quick else options
        params = inspect.signature(mod.run).parameters
        kwargs = {k: v for k, v in wanted.items() if k in params}
        rows = mod.run(lambda r: ctx.log(f"{name}: {r.get('name', r)}"), **kwargs)
        headers = list(dict.fromkeys(k for r in rows for k in r))
        caption = f"bench/{module_name.split('.')[-1]}.py run({kwargs})"
        table = Table(caption, headers, [[_cell(r.get(h)) for h in headers] for r in rows])
        res = SectionResult(name, title, tables=[table], data={"options": kwargs, "rows": rows})
        if not rows:
            res.notes.append("the module returned no rows (are the Moving AI maps there?)")
        return res

    section.__doc__ = f"rows of {module_name.replace('.', '/')}.py run()"
    return section


SECTIONS = {name: module_section(name) for name in MODULES}


def modules_in_pyodide(ctx: Context) -> SectionResult:
    """The geometry, collision and turning modules run inside Pyodide under Node.js."""
    import json
    import shutil
    import subprocess
    from pathlib import Path

    if shutil.which("node") is None:
        raise BenchError("Node.js is not installed: the Pyodide column needs it")
    script = Path(__file__).resolve().parent / "pyodide_modules.mjs"
    proc = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=1800)
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("ARCSTAR_BENCH ")), None)
    if proc.returncode != 0 or line is None:
        raise BenchError(f"the Pyodide run failed: {(proc.stderr or proc.stdout).strip()[-400:]}")
    data = json.loads(line[len("ARCSTAR_BENCH "):])
    tables = []
    for name, rows in data["modules"].items():
        headers = [h for h in dict.fromkeys(k for r in rows for k in r) if h != "python"]
        tables.append(Table(f"bench/{name}.py in Pyodide (Python {data['python']})", headers,
                            [[_cell(r.get(h)) for h in headers] for r in rows]))
    return SectionResult("modules_pyodide", "Geometry, collision and turning in Pyodide (Node.js)", tables=tables,
                         data=data)


SECTIONS["modules_pyodide"] = modules_in_pyodide
