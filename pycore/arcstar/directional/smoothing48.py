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


def _node(index: int, heading: int) -> int:
    """A state's id: 9 per path point, the exact start pose (heading -1) first."""
    return index * 9 + heading + 1


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
        self._far = -1  # node id of the farthest point expanded (-1: none yet)
        self._end = -1  # node id of the goal state reached
        self._parent: dict[int, int] = {}
        self._g: dict[int, float] = {}
        self._closed: set[int] = set()
        self._open: list[tuple[float, int]] = []
        self._exact: dict[tuple[tuple[int, int], int], Path | None] = {}
        self._groups: dict[tuple[int, int, int], tuple[int, int, list[tuple[int, int, float, tuple]]]] = {}
        self._scale = tilemap.min_cost()
        self._hv = self._h_table()
        k0 = lattice_heading(start_heading)
        self._k0 = k0
        if not backward:
            starts = [_node(0, k0)] if k0 is not None else [_node(0, _EXACT)] if start_heading is not None \
                else [_node(0, k) for k in range(HEADINGS)]
        else:
            starts = [_node(self.last, e) for e in sorted(self.goal_headings)]
        for node in starts:
            self._push(node, 0.0, -1)
        if n == 1:  # start and goal on one tile: found only if the start heading is a goal heading
            ok = [node for node in starts if node % 9 - 1 in self.goal_headings]
            self._end = ok[0] if ok else -1
            self._finish(Status.FOUND if ok else Status.NO_PATH, None)

    # -- the search ---------------------------------------------------------------------------
    def _h_table(self) -> list[float]:
        """H per node (``_node(i, k)``): the length left along the path toward the pass's end,
        plus ``radius`` x the angle from heading k to the path's direction at i (toward the
        point three ahead); the exact start pose gets its own angle."""
        t, n = self.tiles, len(self.tiles)
        steps = [math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(t, t[1:])]
        rest = [0.0] * n
        if self.backward:
            for i in range(1, n):
                rest[i] = rest[i - 1] + steps[i - 1]
        else:
            for i in range(n - 2, -1, -1):
                rest[i] = rest[i + 1] + steps[i]
        out = [0.0] * (9 * n)
        r, scale = self.kind.radius, self._scale
        for i in range(n):
            a, b = (i, min(i + HOPS, self.last)) if not self.backward else (max(i - HOPS, 0), i)
            d = None if a == b else math.atan2(t[b][1] - t[a][1], t[b][0] - t[a][0])
            for k in range(_EXACT, HEADINGS):
                ang = self.start_heading if k == _EXACT else heading_angle(k)
                turn = 0.0 if d is None or ang is None else abs(math.remainder(ang - d, 2.0 * math.pi)) * r
                out[_node(i, k)] = (rest[i] + turn) * scale
        return out

    def _push(self, node: int, g: float, parent: int) -> None:
        old = self._g.get(node)
        if old is not None and old <= g:
            return
        self._g[node], self._parent[node] = g, parent
        heappush(self._open, (g + self._hv[node], node))

    def _done(self, node: int) -> bool:
        i, k = divmod(node, 9)
        if not self.backward:
            return i == self.last and k - 1 in self.goal_headings
        if i != 0:
            return False
        return self.start_heading is None or k - 1 == (_EXACT if self._k0 is None else self._k0)

    def _expand(self, budget: int) -> None:
        heap, closed, g = self._open, self._closed, self._g
        sign = -1 if self.backward else 1
        give_up = self.give_up
        n = 0
        while n < budget:
            if not heap:
                self._finish(Status.NO_PATH, None)
                return
            _f, node = heappop(heap)
            if node in closed:
                continue
            far = self._far // 9
            if self._far >= 0 and give_up is not None and sign * (far - node // 9) >= give_up:
                self._finish(Status.NO_PATH, None)  # Pinter: searched back six points: give up
                return
            closed.add(node)
            n += 1
            self.expanded += 1
            if self._far < 0 or sign * (node // 9 - far) > 0:
                self._far = node
            if self._done(node):
                self._end = node
                self._finish(Status.FOUND, None)
                return
            gs = g[node]
            push = self._push
            for child, cost in (self._children_back(node) if self.backward else self._children(node)):
                if child not in closed:
                    push(child, gs + cost, node)

    def _group(self, h: int, dx: int, dy: int, reverse: bool) -> tuple[int, int, list[tuple[int, int, float, tuple]]]:
        """The 8 table moves at one offset: from heading h to each end heading e, or (reverse)
        from each start heading e to end heading h; their masks' union and intersection, and
        per move (e, mask, cost before terrain, key)."""
        gkey = (h if not reverse else h + HEADINGS, dx, dy)
        found = self._groups.get(gkey)
        if found is None:
            items = []
            for e in range(HEADINGS):
                key = (h, dx, dy, e) if not reverse else (e, dx, dy, h)
                ent = self.table.entries[key]
                items.append((e, ent.mask, ent.move.cost, key))
            union, inter = 0, -1
            for it in items:
                union |= it[1]
                inter &= it[1]
            found = self._groups[gkey] = (union, inter, items)
        return found

    def _legal(self, tile: tuple[int, int], group: tuple[int, int, list[tuple[int, int, float, tuple]]],
               only: int | None) -> list[tuple[int, float]]:
        """The legal moves of a group from ``tile`` (all, or only end/start heading ``only``):
        one test drops or passes all 8 where it can, else one ``mask & window`` each."""
        union, inter, items = group
        t = tile[1] * self.windows.width + tile[0]
        win = self.windows.window(t)
        if inter & win:
            return []
        uniform = self.windows.uniform
        out = []
        for e, mask, cost, key in items:
            if (only is not None and e != only) or (union & win and mask & win):
                continue
            if uniform is not None:
                out.append((e, cost * uniform))
            else:
                costs = self.windows.costs(t)
                out.append((e, math.fsum(costs[bit] * w for bit, w in self.table.weights_by_bit(key))))
        return out

    def _children(self, node: int) -> list[tuple[int, float]]:
        """Forward: the hops from (i, h) to the points ahead within three tiles."""
        i, k = divmod(node, 9)
        h = k - 1
        tiles = self.tiles
        x, y = tiles[i]
        out: list[tuple[int, float]] = []
        for j in range(i + 1, min(i + AHEAD, self.last) + 1):
            tj = tiles[j]
            dx, dy = tj[0] - x, tj[1] - y
            if max(abs(dx), abs(dy)) > HOPS:
                continue
            if h == _EXACT:
                for e in range(HEADINGS):
                    cost = self._exact_cost(tj, e)
                    if cost is not None:
                        out.append((_node(j, e), cost))
                continue
            out += [(_node(j, e), c) for e, c in self._legal(tiles[i], self._group(h, dx, dy, False), None)]
        return out

    def _children_back(self, node: int) -> list[tuple[int, float]]:
        """Backward: the points one to three tiles before i; a hop (i, h) -> (j, e) is the
        forward move (j, e) -> (i, h), checked from tile j."""
        i, k = divmod(node, 9)
        h = k - 1
        tiles = self.tiles
        x, y = tiles[i]
        out: list[tuple[int, float]] = []
        for j in range(i - 1, max(i - AHEAD, 0) - 1, -1):
            tj = tiles[j]
            dx, dy = x - tj[0], y - tj[1]
            if max(abs(dx), abs(dy)) > HOPS:
                continue
            if j == 0 and self.start_heading is not None and self._k0 is None:
                cost = self._exact_cost(tiles[i], h)  # into the exact start pose
                if cost is not None:
                    out.append((_node(0, _EXACT), cost))
                continue
            only = self._k0 if j == 0 else None
            out += [(_node(j, e), c) for e, c in self._legal(tj, self._group(h, dx, dy, True), only)]
        return out

    def _exact_cost(self, b: tuple[int, int], e: int) -> float | None:
        """The cost of the hop from the exact start pose to tile b at heading e (None: hits)."""
        path = self._exact_path(b, e)
        if path is None:
            return None
        grid = self.tilemap.cost_grid
        return math.fsum(float(grid[cy, cx]) * w for (cx, cy), w in centre_cells(path, 1.0).items())

    def _exact_path(self, b: tuple[int, int], e: int) -> Path | None:
        """The shortest curve from the exact start pose to tile b at heading e, if it is clear
        (the exact swept-disc test); computed once."""
        key = (b, e)
        if key not in self._exact:
            a = self.tiles[0]
            assert self.start_heading is not None
            p0 = Pose(a[0] + 0.5, a[1] + 0.5, self.start_heading)
            path = best_curve(p0, Pose(b[0] + 0.5, b[1] + 0.5, heading_angle(e)), self.kind)
            self._exact[key] = path if path_clear(self.tilemap, path, self.kind.width) else None
        return self._exact[key]

    def _finish(self, status: Status, goal: int | None) -> None:
        """End with ``status`` (found: at ``_end``); ``goal`` is unused (the end is a state)."""
        self.status = status
        if status != Status.FOUND:
            self._end = -1
        else:
            self.cost = self._g[self._end]
            self._far = self._end
        self._open = []

    # -- what it found ------------------------------------------------------------------------
    def _stop(self, node: int) -> Stop:
        i, k = divmod(node, 9)
        return Stop(i, self.tiles[i], k - 1)

    @property
    def farthest(self) -> Stop | None:
        """The farthest point expanded (the goal once found)."""
        return None if self._far < 0 else self._stop(self._far)

    @property
    def failure(self) -> Stop | None:
        """Where a failed pass got stuck: the farthest point it expanded (None if it found)."""
        return None if self.status == Status.FOUND else self.farthest

    @property
    def stops(self) -> list[Stop]:
        """The legal chain to the goal (found) or to the failure point, in travel order (start
        to the failure point forward; the failure point to the goal backward)."""
        node = self._end if self._end >= 0 else self._far
        chain: list[Stop] = []
        while node >= 0:
            chain.append(self._stop(node))
            node = self._parent.get(node, -1)
        return chain if self.backward else chain[::-1]

    def pose(self, s: Stop) -> Pose:
        """A stop as a pose at its tile's centre."""
        ang = self.start_heading if s.heading == _EXACT else heading_angle(s.heading)
        assert ang is not None
        return Pose(s.tile[0] + 0.5, s.tile[1] + 0.5, ang)

    def hop_path(self, a: Stop, b: Stop) -> Path:
        """The curve of the hop from stop a to stop b (in travel order), as checked."""
        if a.heading == _EXACT:
            found = self._exact_path(b.tile, b.heading)
            assert found is not None
            return found
        ent = self.table.entries[(a.heading, b.tile[0] - a.tile[0], b.tile[1] - a.tile[1], b.heading)]
        return ent.move.path(a.tile[0] + 0.5, a.tile[1] + 0.5)
