"""Curve builders: shortest turn-limited paths for a unit with turning radius r.

- ``arc_then_line``: Pinter's Figures 5-6, turn then go straight to a point;
- ``pinter_curves`` / ``shortest_pinter``: his four circle-tangent curves between two poses
  (Figures 9-11: arc, tangent line, arc);
- ``dubins`` / ``dubins_all``: the full forward-only Dubins set (those four plus the two
  arc-arc-arc words), the shortest of which is the shortest forward path;
- ``reeds_shepp`` / ``reeds_shepp_all``: the Reeds-Shepp set for units that can reverse;
- ``dubins_candidates`` / ``reeds_shepp_candidates``: those sets unbuilt (``Candidate``), for a
  caller that wants the first of them that clears the walls.

Conventions are those of ``geometry``: tiles, y down, heading 0 = east, pi/2 = south. A turn
sense ``+1`` sweeps the heading upwards (clockwise on screen), ``-1`` downwards
(counter-clockwise on screen). Path labels spell the planned word with one token per
segment, zero-length ones included: "S" straight, "+"/"-" arc by sweep sign, "'" after a
reversed segment (e.g. "+S-", "+-'+").

Internally each builder works in the start pose's frame scaled by 1/r: the start is at the
origin facing +x, the radius is 1, and a *plan* is a tuple of ``(steer, a)`` with steer 0 for
a straight, +-1 for the side of the turning centre (+1: at heading + pi/2), and ``a`` the
signed normalised length (negative: reversing; for an arc, the angle turned). Every plan is
checked by simulating it before it is returned, so a builder never hands back a path that
misses its target.
"""

from __future__ import annotations

import math
from typing import Any

from .primitives import TWO_PI, Arc, Line, Path, Pose, check_radius, normalize_angle, point_of

__all__ = [
    "Candidate", "arc_then_line", "arc_then_line_candidates", "dubins", "dubins_all", "dubins_candidates",
    "dubins_length", "pinter_curves", "reeds_shepp", "reeds_shepp_all", "reeds_shepp_candidates",
    "reeds_shepp_length",
    "shortest_pinter", "turning_center",
]

_PI = math.pi
_HALF_PI = 0.5 * math.pi
_TINY = 1e-12  # normalised segment lengths up to this are dropped from built paths
_SNAP = 1e-9  # arc angles within this of a full turn are taken as zero
_ZERO = 1e-12  # sign tolerance in the Reeds-Shepp formulas
_Plan = tuple[tuple[int, float], ...]


# ----------------------------------------------------------------------------- helpers

def _mod2pi(a: float) -> float:
    """``a`` wrapped into [0, 2 pi), with values a hair below 2 pi snapped to 0."""
    a %= TWO_PI
    return 0.0 if a > TWO_PI - _SNAP else a


def _frame(p0: Pose, p1: Pose, r: float) -> tuple[float, float, float]:
    """``p1`` seen from ``p0``: rotated into p0's heading and scaled by 1 / r."""
    dx, dy = (p1.x - p0.x) / r, (p1.y - p0.y) / r
    c, s = math.cos(p0.heading), math.sin(p0.heading)
    return c * dx + s * dy, c * dy - s * dx, normalize_angle(p1.heading - p0.heading)


def _simulate(plan: _Plan) -> tuple[float, float, float]:
    """Where a plan leads from the origin (facing +x, radius 1)."""
    x = y = h = 0.0
    for steer, a in plan:
        if steer == 0:
            x += a * math.cos(h)
            y += a * math.sin(h)
        else:
            nh = h + steer * a
            x += steer * (math.sin(nh) - math.sin(h))
            y -= steer * (math.cos(nh) - math.cos(h))
            h = nh
    return x, y, h


def _reaches(plan: _Plan, x: float, y: float, phi: float) -> bool:
    ex, ey, eh = _simulate(plan)
    tol = 1e-8 * max(1.0, abs(x), abs(y))
    return math.hypot(ex - x, ey - y) <= tol and abs(normalize_angle(eh - phi)) <= 1e-8


