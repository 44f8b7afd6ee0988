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

The legs, corners, groups and candidate curves the methods build on are ``layout``'s; this
module holds the methods, their input checks and the re-searches.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Generator
from dataclasses import dataclass, field, fields, replace
from typing import Any, cast

import numpy as np

from ..collision.clearance import MOVES
from ..collision.swept import check_width, first_collision, path_clear
from ..collision.unit import unit_graph
from ..geometry.curves import dubins, reeds_shepp_all
from ..geometry.primitives import Line, Path, Pose, angle_diff, check_radius, finite
from ..maps.tilemap import TileMap
from ..outcomes import BadInput, Status
from ..search.engine import AStar
from ..search.options import SearchOptions
from .layout import (
    TIGHTER_LEVELS,
    Built,
    Ctx,
    Layout,
    Piece,
    Turn,
    along,
    count_turns,
    describe_collision,
    first_candidate,
    first_clear,
    polyline,
    single_point,
    speed_limits,
)
from .smoothing import smooth_points, tile_centres

__all__ = ["BACKUP_SLIDES", "TURN_METHODS", "Realized", "realize"]

TURN_METHODS = ("smooth", "ignore", "recalculate", "tighter", "backup")
#: "backup" slides the entry/exit poses of a colliding turn by these multiples of the radius.
BACKUP_SLIDES = (0.0, 0.5, 1.0, 2.0, 4.0)

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
    ctx = Ctx(tilemap, w, r, can_reverse)
    if method == "recalculate":
        return (yield from _recalculate(ctx, smooth_map, tiles, hs, hg, max_recalcs, search_options, max_expansions))
    pts = smooth_points(smooth_map, tile_centres(tiles), w)
    yield PIECE_WORK * len(pts)
    if method == "smooth":
        path = polyline(pts, hs, hg)
        legal = path_clear(tilemap, path, w)
        msg = "" if legal else "a leg of the smoothed path is not walkable for this width: " + \
            describe_collision(ctx, path)
        return Realized(path, legal, method, pts, [], count_turns(path), msg, 1)
    if len(pts) == 1:
        path, limits, note = single_point(ctx, pts[0], hs, hg, method)
        legal = path_clear(tilemap, path, w)
        msg = note if legal else "no legal path: " + (note or describe_collision(ctx, path))
        return Realized(path, legal, method, pts, limits, count_turns(path), msg, 1)
    m = len(pts) - 1
    if method == "ignore":
        built = Layout(pts, hs, hg, [r] * (m + 1), [False] * (m + 1), first_candidate).build()
        legal = path_clear(tilemap, built.path, w)
        msg = "" if legal else "blockers ignored: " + describe_collision(ctx, built.path)
        return Realized(built.path, legal, method, pts, [], count_turns(built.path), msg, 1)
    if method == "tighter":
        return (yield from _tighter(ctx, pts, hs, hg))
    return (yield from _backup(ctx, pts, hs, hg))


def _colliding(ctx: Ctx, built: Built) -> list[Piece]:
    return [p for p in built.pieces if p.segs and not ctx.clear(p.segs)]


def _leg_owner(built: Built, p: Piece) -> int | None:
    """For a colliding line: the start/goal corner whose arc made that leg, or None (a leg
    of the smoothed path itself)."""
    lay = built.layout
    if p.first == 0 and lay.start_segs is not None and lay.kind[0] == "start":
        return 0
    if p.first == lay.m - 1 and lay.goal_segs is not None and lay.kind[lay.m] == "goal":
        return lay.m
    return None


def _tighter(ctx: Ctx, pts: list[tuple[float, float]], hs: float | None, hg: float | None) -> Work:
    m = len(pts) - 1
    r = ctx.r
    floor = r / 2 ** TIGHTER_LEVELS
    rad = [r] * (m + 1)
    pivot = [False] * (m + 1)
    choose = first_clear(ctx)
    stuck: list[str] = []
    for _ in range((TIGHTER_LEVELS + 2) * (m + 1) + 1):
        built = Layout(pts, hs, hg, rad, pivot, choose, ctx.can_reverse).build()
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
    limits = speed_limits(built.pieces, r)
    notes = []
    tight = [e for e in limits if e[2] > 0.0]
    pivots = [e for e in limits if e[2] == 0.0]
    if tight:
        notes.append(f"{len(tight)} stretch(es) slowed for tighter turns (lowest factor "
                     f"{min(e[2] for e in tight):.3g})")
    if pivots:
        notes.append(f"{len(pivots)} pivot(s): the unit stops and turns on the spot")
    if not legal:
        notes.insert(0, "no legal path: " + ("; ".join(stuck) or describe_collision(ctx, built.path)))
    return Realized(built.path, legal, "tighter", pts, limits, count_turns(built.path), "; ".join(notes), 1)


