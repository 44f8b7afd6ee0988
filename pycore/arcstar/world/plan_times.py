"""How long a cooperative plan takes to drive: the ticks of a plan are not seconds.

A plan (``search.cooperative``) moves every agent a tile a tick; the world drives it by tile
order (``coordinated``: a unit enters a tile once every unit planned there before it has reached
that tile's centre), each unit at its own speed, stopping to pivot at corners. So a wait of
seven ticks can be a stand of twenty seconds when the units it waits for turn into a door one
by one, and a plan with short waits in ticks but many corners can drive slower than one with
longer waits. ``driven`` replays a plan's visits in that order with each unit's own times and
says, per unit, the longest it stands waiting for others and when it is done: what a round's
candidate plans are compared by.

The times are estimates, made without bodies: a move of a tile takes ``1 / speed``, plus
``speed / (2 * acceleration) + speed / (2 * braking)`` when the unit starts it from a stand (the
time lost getting going and stopping, at full speed between), and a change of direction a
pivot of the angle at the unit's pivot rate. Standing on its own goal (made way for later, or
done) is not a stand, as ``metrics`` does not count it; a unit resting there that the plan has
step aside leaves just in time, as the world has it (``coordinated``: once the unit it makes
way for is where the plan had it the tick before), not as early as it could (a unit stepping
aside at once and standing in a bay for a file's whole approach was estimated at 20 s where it
stood 1 s, and the round kept a worse plan).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

from ..geometry.primitives import angle_diff
from .avoidance import Tile
from .units import UnitSpec


@dataclass(frozen=True)
class Driven:
    """A plan as driven: ``stands[i]``, the longest unit i stands (s) waiting for units
    planned before it on a tile (to reach its centre, and to be gone from it, its body held
    by theirs); ``done[i]``, when it reaches its last tile's centre (s)."""

    stands: list[float]
    done: list[float]

    @property
    def longest_stand(self) -> float:
        return max(self.stands, default=0.0)

    @property
    def makespan(self) -> float:
        return max(self.done, default=0.0)


def visits_of(tiles: Sequence[Tile]) -> list[tuple[Tile, int]]:
    """A planned agent's tile at every tick as its visits: each tile it enters, with the tick it
    enters it (its first at tick 0)."""
    out = [(tiles[0], 0)] if tiles else []
    for t, tile in enumerate(tiles):
        if tile != out[-1][0]:
            out.append((tile, t))
    return out


def driven(histories: Sequence[Sequence[Tile]], goals: Sequence[Tile], specs: Sequence[UnitSpec],
           headings: Sequence[float]) -> Driven:
    """``histories[i]``: agent i's tile at every tick (as ``CooperativePlanner`` gives them);
    ``goals[i]`` its goal, ``specs[i]`` its unit and ``headings[i]`` the way it faces at the
    start (radians, as in DESIGN.md). The plan replayed by tile order (module notes)."""
    n = len(histories)
    visits = [visits_of(tiles) for tiles in histories]
    # per unit: a tile on the run; a tile from a stand; seconds per radian of pivot
    run = [1.0 / u.speed for u in specs]
    fresh = [1.0 / u.speed + u.speed / (2.0 * u.accel_rate) + u.speed / (2.0 * u.brake_rate) for u in specs]
    pivot_s = [1.0 / u.pivot_rate for u in specs]
    ways = [[math.atan2(b[0][1] - a[0][1], b[0][0] - a[0][0]) for a, b in zip(v, v[1:])] for v in visits]
    # who enters each tile and when (tick, unit, visit), by tick: a unit resting on its goal
    # steps aside only just in time for the first unit planned there after it leaves
    entries: dict[Tile, list[tuple[int, int, int]]] = {}
    for i, v in enumerate(visits):
        for k, (tile, t) in enumerate(v):
            entries.setdefault(tile, []).append((t, i, k))
    for row in entries.values():
        row.sort()
    ticks = [[tick for _, tick in v] for v in visits]
    reached: dict[Tile, float] = {}  # per tile, the latest any unit planned there so far reached its centre
    last: dict[Tile, tuple[int, int]] = {v[0][0]: (i, 0) for i, v in enumerate(visits) if v}  # and who was last
    arrive = [[0.0] * len(v) for v in visits]
    heading = list(headings)
    stands = [0.0] * n
    for i, k in _in_order(visits):
        v, way = visits[i], ways[i][k - 1]
        here, (there, t) = v[k - 1][0], v[k]
        pivot = abs(angle_diff(way, heading[i])) * pivot_s[i]
        ready = arrive[i][k - 1] + pivot
        start = max(ready, reached.get(there, 0.0))  # (its own visits before are behind it: no matter)
        if here == goals[i]:  # on its goal it waits for the one it makes way for to come near
            row = entries[here]
            after = next((e for e in row[bisect_left(row, (t, -1, -1)):] if e[1] != i), None)
            if after is not None:  # (``tile_order.TileOrder.needed``: as far as planned the tick before)
                j = after[1]
                m = bisect_left(ticks[j], t) - 1
                start = max(start, arrive[j][m])
        # on the run only straight on from a tile it came into the tick before, and left at once
        on_the_run = start == ready and pivot == 0.0 and k >= 2 and v[k - 1][1] == t - 1 and \
            ways[i][k - 2] == way
        arrive[i][k] = start + (run[i] if on_the_run else fresh[i])
        held = 0.0  # it closes up behind the last unit there, and is on its centre once that one is on its next
        ahead = last.get(there)
        if ahead is not None and ahead[1] + 1 < len(visits[ahead[0]]):
            gone = arrive[ahead[0]][ahead[1] + 1]
            if gone > arrive[i][k]:
                held, arrive[i][k] = gone - arrive[i][k], gone
        if here != goals[i]:
            stands[i] = max(stands[i], start - ready + held)
        reached[there] = max(reached.get(there, 0.0), arrive[i][k])
        last[there] = (i, k)
        heading[i] = way
    done = [arrive[i][-1] if visits[i] else 0.0 for i in range(n)]
    return Driven(stands, done)


def _in_order(visits: list[list[tuple[Tile, int]]]) -> list[tuple[int, int]]:
    """Every move (agent, visit) by tick, and within a tick a unit leaving a tile before the
    unit that follows it in (the plan has no rings: ``search.cooperative``)."""
    by_tick: dict[int, list[tuple[int, int]]] = {}
    for i, v in enumerate(visits):
        for k in range(1, len(v)):
            by_tick.setdefault(v[k][1], []).append((i, k))
    out: list[tuple[int, int]] = []
    for t in sorted(by_tick):
        moves = by_tick[t]
        leaving = {visits[i][k - 1][0]: (i, k) for i, k in moves}
        done: set[tuple[int, int]] = set()
        for move in moves:
            chain = []
            while move not in done:  # the unit leaving this one's tile first, and so on
                chain.append(move)
                done.add(move)
                i, k = move
                ahead = leaving.get(visits[i][k][0])
                if ahead is None:
                    break
                move = ahead
            out += reversed(chain)
    return out
