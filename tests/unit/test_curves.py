"""Curve builders: arc_then_line, Pinter's four curves, Dubins, Reeds-Shepp.

Optimality is checked against brute force: curves made of arbitrary segment sequences (an
exhaustive grid of segment lengths, and random ones) are driven by an independent simulator,
and no builder may return a longer path to where such a curve ends. Every built path must end
on its target, be continuous at every joint and never turn tighter than the radius.
Screen conventions: y down, heading 0 = east, pi/2 = south; a + turn is clockwise on screen.
"""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from arcstar.geometry.curves import (
    arc_then_line,
    arc_then_line_candidates,
    dubins,
    dubins_all,
    dubins_length,
    pinter_curves,
    reeds_shepp,
    reeds_shepp_all,
    reeds_shepp_length,
    shortest_pinter,
    turning_center,
)
from arcstar.geometry.primitives import Arc, Line, Path, Pose, angle_diff

TAU = 2 * math.pi


# ----------------------------------------------------------------------------- reference

def drive(pose: tuple[float, float, float], moves, r: float) -> tuple[float, float, float]:
    """Independent simulator. moves: (steer, distance) with steer 0 (straight) or +-1 (centre
    at heading +- pi/2) and a signed distance (negative = reversing). Returns the end pose."""
    x, y, h = pose
    for steer, dist in moves:
        if steer == 0:
            x, y = x + dist * math.cos(h), y + dist * math.sin(h)
            continue
        side = h + steer * math.pi / 2  # direction of the turning centre
        cx, cy = x + r * math.cos(side), y + r * math.sin(side)
        turned = steer * dist / r
        a = math.atan2(y - cy, x - cx) + turned
        x, y, h = cx + r * math.cos(a), cy + r * math.sin(a), h + turned
    return x, y, h


def seg_point(seg, s: float) -> tuple[float, float]:
    if isinstance(seg, Line):
        return (seg.x + seg.gear * s * math.cos(seg.heading),
                seg.y + seg.gear * s * math.sin(seg.heading))
    cx, cy = seg.center
    a = math.atan2(seg.y - cy, seg.x - cx) + (seg.sweep * s / seg.length if seg.length else 0.0)
    return cx + seg.radius * math.cos(a), cy + seg.radius * math.sin(a)


def dense_length(path: Path, n: int = 600) -> float:
    total = 0.0
    for seg in path.segments:
        pts = [seg_point(seg, seg.length * k / n) for k in range(n + 1)]
        total += sum(math.dist(a, b) for a, b in zip(pts, pts[1:], strict=False))
    return total


def check_path(path: Path, p0: Pose, p1: Pose | None, r: float, start_tol: float = 1e-9) -> None:
    """Starts at p0 (within ``start_tol``), ends at p1 (within 1e-6), continuous joints, no arc
    tighter than r, honest length."""
    assert path.start_pose().is_close(p0, start_tol, start_tol)
    if p1 is not None:
        end = path.end_pose()
        assert end.distance_to(p1) <= 1e-6, (end, p1)
        assert abs(angle_diff(end.heading, p1.heading)) <= 1e-6, (end, p1)
    for a, b in zip(path.segments, path.segments[1:], strict=False):
        e = a.end_pose()
        assert math.hypot(e.x - b.x, e.y - b.y) <= 1e-9 * max(1.0, abs(b.x), abs(b.y))
        assert abs(angle_diff(e.heading, b.heading)) <= 1e-9
    for seg in path.segments:
        if isinstance(seg, Arc):
            assert seg.radius >= r - 1e-9
    assert path.max_curvature() <= 1.0 / r + 1e-9
    assert path.length == pytest.approx(sum(s.length for s in path.segments))


coord = st.floats(-20, 20, allow_nan=False)
poses = st.builds(Pose, coord, coord, st.floats(-10, 10))
radii = st.floats(0.1, 5.0)


# ----------------------------------------------------------------------------- arc then line

