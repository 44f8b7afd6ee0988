"""The local avoidance methods, Pinter's and Lester's, and the factory for all of them.

Both keep bodies apart with ``spacing`` and get held units out of the way with ``Avoider``'s
shared rules; what differs is what a unit looks at and when it re-plans.

Pinter ("People Movement and Friendly-Collision Avoidance"): every ``CHECK_EVERY`` (half a
second) each unit claims the tiles its body will cover over the next ``HORIZON`` (two seconds)
along its path, each tile with the time window it is there (at the speed it has, or half its top
speed if slower). Two units whose claims share a tile in overlapping windows (within ``SLACK``)
will collide, unless they go the same way (headings within about 70 degrees: a queue or a
stream, which ``spacing`` keeps apart; re-planning round each other there only scatters them). A
unit that will collide decelerates and plans a new route with the other's claimed tiles walled
off, and, to pass on the right, the tiles on its left of them too (then without them if that
fails); a detour longer than ``DETOUR_FACTOR`` times the way left is not taken: it keeps its
path and spacing makes it wait, yield or back up.

Lester ("Notes on Implementation", 1 and 2): when a unit plans, units that are stopped or next
to it (within ``ADJACENT`` tiles) are walls; the tiles on the current and future part of the
paths of moving units within ``NEARBY`` tiles cost ``PENALTY`` more each (claimed, not walls,
so units can still file through a narrow place one by one). A unit held by a moving one waits
for it to clear; held too long it re-plans or backs up (``Avoider.resolve``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ..maps.tilemap import TileMap
from .avoidance import DETOUR_EXTRA, DETOUR_FACTOR, Avoider, Tile, body_tiles, head_on, path_tiles, walled, way_left
from .coordinated import Cooperative
from .events import EventKind
from .units import Avoidance

if TYPE_CHECKING:
    from .state import Host as World
    from .state import UnitState

#: Pinter: how often claims are made (s), how far ahead they reach (s), the slack between
#: two windows on one tile that still counts as a collision (s).
CHECK_EVERY, HORIZON, SLACK = 0.5, 2.0, 0.25
#: Lester: units this close (tiles, between centres, beyond their radii) are walls when planning;
#: moving units within ``NEARBY`` tiles claim ``CLAIM_AHEAD`` tiles of their way, each costing
#: ``PENALTY`` more (in the search's cost units: a straight step costs 10), as Lester advises.
ADJACENT, NEARBY, CLAIM_AHEAD, PENALTY = 1.5, 10.0, 12.0, 20.0


def claim(u: UnitState) -> dict[Tile, tuple[float, float]]:
    """Pinter's claim: each tile unit ``u``'s body covers over the next ``HORIZON`` seconds,
    with the window (s from now) it is there; a unit standing idle holds its tiles for good."""
    out: dict[Tile, tuple[float, float]] = {}
    here = body_tiles(u.x, u.y, u.spec.width)
    m = u.mover
    if m is None:
        return {t: (0.0, math.inf) for t in here}
    for t in here:
        out[t] = (0.0, 0.0)
    v = max(abs(m.v), 0.5 * u.spec.speed)
    reach = min(u.spec.speed * HORIZON, abs(m.v) * HORIZON + 0.5 * u.spec.acceleration * HORIZON ** 2)
    dist, xy = m.points()
    i0 = int(np.searchsorted(dist, m.s, side="right"))
    i1 = int(np.searchsorted(dist, m.s + reach, side="right"))
    for k in range(i0, min(i1 + 1, len(dist)), 2):
        when = min((float(dist[k]) - m.s) / v, HORIZON)
        for t in body_tiles(float(xy[k][0]), float(xy[k][1]), u.spec.width):
            a, b = out.get(t, (when, when))
            out[t] = (min(a, when), max(b, when))
    if m.v == 0.0:  # held or pivoting: it stands on its tiles until it moves again
        for t in here:
            out[t] = (0.0, HORIZON)
    return out


def follows(u: UnitState, j: UnitState) -> bool:
    """Whether ``u`` drives behind ``j`` the way ``j`` goes (no collision to dodge)."""
    if j.mover is None or j.speed == 0.0:
        return False
    ahead = math.cos(u.heading) * (j.x - u.x) + math.sin(u.heading) * (j.y - u.y) > 0.0
    return ahead and math.cos(u.heading - j.heading) > 0.5


def left_of(tiles: set[Tile], heading: float) -> set[Tile]:
    """The tiles one step to the left (seen facing ``heading``) of ``tiles``."""
    dx, dy = round(math.sin(heading)), round(-math.cos(heading))
    return {(x + dx, y + dy) for x, y in tiles} - tiles


class Pinter(Avoider):
    """Pinter's friendly-collision avoidance (module notes)."""

    name = "pinter"

    def __init__(self) -> None:
        super().__init__()
        self._next = 0.0

    def before(self, world: World, now: float) -> None:
        if now + 1e-9 < self._next:
            return
        self._next = now + CHECK_EVERY
        claims = {u.spec.id: claim(u) for u in world.units}
        by_tile: dict[Tile, list[tuple[UnitState, float, float]]] = {}
        for u in world.units:
            c = claims[u.spec.id]
            u.claimed = frozenset(c)
            for t, (a, b) in c.items():
                by_tile.setdefault(t, []).append((u, a, b))
        hits: dict[str, set[str]] = {}
        for entries in by_tile.values():
            for i, (u, a1, b1) in enumerate(entries):
                for v, a2, b2 in entries[i + 1:]:
                    if a1 <= b2 + SLACK and a2 <= b1 + SLACK:
                        hits.setdefault(u.spec.id, set()).add(v.spec.id)
                        hits.setdefault(v.spec.id, set()).add(u.spec.id)
        for u in world.units:
            if u.spec.id not in hits or u.mover is None or u.order is None or u.detour is not None:
                continue
            h = self.hold(u)
            if now < h.quiet_until or h.refuge_for is not None:
                continue
            for jid in sorted(hits[u.spec.id]):
                j = world.unit(jid)
                if j.busy and not head_on(u, j):
                    continue  # it moves or will: decelerate for it (spacing), the way stays
                theirs = set(claims[jid]) - body_tiles(u.x, u.y, u.spec.width)
                longest = DETOUR_FACTOR * way_left(u) + DETOUR_EXTRA
                if world.replan(u, frozenset(theirs | left_of(theirs, u.heading)), longest) or \
                        world.replan(u, frozenset(theirs), longest):
                    world.note(u, EventKind.REPLAN)
                    h.quiet_until = now + 2 * CHECK_EVERY
                elif j.mover is not None and not follows(j, u) and j.detour is None and \
                        self.hold(j).refuge_for is None:
                    self.give_way(world, u, j, now)  # no room to pass: one backs up to let the other by
                break


