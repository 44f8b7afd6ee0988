"""Orders and the routes they need: move, move to the nearest of several targets, patrol, stop.

Points are (x, y) in tiles, anywhere inside a tile (centres at +0.5), with an optional heading
in radians (0 = east, pi/2 = south; y down). The planner plans between tiles; a route adds the
short straight lines from the unit's exact position to its tile's centre and from the goal
tile's centre to the exact goal point, and a turn on the spot to a goal heading the path does
not end on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from ..collision.clearance import passable_for
from ..collision.swept import swept_line_clear
from ..geometry.primitives import Arc, Line, Path, Pose, angle_diff
from ..maps.tilemap import TileMap
from ..outcomes import BadInput, Status
from ..planner import PlanJob, PlanOptions, PlanResult
from ..search.sliced import Sliced, run_to_end
from .units import UnitSpec

#: Positions closer than this are the same point (tiles).
SAME = 1e-9
#: A lead-in within this of straight behind the unit counts as behind it (radians).
BEHIND = 0.2
#: The longest straight run of a tile path (tiles) that a unit able to back up drives in
#: reverse when the run lies behind it (more than a quarter turn from the way it faces), rather
#: than turning round on the spot to face it: stepping aside and back, or backing out of a
#: pocket, as a driver would. A tank turns half round in 3.9 s and a car in 6.3 s, the time of
#: 6 and 20 tiles of driving; a run longer than this is driven facing it, as before.
REVERSE_MOST = 4.0
#: The work a route counts for setting up each of its plans (the map's graph for the unit's
#: width, patched where other units are walled in, and the search's site: about as long as 200
#: expansions), and the work it is stepped by (``plan_route_steps``): a queue that spends a
#: tick's budget on routes (``World.route_work``) overshoots it by a slice at most, or by one
#: piece of the turning stage (``turning.methods.PIECE_WORK`` a piece).
SETUP_WORK, SLICE = 200, 64


class OrderKind(StrEnum):
    """What an order asks: ``move`` to a point, ``nearest`` of its points (Lester's gatherer),
    ``patrol`` its points in turn for ever, ``stop`` (brake to a halt and forget the queue)."""

    MOVE = "move"
    NEAREST = "nearest"
    PATROL = "patrol"
    STOP = "stop"


Point = tuple[float, float, float | None]


@dataclass(frozen=True)
class Order:
    """An order: its kind, its points ((x, y, heading or None); one for move, one or more for
    nearest and patrol, none for stop) and ``at``: the time (s) it is given, which replaces
    whatever the unit was doing; None queues it after the orders before it. ``aside``: given by
    avoidance, to step out of another unit's way (and back); the unit's goal stays that of its
    last order not aside, and it has arrived only when it stands there. ``then``: the untimed
    orders given after a timed one, queued behind it when it takes over (``World.add``)."""

    kind: OrderKind
    points: tuple[Point, ...] = ()
    at: float | None = None
    aside: bool = False
    then: tuple[Order, ...] = ()


@dataclass(frozen=True)
class Route:
    """A planned route: the path to drive and the planner's speed limits along it (tiles, a
    factor of top speed), or ``path`` None with ``message`` saying why there is none (``path``
    None and no message: already there)."""

    path: Path | None
    speed_limits: tuple = ()
    message: str = ""
    goal: Point | None = None


def tile_of(x: float, y: float) -> tuple[int, int]:
    """The tile holding the point (x, y): (floor x, floor y)."""
    return math.floor(x), math.floor(y)


def route_from(result: PlanResult, pose: Pose, goal: Point, reverse: bool = False) -> Route:
    """The route a plan gives from ``pose`` (the unit's exact place) to ``goal``: the plan's path
    with the lead-in from ``pose`` and the lead-out to the exact goal point (and its heading).
    With ``reverse`` (the unit can back up), a lead-in straight behind the unit is driven in
    reverse instead of turning round twice."""
    if result.status != Status.FOUND or (result.legal is False):
        why = result.message or str(result.status)
        return Route(None, message=f"{result.status}: {why}")
    segs: list[Line | Arc]
    if result.segments is not None:
        segs = list(result.segments.segments)
        limits = tuple(tuple(v) for v in result.speed_limits)
    else:  # a plain search: the polyline through the tile centres, pivoting at its corners
        centres = [(x + 0.5, y + 0.5) for x, y in result.path]
        if not reverse or len(centres) < 2:
            segs = list(Path.from_waypoints(centres).segments) if len(centres) > 1 else []
        else:  # facing as it will after the lead-in to the first centre
            first = _lead_in(pose, centres[0], reverse)
            segs = backing_polyline(centres, pose.heading if first is None else first.heading)
        limits = ()
    start = segs[0].start_pose() if segs else pose
    shift = 0.0
    lead = _lead_in(pose, start.xy, reverse)
    if lead is not None:
        segs.insert(0, lead)
        shift = lead.length
    end = segs[-1].end_pose() if segs else start
    gx, gy, gh = goal
    if math.hypot(gx - end.x, gy - end.y) > SAME:
        segs.append(Line(end.x, end.y, math.atan2(gy - end.y, gx - end.x), math.hypot(gx - end.x, gy - end.y)))
        end = segs[-1].end_pose()
    if gh is not None and abs(angle_diff(gh, end.heading)) > 1e-6:
        segs.append(Line(end.x, end.y, gh, 0.0))  # turn on the spot to face the goal heading
    if not segs:
        return Route(None, goal=goal)
    limits = tuple((a + shift, b + shift, f) for a, b, f in limits)
    return Route(Path(tuple(segs)), limits, goal=goal)


def _lead_in(pose: Pose, to: tuple[float, float], reverse: bool) -> Line | None:
    """The straight line from the unit's exact place to the first point of its path (None: it
    is there), backed along when the point lies straight behind a unit that can back up."""
    length = math.hypot(to[0] - pose.x, to[1] - pose.y)
    if length <= SAME:
        return None
    way = math.atan2(to[1] - pose.y, to[0] - pose.x)
    back = reverse and abs(angle_diff(way, pose.heading + math.pi)) < BEHIND
    # backing up: facing exactly away from where it goes
    return Line(pose.x, pose.y, way + math.pi if back else way, length, -1 if back else 1)


def backing_polyline(centres: list[tuple[float, float]], facing: float) -> list[Line | Arc]:
    """The lines through ``centres`` for a unit that can back up and faces ``facing`` at the
    first: a straight run of at most ``REVERSE_MOST`` tiles that lies behind the way it faces
    then is backed along (gear -1, facing away from where it goes); any other run is driven
    facing it, the unit pivoting onto it first. One line a step, as ``Path.from_waypoints``."""
    pts: list[tuple[float, float]] = []
    for p in centres:
        if not pts or p != pts[-1]:
            pts.append(p)
    lines: list[Line | Arc] = []  # (lines only: the type of a path's segments)
    k = 0
    while k < len(pts) - 1:
        (ax, ay), (bx, by) = pts[k], pts[k + 1]
        way = math.atan2(by - ay, bx - ax)
        end = k + 1
        while end < len(pts) - 1 and math.atan2(pts[end + 1][1] - pts[end][1], pts[end + 1][0] - pts[end][0]) == way:
            end += 1
        steps = [math.hypot(pts[i + 1][0] - pts[i][0], pts[i + 1][1] - pts[i][1]) for i in range(k, end)]
        back = abs(angle_diff(way, facing + math.pi)) < abs(angle_diff(way, facing)) - 1e-9 and \
            sum(steps) <= REVERSE_MOST + 1e-9
        facing = way + math.pi if back else way
        for i, length in zip(range(k, end), steps, strict=True):
            lines.append(Line(pts[i][0], pts[i][1], facing, length, -1 if back else 1))
        k = end
    return lines


def start_tile(tilemap: TileMap, pose: Pose, goal: Point, width: float) -> tuple[int, int]:
    """The tile to plan from: the one the unit stands on, or, when it is already past that
    tile's centre heading for ``goal``, the open tile it is driving into (so that the route does
    not start backwards), if a body ``width`` wide can drive straight to its centre (the
    route's lead-in: from beside a wall's corner it may not)."""
    here = tile_of(pose.x, pose.y)
    dx, dy = math.cos(pose.heading), math.sin(pose.heading)
    if (here[0] + 0.5 - pose.x) * dx + (here[1] + 0.5 - pose.y) * dy >= -0.05:
        return here
    ahead = tile_of(pose.x + 0.5 * dx, pose.y + 0.5 * dy)
    if ahead == here or not (ahead[0] == here[0] or ahead[1] == here[1]) or not tilemap.in_bounds(*ahead) \
            or tilemap.is_blocked(*ahead) \
            or not swept_line_clear(tilemap, (pose.x, pose.y), (ahead[0] + 0.5, ahead[1] + 0.5), width):
        return here
    gx, gy = goal[0], goal[1]
    nearer = math.hypot(ahead[0] + 0.5 - gx, ahead[1] + 0.5 - gy) < math.hypot(here[0] + 0.5 - gx, here[1] + 0.5 - gy)
    return ahead if nearer else here


def plan_route(tilemap: TileMap, unit: UnitSpec, pose: Pose, goals: tuple[Point, ...],
               to_nearest: bool = False) -> Route:
    """The route for ``unit`` standing at ``pose`` to ``goals[0]`` (or, ``to_nearest``, to the
    nearest of ``goals`` by the ground, planned there by the unit's own method)."""
    return run_to_end(plan_route_steps(tilemap, unit, pose, goals, to_nearest))


def plan_route_steps(tilemap: TileMap, unit: UnitSpec, pose: Pose, goals: tuple[Point, ...],
                     to_nearest: bool = False) -> Sliced[Route]:
    """``plan_route`` a slice at a time (``search.sliced``): it yields the work done (the
    planner's units, about an expansion each, and ``SETUP_WORK`` for setting up each plan) and
    returns the route, the same however it is sliced."""
    here = start_tile(tilemap, pose, goals[0], unit.width)
    options = unit.plan_options()
    start = (here[0], here[1], pose.heading)
    if to_nearest and len(goals) > 1:
        # the nearest by the ground for its width (Dijkstra over the tiles), then the way there as
        # the unit plans it (its own method: the directional searches go to one goal only); a
        # target whose tile has no room for its body is passed over (its goal point may fit
        # beside a wall where the tile's centre does not)
        room = passable_for(tilemap, unit.width)
        fit = [(g, t) for g, t in ((g, tile_of(g[0], g[1])) for g in goals)
               if tilemap.in_bounds(*t) and room[t[1], t[0]]]
        if len(fit) < 2:
            return (yield from plan_route_steps(tilemap, unit, pose, tuple(g for g, _ in fit) or goals[:1]))
        tiles = {k: v for k, v in options.items() if k not in ("turning", "people")}
        tiles["method"] = "dijkstra"
        try:
            result = yield from _plan_steps(tilemap, start, [list(t) for _, t in fit], tiles, targets=True)
        except BadInput as e:
            return Route(None, message=f"{Status.NO_PATH}: {e}")
        if result.status != Status.FOUND:
            return Route(None, message=f"{result.status}: {result.message}")
        reached = tuple(result.path[-1])
        goal = next(g for g, t in fit if t == reached)
        return (yield from plan_route_steps(tilemap, unit, pose, (goal,)))  # as a move there: the same way
    goal = goals[0]
    gx, gy = tile_of(goal[0], goal[1])
    if (gx, gy) in (here, tile_of(pose.x, pose.y)):  # same tile: straight to the point (and turn to its heading)
        same = PlanResult(Status.FOUND, path=[])
        return route_from(same, pose, goal, unit.can_reverse)
    target = (gx, gy) if goal[2] is None else (gx, gy, goal[2])
    try:
        result = yield from _plan_steps(tilemap, start, target, options)
    except BadInput as e:  # on a map with other units walled in: the goal or start is taken
        return Route(None, message=f"{Status.NO_PATH}: {e}")
    return route_from(result, pose, goal, unit.can_reverse)


def _plan_steps(tilemap: TileMap, start: object, goal: object, options: dict, targets: bool = False
                ) -> Sliced[PlanResult]:
    """One plan (``planner.PlanJob``; with ``targets``, to the nearest of them), stepped
    ``SLICE`` units of work at a time."""
    job = PlanJob(tilemap, start, goal, PlanOptions.from_dict(options), targets=targets)
    yield SETUP_WORK
    done = 0
    while job.step(SLICE) == Status.RUNNING:
        yield job.work - done
        done = job.work
    yield job.work - done
    return job.result()
