"""What the avoidance methods share: the tiles bodies cover, the ways a held unit gets out of
the way, and the hooks the world calls.

A method (``Avoider``) is asked each tick, before the units move, to look around (``before``);
for each unit, how far it may go beyond what ``spacing`` allows (``room``); whether it may start
its next leg (``may_start``); and, when a unit plans, which map to plan on (``plan_map``). A unit
that ``spacing`` holds for ``HOLD_REPLAN`` seconds is handed to ``resolve``:

* the unit in the way is idle: it is asked to make way (step to the nearest free tile off the
  held unit's way, then go back where it stood);
* it moves and the holds do not lead back to us: wait, it will clear (Lester);
* two hold each other head-on: re-plan round the other's body if the detour is short, else the
  one of the two with a refuge nearer backs up to it (a tile off the other's way, Pinter's "back
  up a step if there's not enough room to pass") and waits there until the other has gone by,
  which it lets through (the other holds back from the tiles it needs to get there, and backs
  up a step itself if it stands on them);
* units hold each other in a ring at angles (merging at a door): the one with the longest way
  left steps back ``STEP_BACK`` (reversing; people step back too) so the others can go first.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..maps.tilemap import TileMap
from ..search.regions import label
from .events import EventKind
from .orders import Order, OrderKind, Point, Route, tile_of
from .spacing import HEAD_ON, MARGIN

if TYPE_CHECKING:
    from .state import Host as World
    from .state import UnitState

Tile = tuple[int, int]

#: Held this long (s), a unit asks what to do (make way, re-plan, back up).
HOLD_REPLAN = 1.0
#: After acting, a unit leaves the question alone this long (s).
COOLDOWN = 2.0
#: A detour is taken when no longer than this factor of the way left, plus ``DETOUR_EXTRA`` tiles.
DETOUR_FACTOR, DETOUR_EXTRA = 1.5, 6.0
#: A refuge is looked for this many moves away at most.
REFUGE_DEPTH = 16
#: How far a unit steps back to let another merge in first (tiles).
STEP_BACK = 0.35
#: A unit waits in its refuge at most this long (s) for the other to pass.
REFUGE_WAIT = 8.0
#: How far along its way a unit's path tiles are taken (tiles).
AHEAD = 40.0


def body_tiles(x: float, y: float, width: float) -> set[Tile]:
    """The tiles a body of diameter ``width`` at (x, y) reaches into (its bounding box)."""
    r = width / 2.0 - 1e-9
    x0, x1, y0, y1 = math.floor(x - r), math.floor(x + r), math.floor(y - r), math.floor(y + r)
    if x1 - x0 <= 1 and y1 - y0 <= 1:  # a body a tile wide at most (every kind): the same set, built directly
        if x0 == x1:
            return {(x0, y0)} if y0 == y1 else {(x0, y0), (x0, y1)}
        return {(x0, y0), (x1, y0)} if y0 == y1 else {(x0, y0), (x0, y1), (x1, y0), (x1, y1)}
    return {(tx, ty) for tx in range(x0, x1 + 1) for ty in range(y0, y1 + 1)}


def path_tiles(u: UnitState, ahead: float = AHEAD) -> list[Tile]:
    """The tiles under the centre of unit ``u`` along its path from where it is, in order, as far
    as ``ahead`` tiles (its own tile when it stands)."""
    out = [tile_of(u.x, u.y)]
    m = u.mover
    if m is None:
        return out
    ds, xs, ys = m.cover(m.s + ahead)  # (sampled as far as asked)
    i0, i1 = m.after(m.s), min(m.after(m.s + ahead), len(ds) - 1)
    if i0 <= i1:
        # the tile of each point from i0 to i1 where the one before differs (the first's: from
        # the unit's own tile), that is, the first's and then the tiles entered after it
        first = (math.floor(xs[i0]), math.floor(ys[i0]))
        if first != out[0]:
            out.append(first)
        out += m.tiles_entered(i0, i1)
    return out


def way_left(u: UnitState) -> float:
    """The length of the path unit ``u`` still has to drive (tiles; 0 standing)."""
    return 0.0 if u.mover is None else u.mover.path.length - u.mover.s


@dataclass
class Hold:
    """A unit's avoidance state: held since when and by whom, its refuge and whom it waits for."""

    since: float | None = None
    by: str | None = None
    quiet_until: float = 0.0
    refuge_for: str | None = None
    refuge_until: float = 0.0
    keep_out: set[Tile] = field(default_factory=set)
    keep_for: str | None = None


