"""Driving a planned path in fixed ticks: a speed profile that accelerates, cruises, brakes in
time for every slower stretch ahead, stops at the goal, and pivots on the spot at corners.

Distances are tiles along the ``geometry.Path``, speeds tiles/s, accelerations tiles/s^2,
headings radians (0 = east, pi/2 = south; y down). The position is the path's pose at the
distance travelled (Pinter's Listing 2, ``Segment.pose_at``).

What slows the unit (``constraints``):

* an arc of radius r: at most ``UnitSpec.arc_speed(r)`` = min(speed, sqrt(lateral * r),
  yaw_limit * r) on it (the lateral acceleration v^2 / r stays within the unit's limit, and on a
  turn tighter than its radius the heading turns no faster than it can pivot);
* the planner's ``speed_limits`` (the "tighter" method's slower turns): factor x speed between
  two distances, and a stop where it pivots;
* a joint where the heading jumps (a polyline corner, a pivot) or the gear flips (a cusp): the
  unit stops there, turns on the spot at ``turn_rate`` (people: Pinter's fluid turning radius,
  slowing to nothing to turn as tight as needed) and drives on;
* the end of the path: a stop.

Braking in discrete ticks. Each tick picks the next speed v' (so |v' - v| <= acceleration x dt
or braking x dt) and moves v' x dt. To be sure of reaching a point at distance D ahead at no
more than vc, braking b per tick, v' must satisfy (v'^2 - vc^2) / (2b) + v' dt <= D, that is
v' <= sqrt(b^2 dt^2 + vc^2 + 2 b D) - b dt (or v' <= vc). The extra v' dt covers the tick
already committed; the bound is kept from tick to tick by braking b (it shrinks by exactly the
distance moved, less b dt^2 / 2), and for vc = 0 it never moves past the point (v' dt <= D), so
the unit stops on the goal, never beyond it.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

import numpy as np

from ..geometry.primitives import Arc, Path, angle_diff, normalize_angle
from .units import UnitSpec

#: Distances within this of a stop count as on it (tiles); the last stretch is snapped.
SNAP = 1e-9
#: Heading changes at a joint above this are corners the unit pivots on (radians).
CORNER = 1e-6
#: How far apart (tiles along) the path's points lie that the spacing checks read (``points``).
SAMPLE = 0.1


@dataclass(frozen=True)
class Barrier:
    """A place on the path where the unit must stop: ``s`` (tiles along), and the heading to
    face before it drives on (None: no turn, e.g. a cusp or the end)."""

    s: float
    heading: float | None
    segment: int


def constraints(path: Path, unit: UnitSpec, speed_limits: list | tuple = ()) -> list[tuple[float, float, float]]:
    """The speed caps along ``path``: (from, to, cap in tiles/s), from its arcs (lateral
    limit) and the planner's ``speed_limits`` ((from, to, factor); from == to is a stop)."""
    out: list[tuple[float, float, float]] = []
    start = 0.0
    for seg in path.segments:
        end = start + seg.length
        if isinstance(seg, Arc) and seg.length > 0.0:
            cap = unit.arc_speed(seg.radius)
            if cap < unit.speed:
                out.append((start, end, cap))
        start = end
    for a, b, factor in speed_limits:
        if b <= a:  # a pivot: its corner is a barrier (``barriers``)
            continue
        out.append((float(a), float(b), max(0.0, min(1.0, float(factor))) * unit.speed))
    out.sort()
    return out


def barriers(path: Path, heading: float) -> list[Barrier]:
    """Where the unit stops along ``path``, in order: facing the first segment if ``heading``
    is not its heading, at every corner and cusp, and at the end."""
    out: list[Barrier] = []
    segs = path.segments
    if abs(angle_diff(segs[0].heading, heading)) > CORNER:
        out.append(Barrier(0.0, segs[0].heading, 0))
    start = 0.0
    for i, seg in enumerate(segs):
        if i:
            prev = segs[i - 1]
            turn = abs(angle_diff(seg.heading, prev.end_pose().heading)) > CORNER
            if turn or seg.gear != prev.gear:
                out.append(Barrier(start, seg.heading if turn else None, i))
        start += seg.length
    out.append(Barrier(path.length, None, len(segs)))
    return out


