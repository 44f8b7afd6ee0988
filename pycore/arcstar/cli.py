"""The command line.

``python -m arcstar plan MAPFILE --from X,Y --to X,Y [--json]``: one path and its stats.
``python -m arcstar scen MAP SCEN [MAP SCEN ...] [--algorithm NAME] [--json] [--dask]``: every
problem of Moving AI scenario files under the benchmark's rules (8 neighbours, no corner cutting,
octile costs); with ``--dask`` (or ``--scheduler ADDRESS``) in parallel on Dask (``sweeps``).
``python -m arcstar world SCENARIO [--json]``: run a world scenario file (units, orders) to the
end and print every unit's trajectory (the README's "Worlds" section has the format).
``python -m arcstar generate KIND --width W --height H --seed S [--density D] [-o FILE]``: a seeded
map (maze, rooms, caves, obstacles, roads) as ASCII art with S and G, or arcstar JSON to a .json file.

Exit codes: 0 success, 1 no path (plan) or a cost that is not the optimal one (scen), 2 bad input,
3 a Dask sweep that failed on the cluster.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys

from .maps.generators import DENSITY, GeneratorKind, generate_map
from .maps.hexmap import HexMap
from .maps.mapio import MapFile, map_to_json, read_text_file, to_ascii
from .maps.reader import read_any
from .maps.waypoints import WaypointMap
from .outcomes import BadInput, Status
from .planner import METHODS, plan
from .search.grid import COST_MODELS, DIAGONAL_POLICIES
from .search.heuristics import HEURISTICS
from .sweeps import CONNECT_TIMEOUT_S, LOCAL_WORKERS, FileResult, SweepError, read_pairs, run_dask, run_serial
from .turning.methods import TURN_METHODS
from .world import MAX_SCENARIO_BYTES, load_scenario, run_scenario


def _point(text: str) -> tuple[int, int] | tuple[int, int, float] | tuple[int, int, list[float]]:
    """X,Y or X,Y,HEADING (integers; the heading in radians, 0 = +x, pi/2 = +y, down), or
    X,Y,H1/H2/... : a goal any of those headings will do (the directional methods)."""
    parts = text.split(",")
    try:
        if len(parts) == 2:
            return int(parts[0]), int(parts[1])
        if len(parts) == 3 and "/" in parts[2]:
            return int(parts[0]), int(parts[1]), [float(h) for h in parts[2].split("/")]
        if len(parts) == 3:
            return int(parts[0]), int(parts[1]), float(parts[2])
    except ValueError:
        pass
    raise BadInput(f"expected X,Y, X,Y,HEADING or X,Y,H1/H2/... (integers, headings in radians), got {text!r}",
                   "point")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="arcstar", description="Realistic pathfinding for game units.")
    sub = p.add_subparsers(dest="command", required=True)
    pl = sub.add_parser("plan", help="find a path on a map file (ASCII art, Moving AI .map, or arcstar JSON)")
    pl.add_argument("mapfile")
    pl.add_argument("--from", dest="start", help="start tile X,Y or X,Y,HEADING (default: the map's S marker); "
                    "on a hex map the axial cell Q,R; on a waypoint graph a waypoint id")
    pl.add_argument("--to", dest="goal", help="goal, as --from (default: the map's G marker)")
    pl.add_argument("--hex", choices=("pointy", "flat"), default=None,
                    help="read ASCII art as a hex map of this orientation (hex JSON says its own)")
    pl.add_argument("--method", choices=(*METHODS, *TURN_METHODS), default="astar",
                    help="a search (astar, dijkstra, jps, jpsplus, hpa) or a turning method on A*'s path "
                         "(smooth, ignore, recalculate, tighter, backup)")
    pl.add_argument("--width", type=float, default=None, help="the unit's diameter in tiles")
    pl.add_argument("--radius", type=float, default=None, help="the unit's turning radius in tiles (default 1)")
    pl.add_argument("--reverse", action="store_true", help="the unit can back up (Reeds-Shepp curves)")
    pl.add_argument("--art", type=int, choices=(8, 16), default=None, help="fixed-angle art directions")
    pl.add_argument("--heuristic", choices=(*HEURISTICS, "hex"), default=None,
                    help="default: manhattan for astar (Lester), octile for jps, jpsplus and hpa")
    pl.add_argument("--weight", type=float, default=1.0)
    pl.add_argument("--neighbours", type=int, choices=(4, 8), default=8)
    pl.add_argument("--diagonal", choices=DIAGONAL_POLICIES, default="both")
    pl.add_argument("--costs", choices=tuple(COST_MODELS), default="lester")
    pl.add_argument("--max-expansions", type=int, default=None)
    pl.add_argument("--turn-penalty", type=float, default=None,
                    help="cost per change of direction (grids); on directional24/48 cost per radian turned")
    pl.add_argument("--people", action="store_true",
                    help="directional24/48 for people: a tight radius with a strong turn penalty (Pinter)")
    pl.add_argument("--json", action="store_true", help="print the result as JSON")
    sc = sub.add_parser("scen", help="run every problem of Moving AI .scen files and compare with their optima")
    sc.add_argument("files", nargs="+", metavar="MAP SCEN",
                    help="a .map file and its .scen file; several pairs run as one sweep")
    sc.add_argument("--algorithm", choices=tuple(METHODS), default="astar")
    sc.add_argument("--first", type=int, default=None, help="run only the first N problems of each file")
    sc.add_argument("--json", action="store_true", help="print the rows as a JSON list (several pairs: a list "
                    "of {map, scen, rows})")
    sc.add_argument("--dask", action="store_true", help="run in parallel on Dask: a local cluster unless "
                    "--scheduler is given (needs pip install 'arcstar[dask]')")
    sc.add_argument("--scheduler", default=None, metavar="ADDRESS",
                    help="a Dask scheduler's address, e.g. tcp://10.0.0.5:8786 (implies --dask)")
    sc.add_argument("--workers", type=int, default=LOCAL_WORKERS,
                    help=f"processes of the local Dask cluster (default {LOCAL_WORKERS})")
    sc.add_argument("--timeout", type=float, default=CONNECT_TIMEOUT_S, metavar="SECONDS",
                    help=f"how long to wait for the scheduler (default {CONNECT_TIMEOUT_S})")
    wo = sub.add_parser("world", help="run a world scenario (units with orders) and print the trajectories")
    wo.add_argument("scenario", help="a scenario JSON file (see the README, Worlds)")
    wo.add_argument("--json", action="store_true", help="print every sample as JSON")
    ge = sub.add_parser("generate", help="make a seeded map: maze, rooms, caves, obstacles or roads")
    ge.add_argument("kind", choices=[k.value for k in GeneratorKind])
    ge.add_argument("--width", type=int, default=48, help="tiles (3 to 1024, default 48)")
    ge.add_argument("--height", type=int, default=32, help="tiles (3 to 1024, default 32)")
    ge.add_argument("--seed", type=int, default=1, help="0 to 4294967295 (default 1): the same seed, the same map")
    ge.add_argument("--density", type=float, default=None,
                    help="; ".join(f"{k.value}: {what}, {low} to {high} (default {d})"
                                   for k, (what, low, high, d) in DENSITY.items()))
    ge.add_argument("--corridor", type=int, default=1, help="maze: corridor width in tiles (1 to 8, default 1)")
    ge.add_argument("--room", type=int, default=5, help="rooms: the smallest room side in tiles (2 to 64, default 5)")
    ge.add_argument("-o", "--output", default=None,
                    help="write to this file (arcstar JSON if it ends in .json, else ASCII art) instead of printing")
    return p


def _waypoint_id(text: str, waypoints: WaypointMap) -> str | int:
    """A waypoint id as typed: the string if a waypoint has it, else the integer it spells."""
    if text in waypoints or not re.fullmatch(r"-?\d+", text):
        return text
    return int(text)


def _cmd_plan_graph(args: argparse.Namespace, graph_map: HexMap | WaypointMap) -> int:
    """Plan on a hex map or a waypoint graph (a point unit: no turning stage)."""
    if args.start is None or args.goal is None:
        raise ValueError("give --from and --to (hex and waypoint maps carry no start or goal markers)")
    if args.method in TURN_METHODS or args.width is not None:
        raise ValueError("hex and waypoint maps plan for a point unit: no width or turning method")
    start: tuple[int, int] | str | int
    goal: tuple[int, int] | str | int
    if isinstance(graph_map, HexMap):
        start, goal = _point(args.start)[:2], _point(args.goal)[:2]
    else:
        start, goal = _waypoint_id(args.start, graph_map), _waypoint_id(args.goal, graph_map)
    result = plan(graph_map, start, goal, method=args.method, heuristic=args.heuristic, weight=args.weight,
                  max_expansions=args.max_expansions)
    kind = "hex" if isinstance(graph_map, HexMap) else "waypoints"
    if args.json:
        print(json.dumps({"map": {"kind": kind}, "start": start, "goal": goal, **result.to_json()}, allow_nan=False))
    else:
        print(f"status: {result.status}" + (f" ({result.message})" if result.message else ""))
        if result.path:
            print("path: " + " ".join(f"{p[0]},{p[1]}" if isinstance(p, tuple) else str(p) for p in result.path))
        print(f"cost: {result.cost}  length: {result.length:.4f}  expanded: {result.expanded}  "
              f"time: {result.ms:.2f} ms")
    return 0 if result.status == Status.FOUND else 1


def _cmd_plan(args: argparse.Namespace) -> int:
    read = read_any(read_text_file(args.mapfile), args.hex)
    if not isinstance(read, MapFile):
        return _cmd_plan_graph(args, read)
    loaded = read
    start = _point(args.start) if args.start else loaded.start
    goal = _point(args.goal) if args.goal else loaded.goal
    if start is None or goal is None:
        raise ValueError("give --from X,Y and --to X,Y (the map has no S/E markers)")
    turning = args.method if args.method in TURN_METHODS else None
    given = {k: v for k, v in (("radius", args.radius), ("turn_penalty", args.turn_penalty),
                               ("people", args.people or None)) if v is not None}  # people's presets stay
    result = plan(loaded.map, start, goal, method="astar" if turning else args.method, heuristic=args.heuristic,
                  weight=args.weight, neighbours=args.neighbours, diagonal=args.diagonal, costs=args.costs,
                  max_expansions=args.max_expansions, width=args.width, turning=turning,
                  can_reverse=args.reverse, art=args.art, **given)
    if args.json:
        print(json.dumps({"map": {"width": loaded.map.width, "height": loaded.map.height},
                          "start": list(start), "goal": list(goal), **result.to_json()}, allow_nan=False))
    else:
        if loaded.map.width <= 120 and loaded.map.height <= 60:
            print(to_ascii(loaded.map, start[:2], goal[:2], result.path[1:-1]), end="")
        print(f"status: {result.status}" + (f" ({result.message})" if result.message else ""))
        if result.path:
            print("path: " + " ".join(f"{x},{y}" for x, y in result.path))
        print(f"cost: {result.cost}  length: {result.length:.4f} tiles  steps: {max(len(result.path) - 1, 0)}  "
              f"expanded: {result.expanded}  time: {result.ms:.2f} ms")
        if result.segments is not None:
            print(f"{turning}: {len(result.segments.segments)} segments ({result.segments.word}), "
                  f"length {result.segments.length:.4f}, {result.turns} turns, "
                  f"{'legal' if result.legal else 'NOT legal'}")
    return 0 if result.status == "found" else 1


def _print_scen_table(result: FileResult, algorithm: str) -> None:
    print(f"{'id':>6} {'optimal':>12} {'cost':>12} {'expanded':>9} {'ms':>9}")
    for row in result.rows:
        cost = "none" if row["cost"] is None else f"{row['cost']:.5f}"
        print(f"{row['id']:>6} {row['optimal']:>12.5f} {cost:>12} {row['expanded']:>9} {row['ms']:>9.2f}")
    if result.rows:
        ms = statistics.median(r["ms"] for r in result.rows)
        expanded = statistics.median(r["expanded"] for r in result.rows)
        print(f"{len(result.rows)} problems, {len(result.wrong)} not optimal; median {ms:.2f} ms, "
              f"{expanded:.0f} expanded per query ({algorithm})")


def _cmd_scen(args: argparse.Namespace) -> int:
    pairs = read_pairs(args.files, args.first)
    if args.dask or args.scheduler is not None:
        results = run_dask(pairs, args.algorithm, args.scheduler, args.workers, args.timeout)
    else:
        results = run_serial(pairs, args.algorithm)
    if args.json and len(results) == 1:
        print(json.dumps(results[0].rows))
    elif args.json:
        print(json.dumps([{"map": r.map_path, "scen": r.scen_path, "rows": r.rows} for r in results]))
    else:
        for r in results:
            if len(results) > 1:
                print(f"== {r.map_path} {r.scen_path}")
            _print_scen_table(r, args.algorithm)
        if len(results) > 1:
            print(f"{len(results)} files, {sum(len(r.rows) for r in results)} problems, "
                  f"{sum(len(r.wrong) for r in results)} not optimal")
    return 1 if any(r.wrong for r in results) else 0


def _cmd_world(args: argparse.Namespace) -> int:
    try:
        with open(args.scenario, "rb") as f:
            data = f.read(MAX_SCENARIO_BYTES + 1)  # never more than the limit, whatever the file's size
    except OSError as e:
        raise BadInput(f"cannot read scenario file {args.scenario}: {e.strerror}", "scenario") from None
    out = run_scenario(load_scenario(data))
    if args.json:
        print(json.dumps(out, allow_nan=False))
    else:
        for u in out["units"]:
            last = u["samples"][-1]
            arrived = "not arrived" if u["arrived"] is None else f"arrived at {u['arrived']:g} s"
            print(f"{u['id']}: {arrived} ({u['status']}), at ({last[1]:.3f}, {last[2]:.3f}) facing "
                  f"{last[3]:.3f} rad after {last[0]:g} s, {len(u['samples'])} samples")
    return 0


def _cmd_generate(args: argparse.Namespace) -> int:
    made = generate_map(args.kind, args.width, args.height, args.seed, density=args.density,
                        corridor=args.corridor, room=args.room)
    if args.output and args.output.lower().endswith(".json"):
        text = json.dumps(map_to_json(made.map)) + "\n"
    else:
        text = to_ascii(made.map, made.start, made.goal)
    if not args.output:
        print(text, end="")
        return 0
    try:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise BadInput(f"cannot write {args.output}: {e.strerror}", "output") from None
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    commands = {"plan": _cmd_plan, "scen": _cmd_scen, "world": _cmd_world, "generate": _cmd_generate}
    try:
        return commands[args.command](args)
    except ValueError as e:
        print(f"arcstar: error: {e}", file=sys.stderr)
        return 2
    except SweepError as e:
        print(f"arcstar: error: {e}", file=sys.stderr)
        return 3
