"""Fixed-angle character art (Pinter, Figures 14 and 15): legal headings only, same end point,
arcs just outside the turning circle, lines as at most two legal segments.

Coordinates: tiles, y down, heading 0 = east, pi/2 = south.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arcstar.collision.swept import path_clear
from arcstar.geometry.curves import dubins, reeds_shepp
from arcstar.geometry.primitives import Arc, Line, Path, Pose
from arcstar.maps.tilemap import TileMap
from arcstar.turning.art import extra_length, fixed_art, legal_art, to_fixed_angles
from test_turning import body_margin, path_points, seg_end


def legal_heading(h: float, n: int) -> bool:
    k = h / (2 * math.pi / n)
    return abs(k - round(k)) < 1e-9


def check_art(path: Path, n: int) -> Path:
    art = to_fixed_angles(path, n)
    assert art.label == f"art{n}"
    assert all(isinstance(s, Line) for s in art.segments)
    assert all(legal_heading(s.heading, n) for s in art.segments), [s.heading for s in art.segments]
    segs = art.segments
    assert math.hypot(segs[0].x - path.segments[0].x, segs[0].y - path.segments[0].y) < 1e-9
    ex, ey, _ = seg_end(segs[-1])
    e = path.segments[-1]
    fx, fy, _ = seg_end(e)
    assert math.hypot(ex - fx, ey - fy) < 1e-6, "the art path must end where the path ends"
    for a, b in zip(segs, segs[1:]):
        ax, ay, _ = seg_end(a)
        assert math.hypot(b.x - ax, b.y - ay) < 1e-6
    assert extra_length(path, art) >= -1e-9  # never shorter (triangle inequality, convexity)
    return art


@pytest.mark.parametrize("n, half", [(8, math.radians(22.5)), (16, math.radians(11.25))])
def test_quarter_turn_follows_the_circumscribed_polygon(n, half):
    r = 2.0
    arc = Path((Arc.from_pose(Pose(3.0, 3.0, 0.0), r, math.pi / 2),))
    art = check_art(arc, n)
    base = r * math.tan(half)  # Pinter's base = r tan(22.5 deg) for 8 directions
    lengths = [s.length for s in art.segments]
    assert lengths == pytest.approx([base] + [2 * base] * (n // 4 - 1) + [base])
    assert [round(math.degrees(s.heading), 6) for s in art.segments] == \
        [round(k * 360 / n, 6) for k in range(n // 4 + 1)]
    assert art.length == pytest.approx(n // 4 * 2 * base)
    assert extra_length(arc, art) == pytest.approx(n // 4 * 2 * base - r * math.pi / 2)


@pytest.mark.parametrize("n", [8, 16])
def test_full_circle_is_the_polygon(n):
    r = 1.5
    arc = Path((Arc.from_pose(Pose(5.0, 5.0, 0.0), r, -2 * math.pi),))  # counter-clockwise on screen
    art = check_art(arc, n)
    assert art.length == pytest.approx(n * 2 * r * math.tan(math.pi / n))
    assert len(art.segments) == n + 1  # the first edge is split at the start point


@pytest.mark.parametrize("n", [8, 16])
@pytest.mark.parametrize("sweep", [0.3, -1.1, 2.5, -4.0, 6.0])
@pytest.mark.parametrize("h0", [0.0, 0.2, -1.9, 3.0])
@pytest.mark.parametrize("gear", [1, -1])
def test_arcs_stay_just_outside_the_circle(n, sweep, h0, gear):
    r = 2.0
    arc = Arc.from_pose(Pose(10.0, 10.0, h0), r, sweep, gear)
    art = check_art(Path((arc,)), n)
    pts = path_points(art, 0.005)
    d = np.hypot(pts[:, 0] - arc.center[0], pts[:, 1] - arc.center[1])
    assert d.min() >= r - 1e-9, "the art path cuts inside the turning circle"
    outer = r / math.cos(math.pi / n)  # the polygon's vertices
    assert d.max() <= outer + (outer - r) + 1e-9
    assert all(s.gear == gear for s in art.segments)


@pytest.mark.parametrize("n", [8, 16])
def test_lines_become_at_most_two_legal_segments(n):
    step = 2 * math.pi / n
    for h in np.linspace(-math.pi, math.pi, 37):
        for gear in (1, -1):
            line = Path((Line(1.0, 2.0, float(h), 7.0, gear),))
            art = check_art(line, n)
            assert len(art.segments) <= 2
            assert all(s.gear == gear for s in art.segments)
            if len(art.segments) == 2:  # the two legal directions that bracket the line's
                a, b = art.segments
                assert abs(math.remainder(a.heading - b.heading, 2 * math.pi)) == pytest.approx(step)
                for s in (a, b):
                    assert abs(math.remainder(s.heading - h, 2 * math.pi)) < step
    # a legal line is left alone
    (seg,) = to_fixed_angles(Path((Line(0.0, 0.0, 3 * math.pi / 4, 5.0),)), 8).segments
    assert seg.length == pytest.approx(5.0) and seg.heading == pytest.approx(3 * math.pi / 4)


def test_line_at_20_degrees_with_8_directions():
    h = math.radians(20)
    art = check_art(Path((Line(0.0, 0.0, h, 10.0),)), 8)
    a, b = art.segments
    assert (round(math.degrees(a.heading)), round(math.degrees(b.heading))) == (0, 45)  # longer leg first
    s45 = math.sin(math.radians(45))
    assert a.length == pytest.approx(10 * math.sin(math.radians(25)) / s45)
    assert b.length == pytest.approx(10 * math.sin(h) / s45)


def test_the_art_path_may_clip_a_wall_the_line_misses():
    blocked = np.zeros((20, 30), dtype=bool)
    blocked[5, 12:16] = True  # above the line, where its fixed-angle corner goes
    m = TileMap.from_blocked(blocked)
    line = Path((Line(2.5, 5.5, math.radians(20), 20.0),))
    assert path_clear(m, line, 1.0) and body_margin(blocked, path_points(line), 1.0) > 0
    art = to_fixed_angles(line, 8)
    assert not legal_art(m, art, 1.0)
    assert body_margin(blocked, path_points(art), 1.0) < 0  # independently: it overlaps
    out = fixed_art(line, 8, m, 1.0)
    assert out.legal is False and out.extra_length == pytest.approx(art.length - line.length)
    assert fixed_art(line, 16).legal is None


def test_zero_length_and_empty_paths():
    art = to_fixed_angles(Path((Line(1.0, 1.0, 0.3, 0.0),)), 8)
    assert art.length == 0.0 and legal_heading(art.segments[0].heading, 8)


@pytest.mark.parametrize("bad", [0, 4, 12, 32, 8.0, "8", True, None])
def test_bad_directions(bad):
    with pytest.raises(ValueError, match="directions"):
        to_fixed_angles(Path((Line(0.0, 0.0, 0.0, 1.0),)), bad)


def test_bad_path_and_width():
    with pytest.raises(ValueError, match="Path"):
        to_fixed_angles([Line(0.0, 0.0, 0.0, 1.0)], 8)
    with pytest.raises(ValueError, match="width"):
        fixed_art(Path((Line(0.0, 0.0, 0.0, 1.0),)), 8, TileMap.empty(4, 4))


pose = st.builds(Pose, st.floats(-20, 20), st.floats(-20, 20), st.floats(-7, 7))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p0=pose, p1=pose, r=st.floats(0.05, 5.0), reverse=st.booleans(), n=st.sampled_from([8, 16]))
def test_random_curves(p0, p1, r, reverse, n):
    path = (reeds_shepp if reverse else dubins)(p0, p1, r)
    art = check_art(path, n)
    # not much longer: a line grows by at most 1/cos(step/2), a polygon edge over an arc by
    # tan(step/2)/(step/2), and each arc adds its two radial connectors (at most
    # r (1/cos(step/2) - 1) each, as two legal legs) and shifts the next leg by one of those
    half = math.pi / n
    offset = r * (1 / math.cos(half) - 1) / math.cos(half)
    arcs = sum(1 for s in path.segments if isinstance(s, Arc) and s.length > 0)
    grow = max(1 / math.cos(half), math.tan(half) / half)
    assert art.length <= path.length * grow + arcs * 4 * offset + 1e-6
