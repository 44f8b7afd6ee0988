"""Metrics of a multi-unit run, from trajectories alone: success rate, makespan, sum of travel
times, the deepest overlap between two bodies and the longest time a unit stood stuck.

The input is what anyone can produce, so the same code scores arcstar's worlds and the peers'
runs (ORCA, tile-based MAPF plans turned into motion): per unit an id, a body width (the disc's
diameter, tiles), samples ``[t, x, y, heading, speed]`` (seconds, tiles, radians, tiles/s; the
``run_scenario`` / CLI format), the arrival time (s) or None, and the goal (x, y) in tiles.

Units: tiles and seconds throughout. Tile (x, y) covers [x, x+1) x [y, y+1), y grows down,
headings are radians with 0 = east and pi/2 = south (DESIGN.md).

Bodies are discs of diameter ``width`` centred on the sampled point. Two bodies overlap by
(wi + wj) / 2 - distance when that is positive. Overlaps are checked at every sample time of
any unit (the union of all units' times); between its own samples a unit is where its last
sample put it (before its first sample, at its first sample), so units sampled on one clock
(a world's ticks) are compared tick by tick. A NaN position means "not on the map" then and
overlaps nothing.

The pair search is a vectorised sort-and-sweep over all sample times at once (numpy only): per
time the bodies are sorted by x, and bodies k places apart in that order are compared for
k = 1, 2, ... while any pair at that offset is closer in x than the widest possible contact,
on the times that still have such pairs. Fast enough for 250 units x 2000 ticks (well under a
second on a laptop core) and exact: a pair it skips is farther apart in x than any two bodies
can touch.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

#: Standing still, for ``longest_stuck``: |speed| at most STILL_SPEED (tiles/s) at both ends of
#: a sample interval, and over it a move of at most STILL_SPEED x its length (tiles) and a turn
#: of at most STILL_TURN x its length (radians). Not exactly zero: a unit jostled by a local
#: avoidance (ORCA's deadlocks creep by micrometres a tick) is standing still too.
STILL_SPEED = 1e-3
STILL_TURN = 1e-3
#: Standing within this of its goal (tiles) is not being stuck, arrived or not (a unit creeping
#: onto its goal in its last braking tick, before the world counts it as arrived).
AT_GOAL = 0.01
#: Sample times closer than this (s) are the same instant.
SAME_TIME = 1e-9
#: How many sample times the sweep handles at once (bounds the working memory).
CHUNK = 4096


@dataclass(frozen=True)
class Track:
    """One unit's trajectory: ``samples`` rows are (t, x, y, heading, speed) in s, tiles,
    radians, tiles/s, in time order; ``arrived`` the time (s) it reached its goal, or None;
    ``goal`` (x, y) in tiles; ``width`` the body's diameter (tiles)."""

    id: str
    width: float
    samples: np.ndarray
    arrived: float | None
    goal: tuple[float, float]


