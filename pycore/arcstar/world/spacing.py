"""Keeping bodies apart: how far a unit may drive along its path before its body would touch
another's, under every avoidance method but ``none``.

Bodies are discs (diameter ``UnitSpec.width``, tiles). Each tick, before a unit moves, its path
ahead (as far as it could need to stop, plus a tile) is checked against the bodies near it where
they stand now; the first point where the two would come closer than their radii plus ``MARGIN``
(and closer than they are now: a unit may always back away) caps how far it may go, and the
``Mover`` brakes for it within its braking limit. A unit driving towards us may close the gap
too, so against it only half the gap is ours; one meeting us head-on is kept ``STANDOFF``
further away (room for one of the two to step aside), unless this one is giving way to it.
Units move one after another in a tick, so each sees the others where they already moved to.

Bodies that are not in the way now but will be are met too: where the path ahead crosses the
path another moving unit (at ``VMIN`` or faster) will take, at about the same time
(``_crossing``; each way read a stopping distance beyond its reach, ``far_of``), the unit that
would get there later brakes for the place; the other goes first. And no unit drives into the
stretch a unit that brakes weakly (``weak``) will drive before it could stop (``_unstoppable``),
whenever either would get there: it gets the right of way it needs.

This is the part of Lester's "waiting when the other unit will clear" that keeps bodies apart;
the avoidance methods decide what to do when a unit stays held (``Neighbours`` and ``room``
tell them who holds it).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from ..geometry.primitives import JOINT_TOL

if TYPE_CHECKING:
    from .motion import Mover
    from .state import UnitState

#: Space kept between two bodies (tiles): the checks sample the path every ``SPACING``.
MARGIN = 0.04
SPACING = 0.1
#: Extra space kept from a unit driving towards this one (tiles): room left to step aside.
STANDOFF = 0.6
#: Two bodies passing one place within this many seconds of each other would meet (s); speeds
#: below ``VMIN`` (tiles/s) count as ``VMIN`` when timing when a unit gets somewhere.
WINDOW, VMIN = 1.5, 0.3
#: Units whose headings differ by more than acos(HEAD_ON) (120 degrees) meet head-on.
HEAD_ON = -0.5
#: Neighbour cells (tiles on a side).
CELL = 4
#: How far apart two points of a path may lie beyond the length of path between them (tiles):
#: its joints may part by ``JOINT_TOL`` each, and a way ahead crosses far fewer than a thousand.
JOINT_SLACK = 1000 * JOINT_TOL

#: A unit's way ahead: distances along its path, points (k, 2), times it gets to them (s).
Way = tuple[np.ndarray, np.ndarray, np.ndarray]
#: An axis-aligned box (x0, y0, x1, y1), tiles.
Box = tuple[float, float, float, float]


class Turns:
    """Who goes first where two units' ways meet (``_crossing``), kept from tick to tick while
    the ways go on meeting. The turn is judged each tick by who gets there sooner, but a new
    judgement that would make second a unit that can no longer stop short of the place leaves
    the turn as it was: judged afresh alone, the order flipped as the unit second braked or the
    first slowed for a bend, and a unit told to go second too late ran into the other (0.12
    tile deep, an outside search's scenario). Pairs by their ids; a turn not confirmed in the
    last tick is forgotten."""

    def __init__(self) -> None:
        self.tick = 0
        self._first: dict[tuple[str, str], tuple[str, int]] = {}

    def next_tick(self) -> None:
        """A new tick: turns confirmed before the last one are forgotten (so every turn kept
        was confirmed in this tick or the last)."""
        self.tick += 1
        if self._first:
            self._first = {k: v for k, v in self._first.items() if v[1] >= self.tick - 1}

    def first(self, a: str, b: str) -> str | None:
        """The id of the one of units ``a`` and ``b`` that goes first (None: not settled)."""
        kept = self._first.get((a, b) if a < b else (b, a))
        return None if kept is None else kept[0]

    def settled(self) -> dict[tuple[str, str], str]:
        """Every turn settled now: the pair's ids in order, and the id of the one going first."""
        return {k: v[0] for k, v in self._first.items()}

    def keep(self, a: str, b: str, first: str) -> None:
        """Settle (or confirm) that ``first`` goes first of ``a`` and ``b`` this tick."""
        self._first[(a, b) if a < b else (b, a)] = (first, self.tick)


class Neighbours:
    """The units bucketed by ``CELL``-tile squares where they stand when the tick starts, for
    finding those near a point.

    The units are kept sorted by cell (column, then row, then the world's order), so the units
    of a block of columns are one slice, found by bisection: cheaper than a lookup per cell,
    and in the same order as a walk over the cells."""

    def __init__(self, units: Iterable[UnitState], pad: float, turns: Turns | None = None) -> None:
        # cells as floats (x // CELL): the same order and bounds as whole numbers, without the calls
        placed = sorted((u.x // CELL, u.y // CELL, k, u) for k, u in enumerate(units))  # k: never ties
        self._cx = [e[0] for e in placed]
        #: per unit in cell order: its cell's row, itself and its half width (``room`` reads all three)
        self._entries = [(e[1], e[3], e[3].spec.width / 2.0) for e in placed]
        #: ``reach_pad`` for these units
        self.pad = pad
        #: who goes first at the crossings (the world's, kept from tick to tick)
        self.turns = Turns() if turns is None else turns
        self._ways: dict[str, _Ahead] = {}

    def around(self, x: float, y: float, r: float) -> list[tuple[float, UnitState, float]]:
        """Units whose cell lies within ``r`` of (x, y), a superset of those bucketed within r,
        by cell (column, row) and in the world's order within a cell, as (cell row, unit, half
        its width): ``room`` asks for every unit every tick, and the half widths need not be
        worked out again each time."""
        y0, y1 = (y - r) // CELL, (y + r) // CELL
        cx = self._cx
        return [e for e in self._entries[bisect_left(cx, (x - r) // CELL):bisect_right(cx, (x + r) // CELL)]
                if y0 <= e[0] <= y1]

    def way_box(self, j: UnitState, dt: float) -> Box | None:
        """The bounding box of j's way as the crossing check reads it (``ahead_of`` with
        ``far``; None: no way)."""
        kept = self._ways.get(j.spec.id)
        if kept is not None and kept.mover is j.mover and kept.s == kept.mover.s:
            return kept.far_box  # ``_ahead``'s hit, inlined: units near each other ask for each other's box
        kept = self._ahead(j, dt)
        return None if kept is None else kept.far_box

    def on_way(self, j: UnitState, dt: float, x: float, y: float, clear: float) -> bool:
        """Whether j's way ahead (``ahead_of``) runs within ``clear`` of the point (x, y)."""
        kept = self._ahead(j, dt)
        if kept is None:
            return False
        assert kept.span is not None
        j0, j1 = kept.span
        ds, xs, ys = kept.mover.cover(kept.s)  # (sampled out to its span's end by ``_spans``)
        return _first_near(xs, ys, ds, j0, j1, x, y, clear) >= 0

    def _ahead(self, j: UnitState, dt: float) -> _Ahead | None:
        """j's way ahead as the checks read it (``_Ahead``), kept while j's mover and its distance
        along it stay the same (the speed is the one j had when first asked: a unit that brakes
        to a halt in a tick stays where it was)."""
        m = j.mover
        if m is None:
            return None
        kept = self._ways.get(j.spec.id)
        if kept is not None and kept.mover is m and kept.s == m.s:
            return kept if kept.span is not None else None
        span, far = _spans(j, dt)
        kept = self._ways[j.spec.id] = _Ahead(m, m.s, m.v, span, far, None if far is None else m.box(*far))
        return kept if span is not None else None


def reach_pad(units: Iterable[UnitState], dt: float) -> float:
    """How far beyond a unit's own reach and half width another unit's centre may lie, where
    ``Neighbours`` bucketed it, and still matter to ``room`` this tick (tiles): its half width and
    the margin, and its standoff or its way as ``_crossing`` reads it at its top speed; plus how
    far it may move from there before it is asked about (a tick at its top speed, and its path's
    joints). The same while the units are (``World`` keeps it)."""
    widest = fastest = farthest = 0.0
    for u in units:
        spec = u.spec
        v = spec.speed
        widest, fastest = max(widest, spec.width), max(fastest, v)
        # far_of at top speed: the farthest its way can reach this tick
        farthest = max(farthest, v * v / spec.brake_rate + (v + spec.accel_rate * dt) * dt + 1.0)
    return SPACING + widest / 2.0 + MARGIN + max(STANDOFF, farthest + SPACING) + fastest * dt + JOINT_SLACK


class _Ahead:
    """A unit's way ahead as ``Neighbours`` keeps it: its mover, distance along and speed when
    made, the span of its ``points()`` it covers out to its reach and out to ``far_of`` (None:
    no way), and the bounding box of the far span."""

    __slots__ = ("mover", "s", "v", "span", "far", "far_box")

    def __init__(self, mover: Mover, s: float, v: float, span: tuple[int, int] | None,
                 far: tuple[int, int] | None, far_box: Box | None) -> None:
        self.mover, self.s, self.v, self.span, self.far, self.far_box = mover, s, v, span, far, far_box


def approaching(j: UnitState, x: float, y: float) -> bool:
    """Whether unit j drives (or, held, means to drive) towards the point (x, y)."""
    m = j.mover
    if m is None:
        return False
    return m.gear * (math.cos(j.heading) * (x - j.x) + math.sin(j.heading) * (y - j.y)) > 0.0


def room(u: UnitState, near: Neighbours, dt: float, standoff: bool = True, margin: float = MARGIN
         ) -> tuple[float, UnitState | None]:
    """How far ahead along its path unit ``u`` may drive this tick (tiles; inf: nobody in the
    way) and the unit that limits it. Without ``standoff`` bodies only keep ``MARGIN`` apart;
    ``margin``: the space ``u`` keeps from bodies standing (tiles; 0: it may touch them)."""
    m = u.mover
    if m is None:
        return math.inf, None
    v = m.v  # reach_of(u, dt), inlined, as below: room is asked for every unit every tick
    stop = v * v / (2.0 * m.brake_rate)
    reach = stop + (v + m.accel_rate * dt) * dt + 1.0
    # A unit coming towards this one leaves it only half the gap between them (``_standing``), so
    # it is looked for a stopping distance further: the half is then still enough to stop in.
    far = reach + stop
    half = u.spec.width / 2.0
    # Only units that could touch the way this tick: within reach of a body where they stand, or,
    # moving, within reach of their own way as ``_crossing`` reads it (``far_of``).
    x, y = u.x, u.y
    fixed = far + SPACING + half  # + j's half width + MARGIN: where the bodies touch
    # (unit, how far its way reaches (far_of) when it moves at VMIN or faster (else -1), half
    # width, its gear: 1 forward, -1 backing up, 0 standing or slower)
    others: list[tuple[UnitState, float, float, int]] = []
    for _, j, jhalf in near.around(x, y, far + half + near.pad):
        if j is u:
            continue
        dx, dy = j.x - x, j.y - y
        dd = dx * dx + dy * dy  # squared distances: no hypot call (a filter, with a tick's slack)
        touch = fixed + jhalf + MARGIN
        jm = j.mover
        if jm is not None and not -VMIN < j.speed < VMIN:  # abs(j.speed) >= VMIN, without the call
            jv = jm.v  # far_of(j, dt), inlined: this loop runs for every unit near every unit
            jreach = jv * jv / jm.brake_rate + (jv + jm.accel_rate * dt) * dt + 1.0
            lim = touch + (STANDOFF if STANDOFF > jreach + SPACING else jreach + SPACING)
            if dd < lim * lim:
                others.append((j, jreach, jhalf, jm.gear))
        else:
            lim = touch + STANDOFF
            if dd < lim * lim:
                others.append((j, -1.0, jhalf, 0))
    if not others:
        return math.inf, None
    ds = m.cover(m.s + far)[0]  # (the points out to ``far``: the bisections below find what they would in all)
    n = len(ds)
    i0 = bisect_right(ds, m.s)  # m.after(m.s), inlined as below
    if i0 >= n:
        return math.inf, None
    i1 = bisect_right(ds, m.s + reach, i0)
    if i1 >= n:
        i1 = n - 1
    i2 = bisect_right(ds, m.s + far, i1)  # the way out to ``far``: for units coming towards it
    if i2 >= n:
        i2 = n - 1
    box = m.box(i0, i2)  # the way's bounds, without numpy
    # The exact checks below are costly; a unit whose body (or way) stays clear of the way's
    # bounding box can take no part in them.
    still: list[UnitState] = []
    moving: list[UnitState] = []
    for j, jreach, jhalf, jgear in others:
        jx, jy = j.x, j.y
        off = off_box(box, jx, jy)
        if off < half + jhalf + MARGIN + STANDOFF:
            still.append(j)
        # its way's points lie within its reach (and a point) of it: farther off, its box need not
        # be made; nor for a unit behind this one in its lane going its way (it cannot pass this
        # body, and minds it: ``_crossing``), unless it brakes weakly (``_unstoppable``: it may
        # not be able to). One beside it is checked: merging, each may time itself first. Ways
        # are the ways the units move: a unit backing up goes the way its tail faces (read by
        # its heading, a tank backing into a person walking at it took the person for one
        # behind it going its way, and ran 0.21 tile into it).
        if jreach >= 0.0 and off < jreach + SPACING + JOINT_SLACK + half + jhalf + MARGIN and \
                not (m.gear * jgear * math.cos(u.heading - j.heading) > 0.0
                     and _in_lane_behind(u, m.gear, jx - x, jy - y, half + jhalf + MARGIN) and not weak(j.mover)) and \
                boxes_near(box, near.way_box(j, dt), half + jhalf + MARGIN):
            moving.append(j)
    best, who = math.inf, None
    if still:
        best, who = _standing(u, still, near, dt, i0, i1, i2, standoff, margin)
    if moving:
        for j in moving:
            clear = half + j.spec.width / 2.0 + MARGIN
            at = _unstoppable(u, j, near, dt, i0, i1, clear)
            if at is None:
                at = _crossing(u, j, near, dt, i0, i2, clear)
            if at is not None:
                gap = max(0.0, ds[at] - m.s - SPACING)
                if gap < best:
                    best, who = gap, j
    return best, who


def _in_lane_behind(u: UnitState, gear: int, dx: float, dy: float, lane: float) -> bool:
    """Whether the point (dx, dy) from unit ``u`` lies behind it, as it moves in ``gear`` (-1,
    backing up: ahead of its heading), and less than ``lane`` to its side (a body there driving
    u's way would run into u's)."""
    c, s = gear * math.cos(u.heading), gear * math.sin(u.heading)
    return c * dx + s * dy < 0.0 and -lane < c * dy - s * dx < lane


def _first_near(xs: list[float], ys: list[float], ds: list[float], i0: int, i1: int, x: float, y: float,
                r: float) -> int:
    """The first index k in [i0, i1] (i1 past the end: to the end) of the points (xs, ys) at
    distances ``ds`` along a path whose distance from (x, y) is under ``r``; -1 if none. No two
    points of a path lie farther apart than the path between them, so a point ``d`` from (x, y)
    rules out the next ``d - r`` tiles of path: the scan jumps there (a bisection), and a way
    ahead of dozens of points takes a few steps. Python floats, not numpy: on a few points a
    numpy call costs more than the work (in Pyodide, several times more)."""
    if i1 >= len(xs):
        i1 = len(xs) - 1
    k = i0
    while k <= i1:
        d = math.hypot(xs[k] - x, ys[k] - y)
        if d < r:
            return k
        skip = d - r - JOINT_SLACK
        k = bisect_left(ds, ds[k] + skip, k + 1, i1 + 1) if skip > SPACING else k + 1
    return -1


def _standing(u: UnitState, others: list[UnitState], near: Neighbours, dt: float, i0: int, i1: int, i2: int,
              standoff: bool, margin: float = MARGIN) -> tuple[float, UnitState | None]:
    """How far ``u`` may drive along the points ``i0``..``i1`` of its way (``i2`` for a unit
    coming towards it) before its body comes too close to one of ``others`` where it stands now
    (``room``): closer than their radii and ``margin``, and closer than it is now (a unit may
    always back away)."""
    m = u.mover
    assert m is not None
    ds, xs, ys = m.cover(m.s)  # (sampled out to ``i2`` by ``room``)
    s, half, ux, uy = m.s, u.spec.width / 2.0, u.x, u.y
    best, who = math.inf, None
    for j in others:
        jx, jy = j.x, j.y
        towards = approaching(j, ux, uy)
        clear = half + j.spec.width / 2.0 + margin
        k, last = i0, i2 if towards else i1
        if standoff and towards and u.gives_way_to != j.spec.id:
            k = _first_near(xs, ys, ds, i0, last, jx, jy, clear + STANDOFF)
            if k < 0:
                continue  # the way keeps clear of it, standoff and all
            if near.on_way(j, dt, ux, uy, clear):
                clear += STANDOFF  # head-on: each drives through where the other stands
        now = math.hypot(jx - ux, jy - uy) - 1e-9
        k = _first_near(xs, ys, ds, k, last, jx, jy, clear if clear <= now else now)
        if k < 0:
            continue
        gap = ds[k] - s - SPACING
        if not gap > 0.0:  # max(0.0, gap), without the call (0.0 for -0.0 too)
            gap = 0.0
        if towards:
            gap /= 2.0
        if gap < best:
            best, who = gap, j
    return best, who


def off_box(box: Box, x: float, y: float) -> float:
    """How far the point (x, y) lies outside ``box`` (0 inside)."""
    # max(box[0] - x, 0.0, x - box[2]) per axis, written out (at most one side is positive; the
    # builtin's call costs more than the rest in Pyodide, and this runs for every unit near a way)
    dx = box[0] - x if x < box[0] else (x - box[2] if x > box[2] else 0.0)
    dy = box[1] - y if y < box[1] else (y - box[3] if y > box[3] else 0.0)
    return math.hypot(dx, dy)


def boxes_near(a: Box, b: Box | None, gap: float) -> bool:
    """Whether boxes ``a`` and ``b`` (None: no box) come within ``gap`` of each other."""
    if b is None:
        return False
    dx = b[0] - a[2] if b[0] > a[2] else (a[0] - b[2] if a[0] > b[2] else 0.0)  # max(.., 0.0, ..): off_box
    dy = b[1] - a[3] if b[1] > a[3] else (a[1] - b[3] if a[1] > b[3] else 0.0)
    return math.hypot(dx, dy) < gap


def reach_of(j: UnitState, dt: float) -> float:
    """How far along its path unit j looks ahead (tiles): as far as it could need to stop after
    this tick, plus a tile (0 when it has no path)."""
    jm = j.mover
    if jm is None:
        return 0.0
    return jm.stopping_distance() + (jm.v + jm.accel_rate * dt) * dt + 1.0


def far_of(j: UnitState, dt: float) -> float:
    """How far along its path the crossing check reads unit j's way (tiles): ``reach_of`` and a
    stopping distance more. Two ways that run at each other meet first where they end, and that
    place moves towards each unit as the other drives on: read out to its reach alone, a unit
    second to a place learnt of it too late to stop short of where the other would really pass
    (a unit that turned into a bay one was driving to)."""
    jm = j.mover
    return 0.0 if jm is None else reach_of(j, dt) + jm.stopping_distance()


def ahead_of(j: UnitState, dt: float, far: bool = False) -> Way | None:
    """Unit j's path from where it is out to ``reach_of`` (``far``: out to ``far_of``):
    distances along it, points (k, 2), and the times (s) it gets to them at its speed (``VMIN``
    at least)."""
    span = _spans(j, dt)[1 if far else 0]
    return None if span is None or j.mover is None else _way_over(j.mover, span)


def _spans(j: UnitState, dt: float) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """The indices into j's ``points()`` of the first and last point of ``ahead_of(j, dt)`` and
    of ``ahead_of(j, dt, far=True)`` (None: no way), with one search of the points for both
    (``Neighbours`` asks for both, for every moving unit near another, every tick)."""
    jm = j.mover
    if jm is None:
        return None, None
    reach = reach_of(j, dt)
    far = jm.s + (reach + jm.stopping_distance())
    ds = jm.cover(far)[0]
    j0 = bisect_right(ds, jm.s)  # jm.after(jm.s), inlined
    if j0 >= len(ds):
        return None, None
    j1 = bisect_right(ds, jm.s + reach, j0)
    return (j0, j1), (j0, bisect_right(ds, far, j1))


def _way_over(jm: Mover, span: tuple[int, int]) -> Way:
    """``ahead_of`` over the points ``span`` (``_spans``) of the path ``jm`` drives."""
    j0, j1 = span
    jdist, jxy = jm.points()
    return jdist[j0:j1 + 1], jxy[j0:j1 + 1], (jdist[j0:j1 + 1] - jm.s) / max(jm.v, VMIN)


def weak(m: Mover | None) -> bool:
    """Whether the unit driving ``m`` brakes weakly: at its top speed it needs more to stop than
    it drives in ``WINDOW`` seconds (v^2 / 2b > v WINDOW; no kind of unit does)."""
    return m is not None and m.unit.speed > 2.0 * m.brake_rate * WINDOW


def _unstoppable(u: UnitState, j: UnitState, near: Neighbours, dt: float, i0: int, i1: int,
                 clear: float) -> int | None:
    """Where ``u`` must stop for the moving unit ``j`` if ``j`` brakes weakly (``weak``): a body
    could stand in its way beyond what ``_crossing`` times (come early, then stopped at a corner,
    its goal, or held) where ``j`` could not brake for it. The first point of ``u``'s way (its
    points ``i0``..``i1``) within ``clear`` of the stretch ``j`` will drive before it could stop
    (and a tick and a tile, its way ahead: a unit standing just beyond its stop would be in it by
    the time ``j`` brakes for it), whenever either gets there; None if there is none. A unit in
    that stretch already may drive on but not deeper (out of it, rather than wait there)."""
    if not weak(j.mover):
        return None  # it stops within the stretch ``_crossing`` times: that check is enough
    kept = near._ahead(j, dt)
    if kept is None:
        return None
    jm = kept.mover
    assert kept.span is not None and u.mover is not None
    m = u.mover
    jds, jxs, jys = jm.cover(kept.s)  # (sampled out to its far span by ``_spans``)
    j0, end = kept.span[0], min(kept.span[1], len(jds) - 1)
    if end < j0:
        return None
    if _first_near(jxs, jys, jds, j0, end, u.x, u.y, clear) >= 0:  # in it already: no deeper
        clear = min(math.hypot(jxs[i] - u.x, jys[i] - u.y) for i in range(j0, end + 1)) - 1e-9
    box = jm.box(j0, end)
    ds, xs, ys = m.cover(m.s)  # (sampled out to ``i1`` by ``room``)
    last = min(i1, len(xs) - 1)
    k = i0
    while k <= last:
        x, y = xs[k], ys[k]
        off = off_box(box, x, y)
        if off >= clear:  # far from the stretch's box: jump as ``_first_near`` does
            skip = off - clear - JOINT_SLACK
            k = bisect_left(ds, ds[k] + skip, k + 1, last + 1) if skip > SPACING else k + 1
            continue
        if _first_near(jxs, jys, jds, j0, end, x, y, clear) >= 0:
            return k
        k += 1
    return None


def _crossing(u: UnitState, j: UnitState, near: Neighbours, dt: float, i0: int, i1: int,
              clear: float) -> int | None:
    """Where ``u`` must stop for the moving unit ``j``: both bodies (``clear`` apart at the
    least) would be at one place within ``WINDOW`` seconds of each other, each at its speed
    (``VMIN`` at least), and ``j`` gets there first (ties: the lower id goes first), unless that
    makes second a unit that can no longer stop short of the place (``Turns``). The index
    into ``points()`` of the first such point of ``u``'s way (its points ``i0``..``i1``), or None.
    ``room`` leaves out a unit behind ``u`` going its way (it minds ``u``) unless it brakes
    weakly."""
    kept = near._ahead(j, dt)
    if kept is None:
        return None
    assert kept.far is not None and kept.far_box is not None and u.mover is not None
    m, jm = u.mover, kept.mover
    ds, xs, ys = m.cover(m.s)  # (each sampled out to the span read: ``room``, ``_spans``)
    jds, jxs, jys = jm.cover(kept.s)
    ours = (xs, ys, ds, i0, i1, m.s, max(m.v, VMIN))
    theirs = (jxs, jys, jds, kept.far[0], kept.far[1], kept.s, max(kept.v, VMIN))
    k, at = _first_meeting(ours, theirs, kept.far_box, clear)
    if k < 0:
        return None  # the ways never meet in time (most calls)
    first, _ = _first_meeting(theirs, ours, m.box(i0, i1), clear)  # where j first gets to a place we share
    if 0 <= first < at:
        at = first  # (else k's meeting is j's first: the two scans' windows may part by a rounding)
    uid, jid = u.spec.id, j.spec.id
    dj, dk = theirs[2][at] - kept.s, ours[2][k] - m.s
    goes = jid if (dj / theirs[6], jid) < (dk / ours[6], uid) else uid  # the one there sooner
    # ... unless that makes second a unit that can no longer stop short of the place: then the
    # turn settled before stands (or, met first, the other goes second if it can stop)
    jv = kept.v
    u_stops = dk - SPACING >= m.stopping_distance()
    j_stops = dj - SPACING >= jv * jv / (2.0 * jm.brake_rate)
    if not (u_stops if goes == jid else j_stops):
        was = near.turns.first(uid, jid)
        if was is not None:
            goes = was
        elif goes == jid and j_stops:
            goes = uid
        elif goes == uid and u_stops:
            goes = jid
    near.turns.keep(uid, jid, goes)
    if goes != jid:
        return None
    # j goes first. Its way read a stopping distance of ours further, so that where we stop does
    # not move towards us faster than we can brake as j drives on (the two scans above read the
    # same ways from either unit, so both agree who goes first).
    longest = kept.s + jv * jv / jm.brake_rate + (jv + jm.accel_rate * dt) * dt + 1.0 + m.stopping_distance()
    jm.cover(longest)  # (the lists grow in place: ``theirs`` reads the new points too)
    end = bisect_right(jds, longest, kept.far[1])
    if end > kept.far[1]:
        longer = (*theirs[:4], end, *theirs[5:])
        sooner, _ = _first_meeting(ours, longer, jm.box(kept.far[0], min(end, len(jds) - 1)), clear)
        if 0 <= sooner < k:
            k = sooner
    return k


#: A way as ``_first_meeting`` reads it: the x, y and distance of its path's points, the first
#: and last index taken, the distance along the path the unit is at and its speed (tiles/s).
_Way = tuple[list[float], list[float], list[float], int, int, float, float]


def _first_meeting(a: _Way, b: _Way, b_box: Box, clear: float) -> tuple[int, int]:
    """The first index k of way ``a`` whose point comes within ``clear`` of a point of way ``b``
    (bounded by ``b_box``) that b's unit gets to within ``WINDOW`` seconds of a's getting to k,
    and the first such point of b; (-1, -1) if none. Stretches of ``a`` far from the box are
    jumped over as in ``_first_near``."""
    axs, ays, ads, a0, a1, a_s, a_v = a
    bxs, bys, bds, b0, b1, b_s, b_v = b
    a1, b1 = min(a1, len(axs) - 1), min(b1, len(bxs) - 1)
    k = a0
    while k <= a1:
        x, y = axs[k], ays[k]
        off = off_box(b_box, x, y)
        if off >= clear:
            skip = off - clear - JOINT_SLACK
            k = bisect_left(ads, ads[k] + skip, k + 1, a1 + 1) if skip > SPACING else k + 1
            continue
        t = (ads[k] - a_s) / a_v
        # b's points it gets to within the window: (bds[m] - b_s) / b_v in (t - WINDOW, t + WINDOW)
        lo = bisect_right(bds, b_s + (t - WINDOW) * b_v, b0, b1 + 1)
        hi = bisect_left(bds, b_s + (t + WINDOW) * b_v, lo, b1 + 1) - 1
        if lo <= hi:
            at = _first_near(bxs, bys, bds, lo, hi, x, y, clear)
            if at >= 0:
                return k, at
        k += 1
    return -1, -1
