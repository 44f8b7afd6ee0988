"""The world's peers (issue 11, "Peers"), on CPython only: ORCA (PyPI ``pyrvo``, Python bindings
of the C++ RVO2 library) driving the same units along arcstar's planned paths, and the tile
versions of the scenarios solved by PyPI ``pymapf``'s multi-agent path finders (CBS, PIBT,
LaCAM). Their runs become trajectories scored by ``arcstar.world.metrics``, the same code that
scores arcstar's worlds.

ORCA (``orca_run``): one agent per unit, radius = width / 2, max speed = the unit's top speed,
stepped at the world's dt. Each unit's route is planned once with ``arcstar.world.orders.
plan_route`` (the unit's own method, width and turning radius, as the world plans it) and sampled
every ``SPACING`` tiles; each tick an agent finds the nearest of the next few samples to where it
is and heads for the sample ``LOOKAHEAD`` tiles beyond it at top speed (the goal itself at
min(speed, distance / dt), so it stops there). Walls are ORCA obstacles: the map's blocked tiles
merged into rectangles. ORCA knows nothing of turning radii, acceleration or braking: its agents
turn on the spot and change speed at once. An agent has arrived the first time its centre is
within ``ARRIVE`` of its goal; it then stays in the simulation with no preferred velocity (so it
still takes part in avoidance and may be pushed).

pymapf (``mapf_run``): start and goal tiles (the tiles holding the units' start and goal
points), 4-connected moves on the ASCII map's free tiles, one agent per tile, vertex and swap
conflicts forbidden. A tile move takes 1 / speed s (speed: the slowest unit's top speed, the same
for every unit in these scenarios; a move of one tile between tile centres at top speed), so
makespan and sum of costs convert to seconds; trajectories are the tile centres joined by
straight moves at that speed, sampled at the world's dt, for the overlap and stuck metrics.
"""

from __future__ import annotations

import math
import statistics
import time
from typing import Any

import numpy as np

#: ORCA's agent parameters (tiles, seconds): neighbours within NEIGHBOR_DIST, at most
#: MAX_NEIGHBORS of them, velocities safe for TIME_HORIZON s against agents and
#: TIME_HORIZON_OBST s against walls.
NEIGHBOR_DIST = 5.0
MAX_NEIGHBORS = 10
TIME_HORIZON = 2.0
TIME_HORIZON_OBST = 1.0
#: Path samples (tiles apart), the look-ahead along the path (tiles), arrival distance (tiles).
SPACING = 0.25
LOOKAHEAD = 0.5
ARRIVE = 0.05
#: How many path samples ahead an agent looks for the nearest (SPACING * WINDOW tiles).
WINDOW = 12

PYRVO = "pyrvo==0.4.3"
PYMAPF = "pymapf==0.9.0"
MAPF_SOLVERS = ("cbs", "pibt", "lacam")


def peer_versions() -> dict[str, str | None]:
    """The installed peers' versions (None: not importable)."""
    from importlib import metadata

    out: dict[str, str | None] = {}
    for name in ("pyrvo", "pymapf"):
        try:
            __import__(name)
            out[name] = metadata.version(name)
        except Exception:  # noqa: BLE001 - missing or broken: reported as not importable
            out[name] = None
    return out