@dataclass(frozen=True)
class Metrics:
    """What a run achieved (seconds, tiles).

    units / arrived: how many units there were and how many arrived; success_rate = arrived /
    units (1.0 with no units). makespan: the latest arrival when every unit arrived, else None.
    latest_arrival: the latest arrival of those that did (None if none did). sum_of_travel:
    the sum over units of their arrival times, a unit that never arrived counting ``duration``
    (the run's length: given, or the latest sample time of any unit); every time is measured
    from 0, the run's start. deepest_overlap: the largest (wi + wj) / 2 - distance between any
    two bodies at any sample time (0.0 when no two ever touch), with the pair and the time
    (``overlap_pair`` ids, ``overlap_time`` s; None when 0). longest_stuck: the longest time a
    unit stood still off its goal (speed about 0, position and heading unchanged: see
    ``STILL_SPEED``; turning on the spot and standing on the goal, ``AT_GOAL``, are not standing
    still), before it arrived or after (made to step aside, it stood away from its goal), with
    the unit's id. Arrivals are the world's: the first time a unit came to stand on its goal
    with no orders of its own left (``world.ARRIVED_WITHIN``), kept while it makes way and comes
    back.
    farthest_from_goal: the largest distance (tiles) between a unit that never arrived and its
    goal at its last sample (0.0 if all arrived).
    duration: the run's length used for sum_of_travel. deepest_wall: with a map given, how deep
    (tiles) any body ever reached into a blocked tile or off the map (``wall_overlap``), with
    the unit and time (None: no map given).
    """

    units: int
    arrived: int
    success_rate: float
    makespan: float | None
    latest_arrival: float | None
    sum_of_travel: float
    deepest_overlap: float
    overlap_pair: tuple[str, str] | None
    overlap_time: float | None
    longest_stuck: float
    stuck_unit: str | None
    farthest_from_goal: float
    duration: float
    deepest_wall: float | None = None
    wall_unit: str | None = None
    wall_time: float | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (tuples as lists)."""
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


def track(uid: str, width: float, samples: Any, arrived: float | None, goal: Sequence[float]) -> Track:
    """A ``Track`` from plain values (samples as a list of [t, x, y, heading, speed] rows);
    ``ValueError`` for a shape or order that is not a trajectory."""
    arr = np.asarray(samples, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] != 5:
        raise ValueError(f"unit {uid}: samples must be rows of [t, x, y, heading, speed], got shape {arr.shape}")
    if np.any(np.diff(arr[:, 0]) < 0):
        raise ValueError(f"unit {uid}: sample times must not decrease")
    if not (math.isfinite(width) and width >= 0.0):
        raise ValueError(f"unit {uid}: width must be a finite number >= 0, got {width!r}")
    return Track(uid, float(width), arr, None if arrived is None else float(arrived),
                 (float(goal[0]), float(goal[1])))


def tracks_from_run(run: Mapping[str, Any], widths: Mapping[str, float],
                    goals: Mapping[str, Sequence[float]]) -> list[Track]:
    """Tracks from ``run_scenario``'s output (or the CLI's JSON) and each unit's width and goal
    by id."""
    return [track(u["id"], widths[u["id"]], u["samples"], u["arrived"], goals[u["id"]]) for u in run["units"]]


def positions_at(tracks: Sequence[Track], times: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x and y (arrays of len(times) x len(tracks)) of every unit at ``times``: its last sample
    at or before each time (its first sample before that)."""
    xs = np.empty((len(times), len(tracks)))
    ys = np.empty_like(xs)
    for j, tr in enumerate(tracks):
        idx = np.searchsorted(tr.samples[:, 0], times + SAME_TIME, side="right") - 1
        idx = np.clip(idx, 0, len(tr.samples) - 1)
        xs[:, j] = tr.samples[idx, 1]
        ys[:, j] = tr.samples[idx, 2]
    return xs, ys


def deepest_overlap(xs: np.ndarray, ys: np.ndarray, widths: np.ndarray) -> tuple[float, int, int, int]:
    """The deepest overlap of discs of diameters ``widths`` at positions ``xs``, ``ys`` (times x
    units): (depth, time index, unit i, unit j), depth 0.0 and indices -1 when no two discs
    touch. Sort-and-sweep in x over all times at once (see the module notes)."""
    best, at, bi, bj = 0.0, -1, -1, -1
    n = xs.shape[1]
    if n < 2 or xs.shape[0] == 0:
        return best, at, bi, bj
    reach = float(np.max(widths))  # no two bodies touch farther apart in x than this
    with np.errstate(invalid="ignore"):  # inf - inf between two bodies off the map
        for start in range(0, xs.shape[0], CHUNK):
            found = _sweep(xs[start:start + CHUNK], ys[start:start + CHUNK], widths, reach)
            if found[0] > best:
                best, at, bi, bj = found[0], start + found[1], found[2], found[3]
    return best, at, bi, bj


def _sweep(cx: np.ndarray, cy: np.ndarray, widths: np.ndarray, reach: float) -> tuple[float, int, int, int]:
    """``deepest_overlap`` on one chunk of times (indices within the chunk)."""
    best, at, bi, bj = 0.0, -1, -1, -1
    n = cx.shape[1]
    sx = np.where(np.isnan(cx), np.inf, cx)  # off the map: sorted last, far from all
    order = np.argsort(sx, axis=1, kind="stable")
    sx = np.take_along_axis(sx, order, axis=1)
    sy = np.take_along_axis(cy, order, axis=1)
    sw = widths[order]
    rows = np.arange(cx.shape[0])
    for k in range(1, n):
        near = (sx[rows, k:] - sx[rows, :-k]) < reach
        keep = near.any(axis=1)
        if not keep.any():
            break
        rows = rows[keep]  # a time with no pair this close in x has none at larger offsets
        dx = sx[rows, k:] - sx[rows, :-k]
        dy = sy[rows, k:] - sy[rows, :-k]
        depth = (sw[rows, k:] + sw[rows, :-k]) * 0.5 - np.sqrt(dx * dx + dy * dy)
        depth = np.where(np.isfinite(depth), depth, -np.inf)
        r, c = divmod(int(np.argmax(depth)), depth.shape[1])
        if depth[r, c] > best:
            best, at = float(depth[r, c]), int(rows[r])
            bi, bj = int(order[at, c]), int(order[at, c + k])
    return best, at, bi, bj


