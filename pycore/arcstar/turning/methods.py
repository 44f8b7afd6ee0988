"""Legal turns (layer 5): from an A* tile path to a path of lines and arcs a unit can drive.

Coordinates as everywhere in arcstar: tile (x, y) covers [x, x+1) x [y, y+1), its centre is
(x + 0.5, y + 0.5), x grows right and y grows DOWN; headings are radians, 0 = +x (east),
pi/2 = +y (south). An arc with positive sweep turns clockwise on the screen (see ``geometry``).

``realize(tilemap, tiles, start_heading, goal_heading, width, radius, method)`` smooths the
tile path (Pinter's Listing 1, exact swept-disc test for ``width``) and turns the waypoints
into a ``geometry.Path`` from the start pose (first tile's centre, ``start_heading``) to the
goal pose (last tile's centre, ``goal_heading``; ``None`` leaves the final heading free: the
path ends on a straight line, Pinter's arc-then-line ending). The methods are Pinter's "basic
legal-turn methods" (his Figure 7 and the text around it):

``"smooth"``
    Listing 1 only: a polyline of ``Line`` segments; the heading jumps at every corner (and at
    the start/goal, drawn as zero-length lines facing the requested headings).
``"ignore"`` (Figure 1c)
    Each corner is replaced by a turning-radius arc tangent to both legs (a *fillet*: it
    starts ``t = r tan(|turn|/2)`` before the waypoint and ends ``t`` after it). A start
    heading that is not the first leg's is met with Pinter's arc-then-line (Figures 5, 6)
    towards the second waypoint; a fixed goal heading with the mirror image (line, then arc
    into the goal). Where two fillets would overlap on a leg (legs shorter than the arcs
    need, or a hairpin), the corners concerned form a *group* driven as one piece: Pinter's
    chain of arc-then-line curves through each waypoint of the group, then the shortest
    Dubins curve onto the next leg (or straight to the goal when its heading is free).
    Walls are not looked at; ``legal`` reports the exact test.
``"recalculate"`` (Pinter's path recalculation)
    The ``"ignore"`` curve (except that a group may take whichever of its candidate curves
    -- the chain, then the Dubins words shortest first -- passes the exact test). If a piece
    collides, the A* step nearest to where the body first overlaps a wall (among the steps
    under that piece) is marked invalid in a per-tile 8-bit mask (bit k = direction k of
    ``clearance.MOVES``, ``grid``'s order), A* is re-run on the unit's graph for the width
    with those moves removed (``GridGraph.restricted``), and the new path is smoothed and
    curved again; at most ``max_recalcs`` times.
``"tighter"`` (Figure 7a)
    The ``"recalculate"`` curve without re-searching: every piece that collides has the
    radius of its corners halved (r/2, r/4, ... down to ``r / 2**TIGHTER_LEVELS``) and is
    rebuilt; a corner that still collides at the floor becomes a *pivot*: the unit stops and
    turns on the spot (a sharp corner of the polyline, legal whenever the legs are). The
    unit must slow down for tight turns: each tightened turn adds a speed limit (see
    ``speed_limits``); a pivot has a zero-length limit of 0.
``"backup"`` (Figure 7b)
    The ``"recalculate"`` curve without re-searching; every piece whose forward turn
    collides is replaced by the shortest collision-free Reeds-Shepp curve (``curves``: up to
    two cusps, so three-point turns, segments with ``gear = -1`` reversing) between the
    piece's entry and exit poses, sliding those poses back and on along the straight legs
    (0, r/2, r, 2r, 4r) or right to the waypoints when no curve between the original ones is
    clear (a three-point turn into a driveway ends at the corner, facing down the driveway).

A one-tile path (start = goal) with two different headings turns round on the spot's
neighbourhood: the shortest Dubins curve ("ignore"), the first clear one (Reeds-Shepp words
too for "backup"), and for "tighter" smaller radii, then a pivot.

Legality: ``Realized.legal`` is *always* the verdict of ``collision.path_clear`` (exact swept
disc, touching allowed) on the finished path, never of the piecewise checks used to build it.

Speed limits (``"tighter"`` and roads): ``(from, to, factor)`` in distance along the path:
the unit should drive at no more than ``factor`` times its full speed between ``from`` and
``to``. A turn of radius ``r' < r`` gets ``factor = sqrt(r' / r)`` (the speed at which its
lateral acceleration v^2 / r' equals that of a full-speed turn at radius r), from one
(original) turning radius before the turn to its end, so the unit slows *before* the turn.
Entries are sorted and do not overlap (overlaps keep the lower factor); a pivot is an entry
with ``from == to`` and factor 0: stop there, turn, go on.

``Realized.searches`` counts the A* runs behind the result, the one that produced ``tiles``
included: 1 for every method but ``"recalculate"`` (1 + its re-searches).

Continuity: positions are continuous everywhere; headings are continuous except at the
corners of ``"smooth"`` and at the pivots of ``"tighter"``; gears flip only in ``"backup"``
(and with ``can_reverse``) at cusps, where the heading is continuous. Arcs never have a radius
below ``radius`` except in ``"tighter"``, where each smaller one has its speed limit.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, cast

import numpy as np

from ..collision.clearance import MOVES
from ..collision.swept import (
    body_reach,
    check_width,
    first_collision,
    hit_tables,
    path_clear,
    primitive_hits,
    primitive_of,
)
from ..collision.unit import unit_graph
from ..geometry.curves import arc_then_line, arc_then_line_candidates, dubins, dubins_all, reeds_shepp_all
from ..geometry.primitives import Arc, Line, Path, Pose, angle_diff, check_radius, finite
from ..maps.tilemap import TileMap
from ..outcomes import BadInput, Status
from ..search.engine import AStar
from ..search.options import SearchOptions
from .smoothing import smooth_points, tile_centres

__all__ = ["BACKUP_SLIDES", "TIGHTER_LEVELS", "TURN_METHODS", "Realized", "realize", "speed_factor"]

TURN_METHODS = ("smooth", "ignore", "recalculate", "tighter", "backup")
#: "tighter" halves a colliding turn's radius at most this many times before pivoting.
TIGHTER_LEVELS = 6
#: "backup" slides the entry/exit poses of a colliding turn by these multiples of the radius.
BACKUP_SLIDES = (0.0, 0.5, 1.0, 2.0, 4.0)

_ANGLE_EPS = 1e-9  # heading changes up to this are no turn
_HAIRPIN = math.pi - 1e-6  # corners turning more than this get no fillet
_LEG_EPS = 1e-9
_FREE_HEADINGS = tuple(k * math.pi / 4.0 for k in range(8))
_BIT = {d: k for k, d in enumerate(MOVES)}


# ----------------------------------------------------------------------------- result

@dataclass
class Realized:
    """A drivable path for a tile path, and what was done to get it.

    path: lines and arcs (``gear = -1`` segments reverse) from the start pose to the goal pose.
    legal: ``collision.path_clear(tilemap, path, width)`` (exact); only "ignore" and failures
        return False.
    method: the method used. waypoints: the smoothed points (tile centres) the curves follow.
    speed_limits: ``(from, to, factor)`` along the path (see the module notes); empty = full speed.
    turns: arcs plus corners (heading jumps) on the path. message: why it is not legal, or notes.
    searches: A* runs behind the result, the one that made the tile path included.
    budget_exhausted: the re-searches ran out of their expansion budget before a legal path.
    expanded: nodes the re-searches expanded (0 for every method but "recalculate").
    """

    path: Path
    legal: bool
    method: str
    waypoints: list[tuple[float, float]]
    speed_limits: list[tuple[float, float, float]] = field(default_factory=list)
    turns: int = 0
    message: str = ""
    searches: int = 1
    budget_exhausted: bool = False
    expanded: int = 0

    def to_json(self) -> dict:
        """JSON-safe dict (the path as ``Path.to_json``)."""
        return {"path": self.path.to_json(), "legal": self.legal, "method": self.method,
                "waypoints": [list(p) for p in self.waypoints],
                "speed_limits": [list(s) for s in self.speed_limits], "turns": self.turns,
                "message": self.message, "searches": self.searches}


def speed_factor(turn_radius: float, radius: float) -> float:
    """The speed factor for a turn of ``turn_radius`` by a unit whose normal turning radius is
    ``radius``: ``sqrt(turn_radius / radius)`` (equal lateral acceleration), at most 1."""
    return min(1.0, math.sqrt(max(turn_radius, 0.0) / radius))


# ----------------------------------------------------------------------------- input

def check_heading(value: Any, name: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a number (radians) or None, got {value!r}")
    v = finite(value, name, limit=math.inf)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number (radians) or None, got {v!r}")
    return v


def check_tiles(tilemap: TileMap, tiles: Any) -> list[tuple[int, int]]:
    try:
        centres = tile_centres(tiles)
    except ValueError as e:
        raise ValueError(f"tiles must be a list of (x, y) tiles: {e}") from None
    out = [(int(x - 0.5), int(y - 0.5)) for x, y in centres]
    for x, y in out:
        if not tilemap.in_bounds(x, y):
            raise ValueError(f"tile ({x}, {y}) is off the {tilemap.width}x{tilemap.height} map")
    return out


def _check_inputs(tilemap: Any, tiles: Any, start_heading: Any, goal_heading: Any, width: Any,
                  radius: Any, method: Any, max_recalcs: Any, can_reverse: Any,
                  search_options: Any) -> tuple:
    if not isinstance(tilemap, TileMap):
        raise ValueError(f"map must be a TileMap, got {type(tilemap).__name__}")
    if not isinstance(method, str) or method not in TURN_METHODS:
        raise ValueError(f"method must be one of {', '.join(TURN_METHODS)}, got {method!r}")
    w = check_width(width)
    r = check_radius(radius, "radius")
    hs = check_heading(start_heading, "start_heading")
    hg = check_heading(goal_heading, "goal_heading")
    if isinstance(max_recalcs, bool) or not isinstance(max_recalcs, numbers.Integral) or max_recalcs < 0:
        raise ValueError(f"max_recalcs must be an integer >= 0, got {max_recalcs!r}")
    if not isinstance(can_reverse, bool):
        raise ValueError(f"can_reverse must be true or false, got {can_reverse!r}")
    if search_options is not None:
        search_options_for(search_options, w)
    return check_tiles(tilemap, tiles), w, r, hs, hg, int(max_recalcs)


def search_options_for(search_options: Any, width: float | None) -> tuple[SearchOptions, str]:
    """The options and heuristic for re-searches: the caller's search options (a
    ``SearchOptions``, or a dict of its fields plus ``method`` and ``width``) for this unit's
    width. Methods that plan for a point only (jump points, hierarchical) become A*: the
    re-search needs the per-tile move masks; Dijkstra stays Dijkstra."""
    if search_options is None:
        search_options = {}
    if isinstance(search_options, SearchOptions):
        return replace(search_options, trace=False), search_options.heuristic or "manhattan"
    if not isinstance(search_options, dict):
        raise BadInput(f"search_options must be a dict or None, got {type(search_options).__name__}",
                       "search_options")
    raw = dict(search_options)
    if raw.get("width") is not None and raw["width"] != width:
        raise BadInput(f"search_options width {raw['width']!r} differs from width {width!r}", "width")
    raw.pop("width", None)
    method = raw.pop("method", "astar")
    known = {f.name for f in fields(SearchOptions)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise BadInput(f"unknown option(s) for the re-searches: {', '.join(unknown)} "
                       f"(known: {', '.join(sorted(known))})", "search_options")
    opts = SearchOptions(**{**raw, "trace": False})
    heuristic = "none" if method == "dijkstra" else (opts.heuristic or "manhattan")
    return opts, heuristic


def masked_search(tilemap: TileMap, opts: SearchOptions, heuristic: str, width: float | None,
                  start: tuple[int, int], goal: tuple[int, int], allowed: np.ndarray | None = None,
                  standable_too: np.ndarray | None = None, max_expansions: int | None = None) -> AStar | None:
    """A* (not yet run: step it) on the grid of a unit of ``width`` with its legal moves ANDed
    with ``allowed`` (per tile, ``clearance.MOVES`` bits) and its standable tiles with
    ``standable_too``; None when the start or goal cannot be stood on."""
    graph = unit_graph(tilemap, opts.grid, width)
    H, W = tilemap.height, tilemap.width
    legal = np.frombuffer(graph.legal, dtype=np.uint8).reshape(H + 2, W + 2)[1:-1, 1:-1]
    standable = np.frombuffer(graph.passable, dtype=np.uint8).reshape(H + 2, W + 2)[1:-1, 1:-1] != 0
    if allowed is not None:
        legal = legal & allowed
    if standable_too is not None:
        standable = standable & standable_too
    if not (standable[start[1], start[0]] and standable[goal[1], goal[0]]):
        return None
    restricted = graph.restricted(legal, standable)
    limit = opts.max_expansions if max_expansions is None else max_expansions
    return AStar(restricted, restricted.node(*start), [restricted.node(*goal)], heuristic=heuristic,
                 weight=opts.weight, stop=opts.stop, max_expansions=limit,
                 open_list=opts.open_list, turn_penalty=opts.turn_penalty)


# ----------------------------------------------------------------------------- context

class _Ctx:
    """The map and unit a realisation is checked against."""

    def __init__(self, tilemap: TileMap, width: float, radius: float, can_reverse: bool) -> None:
        self.map = tilemap
        self.width = width
        self.r = radius
        self.can_reverse = can_reverse
        self._t = hit_tables(tilemap)
        self.body_reach = body_reach(width)

    def clear(self, segs: Sequence[Line | Arc]) -> bool:
        """Exact swept-disc test of a chain of segments."""
        t, r = self._t, self.body_reach
        return not any(primitive_hits(t, primitive_of(s), r) for s in segs)


def _first_clear(ctx: _Ctx) -> Callable[[list[list]], list]:
    def choose(cands: list[list]) -> list:
        for c in cands:
            if ctx.clear(c):
                return c
        return cands[0]
    return choose


def _first(cands: list[list]) -> list:
    return cands[0]


# ----------------------------------------------------------------------------- layout

@dataclass
class _Turn:
    """What the path does at corners ``first..last`` (waypoint indices): entry and exit are
    (leg, distance along the effective leg) or None (the start pose / the goal)."""

    first: int
    last: int
    kind: str  # "none", "start", "goal", "fillet", "group", "pivot", "reverse"
    entry: tuple[int, float] | None
    exit: tuple[int, float] | None
    segs: list
    radius: float


def _along(anchor: tuple[int, float] | None) -> float:
    """The distance along its leg of an anchor between two turns (never the start or goal pose,
    which only the first turn's entry and the last turn's exit are)."""
    assert anchor is not None
    return anchor[1]


@dataclass
class _Piece:
    kind: str  # "line" or a turn kind
    segs: list
    first: int  # corner range (turns) or leg index (lines)
    last: int
    radius: float
    d0: float = 0.0
    d1: float = 0.0


@dataclass
class _Built:
    path: Path
    pieces: list[_Piece]
    turns: list[_Turn]
    layout: _Layout


class _Layout:
    """A polyline (the smoothed waypoints) with start and goal headings, laid out as legs and
    corners for given per-corner radii and pivots (corner 0 is the start, m the goal)."""

    def __init__(self, pts: list[tuple[float, float]], hs: float | None, hg: float | None,
                 rad: list[float], pivot: list[bool], choose: Callable[[list[list]], list],
                 can_reverse: bool = False, shrink: bool = True) -> None:
        self.shrink = shrink  # fillets beside a pivot shrink to fit (tighter) or join it (backup)
        self.pts = pts
        self.m = m = len(pts) - 1
        self.hg = hg
        self.rad = list(rad)
        self.pivot = list(pivot)
        self.choose = choose
        self.can_reverse = can_reverse
        h0 = [math.atan2(b[1] - a[1], b[0] - a[0]) for a, b in zip(pts, pts[1:])]
        eff = list(pts)
        self.goal_segs: list | None = None
        self.start_segs: list | None = None
        join_first = join_last = group_all = False
        # the goal first: with one leg it decides the default start heading
        turned_g = hg is not None and abs(angle_diff(hg, h0[-1])) > _ANGLE_EPS
        if turned_g and hg is not None and not pivot[m]:
            if m == 1 and hs is not None:
                group_all = True
            else:
                rev = arc_then_line(Pose(pts[m][0], pts[m][1], hg + math.pi), pts[m - 1], rad[m])
                arcs, line = _split_arc_line(rev)
                if arcs and line is not None and line.length > _LEG_EPS:
                    # drive the backwards construction forwards: same circle, heading flipped
                    self.goal_segs = []
                    for a2 in reversed(arcs):
                        e = a2.end_pose()
                        self.goal_segs.append(Arc.from_pose(Pose(e.x, e.y, e.heading + math.pi), a2.radius,
                                                            -a2.sweep))
                    eff[m] = arcs[-1].end_pose().xy
                elif arcs or line is None:
                    join_last = True
                else:
                    turned_g = False
        first_heading = math.atan2(eff[1][1] - eff[0][1], eff[1][0] - eff[0][0])
        self.hs = hs if hs is not None else first_heading
        turned_s = abs(angle_diff(self.hs, first_heading)) > _ANGLE_EPS
        self.S = Pose(pts[0][0], pts[0][1], self.hs)
        self.G = Pose(pts[m][0], pts[m][1], hg) if hg is not None else None
        if turned_s and not pivot[0] and not group_all:
            fw = arc_then_line(self.S, eff[1], rad[0])
            arcs, line = _split_arc_line(fw)
            if arcs and line is not None and line.length > _LEG_EPS:
                self.start_segs = arcs
                eff[0] = arcs[-1].end_pose().xy
            elif arcs or line is None:
                join_first = True
            else:
                turned_s = False
        self.turned_s, self.turned_g = turned_s, turned_g
        self.eff = eff
        self.he = [math.atan2(b[1] - a[1], b[0] - a[0]) for a, b in zip(eff, eff[1:])]
        self.L = [math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(eff, eff[1:])]
        self._corners(join_first, join_last, group_all)

    # -- corners and groups
    def _corners(self, join_first: bool, join_last: bool, group_all: bool) -> None:
        m, he, L, rad, pivot = self.m, self.he, self.L, self.rad, self.pivot
        t = [0.0] * (m + 1)
        kind = ["none"] * (m + 1)
        theta = [0.0] * (m + 1)
        for i in range(1, m):
            th = angle_diff(he[i], he[i - 1])
            theta[i] = th
            if abs(th) <= _ANGLE_EPS:
                kind[i] = "none"
            elif pivot[i]:
                kind[i] = "pivot"
            else:
                kind[i] = "fillet"
                t[i] = math.inf if abs(th) >= _HAIRPIN else rad[i] * math.tan(0.5 * abs(th))
        if self.turned_s:
            kind[0] = "pivot" if pivot[0] else ("start" if self.start_segs is not None else "group")
        if self.turned_g:
            kind[m] = "pivot" if pivot[m] else ("goal" if self.goal_segs is not None else "group")
        self.rad_eff = list(rad)
        # a fillet beside a pivot cannot join it: it shrinks to fit its leg instead
        for j in range(m if self.shrink else 0):
            a, b = j, j + 1
            for p, q in ((a, b), (b, a)):
                if kind[p] == "pivot" and kind[q] == "fillet" and t[q] > L[j]:
                    t[q] = L[j]
                    self.rad_eff[q] = L[j] / math.tan(0.5 * min(abs(theta[q]), _HAIRPIN))
        joined = [group_all or t[j] + t[j + 1] > L[j] + 1e-9 * max(1.0, L[j]) for j in range(m)]
        if m >= 1:
            joined[0] = joined[0] or join_first
            joined[m - 1] = joined[m - 1] or join_last
        for j in range(m if self.shrink else 0):
            if joined[j] and (kind[j] == "pivot" or kind[j + 1] == "pivot"):
                joined[j] = False  # cannot happen after the shrinking above; never join a pivot
        self.t, self.kind, self.theta, self.joined = t, kind, theta, joined

    def pose_on_leg(self, j: int, s: float) -> Pose:
        a = self.eff[j]
        h = self.he[j]
        return Pose(a[0] + s * math.cos(h), a[1] + s * math.sin(h), h)

    def anchor_pose(self, anchor: tuple[int, float] | None, end: bool) -> Pose | None:
        """The pose of an anchor; None for a free goal."""
        if anchor is not None:
            return self.pose_on_leg(*anchor)
        return (self.G if end else self.S)

    def turns(self) -> list[_Turn]:
        """One ``_Turn`` per corner or group of corners, in order."""
        m, t, L = self.m, self.t, self.L
        out: list[_Turn] = []
        i = 0
        while i <= m:
            b = i
            while b < m and self.joined[b]:
                b += 1
            entry = None if i == 0 else (i - 1, L[i - 1] - t[i])
            exit_ = None if b == m else (b, t[b])
            if b > i:
                out.append(self._group(i, b, entry, exit_))
            else:
                out.append(self._single(i, entry, exit_))
            i = b + 1
        return out

    def _single(self, i: int, entry: tuple[int, float] | None, exit_: tuple[int, float] | None) -> _Turn:
        k = self.kind[i]
        m = self.m
        if k == "start":
            assert self.start_segs is not None  # the kind is "start" only when they were built
            return _Turn(i, i, k, None, (0, 0.0), list(self.start_segs), self.rad[0])
        if k == "goal":
            assert self.goal_segs is not None  # the kind is "goal" only when they were built
            return _Turn(i, i, k, (m - 1, self.L[m - 1]), None, list(self.goal_segs), self.rad[m])
        if k == "fillet":
            assert entry is not None  # fillets are inner corners, entered along a leg
            arc = Arc.from_pose(self.pose_on_leg(*entry), self.rad_eff[i], self.theta[i])
            return _Turn(i, i, k, entry, exit_, [arc], self.rad_eff[i])
        if k == "pivot":
            if i == 0:
                return _Turn(0, 0, k, None, (0, 0.0), [Line.from_pose(self.S, 0.0)], 0.0)
            if i == m:
                assert self.G is not None  # the goal pivots only to turn to a given heading
                return _Turn(m, m, k, (m - 1, self.L[m - 1]), None, [Line.from_pose(self.G, 0.0)], 0.0)
            return _Turn(i, i, k, entry, exit_, [], 0.0)
        # no turn: a straight joint (or the free end, or an unturned start)
        if i == 0:
            return _Turn(0, 0, "none", None, (0, 0.0), [], math.inf)
        if i == m:
            return _Turn(m, m, "none", (m - 1, self.L[m - 1]), None, [], math.inf)
        return _Turn(i, i, "none", entry, exit_, [], math.inf)

    def _group(self, a: int, b: int, entry: tuple[int, float] | None, exit_: tuple[int, float] | None) -> _Turn:
        m = self.m
        r = min(self.rad_eff[a:b + 1])
        E = self.anchor_pose(entry, False)
        assert E is not None  # a start anchor is a pose on a leg or the start pose
        X = self.anchor_pose(exit_, True) if (exit_ is not None or self.G is not None) else None
        free = self.pts[m] if X is None else None
        inner = [self.pts[k] for k in range(max(a, 1), min(b, m - 1) + 1)]
        cands = _group_candidates(E, X, free, inner, r, self.can_reverse)
        return _Turn(a, b, "group", entry, exit_, self.choose(cands), r)

    # -- assembly
    def assemble(self, turns: list[_Turn]) -> tuple[Path, list[_Piece]]:
        pieces: list[_Piece] = []
        for k, tr in enumerate(turns):
            if tr.segs:
                pieces.append(_Piece(tr.kind, tr.segs, tr.first, tr.last, tr.radius))
            elif tr.kind == "pivot":
                pieces.append(_Piece("pivot", [], tr.first, tr.last, 0.0))
            if k + 1 < len(turns):
                j = tr.last
                s0 = _along(tr.exit)
                s1 = _along(turns[k + 1].entry)
                if s1 - s0 > 1e-12:
                    seg = Line.from_pose(self.pose_on_leg(j, s0), s1 - s0)
                    pieces.append(_Piece("line", [seg], j, j, math.inf))
        segs: list = [s for p in pieces for s in p.segs]
        if not segs:
            segs = [Line.from_pose(self.S, 0.0)]
        d = 0.0
        for p in pieces:
            p.d0 = d
            d += sum(s.length for s in p.segs)
            p.d1 = d
        return Path(tuple(segs)), pieces

    def build(self) -> _Built:
        turns = self.turns()
        path, pieces = self.assemble(turns)
        return _Built(path, pieces, turns, self)


def _split_arc_line(p: Path | None) -> tuple[list[Arc], Line | None]:
    """An arc-then-line path as (its arcs, its line or None)."""
    if p is None:
        return [], None
    arcs = [s for s in p.segments if isinstance(s, Arc) and s.length > 0.0]
    lines = [s for s in p.segments if isinstance(s, Line) and s.length > 0.0]
    return arcs, (lines[-1] if lines else None)


def _group_candidates(E: Pose, X: Pose | None, free: tuple[float, float] | None,
                      inner: list[tuple[float, float]], r: float, can_reverse: bool) -> list[list]:
    """Curves from E through a group of corners to X (or to the free end point), preferred
    first: Pinter's chain of arc-then-line curves through every waypoint of the group, then the
    direct Dubins words shortest first (and Reeds-Shepp words if reversing is allowed)."""
    cands: list[list] = []
    chain: list = []
    cur = E
    ok = True
    for w in inner:
        if math.hypot(w[0] - cur.x, w[1] - cur.y) <= _LEG_EPS:
            continue
        p = arc_then_line(cur, w, r)
        if p is None:
            ok = False
            break
        chain += [s for s in p.segments if s.length > 0.0]
        cur = p.end_pose()
    if ok:
        last = dubins(cur, X, r) if X is not None else arc_then_line(cur, free, r)
        if last is not None:
            chain += [s for s in last.segments if s.length > 0.0]
            cands.append(chain)
    if X is not None:
        direct = dubins_all(E, X, r)
        if can_reverse:
            direct = sorted(direct + reeds_shepp_all(E, X, r), key=lambda p: p.length)
    else:
        direct = sorted((p for p in arc_then_line_candidates(E, free, r).values() if p is not None),
                        key=lambda p: p.length)
    for p in direct:
        cands.append([s for s in p.segments if s.length > 0.0] or [Line.from_pose(E, 0.0)])
    if not cands:  # pragma: no cover - dubins always reaches
        cands.append([Line.from_pose(E, 0.0)])
    return [c if c else [Line.from_pose(E, 0.0)] for c in cands]


# ----------------------------------------------------------------------------- helpers

def _count_turns(path: Path) -> int:
    arcs = sum(1 for s in path.segments if isinstance(s, Arc) and s.length > 0.0)
    return arcs + len(path.corners())


def polyline(pts: list[tuple[float, float]], hs: float | None, hg: float | None) -> Path:
    """The smoothed polyline, with zero-length lines facing the start/goal headings."""
    if len(pts) == 1:
        h0 = hs if hs is not None else (hg if hg is not None else 0.0)
        segs = [Line(pts[0][0], pts[0][1], h0, 0.0)]
        if hg is not None and abs(angle_diff(hg, h0)) > _ANGLE_EPS:
            segs.append(Line(pts[0][0], pts[0][1], hg, 0.0))
        return Path(tuple(segs), "polyline")
    body = list(Path.from_waypoints(pts).segments)
    if hs is not None and abs(angle_diff(hs, body[0].heading)) > _ANGLE_EPS:
        body.insert(0, Line(pts[0][0], pts[0][1], hs, 0.0))
    if hg is not None and abs(angle_diff(hg, body[-1].heading)) > _ANGLE_EPS:
        body.append(Line(pts[-1][0], pts[-1][1], hg, 0.0))
    return Path(tuple(body), "polyline")


def _single_point(ctx: _Ctx, p: tuple[float, float], hs: float | None, hg: float | None,
                  method: str) -> tuple[Path, list, str]:
    """A one-tile path: stay, or turn from hs to hg on the spot's neighbourhood."""
    h0 = hs if hs is not None else (hg if hg is not None else 0.0)
    S = Pose(p[0], p[1], h0)
    if hg is None or abs(angle_diff(hg, h0)) <= _ANGLE_EPS:
        return Path((Line.from_pose(S, 0.0),)), [], ""
    G = Pose(p[0], p[1], hg)
    cands = [list(c.segments) for c in dubins_all(S, G, ctx.r)]
    if method == "backup" or (ctx.can_reverse and method != "ignore"):
        cands = [list(c.segments) for c in reeds_shepp_all(S, G, ctx.r)] + cands
    if method == "ignore":
        return Path(tuple(dubins(S, G, ctx.r).segments)), [], ""
    for c in cands:
        if ctx.clear(c):
            return Path(tuple(c)), [], ""
    if method == "tighter":
        for k in range(1, TIGHTER_LEVELS + 1):
            rk = ctx.r / 2 ** k
            for curve in dubins_all(S, G, rk):
                if ctx.clear(curve.segments):
                    f = speed_factor(rk, ctx.r)
                    return curve, [(0.0, curve.length, f)], f"turns round at radius {rk:g} (speed factor {f:.3g})"
        pivot = Path((Line.from_pose(S, 0.0), Line.from_pose(G, 0.0)))
        return pivot, [(0.0, 0.0, 0.0)], "turns on the spot (pivot) at the start"
    return Path(tuple(cands[0])), [], "no curve turns the unit round on its tile without a collision"