def _plan_length(plan: _Plan) -> float:
    """Normalised length of a plan as built: segments ``_build`` drops do not count."""
    return sum(abs(a) for _, a in plan if abs(a) > _TINY)


def _label(plan: _Plan) -> str:
    out = []
    for steer, a in plan:
        back = a < 0.0
        out.append("S" if steer == 0 else ("+" if (steer > 0) != back else "-"))
        if back:
            out.append("'")
    return "".join(out)


def _build(p0: Pose, r: float, plan: _Plan) -> Path:
    """The world-space path of a plan started at ``p0``, zero-length segments dropped."""
    segs: list[Line | Arc] = []
    pose = p0
    for steer, a in plan:
        if abs(a) <= _TINY:
            continue
        gear = 1 if a > 0.0 else -1
        if steer == 0:
            seg: Line | Arc = Line.from_pose(pose, abs(a) * r, gear)
        else:
            seg = Arc.from_pose(pose, r, steer * a, gear)
        segs.append(seg)
        pose = seg.end_pose()
    if not segs:
        segs.append(Line.from_pose(p0, 0.0))
    return Path._chain(tuple(segs), _label(plan))


class Candidate:
    """A curve known by its plan and its length, built only when ``path`` is asked for: a caller
    that takes the first clear one of several (a turn's candidates) builds few of them.
    ``length`` is the built path's length to the last bit (the same sum in the same order)."""

    __slots__ = ("_p0", "_r", "_plan", "length", "_path")

    def __init__(self, p0: Pose, r: float, plan: _Plan) -> None:
        self._p0, self._r, self._plan = p0, r, plan
        self._path: Path | None = None
        total = 0.0
        for _, a in plan:
            if abs(a) > _TINY:
                total += abs(a) * r
        self.length = total

    @property
    def path(self) -> Path:
        if self._path is None:
            self._path = _build(self._p0, self._r, self._plan)
        return self._path


def _inputs(p0: Any, p1: Any, r: Any) -> tuple[Pose, Pose, float]:
    return Pose.of(p0, "p0"), Pose.of(p1, "p1"), check_radius(r)


def turning_center(pose: Any, r: float, turn: int) -> tuple[float, float]:
    """Centre of the circle a unit at ``pose`` drives on when turning forward with sense
    ``turn`` (+1 clockwise on screen, at heading + pi/2; -1 counter-clockwise)."""
    pose, r = Pose.of(pose), check_radius(r)
    if turn not in (1, -1):
        raise ValueError(f"turn must be +1 or -1, got {turn!r}")
    return pose.x - turn * r * math.sin(pose.heading), pose.y + turn * r * math.cos(pose.heading)


# ----------------------------------------------------------------------------- arc then line

def arc_then_line_candidates(pose: Any, point: Any, r: float) -> dict[int, Path | None]:
    """Pinter's Figure 5 for each turn sense: ``{+1: path, -1: path}``.

    Each path turns forward on the circle of that sense until the heading points at
    ``point``, then goes straight to it (Figure 6). A sense is ``None`` when the point lies
    strictly inside its turning circle: no turn-then-straight path reaches it that way.
    """
    pose, r = Pose.of(pose), check_radius(r)
    tx, ty = point_of(point)
    out: dict[int, Path | None] = {}
    wx, wy = tx - pose.x, ty - pose.y  # target seen from the unit
    for turn in (1, -1):
        nx, ny = -turn * math.sin(pose.heading), turn * math.cos(pose.heading)  # towards centre
        # Figure 6: d^2 = h^2 - r^2 with h the centre-to-target distance, written so that it
        # does not cancel when the target is close to the unit
        d2 = wx * wx + wy * wy - 2.0 * r * (wx * nx + wy * ny)
        if d2 < -1e-12 * r * r:
            out[turn] = None  # strictly inside this turning circle
            continue
        d = math.sqrt(max(0.0, d2))
        vx, vy = wx - r * nx, wy - r * ny  # centre to target
        leave = math.atan2(vy, vx) - turn * math.atan2(d, r) + turn * _HALF_PI  # tangent heading
        sweep = _mod2pi(turn * (leave - pose.heading))
        out[turn] = _build(pose, r, ((turn, sweep), (0, d / r)))
    return out


