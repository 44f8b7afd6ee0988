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
path another moving unit (at ``VMIN`` or faster) will take before it could stop, at about the
same time (``crossing``), the unit that would get there later brakes for the place; the other
goes first.

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

#: A unit's way ahead: distances along its path, points (k, 2), times it gets to them (s).
Way = tuple[np.ndarray, np.ndarray, np.ndarray]
#: Points as two contiguous arrays, x and y: what the checks compute on (in Pyodide, arithmetic on
#: a column of a (k, 2) array, a strided view, costs two to three times as much).
XY = tuple[np.ndarray, np.ndarray]
#: An axis-aligned box (x0, y0, x1, y1), tiles.
Box = tuple[float, float, float, float]


class Neighbours:
    """The units bucketed by ``CELL``-tile squares where they stand when the tick starts, for
    finding those near a point.

    The units are kept sorted by cell (column, then row, then the world's order), so the units
    of a block of columns are one slice, found by bisection: cheaper than a lookup per cell,
    and in the same order as a walk over the cells."""

    def __init__(self, units: Iterable[UnitState]) -> None:
        placed = sorted((int(u.x // CELL), int(u.y // CELL), k, u) for k, u in enumerate(units))  # k: never ties
        self._cx = [e[0] for e in placed]
        #: per unit in cell order: its cell's row, itself and its half width (``room`` reads all three)
        self._entries = [(e[1], e[3], e[3].spec.width / 2.0) for e in placed]
        self.widest = max((e[3].spec.width for e in placed), default=0.0)
        self._ways: dict[str, _Ahead] = {}

    def near(self, x: float, y: float, r: float) -> list[UnitState]:
        """Units whose cell lies within ``r`` (+ a cell) of (x, y): a superset of those within r,
        by cell (column, row) and in the world's order within a cell."""
        return [e[1] for e in self.around(x, y, r)]

    def around(self, x: float, y: float, r: float) -> list[tuple[int, UnitState, float]]:
        """``near(x, y, r)`` as (cell row, unit, half its width): ``room`` asks for every unit
        every tick, and the half widths need not be worked out again each time."""
        r += CELL  # a unit may have moved out of its cell this tick
        y0, y1 = int((y - r) // CELL), int((y + r) // CELL)
        cx = self._cx
        return [e for e in self._entries[bisect_left(cx, int((x - r) // CELL)):bisect_right(cx, int((x + r) // CELL))]
                if y0 <= e[0] <= y1]

    def way(self, j: UnitState, dt: float) -> Way | None:
        """``ahead_of(j, dt)``, kept until j moves (units move one after another in a tick, and
        each unit's way is asked for by every unit near it)."""
        kept = self._ahead(j, dt)
        if kept is None:
            return None
        if kept.way is None:  # made when first asked for: most units ask only for its box
            assert kept.span is not None
            j0, j1 = kept.span
            jdist, jxy = kept.mover.points(SPACING)
            kept.way = jdist[j0:j1 + 1], jxy[j0:j1 + 1], kept.times()
        return kept.way

    def way_xy(self, j: UnitState, dt: float) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """``way(j, dt)``'s points as x and y (``XY``) and its times: what the checks use."""
        kept = self._ways.get(j.spec.id)
        if kept is not None and kept.xy is not None and kept.mover is j.mover and kept.s == kept.mover.s:
            return kept.xy  # kept, as in ``way_box``
        kept = self._ahead(j, dt)
        if kept is None:
            return None
        if kept.xy is None:
            assert kept.span is not None
            j0, j1 = kept.span
            xs, ys = kept.mover.columns()
            kept.xy = xs[j0:j1 + 1], ys[j0:j1 + 1], kept.times()
        return kept.xy

    def way_box(self, j: UnitState, dt: float) -> Box | None:
        """The bounding box of ``way(j, dt)`` (None: no way)."""
        kept = self._ways.get(j.spec.id)
        if kept is not None and kept.mover is j.mover and kept.s == kept.mover.s:
            return kept.box  # ``_ahead``'s hit, inlined: units near each other ask for each other's box
        kept = self._ahead(j, dt)
        return None if kept is None else kept.box

    def _ahead(self, j: UnitState, dt: float) -> _Ahead | None:
        """What ``way`` and ``way_box`` are made from, kept while j's mover and its distance
        along it stay the same (the speed is the one j had when first asked: a unit that brakes
        to a halt in a tick stays where it was)."""
        m = j.mover
        if m is None:
            return None
        kept = self._ways.get(j.spec.id)
        if kept is not None and kept.mover is m and kept.s == m.s:
            return kept if kept.span is not None else None
        span = _span(j, dt)
        kept = self._ways[j.spec.id] = _Ahead(m, m.s, m.v, span, None if span is None else m.box(*span))
        return kept if span is not None else None


class _Ahead:
    """A unit's way ahead as ``Neighbours`` keeps it: its mover, distance along and speed when
    made, the span of its ``points()`` it covers (None: no way), their bounding box, and
    ``ahead_of``'s arrays once asked for (as a ``Way``, and as x, y and times)."""

    __slots__ = ("mover", "s", "v", "span", "box", "way", "xy", "_times")

    def __init__(self, mover: Mover, s: float, v: float, span: tuple[int, int] | None, box: Box | None) -> None:
        self.mover, self.s, self.v, self.span, self.box = mover, s, v, span, box
        self.way: Way | None = None
        self.xy: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._times: np.ndarray | None = None

    def times(self) -> np.ndarray:
        """When the unit gets to the points of its way (s), at its speed (``VMIN`` at least)."""
        if self._times is None:
            assert self.span is not None
            j0, j1 = self.span
            self._times = (self.mover.points(SPACING)[0][j0:j1 + 1] - self.s) / max(self.v, VMIN)
        return self._times


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
    reach = reach_of(u, dt)
    half = u.spec.width / 2.0
    # Only units that could touch the way ahead this tick: within reach of a body where they stand,
    # or, moving, within reach of their own way ahead (``crossing``).
    x, y = u.x, u.y
    fixed = reach + SPACING + half  # + j's half width + MARGIN: where the bodies touch
    others: list[tuple[UnitState, bool, float]] = []  # (unit, whether it moves at VMIN or faster, half width)
    for _, j, jhalf in near.around(x, y, reach + half + near.widest / 2.0 + STANDOFF):
        if j is u:
            continue
        d = math.hypot(j.x - x, j.y - y)
        touch = fixed + jhalf + MARGIN
        jm = j.mover
        fast = jm is not None and not -VMIN < j.speed < VMIN  # abs(j.speed) >= VMIN, without the call
        if d < touch + STANDOFF:
            others.append((j, fast, jhalf))
        elif fast:
            assert jm is not None
            jv = jm.v  # reach_of(j, dt), inlined: this loop runs for every unit near every unit
            if d < touch + (jv * jv / (2.0 * jm.brake_rate) + (jv + jm.accel_rate * dt) * dt + 1.0) + SPACING:
                others.append((j, fast, jhalf))
    if not others:
        return math.inf, None
    dist = m.points(SPACING)[0]
    i0 = m.after(m.s)
    if i0 >= len(dist):
        return math.inf, None
    i1 = m.after(m.s + reach)
    xs, ys = m.columns()
    ahead = xs[i0:i1 + 1], ys[i0:i1 + 1]
    box = m.box(i0, i1)  # bounds(ahead), without numpy
    # The exact checks below are costly; a unit whose body (or way) stays clear of the way's
    # bounding box can take no part in them.
    still = [j for j, _, jhalf in others if off_box(box, j.x, j.y) < half + jhalf + MARGIN + STANDOFF]
    moving = [j for j, fast, jhalf in others
              if fast and boxes_near(box, near.way_box(j, dt), half + jhalf + MARGIN)]
    best, who = math.inf, None
    if still:
        best, who = _standing(u, still, near, dt, dist[i0:i1 + 1], ahead, standoff, margin)
    if moving:
        times = (dist[i0:i1 + 1] - m.s) / max(m.v, VMIN)
        for j in moving:
            at = _crossing(u, j, near.way_xy(j, dt), ahead, times, half + j.spec.width / 2.0 + MARGIN)
            if at is not None:
                gap = max(0.0, float(dist[i0 + at]) - m.s - SPACING)
                if gap < best:
                    best, who = gap, j
    return best, who


def standing_in_way(u: UnitState, others: list[UnitState], near: Neighbours, dt: float, dist: np.ndarray,
                    ahead: np.ndarray, standoff: bool) -> tuple[float, UnitState | None]:
    """How far ``u`` may drive along ``ahead`` (points (k, 2) at distances ``dist`` along its
    path) before its body comes too close to one of ``others`` where it stands now (``room``)."""
    return _standing(u, others, near, dt, dist, _xy(ahead), standoff)


def _xy(points: np.ndarray) -> XY:
    """Points (k, 2) as ``XY``."""
    return np.ascontiguousarray(points[:, 0]), np.ascontiguousarray(points[:, 1])


def _standing(u: UnitState, others: list[UnitState], near: Neighbours, dt: float, dist: np.ndarray,
              ahead: XY, standoff: bool, margin: float = MARGIN) -> tuple[float, UnitState | None]:
    """``standing_in_way`` on ``XY`` points."""
    assert u.mover is not None
    s = u.mover.s
    half = u.spec.width / 2.0
    ux, uy = u.x, u.y
    if len(others) == 1:
        return _one_in_way(u, others[0], near, dt, dist, ahead, standoff, margin)
    # the fewest numpy calls: this runs for most units in a crowd every tick, on a few points
    px, py = np.array([j.x for j in others]), np.array([j.y for j in others])
    towards = [approaching(j, ux, uy) for j in others]
    clear = [half + j.spec.width / 2.0 + margin for j in others]
    d = np.hypot(ahead[0][:, None] - px, ahead[1][:, None] - py)  # (points, others)
    if standoff and any(towards):
        closest = np.minimum.reduce(d).tolist()  # per unit, the nearest the way comes to it
        for k, j in enumerate(others):
            if towards[k] and u.gives_way_to != j.spec.id and closest[k] < clear[k] + STANDOFF \
                    and _on_way(near.way_xy(j, dt), ux, uy, clear[k]):
                clear[k] += STANDOFF  # head-on: each drives through where the other stands
    now = np.hypot(px - ux, py - uy).tolist()
    # closer than clear, and closer than now (a unit may always back away), in one comparison
    hit = d < [c if c <= n - 1e-9 else n - 1e-9 for c, n in zip(clear, now, strict=True)]
    if _first(hit) < 0:
        return math.inf, None
    best, who = math.inf, None
    first = hit.argmax(axis=0).tolist()  # per unit, the first point too close to it (0: none is)
    for col, row in enumerate(first):
        if not hit.item(row, col):  # the way never comes too close to it
            continue
        gap = float(dist[row]) - s - SPACING
        if not gap > 0.0:  # max(0.0, gap), without the call
            gap = 0.0
        if towards[col]:
            gap /= 2.0
        if gap < best:
            best, who = gap, others[col]
    return best, who


def _one_in_way(u: UnitState, j: UnitState, near: Neighbours, dt: float, dist: np.ndarray, ahead: XY,
                standoff: bool, margin: float = MARGIN) -> tuple[float, UnitState | None]:
    """``standing_in_way`` for one other unit (most calls): the same floats, on one column."""
    assert u.mover is not None
    ux, uy, jx, jy = u.x, u.y, j.x, j.y
    towards = approaching(j, ux, uy)
    clear = u.spec.width / 2.0 + j.spec.width / 2.0 + margin
    d = np.hypot(ahead[0] - jx, ahead[1] - jy)
    if standoff and towards and u.gives_way_to != j.spec.id and _first(d < clear + STANDOFF) >= 0 \
            and _on_way(near.way_xy(j, dt), ux, uy, clear):  # (the way's nearest point closer than clear + STANDOFF)
        clear += STANDOFF  # head-on: each drives through where the other stands
    now = float(np.hypot(jx - ux, jy - uy)) - 1e-9
    k = _first(d < (clear if clear <= now else now))
    if k < 0:
        return math.inf, None
    gap = float(dist[k]) - u.mover.s - SPACING
    if not gap > 0.0:  # max(0.0, gap), without the call (0.0 for -0.0 too)
        gap = 0.0
    return (gap / 2.0 if towards else gap), j


def _any(a: np.ndarray, axis: int = 0) -> np.ndarray:
    """``a.any(axis)`` by the ufunc's own reduce (``any()`` adds a Python wrapper that costs more
    than the reduction of a few values)."""
    return np.logical_or.reduce(a, axis=axis)


def _first(a: np.ndarray) -> int:
    """The flat index of the first True in the bool array ``a``, -1 if none: ``argmax`` and a
    look at what it found. Whether any is True, for a fraction of a reduction's cost (a third in
    Pyodide), and where, too; most checks find none."""
    k = int(a.argmax())
    return k if a.item(k) else -1


def bounds(points: np.ndarray) -> Box:
    """The bounding box (x0, y0, x1, y1) of points (k, 2) (the ufuncs' own reduce: ``min()``
    adds a Python wrapper that costs about as much as the reduction of a few points)."""
    (x0, y0), (x1, y1) = np.minimum.reduce(points).tolist(), np.maximum.reduce(points).tolist()
    return x0, y0, x1, y1


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


def ahead_of(j: UnitState, dt: float) -> Way | None:
    """Unit j's path from where it is out to ``reach_of``: distances along it, points (k, 2),
    and the times (s) it gets to them at its speed (``VMIN`` at least)."""
    span = _span(j, dt)
    return None if span is None or j.mover is None else _way_over(j.mover, span)


def _span(j: UnitState, dt: float) -> tuple[int, int] | None:
    """The indices into j's ``points()`` of the first and last point of ``ahead_of(j, dt)``
    (None: no way)."""
    jm = j.mover
    if jm is None:
        return None
    reach = reach_of(j, dt)
    j0 = jm.after(jm.s)
    j1 = jm.after(jm.s + reach)
    if j1 < j0 or j0 >= len(jm.dists()):
        return None
    return j0, j1


def _way_over(jm: Mover, span: tuple[int, int]) -> Way:
    """``ahead_of`` over the points ``span`` (``_span``) of the path ``jm`` drives."""
    j0, j1 = span
    jdist, jxy = jm.points(SPACING)
    return jdist[j0:j1 + 1], jxy[j0:j1 + 1], (jdist[j0:j1 + 1] - jm.s) / max(jm.v, VMIN)


def on_way(way: Way | None, x: float, y: float, clear: float) -> bool:
    """Whether a unit's way ahead (``ahead_of``) runs within ``clear`` of the point (x, y)."""
    return _on_way(None if way is None else (*_xy(way[1]), way[2]), x, y, clear)


def _on_way(way: tuple[np.ndarray, np.ndarray, np.ndarray] | None, x: float, y: float, clear: float) -> bool:
    """``on_way`` on a way as ``Neighbours.way_xy`` gives it."""
    return way is not None and _first(np.hypot(way[0] - x, way[1] - y) < clear) >= 0


def crossing(u: UnitState, j: UnitState, way: Way | None, ahead: np.ndarray, times: np.ndarray,
             clear: float) -> int | None:
    """Where ``u`` must stop for the moving unit ``j`` (``_crossing``), ``ahead`` its points (k, 2)
    and ``way`` j's (``ahead_of``)."""
    return _crossing(u, j, None if way is None else (*_xy(way[1]), way[2]), _xy(ahead), times, clear)


def _crossing(u: UnitState, j: UnitState, way: tuple[np.ndarray, np.ndarray, np.ndarray] | None, ahead: XY,
              times: np.ndarray, clear: float) -> int | None:
    """Where ``u`` must stop for the moving unit ``j``: both bodies would be at one place within
    ``WINDOW`` seconds of each other (each at its speed), and ``j`` gets there first (ties: the
    lower id goes first); ``way`` is j's way ahead (``Neighbours.way_xy``). The index into
    ``ahead`` of the first such point, or None."""
    if math.cos(u.heading) * (j.x - u.x) + math.sin(u.heading) * (j.y - u.y) < 0.0 and \
            math.cos(u.heading - j.heading) > 0.0:
        return None  # behind us, going our way: it minds us
    if way is None:
        return None
    jx, jy, jtimes = way
    d = np.hypot(ahead[0][:, None] - jx, ahead[1][:, None] - jy)  # (ours, theirs)
    close = d < clear
    if _first(close) < 0:
        return None  # the ways never come that close (most calls): no times to compare
    meet = close & (np.abs(times[:, None] - jtimes[None, :]) < WINDOW)
    k = _first(meet)  # row-major: in the first of our points that j's body gets to in the window
    if k < 0:
        return None
    k //= meet.shape[1]
    tj = float(np.minimum.reduce(jtimes[_any(meet)]))  # when j first gets to the place we share
    return k if (tj, j.spec.id) < (float(times[k]), u.spec.id) else None
