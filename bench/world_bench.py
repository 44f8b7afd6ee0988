"""World measurement (issue 11, "Speed" and "Proof"): ticks of a crowd, and the proof scenarios run
to the end with each avoidance method, scored by ``arcstar.world.metrics``.

One module for every runtime: CPython (imported by ``bench/sections_world.py``) and Pyodide
under Node.js (``bench/pyodide_runner.mjs`` mounts ``bench/`` and calls ``run_request_json``).
Standard library, numpy and arcstar only; the peers (pyrvo, pymapf) are in ``world_peers.py``.

- **ticks**: ``presets.crowd(count)`` on a size x size map, per avoidance method the core accepts
  (``arcstar.world.units.BUILT_AVOIDANCE``, read at run time so methods are picked up as they
  land): the first tick (every unit plans its route) timed alone, then ``ticks`` ticks of
  ``World.step()`` one by one (recording samples off, as a game would run it): median, 95th
  percentile and worst ms per tick, and how many units were moving; the methods that plan rounds
  (jams, cooperative) again with the lab's budgets when the request names them: ``plan_work`` (a
  round planned a tick's work at a time) and ``route_work`` (re-plans queued within a tick's work),
  with how long the queued re-plans waited.
- **scenarios**: the proof presets (``presets.PRESETS``) per method, run to their duration or
  until every unit is done, every ``step()`` timed; the metrics of the trajectories.

Standalone: ``python bench/world_bench.py [--quick]`` (pycore/ on the path).
"""

from __future__ import annotations

import contextlib
import json
import math
import signal
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

#: How many times a crowd's ticks are replayed (``tick_timing``): the machine the bench runs on is
#: shared, and its speed was seen to swing by up to two times from one second to the next.
REPEATS = 3

#: The methods that plan rounds (a jam's plan, cooperative), timed again with a ``plan_work``.
ROUNDS = ("pinter", "claimed", "cooperative")

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