def arc_then_line(pose: Any, point: Any, r: float) -> Path | None:
    """The shorter of Pinter's two turn-then-straight paths from ``pose`` to ``point``.

    Both senses are tried (see ``arc_then_line_candidates``). A sense whose turning circle
    strictly contains the point cannot reach it (Pinter's "h < r") and is skipped, so a point
    close beside the unit is reached the long way round the other circle. ``None`` means
    neither sense reaches the point; as the two circles touch only at the unit, that does not
    happen for valid input, but callers should still handle it. A point straight ahead gives
    a single line, the unit's own position an empty (zero-length) line.
    """
    found = [p for p in arc_then_line_candidates(pose, point, r).values() if p is not None]
    return min(found, key=lambda p: p.length) if found else None


# ----------------------------------------------------------------------------- Dubins

def _csc_same(x: float, y: float, phi: float, k: int) -> _Plan:
    """Turn k, straight, turn k: the outer tangent (Pinter's Figure 10)."""
    vx, vy = x - k * math.sin(phi), y + k * math.cos(phi) - k  # centre to centre
    d, th = math.hypot(vx, vy), math.atan2(vy, vx)
    t, q = _mod2pi(k * th), _mod2pi(k * (phi - th))
    return ((k, t), (0, d), (k, q))


def _csc_cross(x: float, y: float, phi: float, k: int) -> _Plan | None:
    """Turn k, straight, turn -k: the inner tangent (Figure 11); None if the circles meet."""
    vx, vy = x + k * math.sin(phi), y - k * math.cos(phi) - k
    d2 = vx * vx + vy * vy
    if d2 < 4.0 - 1e-12:
        return None
    line = math.sqrt(max(0.0, d2 - 4.0))
    th = math.atan2(vy, vx) + k * math.atan2(2.0, line)
    t, q = _mod2pi(k * th), _mod2pi(-k * (phi - th))
    return ((k, t), (0, line), (-k, q))


def _ccc(x: float, y: float, phi: float, k: int) -> _Plan | None:
    """Turn k, turn -k, turn k on three mutually tangent circles; None if too far apart.

    Both placements of the middle circle are tried and the shorter kept.
    """
    ex, ey = x - k * math.sin(phi), y + k * math.cos(phi)  # centre of the last circle
    vx, vy = ex, ey - k
    d = math.hypot(vx, vy)
    if d > 4.0:
        return None
    base, off = math.atan2(vy, vx), math.acos(min(1.0, d / 4.0))
    best = None
    for g in (base + off, base - off):
        mx, my = 2.0 * math.cos(g), k + 2.0 * math.sin(g)  # centre of the middle circle
        ha = g + k * _HALF_PI  # heading at the first joint
        hb = math.atan2(my - ey, mx - ex) + k * _HALF_PI  # heading at the second joint
        t, p, q = _mod2pi(k * ha), _mod2pi(-k * (hb - ha)), _mod2pi(k * (phi - hb))
        if best is None or t + p + q < _plan_length(best):
            best = ((k, t), (-k, p), (k, q))
    return best


def _pinter_plans(x: float, y: float, phi: float) -> list[_Plan]:
    out = [_csc_same(x, y, phi, 1), _csc_same(x, y, phi, -1)]
    out += [c for c in (_csc_cross(x, y, phi, 1), _csc_cross(x, y, phi, -1)) if c is not None]
    return out


def _dubins_plans(x: float, y: float, phi: float) -> list[_Plan]:
    out = _pinter_plans(x, y, phi)
    out += [c for c in (_ccc(x, y, phi, 1), _ccc(x, y, phi, -1)) if c is not None]
    return out


def _shortest(plans: list[_Plan], x: float, y: float, phi: float) -> _Plan:
    for plan in sorted(plans, key=_plan_length):
        if _reaches(plan, x, y, phi):
            return plan
    raise RuntimeError(f"no curve reaches ({x}, {y}, {phi}); this is a bug")  # pragma: no cover


