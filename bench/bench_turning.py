"""Timing of the legal-turn layer: ``turning.realize`` per method, fixed-angle art, roads.

Rows (``run()`` returns them, ``__main__`` prints a table), each the median over ``repeats``
runs of the per-call time of ``calls`` calls, with ``time.perf_counter``:

- ``realize`` for every method of ``TURN_METHODS`` on one A* path of about 200 tiles through a
  generated maze of rooms and doors (width 1, turning radius 1.5 and 3), start and goal
  headings fixed, so every kind of piece occurs (fillets, groups, start/goal arcs, tight
  turns, three-point turns, re-searches);
- ``to_fixed_angles`` (8 and 16 directions) of the "tighter" result;
- ``realize_on_road`` on a long zig-zag road (strict, and with cones).

The maps are generated here (no data files). Each row also says what the call produced
(legal, pieces, A* runs). Timings are printed, never asserted.

    python bench/bench_turning.py [--repeats 5] [--calls 3]
"""

from __future__ import annotations

import argparse
import math
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

from arcstar import TileMap, plan
from arcstar.turning import TURN_METHODS, realize
from bench.compat import arcstar_names

(to_fixed_angles,) = arcstar_names("arcstar.art", "to_fixed_angles")
plan_on_road, realize_on_road = arcstar_names("arcstar.roads", "plan_on_road", "realize_on_road")

WIDTH = 1.0


def maze(seed: int = 7, width: int = 183, height: int = 50) -> TileMap:
    """Rooms of 6x6 tiles separated by walls with doors of 1 to 3 tiles, some walls missing."""
    rng = np.random.default_rng(seed)
    blocked = np.zeros((height, width), dtype=bool)
    blocked[0, :] = blocked[-1, :] = blocked[:, 0] = blocked[:, -1] = True
    blocked[7:height - 1:7, :] = True
    blocked[:, 7:width - 1:7] = True
    for cy in range(0, height - 7, 7):  # room (cx, cy): doors in its east and south walls
        for cx in range(0, width - 7, 7):
            for east in (True, False):
                if rng.random() < 0.25:
                    continue
                door = int(rng.integers(1, 4))
                at = int(rng.integers(1, 7 - door + 1))
                if east and cx + 7 < width - 1:
                    blocked[cy + at:cy + at + door, cx + 7] = False
                elif not east and cy + 7 < height - 1:
                    blocked[cy + 7, cx + at:cx + at + door] = False
    return TileMap.from_blocked(blocked)


def long_path(m: TileMap, min_tiles: int = 190, seed: int = 3) -> list[tuple[int, int]]:
    """An A* path (for ``WIDTH``) of at least ``min_tiles`` tiles if there is one, else the
    longest found: corner rooms first, then random pairs."""
    rng = np.random.default_rng(seed)
    free = np.argwhere(~m.blocked)
    w, h = m.width, m.height
    pairs = [((2, 2), (w - 3, h - 3)), ((2, h - 3), (w - 3, 2))]
    pairs += [((int(x0), int(y0)), (int(x1), int(y1)))
              for (y0, x0), (y1, x1) in (free[rng.choice(len(free), 2, replace=False)] for _ in range(300))]
    best: list[tuple[int, int]] = []
    for a, b in pairs:
        try:
            res = plan(m, a, b, width=WIDTH)
        except ValueError:
            continue
        if res.status == "found" and len(res.path) > len(best):
            best = res.path
            if len(best) >= min_tiles:
                break
    return best


def zigzag_road(steps: int = 24, leg: int = 5) -> tuple[TileMap, list[tuple[int, int]]]:
    size = steps * leg // 2 + 4
    terrain = np.zeros((size, size), dtype=np.uint8)
    x = y = 1
    for k in range(steps):
        for _ in range(leg):
            terrain[y, x] = 2
            if k % 2 == 0:
                x += 1
            else:
                y += 1
    terrain[y, x] = 2
    m = TileMap(terrain)
    res = plan_on_road(m, (1, 1), (x, y), width=WIDTH)
    return m, res.path




def run(report: Callable[[dict], None] | None = None, *, repeats: int = 5, calls: int = 3) -> list[dict]:
    """Measure everything; rows ``{"name", "median_us", "calls", "result"}``."""
    rows: list[dict] = []

    def add(name: str, fn: Callable[[], object], describe: Callable[[object], str]) -> None:
        out = fn()  # warm the per-map caches (clearance, collision tables, graphs)
        us = median_us(fn, calls, repeats)
        row = {"name": name, "median_us": round(us, 1), "calls": calls * repeats, "result": describe(out)}
        rows.append(row)
        if report is not None:
            report(row)

    m = maze()
    tiles = long_path(m)
    hs, hg = math.pi / 2, 0.0

    def said(res) -> str:
        arcs = sum(1 for s in res.path.segments if s.kind == "arc")
        rev = sum(1 for s in res.path.segments if s.gear < 0)
        return (f"{len(res.waypoints)} wp, legal={res.legal}, {len(res.path.segments)} segs, {arcs} arcs, "
                f"{rev} rev, {len(res.speed_limits)} limits, {res.searches} A*")
    for radius in (1.5, 3.0):
        for method in TURN_METHODS:
            add(f"realize {method}, {len(tiles)}-tile path, r={radius}",
                lambda method=method, radius=radius: realize(m, tiles, hs, hg, WIDTH, radius, method), said)
    curve = realize(m, tiles, hs, hg, WIDTH, 1.5, "tighter").path
    for n in (8, 16):
        add(f"to_fixed_angles {n} directions, {len(curve.segments)}-segment path",
            lambda n=n: to_fixed_angles(curve, n),
            lambda art, curve=curve: f"{len(art.segments)} segs, +{art.length - curve.length:.2f} tiles")
    rm, rtiles = zigzag_road()
    for cones in (False, True):
        add(f"realize_on_road {'cones' if cones else 'strict'}, {len(rtiles)}-tile zig-zag, r=2",
            lambda cones=cones: realize_on_road(rm, rtiles, WIDTH, 2.0, cones=cones), said)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--calls", type=int, default=3)
    args = ap.parse_args(argv)
    print(f"{'benchmark':<58} {'median us':>11} {'calls':>6}  result")
    run(lambda r: print(f"{r['name']:<58} {r['median_us']:>11.1f} {r['calls']:>6}  {r['result']}", flush=True),
        repeats=args.repeats, calls=args.calls)
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
