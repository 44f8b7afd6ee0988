"""One core's side of ``engine_compare``: a worker that answers timing requests, one JSON per line.

``bench/sections_engine.py`` starts two of these per runtime, one per arcstar core (the old
commit's and the new), and sends both the same requests in turn, so the two are measured on the
same maps, the same scenarios and under the same machine load. On CPython a worker is
``python bench/engine_bench.py PYCORE`` (requests on stdin, ``REPLY {json}`` lines on stdout); in
Pyodide, ``bench/engine_worker.mjs`` loads this module and calls ``handle_json`` per line.

It uses the standard library, ``search_bench`` (sampling and answer checks) and arcstar's public
API only (``arcstar.plan``, ``arcstar.parse_movingai_map``, ``arcstar.parse_scen``), so it runs
against the flat layout and the layered one alike.

Requests (``op``):
- ``hello``: {"runtime", "methods": {method: "ok" | why it was refused on a small map}}
- ``load`` {data_dir, map, n, seed}: loads the map, picks search_bench's sample of ``n``
  scenarios: {"map", "family", "size", "sample": [[id, bucket, start, goal, optimal], ...]}
- ``warm`` {methods, scenario}: one untimed query per method: {"setup_ms": {method: ms}}
- ``run`` {jobs: [[method, scenario id], ...], repeats}: each a timed ``plan()`` call (the fastest
  of ``repeats`` back to back), checked:
  {"results": [{"method", "scenario", "ms", "expanded", "cost", "ok", "mismatch", "bad_path",
  "why"} | {"method", "scenario", "error"}]}
Errors come back as {"error": text}.
"""

from __future__ import annotations

import gc
import json
import sys
import time
import traceback

try:
    from bench import search_bench as sb
except ImportError:  # a worker: bench/'s files sit on sys.path themselves
    import search_bench as sb

METHODS = ("astar", "dijkstra", "jps", "jpsplus")
RULES = {"costs": "octile", "heuristic": "octile", "diagonal": "both"}  # as the search sections
PROBE_MAP = "type octile\nheight 3\nwidth 5\nmap\n.....\n.@@@.\n.....\n"

_state: dict = {"case": None, "by_id": {}}


def runtime() -> dict:
    """The search sections' runtime description, and which arcstar file this worker loaded
    (the two workers must each load their own core)."""
    import arcstar

    return {**sb.runtime(), "arcstar_file": getattr(arcstar, "__file__", "?")}


def hello(_req: dict) -> dict:
    import arcstar

    probe = arcstar.parse_movingai_map(PROBE_MAP)
    methods = {}
    for m in METHODS:
        try:
            r = arcstar.plan(probe, (0, 0), (4, 2), method=m, **RULES)
            methods[m] = "ok" if r.status == "found" else f"status {r.status} on a small map"
        except Exception as exc:  # noqa: BLE001 - a refused method is reported, not fatal
            methods[m] = f"{type(exc).__name__}: {exc}"[:160]
    return {"runtime": runtime(), "methods": methods}


def load(req: dict) -> dict:
    _state["case"] = None
    gc.collect()
    case = sb.load_case(req["data_dir"], req["map"])
    sample = sb.pick(case.scenarios, int(req["n"]), int(req["seed"]))
    _state["case"] = case
    _state["by_id"] = {s.id: s for s in case.scenarios}
    gc.collect()
    return {
        "map": case.name,
        "family": case.family,
        "size": f"{case.tilemap.width}x{case.tilemap.height}",
        "sample": [[s.id, s.bucket, list(s.start), list(s.goal), s.optimal] for s in sample],
    }


def _plan(method: str, scen):
    from arcstar import plan

    t0 = time.perf_counter()
    r = plan(_state["case"].tilemap, scen.start, scen.goal, method=method, **RULES)
    return r, (time.perf_counter() - t0) * 1000.0


def warm(req: dict) -> dict:
    scen = _state["by_id"][req["scenario"]]
    setup, errors = {}, {}
    for m in req["methods"]:
        try:
            setup[m] = _plan(m, scen)[1]
        except Exception as exc:  # noqa: BLE001
            errors[m] = f"{type(exc).__name__}: {exc}"[:200]
    return {"setup_ms": setup, "errors": errors}


def run(req: dict) -> dict:
    """Each job ``repeats`` times back to back, keeping its fastest time (the first run after the
    other core's turn meets cold caches); the answer of its first run is checked."""
    case = _state["case"]
    gc.collect()  # untimed: garbage of the last batch is not charged to this one
    out = []
    for method, sid in req["jobs"]:
        scen = _state["by_id"][sid]
        try:
            r, ms = _plan(method, scen)
            for _ in range(max(1, int(req.get("repeats", 1))) - 1):
                ms = min(ms, _plan(method, scen)[1])
        except Exception as exc:  # noqa: BLE001 - reported in the table
            out.append({"method": method, "scenario": sid, "error": f"{type(exc).__name__}: {exc}"[:200]})
            continue
        found = r.status == "found"
        verdict = sb.judge(case, scen, r.cost if found else None, list(r.path) if found else None, True)
        out.append(
            {"method": method, "scenario": sid, "ms": ms, "expanded": int(r.expanded), "cost": r.cost, **verdict}
        )
    return {"results": out}


OPS = {"hello": hello, "load": load, "warm": warm, "run": run}


def handle_json(line: str) -> str:
    """One request in, one reply out (both JSON); an exception becomes {"error": ...}."""
    try:
        req = json.loads(line)
        reply = OPS[req["op"]](req)
    except Exception:  # noqa: BLE001 - the driver reports it
        reply = {"error": traceback.format_exc()[-1500:]}
    return json.dumps(reply)


def main(argv: list[str]) -> int:
    """``engine_bench.py PYCORE``: serve requests on stdin with the arcstar in PYCORE, until EOF."""
    sys.path.insert(0, argv[0])
    sys.dont_write_bytecode = True
    out = sys.stdout
    sys.stdout = sys.stderr  # a stray print must not be read as a reply
    for line in sys.stdin:
        if not line.strip():
            continue
        out.write("REPLY " + handle_json(line) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