class Claimed(Avoider):
    """Lester's claimed tiles and units as obstacles (module notes)."""

    name = "claimed"

    def __init__(self) -> None:
        super().__init__()
        self._next = 0.0

    def before(self, world: World, now: float) -> None:
        if now + 1e-9 < self._next:
            return
        self._next = now + CHECK_EVERY
        for u in world.units:
            u.claimed = frozenset(path_tiles(u, CLAIM_AHEAD)) if u.mover is not None else frozenset()

    def plan_map(self, world: World, u: UnitState, base: TileMap) -> TileMap:
        walls: set[Tile] = set()
        penalty: np.ndarray | None = None
        h, w = base.terrain.shape
        for j in world.units:
            if j is u:
                continue
            gap = math.hypot(j.x - u.x, j.y - u.y) - (u.spec.width + j.spec.width) / 2.0
            if gap > NEARBY:
                continue
            if j.mover is None or j.waiting or gap <= ADJACENT:
                walls |= body_tiles(j.x, j.y, j.spec.width)
                continue
            if penalty is None:
                penalty = np.zeros((h, w)) if base.influence is None else base.influence.copy()
            for x, y in path_tiles(j, CLAIM_AHEAD)[1:]:
                if 0 <= x < w and 0 <= y < h:
                    penalty[y, x] += PENALTY
        if not walls and penalty is None:
            return base
        out = walled(base, walls, body_tiles(u.x, u.y, u.spec.width))
        if penalty is not None:
            out.set_influence(penalty)
        return out


def make_avoider(avoidance: Avoidance) -> Avoider:
    """The ``Avoider`` for ``avoidance``."""
    if avoidance is Avoidance.PINTER:
        return Pinter()
    if avoidance is Avoidance.CLAIMED:
        return Claimed()
    if avoidance is Avoidance.COOPERATIVE:
        return Cooperative()
    return Avoider()