def test_turning_centres_follow_the_screen_convention():
    assert turning_center(Pose(0, 0, 0), 2.0, +1) == pytest.approx((0.0, 2.0))  # south: cw
    assert turning_center(Pose(0, 0, 0), 2.0, -1) == pytest.approx((0.0, -2.0))
    with pytest.raises(ValueError):
        turning_center(Pose(0, 0, 0), 2.0, 0)


@pytest.mark.parametrize("target, sense", [((3.0, 2.0), "+"), ((3.0, -2.0), "-"),
                                           ((-2.0, 3.0), "+"), ((-2.0, -3.0), "-")])
def test_arc_then_line_tries_both_senses(target, sense):
    pose, r = Pose(0, 0, 0), 1.0
    both = arc_then_line_candidates(pose, target, r)
    assert set(both) == {1, -1} and all(p is not None for p in both.values())
    best = arc_then_line(pose, target, r)
    assert best.length == pytest.approx(min(p.length for p in both.values()))
    assert best.label == sense + "S"
    for turn, path in both.items():
        arc, line = path.segments
        assert isinstance(arc, Arc) and isinstance(line, Line)
        assert arc.sweep * turn > 0 and arc.radius == r and arc.gear == 1
        check_path(path, pose, None, r)
        assert path.end_pose().distance_to(target) < 1e-9
        # at the tangent point the heading points straight at the target
        q = arc.end_pose()
        vx, vy = target[0] - q.x, target[1] - q.y
        assert math.cos(q.heading) * vy - math.sin(q.heading) * vx == pytest.approx(0, abs=1e-9)
        assert math.cos(q.heading) * vx + math.sin(q.heading) * vy == pytest.approx(line.length)
        # Pinter's Figure 6: d = sqrt(h^2 - r^2), h from the circle's centre to the target
        cx, cy = turning_center(pose, r, turn)
        assert line.length == pytest.approx(math.sqrt(math.dist((cx, cy), target) ** 2 - r * r))


def test_arc_then_line_point_inside_a_turning_circle_is_unreachable_that_way():
    pose, r = Pose(0, 0, 0), 2.0
    inside_cw = (0.5, 1.0)  # inside the clockwise circle, centred (0, 2)
    both = arc_then_line_candidates(pose, inside_cw, r)
    assert both[1] is None
    other = both[-1]
    assert other is not None and abs(other.segments[0].sweep) > math.pi  # the long way round
    assert arc_then_line(pose, inside_cw, r) == other
    # the two circles touch only at the unit, so no point is inside both: one sense remains
    for x, y in itertools.product([-1.5, -0.5, 0.3, 1.0, 1.9], repeat=2):
        assert arc_then_line(pose, (x, y), r) is not None


def test_arc_then_line_edge_cases():
    assert arc_then_line(Pose(1, 1, 0), (5, 1), 1.0).word == "S"  # straight ahead
    on_circle = arc_then_line(Pose(0, 0, 0), (1.0, 1.0), 1.0)  # on the cw circle: arc only
    assert on_circle.word == "+" and on_circle.length == pytest.approx(math.pi / 2)
    assert arc_then_line(Pose(2, 3, 1), (2, 3), 1.0).length == 0.0
    for bad in [((0, 0, 0), (1, 1), 0), ((0, 0, 0), (1, math.nan), 1), ((0, 0, "n"), (1, 1), 1),
                ((0, 0, 0), "xy", 1), ((0, 0, 0), (1, 1), -2)]:
        with pytest.raises(ValueError):
            arc_then_line(*bad)


@given(pose=poses, tx=coord, ty=coord, r=radii)
@settings(max_examples=150, deadline=None)
def test_arc_then_line_properties(pose, tx, ty, r):
    path = arc_then_line(pose, (tx, ty), r)
    assert path is not None
    check_path(path, pose, None, r)
    assert path.end_pose().distance_to((tx, ty)) <= 1e-6
    assert path.length >= math.dist(pose.xy, (tx, ty)) - 1e-9


# ----------------------------------------------------------------------------- Pinter, Dubins

