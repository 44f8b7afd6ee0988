"""Timing of the collision layer: smoothing, the exact swept-disc tests, clearance and masks.

Rows (``run()`` returns them, ``__main__`` prints a table), each the median over ``repeats``
runs of the per-call time of ``calls`` calls, with ``time.perf_counter``:

- smoothing a >= 200-waypoint A* path on a Moving AI map (exact and Pinter's sampled test);
- the exact swept-disc test of every one-tile step of that path, per step, and of the legs
  of the smoothed path, per call and per tile of leg length;
- Pinter's sampled Walkable() on the same one-tile steps;
- the exact arc test on quarter turns along the path;
- ``clearance_map`` on a 512x512 and a 1024x1024 Moving AI map (cache dropped each call),
  and ``move_masks_for`` on the 512x512 one.

Maps come from $ARCSTAR_BENCHMARKS or ``shared/benchmarks/movingai`` beside the repo; rows
whose map is missing are left out. Timings are printed, never asserted.

    python bench/bench_collision.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run directly: the repo root
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.timing import median_us  # noqa: E402

try:
    import arcstar  # noqa: F401
except ImportError:  # run from a checkout without arcstar installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pycore"))

import numpy as np

from arcstar import load_map, plan
from arcstar.collision import swept_arc_clear, swept_line_clear, walkable_sampled
from arcstar.geometry import Arc, Pose
from bench.compat import arcstar_names

clearance_map, move_masks_for = arcstar_names("arcstar.clearance", "clearance_map", "move_masks_for")
smooth, tile_centres = arcstar_names("arcstar.smoothing", "smooth", "tile_centres")

PATH_MAP = "brc202d.map"  # 530x481, caves: long winding paths
MAP_512 = "random512-10-0.map"
MAP_1024 = "NewYork_0_1024.map"
WIDTH = 1.0


def maps_dir() -> Path | None:
    env = os.environ.get("ARCSTAR_BENCHMARKS")
    here = Path(__file__).resolve().parents[1]
    for c in ([Path(env)] if env else []) + [here.parent / "shared" / "benchmarks" / "movingai"]:
        if (c / "maps").is_dir():
            return c / "maps"
    return None




def long_path(m, min_points: int = 200, seed: int = 3) -> list[tuple[int, int]]:
    """An A* path of at least ``min_points`` tiles between random open tiles of one region."""
    rng = np.random.default_rng(seed)
    free = np.argwhere(~m.blocked)
    for _ in range(200):
        (y0, x0), (y1, x1) = free[rng.choice(len(free), 2, replace=False)]
        if abs(int(x0) - int(x1)) + abs(int(y0) - int(y1)) < min_points:
            continue
        res = plan(m, (int(x0), int(y0)), (int(x1), int(y1)))
        if res.status == "found" and len(res.path) >= min_points:
            return res.path
    raise RuntimeError("no long path found")


def run(report: Callable[[dict], None] | None = None, *, repeats: int = 5) -> list[dict]:
    """Measure everything; rows ``{"name", "median_us", "calls", ...}``."""
    rows: list[dict] = []

    def emit(row: dict) -> None:
        rows.append(row)
        if report is not None:
            report(row)

    def add(name: str, fn: Callable[[], object], calls: int, per: int = 1) -> None:
        """Time ``fn`` (which does ``per`` operations); report per operation."""
        us = median_us(fn, calls, repeats) / per
        emit({"name": name, "median_us": round(us, 2), "calls": calls * per})

    maps = maps_dir()
    if maps is None:
        return rows
    if (maps / PATH_MAP).exists():
        m = load_map(maps / PATH_MAP).map
        tiles = long_path(m)[:200]
        pts = tile_centres(tiles)
        clearance_map(m)  # warm the per-version tables
        swept_line_clear(m, pts[0], pts[1], WIDTH)
        add(f"smooth {len(tiles)}-waypoint path, exact (width {WIDTH})", lambda: smooth(m, tiles, WIDTH), 5)
        add(f"smooth {len(tiles)}-waypoint path, Pinter sampled", lambda: smooth(m, tiles, WIDTH, exact=False), 5)
        steps = list(zip(pts, pts[1:]))
        add(
            "swept_line_clear, one-tile steps (per step)",
            lambda: [swept_line_clear(m, a, b, WIDTH) for a, b in steps],
            3,
            len(steps),
        )
        # width 2 grazes walls on most steps, so the exact row scan runs instead of the O(1) check
        add(
            "swept_line_clear, one-tile steps, width 2 (per step)",
            lambda: [swept_line_clear(m, a, b, 2.0) for a, b in steps],
            3,
            len(steps),
        )
        add(
            "walkable_sampled (Pinter), one-tile steps (per step)",
            lambda: [walkable_sampled(m, a, b, WIDTH) for a, b in steps],
            3,
            len(steps),
        )
        legs = smooth(m, tiles, WIDTH)
        legs = list(zip(legs, legs[1:]))
        tiles_long = sum(math.dist(a, b) for a, b in legs)
        us = median_us(lambda: [swept_line_clear(m, a, b, WIDTH) for a, b in legs], 5, repeats)
        emit(
            {
                "name": f"swept_line_clear, {len(legs)} smoothed legs (per leg)",
                "median_us": round(us / len(legs), 2),
                "calls": 5 * len(legs),
            }
        )
        emit(
            {
                "name": f"swept_line_clear, smoothed legs (per tile of leg, {tiles_long:.0f} tiles)",
                "median_us": round(us / tiles_long, 2),
                "calls": 5 * len(legs),
            }
        )
        arcs = [
            Arc.from_pose(Pose(a[0], a[1], math.atan2(b[1] - a[1], b[0] - a[0])), 1.5, math.pi / 2)
            for a, b in steps[::2]
        ]
        add(
            "swept_arc_clear, quarter turns r=1.5 (per arc)",
            lambda: [swept_arc_clear(m, arc, WIDTH) for arc in arcs],
            3,
            len(arcs),
        )
    for fname in (MAP_512, MAP_1024):
        if not (maps / fname).exists():
            continue
        mm = load_map(maps / fname).map

        def fresh(mm=mm):
            mm.touch()  # drop the cache: measure the build
            return clearance_map(mm)

        add(f"clearance_map {mm.width}x{mm.height} ({fname})", fresh, 3)
        if fname == MAP_512:

            def masks(mm=mm):
                mm.touch()
                return move_masks_for(mm, 1.5)

            add(f"move_masks_for width 1.5, {mm.width}x{mm.height} (with clearance)", masks, 3)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    print(f"{'benchmark':<62} {'median us':>12} {'calls':>7}")
    rows = run(
        lambda r: print(f"{r['name']:<62} {r['median_us']:>12.2f} {r['calls']:>7}", flush=True), repeats=args.repeats
    )
    if not rows:
        print("no Moving AI maps found (set ARCSTAR_BENCHMARKS)")
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