def pinter_curves(p0: Any, p1: Any, r: float) -> list[Path]:
    """Pinter's circle-tangent curves (Figure 9) from pose ``p0`` to pose ``p1``.

    In this order: "+S+" and "-S-" (same sense, outer tangents, always present), then "+S-"
    and "-S+" (opposite senses, inner tangents, left out when the two circles overlap).
    """
    p0, p1, r = _inputs(p0, p1, r)
    x, y, phi = _frame(p0, p1, r)
    return [_build(p0, r, plan) for plan in _pinter_plans(x, y, phi)
            if _reaches(plan, x, y, phi)]


def shortest_pinter(p0: Any, p1: Any, r: float) -> Path:
    """The shortest of Pinter's four arc-line-arc curves (what his Directional A* uses)."""
    p0, p1, r = _inputs(p0, p1, r)
    x, y, phi = _frame(p0, p1, r)
    return _build(p0, r, _shortest(_pinter_plans(x, y, phi), x, y, phi))


def dubins_all(p0: Any, p1: Any, r: float) -> list[Path]:
    """Every feasible Dubins word from ``p0`` to ``p1`` (up to six: "+S+", "-S-", "+S-",
    "-S+", "+-+", "-+-"), each its shortest variant, sorted shortest first."""
    return [c.path for c in dubins_candidates(p0, p1, r)]


def dubins_candidates(p0: Any, p1: Any, r: float) -> list[Candidate]:
    """``dubins_all`` in the same order, each built only when its ``path`` is asked for."""
    p0, p1, r = _inputs(p0, p1, r)
    x, y, phi = _frame(p0, p1, r)
    plans = sorted(_dubins_plans(x, y, phi), key=_plan_length)
    return [Candidate(p0, r, plan) for plan in plans if _reaches(plan, x, y, phi)]


def dubins(p0: Any, p1: Any, r: float) -> Path:
    """The shortest forward-only path from ``p0`` to ``p1`` with turning radius ``r``."""
    p0, p1, r = _inputs(p0, p1, r)
    x, y, phi = _frame(p0, p1, r)
    return _build(p0, r, _shortest(_dubins_plans(x, y, phi), x, y, phi))


def dubins_length(p0: Any, p1: Any, r: float) -> float:
    """Length of ``dubins(p0, p1, r)`` without building it (for heuristic tables)."""
    p0, p1, r = _inputs(p0, p1, r)
    x, y, phi = _frame(p0, p1, r)
    return _plan_length(_shortest(_dubins_plans(x, y, phi), x, y, phi)) * r


# ----------------------------------------------------------------------------- Reeds-Shepp
# Base formulas of Reeds & Shepp (1990), section 8, for a target (x, y, phi) in the unit
# frame. Each returns a plan, or None when its word cannot reach the target. "p"/"m" in the
# names say forward/backward (the paper's + and -), L = steer +1, R = steer -1.

def _wrap(a: float) -> float:
    return normalize_angle(a)


def _polar(x: float, y: float) -> tuple[float, float]:
    return math.hypot(x, y), math.atan2(y, x)


def _tau_omega(u: float, v: float, xi: float, eta: float, phi: float) -> tuple[float, float]:
    delta = _wrap(u - v)
    a = math.sin(u) - math.sin(delta)
    b = math.cos(u) - math.cos(delta) - 1.0
    t1 = math.atan2(eta * a - xi * b, xi * a + eta * b)
    t2 = 2.0 * (math.cos(delta) - math.cos(v) - math.cos(u)) + 3.0
    tau = _wrap(t1 + _PI) if t2 < 0.0 else _wrap(t1)
    return tau, _wrap(tau - u + v - phi)


def _lp_sp_lp(x: float, y: float, phi: float) -> _Plan | None:  # 8.1
    u, t = _polar(x - math.sin(phi), y - 1.0 + math.cos(phi))
    v = _wrap(phi - t)
    if t >= -_ZERO and v >= -_ZERO:
        return ((1, t), (0, u), (1, v))
    return None