def test_pinter_four_curves_labels_and_geometry():
    p0, p1, r = Pose(0, 0, 0), Pose(10, 4, math.pi / 2), 1.5
    curves = pinter_curves(p0, p1, r)
    assert [c.label for c in curves] == ["+S+", "-S-", "+S-", "-S+"]
    for c in curves:
        check_path(c, p0, p1, r)
        assert len(c.segments) == 3 and isinstance(c.segments[1], Line)
    # Figure 10: same-sense tangent is as long as the line between the circle centres
    same = curves[0]
    c1, c2 = turning_center(p0, r, 1), turning_center(p1, r, 1)
    assert same.segments[1].length == pytest.approx(math.dist(c1, c2))
    # Figure 11: the inner tangent has length sqrt(D^2 - (2r)^2)
    cross = curves[2]
    c2 = turning_center(p1, r, -1)
    assert cross.segments[1].length == pytest.approx(math.sqrt(math.dist(c1, c2) ** 2 - 4 * r * r))
    assert shortest_pinter(p0, p1, r).length == pytest.approx(min(c.length for c in curves))
    # overlapping circles (facing each other, close): the inner tangents do not exist
    assert [c.label for c in pinter_curves(Pose(0, 0, 0), Pose(0.2, 0, math.pi), 1.0)] == [
        "+S+", "-S-"]


def test_dubins_exhaustive_grid_finds_no_shorter_curve():
    """Every forward curve of up to 4 segments on a grid of lengths ends somewhere; Dubins from
    the start to there is never longer than that curve."""
    p0, r = (1.5, -2.0, 0.7), 1.3
    arcs = [(s, k * math.pi / 4 * r) for s in (1, -1) for k in range(1, 8)]
    lines = [(0, d * r) for d in (0.5, 1.0, 2.0, 3.5)]
    options = arcs + lines
    count = 0
    for n in (1, 2, 3):
        for moves in itertools.product(options, repeat=n):
            end = drive(p0, moves, r)
            length = sum(d for _, d in moves)
            assert dubins_length(p0, end, r) <= length + 1e-7, (moves, end)
            count += 1
    rng = random.Random(4)
    for moves in (rng.sample(options, 4) for _ in range(3000)):
        end = drive(p0, moves, r)
        assert dubins_length(p0, end, r) <= sum(d for _, d in moves) + 1e-7, moves
    assert count > 4000


def test_dubins_random_long_curves_are_never_shorter():
    rng = random.Random(11)
    for _ in range(1500):
        r = rng.uniform(0.3, 3.0)
        p0 = (rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(-4, 4))
        moves = [(rng.choice((-1, 0, 1)), rng.uniform(0, 2 * math.pi * r))
                 for _ in range(rng.randint(1, 5))]
        end = drive(p0, moves, r)
        path = dubins(p0, end, r)
        assert path.length <= sum(d for _, d in moves) + 1e-7
        check_path(path, Pose(*p0), Pose(*end), r)


def test_dubins_beats_pinter_on_some_close_pose():
    """The arc-arc-arc words matter: for some close poses they are strictly shorter."""
    found = None
    vals = [-1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5]
    for x, y in itertools.product(vals, vals):
        for k in range(8):
            p1 = Pose(x, y, k * math.pi / 4)
            best, four = dubins(Pose(0, 0, 0), p1, 1.0), shortest_pinter(Pose(0, 0, 0), p1, 1.0)
            assert best.length <= four.length + 1e-9
            if found is None and best.length < four.length - 1e-3:
                found = (p1, best)
    assert found is not None
    p1, best = found
    assert best.label in ("+-+", "-+-")
    check_path(best, Pose(0, 0, 0), p1, 1.0)


