"""Fog of war: each team plans on what its units have seen, and re-plans incrementally.

Lester's "Handling Unexplored Areas": a team knows the tiles its units have seen; it takes every
tile it has not seen as open ground (so a route through the unknown is tried and walls are met on
the way). Every ``LOOK_EVERY`` seconds each unit sees the tiles whose centres lie within its
``sight`` (tiles; at least as far as it needs to stop from top speed, plus a tile and a
half, so no unit drives into a wall it has not seen) and in its line of sight (no wall tile on
the straight line between the centres; a wall itself is seen). When a team learns of a new
wall, each of its moving units whose body would touch it on its way plans again.

Each unit's way is kept by a D* Lite search (``search.incremental.IncrementalPlanner``) on its
team's known map, reused from discovery to discovery: it repairs only what the new walls change
instead of searching afresh. A team's planners share the known map's step costs
(``StepCosts``): a unit's planner holds only the nodes its searches touched. Its tile path is
turned into a drivable path by the unit's turning method (``turning.realize``; "tighter" for
units that plan curves themselves).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..collision.swept import path_clear
from ..geometry.primitives import Pose
from ..maps.tilemap import GROUND, TileMap
from ..outcomes import BadInput, Status
from ..planner import PlanResult
from ..search.grid import GridOptions
from ..search.incremental import IncrementalPlanner, StepCosts
from ..turning.methods import TURN_METHODS, realize
from .avoidance import body_tiles
from .events import EventKind
from .orders import Point, Route, route_from, start_tile, tile_of
from .units import MAX_SIGHT, PLAIN_METHODS, UnitSpec

if TYPE_CHECKING:
    from .state import Host as World
    from .state import UnitState

#: How often units look (s).
LOOK_EVERY = 0.25
#: How far (tiles) a body's bounding box is widened where ``swept_tiles`` samples its way: the
#: points it takes lie 0.2 tiles apart along the path, so the body between two lies within 0.1
#: of one of them.
SWEPT_PAD = 0.1 + 1e-6
#: Expansions one re-plan may take (a map of a million tiles, about).
MAX_EXPANSIONS = 2_000_000
#: Under fog a unit's tiles come from D* Lite, so a method that plans curves itself (the
#: directional searches) turns them with this turning method instead: it keeps the radius too.
DIRECTIONAL_TURNING = "backup"


def stop_of(spec: UnitSpec) -> float:
    """How far (tiles) a unit runs braking from its top speed."""
    return spec.speed ** 2 / (2.0 * spec.brake_rate)


def sight_of(spec: UnitSpec) -> float:
    """How far (tiles) a unit sees in fog: its ``sight``, or as far as it needs to stop from its
    top speed plus a tile and a half if that is farther (to the half tile)."""
    return max(spec.sight, round(2.0 * (stop_of(spec) + 1.5)) / 2.0)


def check_sight(spec: UnitSpec) -> None:
    """Refuse (``BadInput`` naming ``braking``) a unit that would have to see farther than
    ``MAX_SIGHT`` to stop short of a wall it has not seen (a fast unit that brakes weakly)."""
    if sight_of(spec) > MAX_SIGHT:
        raise BadInput(f"under fog a unit must see as far as it needs to stop, plus 1.5 tiles, and sees at most "
                       f"{MAX_SIGHT:g}: at {spec.speed:g} tiles/s braking {spec.brake_rate:g} tiles/s^2 it needs "
                       f"{stop_of(spec):g} tiles to stop; give it a lower speed or stronger braking", "braking")


def sight_rays(sight: float) -> tuple[np.ndarray, np.ndarray]:
    """For a sight of ``sight`` tiles: the tile offsets seen (k, 2) and, per offset, the offsets
    of the tiles between (k, n, 2; padded with (0, 0), the viewer's own tile), which must not be
    walls for the tile to be seen."""
    r = int(math.floor(sight))
    offs = [(dx, dy) for dy in range(-r, r + 1) for dx in range(-r, r + 1) if dx * dx + dy * dy <= sight * sight]
    n = 2 * r + 1
    between = np.zeros((len(offs), n, 2), dtype=np.int64)
    for i, (dx, dy) in enumerate(offs):
        steps = max(abs(dx), abs(dy)) * 2
        pts = [(0, 0)] * n
        k = 0
        for s in range(1, steps):
            t = s / steps
            p = (math.floor(dx * t + 0.5), math.floor(dy * t + 0.5))
            if p != (0, 0) and p != (dx, dy) and k < n and p not in pts[:k]:
                pts[k] = p
                k += 1
        between[i] = pts
    return np.asarray(offs, dtype=np.int64), between


@dataclass
class TeamView:
    """What one team knows: ``seen`` tiles, and the map it believes (walls seen, else ground);
    the step costs of that map its units' planners share (made when the first plans)."""

    seen: np.ndarray
    known: TileMap
    changed: set[tuple[int, int]] = field(default_factory=set)
    costs: StepCosts | None = None


def swept_tiles(u: UnitState) -> set[tuple[int, int]]:
    """Tiles that hold every tile ``u``'s body can touch on the rest of its path: the bounding
    box of its body, widened by ``SWEPT_PAD``, at every other of the path's points (a tenth of a
    tile apart), its end included; a filter for ``way_blocked``."""
    m = u.mover
    wide = u.spec.width + 2.0 * SWEPT_PAD
    out = body_tiles(u.x, u.y, wide)
    if m is None:
        return out
    _, xy = m.points()
    for x, y in (*xy[m.after(m.s)::2], xy[-1]):
        out |= body_tiles(float(x), float(y), wide)
    return out


def way_blocked(u: UnitState, known: TileMap, changed: set[tuple[int, int]]) -> bool:
    """Whether walls learned on ``changed`` tiles of ``known`` stand in ``u``'s way: its body
    would touch one on its path, by the exact swept test (a wall whose tile only the body's
    bounding box reaches is no reason to plan again; one the body clips by a hundredth of a
    tile, between two of the path's points, is)."""
    m = u.mover
    if m is None or not any(t in changed for t in swept_tiles(u)):
        return False
    return not path_clear(known, m.path, u.spec.width)


def _with_faces(xs: np.ndarray, ys: np.ndarray, blocked: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The tiles seen (``xs``, ``ys``) and the walls beside (8 neighbours) the open ones among
    them: a wall's face is seen with the floor before it. A ray to a wall's centre is hidden by
    the wall's own nearer tiles when seen along it, so a unit driving beside a wall knew only
    its nearest tiles, planned through the rest as open ground, and a car's body clipped them."""
    h, w = blocked.shape
    floor = ~blocked[ys, xs]
    fx, fy = xs[floor], ys[floor]
    nx = np.concatenate([fx + dx for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy])
    ny = np.concatenate([fy + dy for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy])
    on = (nx >= 0) & (nx < w) & (ny >= 0) & (ny < h)
    nx, ny = nx[on], ny[on]
    wall = blocked[ny, nx]
    return np.concatenate((xs, nx[wall])), np.concatenate((ys, ny[wall]))


class Fog:
    """The teams' knowledge of ``truth`` and their units' incremental planners."""

    def __init__(self, truth: TileMap) -> None:
        self.truth = truth
        self.teams: dict[str, TeamView] = {}
        self.planners: dict[str, tuple[tuple[int, int], IncrementalPlanner]] = {}
        self._rays: dict[float, tuple[np.ndarray, np.ndarray]] = {}
        h, w = truth.terrain.shape
        #: No two tiles of the map lie farther apart: a sight beyond this sees no more tiles.
        self._span = float(math.ceil(math.hypot(w, h)))
        self._next = 0.0
        self.expanded = 0
        self._shared: dict[tuple[str, ...], tuple[tuple[int, ...], TileMap]] = {}

    def view(self, team: str) -> TeamView:
        v = self.teams.get(team)
        if v is None:
            h, w = self.truth.terrain.shape
            known = TileMap(np.full((h, w), GROUND, dtype=np.uint8), self.truth.terrains.values())
            v = self.teams[team] = TeamView(np.zeros((h, w), dtype=bool), known)
        return v

    def known(self, team: str) -> TileMap:
        """The map team ``team`` believes: what it saw as it is, the unknown as ground."""
        return self.view(team).known

    def shared(self, teams: Iterable[str]) -> TileMap:
        """The map ``teams`` believe together: what any of them saw as it is, the unknown as
        ground (for a plan made for the units of several teams at once). The same map while
        none of them learns anything, its version moving on when one does."""
        names = tuple(sorted(set(teams)))
        if len(names) == 1:
            return self.known(names[0])
        views = [self.view(t) for t in names]
        versions = tuple(v.known.version for v in views)
        kept = self._shared.get(names)
        if kept is not None and kept[0] == versions:
            return kept[1]
        seen = np.logical_or.reduce([v.seen for v in views])
        terrain = np.where(seen, self.truth.terrain, GROUND).astype(np.uint8)
        if kept is None:
            m = TileMap(terrain, self.truth.terrains.values())
        else:
            m = kept[1]
            m.terrain[...] = terrain
            m.touch()
        self._shared[names] = (versions, m)
        return m

    def seen(self, team: str) -> np.ndarray:
        """Tiles team ``team`` has seen (bool, height x width)."""
        return self.view(team).seen

    def look(self, world: World, now: float) -> None:
        """Every ``LOOK_EVERY`` s: each unit sees round it; teams that learned walls re-plan."""
        if now + 1e-9 < self._next:
            return
        self._next = now + LOOK_EVERY
        learned = {u.spec.team for u in world.units if self.see(u)}
        for team in learned:
            self._replan_team(world, team)
        for view in self.teams.values():
            view.changed.clear()

    def see(self, u: UnitState) -> bool:
        """Let ``u`` see round it now (its team learns what it sees); whether it saw a wall its
        team did not know (the tiles that changed are in its team's ``changed``). A unit sees as
        it is placed, so what it stands in is revealed before the world first steps."""
        blocked = self.truth.blocked
        h, w = blocked.shape
        view = self.view(u.spec.team)
        offs, between = self._rays_for(min(sight_of(u.spec), self._span))
        tx, ty = tile_of(u.x, u.y)
        xs, ys = offs[:, 0] + tx, offs[:, 1] + ty
        inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        bx = np.clip(between[:, :, 0] + tx, 0, w - 1)
        by = np.clip(between[:, :, 1] + ty, 0, h - 1)
        clear = ~blocked[by, bx].any(axis=1)
        vis = inside & clear
        xs, ys = xs[vis], ys[vis]
        new = ~view.seen[ys, xs]
        if not new.any():  # (the faces beside floor seen before were seen with it)
            return False
        xs, ys = _with_faces(xs[new], ys[new], blocked)
        new = ~view.seen[ys, xs]
        xs, ys = xs[new], ys[new]
        view.seen[ys, xs] = True
        truth = self.truth.terrain[ys, xs]
        differs = truth != view.known.terrain[ys, xs]
        if not differs.any():
            return False
        view.known.terrain[ys[differs], xs[differs]] = truth[differs]
        view.known.touch()
        view.changed.update(zip(xs[differs].tolist(), ys[differs].tolist(), strict=True))
        return bool(blocked[ys[differs], xs[differs]].any())

    def _rays_for(self, sight: float) -> tuple[np.ndarray, np.ndarray]:
        rays = self._rays.get(sight)
        if rays is None:
            rays = self._rays[sight] = sight_rays(sight)
        return rays

    def _replan_team(self, world: World, team: str) -> None:
        view = self.view(team)
        for u in world.units:
            if u.spec.team != team or u.mover is None:
                continue
            if way_blocked(u, view.known, view.changed):
                world.note(u, EventKind.DISCOVER)
                if not world.replan(u, frozenset()):
                    # no way from here for now (the wall closes the only one, other units hem it
                    # in, or it drives aside): it stops short of the wall all the same (it sees
                    # farther than it needs to stop), then plans again from where it stands
                    u.mover.brake()

    def drop(self, uid: str) -> None:
        """Forget unit ``uid``'s planner (the unit left the map: another may come under its id,
        of another team)."""
        self.planners.pop(uid, None)

    def route(self, u: UnitState, known: TileMap, goal: Point) -> Route:
        """``u``'s route to ``goal`` on its team's ``known`` map, by its D* Lite planner (made
        for this goal, or repaired after the walls learned since)."""
        pose = Pose(u.x, u.y, u.heading)
        start, target = start_tile(known, pose, goal, u.spec.width), tile_of(goal[0], goal[1])
        if target in (start, tile_of(u.x, u.y)):
            return route_from(PlanResult(Status.FOUND, path=[]), pose, goal, u.spec.can_reverse)
        entry = self.planners.get(u.spec.id)
        if entry is None or entry[0] != target:
            view = self.view(u.spec.team)
            if view.costs is None:
                view.costs = StepCosts(known, GridOptions())
            planner = IncrementalPlanner(known, start, target, GridOptions(), MAX_EXPANSIONS, view.costs)
            self.planners[u.spec.id] = (target, planner)
        else:
            planner = entry[1]
            planner.move_to(start)
            planner.update()
        tiles = planner.plan()
        self.expanded += planner.expanded
        if tiles is None:
            return Route(None, message=f"{Status.NO_PATH}: no way to the goal on what team "
                                       f"{u.spec.team or '(none)'} knows")
        method = fog_turning(u.spec.method)
        done = None if method is None else realize(known, tiles, u.heading, goal[2], u.spec.width, u.spec.radius,
                                                   method, can_reverse=u.spec.can_reverse)
        if done is None or not done.legal:  # no turning, or none legal: the polyline, pivoting at its corners
            return route_from(PlanResult(Status.FOUND, path=list(tiles)), pose, goal, u.spec.can_reverse)
        result = PlanResult(Status.FOUND, path=list(tiles), segments=done.path, legal=done.legal,
                            speed_limits=list(done.speed_limits), message=done.message)
        return route_from(result, pose, goal, u.spec.can_reverse)


def fog_turning(method: str) -> str | None:
    """How a unit planning with ``method`` turns its D* Lite tiles into a way under fog: its own
    turning method, ``DIRECTIONAL_TURNING`` for the searches that plan curves themselves, None for
    the plain searches (it pivots at the polyline's corners, as it does without fog)."""
    if method in TURN_METHODS:
        return method
    return None if method in PLAIN_METHODS else DIRECTIONAL_TURNING