def _lp_sp_rp(x: float, y: float, phi: float) -> _Plan | None:  # 8.2
    u1, t1 = _polar(x + math.sin(phi), y - 1.0 - math.cos(phi))
    if u1 * u1 < 4.0:
        return None
    u = math.sqrt(u1 * u1 - 4.0)
    t = _wrap(t1 + math.atan2(2.0, u))
    v = _wrap(t - phi)
    if t >= -_ZERO and v >= -_ZERO:
        return ((1, t), (0, u), (-1, v))
    return None


def _lp_rm_l(x: float, y: float, phi: float) -> _Plan | None:  # 8.3 / 8.4 (C|C|C, C|CC)
    rho, theta = _polar(x - math.sin(phi), y - 1.0 + math.cos(phi))
    if rho > 4.0:
        return None
    u = -2.0 * math.asin(0.25 * rho)
    t = _wrap(theta + 0.5 * u + _PI)
    v = _wrap(phi - t + u)
    if t >= -_ZERO and u <= _ZERO:
        return ((1, t), (-1, u), (1, v))
    return None


def _lp_rup_lum_rm(x: float, y: float, phi: float) -> _Plan | None:  # 8.7 (CC|CC)
    xi, eta = x + math.sin(phi), y - 1.0 - math.cos(phi)
    rho = 0.25 * (2.0 + math.hypot(xi, eta))
    if rho > 1.0:
        return None
    u = math.acos(rho)
    t, v = _tau_omega(u, -u, xi, eta, phi)
    if t >= -_ZERO and v <= _ZERO:
        return ((1, t), (-1, u), (1, -u), (-1, v))
    return None


def _lp_rum_lum_rp(x: float, y: float, phi: float) -> _Plan | None:  # 8.8 (C|CC|C)
    xi, eta = x + math.sin(phi), y - 1.0 - math.cos(phi)
    rho = (20.0 - xi * xi - eta * eta) / 16.0
    if not 0.0 <= rho <= 1.0:
        return None
    u = -math.acos(rho)
    if u < -_HALF_PI:
        return None
    t, v = _tau_omega(u, u, xi, eta, phi)
    if t >= -_ZERO and v >= -_ZERO:
        return ((1, t), (-1, u), (1, u), (-1, v))
    return None


def _lp_rm_sm_lm(x: float, y: float, phi: float) -> _Plan | None:  # 8.9 (C|C[pi/2]SC)
    rho, theta = _polar(x - math.sin(phi), y - 1.0 + math.cos(phi))
    if rho < 2.0:
        return None
    w = math.sqrt(rho * rho - 4.0)
    u = 2.0 - w
    t = _wrap(theta + math.atan2(w, -2.0))
    v = _wrap(phi - _HALF_PI - t)
    if t >= -_ZERO and u <= _ZERO and v <= _ZERO:
        return ((1, t), (-1, -_HALF_PI), (0, u), (1, v))
    return None


def _lp_rm_sm_rm(x: float, y: float, phi: float) -> _Plan | None:  # 8.10 (C|C[pi/2]SC)
    xi, eta = x + math.sin(phi), y - 1.0 - math.cos(phi)
    rho, theta = _polar(-eta, xi)
    if rho < 2.0:
        return None
    t, u = theta, 2.0 - rho
    v = _wrap(t + _HALF_PI - phi)
    if t >= -_ZERO and u <= _ZERO and v <= _ZERO:
        return ((1, t), (-1, -_HALF_PI), (0, u), (-1, v))
    return None


def _lp_rm_s_lm_rp(x: float, y: float, phi: float) -> _Plan | None:  # 8.11 (C|C[pi/2]SC[pi/2]|C)
    xi, eta = x + math.sin(phi), y - 1.0 - math.cos(phi)
    rho = math.hypot(xi, eta)
    if rho < 2.0:
        return None
    u = 4.0 - math.sqrt(rho * rho - 4.0)
    if u > _ZERO:
        return None
    t = _wrap(math.atan2((4.0 - u) * xi - 2.0 * eta, -2.0 * xi + (u - 4.0) * eta))
    v = _wrap(t - phi)
    if t >= -_ZERO and v >= -_ZERO:
        return ((1, t), (-1, -_HALF_PI), (0, u), (1, -_HALF_PI), (-1, v))
    return None