def test_dubins_known_cases():
    assert dubins((0, 0, 0), (5, 0, 0), 1.0).length == pytest.approx(5.0)
    assert dubins((0, 0, 0), (0, 0, 0), 1.0).length == 0.0
    u_turn = dubins((0, 0, 0), (0, 2, math.pi), 1.0)  # half a clockwise circle (screen)
    assert u_turn.length == pytest.approx(math.pi) and u_turn.word == "+"
    full = dubins_all((0, 0, 0), (3, 4, 1.0), 1.0)
    assert 4 <= len(full) <= 6
    assert [p.length for p in full] == sorted(p.length for p in full)
    assert full[0] == dubins((0, 0, 0), (3, 4, 1.0), 1.0)


@given(p0=poses, p1=poses, r=radii)
@example(p0=Pose(0, 0, 0), p1=Pose(1e-10, 0, 0), r=0.5)
@example(p0=Pose(0.0, 0.0, 1.192092896e-07), p1=Pose(1.192092896e-07, 0.0, 0.0), r=1.0)  # tiny segments, dropped or not
@example(p0=Pose(0, 0, 0), p1=Pose(0, 0, 1e-10), r=1.0)
@example(p0=Pose(3, 4, 1), p1=Pose(3, 4, 1), r=2.0)
@settings(max_examples=120, deadline=None)
def test_dubins_properties(p0, p1, r):
    best = dubins(p0, p1, r)
    check_path(best, p0, p1, r)
    assert all(g == 1 for g in (s.gear for s in best.segments))
    assert best.length >= math.dist(p0.xy, p1.xy) - 1e-9
    assert best.length == pytest.approx(dubins_length(p0, p1, r), rel=1e-12, abs=1e-12)
    four = pinter_curves(p0, p1, r)
    assert 2 <= len(four) <= 4
    for c in four:
        check_path(c, p0, p1, r)
    assert best.length <= min(c.length for c in four) + 1e-9
    assert best.length <= min(p.length for p in dubins_all(p0, p1, r)) + 1e-12
    assert dense_length(best) == pytest.approx(best.length, rel=1e-4, abs=1e-9)


# ----------------------------------------------------------------------------- Reeds-Shepp

def test_reeds_shepp_backs_up_to_a_pose_behind():
    p0, behind = Pose(0, 0, 0), Pose(-3, 0, 0)
    rs = reeds_shepp(p0, behind, 1.0)
    assert rs.length == pytest.approx(3.0) and rs.word == "S'"
    assert rs.gear_at(1.0) == -1
    assert rs.length < dubins(p0, behind, 1.0).length - 3
    check_path(rs, p0, behind, 1.0)
    # turning round on the spot needs cusps and beats driving a loop
    turn = reeds_shepp(p0, Pose(0, 0, math.pi), 1.0)
    check_path(turn, p0, Pose(0, 0, math.pi), 1.0)
    assert turn.cusps() and turn.length < dubins(p0, Pose(0, 0, math.pi), 1.0).length


def test_reeds_shepp_random_curves_with_reversing_are_never_shorter():
    rng = random.Random(7)
    for _ in range(1500):
        r = rng.uniform(0.3, 3.0)
        p0 = (rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(-4, 4))
        moves = [(rng.choice((-1, 0, 1)), rng.choice((-1, 1)) * rng.uniform(0, 1.5 * math.pi * r))
                 for _ in range(rng.randint(1, 5))]
        end = drive(p0, moves, r)
        assert reeds_shepp_length(p0, end, r) <= sum(abs(d) for _, d in moves) + 1e-7, moves


def test_reeds_shepp_uses_every_family():
    """CSC, CCC, CCCC, CCSC (both orders) and CCSCC all turn up as the shortest somewhere."""
    rng = random.Random(3)
    families = set()
    for _ in range(2500):
        p1 = Pose(rng.uniform(-4, 4), rng.uniform(-4, 4), rng.uniform(-math.pi, math.pi))
        path = reeds_shepp((0, 0, 0), p1, 1.0)
        families.add("".join("S" if c == "S" else "C" for c in path.label.replace("'", "")))
    assert families >= {"CSC", "CCC", "CCCC", "CCSC", "CSCC", "CCSCC"}


