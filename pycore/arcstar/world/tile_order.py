"""Driving a round's plans in tile order (an action dependency graph, after Hoenig et al. 2019),
with the order changed as the units drive (a switchable one, after Berndt et al. 2020).

Each unit follows its plan's tiles and may drive into a tile only when every other unit planned
there earlier has reached that tile's centre (a unit that started off its tile holds the tiles
its body covers until it reaches the centre of its first). A unit waits only for units planned to
be there earlier, or for one leaving the tile in the same tick, and such same-tick chains never
close into a ring (the plans have no rotations), so nobody waits in a circle by the plan. Where a
body holds a unit that the plan has wait for it (ways to first centres that cross), the ring is
reported after ``RING_AFTER`` (``TileOrder.held``) and the round is planned again. A unit resting
on its goal that the plan has step aside leaves only when the unit it makes way for is near
(``TileOrder.needed``). A unit the plan has wait for units still far off goes first
(``TileOrder.go_first``) when every plan can still be driven to its end.

What plans the rounds, and when, is ``coordinated``'s; this module reads the plans and the
units' progress along them, nothing else of the world but where a unit is and the time.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from .avoidance import Tile
from .state import UnitState

#: How many units resting on their goals, each stepping aside for the next, ``TileOrder.needed``
#: follows (a few: such chains are short, and each link is a wait on something planned earlier).
CHAIN = 4
#: Seconds a unit may stand held by a body that waits, by the plan, for it (a ring the plan's
#: order cannot see: ways to first centres that cross where bodies stand) before the round is
#: planned again. Such rings last for good; shorter ones undo themselves (a unit pivoting in
#: place, one braking): at 1 s, tank doors re-planned for those and stood longer.
RING_AFTER = 3.0
#: A unit the plan has wait on a tile for units still this many tiles off (by their plans and
#: as the crow flies) may go first (``TileOrder.go_first``). At 8, units at doors of cars
#: swapped places in a room and stood longer (a door's criterion lost); at 16 no door, swap,
#: corridor or junction we run changes.
FAR_BEHIND = 16
#: Seconds before a unit refused the first place (``TileOrder.go_first``) asks again: the units it
#: waits for come no nearer faster than a few tiles a second, and asking costs a walk of its plan.
CHECK_FIRST = 1.0
#: The most units one unit goes first over at once (``TileOrder.go_first``): those it would wait
#: for on the tiles it shares with the first of them too (else a third, planned between the two,
#: closes a ring), each far off.
FIRST_OVER = 8


@dataclass
class Schedule:
    """One unit's plan: the tiles it visits in order with the tick it enters each, the tile it
    was given as its goal (``want``, or a free one near it when another unit has that one, or
    its own when it has no order); ``progress`` the last visit whose centre it reached (-1: it
    is still on its way to its first tile's centre, and holds the tiles its body covers). Its
    route starts at visit ``start``, whose centre is ``lead`` tiles from where the unit stood,
    so visit k's centre is ``lead + k - start`` along it. ``cleared``: the last visit it may
    drive to (every unit planned on its tiles before it has gone on); it never goes back, as
    progress never does, so ``room`` looks on from there. ``holds``: the other tiles its body
    covered when it was planned, held till it reaches its first tile's centre."""

    visits: list[tuple[Tile, int]]
    goal: Tile
    want: Tile | None
    lead: float = 0.0
    start: int = 0
    progress: int = 0
    cleared: int = -1
    holds: frozenset[Tile] = frozenset()



def _waits(first: dict[tuple[str, str], tuple[str, frozenset[Tile]]], uid: str, vid: str, tile: Tile, t: int,
           tick: int) -> bool:
    """Whether ``uid``, entering ``tile`` at plan tick ``tick``, waits there for ``vid``'s visit
    at ``t``: by the pair's order where it changed on that tile (``first``), else if ``vid`` was
    planned there earlier (a tile held from the start, at -1, only by a later visit)."""
    went = first.get((uid, vid) if uid < vid else (vid, uid)) if first else None
    if went is not None and tile in went[1]:
        return went[0] == vid
    return t < tick and (t >= 0 or tick > 0)


class Where(Protocol):
    """What the order reads of the world: the time, and where a unit is."""

    @property
    def time(self) -> float: ...

    def find(self, uid: str) -> UnitState | None: ...


class TileOrder:
    """The plans of a round, by unit, and who goes first on each tile (module notes)."""

    def __init__(self) -> None:
        self.plans: dict[str, Schedule] = {}
        #: tile -> (the tick a unit enters it, the unit, which of its visits), as planned; -1: a
        #: unit off its start tile's centre holds what its body covers till it reaches it
        self.by_tile: dict[Tile, list[tuple[int, str, int]]] = {}
        #: pairs of units (ids in order) whose order the driving changed (``go_first``): the id
        #: of the one that goes first, and the tiles where it does
        self.first: dict[tuple[str, str], tuple[str, frozenset[Tile]]] = {}
        self.refused: dict[str, float] = {}  # unit -> when it may ask to go first again (``go_first``)
        self.bodies: dict[str, tuple[str, float]] = {}  # unit -> the body holding it, when
        self.ring_since: dict[str, float] = {}
        self.last_tick = -math.inf  # the last tick's time: bodies that held units since then hold them still

    def clear(self) -> None:
        """Forget the round's plans, and with them the orders the driving changed."""
        self.plans.clear()
        self.by_tile.clear()
        self.first.clear()
        self.refused.clear()

    def clear_holds(self) -> None:
        """Forget which bodies held which units (a new round starts from standing units)."""
        self.bodies.clear()
        self.ring_since.clear()

    def add(self, uid: str, visits: list[tuple[Tile, int]], goal: Tile, want: Tile | None,
            covers: set[Tile]) -> Schedule:
        """Take ``uid``'s plan: its ``visits``, the ``goal`` it was planned to and the tile it
        ``want``s; ``covers``, the tiles its body covers where it stands, are held till it has
        left its start tile (or, staying, reached its centre) when they are not that tile alone."""
        plan = self.plans[uid] = Schedule(visits, goal, want)
        for k, (tile, t) in enumerate(visits):
            self.by_tile.setdefault(tile, []).append((t, uid, k))
        if covers != {visits[0][0]}:  # off its start tile's centre: hold what it covers until there
            plan.progress = -1
            held = 0 if len(visits) > 1 else -1
            plan.holds = frozenset(covers - {visits[0][0]})
            for tile in plan.holds:
                self.by_tile.setdefault(tile, []).append((-1, uid, held))
        return plan

    def replace(self, uid: str, tiles: list[Tile], covers: set[Tile], goal: Tile, want: Tile | None,
                at: int | None = None) -> Schedule:
        """``uid`` planned again alone along ``tiles`` to ``goal`` for ``want`` (as ``add``; from
        the tile it stands on, its body covering ``covers``): the k-th tile at plan tick
        ``at + k`` (one later where another unit is planned at that tick), or with ``at`` None
        after every unit planned on each. On the tile it stands on it is first (others wait till
        it has reached its centre). The orders the driving changed for it are dropped."""
        old = self.plans.pop(uid)
        for tile in {t for t, _ in old.visits} | old.holds:
            kept = [e for e in self.by_tile[tile] if e[1] != uid]
            if kept:
                self.by_tile[tile] = kept
            else:
                del self.by_tile[tile]
        for pair in [p for p in self.first if uid in p]:
            del self.first[pair]
        self.refused.pop(uid, None)
        if at is None:
            at = 1 + max((p.visits[-1][1] for p in self.plans.values()), default=0)  # (ticks grow along a plan)
        visits, tick = [(tiles[0], -1)], at
        for tile in tiles[1:]:
            tick += 1
            while any(t == tick for t, _, _ in self.by_tile.get(tile, ())):
                tick += 1
            visits.append((tile, tick))
        return self.add(uid, visits, goal, want, covers)

    def held(self, uid: str, by: str | None, now: float) -> bool:
        """Note that ``uid`` stands held by the standing body of ``by`` (None: by none). Returns
        whether it has stood ``RING_AFTER`` seconds so held by a unit that waits for it (by the
        plan's order, or held by its body in turn, or through others so): it would wait for
        good, and the round is to be planned again from there."""
        if by is None or by not in self.plans:
            self.bodies.pop(uid, None)
            self.ring_since.pop(uid, None)
            return False
        self.bodies[uid] = (by, now)
        if not self.waits_for(by, uid, now):
            self.ring_since.pop(uid, None)
            return False
        return now - self.ring_since.setdefault(uid, now) >= RING_AFTER


    def waits_for(self, start: str, uid: str, now: float) -> bool:
        """Whether ``start`` stands waiting for ``uid``: held by its body, or at the last centre
        its plan lets it reach with ``uid`` planned on the next tile before it, or so through
        other units that wait."""
        seen, todo = {start}, [start]
        while todo:
            vid = todo.pop()
            nxt: list[str] = []
            body = self.bodies.get(vid)
            if body is not None and body[1] >= now - 1e-9:
                nxt.append(body[0])
            plan = self.plans.get(vid)
            if plan is not None and plan.progress >= plan.cleared and plan.cleared + 1 < len(plan.visits):
                nxt += self.ahead_of(vid, plan.visits[plan.cleared + 1])
            for w in nxt:
                if w == uid:
                    return True
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        return False

    def room(self, world: Where, uid: str, s: float) -> float:
        """How far ``uid``, ``s`` along its route, may drive by the plan: up to the centre of
        the last visit cleared (the plan, not a unit, holds it); its progress and what is
        cleared move on as it does."""
        plan = self.plans[uid]
        k = plan.progress
        while k + 1 < len(plan.visits) and s >= plan.lead + (k + 1 - plan.start) - 1e-6:
            k += 1
        plan.progress = k
        c = max(k, plan.cleared)
        while c + 1 < len(plan.visits) and (self.cleared(uid, plan.visits[c + 1]) or (
                c <= k + 1 and plan.want is not None and self.go_first(world, uid, plan.visits[c + 1]))) and \
                self.needed(uid, plan, c):
            c += 1
        plan.cleared = c
        if c + 1 >= len(plan.visits):
            return math.inf
        return max(0.0, plan.lead + (c - plan.start) - s)

    def needed(self, uid: str, plan: Schedule, c: int, depth: int = 0, origin: str | None = None) -> bool:
        """Whether ``uid`` may leave visit ``c``: anywhere but on its goal at once; from its goal
        (stepping aside for a unit that passes) only once the first unit planned on that tile
        after it has got as far as the plan had it the tick before (a wait on something earlier
        in the plan, so no two units can wait on each other), and, when that unit rests on its
        own goal, may leave it in its turn (``depth``: how far down such a chain). Standing on its
        goal it holds nobody up, where waiting beside it for a unit still far off would be a
        wait for nothing (two units resting side by side stepped aside one for the other while
        that one waited for a third: 13 s off its goal in the two-group swap). Down such a chain a
        unit leaves later than ``uid`` (``origin``), so where the unit it waits for waits in turn,
        by tile order or held by a body, for ``origin`` (``waits_for``), the chain closes into a
        ring and is not followed (a jam's plan at a door stood 17 s so, nobody else moving)."""
        if c < 0:
            return True  # on its way to its first tile's centre
        tile = plan.visits[c][0]
        if tile != plan.goal or c + 1 >= len(plan.visits):
            return True
        leave = plan.visits[c + 1][1]
        first: tuple[int, str, int] | None = None
        for entry in self.by_tile.get(tile, ()):
            if entry[0] >= leave and entry[1] != uid and (first is None or entry[0] < first[0]):
                first = entry
        if first is None:
            return True
        other = self.plans[first[1]]
        before = max(j for j, (_, t) in enumerate(other.visits) if t < leave)  # visit 0 is at tick 0 < leave
        origin = uid if origin is None else origin
        if other.progress < before:
            # down the chain, a unit leaves later than ``origin``: if the one it waits for waits,
            # by tile order, for ``origin`` itself, the chain closes into a ring; origin goes
            return depth > 0 and self.waits_for(first[1], origin, self.last_tick)
        return depth >= CHAIN or self.needed(first[1], other, other.progress, depth + 1, origin)

    def cleared(self, uid: str, visit: tuple[Tile, int]) -> bool:
        """Whether ``uid`` may enter ``visit``'s tile: every unit planned there before it has
        reached the centre of that tile (a unit that started off its tile covering this one: the
        centre of its first tile). Its own start tile it is on already."""
        return next(self.ahead_of(uid, visit), None) is None

    def ahead_of(self, uid: str, visit: tuple[Tile, int],
                  first: dict[tuple[str, str], tuple[str, frozenset[Tile]]] | None = None) -> Iterator[str]:
        """The units ``uid`` waits for before it enters ``visit``'s tile (``cleared``): those
        planned there before it that have yet to reach it, but for the pairs whose order changed
        (``first``)."""
        tile, tick = visit
        if first is None:
            first = self.first
        if not first:  # (every unit every tick: the plain test alone)
            for t, vid, k in self.by_tile.get(tile, ()):
                if t < tick and vid != uid and (t >= 0 or tick > 0) and self.plans[vid].progress < k:
                    yield vid
            return
        for t, vid, k in self.by_tile.get(tile, ()):
            if vid != uid and self.plans[vid].progress < k and _waits(first, uid, vid, tile, t, tick):
                yield vid

    def go_first(self, world: Where, uid: str, visit: tuple[Tile, int]) -> bool:
        """Whether ``uid``, about to wait for ``visit``'s tile, goes first instead. The plan's
        ticks drift from the driving over a long way (one move a tick for every unit: a car waited
        82 s by the plan's order for a unit still 128 tiles off), so, as in a switchable action
        dependency graph (Berndt et al. 2020), it goes first over every unit it would wait for
        there that is still ``FAR_BEHIND`` tiles off (``far``), on the tiles the two share from
        there (``first``: one that went first on one tile and waited on the next would meet the
        other head-on in a corridor), and so over each unit it would wait for on those tiles too
        (a third planned between the two would close a ring), all far off, at most
        ``FIRST_OVER``, none of them one that went first over it before (going first again over
        the same unit adds the tiles to those it goes first on); not a unit whose plan
        steps off its goal and back (``needed`` times that). Taken only if every plan can still
        be driven to its end (``completes``); a unit refused asks again ``CHECK_FIRST`` seconds
        later."""
        now = world.time
        if now < self.refused.get(uid, -math.inf):
            return False
        self.refused[uid] = now + CHECK_FIRST  # (forgotten below if it goes first)
        mine = self.plans[uid]
        if any(t == mine.goal for t, _ in mine.visits[max(mine.progress, 0):-1]):
            return False
        ahead = mine.visits[mine.progress + 1:]
        start = next(i for i, v in enumerate(ahead) if v == visit)
        todo = [(vid, start) for vid in self.ahead_of(uid, visit)]
        first = dict(self.first)
        seen: set[str] = set()
        while todo:  # it goes first over each, on the tiles they share from where it waits for it
            vid, at = todo.pop()
            if vid in seen:
                continue
            seen.add(vid)
            pair = (uid, vid) if uid < vid else (vid, uid)
            went = self.first.get(pair)
            if (went is not None and went[0] != uid) or len(seen) > FIRST_OVER or \
                    not self.far(world, vid, ahead[at][0]):
                return False
            theirs = {t for t, _ in self.plans[vid].visits[max(self.plans[vid].progress, 0):]}
            stretch = set() if went is None else set(went[1])  # (first there already: here too)
            for i in range(at, len(ahead)):
                if ahead[i][0] not in theirs:
                    break
                stretch.add(ahead[i][0])
                todo += ((wid, i) for wid in self.ahead_of(uid, ahead[i]) if wid not in seen)
            first[pair] = (uid, frozenset(stretch))
        if not seen:
            return False
        if not self.completes(first):
            return False
        self.first = first
        del self.refused[uid]
        return True

    def far(self, world: Where, vid: str, tile: Tile) -> bool:
        """Whether ``vid`` is still ``FAR_BEHIND`` tiles or more short of ``tile``, by its plan
        (its next visit there) and as the crow flies."""
        plan, v = self.plans[vid], world.find(vid)
        short = min((k for _t, w, k in self.by_tile.get(tile, ()) if w == vid and k > plan.progress), default=0)
        return v is not None and short - max(plan.progress, 0) >= FAR_BEHIND and \
            math.hypot(v.x - tile[0] - 0.5, v.y - tile[1] - 0.5) >= FAR_BEHIND

    def completes(self, first: dict[tuple[str, str], tuple[str, frozenset[Tile]]]) -> bool:
        """Whether every plan can be driven to its end in tile order with the pairs' orders
        ``first``: each unit goes on a visit at a time once every unit it waits for there has
        left the tile (``ahead_of``); a ring of waits leaves some short."""
        plans, by_tile = self.plans, self.by_tile
        progress = {uid: p.progress for uid, p in plans.items()}
        waiting: dict[str, list[str]] = {}  # unit -> the units waiting for it to go on
        todo = deque(plans)
        while todo:
            uid = todo.popleft()
            visits = plans[uid].visits
            at = progress[uid]
            while at + 1 < len(visits):
                # the first unit it waits for there that has yet to leave the tile (not reach
                # it, as ``ahead_of``: this reads no bodies, and two units that each have
                # reached the other's next tile cannot pass); a loop, not a generator a visit:
                # this walks every visit of every plan (a mend's and a first place's price)
                tile, tick = visits[at + 1]
                by = None
                for t, vid, k in by_tile.get(tile, ()):
                    if vid != uid and progress[vid] <= k and _waits(first, uid, vid, tile, t, tick):
                        by = vid
                        break
                if by is not None:
                    waiting.setdefault(by, []).append(uid)
                    break
                at += 1
                progress[uid] = at
                todo.extend(waiting.pop(uid, ()))
        return all(progress[uid] + 1 >= len(p.visits) for uid, p in plans.items())
