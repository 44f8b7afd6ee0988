"""The local avoidance methods, Pinter's and Lester's, and the factory for all of them.

Both keep bodies apart with ``spacing`` and get held units out of the way with ``Avoider``'s
shared rules; what differs is what a unit looks at and when it re-plans.

Pinter ("People Movement and Friendly-Collision Avoidance"): every ``CHECK_EVERY`` (half a
second) each unit claims the tiles its body will cover over the next ``HORIZON`` (two seconds)
along its path, each tile with the time window it is there (at the speed it has, or half its top
speed if slower). Two units whose claims share a tile in overlapping windows (within ``SLACK``)
will collide (``claims``). When the other meets it head-on (headings over 120 degrees apart) or stands with
nothing to do, the unit decelerates and plans a new route with the other's claimed tiles walled
off, and, to pass on the right, the tiles on its left of them too (then without them if that
fails); a detour longer than ``DETOUR_FACTOR`` times the way left is not taken: one of the two
backs up to a refuge instead. Against units going its way or crossing it keeps its path and
decelerates (``spacing``): re-planning round a stream or a queue only scatters it.

Lester ("Notes on Implementation", 1 and 2): when a unit plans, units that are stopped or next
to it (within ``ADJACENT`` tiles) are walls; the tiles on the current and future part of the
paths of moving units within ``NEARBY`` tiles cost ``PENALTY`` more each (claimed, not walls,
so units can still file through a narrow place one by one). A unit held by a moving one waits
for it to clear; held too long it re-plans or backs up (``Avoider.resolve``).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import deque
from typing import TYPE_CHECKING

import numpy as np

from ..maps.tilemap import TileMap
from .avoidance import (
    COOLDOWN,
    DETOUR_EXTRA,
    DETOUR_FACTOR,
    HOLD_REPLAN,
    Avoider,
    Tile,
    body_tiles,
    head_on,
    make_way,
    path_tiles,
    walled,
    way_left,
)
from .claims import CHECK_EVERY, CLAIM_WORK, claims
from .coordinated import Cooperative
from .events import EventKind
from .orders import Point, Route, tile_of
from .spacing import MARGIN
from .units import Avoidance

if TYPE_CHECKING:
    from .state import Host as World
    from .state import UnitState

#: Lester: units this close (tiles, between centres, beyond their radii) are walls when planning;
#: moving units within ``NEARBY`` tiles claim ``CLAIM_AHEAD`` tiles of their way, each costing
#: ``PENALTY`` more (in the search's cost units: a straight step costs 10), as Lester advises.
ADJACENT, NEARBY, CLAIM_AHEAD, PENALTY = 1.5, 10.0, 12.0, 20.0
#: A unit held this long (s) is in a jam; the units this near it, or near those (tiles), are
#: planned together.
JAM_AFTER, JAM_RADIUS = 4.0, 2.5
#: How long (s) a unit waits for one that is driving to a refuge to let it by before it counts
#: as a jam (a tank backing into a bay turns on the spot first, at 0.8 rad/s).
REFUGE_PATIENCE = 12.0
#: Jams handed back unsettled in a row, nobody arriving meanwhile, after which the next jam's
#: plan has the units it cannot bring home give up (``Local.unsettled``): the local rules had
#: two more chances to untangle them.
HAND_BACKS = 2
#: The most units one jam's plan takes (the chain of units within ``JAM_RADIUS`` of each other).
JAM_MOST = 64
#: Units whose way passes this near (tiles ahead along it) the jam are planned with it.
JAM_REACH = 12.0
#: The watchdog: a unit with orders, outside a jam's plan, that has not got ``UNSTUCK_MOVE``
#: tiles from where it was ``UNSTUCK_AFTER`` seconds ago, with another unit within
#: ``JAM_RADIUS``, is in a jam too, whatever held it: holds that pass from unit to unit, or
#: re-plans round units resting on their goals, back and forth, never add up to ``JAM_AFTER``.
UNSTUCK_AFTER, UNSTUCK_MOVE = 12.0, 1.5
#: And a unit that has not moved at all for ``STILL_AFTER`` seconds (pivots aside) is in a jam,
#: unless the unit nearest it is in a jam's plan already (taking it in re-plans them all, and one
#: left out of the plan, sharing a tile, was taken in again and again): two units that re-plan
#: round each other's claims every second or two, never moving, are never held ``JAM_AFTER``
#: without a break. At 5 s, 29 of 32 unseen doors of people and the issue's example unit met
#: the 10 s criterion under ``pinter``, against 25 with the 12 s watchdog alone.
STILL_AFTER = 5.0


def follows(u: UnitState, j: UnitState) -> bool:
    """Whether ``u`` drives behind ``j`` the way ``j`` goes (no collision to dodge)."""
    if j.mover is None or j.speed == 0.0:
        return False
    ahead = math.cos(u.heading) * (j.x - u.x) + math.sin(u.heading) * (j.y - u.y) > 0.0
    return ahead and math.cos(u.heading - j.heading) > 0.5


def sent_to_one_tile(u: UnitState, j: UnitState) -> bool:
    """Whether ``j`` rests where it was sent (it has arrived) on the place ``u`` is sent to too:
    asked to make way, it would come back, and the two would take the place in turn for good."""
    if j.busy or j.arrived is None:
        return False
    reach = (u.spec.width + j.spec.width) / 2.0
    return any(math.hypot(g[0] - j.x, g[1] - j.y) < reach for g in u.goal)


def left_of(tiles: set[Tile], heading: float) -> set[Tile]:
    """The tiles one step to the left (seen facing ``heading``) of ``tiles``."""
    dx, dy = round(math.sin(heading)), round(-math.cos(heading))
    return {(x + dx, y + dy) for x, y in tiles} - tiles


class Local(Avoider):
    """What Pinter's and Lester's methods share beyond ``Avoider``: a jam that waiting, detours,
    refuges and stepping back have not broken within ``JAM_AFTER`` seconds is handed, with the
    units within ``JAM_RADIUS`` tiles of it, to a cooperative plan (``coordinated.Cooperative``
    for those units alone); they drive it in tile order until they are through, then go on by
    the local rules. Local rules cannot untangle every crowd at a door or a corridor with
    traffic both ways; this is the fallback a game would want rather than units stuck for good.
    """

    def __init__(self) -> None:
        super().__init__()
        #: the jams' plans, each for its own units: a jam far from the others gets a plan of its
        #: own (one plan for every jam on the map had all its units stand for each new jam, a
        #: crowd of 100 under ``claimed`` growing one plan to 66 units, a tank standing 41 s)
        self.groups: list[Cooperative] = []
        #: Jams handed back unsettled in a row (``Cooperative.handed_back``), with nobody arriving
        #: since the first (the arrivals then): past ``HAND_BACKS`` the next jam's plan has units
        #: short of their goals give up instead (the same jam formed again and again, for good).
        self.unsettled, self._arrivals = 0, 0
        self._next = 0.0
        #: the units by the tile under their centre, each tile's in the world's order when a tick
        #: starts (``tile_room``), and each unit's tile; kept from tick to tick (``before``)
        self.centres: dict[Tile, list[UnitState]] = {}
        self.at: dict[str, Tile] = {}
        self._anchors: dict[str, tuple[float, float, float]] = {}  # the watchdog's: where and when
        self._still: dict[str, tuple[float, float, float]] = {}  # where each unit last stood, since when
        self._watched = -math.inf
        self._placed = False  # False: units came or went, place them all afresh
        self._rank: dict[str, int] = {}  # each unit's place in the world's order
        self._entered: list[Tile] = []  # the tiles units entered this tick

    def due(self, now: float) -> bool:
        """Whether a look round is due (every ``CHECK_EVERY`` seconds)."""
        if now + 1e-9 < self._next:
            return False
        self._next = now + CHECK_EVERY
        return True

    @property
    def group(self) -> Cooperative | None:
        """The first jam's plan (None: no jam): the one there is, where jams are few."""
        return self.groups[0] if self.groups else None

    def group_of(self, u: UnitState) -> Cooperative | None:
        """The jam's plan ``u`` is in (None: it drives by the local rules)."""
        uid = u.spec.id
        for g in self.groups:
            members = g.members
            if members is not None and uid in members:
                return g
        return None

    def member(self, u: UnitState) -> bool:
        return self.group_of(u) is not None

    def look(self, world: World, now: float) -> None:
        """The method's own look round, before the units move."""

    def changed(self, world: World) -> None:
        super().changed(world)
        self._placed = False

    def removed(self, world: World, uid: str) -> None:
        super().removed(world, uid)
        for g in self.groups:
            if g.members is not None and uid in g.members:
                # its plan had the others wait for it where it was planned to go: planned again
                # without it (kept, they waited for the removed unit till the plan stalled, 25 s)
                g.members.discard(uid)
                g.changed(world)

    def before(self, world: World, now: float) -> None:
        self._place_all(world)
        self.look(world, now)
        if now + 1e-9 >= self._watched + CHECK_EVERY:
            self._watched = now
            self.watch(world, now)
        for g in list(self.groups):
            assert g.members is not None
            if not g.dirty and not g.planning and not any(u.busy for u in g.mine(world)):
                g.members.clear()  # all through: local rules again (till then, those through rest in the plan)
            if not g.members:
                self.groups.remove(g)
                arrivals = sum(u.arrived is not None for u in world.units)
                if not g.handed_back or arrivals > self._arrivals:
                    self.unsettled, self._arrivals = 0, arrivals
                if g.handed_back:
                    self.unsettled += 1
                continue
            g.before(world, now)

    def watch(self, world: World, now: float) -> None:
        """The watchdog: a unit that has gone nowhere for ``UNSTUCK_AFTER``, or has stood still
        for ``STILL_AFTER`` with no unit of a jam's plan nearest it, is a jam with the unit
        nearest it."""
        for u in world.units:
            uid = u.spec.id
            a = self._anchors.get(uid)
            if a is None or not u.busy or self.member(u) or math.hypot(u.x - a[0], u.y - a[1]) > UNSTUCK_MOVE \
                    or self._by_refuge(world, u):
                self._anchors[uid] = self._still[uid] = (u.x, u.y, now)
                continue
            b = self._still.get(uid)
            if b is None or (u.x, u.y) != (b[0], b[1]):
                b = self._still[uid] = (u.x, u.y, now)
            gone_nowhere = now - a[2] >= UNSTUCK_AFTER
            if not gone_nowhere and now - b[2] < STILL_AFTER:
                continue
            self._still[uid] = (u.x, u.y, now)
            d, by = min(((math.hypot(v.x - u.x, v.y - u.y), v) for v in world.units if v is not u),
                        key=lambda e: e[0], default=(math.inf, None))
            if not gone_nowhere and by is not None and self.member(by):
                continue
            self._anchors[uid] = (u.x, u.y, now)
            if by is not None and d <= JAM_RADIUS:
                self.jam(world, u, by, now)

    def _by_refuge(self, world: World, u: UnitState) -> bool:
        """Whether ``u`` gives way to a unit by a refuge, or waits for one that does (the refuge's
        own patience holds, not the watchdog's)."""
        h = self.holds.get(u.spec.id)
        by = None if h is None or h.by is None else world.find(h.by)  # (None: taken off the map since)
        return u.gives_way_to is not None or (by is not None and self.patience(u, by) > JAM_AFTER)

    def _place_all(self, world: World) -> None:
        """``centres`` and ``at`` as the tick starts. Units move only in their own turn, and each
        is placed (``held``) when it has moved, so the centres need no placing afresh each tick
        (100 units: a tenth of the tick's calls) unless units came or went (``changed``). Only
        the order in a tile a unit entered can differ from the world's: it is put back (who is
        named as holding a unit in ``tile_room`` is the first in its tile's list)."""
        if not self._placed:
            self.centres, self.at, self._entered = {}, {}, []
            self._rank = {u.spec.id: k for k, u in enumerate(world.units)}
            for u in world.units:
                self._place(u, tile_of(u.x, u.y))
            self._placed = True
            return
        for t in self._entered:
            others = self.centres.get(t)  # (None: left again)
            if others is not None and len(others) > 1:
                others.sort(key=lambda v: self._rank[v.spec.id])
        self._entered.clear()

    def _place(self, u: UnitState, t: Tile) -> None:
        """Note that ``u``'s centre is on tile ``t`` (units move one after another in a tick)."""
        old = self.at.get(u.spec.id)
        if t == old:
            return
        if old is not None:
            left = self.centres[old]
            left.remove(u)
            if not left:
                del self.centres[old]  # only tiles with a centre on them are kept (``tile_room``)
        self.centres.setdefault(t, []).append(u)
        self._entered.append(t)
        self.at[u.spec.id] = t

    def room(self, world: World, u: UnitState) -> tuple[float, UnitState | None]:
        g = self.group_of(u) if self.groups else None
        if g is not None:
            return g.room(world, u)
        keep = self.keep_out_room(world, u)
        tile, by = self.tile_room(u, world.dt)
        return (tile, by) if tile < keep else (keep, None)

    def tile_room(self, u: UnitState, dt: float) -> tuple[float, UnitState | None]:
        """How far ``u`` may go before its centre enters a tile another unit's centre is in, and
        that unit (one centre to a tile, but on the last tile of its leg), looking as far as
        ``spacing`` does (a tile farther on could not slow it this tick). People are half a tile
        wide, and a crowd packed two to a tile could not be handed to a tile plan (``jam``)."""
        m = u.mover
        if m is None:
            return math.inf, None
        s, centres = m.s, self.centres
        here = self.at[u.spec.id]  # tile_of(u.x, u.y): placed when it last moved
        # the tiles entered within reach, up to the first entry of the last tile (entries ascend)
        w = m.v  # spacing.reach_of(u, dt), inlined: a tile farther on could not slow it this tick
        reach = w * w / (2.0 * m.brake_rate) + (w + m.accel_rate * dt) * dt + 1.0
        enter, before, tiles = m.entries(s + reach)
        for k in range(bisect_right(enter, s), m.into_last(bisect_right(enter, s + reach))):
            t = tiles[k]
            if t in centres and t != here:  # (``in`` and ``[]``: no call, as ``get`` would be)
                for v in centres[t]:
                    if v is not u:
                        gap = before[k] - s
                        return (gap if gap > 0.0 else 0.0), v
        return math.inf, None

    def route(self, world: World, u: UnitState, goals: tuple[Point, ...]) -> Route | None:
        g = self.group_of(u)
        return None if g is None else g.route(world, u, goals)

    def may_start(self, world: World, u: UnitState, now: float) -> bool:
        g = self.group_of(u)
        if g is not None:
            return g.may_start(world, u, now)
        return super().may_start(world, u, now)

    def keeps(self, u: UnitState) -> tuple[bool, float]:
        g = self.group_of(u) if self.groups else None
        if g is not None:
            h = self.holds.get(u.spec.id)
            if h is not None and h.by is not None and h.by in g.left_out:
                # held by the unit its plan left out (the two shared a tile): it may brush past
                # that body (the plan has it drive through where the other stands; handed back
                # to the jam, the round left it out again, and again)
                return False, 0.0
            return g.keeps(u)
        return self.standoff, MARGIN

    def held(self, world: World, u: UnitState, by: UnitState | None, now: float) -> None:
        # tile_of(u.x, u.y) != at[u], without calls: every moving unit every tick
        at, uid, x, y = self.at, u.spec.id, u.x, u.y
        t = at[uid] if uid in at else None
        if t is None or not (t[0] <= x < t[0] + 1 and t[1] <= y < t[1] + 1):
            self._place(u, (math.floor(x), math.floor(y)))  # it has just moved to another tile
        g = self.group_of(u) if self.groups else None
        if g is not None:
            # the plan orders who goes first, but a unit outside it may stand in the way (one of
            # another jam's plan too: held long, the two plans become one)
            outsider = by if by is not None and self.group_of(by) is not g else None
            g.held(world, u, None if outsider is not None else by, now)
            waited, h = self.track(u, outsider, now), self.hold(u)
            if outsider is None:
                return
            if not outsider.busy and waited >= HOLD_REPLAN and now >= h.quiet_until:
                h.quiet_until = now + COOLDOWN  # an idle unit steps aside, as for anyone
                if make_way(world, outsider, u):
                    world.note(outsider, EventKind.MAKE_WAY)
                    return
            if waited >= JAM_AFTER:
                self.jam(world, u, outsider, now)  # it joins the plan, with the units near it
            return
        gb = self.group_of(by) if by is not None and self.groups else None
        if by is not None and gb is not None:
            # the plan's units are not asked to make way: wait, then join (but not a unit the plan
            # left out, sharing a tile, while the others still drive it: taken in, it was left out
            # again, and the round planned again and again, everyone in it standing)
            if self.track(u, by, now) >= JAM_AFTER and not gb.sits_out(u):
                self.jam(world, u, by, now)
            return
        super().held(world, u, by, now)
        if by is not None and self.track(u, by, now) >= self.patience(u, by):
            self.jam(world, u, by, now)

    def resolve(self, world: World, u: UnitState, j: UnitState, now: float) -> None:
        if sent_to_one_tile(u, j):  # who stands there is the plan's to say (``coordinated``)
            self.jam(world, u, j, now)
            return
        super().resolve(world, u, j, now)

    def give_way(self, world: World, u: UnitState, j: UnitState, now: float) -> bool:
        if self.member(u) or self.member(j):
            return False  # the plan says who goes first
        return super().give_way(world, u, j, now)

    @staticmethod
    def patience(u: UnitState, by: UnitState) -> float:
        """How long (s) ``u`` held by ``by`` waits before it is a jam: longer while ``by`` drives
        to a refuge to let ``u`` by."""
        to_refuge = by.gives_way_to == u.spec.id and by.detour is not None and by.mover is not None \
            and not by.waiting
        return REFUGE_PATIENCE if to_refuge else JAM_AFTER

    def jam(self, world: World, u: UnitState, by: UnitState, now: float) -> None:
        """Hand ``u``, ``by`` and the units near them to the cooperative plan."""
        near = {u.spec.id, by.spec.id}
        taken, todo = [u, by], [u, by]
        while todo and len(near) < JAM_MOST:  # and the units near those, so no outsider stands in the jam
            w = todo.pop()
            for v in world.units:
                if v.spec.id not in near and math.hypot(v.x - w.x, v.y - w.y) <= JAM_RADIUS:
                    near.add(v.spec.id)
                    taken.append(v)
                    todo.append(v)
        ways = {t for v in taken for t in body_tiles(v.x, v.y, v.spec.width + 2 * JAM_RADIUS)}
        for v in world.units:  # and the units on their way into it
            if v.spec.id not in near and len(near) < JAM_MOST and v.mover is not None and \
                    not ways.isdisjoint(path_tiles(v, JAM_REACH)):
                near.add(v.spec.id)
                taken.append(v)
        joined = []  # the jams' plans these units are in already: one plan for them all
        for v in taken:
            g = self.group_of(v)
            if g is not None and g not in joined:
                joined.append(g)
        if not joined:
            g = Cooperative(near, hand_back=self.unsettled < HAND_BACKS)
            self.groups.append(g)
        else:
            g = joined[0]
            assert g.members is not None
            g.members |= near
            for other in joined[1:]:
                assert other.members is not None
                g.members |= other.members
                other.changed(world)
                self.groups.remove(other)
        g.dirty = True
        for v in taken:
            self.hold(v).since, self.hold(v).by, self.hold(v).refuge_for = None, None, None
            v.gives_way_to = None
        world.note(u, EventKind.JAM)


