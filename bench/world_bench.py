"""World measurement (issue 11, "Speed" and "Proof"): ticks of a crowd, and the proof scenarios run
to the end with each avoidance method, scored by ``arcstar.world.metrics``.

One module for every runtime: CPython (imported by ``bench/sections_world.py``) and Pyodide
under Node.js (``bench/pyodide_runner.mjs`` mounts ``bench/`` and calls ``run_request_json``).
Standard library, numpy and arcstar only; the peers (pyrvo, pymapf) are in ``world_peers.py``.

- **ticks**: ``presets.crowd(count)`` on a size x size map, per avoidance method the core accepts
  (``arcstar.world.units.BUILT_AVOIDANCE``, read at run time so methods are picked up as they
  land): the first tick (every unit plans its route) timed alone, then ``ticks`` ticks of
  ``World.step()`` one by one (recording samples off, as a game would run it): median, 95th
  percentile and worst ms per tick, and how many units were moving.
- **scenarios**: the proof presets (``presets.PRESETS``) per method, run to their duration or
  until every unit is done, every ``step()`` timed; the metrics of the trajectories.

Standalone: ``python bench/world_bench.py [--quick]`` (pycore/ on the path).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from typing import Any

import numpy as np

#: The proof scenarios and their parameters (issue 11: 20 units through the door, 10 + 10 swap).
SCENARIOS: dict[str, dict[str, Any]] = {
    "corridor_bay": {},
    "junction": {},
    "door": {"count": 20},
    "group_swap": {"count": 10},
    "fog_dead_end": {},
}


def built_methods() -> list[str]:
    """The avoidance methods the core accepts now."""
    from arcstar.world import units

    return list(getattr(units, "BUILT_AVOIDANCE", ("none",)))


def scenario_doc(name: str, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """The preset ``name`` with ``params`` and ``method`` as its avoidance."""
    from arcstar.world import presets

    fn = presets.PRESETS[name]
    doc = fn(**(params if params is not None else SCENARIOS.get(name, {})))
    doc["avoidance"] = method
    return doc


def percentile(values: list[float], q: float) -> float | None:
    return float(np.percentile(values, q)) if values else None


def tick_timing(count: int, size: int, method: str, ticks: int, seed: int, budget_s: float = 120.0) -> dict[str, Any]:
    """One crowd, ``ticks`` timed ticks after the first (see the module notes), fewer if they
    take more than ``budget_s`` seconds in all (``cut`` says so)."""
    from arcstar.world import presets, read_scenario

    doc = presets.crowd(count=count, size=size, avoidance=method, seed=seed)
    out: dict[str, Any] = {"count": count, "size": size, "method": method}
    try:
        world = read_scenario(doc).world
    except Exception as exc:  # noqa: BLE001 - a method refused or broken: said in the table
        out["error"] = f"{type(exc).__name__}: {exc}"
        return out
    world.record = False
    t0 = time.perf_counter()
    world.step()
    out["first_ms"] = (time.perf_counter() - t0) * 1000.0
    times, moving = [], []
    started = time.perf_counter()
    out["cut"] = False
    for _ in range(ticks):
        if time.perf_counter() - started > budget_s:
            out["cut"] = True
            break
        n = sum(1 for u in world.units if u.mover is not None)
        if n == 0 and not world.busy:
            break
        t0 = time.perf_counter()
        world.step()
        times.append((time.perf_counter() - t0) * 1000.0)
        moving.append(n)
    out.update(ticks=len(times), median_ms=statistics.median(times) if times else None,
               p95_ms=percentile(times, 95), max_ms=max(times) if times else None,
               moving_median=statistics.median(moving) if moving else 0, game_s=len(times) * world.dt)
    return out


def run_scenario_timed(doc: dict[str, Any], budget_s: float = 300.0) -> dict[str, Any]:
    """Run a scenario document to its end with every ``step()`` timed: the metrics of the
    trajectories (``arcstar.world.metrics``), ms per tick, the units' statuses. Past
    ``budget_s`` seconds of wall time the run stops (``cut``) and is scored as it stands."""
    from arcstar.world import metrics, read_scenario

    t0 = time.perf_counter()
    scenario = read_scenario(doc)
    world = scenario.world
    setup_ms = (time.perf_counter() - t0) * 1000.0
    end = round(scenario.duration / world.dt)
    times = []
    started = time.perf_counter()
    cut = False
    while world.ticks < end and world.busy:
        if time.perf_counter() - started > budget_s:
            cut = True
            break
        t0 = time.perf_counter()
        world.step()
        times.append((time.perf_counter() - t0) * 1000.0)
    goals = {u["id"]: (u["goal"][0], u["goal"][1]) for u in doc["units"]}
    tracks = [metrics.Track(u.id, u.spec.width, np.asarray(u.samples, dtype=np.float64), u.arrived, goals[u.id])
              for u in world.units]
    m = metrics.measure(tracks, duration=scenario.duration)
    return {"metrics": m.as_dict(), "ticks": len(times), "cut": cut, "dt": world.dt, "setup_ms": setup_ms,
            "median_ms": statistics.median(times) if times else None, "p95_ms": percentile(times, 95),
            "max_ms": max(times) if times else None, "game_s": world.time,
            "statuses": sorted({u.status for u in world.units}),
            "events": len(getattr(world, "events", ()))}


def scenario_runs(names: list[str], methods: list[str], budget_s: float = 300.0) -> list[dict[str, Any]]:
    rows = []
    for name in names:
        for method in methods:
            row: dict[str, Any] = {"scenario": name, "method": method, "params": SCENARIOS.get(name, {})}
            try:
                row.update(run_scenario_timed(scenario_doc(name, method), budget_s))
            except Exception as exc:  # noqa: BLE001 - a refused or broken method: said in the table
                row["error"] = f"{type(exc).__name__}: {exc}"
            rows.append(row)
    return rows


def run_request(request: dict[str, Any]) -> dict[str, Any]:
    """What a section asks: {"counts", "size", "ticks", "seed", "methods" (None: all built),
    "scenarios" (names; empty: none), "budget_s" (wall time per crowd or scenario run)}."""
    built = built_methods()
    methods = [m for m in request.get("methods") or () if m in built] or built
    budget = request.get("budget_s", 120.0)
    timing = [tick_timing(c, request.get("size", 128), m, request.get("ticks", 400), request.get("seed", 7), budget)
              for c in request.get("counts", [100, 250]) for m in methods]
    scen = scenario_runs(request.get("scenarios", []), methods, budget)
    runtime = {"python": sys.version.split()[0]}
    try:
        import pyodide  # type: ignore[import-not-found]

        runtime["pyodide"] = getattr(pyodide, "__version__", "?")
    except ImportError:
        pass
    return {"runtime": runtime, "methods": methods, "timing": timing, "scenarios": scen}


def run_request_json(text: str) -> str:
    return json.dumps(run_request(json.loads(text)))


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(json.dumps(run_request({"counts": [100] if quick else [100, 250], "ticks": 100 if quick else 400,
                                  "scenarios": list(SCENARIOS)}), indent=1, default=str))
