"""Timing of the curve builders: Dubins, Pinter's four curves, Reeds-Shepp.

Each row times ``calls`` builds over a fixed, seeded set of pose pairs (tile units, radius
1.5) with ``time.perf_counter``, repeats that ``repeats`` times and reports the median cost
per call. Uses only the standard library and arcstar. Timings are printed, never asserted.

    python bench/bench_geometry.py [--calls 100000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run directly: the repo root
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
try:
    import arcstar  # noqa: F401
except ImportError:  # run from a checkout without arcstar installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pycore"))

from arcstar.geometry import Pose  # noqa: E402
from bench.compat import arcstar_names  # noqa: E402

dubins, dubins_length, pinter_curves, reeds_shepp = arcstar_names(
    "arcstar.curves", "dubins", "dubins_length", "pinter_curves", "reeds_shepp"
)

RADIUS = 1.5


def _pairs(n: int = 1000, seed: int = 2024) -> list[tuple[Pose, Pose]]:
    """Start and goal poses up to 10 tiles apart with any headings."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        p0 = Pose(rng.uniform(0, 40), rng.uniform(0, 40), rng.uniform(-math.pi, math.pi))
        a, d = rng.uniform(-math.pi, math.pi), rng.uniform(0, 10)
        out.append(
            (
                p0,
                Pose(p0.x + d * math.cos(a), p0.y + d * math.sin(a), rng.uniform(-math.pi, math.pi)),
            )
        )
    return out


def _time(fn: Callable, pairs: list[tuple[Pose, Pose]], calls: int, repeats: int) -> list[float]:
    """Seconds per call for each repetition of ``calls`` calls."""
    work = (pairs * (calls // len(pairs) + 1))[:calls]
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for p0, p1 in work:
            fn(p0, p1, RADIUS)
        samples.append((time.perf_counter() - t0) / calls)
    return samples


def run(report: Callable[[dict], None] | None = None, *, calls: int = 100_000, repeats: int = 5) -> list[dict]:
    """Measure every builder; return rows ``{"name", "median_us_per_call", "calls", ...}``.

    ``report``, if given, is called with each row as soon as it is measured. Reeds-Shepp,
    the slowest, runs a tenth of ``calls``.
    """
    pairs = _pairs()
    cases = [
        ("dubins (shortest, built as a Path)", dubins, calls),
        ("dubins_length (no Path built)", dubins_length, calls),
        ("pinter_curves (all four, built)", pinter_curves, calls),
        ("reeds_shepp (shortest, built)", reeds_shepp, max(1, calls // 10)),
    ]
    rows = []
    for name, fn, n in cases:
        samples = _time(fn, pairs, n, repeats)
        row = {
            "name": name,
            "median_us_per_call": round(statistics.median(samples) * 1e6, 2),
            "min_us_per_call": round(min(samples) * 1e6, 2),
            "calls": n,
            "repeats": repeats,
            "python": sys.version.split()[0],
        }
        rows.append(row)
        if report is not None:
            report(row)
    return rows


def _print_table(rows: list[dict]) -> None:
    width = max(len(r["name"]) for r in rows)
    print(f"{'builder':<{width}}  {'median us/call':>14}  {'min us/call':>11}  {'calls':>7}  reps")
    for r in rows:
        print(
            f"{r['name']:<{width}}  {r['median_us_per_call']:>14.2f}  "
            f"{r['min_us_per_call']:>11.2f}  {r['calls']:>7}  {r['repeats']:>4}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    if args.calls < 1 or args.repeats < 1:
        parser.error("--calls and --repeats must be at least 1")
    print(f"arcstar geometry builders, radius {RADIUS}, Python {sys.version.split()[0]}", flush=True)
    rows = run(
        lambda r: print(f"  measured {r['name']}", flush=True),
        calls=args.calls,
        repeats=args.repeats,
    )
    _print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
