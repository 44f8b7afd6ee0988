"""What the Python panel's functions cost: a plan through the service with the built-in octile
heuristic against the same plan with the user's octile heuristic(), a zero heuristic() and a
cost() that only returns 1 (searched as Dijkstra), on seeded generated maps (CPython).

    PYTHONPATH=pycore python bench/usercode_bench.py [--repeat N]

Prints a Markdown table: median ms per plan (stepped to its end in 8 ms slices, as the worker
does), nodes expanded, user-function calls, and the ratio to the built-in run measured in the
same run. Every cost is checked equal to the built-in's (all four are least-cost here).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from arcstar.maps.generators import GeneratorParams, generate
from arcstar.service import Service

OCTILE = ("def heuristic(x, y, gx, gy):\n    dx, dy = abs(x - gx), abs(y - gy)\n"
          "    return 10 * max(dx, dy) + 4 * min(dx, dy)\n")
ZERO = "def heuristic(x, y, gx, gy):\n    return 0\n"
COST = "def cost(x, y, terrain):\n    return 1.0\n"
RUNS = (("built-in octile", None), ("heuristic() octile", OCTILE), ("heuristic() zero", ZERO), ("cost() only", COST))


def plan_once(svc: Service, made, version: int, code: str | None, cells: bytes | None) -> tuple[float, dict]:
    m = made.map
    msg = {"type": "plan", "id": 1, "map": {"width": m.width, "height": m.height, "version": version},
           "start": list(made.start), "goal": list(made.goal), "options": {"heuristic": "octile", "trace": False}}
    if code is not None:
        msg["code"] = code
    t0 = time.perf_counter()
    out = json.loads(svc.handle(json.dumps(msg), cells))
    assert out["type"] == "started", out
    while out["type"] != "result":
        out = json.loads(svc.handle(json.dumps({"type": "step", "id": 1, "budget_ms": 8})))
        assert out["type"] in ("progress", "result"), out
    return (time.perf_counter() - t0) * 1000.0, out["result"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print("| map | run | median ms | expanded | calls | x built-in |")
    print("|---|---|---:|---:|---:|---:|")
    for kind, size in (("rooms", 64), ("caves", 128), ("obstacles", 192)):
        made = generate(GeneratorParams.from_dict({"kind": kind, "width": size, "height": size, "seed": 7}))
        svc = Service()
        cells = made.map.terrain.astype("uint8").tobytes()
        plan_once(svc, made, 1, None, cells)  # the map and its graph, built once
        base_ms, base_cost = None, None
        for label, code in RUNS:
            times, res = [], {}
            for _ in range(args.repeat):
                ms, res = plan_once(svc, made, 1, code, None)
                times.append(ms)
            med = statistics.median(times)
            if base_ms is None:
                base_ms, base_cost = med, res["cost"]
            assert abs(res["cost"] - base_cost) < 1e-6, (kind, label, res["cost"], base_cost)
            calls = sum(res.get("user_code", {}).get("calls", {}).values())
            print(f"| {kind} {size}x{size} | {label} | {med:.1f} | {res['expanded']} | {calls} | {med / base_ms:.1f} |")


if __name__ == "__main__":
    main()