def test_reeds_shepp_all_sorted_and_valid():
    p0, p1 = Pose(1, 1, 0.2), Pose(2.0, -1.0, 2.5)
    every = reeds_shepp_all(p0, p1, 1.2)
    assert len(every) >= 3
    assert [p.length for p in every] == sorted(p.length for p in every)
    assert every[0].length == pytest.approx(reeds_shepp(p0, p1, 1.2).length)
    for path in every:
        check_path(path, p0, p1, 1.2)


@given(p0=poses, p1=poses, r=radii)
@example(p0=Pose(0, 0, 0), p1=Pose(1e-10, 0, 0), r=0.5)
@example(p0=Pose(0, 0, 0), p1=Pose(0, 0, math.pi), r=1.0)
@example(p0=Pose(3, 4, 1), p1=Pose(3, 4, 1), r=2.0)
@example(p0=Pose(0, 0, 0), p1=Pose(0, 1e-12, 0), r=4.0)  # a hair sideways: RS must not beat Dubins by rounding
@example(p0=Pose(0.0, 0.0, 0.0), p1=Pose(0.0, 0.0, 1e-09), r=3.0)  # a hair of a turn on the spot
@settings(max_examples=120, deadline=None)
def test_reeds_shepp_properties(p0, p1, r):
    rs = reeds_shepp(p0, p1, r)
    check_path(rs, p0, p1, r)
    assert rs.length >= math.dist(p0.xy, p1.xy) - 1e-9
    assert rs.length <= dubins(p0, p1, r).length + 1e-9
    # reversible: driving the path backwards joins the poses the other way, equally short
    # time reversal: the same length both ways. Below a micro-tile the word formulas' rounding
    # (angles of near-zero vectors) moves lengths by ~1e-7 (found in Pyodide: poses 1.2e-7 apart)
    assert reeds_shepp(p1, p0, r).length == pytest.approx(rs.length, rel=1e-9, abs=1e-6)
    back = rs.reversed()
    # the reversed path starts where rs ends, which is promised to 1e-6 (not 1e-9); found by
    # hypothesis: p0 (0, 0, 0), p1 (0, 0, 1e-9), r 3 ends 1.5e-9 from p1
    check_path(back, p1, p0, r, start_tol=1e-6)
    # mirror image (y -> -y, heading -> -heading): same length
    mirrored = reeds_shepp(Pose(p0.x, -p0.y, -p0.heading), Pose(p1.x, -p1.y, -p1.heading), r)
    assert mirrored.length == pytest.approx(rs.length, rel=1e-9, abs=1e-9)
    assert dense_length(rs) == pytest.approx(rs.length, rel=1e-4, abs=1e-9)


# ----------------------------------------------------------------------------- bad input

BUILDERS = [dubins, dubins_all, dubins_length, pinter_curves, shortest_pinter, reeds_shepp,
            reeds_shepp_all, reeds_shepp_length]


@pytest.mark.parametrize("build", BUILDERS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("p0, p1, r, message", [
    ((0, 0, 0), (1, 1, 0), 0.0, "r .*> 0"),
    ((0, 0, 0), (1, 1, 0), -1.0, "r .*> 0"),
    ((0, 0, 0), (1, 1, 0), math.nan, "r must be a finite"),
    ((0, 0, 0), (1, 1, 0), math.inf, "r must be a finite"),
    ((0, 0, 0), (1, 1, 0), "1", "r must be a number"),
    ((math.nan, 0, 0), (1, 1, 0), 1.0, "p0: x"),
    ((0, 0, 0), (1, math.inf, 0), 1.0, "p1: y"),
    ((0, 0, "north"), (1, 1, 0), 1.0, "p0: heading must be a number"),
    ((0, 0, 0), (1, 1, None), 1.0, "p1: heading must be a number"),
    ((0, 0, 0), (1, 1, math.nan), 1.0, "p1: heading"),
    ((0, 0), (1, 1, 0), 1.0, "p0 must be a Pose"),
])
def test_builders_reject_bad_input(build, p0, p1, r, message):
    with pytest.raises(ValueError, match=message):
        build(p0, p1, r)