def _waypoint_indices(tiles: list[tuple[int, int]], pts: list[tuple[float, float]]) -> list[int]:
    """Index into ``tiles`` of each smoothed waypoint (a subsequence of the tile centres)."""
    out, k = [], 0
    for p in pts:
        while k < len(tiles) and (tiles[k][0] + 0.5, tiles[k][1] + 0.5) != p:
            k += 1
        out.append(min(k, len(tiles) - 1))
    return out


def _describe_collision(ctx: _Ctx, path: Path) -> str:
    d = first_collision(ctx.map, path, ctx.width)
    if d is None:
        return ""
    p = path.pose_at(d)
    return f"the body first overlaps a wall {d:.2f} tiles along the path, at ({p.x:.2f}, {p.y:.2f})"


def _merge_limits(entries: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    """Sorted limits that do not overlap (each ends where or before the next begins); where
    entries overlap the lower factor wins; a stop (from == to) splits a stretch around it."""
    points = sorted({(a, f) for a, b, f in entries if b <= a})
    spans = [e for e in entries if e[1] > e[0]]
    out: list[tuple[float, float, float]] = []
    if spans:
        cuts = sorted({v for a, b, _ in spans for v in (a, b)} | {a for a, _ in points})
        stops = {a for a, _ in points}
        for a, b in zip(cuts, cuts[1:]):
            fs = [f for s0, s1, f in spans if s0 <= a and s1 >= b]
            if not fs:
                continue
            f = min(fs)
            if out and out[-1][1] == a and out[-1][2] == f and a not in stops:
                out[-1] = (out[-1][0], b, f)
            else:
                out.append((a, b, f))
    merged = out + [(a, a, f) for a, f in points]
    merged.sort()
    return merged


def _speed_limits(pieces: list[_Piece], r: float) -> list[tuple[float, float, float]]:
    entries = []
    for p in pieces:
        if p.kind == "line":
            continue
        if p.kind == "pivot":
            entries.append((p.d0, p.d0, 0.0))
            continue
        rmin = min((s.radius for s in p.segs if isinstance(s, Arc) and s.length > 0.0), default=math.inf)
        if rmin < r * (1.0 - 1e-12):
            entries.append((max(0.0, p.d0 - r), p.d1, speed_factor(rmin, r)))
    return _merge_limits(entries)


# ----------------------------------------------------------------------------- methods

def realize(tilemap: TileMap, tiles: Any, start_heading: float | None, goal_heading: float | None,
            width: float, radius: float, method: str, *, max_recalcs: int = 20, can_reverse: bool = False,
            search_options: dict | SearchOptions | None = None) -> Realized | None:
    """Turn an A* tile path into a drivable path by one of ``TURN_METHODS`` (module notes).

    ``tiles``: (x, y) tiles (e.g. ``plan(..., width=width).path``); the start pose is the first
    tile's centre facing ``start_heading`` (None: along the first leg), the goal the last
    tile's centre facing ``goal_heading`` (None: free). ``width`` is the unit's diameter and
    ``radius`` its turning radius, in tiles. ``max_recalcs``: re-searches allowed to
    "recalculate"; ``can_reverse``: let the other legal-seeking methods use Reeds-Shepp
    curves too; ``search_options``: ``SearchOptions`` (or a dict of its fields) for those
    re-searches.

    Returns None for an empty tile path; bad input raises ``ValueError``. ``realize_steps`` is
    the same work in slices.
    """
    tiles, w, r, hs, hg, max_recalcs = _check_inputs(tilemap, tiles, start_heading, goal_heading, width,
                                                     radius, method, max_recalcs, can_reverse, search_options)
    if not tiles:
        return None
    return realize_checked(tilemap, tilemap, tiles, hs, hg, w, r, method, max_recalcs, can_reverse, search_options)


Work = Generator[int, None, Realized]
PIECE_WORK = 64  # the work units one piece's layout and exact collision test count for (~ 64 expansions)


def run_work(work: Work) -> Realized:
    """Drive sliced work to its end and return what it made."""
    while True:
        try:
            next(work)
        except StopIteration as done:
            return done.value


def realize_checked(tilemap: TileMap, smooth_map: TileMap, tiles: list[tuple[int, int]], hs: float | None,
                    hg: float | None, w: float, r: float, method: str, max_recalcs: int = 20,
                    can_reverse: bool = False, search_options: dict | SearchOptions | None = None) -> Realized:
    """``realize`` on checked input; walls from ``tilemap``, smoothing on ``smooth_map``."""
    return run_work(realize_steps(tilemap, smooth_map, tiles, hs, hg, w, r, method, max_recalcs, can_reverse,
                                  search_options))


def realize_steps(tilemap: TileMap, smooth_map: TileMap, tiles: list[tuple[int, int]], hs: float | None,
                  hg: float | None, w: float, r: float, method: str, max_recalcs: int = 20,
                  can_reverse: bool = False, search_options: dict | SearchOptions | None = None,
                  max_expansions: int | None = None) -> Work:
    """``realize_checked`` as a generator that yields the work it did since the last yield (in
    units of about one search expansion: re-search expansions count one each, each piece built
    and tested ``PIECE_WORK``), so a planner can run it in slices and stop it between them.
    ``max_expansions`` bounds the re-searches' expansions together (None: unbounded); past it
    the result says ``budget_exhausted``."""
    ctx = _Ctx(tilemap, w, r, can_reverse)
    if method == "recalculate":
        return (yield from _recalculate(ctx, smooth_map, tiles, hs, hg, max_recalcs, search_options, max_expansions))
    pts = smooth_points(smooth_map, tile_centres(tiles), w)
    yield PIECE_WORK * len(pts)
    if method == "smooth":
        path = polyline(pts, hs, hg)
        legal = path_clear(tilemap, path, w)
        msg = "" if legal else "a leg of the smoothed path is not walkable for this width: " + \
            _describe_collision(ctx, path)
        return Realized(path, legal, method, pts, [], _count_turns(path), msg, 1)
    if len(pts) == 1:
        path, limits, note = _single_point(ctx, pts[0], hs, hg, method)
        legal = path_clear(tilemap, path, w)
        msg = note if legal else "no legal path: " + (note or _describe_collision(ctx, path))
        return Realized(path, legal, method, pts, limits, _count_turns(path), msg, 1)
    m = len(pts) - 1
    if method == "ignore":
        built = _Layout(pts, hs, hg, [r] * (m + 1), [False] * (m + 1), _first).build()
        legal = path_clear(tilemap, built.path, w)
        msg = "" if legal else "blockers ignored: " + _describe_collision(ctx, built.path)
        return Realized(built.path, legal, method, pts, [], _count_turns(built.path), msg, 1)
    if method == "tighter":
        return (yield from _tighter(ctx, pts, hs, hg))
    return (yield from _backup(ctx, pts, hs, hg))


def _colliding(ctx: _Ctx, built: _Built) -> list[_Piece]:
    return [p for p in built.pieces if p.segs and not ctx.clear(p.segs)]


def _leg_owner(built: _Built, p: _Piece) -> int | None:
    """For a colliding line: the start/goal corner whose arc made that leg, or None (a leg
    of the smoothed path itself)."""
    lay = built.layout
    if p.first == 0 and lay.start_segs is not None and lay.kind[0] == "start":
        return 0
    if p.first == lay.m - 1 and lay.goal_segs is not None and lay.kind[lay.m] == "goal":
        return lay.m
    return None


def _tighter(ctx: _Ctx, pts: list[tuple[float, float]], hs: float | None, hg: float | None) -> Work:
    m = len(pts) - 1
    r = ctx.r
    floor = r / 2 ** TIGHTER_LEVELS
    rad = [r] * (m + 1)
    pivot = [False] * (m + 1)
    choose = _first_clear(ctx)
    stuck: list[str] = []
    for _ in range((TIGHTER_LEVELS + 2) * (m + 1) + 1):
        built = _Layout(pts, hs, hg, rad, pivot, choose, ctx.can_reverse).build()
        bad = _colliding(ctx, built)
        yield PIECE_WORK * len(built.pieces)
        if not bad:
            break
        changed = False
        stuck = []
        for p in bad:
            if p.kind == "line":
                owner = _leg_owner(built, p)
                if owner is None:
                    a, b = pts[p.first], pts[p.first + 1]
                    stuck.append(f"the leg from ({a[0]}, {a[1]}) to ({b[0]}, {b[1]}) is not walkable for "
                                 f"width {ctx.width:g} (was the tile path planned for this width?)")
                    continue
                corners = [owner]
            else:
                corners = list(range(p.first, p.last + 1))
            for i in corners:
                if pivot[i]:
                    continue
                if rad[i] > floor * (1.0 + 1e-9):
                    rad[i] *= 0.5
                else:
                    pivot[i] = True
                changed = True
        if not changed:
            break
    legal = path_clear(ctx.map, built.path, ctx.width)
    limits = _speed_limits(built.pieces, r)
    notes = []
    tight = [e for e in limits if e[2] > 0.0]
    pivots = [e for e in limits if e[2] == 0.0]
    if tight:
        notes.append(f"{len(tight)} stretch(es) slowed for tighter turns (lowest factor "
                     f"{min(e[2] for e in tight):.3g})")
    if pivots:
        notes.append(f"{len(pivots)} pivot(s): the unit stops and turns on the spot")
    if not legal:
        notes.insert(0, "no legal path: " + ("; ".join(stuck) or _describe_collision(ctx, built.path)))
    return Realized(built.path, legal, "tighter", pts, limits, _count_turns(built.path), "; ".join(notes), 1)


def _backup(ctx: _Ctx, pts: list[tuple[float, float]], hs: float | None, hg: float | None) -> Work:
    m = len(pts) - 1
    r = ctx.r
    choose = _first_clear(ctx)
    rad = [r] * (m + 1)
    pivot = [False] * (m + 1)
    built = _Layout(pts, hs, hg, rad, pivot, choose, ctx.can_reverse).build()
    bad = _colliding(ctx, built)
    yield PIECE_WORK * len(built.pieces)
    if not bad:
        return Realized(built.path, path_clear(ctx.map, built.path, ctx.width), "backup", pts, [],
                        _count_turns(built.path), "", 1)
    # start/goal turns that collide (their arc or the line it leads onto) are redone from the
    # original first/last leg: placeholders here, Reeds-Shepp below
    for p in bad:
        owner = _leg_owner(built, p) if p.kind == "line" else None
        if p.kind in ("start", "goal"):
            owner = 0 if p.kind == "start" else m
        if p.kind == "group" and p.first == 0 and built.layout.turned_s:
            owner = None
        if owner is not None:
            pivot[owner] = True
    lay = _Layout(pts, hs, hg, rad, pivot, choose, ctx.can_reverse, shrink=False)
    turns = lay.turns()
    failed: list[str] = []
    for k, tr in enumerate(turns):
        forced = tr.kind == "pivot"
        if not forced and (not tr.segs or ctx.clear(tr.segs)):
            continue
        lo = _along(turns[k - 1].exit) if k > 0 and tr.entry is not None else None
        hi = _along(turns[k + 1].entry) if k + 1 < len(turns) and tr.exit is not None else None
        found = _reverse_turn(ctx, lay, tr, lo, hi)
        yield PIECE_WORK * 8
        if found is None:
            failed.append(f"no three-point turn clears the walls at waypoint(s) {tr.first}..{tr.last}")
            if forced:  # backing up never pivots: drive the (colliding) forward curve instead
                E = lay.anchor_pose(tr.entry, False)
                assert E is not None  # a start anchor is a pose on a leg or the start pose
                X = lay.anchor_pose(tr.exit, True)
                tr.segs = [s for s in dubins(E, X, r).segments if s.length > 0.0] or [Line.from_pose(E, 0.0)]
                tr.kind = "group"
            continue
        tr.segs, tr.entry, tr.exit, tr.kind = found
    path, pieces = lay.assemble(turns)
    legal = path_clear(ctx.map, path, ctx.width)
    msg = ""
    if not legal:
        msg = "no legal path: " + ("; ".join(failed) or _describe_collision(ctx, path))
    elif any(s.gear < 0 for s in path.segments):
        msg = f"reverses {sum(1 for s in path.segments if s.gear < 0)} segment(s) ({len(path.cusps())} cusp(s))"
    return Realized(path, legal, "backup", pts, [], _count_turns(path), msg, 1)


def _reverse_turn(ctx: _Ctx, lay: _Layout, tr: _Turn, lo: float | None,
                  hi: float | None) -> tuple[list, tuple | None, tuple | None, str] | None:
    """The shortest clear Reeds-Shepp curve for a turn, sliding its entry back (not before
    ``lo``) and its exit on (not past ``hi``) along their legs by ``BACKUP_SLIDES`` radii."""
    r = ctx.r
    entries: list[tuple[float, tuple | None, Pose]] = []
    if tr.entry is None:
        entries.append((0.0, None, lay.S))
    else:
        j, s = tr.entry
        seen: set[float] = set()
        for s2 in [s - f * r for f in BACKUP_SLIDES] + [lay.L[j]]:  # ... or at the waypoint itself
            s2 = min(max(s2, lo if lo is not None else 0.0, 0.0), lay.L[j])
            if round(s2, 9) not in seen:
                seen.add(round(s2, 9))
                entries.append((abs(s - s2), (j, s2), lay.pose_on_leg(j, s2)))
    exits: list[tuple[float, tuple | None, Pose | None]] = []
    if tr.exit is None:
        if lay.G is not None:
            exits.append((0.0, None, lay.G))
        else:
            end = lay.pts[lay.m]
            heads = [lay.he[-1]] + [h for h in _FREE_HEADINGS if abs(angle_diff(h, lay.he[-1])) > 1e-9]
            exits += [(0.0, None, Pose(end[0], end[1], h)) for h in heads]
    else:
        j, s = tr.exit
        seen = set()
        for s2 in [s + f * r for f in BACKUP_SLIDES] + [0.0]:  # ... or at the waypoint itself
            s2 = max(min(s2, hi if hi is not None else lay.L[j], lay.L[j]), 0.0)
            if round(s2, 9) not in seen:
                seen.add(round(s2, 9))
                exits.append((abs(s2 - s), (j, s2), lay.pose_on_leg(j, s2)))
    combos = sorted(((de + dx, ea, E, xa, X) for de, ea, E in entries for dx, xa, X in exits),
                    key=lambda c: c[0])
    for _, ea, E, xa, X in combos:
        for p in reeds_shepp_all(E, X, r):
            segs = [s for s in p.segments if s.length > 0.0] or [Line.from_pose(E, 0.0)]
            if ctx.clear(segs):
                return segs, ea, xa, "reverse"
    return None


# ----------------------------------------------------------------------------- recalculate

def _recalculate(ctx: _Ctx, smooth_map: TileMap, tiles: list[tuple[int, int]], hs: float | None,
                 hg: float | None, max_recalcs: int, search_options: dict | SearchOptions | None,
                 max_expansions: int | None = None) -> Work:
    tm = ctx.map
    opts, heuristic = search_options_for(search_options, ctx.width)
    invalid = np.zeros((tm.height, tm.width), dtype=np.uint8)
    searches = 1
    spent = 0
    choose = _first_clear(ctx)
    current = tiles
    note = ""
    for attempt in range(max_recalcs + 1):
        pts = smooth_points(smooth_map, tile_centres(current), ctx.width)
        if len(pts) == 1:
            path, limits, _ = _single_point(ctx, pts[0], hs, hg, "recalculate")
            legal = path_clear(tm, path, ctx.width)
            return Realized(path, legal, "recalculate", pts, [], _count_turns(path),
                            "" if legal else "no legal path: " + _describe_collision(ctx, path), searches)
        m = len(pts) - 1
        built = _Layout(pts, hs, hg, [ctx.r] * (m + 1), [False] * (m + 1), choose, ctx.can_reverse).build()
        bad = _colliding(ctx, built)
        yield PIECE_WORK * (len(pts) + len(built.pieces))
        if not bad and path_clear(tm, built.path, ctx.width):
            msg = f"legal after {searches - 1} recalculation(s)" if searches > 1 else ""
            return Realized(built.path, True, "recalculate", pts, [], _count_turns(built.path), msg, searches,
                            expanded=spent)
        if attempt == max_recalcs:
            note = f"no legal path: still colliding after {max_recalcs} recalculation(s); " + \
                _describe_collision(ctx, built.path)
            break
        move = _move_to_invalidate(ctx, current, pts, bad[0])
        if move is None:
            note = "no legal path: the colliding piece covers no single tile step to invalidate; " + \
                _describe_collision(ctx, built.path)
            break
        (x, y), bit = move
        invalid[y, x] |= np.uint8(1 << bit)
        left = None if max_expansions is None else max_expansions - spent
        if left is not None and left < 1:
            return Realized(built.path, False, "recalculate", pts, [], _count_turns(built.path),
                            "budget exhausted before a legal path was found", searches, True, spent)
        search = masked_search(tm, opts, heuristic, ctx.width, current[0], current[-1], ~invalid,
                               max_expansions=left)
        if search is None:
            note = (f"no legal path: the start {current[0]} or goal {current[-1]} is too close to a wall "
                    f"for a unit {ctx.width:g} wide")
            break
        searches += 1
        while search.status == Status.RUNNING:
            before = search.expanded
            search.step(4096)
            spent += search.expanded - before
            yield search.expanded - before
        if search.status == Status.BUDGET_EXHAUSTED:
            return Realized(built.path, False, "recalculate", pts, [], _count_turns(built.path),
                            "budget exhausted before a legal path was found", searches, True, spent)
        if search.status != Status.FOUND:
            note = (f"no legal path: after {searches - 1} recalculation(s) A* finds no route that avoids the "
                    f"{int(np.unpackbits(invalid).sum())} invalidated move(s) ({search.status})")
            break
        current = cast(list[tuple[int, int]], search.path)
    return Realized(built.path, False, "recalculate", pts, [], _count_turns(built.path), note, searches,
                    expanded=spent)


def _move_to_invalidate(ctx: _Ctx, tiles: list[tuple[int, int]], pts: list[tuple[float, float]],
                        piece: _Piece) -> tuple[tuple[int, int], int] | None:
    """The single tile step under ``piece`` nearest to where its body first overlaps a wall."""
    idx = _waypoint_indices(tiles, pts)
    m = len(pts) - 1
    if piece.kind == "line":
        lo, hi = idx[piece.first], idx[min(piece.first + 1, m)]
    else:
        lo, hi = idx[max(piece.first - 1, 0)], idx[min(piece.last + 1, m)]
    sub = Path(tuple(piece.segs))
    d = first_collision(ctx.map, sub, ctx.width)
    p = sub.pose_at(d if d is not None else 0.0)
    best, best_d = None, math.inf
    for k in range(lo, min(hi, len(tiles) - 1)):
        (x0, y0), (x1, y1) = tiles[k], tiles[k + 1]
        step = (x1 - x0, y1 - y0)
        if step not in _BIT:
            continue
        dd = _point_segment(p.x, p.y, x0 + 0.5, y0 + 0.5, x1 + 0.5, y1 + 0.5)
        if dd < best_d - 1e-12:
            best, best_d = ((x0, y0), _BIT[step]), dd
    return best


def _point_segment(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    u = 0.0 if n == 0.0 else min(1.0, max(0.0, ((px - ax) * dx + (py - ay) * dy) / n))
    return math.hypot(px - ax - u * dx, py - ay - u * dy)