def stuck_time(tr: Track) -> float:
    """The longest stretch (s) the unit stood still off its goal (see ``Metrics``)."""
    s = tr.samples
    if len(s) < 2:
        return 0.0
    t = s[:, 0]
    span = np.diff(t)
    moved = np.hypot(np.diff(s[:, 1]), np.diff(s[:, 2]))
    turned = np.abs(np.angle(np.exp(1j * np.diff(s[:, 3]))))
    slow = np.abs(s[:, 4]) <= STILL_SPEED
    still = (moved <= STILL_SPEED * span + 1e-12) & (turned <= STILL_TURN * span + 1e-12) & slow[:-1] & slow[1:]
    still &= np.hypot(s[1:, 1] - tr.goal[0], s[1:, 2] - tr.goal[1]) > AT_GOAL
    total = np.cumsum(np.where(still, span, 0.0))
    reset = np.maximum.accumulate(np.where(still, 0.0, total))  # the total when the last run began
    return float(np.max(total - reset, initial=0.0))


def wall_overlap(tracks: Sequence[Track], blocked: np.ndarray) -> tuple[float, int, float | None]:
    """The deepest reach of a body into a wall: over every sample of every unit, the largest
    width / 2 - (distance from its centre to a blocked tile's square), tiles outside the map
    counting as blocked; ``blocked`` is the map's mask indexed [y, x]. (depth, unit index, time
    in s), or (0.0, -1, None) when no body touches a wall. A centre inside a wall counts the full
    half-width."""
    best, who, when = 0.0, -1, None
    h, w = blocked.shape
    for j, tr in enumerate(tracks):
        s = tr.samples[np.isfinite(tr.samples[:, 1]) & np.isfinite(tr.samples[:, 2])]
        if len(s) == 0:
            continue
        t, x, y = s[:, 0], s[:, 1], s[:, 2]
        r = tr.width / 2.0
        reach = math.ceil(r)
        fx, fy = np.floor(x).astype(np.int64), np.floor(y).astype(np.int64)
        for dy in range(-reach, reach + 1):
            for dx in range(-reach, reach + 1):
                tx, ty = fx + dx, fy + dy
                on_map = (tx >= 0) & (tx < w) & (ty >= 0) & (ty < h)
                wall = np.ones(len(s), dtype=bool)
                wall[on_map] = blocked[ty[on_map], tx[on_map]]
                if not wall.any():
                    continue
                gap = np.hypot(x - np.clip(x, tx, tx + 1), y - np.clip(y, ty, ty + 1))
                depth = np.where(wall, r - gap, -np.inf)
                k = int(np.argmax(depth))
                if depth[k] > best:
                    best, who, when = float(depth[k]), j, float(t[k])
    return best, who, when


def measure(tracks: Iterable[Track], duration: float | None = None, blocked: np.ndarray | None = None) -> Metrics:
    """The ``Metrics`` of a run made of ``tracks`` (``duration``: the run's length in s for the
    units that never arrived; default the latest sample time of any unit; ``blocked``: the map's
    blocked mask, [y, x], for ``deepest_wall``)."""
    trs = list(tracks)
    if duration is None:
        duration = max((float(tr.samples[-1, 0]) for tr in trs), default=0.0)
    arrivals = [tr.arrived for tr in trs if tr.arrived is not None]
    done = len(arrivals)
    times = np.unique(np.concatenate([tr.samples[:, 0] for tr in trs])) if trs else np.zeros(0)
    if len(times) > 1:  # merge times closer than SAME_TIME (float noise between clocks)
        times = times[np.concatenate(([True], np.diff(times) > SAME_TIME))]
    xs, ys = positions_at(trs, times)
    depth, at, i, j = deepest_overlap(xs, ys, np.array([tr.width for tr in trs]))
    stuck = [stuck_time(tr) for tr in trs]
    worst = int(np.argmax(stuck)) if stuck else -1
    wall: tuple[float | None, int, float | None] = (None, -1, None)
    if blocked is not None:
        wall = wall_overlap(trs, np.asarray(blocked, dtype=bool))
    far = [math.hypot(tr.samples[-1, 1] - tr.goal[0], tr.samples[-1, 2] - tr.goal[1])
           for tr in trs if tr.arrived is None]
    return Metrics(
        units=len(trs),
        arrived=done,
        success_rate=done / len(trs) if trs else 1.0,
        makespan=max(arrivals) if trs and done == len(trs) else None,
        latest_arrival=max(arrivals) if arrivals else None,
        sum_of_travel=float(sum(arrivals) + duration * (len(trs) - done)),
        deepest_overlap=depth,
        overlap_pair=(trs[i].id, trs[j].id) if at >= 0 else None,
        overlap_time=float(times[at]) if at >= 0 else None,
        longest_stuck=stuck[worst] if stuck else 0.0,
        stuck_unit=trs[worst].id if stuck and stuck[worst] > 0.0 else None,
        farthest_from_goal=max(far, default=0.0),
        duration=float(duration),
        deepest_wall=wall[0],
        wall_unit=trs[wall[1]].id if wall[1] >= 0 else None,
        wall_time=wall[2],
    )