class Pinter(Local):
    """Pinter's friendly-collision avoidance (module notes)."""

    name = "pinter"

    def __init__(self) -> None:
        super().__init__()
        self._hits: dict[str, set[str]] = {}  # the last look's: who will collide with whom
        self._todo: deque[UnitState] = deque()  # the units with hits not yet checked

    def look(self, world: World, now: float) -> None:
        if self.due(now):
            tiles, self._hits = claims(world.units)
            world.charge(CLAIM_WORK * len(world.units))
            for u, mine in zip(world.units, tiles, strict=True):
                u.claimed = mine
            self._todo = deque(u for u in world.units if u.spec.id in self._hits)
        while self._todo and world.can_plan():  # (within the world's route_work: the rest next tick)
            self._check(world, self._todo.popleft(), now)

    def _check(self, world: World, u: UnitState, now: float) -> None:
        """What ``u``, whose claims collide with others', does about the first of them that
        it cannot just slow down for: re-plan round it, give way, or leave it to a jam's plan."""
        if world.find(u.spec.id) is not u or u.mover is None or u.order is None or u.detour is not None or \
                self.member(u):
            return
        h = self.hold(u)
        if now < h.quiet_until or h.refuge_for is not None:
            return
        for jid in sorted(self._hits[u.spec.id]):
            j = world.find(jid)
            if j is None:
                continue
            if sent_to_one_tile(u, j):  # a way round it leads back to it: the plan says who stands there
                self.jam(world, u, j, now)
                return
            if j.busy and not head_on(u, j):
                continue  # it moves or will: decelerate for it (spacing), the way stays
            theirs = set(j.claimed) - body_tiles(u.x, u.y, u.spec.width)
            longest = DETOUR_FACTOR * way_left(u) + DETOUR_EXTRA
            if world.replan(u, frozenset(theirs | left_of(theirs, u.heading)), longest) or \
                    world.replan(u, frozenset(theirs), longest):
                world.note(u, EventKind.REPLAN)
                h.quiet_until = now + 2 * CHECK_EVERY
            elif j.mover is not None and not follows(j, u) and j.detour is None and \
                    self.hold(j).refuge_for is None:
                self.give_way(world, u, j, now)  # no room to pass: one backs up to let the other by
            return


class Claimed(Local):
    """Lester's claimed tiles and units as obstacles (module notes)."""

    name = "claimed"

    def look(self, world: World, now: float) -> None:
        if not self.due(now):
            return
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
        return walled(base, walls, body_tiles(u.x, u.y, u.spec.width), penalty)


def make_avoider(avoidance: Avoidance) -> Avoider:
    """The ``Avoider`` for ``avoidance``."""
    if avoidance is Avoidance.PINTER:
        return Pinter()
    if avoidance is Avoidance.CLAIMED:
        return Claimed()
    if avoidance is Avoidance.COOPERATIVE:
        return Cooperative()
    return Avoider()