def _more_turns(v: list[float], seen: int, last: int, turns: list[int]) -> int:
    """Add to ``turns`` the indices where the sequence ``v`` turns among its points from
    ``seen`` on (``turns`` holds those before; ``last``, the sign of the last step before them
    that was not 0): the point before a step whose sign (rise or fall; steps of 0 left out)
    differs from the last step's that was not 0. Returns that sign after the last point. A
    turn is known once the point after it is."""
    a = max(seen - 1, 0)
    if len(v) - a > 32:  # a path sampled whole at once: numpy (the loop below took 0.3 ms on 900 points)
        steps = np.sign(np.diff(np.asarray(v[a:])))
        moved = np.flatnonzero(steps)
        if moved.size:
            signs = steps[moved]
            before = np.concatenate(([float(last)], signs[:-1]))
            turns += (moved[(signs != before) & (before != 0.0)] + a).tolist()
            last = int(signs[-1])
        return last
    for k in range(a, len(v) - 1):
        d = v[k + 1] - v[k]
        sign = (d > 0.0) - (d < 0.0)
        if sign:
            if last and sign != last:
                turns.append(k)
            last = sign
    return last


def _new_entries(ds: list[float], xs: list[float], ys: list[float], i0: int, tile: tuple[int, int] | None,
                 out: tuple[list[float], list[float], list[tuple[int, int]]], at: list[int]) -> tuple[int, int]:
    """Add to ``out`` (``Mover.entries``) and ``at`` (the points they are at) the entries among
    the points from ``i0`` on, the point before them on ``tile`` (None: ``i0`` is the path's
    start), all at once; returns the tile of the last point."""
    t = np.floor(np.array((xs[i0:], ys[i0:]))).astype(np.int64)
    prev = np.empty_like(t)
    prev[:, 1:] = t[:, :-1]
    prev[:, 0] = t[:, 0] if tile is None else tile  # (no entry at the start)
    new = np.flatnonzero((t != prev).any(axis=0))
    enter, before, tiles = out
    points = (new + i0).tolist()
    at += points
    enter += [ds[i] for i in points]
    before += [ds[i - 1] for i in points]
    tiles += list(zip(t[0, new].tolist(), t[1, new].tolist(), strict=True))
    return int(t[0, -1]), int(t[1, -1])


def _extent(v: list[float], turns: list[int], i0: int, i1: int) -> tuple[float, float]:
    """The least and greatest of ``v[i0:i1 + 1]``, given its turns (``_more_turns``)."""
    lo, hi = (v[i0], v[i1]) if v[i0] <= v[i1] else (v[i1], v[i0])
    for k in range(bisect_right(turns, i0), bisect_left(turns, i1)):
        c = v[turns[k]]
        if c < lo:
            lo = c
        elif c > hi:
            hi = c
    return lo, hi