def wall_rectangles(blocked: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The blocked tiles as rectangles (x0, y0, x1, y1), tiles [x0, x1) x [y0, y1): runs along
    each row, merged with the identical run of the row below."""
    open_rects: dict[tuple[int, int], list[int]] = {}
    out: list[tuple[int, int, int, int]] = []
    h, w = blocked.shape
    for y in range(h + 1):
        runs: set[tuple[int, int]] = set()
        if y < h:
            row = blocked[y]
            x = 0
            while x < w:
                if row[x]:
                    x0 = x
                    while x < w and row[x]:
                        x += 1
                    runs.add((x0, x))
                else:
                    x += 1
        for key in list(open_rects):
            if key not in runs:
                y0 = open_rects.pop(key)[0]
                out.append((key[0], y0, key[1], y))
        for key in runs:
            open_rects.setdefault(key, [y])
    return out


def add_walls(sim: Any, blocked: np.ndarray) -> int:
    """The map's walls as ORCA obstacles; how many rectangles. RVO2 wants each polygon's
    vertices counter-clockwise in its own (x, y) frame, that is with a positive signed area in
    the coordinates given: (x0, y0), (x1, y0), (x1, y1), (x0, y1) with y down is such a list."""
    rects = wall_rectangles(blocked)
    for x0, y0, x1, y1 in rects:
        sim.add_obstacle([(float(x0), float(y0)), (float(x1), float(y0)), (float(x1), float(y1)),
                          (float(x0), float(y1))])
    sim.process_obstacles()
    return len(rects)


def route_points(tilemap: Any, spec: Any, start: tuple[float, float, float],
                 goal: tuple[float, float]) -> list[tuple[float, float]]:
    """arcstar's route for the unit (``plan_route``), sampled every SPACING tiles, ending on the
    goal; a straight line to the goal when there is no route."""
    from arcstar.geometry.primitives import Pose
    from arcstar.world.orders import plan_route

    route = plan_route(tilemap, spec, Pose(*start), ((goal[0], goal[1], None),))
    if route.path is None:
        return [(start[0], start[1]), goal]
    path = route.path
    n = max(1, math.ceil(path.length / SPACING))
    pts = []
    for i in range(n + 1):
        p = path.pose_at(path.length * i / n)
        pts.append((p.x, p.y))
    pts[-1] = goal
    return pts


def new_sim(dt: float) -> Any:
    import pyrvo

    sim = pyrvo.RVOSimulator()
    sim.set_time_step(dt)
    return sim


def add_agent(sim: Any, x: float, y: float, width: float, speed: float) -> int:
    return sim.add_agent((x, y), NEIGHBOR_DIST, MAX_NEIGHBORS, TIME_HORIZON, TIME_HORIZON_OBST,
                         width / 2.0, speed)


def preferred(x: float, y: float, pts: list[tuple[float, float]], idx: int, speed: float,
              dt: float) -> tuple[tuple[float, float], int]:
    """The preferred velocity toward the route (see the module notes) and the new index of the
    nearest path sample."""
    hi = min(len(pts), idx + WINDOW)
    best = min(range(idx, hi), key=lambda k: (pts[k][0] - x) ** 2 + (pts[k][1] - y) ** 2)
    ahead = min(len(pts) - 1, best + round(LOOKAHEAD / SPACING))
    tx, ty = pts[ahead]
    dx, dy = tx - x, ty - y
    d = math.hypot(dx, dy)
    if d < 1e-12:
        return (0.0, 0.0), best
    v = min(speed, d / dt) if ahead == len(pts) - 1 else speed
    return (dx / d * v, dy / d * v), best


def scenario_units(doc: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
    """The map and, per unit, its spec, start (x, y, heading) and goal (x, y), read from a
    scenario document as the world reads it (kind presets applied)."""
    from arcstar.world import read_scenario

    plain = {k: v for k, v in doc.items() if k not in ("fog",)}
    plain["avoidance"] = "none"
    world = read_scenario(plain).world
    units = []
    for raw, u in zip(doc["units"], world.units):
        units.append({"id": u.id, "spec": u.spec, "start": (u.x, u.y, u.heading),
                      "goal": (float(raw["goal"][0]), float(raw["goal"][1]))})
    return world, units


def orca_run(doc: dict[str, Any]) -> dict[str, Any]:
    """ORCA driving the scenario's units along arcstar's routes to the scenario's duration or
    until all arrived: metrics, median and p95 ms per ``do_step`` and per tick (do_step plus the
    Python that sets the preferred velocities and reads the agents back)."""
    from arcstar.world import metrics

    world, units = scenario_units(doc)
    dt = world.dt
    duration = float(doc.get("duration", 60.0))
    sim = new_sim(dt)
    walls = add_walls(sim, world.map.blocked)
    plans = [route_points(world.map, u["spec"], u["start"], u["goal"]) for u in units]
    for u in units:
        add_agent(sim, u["start"][0], u["start"][1], u["spec"].width, u["spec"].speed)
    idx = [0] * len(units)
    arrived: list[float | None] = [None] * len(units)
    heading = [u["start"][2] for u in units]
    samples: list[list[list[float]]] = [[[0.0, u["start"][0], u["start"][1], u["start"][2], 0.0]] for u in units]
    step_ms, tick_ms = [], []
    ticks = round(duration / dt)
    for k in range(1, ticks + 1):
        t0 = time.perf_counter()
        for i, u in enumerate(units):
            p = sim.get_agent_position(i)
            if arrived[i] is not None:
                sim.set_agent_pref_velocity(i, (0.0, 0.0))
                continue
            v, idx[i] = preferred(p.x, p.y, plans[i], idx[i], u["spec"].speed, dt)
            sim.set_agent_pref_velocity(i, v)
        t1 = time.perf_counter()
        sim.do_step()
        t2 = time.perf_counter()
        t = k * dt
        for i, u in enumerate(units):
            p, v = sim.get_agent_position(i), sim.get_agent_velocity(i)
            speed = math.hypot(v.x, v.y)
            if speed > metrics.STILL_SPEED:  # a creeping agent keeps its heading (no jitter)
                heading[i] = math.atan2(v.y, v.x)
            samples[i].append([t, p.x, p.y, heading[i], speed])
            if arrived[i] is None and math.hypot(p.x - u["goal"][0], p.y - u["goal"][1]) <= ARRIVE:
                arrived[i] = t
        tick_ms.append((time.perf_counter() - t0) * 1000.0)
        step_ms.append((t2 - t1) * 1000.0)
        if all(a is not None for a in arrived):
            break
    tracks = [metrics.track(u["id"], u["spec"].width, samples[i], arrived[i], u["goal"])
              for i, u in enumerate(units)]
    m = metrics.measure(tracks, duration=duration, blocked=world.map.blocked)
    return {"metrics": m.as_dict(), "ticks": len(step_ms), "walls": walls,
            "step_median_ms": statistics.median(step_ms) if step_ms else None,
            "step_max_ms": max(step_ms) if step_ms else None,
            "step_p95_ms": float(np.percentile(step_ms, 95)) if step_ms else None,
            "median_ms": statistics.median(tick_ms) if tick_ms else None}


def crowd_pyrvo(count: int, size: int, ticks: int, seed: int, walls: bool, repeats: int = 1) -> dict[str, Any]:
    """pyrvo's ``do_step`` for the crowd's units, tick by tick in step with arcstar's world
    (avoidance none): before each step every agent is put where arcstar's unit is, with its
    velocity and a preferred velocity toward the point LOOKAHEAD tiles further along the unit's
    path at top speed (zero for a unit that stands); only ``do_step`` is timed, and with
    ``repeats`` each step's time is its least over that many replays (as arcstar's ticks)."""
    runs = [_pyrvo_run(count, size, ticks, seed, walls) for _ in range(max(1, repeats))]
    step_ms = [min(ts) for ts in zip(*(r[1] for r in runs))]
    return {"count": count, "walls": walls, "rectangles": runs[0][0], "ticks": len(step_ms), "repeats": len(runs),
            "median_ms": statistics.median(step_ms) if step_ms else None,
            "p95_ms": float(np.percentile(step_ms, 95)) if step_ms else None}


def _pyrvo_run(count: int, size: int, ticks: int, seed: int, walls: bool) -> tuple[int, list[float]]:
    """One run of ``crowd_pyrvo``: the wall rectangles added and each ``do_step``'s ms."""
    from arcstar.world import presets, read_scenario

    world = read_scenario(presets.crowd(count=count, size=size, avoidance="none", seed=seed)).world
    world.record = False
    world.step()  # every unit plans its route
    sim = new_sim(world.dt)
    rects = add_walls(sim, world.map.blocked) if walls else 0
    for u in world.units:
        add_agent(sim, u.x, u.y, u.spec.width, u.spec.speed)
    step_ms = []
    for _ in range(ticks):
        if not world.busy:
            break
        for i, u in enumerate(world.units):
            sim.set_agent_position(i, (u.x, u.y))
            sim.set_agent_velocity(i, (u.speed * math.cos(u.heading), u.speed * math.sin(u.heading)))
            m = u.mover
            if m is None:
                sim.set_agent_pref_velocity(i, (0.0, 0.0))
                continue
            p = m.path.pose_at(min(m.path.length, m.s + LOOKAHEAD))
            dx, dy = p.x - u.x, p.y - u.y
            d = math.hypot(dx, dy)
            s = 0.0 if d < 1e-12 else min(u.spec.speed, d / world.dt) / d
            sim.set_agent_pref_velocity(i, (dx * s, dy * s))
        t0 = time.perf_counter()
        sim.do_step()
        step_ms.append((time.perf_counter() - t0) * 1000.0)
        world.step()
    return rects, step_ms


