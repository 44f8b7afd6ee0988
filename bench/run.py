#!/usr/bin/env python3
"""arcstar's benchmarks: run sections, print their tables, write them to markdown and JSON.

    python bench/run.py                         every section, default maps and sample sizes
    python bench/run.py --quick                 fewer maps and scenarios (a few minutes)
    python bench/run.py --section search_cpython --maps arena brc202d --per-map 20
    python bench/run.py --list                  the sections there are
    python build.py bench [same arguments]      the same with the test venv's Python

Each section measures what an issue's speed targets name and prints a table: median time per
query, nodes expanded, and the ratio to a peer measured in the same run. Results go to
bench/results/latest.md and latest.json (or --out FILE.md and FILE.json). Timings are never
asserted; the exit code is 1 only when a section failed to run or arcstar gave a wrong answer
(a cost that is not the scenario's optimal length, or an illegal path).

Sections are functions ``section(ctx) -> SectionResult`` listed in SECTIONS; a later issue adds
its own module and entries there.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

BENCH = Path(__file__).resolve().parent
if str(BENCH.parent) not in sys.path:
    sys.path.insert(0, str(BENCH.parent))  # `bench` as a package, however run.py was started
from bench import (  # noqa: E402
    common,
    sections_directional,
    sections_engine,
    sections_fog,
    sections_hybrid,
    sections_modules,
    sections_search,
    sections_world,
    sections_world_doors,
    sections_world_lab,
)
from bench.common import ROOT, BenchError, Context, SectionResult  # noqa: E402

SECTIONS = {**sections_search.SECTIONS, **sections_engine.SECTIONS, **sections_modules.SECTIONS,
            **sections_directional.SECTIONS, **sections_hybrid.SECTIONS, **sections_fog.SECTIONS,
            **sections_world.SECTIONS, **sections_world_doors.SECTIONS,
            **sections_world_lab.SECTIONS}
DEFAULT_OUT = BENCH / "results" / "latest.md"


def git_revision() -> str:
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "pycore", "bench"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
        return f"{rev}{' + uncommitted changes' if dirty else ''}" if rev else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def load_average() -> str:
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except (OSError, AttributeError):
        return "n/a"


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="bench/run.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer maps and scenarios")
    p.add_argument(
        "--section",
        nargs="+",
        metavar="NAME",
        help=f"sections to run (default all: {', '.join(SECTIONS)})",
    )
    p.add_argument("--maps", nargs="+", metavar="MAP", help="Moving AI map names (without .map)")
    p.add_argument("--per-map", type=int, metavar="N", help="scenarios per map (Dijkstra: a quarter)")
    p.add_argument("--methods", nargs="+", metavar="LABEL", help="only these arcstar methods (e.g. astar jps)")
    p.add_argument("--seed", type=int, default=1, help="sample seed (default 1)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="markdown file; JSON goes beside it")
    p.add_argument(
        "--pycore",
        type=Path,
        metavar="DIR",
        help="measure the arcstar package in DIR (default: this tree's pycore/), e.g. to compare with another checkout",
    )
    p.add_argument(
        "--old-pycore",
        type=Path,
        metavar="DIR",
        help="engine_compare: the old core, the arcstar package in DIR (default: from --old-commit)",
    )
    p.add_argument(
        "--old-commit",
        metavar="REV",
        help=f"engine_compare: take the old core from this commit's pycore/ with git archive "
        f"(default {sections_engine.BASELINE_COMMIT}); ignored with --old-pycore",
    )
    p.add_argument("--list", action="store_true", help="list the sections and exit")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    args = p.parse_args(argv)
    if args.per_map is not None and args.per_map < 1:
        p.error("--per-map must be at least 1")
    if args.pycore is not None and not (args.pycore / "arcstar" / "__init__.py").is_file():
        p.error(f"--pycore {args.pycore}: no arcstar package there")
    if args.old_pycore is not None and not (args.old_pycore / "arcstar" / "__init__.py").is_file():
        p.error(f"--old-pycore {args.old_pycore}: no arcstar package there")
    unknown = [s for s in args.section or [] if s not in SECTIONS]
    if unknown:
        p.error(f"unknown section(s) {', '.join(unknown)}; there are: {', '.join(SECTIONS)}")
    return args


def run_section(name: str, ctx: Context) -> SectionResult:
    t0 = time.perf_counter()
    ctx.log(f"== {name}")
    try:
        res = SECTIONS[name](ctx)
    except BenchError as exc:
        res = SectionResult(name, name, status="skipped", notes=[str(exc)])
    except Exception:  # noqa: BLE001 - one broken section must not lose the others' tables
        res = SectionResult(name, name, status="failed", notes=["```\n" + traceback.format_exc() + "```"])
    res.seconds = time.perf_counter() - t0
    ctx.log(f"== {name}: {res.status} in {res.seconds:.0f} s")
    return res


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.list:
        for name, fn in SECTIONS.items():
            print(f"{name}: {(fn.__doc__ or '').strip().splitlines()[0] if fn.__doc__ else ''}")
        return 0
    # The measured core, not whatever arcstar an environment may have installed: a snapshot
    # taken now, so every section measures the same code while others edit the tree.
    source = (args.pycore or ROOT / "pycore").resolve()
    snapshot_dir = tempfile.TemporaryDirectory(prefix="arcstar-core-")
    common.PYCORE_SOURCE = source
    common.PYCORE = Path(snapshot_dir.name)
    shutil.copytree(
        source / "arcstar",
        common.PYCORE / "arcstar",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
    )
    sys.path.insert(0, str(common.PYCORE))
    ctx = Context(
        quick=args.quick,
        maps=args.maps,
        per_map=args.per_map,
        seed=args.seed,
        methods=args.methods,
        verbose=not args.quiet,
        old_pycore=args.old_pycore,
        old_commit=args.old_commit,
    )
    names = args.section or list(SECTIONS)
    started = datetime.now(UTC)
    code = git_revision()
    load_before = load_average()
    results = [run_section(n, ctx) for n in names]

    header = [
        "# arcstar benchmarks",
        "",
        f"- run: {started.strftime('%Y-%m-%d %H:%M UTC')}, `bench/run.py {' '.join(argv)}`".rstrip(),
        f"- code: {code}" + f"; arcstar measured from a copy of {'pycore/' if source == ROOT / 'pycore' else source} "
        "taken at the start of the run",
        f"- machine: {machine()}; load average (1 min) {load_before} at the start, "
        f"{load_average()} at the end (other work on the machine slows every method alike, "
        "but widens the noise)",
        f"- driver: Python {platform.python_version()}",
        "",
    ]
    text = "\n".join(header) + "\n" + "\n\n".join(r.markdown() for r in results) + "\n"
    print(text)
    out_md = args.out
    out_md.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_md.with_suffix(".md.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out_md)
    doc = {
        "started": started.isoformat(),
        "argv": argv,
        "code": code,
        "machine": machine(),
        "sections": [asdict(r) for r in results],
    }
    out_json = out_md.with_suffix(".json")
    tmp = out_json.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(doc, indent=1, default=str), encoding="utf-8")
    tmp.replace(out_json)
    print(f"wrote {out_md} and {out_json}", file=sys.stderr)

    wrong = sum(r.wrong_answers for r in results)
    failed = [r.name for r in results if r.status == "failed"]
    if wrong:
        print(f"arcstar gave {wrong} wrong answer(s): see the cost mismatches column", file=sys.stderr)
    if failed:
        print(f"section(s) failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if wrong or failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