class Avoider:
    """The hooks the world calls (the base does what every method shares; see the module)."""

    name = "none"
    #: Whether units keep ``spacing.STANDOFF`` from units driving at them (``keeps``).
    standoff = True

    def __init__(self) -> None:
        self.holds: dict[str, Hold] = {}

    def hold(self, u: UnitState) -> Hold:
        h = self.holds.get(u.spec.id)
        if h is None:
            h = self.holds[u.spec.id] = Hold()
        return h

    # -- hooks -------------------------------------------------------------------------------
    def before(self, world: World, now: float) -> None:
        """Look around before the units move (claims, schedules)."""

    def may_start(self, world: World, u: UnitState, now: float) -> bool:
        """Whether ``u`` may start its next leg now (not while it waits in a refuge)."""
        h = self.holds.get(u.spec.id)
        if h is None or h.refuge_for is None:
            return True
        if now >= h.refuge_until or not self._still_coming(world, u, h.refuge_for):
            h.refuge_for = None
            u.gives_way_to = None
            return True
        return False

    def plan_map(self, world: World, u: UnitState, base: TileMap) -> TileMap:
        """The map ``u`` plans its next leg on."""
        return base

    def route(self, world: World, u: UnitState, goals: tuple[Point, ...]) -> Route | None:
        """The route for ``u``'s next leg when this method makes it (None: plan as usual)."""
        return None

    def changed(self, world: World) -> None:
        """Units or orders changed (a unit added or removed, an order given)."""

    def ordered(self, world: World, u: UnitState, order: Order) -> None:
        """``u`` was given ``order`` now (or a timed order of its took over): as ``changed``
        unless the method has a cheaper answer."""
        self.changed(world)

    def removed(self, world: World, uid: str) -> None:
        """Unit ``uid`` was taken off the map (``changed`` follows): what was kept for it goes."""
        self.holds.pop(uid, None)

    def keeps(self, u: UnitState) -> tuple[bool, float]:
        """Whether ``u`` keeps ``spacing.STANDOFF`` from units driving at it, and the space
        (tiles) it keeps from standing bodies beyond touching them (one call: asked for every
        unit every tick)."""
        return self.standoff, MARGIN

    def track(self, u: UnitState, by: UnitState | None, now: float) -> float:
        """Note that ``by`` holds ``u`` now (None: nobody does); how long (s) it has held it
        without a break (0 when nobody does)."""
        h = self.hold(u)
        if by is None:
            h.since, h.by = None, None
            return 0.0
        if h.by != by.spec.id or h.since is None:
            h.since, h.by = now, by.spec.id
        return now - h.since

    def held(self, world: World, u: UnitState, by: UnitState | None, now: float) -> None:
        """Called every tick for a moving unit: ``by`` holds it (None: it moves freely)."""
        if by is None:  # ``track(u, None, now)`` (most calls): a unit never held needs no ``Hold``
            h = self.holds.get(u.spec.id)
            if h is not None:
                h.since, h.by = None, None
            return
        waited, h = self.track(u, by, now), self.hold(u)
        if by is not None and waited >= HOLD_REPLAN and now >= h.quiet_until and world.can_plan():
            h.quiet_until = now + COOLDOWN
            self.resolve(world, u, by, now)

    # -- getting out of the way --------------------------------------------------------------
    def resolve(self, world: World, u: UnitState, j: UnitState, now: float) -> None:
        """``u`` has been held by ``j``: make way, wait, detour or back up (see the module)."""
        if not j.busy:
            if make_way(world, j, u):
                world.note(j, EventKind.MAKE_WAY)
            return
        ring = self.cycle(world, u)
        if not ring:
            world.note(u, EventKind.WAIT)  # it moves on and will clear
            return
        if len(ring) > 2 or not facing(u, j):  # a ring of units at angles (merging at a door)
            for v in sorted(ring, key=lambda v: (-way_left(v), v.spec.id)):
                if world.step_back(v, STEP_BACK):  # the one with the longest way left steps back
                    world.note(v, EventKind.YIELD)
                    for w in ring:
                        self.hold(w).quiet_until = now + (COOLDOWN if w is v else COOLDOWN / 2)
                    return
            return
        around = body_tiles(j.x, j.y, j.spec.width + 0.2) | set(path_tiles(j, 3.0))
        if detour(world, u, around):
            world.note(u, EventKind.REPLAN)
            return
        self.give_way(world, u, j, now)

    def cycle(self, world: World, u: UnitState) -> list[UnitState]:
        """The units holding each other in a ring through ``u`` (``u`` held by the next, the last
        held by ``u``), or [] when the holds lead elsewhere."""
        ring = [u]
        at = self.holds.get(u.spec.id)
        while at is not None and at.by is not None:
            v = world.find(at.by)
            if v is None or v.mover is None:
                return []
            if v is u:
                return ring
            if v in ring or len(ring) > 32:
                return []
            ring.append(v)
            at = self.holds.get(v.spec.id)
        return []

    def give_way(self, world: World, u: UnitState, j: UnitState, now: float) -> bool:
        """One of ``u`` and ``j`` (whichever has a refuge nearer: a free tile off the other's way)
        backs up to it and waits there until the other has gone by. Returns whether one did."""
        if any(self.hold(v).refuge_for is not None or v.detour is not None for v in (u, j)):
            return False  # one of them gives way already
        mine = refuge(world, u, way_of(j))
        theirs = refuge(world, j, way_of(u))
        if mine is None and theirs is None:
            return False
        if theirs is not None and (mine is None or (len(theirs[1]), j.spec.id) < (len(mine[1]), u.spec.id)):
            u, j, mine = j, u, theirs
        assert mine is not None
        spot, way = mine
        self.hold(u).refuge_for = j.spec.id
        self.hold(u).refuge_until = now + REFUGE_WAIT
        self.hold(u).quiet_until = now + COOLDOWN
        u.gives_way_to = j.spec.id
        go_to(world, u, spot)
        world.note(u, EventKind.BACKUP)
        jh = self.hold(j)
        jh.quiet_until = now + COOLDOWN
        jh.keep_out, jh.keep_for = set(way), u.spec.id
        if body_tiles(j.x, j.y, j.spec.width) & jh.keep_out:  # in the way there: back up a step
            back = refuge(world, j, {t for t in _ring(jh.keep_out)} | jh.keep_out, {tile_of(u.x, u.y)})
            if back is not None:
                go_to(world, j, back[0])
                world.note(j, EventKind.YIELD)
        return True

    def keep_out_room(self, world: World, u: UnitState) -> float:
        """How far ``u`` may go before its body enters the tiles a unit giving way to it needs
        to reach its refuge (inf: none, or that unit is there)."""
        h = self.holds.get(u.spec.id)
        if h is None or not h.keep_out or u.mover is None:
            return math.inf
        other = world.find(h.keep_for) if h.keep_for is not None else None
        if other is None or other.detour is None:
            h.keep_out, h.keep_for = set(), None
            return math.inf
        if body_tiles(u.x, u.y, u.spec.width) & h.keep_out:
            return math.inf  # in them already: backing out (spacing keeps the bodies apart)
        m = u.mover
        ds, xs, ys = m.cover(m.s + m.reach + 1.0)  # (past the last point the loop reads)
        for k in range(m.after(m.s), len(ds)):
            if ds[k] - m.s > m.reach:
                break
            if body_tiles(xs[k], ys[k], u.spec.width) & h.keep_out:
                return max(0.0, ds[k] - m.s - 0.1)
        return math.inf

    def room(self, world: World, u: UnitState) -> tuple[float, UnitState | None]:
        """How far ``u`` may go along its path by this method's own rules (tiles), and the unit
        that holds it there when one does (None: a rule, not a unit)."""
        return self.keep_out_room(world, u), None

    def _still_coming(self, world: World, u: UnitState, other: str) -> bool:
        """Whether unit ``other`` still has to pass near ``u`` (its way runs next to u; between
        two legs, while it has orders, it is taken to: its next way is not known yet)."""
        j = world.find(other)
        if j is None or j.mover is None:
            return j is not None and j.busy
        here = body_tiles(u.x, u.y, u.spec.width + 1.0)
        return any(t in here for t in path_tiles(j))