def tile_of(x: float, y: float) -> tuple[int, int]:
    return math.floor(x), math.floor(y)


def mapf_tracks(paths: dict[str, list[tuple[int, int]]], units: list[dict[str, Any]], step_s: float,
                dt: float) -> list[Any]:
    """Trajectories of a tile plan (cells are (row, col)): tile centres joined by straight moves
    of ``step_s`` seconds each, sampled every ``dt``; arrival when the path ends."""
    from arcstar.world import metrics

    horizon = max(len(p) for p in paths.values()) - 1
    n = round(horizon * step_s / dt)
    times = np.arange(n + 1) * dt
    out = []
    for u in units:
        cells = paths[u["id"]]
        ys = np.array([c[0] + 0.5 for c in cells] + [cells[-1][0] + 0.5])
        xs = np.array([c[1] + 0.5 for c in cells] + [cells[-1][1] + 0.5])
        k = np.minimum(times / step_s, len(cells) - 1)
        i = np.minimum(np.floor(k + 1e-9).astype(int), len(cells) - 1)
        f = k - i
        x = xs[i] + (xs[i + 1] - xs[i]) * f
        y = ys[i] + (ys[i + 1] - ys[i]) * f
        moving = (xs[i + 1] != xs[i]) | (ys[i + 1] != ys[i])
        heading = np.arctan2(ys[i + 1] - ys[i], xs[i + 1] - xs[i])
        heading = np.where(moving, heading, np.nan)
        # a waiting agent keeps the heading of its last move (its start heading before any)
        last = u["start"][2]
        for j in range(len(heading)):
            if np.isnan(heading[j]):
                heading[j] = last
            last = heading[j]
        speed = np.where(moving & (i < len(cells) - 1), 1.0 / step_s, 0.0)
        samples = np.stack([times, x, y, heading, speed], axis=1)
        arrived = (len(cells) - 1) * step_s
        out.append(metrics.Track(u["id"], u["spec"].width, samples, arrived, u["goal"]))
    return out


