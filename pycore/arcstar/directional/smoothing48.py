"""Smoothing48: Pinter's "A Better Smoothing Pass", the pre-smoothing pass over an A* path.

A fast Directional-48 that may only stop on the A* path: a state is (path index i, heading k)
(the unit at the centre of the i-th tile facing k * pi/4; 0 east, 2 south, y down), and its
children are the waypoints ahead on the path that lie one, two or three tiles away (Chebyshev:
Directional-48's 7 x 7 neighbourhood), at each of the 8 headings. On an 8-neighbour path those
are the points i + 1 .. i + 3; on the 4-neighbour path of the hybrid up to i + 6 (so a hop can
cut an L corner as it can on an 8-neighbour path). Every hop is checked with the Directional-48
hit-check table (one ``mask & window``; the curve is the shortest Dubins path, forward only)
and costs its table cost times the terrain. The exact start pose (a heading off the lattice) gets its hops computed
in full and checked with the exact swept-disc test, as the directional search does.

The heuristic favours the path's direction, not the goal's: H = the length left along the A*
path from i, plus ``radius`` times the angle between k and the path's direction at i (toward
the point three ahead). It is not admissible; the pass is a smoother, not a least-cost search.

It gives up when, having expanded a state at point p, it would expand one six or more points
before p (Pinter's rule against searching back through every combination along the path), or
when the open list runs dry. Pinter counts the points of an 8-neighbour path; a 4-neighbour
path (only straight steps) takes two points where that one takes a diagonal step, so there the
rule counts twice as many (12). Either way it reports how far it got: ``failure`` is the farthest
point expanded (``farthest``), and ``stops`` the legal chain of states that reaches it.

``backward=True`` runs the same pass from the goal toward the start (the hybrid's step 3): it
hops to the points one to three *before* i, and a hop from (i, h) to (j, e) is the forward
motion from (j, e) to (i, h), checked in the table as such; headings are always the unit's
forward headings, so the chain reads in travel order either way.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from heapq import heappop, heappush

from ..collision.clearance import passable_for
from ..collision.swept import path_clear
from ..geometry.primitives import Path, Pose
from ..maps.tilemap import TileMap
from ..outcomes import BadInput, Status
from ..search.engine import SteppedSearch
from .lattice import HEADINGS, Neighbourhood, UnitKind, best_curve, heading_angle
from .tables import MapWindows, MotionTable, centre_cells, table_for, windows_for

#: Pinter's rule: searching back this many points before the farthest one gives up.
GIVE_UP = 6
#: Hops reach the points ahead that are one to this many tiles away (Chebyshev: D48's 7 x 7)...
HOPS = 3
#: ... looking this many points ahead at most (3 tiles along a 4-neighbour path: 6 points).
AHEAD = 6
_EXACT = -1  # the heading of the exact start pose (off the lattice)


@dataclass(frozen=True)
class Stop:
    """A state of the pass: path ``index``, its ``tile`` and the heading index ``heading``
    (0..7; -1 for the exact start pose, whose angle is the pass's start heading)."""

    index: int
    tile: tuple[int, int]
    heading: int


def lattice_heading(angle: float | None) -> int | None:
    """The heading index of an angle that sits exactly on the lattice, else None."""
    if angle is None:
        return None
    k = round(angle / (math.pi / 4.0))
    return k % HEADINGS if abs(angle - k * math.pi / 4.0) < 1e-9 else None


def check_tiles(tiles: object, tilemap: TileMap, width: float) -> list[tuple[int, int]]:
    """A path of tiles: at least one, on the map, where the unit fits, each an 8-neighbour of
    the one before; ``BadInput`` naming ``tiles`` otherwise."""
    if isinstance(tiles, (str, bytes)) or not isinstance(tiles, Sequence) or not tiles:
        raise BadInput(f"tiles must be a non-empty list of (x, y) tiles, got {tiles!r}", "tiles")
    fits = passable_for(tilemap, width)
    out: list[tuple[int, int]] = []
    for k, t in enumerate(tiles):
        if not isinstance(t, Sequence) or len(t) != 2 or not all(type(v) is int for v in t):
            raise BadInput(f"tiles[{k}] must be a pair of integers, got {t!r}", "tiles")
        x, y = t
        if not tilemap.in_bounds(x, y) or not fits[y, x]:
            raise BadInput(f"tiles[{k}] ({x}, {y}) is off the map or too close to a wall", "tiles")
        if out and max(abs(x - out[-1][0]), abs(y - out[-1][1])) != 1:
            raise BadInput(f"tiles[{k}] ({x}, {y}) is not a neighbour of the tile before it", "tiles")
        out.append((x, y))
    return out


class Smoothing48(SteppedSearch):
    """The pass over ``tiles`` (an A* path, start first) for a unit of ``width`` and turning
    ``radius`` (tiles). ``start_heading``: the unit's heading at the first tile (radians; None:
    any); ``goal_headings``: the allowed heading indices at the last tile (None: any).
    ``step(budget)`` expands up to ``budget`` states (``SteppedSearch``: timed, within
    ``max_expansions``); ``cancel()`` stops it. Ends ``found``
    (``stops`` run from the start to the goal) or ``no_path`` (``stops`` reach ``failure``)."""

    def __init__(self, tilemap: TileMap, tiles: Sequence[tuple[int, int]], width: float, radius: float,
                 start_heading: float | None = None, goal_headings: Iterable[int] | None = None,
                 backward: bool = False, give_up: int | None = GIVE_UP,
                 max_expansions: int | None = None) -> None:
        self.kind = UnitKind(width, radius, Neighbourhood.D48)
        if give_up is not None and (type(give_up) is not int or give_up < 1):
            raise BadInput(f"give_up must be a positive integer or None, got {give_up!r}", "give_up")
        self.tiles = check_tiles(tiles, tilemap, self.kind.width)
        self.tilemap, self.backward, self.max_expansions = tilemap, backward, max_expansions
        straight = all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in zip(self.tiles, self.tiles[1:]))
        self.give_up = None if give_up is None else give_up * (2 if straight and len(self.tiles) > 1 else 1)
        self.table: MotionTable = table_for(self.kind)
        self.windows: MapWindows = windows_for(tilemap, self.table.reach)
        self.start_heading = start_heading
        heads = range(HEADINGS) if goal_headings is None else sorted(set(goal_headings))
        if not heads or any(type(e) is not int or not 0 <= e < HEADINGS for e in heads):
            raise BadInput(f"goal_headings must be heading indices 0..7, got {goal_headings!r}", "goal_headings")
        self.goal_headings = frozenset(heads)
        n = len(self.tiles)
        self.last = n - 1
        self.status, self.expanded, self.ms = Status.RUNNING, 0, 0.0
        self.cost: float | None = None
        self.farthest: Stop | None = None
        self._parent: dict[Stop, Stop | None] = {}
        self._g: dict[Stop, float] = {}
        self._closed: set[Stop] = set()
        self._open: list[tuple[float, int, Stop]] = []
        self._seq = 0
        self._end_stop: Stop | None = None
        self._exact: dict[Stop, Path | None] = {}
        self._h_rest = self._remaining()
        self._dirs = [self._direction(i) for i in range(n)]
        self._scale = tilemap.min_cost()
        k0 = lattice_heading(start_heading)
        if not backward:
            starts = [Stop(0, self.tiles[0], k0)] if k0 is not None else \
                [Stop(0, self.tiles[0], _EXACT)] if start_heading is not None else \
                [Stop(0, self.tiles[0], k) for k in range(HEADINGS)]
        else:
            starts = [Stop(self.last, self.tiles[-1], e) for e in sorted(self.goal_headings)]
        for s in starts:
            self._push(s, 0.0, None)
        if n == 1:  # start and goal on one tile: found only if the start heading is a goal heading
            ok = [s for s in starts if s.heading in self.goal_headings]
            self._end_stop = ok[0] if ok else None
            self._finish(Status.FOUND if ok else Status.NO_PATH, None)

    # -- the search ---------------------------------------------------------------------------
    def _remaining(self) -> list[float]:
        """Length left along the path from each index toward the pass's end (tiles)."""
        t, n = self.tiles, len(self.tiles)
        steps = [math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(t, t[1:])]
        rest = [0.0] * n
        if self.backward:
            for i in range(1, n):
                rest[i] = rest[i - 1] + steps[i - 1]
        else:
            for i in range(n - 2, -1, -1):
                rest[i] = rest[i + 1] + steps[i]
        return rest

    def _direction(self, i: int) -> float | None:
        """The path's direction of travel at index i (radians), over up to three points."""
        a, b = (i, min(i + HOPS, self.last)) if not self.backward else (max(i - HOPS, 0), i)
        if a == b:
            return None
        (ax, ay), (bx, by) = self.tiles[a], self.tiles[b]
        return math.atan2(by - ay, bx - ax)

    def _h(self, s: Stop) -> float:
        d = self._dirs[s.index]
        turn = 0.0
        if d is not None:
            ang = self.start_heading if s.heading == _EXACT else heading_angle(s.heading)
            turn = abs(math.remainder((ang or 0.0) - d, 2.0 * math.pi)) * self.kind.radius
        return (self._h_rest[s.index] + turn) * self._scale

    def _push(self, s: Stop, g: float, parent: Stop | None) -> None:
        old = self._g.get(s)
        if old is not None and old <= g:
            return
        self._g[s], self._parent[s] = g, parent
        self._seq += 1
        heappush(self._open, (g + self._h(s), self._seq, s))

    def _done(self, s: Stop) -> bool:
        if not self.backward:
            return s.index == self.last and s.heading in self.goal_headings
        if s.index != 0:
            return False
        k0 = lattice_heading(self.start_heading)
        return self.start_heading is None or s.heading == (_EXACT if k0 is None else k0)

    def _expand(self, budget: int) -> None:
        heap, closed, g = self._open, self._closed, self._g
        sign = -1 if self.backward else 1
        n = 0
        while n < budget:
            if not heap:
                self._finish(Status.NO_PATH, None)
                return
            _f, _seq, s = heappop(heap)
            if s in closed:
                continue
            far = self.farthest
            if far is not None and self.give_up is not None and sign * (far.index - s.index) >= self.give_up:
                self._finish(Status.NO_PATH, None)  # Pinter: searched back six points: give up
                return
            closed.add(s)
            n += 1
            self.expanded += 1
            if far is None or sign * (s.index - far.index) > 0:
                self.farthest = s
            if self._done(s):
                self._end_stop = s
                self._finish(Status.FOUND, None)
                return
            gs = g[s]
            for child, cost in self._children(s):
                if child not in closed:
                    self._push(child, gs + cost, s)

    def _children(self, s: Stop) -> list[tuple[Stop, float]]:
        out: list[tuple[Stop, float]] = []
        tiles, step = self.tiles, (-1 if self.backward else 1)
        k0 = lattice_heading(self.start_heading)
        x, y = s.tile
        for j in range(s.index + step, s.index + step * (AHEAD + 1), step):
            if not 0 <= j <= self.last:
                break
            tj = tiles[j]
            if max(abs(tj[0] - x), abs(tj[1] - y)) > HOPS:
                continue
            if not self.backward:
                for e in range(HEADINGS):
                    cost = self._hop(s.tile, s.heading, tj, e)
                    if cost is not None:
                        out.append((Stop(j, tj, e), cost))
                continue
            if j == 0 and self.start_heading is not None and k0 is None:
                cost = self._hop(tj, _EXACT, s.tile, s.heading)  # into the exact start pose
                if cost is not None:
                    out.append((Stop(0, tj, _EXACT), cost))
                continue
            for e in (range(HEADINGS) if j or k0 is None else (k0,)):
                cost = self._hop(tj, e, s.tile, s.heading)  # the forward motion it stands for
                if cost is not None:
                    out.append((Stop(j, tj, e), cost))
        return out

    def _hop(self, a: tuple[int, int], h: int, b: tuple[int, int], e: int) -> float | None:
        """The cost of the forward hop from tile a at heading h to tile b at heading e, or None
        when the body hits a wall on it (table mask, or the exact test from the exact pose)."""
        if h == _EXACT:
            path = self._exact_path(a, b, e)
            if path is None:
                return None
            grid = self.tilemap.cost_grid
            return math.fsum(float(grid[cy, cx]) * w for (cx, cy), w in centre_cells(path, 1.0).items())
        ent = self.table.entries[(h, b[0] - a[0], b[1] - a[1], e)]
        tile = a[1] * self.windows.width + a[0]
        if ent.mask & self.windows.window(tile):
            return None
        uniform = self.windows.uniform
        if uniform is not None:
            return ent.move.cost * uniform
        costs = self.windows.costs(tile)
        key = (h, b[0] - a[0], b[1] - a[1], e)
        return math.fsum(costs[bit] * w for bit, w in self.table.weights_by_bit(key))

    def _exact_path(self, a: tuple[int, int], b: tuple[int, int], e: int) -> Path | None:
        key = Stop(-1, b, e)
        if key not in self._exact:
            assert self.start_heading is not None
            p0 = Pose(a[0] + 0.5, a[1] + 0.5, self.start_heading)
            path = best_curve(p0, Pose(b[0] + 0.5, b[1] + 0.5, heading_angle(e)), self.kind)
            self._exact[key] = path if path_clear(self.tilemap, path, self.kind.width) else None
        return self._exact[key]

    def _finish(self, status: Status, goal: int | None) -> None:
        """End with ``status`` (found: at ``_end_stop``); ``goal`` is unused (node ids are stops)."""
        self.status = status
        end = self._end_stop if status == Status.FOUND else None
        self._end_stop = end
        if end is not None:
            self.cost = self._g[end]
            self.farthest = end
        self._open = []

    # -- what it found ------------------------------------------------------------------------
    @property
    def failure(self) -> Stop | None:
        """Where a failed pass got stuck: the farthest point it expanded (None if it found)."""
        return None if self.status == Status.FOUND else self.farthest

    @property
    def stops(self) -> list[Stop]:
        """The legal chain to the goal (found) or to the failure point, in travel order (start
        to the failure point forward; the failure point to the goal backward)."""
        s = self._end_stop or self.farthest
        chain: list[Stop] = []
        while s is not None:
            chain.append(s)
            s = self._parent.get(s)
        return chain if self.backward else chain[::-1]

    def pose(self, s: Stop) -> Pose:
        """A stop as a pose at its tile's centre."""
        ang = self.start_heading if s.heading == _EXACT else heading_angle(s.heading)
        assert ang is not None
        return Pose(s.tile[0] + 0.5, s.tile[1] + 0.5, ang)

    def hop_path(self, a: Stop, b: Stop) -> Path:
        """The curve of the hop from stop a to stop b (in travel order), as checked."""
        if a.heading == _EXACT:
            found = self._exact_path(a.tile, b.tile, b.heading)
            assert found is not None
            return found
        ent = self.table.entries[(a.heading, b.tile[0] - a.tile[0], b.tile[1] - a.tile[1], b.heading)]
        return ent.move.path(a.tile[0] + 0.5, a.tile[1] + 0.5)