_RS_BASES = (_lp_sp_lp, _lp_sp_rp, _lp_rm_l, _lp_rup_lum_rm, _lp_rum_lum_rp, _lp_rm_sm_lm,
             _lp_rm_sm_rm, _lp_rm_s_lm_rp)


def _rs_plans(x: float, y: float, phi: float) -> list[_Plan]:
    """All base words under the paper's symmetries.

    timeflip (drive every segment the other way): target (-x, y, -phi), lengths negated;
    reflect (mirror the steering): target (x, -y, -phi), steers negated;
    backwards (run the word in reverse order): target (x cos phi + y sin phi,
    x sin phi - y cos phi, phi), segment order reversed. All 8 combinations of each base are
    tried; duplicates are harmless.
    """
    c, s = math.cos(phi), math.sin(phi)
    out: list[_Plan] = []
    for backwards, (bx, by) in ((False, (x, y)), (True, (x * c + y * s, x * s - y * c))):
        for flip_time in (False, True):
            for flip_steer in (False, True):
                qx = -bx if flip_time else bx
                qy = -by if flip_steer else by
                qphi = -phi if flip_time != flip_steer else phi
                gs = -1.0 if flip_time else 1.0
                ss = -1 if flip_steer else 1
                for base in _RS_BASES:
                    plan = base(qx, qy, qphi)
                    if plan is None:
                        continue
                    plan = tuple((st * ss, a * gs) for st, a in plan)
                    out.append(plan[::-1] if backwards else plan)
    return out


def _rs_sorted(p0: Pose, p1: Pose, r: float) -> list[_Plan]:
    """Reeds-Shepp candidates that reach p1, shortest first. The forward Dubins words are
    Reeds-Shepp words too; they are included because their closed forms stay exact where the
    Reeds-Shepp ones lose precision (poses a hair apart)."""
    x, y, phi = _frame(p0, p1, r)
    good = [p for p in _rs_plans(x, y, phi) + _dubins_plans(x, y, phi) if _reaches(p, x, y, phi)]
    good.sort(key=_plan_length)
    return good


def reeds_shepp(p0: Any, p1: Any, r: float) -> Path:
    """The shortest path from ``p0`` to ``p1`` for a unit that may reverse (Reeds-Shepp).

    Segments carry ``gear`` +1 (forward) or -1 (reversing, still facing its heading).
    """
    p0, p1, r = _inputs(p0, p1, r)
    plans = _rs_sorted(p0, p1, r)
    if not plans:  # pragma: no cover - the word families cover every pair of poses
        raise RuntimeError(f"no Reeds-Shepp word reaches {p1} from {p0}; this is a bug")
    return _build(p0, r, plans[0])


def reeds_shepp_all(p0: Any, p1: Any, r: float) -> list[Path]:
    """Every distinct Reeds-Shepp candidate that reaches ``p1``, sorted shortest first."""
    return [c.path for c in reeds_shepp_candidates(p0, p1, r)]


def reeds_shepp_candidates(p0: Any, p1: Any, r: float) -> list[Candidate]:
    """``reeds_shepp_all`` in the same order, each built only when its ``path`` is asked for."""
    p0, p1, r = _inputs(p0, p1, r)
    seen, out = set(), []
    for plan in _rs_sorted(p0, p1, r):
        key = tuple((st, round(a, 9)) for st, a in plan if abs(a) > _TINY)
        if key not in seen:
            seen.add(key)
            out.append(Candidate(p0, r, plan))
    return out


def reeds_shepp_length(p0: Any, p1: Any, r: float) -> float:
    """Length of ``reeds_shepp(p0, p1, r)`` without building it."""
    p0, p1, r = _inputs(p0, p1, r)
    plans = _rs_sorted(p0, p1, r)
    if not plans:  # pragma: no cover
        raise RuntimeError(f"no Reeds-Shepp word reaches {p1} from {p0}; this is a bug")
    return _plan_length(plans[0]) * r