def mapf_run(doc: dict[str, Any], solvers: tuple[str, ...] = MAPF_SOLVERS, time_limit: float = 20.0,
             options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The scenario's tile version solved by each of ``solvers`` (pymapf names, built with
    ``time_limit`` and ``options``): per solver, whether it solved it (a conflict-free plan
    that ends every agent on its goal, within ``time_limit`` s), the makespan and sum of costs
    in moves and in seconds, the solve time, and the metrics of its trajectories."""
    import pymapf

    world, units = scenario_units(doc)
    grid = pymapf.GridMap(world.map.blocked.tolist())
    agents = []
    for u in units:
        sx, sy = tile_of(*u["start"][:2])
        gx, gy = tile_of(*u["goal"])
        agents.append(pymapf.Agent(u["id"], (sy, sx), (gy, gx)))
    problem = pymapf.MAPFProblem(grid, agents, allow_diagonals=False)
    step_s = 1.0 / min(u["spec"].speed for u in units)
    duration = float(doc.get("duration", 60.0))
    rows = []
    for name in solvers:
        row: dict[str, Any] = {"solver": name, "step_s": step_s}
        if name not in pymapf.available_solvers():
            row["error"] = f"pymapf has no solver {name!r}"
            rows.append(row)
            continue
        solver = pymapf.get_solver(name, time_limit=time_limit, **(options or {}))
        t0 = time.perf_counter()
        try:
            sol = solver.solve(problem)
        except Exception as exc:  # noqa: BLE001 - a peer's crash is reported, not fatal
            row["error"] = f"{type(exc).__name__}: {exc}"
            rows.append(row)
            continue
        row["solve_s"] = time.perf_counter() - t0
        if sol is None or not sol.paths:
            row["solved"] = False
            rows.append(row)
            continue
        valid = sol.is_valid()
        ends = all(sol.paths[a.name][-1] == a.goal for a in agents)
        row.update(solved=bool(valid and ends), valid=valid)
        rows.append(scored(row, sol, units, world, duration))
    return rows


def scored(row: dict[str, Any], sol: Any, units: list[dict[str, Any]], world: Any, duration: float
           ) -> dict[str, Any]:
    """``row`` with a tile plan's (a ``pymapf.Solution``'s) makespan and sum of costs in moves and
    in seconds (``row["step_s"]`` a move), and the metrics of the motion it makes."""
    from arcstar.world import metrics

    step_s = row["step_s"]
    row.update(makespan_moves=sol.makespan, sum_of_costs_moves=sol.sum_of_costs, makespan_s=sol.makespan * step_s,
               sum_of_costs_s=sol.sum_of_costs * step_s)
    tracks = mapf_tracks(sol.paths, units, step_s, world.dt)
    row["metrics"] = metrics.measure(tracks, duration=max(duration, sol.makespan * step_s),
                                     blocked=world.map.blocked).as_dict()
    return row


def arcstar_tile_run(doc: dict[str, Any], time_limit: float = 20.0) -> dict[str, Any]:
    """The scenario's tile version (as ``mapf_run`` builds it) planned by arcstar's cooperative
    planner as the world's ``cooperative`` avoidance plans a round: WHCA* (window, 4 neighbours,
    no rings), and LaCAM from the starts when WHCA* stalls. The plan is checked by pymapf's own
    conflict finder (independent code) and scored like pymapf's rows. ``time_limit`` is not
    enforced (the planner has its own budgets) but a slower solve is reported as unsolved."""
    import pymapf

    from arcstar.search.cooperative import CooperativePlanner
    from arcstar.world import coordinated, rounds

    world, units = scenario_units(doc)
    agents = [(tile_of(*u["start"][:2]), tile_of(*u["goal"])) for u in units]
    step_s = 1.0 / min(u["spec"].speed for u in units)
    row: dict[str, Any] = {"solver": "arcstar cooperative", "step_s": step_s}
    t0 = time.perf_counter()
    planner = CooperativePlanner(world.map, agents, rounds.WINDOW, neighbours=4, rotations=False)
    history = planner.solve(rounds.MAX_TICKS, stall=rounds.STALL, complete=coordinated.COMPLETE)
    row["solve_s"] = time.perf_counter() - t0
    row["lacam"] = planner.completed
    paths: dict[str, list[tuple[int, int]]] = {}
    for u, tiles, (_s, goal) in zip(units, history, agents, strict=True):
        end = len(tiles)
        while end > 1 and tiles[end - 1] == goal and tiles[end - 2] == goal:
            end -= 1  # pymapf's paths end when the agent settles on its goal
        paths[u["id"]] = [(y, x) for x, y in tiles[:end]]
    sol = pymapf.Solution(paths)
    valid = sol.is_valid()
    ends = all(paths[u["id"]][-1] == (g[1], g[0]) for u, (_s, g) in zip(units, agents, strict=True))
    solved = bool(valid and ends and row["solve_s"] <= time_limit)
    row.update(solved=solved, valid=valid)
    return scored(row, sol, units, world, float(doc.get("duration", 60.0))) if solved else row
