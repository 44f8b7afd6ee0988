"""Where the units of a cooperative round start: the tile each is planned from, and its way to
that tile's centre past the walls and the bodies standing round it. A round plans from units on
tile centres (none holds another's tile, and followers may close up), so each first settles
there; wide bodies pressed together off their centres, or two small ones on one tile, are what
makes that hard, and what these rules untangle (``coordinated`` plans and drives the round).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..collision.swept import swept_line_clear
from ..geometry.primitives import Path, Pose
from ..outcomes import Status
from ..planner import PlanResult
from .avoidance import Tile, occupied
from .orders import Point, Route, route_from, tile_of
from .spacing import MARGIN

if TYPE_CHECKING:
    from .state import Host as World
    from .state import UnitState

#: A unit this near its tile's centre (tiles) is on it; one further off that leaves the tile
#: goes straight for the next one's centre (``coordinated``).
OFF_CENTRE = 0.05


def off_centre(u: UnitState) -> float:
    """How far ``u`` stands from its tile's centre (tiles)."""
    return math.hypot(u.x - math.floor(u.x) - 0.5, u.y - math.floor(u.y) - 0.5)


def start_beside(world: World, u: UnitState, taken: set[Tile]) -> Tile | None:
    """The free open tile next to ``u``'s (4 neighbours) whose centre is nearest, reached in a
    straight line that passes no other body and no wall: where ``u`` starts when another unit has
    its tile."""
    here = tile_of(u.x, u.y)
    ok = ~world.map.blocked
    h, w = ok.shape
    best: tuple[float, Tile] | None = None
    for t in ((here[0] + 1, here[1]), (here[0] - 1, here[1]), (here[0], here[1] + 1), (here[0], here[1] - 1)):
        if not (0 <= t[0] < w and 0 <= t[1] < h and ok[t[1], t[0]]) or t in taken:
            continue
        cx, cy = t[0] + 0.5, t[1] + 0.5
        length = math.hypot(cx - u.x, cy - u.y)
        if not swept_line_clear(world.map, (u.x, u.y), (cx, cy), u.spec.width):
            continue  # its body would brush a wall on the way
        if passes_bodies(world, u, (u.x, u.y), (cx, cy), 0.0) and (best is None or length < best[0]):
            best = (length, t)
    return None if best is None else best[1]


def clearance(world: World, u: UnitState, start: tuple[float, float], end: tuple[float, float],
               others: list[UnitState] | None = None) -> float:
    """How far ``u``'s body keeps off the nearest other body (where it stands) driving straight
    from ``start`` to ``end`` (tiles; below 0: they would overlap)."""
    return min((clearance_to(v, u, start, end) for v in (world.units if others is None else others) if v is not u),
               default=math.inf)


def clearance_to(v: UnitState, u: UnitState, start: tuple[float, float], end: tuple[float, float]) -> float:
    """How far ``u``'s body keeps off ``v``'s (where it stands) driving straight from ``start``
    to ``end`` (tiles; below 0: they would overlap)."""
    (ax, ay), (cx, cy) = start, end
    length2 = (cx - ax) ** 2 + (cy - ay) ** 2
    # the closest point of the segment to v's centre
    f = 0.0 if length2 == 0 else max(0.0, min(1.0, ((v.x - ax) * (cx - ax) + (v.y - ay) * (cy - ay)) / length2))
    px, py = ax + f * (cx - ax), ay + f * (cy - ay)
    return math.hypot(v.x - px, v.y - py) - (u.spec.width + v.spec.width) / 2.0


def passes_bodies(world: World, u: UnitState, start: tuple[float, float], end: tuple[float, float],
                   margin: float) -> bool:
    """Whether ``u`` driving straight from ``start`` to ``end`` keeps its body at least ``margin``
    off every other body where it stands, or, nearer one than that at ``start``, draws away from it
    (a body pressed against another may always leave it: held there, both stood for good)."""
    (ax, ay), (cx, cy) = start, end
    for v in world.units:
        if v is u or clearance_to(v, u, start, end) >= margin:
            continue
        near = math.hypot(v.x - ax, v.y - ay) < (u.spec.width + v.spec.width) / 2.0 + margin
        if not near or (v.x - ax) * (cx - ax) + (v.y - ay) * (cy - ay) > 0.0:
            return False  # it comes too close, or, near it already, does not draw away
    return True


