"""The layout behind the legal-turn methods (``methods``): a smoothed polyline with start and
goal headings laid out as legs and corners, and each corner (or group of corners whose fillets
would overlap) turned into a piece of the path.

``Layout(pts, hs, hg, radii, pivots, choose)`` places one ``Turn`` per corner or group (a
fillet, Pinter's arc-then-line at the start and goal, a group's candidate curves -- the chain,
then Dubins words shortest first -- of which ``choose`` picks one, a pivot) and ``build()``
assembles them with the straight legs between into a ``Path`` and its ``Piece`` s. ``Ctx`` is
the exact swept-disc check of a chain of segments against the map for the unit. Also here:
the polyline of ``"smooth"``, the one-tile turn round (``single_point``), turn counting,
a collision's description and the speed limits of tightened turns (``methods`` explains the
conventions: coordinates, headings, speed-limit entries).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..collision.swept import body_reach, first_collision, hit_tables, primitive_hits, primitive_of
from ..geometry.curves import (
    arc_then_line,
    arc_then_line_candidates,
    dubins,
    dubins_all,
    dubins_candidates,
    reeds_shepp_all,
    reeds_shepp_candidates,
)
from ..geometry.primitives import Arc, Line, Path, Pose, angle_diff
from ..maps.tilemap import TileMap

__all__ = ["TIGHTER_LEVELS", "Built", "Ctx", "Layout", "Piece", "Turn", "along", "count_turns",
           "describe_collision", "first_candidate", "first_clear", "polyline", "single_point",
           "speed_factor", "speed_limits"]

#: "tighter" halves a colliding turn's radius at most this many times before pivoting.
TIGHTER_LEVELS = 6

_ANGLE_EPS = 1e-9  # heading changes up to this are no turn
_HAIRPIN = math.pi - 1e-6  # corners turning more than this get no fillet
_LEG_EPS = 1e-9


def speed_factor(turn_radius: float, radius: float) -> float:
    """The speed factor for a turn of ``turn_radius`` by a unit whose normal turning radius is
    ``radius``: ``sqrt(turn_radius / radius)`` (equal lateral acceleration), at most 1."""
    return min(1.0, math.sqrt(max(turn_radius, 0.0) / radius))


# ----------------------------------------------------------------------------- context

class Ctx:
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


def first_clear(ctx: Ctx) -> Callable[[Iterable[list]], list]:
    """The first candidate that clears the walls, else the first (candidates come lazily: those
    after the one taken are never built)."""
    def choose(cands: Iterable[list]) -> list:
        first = None
        for c in cands:
            if ctx.clear(c):
                return c
            if first is None:
                first = c
        assert first is not None  # a turn has at least one candidate
        return first
    return choose


def first_candidate(cands: Iterable[list]) -> list:
    return next(iter(cands))


# ----------------------------------------------------------------------------- layout

@dataclass
class Turn:
    """What the path does at corners ``first..last`` (waypoint indices): entry and exit are
    (leg, distance along the effective leg) or None (the start pose / the goal)."""

    first: int
    last: int
    kind: str  # "none", "start", "goal", "fillet", "group", "pivot", "reverse"
    entry: tuple[int, float] | None
    exit: tuple[int, float] | None
    segs: list
    radius: float


def along(anchor: tuple[int, float] | None) -> float:
    """The distance along its leg of an anchor between two turns (never the start or goal pose,
    which only the first turn's entry and the last turn's exit are)."""
    assert anchor is not None
    return anchor[1]


@dataclass
class Piece:
    kind: str  # "line" or a turn kind
    segs: list
    first: int  # corner range (turns) or leg index (lines)
    last: int
    radius: float
    d0: float = 0.0
    d1: float = 0.0


@dataclass
class Built:
    path: Path
    pieces: list[Piece]
    turns: list[Turn]
    layout: Layout


class Layout:
    """A polyline (the smoothed waypoints) with start and goal headings, laid out as legs and
    corners for given per-corner radii and pivots (corner 0 is the start, m the goal)."""

    def __init__(self, pts: list[tuple[float, float]], hs: float | None, hg: float | None,
                 rad: list[float], pivot: list[bool], choose: Callable[[Iterable[list]], list],
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
        if turned_s and m == 1 and hg is not None and not turned_g and not pivot[0]:
            # one leg, already facing the goal heading: the start's turn would swing it off that
            # heading, so the start, the leg and the goal are one curve with both ends fixed
            group_all = True
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

    def turns(self) -> list[Turn]:
        """One ``Turn`` per corner or group of corners, in order."""
        m, t, L = self.m, self.t, self.L
        out: list[Turn] = []
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

    def _single(self, i: int, entry: tuple[int, float] | None, exit_: tuple[int, float] | None) -> Turn:
        k = self.kind[i]
        m = self.m
        if k == "start":
            assert self.start_segs is not None  # the kind is "start" only when they were built
            return Turn(i, i, k, None, (0, 0.0), list(self.start_segs), self.rad[0])
        if k == "goal":
            assert self.goal_segs is not None  # the kind is "goal" only when they were built
            return Turn(i, i, k, (m - 1, self.L[m - 1]), None, list(self.goal_segs), self.rad[m])
        if k == "fillet":
            assert entry is not None  # fillets are inner corners, entered along a leg
            arc = Arc.from_pose(self.pose_on_leg(*entry), self.rad_eff[i], self.theta[i])
            return Turn(i, i, k, entry, exit_, [arc], self.rad_eff[i])
        if k == "pivot":
            if i == 0:
                return Turn(0, 0, k, None, (0, 0.0), [Line.from_pose(self.S, 0.0)], 0.0)
            if i == m:
                assert self.G is not None  # the goal pivots only to turn to a given heading
                return Turn(m, m, k, (m - 1, self.L[m - 1]), None, [Line.from_pose(self.G, 0.0)], 0.0)
            return Turn(i, i, k, entry, exit_, [], 0.0)
        # no turn: a straight joint (or the free end, or an unturned start)
        if i == 0:
            return Turn(0, 0, "none", None, (0, 0.0), [], math.inf)
        if i == m:
            return Turn(m, m, "none", (m - 1, self.L[m - 1]), None, [], math.inf)
        return Turn(i, i, "none", entry, exit_, [], math.inf)

    def _group(self, a: int, b: int, entry: tuple[int, float] | None, exit_: tuple[int, float] | None) -> Turn:
        m = self.m
        r = min(self.rad_eff[a:b + 1])
        E = self.anchor_pose(entry, False)
        assert E is not None  # a start anchor is a pose on a leg or the start pose
        X = self.anchor_pose(exit_, True) if (exit_ is not None or self.G is not None) else None
        free = self.pts[m] if X is None else None
        inner = [self.pts[k] for k in range(max(a, 1), min(b, m - 1) + 1)]
        cands = _group_candidates(E, X, free, inner, r, self.can_reverse)
        return Turn(a, b, "group", entry, exit_, self.choose(cands), r)

    # -- assembly
    def assemble(self, turns: list[Turn]) -> tuple[Path, list[Piece]]:
        pieces: list[Piece] = []
        for k, tr in enumerate(turns):
            if tr.segs:
                pieces.append(Piece(tr.kind, tr.segs, tr.first, tr.last, tr.radius))
            elif tr.kind == "pivot":
                pieces.append(Piece("pivot", [], tr.first, tr.last, 0.0))
            if k + 1 < len(turns):
                j = tr.last
                s0 = along(tr.exit)
                s1 = along(turns[k + 1].entry)
                if s1 - s0 > 1e-12:
                    seg = Line.from_pose(self.pose_on_leg(j, s0), s1 - s0)
                    pieces.append(Piece("line", [seg], j, j, math.inf))
        segs: list = [s for p in pieces for s in p.segs]
        if not segs:
            segs = [Line.from_pose(self.S, 0.0)]
        d = 0.0
        for p in pieces:
            p.d0 = d
            d += sum(s.length for s in p.segs)
            p.d1 = d
        return Path(tuple(segs)), pieces

    def build(self) -> Built:
        turns = self.turns()
        path, pieces = self.assemble(turns)
        return Built(path, pieces, turns, self)


def _split_arc_line(p: Path | None) -> tuple[list[Arc], Line | None]:
    """An arc-then-line path as (its arcs, its line or None)."""
    if p is None:
        return [], None
    arcs = [s for s in p.segments if isinstance(s, Arc) and s.length > 0.0]
    lines = [s for s in p.segments if isinstance(s, Line) and s.length > 0.0]
    return arcs, (lines[-1] if lines else None)


def _group_candidates(E: Pose, X: Pose | None, free: tuple[float, float] | None,
                      inner: list[tuple[float, float]], r: float, can_reverse: bool) -> Iterator[list]:
    """Curves from E through a group of corners to X (or to the free end point), preferred
    first: Pinter's chain of arc-then-line curves through every waypoint of the group, then the
    direct Dubins words shortest first (and Reeds-Shepp words if reversing is allowed). Each is
    built when asked for: ``first_clear`` mostly takes the chain, and the words cost more."""
    given = False
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
            given = True
            yield chain or [Line.from_pose(E, 0.0)]
    if X is not None:
        words = dubins_candidates(E, X, r)
        if can_reverse:
            words = sorted(words + reeds_shepp_candidates(E, X, r), key=lambda c: c.length)
        direct: Iterable[Path] = (c.path for c in words)
    else:
        direct = sorted((p for p in arc_then_line_candidates(E, free, r).values() if p is not None),
                        key=lambda p: p.length)
    for p in direct:
        given = True
        yield [s for s in p.segments if s.length > 0.0] or [Line.from_pose(E, 0.0)]
    if not given:  # pragma: no cover - dubins always reaches
        yield [Line.from_pose(E, 0.0)]


# ----------------------------------------------------------------------------- helpers

def count_turns(path: Path) -> int:
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


def single_point(ctx: Ctx, p: tuple[float, float], hs: float | None, hg: float | None,
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


def describe_collision(ctx: Ctx, path: Path) -> str:
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


def speed_limits(pieces: list[Piece], r: float) -> list[tuple[float, float, float]]:
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