def _backup(ctx: Ctx, pts: list[tuple[float, float]], hs: float | None, hg: float | None) -> Work:
    m = len(pts) - 1
    r = ctx.r
    choose = first_clear(ctx)
    rad = [r] * (m + 1)
    pivot = [False] * (m + 1)
    built = Layout(pts, hs, hg, rad, pivot, choose, ctx.can_reverse).build()
    bad = _colliding(ctx, built)
    yield PIECE_WORK * len(built.pieces)
    if not bad:
        return Realized(built.path, path_clear(ctx.map, built.path, ctx.width), "backup", pts, [],
                        count_turns(built.path), "", 1)
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
    lay = Layout(pts, hs, hg, rad, pivot, choose, ctx.can_reverse, shrink=False)
    turns = lay.turns()
    failed: list[str] = []
    for k, tr in enumerate(turns):
        forced = tr.kind == "pivot"
        if not forced and (not tr.segs or ctx.clear(tr.segs)):
            continue
        lo = along(turns[k - 1].exit) if k > 0 and tr.entry is not None else None
        hi = along(turns[k + 1].entry) if k + 1 < len(turns) and tr.exit is not None else None
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
        msg = "no legal path: " + ("; ".join(failed) or describe_collision(ctx, path))
    elif any(s.gear < 0 for s in path.segments):
        msg = f"reverses {sum(1 for s in path.segments if s.gear < 0)} segment(s) ({len(path.cusps())} cusp(s))"
    return Realized(path, legal, "backup", pts, [], count_turns(path), msg, 1)


def _reverse_turn(ctx: Ctx, lay: Layout, tr: Turn, lo: float | None,
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

def _recalculate(ctx: Ctx, smooth_map: TileMap, tiles: list[tuple[int, int]], hs: float | None,
                 hg: float | None, max_recalcs: int, search_options: dict | SearchOptions | None,
                 max_expansions: int | None = None) -> Work:
    tm = ctx.map
    opts, heuristic = search_options_for(search_options, ctx.width)
    invalid = np.zeros((tm.height, tm.width), dtype=np.uint8)
    searches = 1
    spent = 0
    choose = first_clear(ctx)
    current = tiles
    note = ""
    for attempt in range(max_recalcs + 1):
        pts = smooth_points(smooth_map, tile_centres(current), ctx.width)
        if len(pts) == 1:
            path, limits, _ = single_point(ctx, pts[0], hs, hg, "recalculate")
            legal = path_clear(tm, path, ctx.width)
            return Realized(path, legal, "recalculate", pts, [], count_turns(path),
                            "" if legal else "no legal path: " + describe_collision(ctx, path), searches)
        m = len(pts) - 1
        built = Layout(pts, hs, hg, [ctx.r] * (m + 1), [False] * (m + 1), choose, ctx.can_reverse).build()
        bad = _colliding(ctx, built)
        yield PIECE_WORK * (len(pts) + len(built.pieces))
        if not bad and path_clear(tm, built.path, ctx.width):
            msg = f"legal after {searches - 1} recalculation(s)" if searches > 1 else ""
            return Realized(built.path, True, "recalculate", pts, [], count_turns(built.path), msg, searches,
                            expanded=spent)
        if attempt == max_recalcs:
            note = f"no legal path: still colliding after {max_recalcs} recalculation(s); " + \
                describe_collision(ctx, built.path)
            break
        move = _move_to_invalidate(ctx, current, pts, bad[0])
        if move is None:
            note = "no legal path: the colliding piece covers no single tile step to invalidate; " + \
                describe_collision(ctx, built.path)
            break
        (x, y), bit = move
        invalid[y, x] |= np.uint8(1 << bit)
        left = None if max_expansions is None else max_expansions - spent
        if left is not None and left < 1:
            return Realized(built.path, False, "recalculate", pts, [], count_turns(built.path),
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
            return Realized(built.path, False, "recalculate", pts, [], count_turns(built.path),
                            "budget exhausted before a legal path was found", searches, True, spent)
        if search.status != Status.FOUND:
            note = (f"no legal path: after {searches - 1} recalculation(s) A* finds no route that avoids the "
                    f"{int(np.unpackbits(invalid).sum())} invalidated move(s) ({search.status})")
            break
        current = cast(list[tuple[int, int]], search.path)
    return Realized(built.path, False, "recalculate", pts, [], count_turns(built.path), note, searches,
                    expanded=spent)


def _move_to_invalidate(ctx: Ctx, tiles: list[tuple[int, int]], pts: list[tuple[float, float]],
                        piece: Piece) -> tuple[tuple[int, int], int] | None:
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


def _waypoint_indices(tiles: list[tuple[int, int]], pts: list[tuple[float, float]]) -> list[int]:
    """Index into ``tiles`` of each smoothed waypoint (a subsequence of the tile centres)."""
    out, k = [], 0
    for p in pts:
        while k < len(tiles) and (tiles[k][0] + 0.5, tiles[k][1] + 0.5) != p:
            k += 1
        out.append(min(k, len(tiles) - 1))
    return out