def ways_to(world: World, u: UnitState, end: tuple[float, float], others: list[UnitState] | None = None
             ) -> list[tuple[float, list[tuple[float, float]]]]:
    """``u``'s ways to ``end`` within its tile (away from the nearer tile edge first, then along
    it; the other way round; straight) that brush no wall, each with how far it keeps off the
    bodies where they stand (``others``, or every other unit; at most ``MARGIN``: past them all
    counts the same)."""
    here = (u.x, u.y)
    across, along = (here[0], end[1]), (end[0], here[1])  # the two corners
    first, second = (across, along) if abs(here[1] - end[1]) >= abs(here[0] - end[0]) else (along, across)
    # every point of these ways lies within ``reach`` of ``here``, so a body further than that
    # past MARGIN keeps more than MARGIN off them all and cannot lower a way's clearance (the
    # round's settling asks this of every unit, and every unit was every other's O(n^2))
    reach = abs(here[0] - end[0]) + abs(here[1] - end[1]) + MARGIN + 1e-6
    half = u.spec.width / 2.0
    others = [v for v in (world.units if others is None else others)
              if v is not u and math.hypot(v.x - here[0], v.y - here[1]) - half - v.spec.width / 2.0 <= reach]
    ways = []
    for way in ([here, first, end], [here, second, end], [here, end]):
        points = [p for i, p in enumerate(way) if i == 0 or math.dist(p, way[i - 1]) > 1e-9]
        legs = list(zip(points, points[1:]))
        if all(swept_line_clear(world.map, a, b, u.spec.width) for a, b in legs):
            ways.append((min([MARGIN] + [clearance(world, u, a, b, others) for a, b in legs]), points))
    return ways


def reaches_centre(world: World, u: UnitState, tile: Tile) -> bool:
    """Whether ``u`` can get to ``tile``'s centre past the bodies where they stand (but those
    in that tile: of two on one tile, the one further off its centre moves over)."""
    end = (tile[0] + 0.5, tile[1] + 0.5)
    if math.hypot(end[0] - u.x, end[1] - u.y) <= OFF_CENTRE:
        return True
    others = [v for v in world.units if tile_of(v.x, v.y) != tile]
    return any(c >= 0.0 for c, _ in ways_to(world, u, end, others))


def settle_route(world: World, u: UnitState, centre: Point) -> Route:
    """To ``centre`` straight away from the tile edge ``u`` is nearest (the neighbour most
    likely close by is across it), then along that edge: a straight line could pass closer
    to that neighbour first, and two such units would each wait for the other. Where that
    would brush a wall, the other way round, or straight; where every way would, it stays. Of
    those, the first that passes every body where it stands by ``MARGIN`` is taken, else the
    one that keeps furthest off them (two bodies settling side by side, each by a way past
    where the other stands, would hold each other to the end of the settling time; by the
    ways furthest off, one gets by once the other has moved)."""
    end = (centre[0], centre[1])
    if math.hypot(end[0] - u.x, end[1] - u.y) <= 1e-9:
        return Route(None)
    ways = ways_to(world, u, end)
    if not ways:
        return Route(None)
    points = max(ways, key=lambda e: e[0])[1]  # the first past every body, else the furthest off (ties: first)
    segs = Path.from_waypoints(points)
    return route_from(PlanResult(Status.FOUND, segments=segs), Pose(u.x, u.y, u.heading), centre)


def starts(world: World, units: list[UnitState]) -> tuple[list[tuple[UnitState, Tile]], list[UnitState]]:
    """Each of ``units`` and the tile it starts from, in priority order (nearest their tile's
    centre first, then in the given order): its own; or, when it cannot get to that tile's centre
    past the bodies standing round it, a free tile beside it it can get to; or, when a unit nearer
    its centre has its tile, a free one beside it, or, when it has none, its own while the unit
    that had it moves over to one beside that. Also the units left with neither."""
    taken: set[Tile] = set()
    out: list[tuple[UnitState, Tile]] = []
    left: list[UnitState] = []
    owner: dict[Tile, int] = {}  # start tile -> index into out
    for u in sorted(units, key=off_centre):
        start = tile_of(u.x, u.y)
        if start not in taken and not reaches_centre(world, u, start):
            # pressed off its centre by bodies that stand there: a free tile beside it it can get to
            start = start_beside(world, u, taken | occupied(world, u)) or start
        if start in taken:  # two small bodies in one tile: the one further off its centre moves over
            moved = start_beside(world, u, taken | occupied(world, u))
            if moved is None:
                k = owner[start]
                v = out[k][0]
                moved = start_beside(world, v, taken | occupied(world, v))
                if moved is None:
                    left.append(u)
                    continue
                out[k] = (v, moved)  # the other moves over; this one keeps the tile
                owner[moved] = k
                taken.add(moved)
            else:
                start = moved
        taken.add(start)
        owner[start] = len(out)
        out.append((u, start))
    return out, left