class OverBudget(Exception):
    """The wall-time budget ran out in the middle of a tick."""


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise ``OverBudget`` in this (main) thread once ``seconds`` of wall time have passed, even
    inside a tick that never returns on its own. Where timers cannot be had (Pyodide, a thread
    other than the main one) it does nothing and only the checks between ticks hold."""
    usable = sys.platform != "emscripten" and hasattr(signal, "setitimer") \
        and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def fire(signum: int, frame: Any) -> None:
        raise OverBudget

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def failure(exc: BaseException, tick: int) -> str:
    return f"{type(exc).__name__} at tick {tick}: {exc}"[:300]


def tick_timing(count: int, size: int, method: str, ticks: int, seed: int, budget_s: float = 120.0,
                repeats: int = REPEATS, plan_work: int | None = None, route_work: int | None = None
                ) -> dict[str, Any]:
    """One crowd, ``ticks`` timed ticks after the first (see the module notes), replayed
    ``repeats`` times; each tick's time is its least over the replays (``min_of``). Fewer ticks
    if a replay takes more than ``budget_s`` seconds (``cut`` says so; a tick running when the
    budget runs out is stopped where timers can be had). An exception is reported (``error``)
    with what was measured before it."""
    out: dict[str, Any] = {"count": count, "size": size, "method": method, "cut": False, "first_ms": None,
                           "repeats": 0, "plan_work": plan_work, "route_work": route_work}
    runs: list[list[float]] = []
    moving: list[int] = []
    firsts: list[float] = []
    for _ in range(max(1, repeats)):
        run = _replay(count, size, method, ticks, seed, budget_s, out, plan_work, route_work)
        if run is None:
            break
        times, first, moving = run
        runs.append(times)
        firsts.append(first)
        if out["cut"] or "error" in out:
            break
    times = min_of(runs)
    firsts = [f for f in firsts if not math.isnan(f)]
    out.update(repeats=len(runs), ticks=len(times), first_ms=min(firsts) if firsts else None,
               median_ms=statistics.median(times) if times else None, p95_ms=percentile(times, 95),
               mean_ms=statistics.fmean(times) if times else None,
               max_ms=max(times) if times else None, moving_median=statistics.median(moving) if moving else 0,
               game_s=len(times) * out.get("dt", 0.0))
    return out


def min_of(runs: list[list[float]]) -> list[float]:
    """Tick by tick, the least time over replays of one deterministic world (each replay does
    the very same work; a slower one was slowed by the machine, not by the code), over the
    ticks every replay reached."""
    return [min(ts) for ts in zip(*runs)] if runs else []


def _replay(count: int, size: int, method: str, ticks: int, seed: int, budget_s: float, out: dict[str, Any],
            plan_work: int | None = None, route_work: int | None = None
            ) -> tuple[list[float], float, list[int]] | None:
    """One run of the crowd: each tick's ms, the first tick's ms and the moving units per tick;
    None when the world cannot be made (``out["error"]`` says why). A cut or an error is noted
    in ``out`` and what was timed before it is returned; so are the queued routes' waits
    (``routes``: handed out, mean and longest wait in ticks)."""
    from arcstar.world import presets, read_scenario

    doc = presets.crowd(count=count, size=size, avoidance=method, seed=seed)
    doc["plan_work"] = plan_work
    if route_work is not None:
        doc["route_work"] = route_work
    try:
        world = read_scenario(doc).world
    except Exception as exc:  # noqa: BLE001 - a method refused or broken: said in the table
        out["error"] = f"{type(exc).__name__}: {exc}"
        return None
    world.record = False
    out["dt"] = world.dt
    times: list[float] = []
    moving: list[int] = []
    first = math.nan
    started = time.perf_counter()
    try:
        with deadline(budget_s):
            t0 = time.perf_counter()
            world.step()
            first = (time.perf_counter() - t0) * 1000.0
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
    except OverBudget:
        out["cut"] = True
    except Exception as exc:  # noqa: BLE001 - a broken method: said in the table
        out["error"] = failure(exc, world.ticks)
    q = world.routes
    out["routes"] = {"planned": q.planned, "mean_wait": q.waited / q.planned if q.planned else 0.0,
                     "longest_wait": q.longest}
    return times, first, moving


def run_scenario_timed(doc: dict[str, Any], budget_s: float = 300.0) -> dict[str, Any]:
    """Run a scenario document to its end with every ``step()`` timed: the metrics of the
    trajectories (``arcstar.world.metrics``), ms per tick, the units' statuses. Past
    ``budget_s`` seconds of wall time the run stops (``cut``; a tick still running is stopped
    where timers can be had) and is scored as it stands, as it is after an exception
    (``error``)."""
    from arcstar.world import metrics, read_scenario

    t0 = time.perf_counter()
    scenario = read_scenario(doc)
    world = scenario.world
    setup_ms = (time.perf_counter() - t0) * 1000.0
    end = round(scenario.duration / world.dt)
    times: list[float] = []
    started = time.perf_counter()
    cut, error = False, None
    try:
        with deadline(budget_s):
            while world.ticks < end and world.busy:
                if time.perf_counter() - started > budget_s:
                    cut = True
                    break
                t0 = time.perf_counter()
                world.step()
                times.append((time.perf_counter() - t0) * 1000.0)
    except OverBudget:
        cut = True
    except Exception as exc:  # noqa: BLE001 - a broken method: scored as it stands, said in the table
        error = failure(exc, world.ticks)
    goals = {u["id"]: (u["goal"][0], u["goal"][1]) for u in doc["units"]}
    tracks = [metrics.Track(u.id, u.spec.width, np.asarray(u.samples, dtype=np.float64), world.arrival(u), goals[u.id])
              for u in world.units]
    m = metrics.measure(tracks, duration=scenario.duration, blocked=world.map.blocked)  # the true map (fog too)
    return {"metrics": m.as_dict(), "ticks": len(times), "cut": cut, "failed": error, "dt": world.dt,
            "setup_ms": setup_ms, "median_ms": statistics.median(times) if times else None,
            "p95_ms": percentile(times, 95), "max_ms": max(times) if times else None, "game_s": world.time,
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
    "scenarios" (names; empty: none), "budget_s" (wall time per crowd replay or scenario run),
    "repeats" (replays of each crowd, ``REPEATS`` by default), "plan_work" and "route_work" (if
    plan_work is given: the methods in ``ROUNDS`` again with both, the lab's budgets)}."""
    built = built_methods()
    methods = [m for m in request.get("methods") or () if m in built] or built
    budget = request.get("budget_s", 120.0)
    repeats = request.get("repeats", REPEATS)
    work, routes = request.get("plan_work"), request.get("route_work")
    runs = [(m, None, None) for m in methods] + [(m, work, routes) for m in methods if work and m in ROUNDS]
    timing = [tick_timing(c, request.get("size", 128), m, request.get("ticks", 400), request.get("seed", 7), budget,
                          repeats, pw, rw) for c in request.get("counts", [100, 250]) for m, pw, rw in runs]
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