class Mover:
    """One unit driving one path; ``step(dt)`` advances it a tick.

    ``s``: tiles travelled; ``v``: speed (tiles/s, >= 0; ``gear`` says forward or reverse);
    ``heading``: the way the body faces. ``done`` once it stands at the end or has braked to
    a halt after ``brake()``; ``arrived`` only in the first case.
    """

    def __init__(self, path: Path, unit: UnitSpec, heading: float, speed_limits: list | tuple = (),
                 speed: float = 0.0) -> None:
        self.path, self.unit = path, unit
        self.caps = constraints(path, unit, speed_limits)
        self.stops = barriers(path, heading)
        self.ends: list[float] = []
        total = 0.0
        for seg in path.segments:
            total += seg.length
            self.ends.append(total)
        self.s, self.v, self.k = 0.0, speed, 0
        #: +1 forward, -1 reversing: the current segment's gear (kept with ``k``: read for every
        #: unit every tick, by it and by its neighbours)
        self.gear = path.segments[0].gear
        self._cap0 = 0  # the caps before this one end behind the unit
        self.heading = normalize_angle(heading)
        self.x, self.y = path.start_pose().xy
        self.done = self.arrived = self.braking = False
        #: the unit's acceleration and braking (tiles/s^2), read every tick by it and its neighbours
        self.accel_rate, self.brake_rate = unit.accel_rate, unit.brake_rate
        self.reach = unit.speed ** 2 / (2.0 * self.brake_rate) + unit.speed + 1.0  # look-ahead (tiles)
        # the path's points every SAMPLE tiles, sampled a segment at a time as far as asked
        # (``cover``): the checks read a few tiles ahead, and a new path sampled whole at once
        # (900 points on the crowd's 128 x 128 map, half a millisecond on CPython) was a third
        # of the cooperative crowd's slowest ticks
        self._lists: tuple[list[float], list[float], list[float]] = ([], [], [])  # distances, x, y
        self._sampled = 0  # the segments sampled
        self._sampled_to = 0.0  # where the next one starts (tiles along)
        self._points: tuple[np.ndarray, np.ndarray] | None = None
        # where the centre enters each tile along the points sampled so far (``entries``): the
        # distance of the first point in the tile, of the point before, the tile (and the
        # point); the points read; the tile of the last point read; and the first entry into
        # the path's last tile (None: not among them yet)
        self._entries: tuple[list[float], list[float], list[tuple[int, int]]] = ([], [], [])
        self._entry_at: list[int] = []  # the point each entry is at
        self._read = 0
        self._tile: tuple[int, int] | None = None
        self._into_last: int | None = None
        end = path.end_pose()
        self._last_tile = (math.floor(end.x), math.floor(end.y))
        # the turns of the x and the y of the points sampled (``box``), how many points they
        # cover, and the sign of the last step that moved each
        self._tx: list[int] = []
        self._ty: list[int] = []
        self._seen, self._sx, self._sy = 0, 0, 0

    def _on_segment(self, k: int) -> None:
        """Drive on segment ``k`` (the last one for any k past it) from now."""
        segs = self.path.segments
        self.k = k if k < len(segs) else len(segs) - 1
        self.gear = segs[self.k].gear

    def brake(self) -> None:
        """Brake to a halt where the unit is (at ``braking``), then be done (not arrived)."""
        self.braking = True
        if self.v == 0.0:
            self.done = True

    def _allowed(self, vc: float, distance: float, b: float, dt: float) -> float:
        """The highest speed now from which braking ``b`` per tick reaches ``distance`` ahead at
        no more than ``vc`` (see the module notes)."""
        return max(vc, math.sqrt(b * b * dt * dt + vc * vc + 2.0 * b * max(distance, 0.0)) - b * dt)

    def stopping_distance(self) -> float:
        """How far the unit runs before it stands if it brakes from now (tiles)."""
        return self.v * self.v / (2.0 * self.brake_rate)

    def cover(self, upto: float) -> tuple[list[float], list[float], list[float]]:
        """The path's points (``points()``) sampled at least past ``upto`` tiles along (to its
        end, if it ends before): their distances along it, x and y, as lists that grow in place.
        A bisection for a distance up to ``upto`` finds in them what it would in all the points."""
        lists = self._lists  # (asked for by every unit, for itself and its neighbours, every tick)
        if self._points is None and (not lists[0] or lists[0][-1] <= upto):
            self._sample(upto)
        return lists

    def _sample(self, upto: float) -> None:
        """Sample the path's segments on until a point lies past ``upto`` or the path ends."""
        ds, xs, ys = self._lists
        segs = self.path.segments
        k, start = self._sampled, self._sampled_to
        while k < len(segs) and (not ds or ds[-1] <= upto):
            seg = segs[k]
            along, sx, sy = seg.sample_xy_lists(SAMPLE)  # its start, ..., its end
            keep = max(1, len(along) - 1)  # the end is the next segment's start
            ds += [start + a for a in along[:keep]]
            xs += sx[:keep]
            ys += sy[:keep]
            start += seg.length
            k += 1
        self._sampled, self._sampled_to = k, start
        if k == len(segs):
            end = self.path.end_pose()
            ds.append(start)
            xs.append(end.x)
            ys.append(end.y)
            self._points = (np.array(ds), np.column_stack((xs, ys)))

    def points(self) -> tuple[np.ndarray, np.ndarray]:
        """The path sampled every ``SAMPLE`` tiles: distances along it and (x, y) there, made
        once (for spacing checks against other units)."""
        if self._points is None:
            self.cover(math.inf)
        assert self._points is not None
        return self._points

    def entries(self, upto: float) -> tuple[list[float], list[float], list[tuple[int, int]]]:
        """Where along the path (``points()``) its centre enters each tile it passes, in order,
        at least every entry up to ``upto`` tiles along: the distance of the first point in the
        tile, of the last point before it, and the tile, as lists that grow in place (the
        one-centre-a-tile rule asks every tick, a few tiles ahead). A bisection for a distance
        up to ``upto`` finds in them what it would in all the entries."""
        self.cover(upto)
        return self._read_entries()

    def tiles_entered(self, i0: int, i1: int) -> list[tuple[int, int]]:
        """The tiles the centre enters at the points ``i0 + 1`` to ``i1`` (sampled: ``cover``),
        in order: those where a point's tile differs from the one before's."""
        self._read_entries()
        at = self._entry_at
        return self._entries[2][bisect_right(at, i0):bisect_right(at, i1)]

    def _read_entries(self) -> tuple[list[float], list[float], list[tuple[int, int]]]:
        """``entries`` over every point sampled so far."""
        ds, xs, ys = self._lists
        n = len(ds)
        if self._read < n:
            enter, before, tiles = self._entries
            first = len(tiles)
            if n - self._read > 32:  # many new points (a path read far at once): numpy
                self._tile = _new_entries(ds, xs, ys, self._read, self._tile, self._entries, self._entry_at)
            else:
                tile, floor, at = self._tile, math.floor, self._entry_at
                for i in range(self._read, n):
                    t = (floor(xs[i]), floor(ys[i]))
                    if t != tile:
                        if tile is not None:  # (the first point is where the path starts: no entry)
                            enter.append(ds[i])
                            before.append(ds[i - 1])
                            tiles.append(t)
                            at.append(i)
                        tile = t
                self._tile = tile
            self._read = n
            if self._into_last is None and self._last_tile in tiles[first:]:
                self._into_last = tiles.index(self._last_tile, first)
        return self._entries

    def into_last(self, end: int) -> int:
        """``end``, or the index into ``entries`` of the first entry into the path's last tile
        if that comes before it (the one-centre-a-tile rule stops looking there); ``end`` at most
        the entries made."""
        into = self._into_last
        return end if into is None or end < into else into

    def box(self, i0: int, i1: int) -> tuple[float, float, float, float]:
        """The bounding box (x0, y0, x1, y1) of the points ``i0``..``i1`` sampled (``cover``;
        ``i0`` one of them): the same floats as the array's min and max, without a numpy call
        (the spacing checks ask for several a unit every tick). Between two turns of a coordinate
        (where it stops rising and falls, or the other way) it only rises or falls, so its least
        and greatest values lie at the ends of the range or on a turn inside it; a turn is known
        once the point after it is sampled."""
        _, xs, ys = self._lists
        tx, ty = self._tx, self._ty
        if self._seen != len(xs):
            self._sx = _more_turns(xs, self._seen, self._sx, tx)
            self._sy = _more_turns(ys, self._seen, self._sy, ty)
            self._seen = len(xs)
        if i1 >= len(xs):
            i1 = len(xs) - 1
        x0, x1 = _extent(xs, tx, i0, i1)
        y0, y1 = _extent(ys, ty, i0, i1)
        return x0, y0, x1, y1

    def after(self, s: float) -> int:
        """The index of the first of ``points()`` more than ``s`` tiles along the path (as
        ``np.searchsorted(dist, s, side="right")``; a bisect on a list costs a fraction of a numpy
        call)."""
        return bisect_right(self.cover(s)[0], s)

    def _next_speed(self, dt: float, stop: Barrier, room: float) -> float:
        # min and max written out (each picks what the builtin would): this runs for every
        # moving unit every tick
        u, s, v0 = self.unit, self.s, self.v
        b = self.brake_rate
        v = v0 + self.accel_rate * dt
        if u.speed < v:
            v = u.speed
        if self.braking:
            slower = v0 - b * dt
            slower = slower if slower > 0.0 else 0.0
            if slower < v:
                v = slower
        ahead = stop.s - s
        if room < ahead:
            ahead = room
        # _allowed(0.0, ahead, b, dt), written out: the same floats (vc * vc adds +0.0 to a
        # positive sum; each max picks what the builtin would)
        allowed = math.sqrt(b * b * dt * dt + 2.0 * b * (ahead if ahead >= 0.0 else 0.0)) - b * dt
        if allowed < v:
            v = allowed if allowed > 0.0 else 0.0
        caps = self.caps
        while self._cap0 < len(caps) and caps[self._cap0][1] <= s:
            self._cap0 += 1  # behind the unit for good (s never decreases): nothing to look at
        horizon = s + self.reach
        for a, e, cap in caps[self._cap0:] if self._cap0 else caps:
            if a > horizon:
                break
            if a <= s < e:
                if cap < v:
                    v = cap
            elif a > s:
                allowed = self._allowed(cap, a - s, b, dt)
                if allowed < v:
                    v = allowed
        floor = v0 - b * dt
        if 0.0 > v:
            v = 0.0
        return floor if floor > v else v  # never harder than its brakes, whatever the room

    def step(self, dt: float, room: float = math.inf) -> None:
        """Advance one tick of ``dt`` seconds: pivot at a stop, or pick the speed and move.
        ``room``: how far ahead (tiles along the path) the unit may go before it must stand
        (another unit's body there); it brakes for it as for a stop, within its braking."""
        if self.done:
            self.v = 0.0
            return
        stop = self.stops[0]
        if self.v == 0.0 and self.s >= stop.s - SNAP:
            self.s = stop.s
            if self.braking:
                self.done = True
                return
            if stop.heading is not None and abs(angle_diff(stop.heading, self.heading)) > CORNER:
                turn = angle_diff(stop.heading, self.heading)
                step = self.unit.pivot_rate * dt
                self.heading = stop.heading if abs(turn) <= step else normalize_angle(
                    self.heading + math.copysign(step, turn))
                return
            self.stops.pop(0)
            if not self.stops:
                self.done = self.arrived = True
                self._on_segment(len(self.path.segments) - 1)
                return
            self._on_segment(stop.segment)
            stop = self.stops[0]
        v_prev, v = self.v, self._next_speed(dt, stop, room)
        if v < 1e-9:
            v = 0.0  # not a crawl of rounding errors: standing
        if v == 0.0 and v_prev == 0.0:
            return  # held: another unit is in the way
        s = self.s + v * dt
        if stop.s - s <= SNAP and v_prev <= self.brake_rate * dt:
            s, v = stop.s, 0.0  # the last sliver of the approach: stand on the stop
            if len(self.stops) == 1:  # the end: arrived this tick
                self.stops.pop()
                self.done = self.arrived = True
        elif self.braking and v == 0.0:
            self.done = True
        self.s, self.v = (stop.s if stop.s < s else s), v  # min(s, stop.s)
        self._place()

    def _place(self) -> None:
        """Position and heading from the path at ``s`` on the current segment."""
        segs, ends, s, k = self.path.segments, self.ends, self.s, self.k
        if s > ends[k]:  # on into the next segments, up to the next stop's (most ticks: not)
            # min and max written out here and in box (each a call costing more than the rest of
            # the line in Pyodide; the same value as the builtin): every moving unit every tick
            last = self.stops[0].segment if self.stops else len(segs)
            last = (last if last < len(segs) else len(segs)) - 1
            while k < last and s > ends[k]:
                k += 1
            if k != self.k:
                self._on_segment(k)
        seg = segs[k]
        start = ends[k] - seg.length
        self.x, self.y, self.heading = seg.xyh_within(s - start)