def head_on(u: UnitState, j: UnitState) -> bool:
    """Whether ``j`` comes at ``u`` from ahead (headings more than 120 degrees apart)."""
    return math.cos(u.heading - j.heading) < HEAD_ON and \
        math.cos(u.heading) * (j.x - u.x) + math.sin(u.heading) * (j.y - u.y) > 0.0


def facing(u: UnitState, j: UnitState) -> bool:
    """Whether ``u`` and ``j`` meet head-on (either way round)."""
    return head_on(u, j) or head_on(j, u)


def passable(world: World, u: UnitState) -> np.ndarray:
    """Open tiles for ``u``'s searches here: not walls (as its team knows them)."""
    return ~world.known_map(u).blocked


def occupied(world: World, u: UnitState) -> set[Tile]:
    """Tiles under the other units' centres."""
    return {tile_of(v.x, v.y) for v in world.units if v is not u}


def refuge(world: World, u: UnitState, avoid: set[Tile], taken: set[Tile] | None = None,
           fits: Callable[[Tile], bool] | None = None) -> tuple[Tile, list[Tile]] | None:
    """The nearest tile (4-neighbour moves, at most ``REFUGE_DEPTH``) that is free and not in
    ``avoid`` (and ``fits``, if given), reached without crossing another unit (``taken``: tiles
    not to cross, by default those under the other units): (tile, the tiles on the way there,
    itself last) or None."""
    ok = passable(world, u)
    if taken is None:
        taken = occupied(world, u)
    start = tile_of(u.x, u.y)
    h, w = ok.shape
    parent: dict[Tile, Tile | None] = {start: None}
    queue = deque([(start, 0)])
    while queue:
        (x, y), d = queue.popleft()
        if d and (x, y) not in avoid and (x, y) not in taken and (fits is None or fits((x, y))):
            way: list[Tile] = []
            at: Tile | None = (x, y)
            while at is not None and at != start:
                way.append(at)
                at = parent[at]
            return (x, y), way[::-1]
        if d >= REFUGE_DEPTH:
            continue
        for nx, ny in ((x + 1, y), (x, y + 1), (x - 1, y), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and ok[ny, nx] and (nx, ny) not in parent and (nx, ny) not in taken:
                parent[(nx, ny)] = (x, y)
                queue.append(((nx, ny), d + 1))
    return None


def _ring(tiles: set[Tile]) -> set[Tile]:
    """The tiles next to ``tiles`` (8 neighbours), not in them."""
    return {(x + dx, y + dy) for x, y in tiles for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - tiles


def go_to(world: World, u: UnitState, tile: Tile) -> None:
    """Send ``u`` to ``tile`` first, then on with what it was doing."""
    point = (tile[0] + 0.5, tile[1] + 0.5, None)
    world.detour(u, point)


def way_of(u: UnitState) -> set[Tile]:
    """The tiles ``u`` covers now and those of its path ahead."""
    return set(path_tiles(u)) | body_tiles(u.x, u.y, u.spec.width)


def make_way(world: World, u: UnitState, mover: UnitState) -> bool:
    """Ask the idle unit ``u`` to step to a free tile off ``mover``'s way and then come back; only
    to a tile from which it can come back without crossing the goal ``mover`` drives to: from
    the far side of it (a corridor's end beyond it), ``mover``, resting there, would have to
    make way in turn, and the two would take turns for good (a unit held with no such tile is
    a jam in time, and a jam's plan tells who gives up when none gets both through)."""
    fits = None
    if mover.order is not None and not mover.order.aside and mover.goal:
        ok = passable(world, u)
        for g in mover.goal:
            for x, y in body_tiles(g[0], g[1], mover.spec.width):
                if 0 <= y < ok.shape[0] and 0 <= x < ok.shape[1]:
                    ok[y, x] = False
        parts = label(ok)[0]
        home = int(parts[math.floor(u.y), math.floor(u.x)])  # -1: it stands on that goal itself

        def fits(t: Tile) -> bool:  # reached from home with the mover's goal walled
            return home >= 0 and parts[t[1], t[0]] == home
    spot = refuge(world, u, way_of(mover), fits=fits)
    if spot is None:
        return False
    world.order(u.spec.id, Order(OrderKind.MOVE, ((spot[0][0] + 0.5, spot[0][1] + 0.5, None),), aside=True))
    world.order(u.spec.id, Order(OrderKind.MOVE, ((u.x, u.y, u.heading),), aside=True), queue=True)
    return True


def detour(world: World, u: UnitState, around: Iterable[Tile]) -> bool:
    """Re-plan ``u``'s leg with the tiles ``around`` walled off, if a way exists that is not
    much longer (``DETOUR_FACTOR``); the unit brakes and takes it from where it stops."""
    return world.replan(u, frozenset(around), DETOUR_FACTOR * way_left(u) + DETOUR_EXTRA)


def walled(base: TileMap, tiles: Iterable[Tile], keep: Iterable[Tile] = (), influence: np.ndarray | None = None
           ) -> TileMap:
    """A copy of ``base`` with ``tiles`` made walls (``keep`` left as they are) and, if given,
    ``influence`` as its penalty layer."""
    kept = set(keep)
    return base.walled((t for t in tiles if t not in kept), influence)
