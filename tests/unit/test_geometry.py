"""Poses, Line/Arc segments and Path: pose_at, sampling, lengths, JSON, validation.

Positions are checked against an independent parametrisation (an arc's points as centre +
radius * (cos, sin) of the angle around its centre), and lengths against the sum of distances
between densely sampled points. Screen conventions: y down, heading 0 = east, pi/2 = south.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arcstar.geometry.primitives import Arc, Line, Path, Pose, angle_diff, normalize_angle, segment_from_json

TAU = 2 * math.pi


# ----------------------------------------------------------------------------- reference

def ref_point(seg, s: float) -> tuple[float, float, float]:
    """Pose at s on a segment, from first principles (not the library's formulas)."""
    if isinstance(seg, Line):
        dx, dy = math.cos(seg.heading), math.sin(seg.heading)
        return seg.x + seg.gear * s * dx, seg.y + seg.gear * s * dy, seg.heading
    cx, cy = seg.center
    a0 = math.atan2(seg.y - cy, seg.x - cx)  # angle of the start around the centre
    turned = seg.sweep * (s / seg.length) if seg.length else 0.0
    a = a0 + turned  # the radius rotates with the heading
    return cx + seg.radius * math.cos(a), cy + seg.radius * math.sin(a), seg.heading + turned


def dense_length(path: Path, n: int = 4000) -> float:
    """Sum of distances between n+1 independently computed points along each segment."""
    total = 0.0
    for seg in path.segments:
        pts = [ref_point(seg, seg.length * k / n) for k in range(n + 1)]
        total += sum(math.dist(a[:2], b[:2]) for a, b in zip(pts, pts[1:], strict=False))
    return total


def same_heading(a: float, b: float, tol: float = 1e-9) -> bool:
    return abs(angle_diff(a, b)) <= tol


def sample_path() -> Path:
    """Line east, quarter turn clockwise on screen (towards south), reversing arc, line."""
    a = Line(0.0, 0.0, 0.0, 2.0)
    b = Arc.from_pose(a.end_pose(), 1.5, math.pi / 2)
    c = Arc.from_pose(b.end_pose(), 1.0, 0.7, gear=-1)
    d = Line.from_pose(c.end_pose(), 1.25, gear=-1)
    return Path((a, b, c, d), label="demo")


# ----------------------------------------------------------------------------- angles, poses

@pytest.mark.parametrize("a, expected", [
    (0.0, 0.0), (math.pi, math.pi), (-math.pi, math.pi), (3 * math.pi, math.pi),
    (-3 * math.pi / 2, math.pi / 2), (TAU + 0.25, 0.25), (-TAU - 0.25, -0.25), (1e6, None),
])
def test_normalize_angle(a, expected):
    n = normalize_angle(a)
    assert -math.pi < n <= math.pi
    assert math.isclose(math.cos(n), math.cos(a), abs_tol=1e-9)
    assert math.isclose(math.sin(n), math.sin(a), abs_tol=1e-9)
    if expected is not None:
        assert math.isclose(n, expected, abs_tol=1e-12)


def test_pose_normalises_and_validates():
    assert Pose(1, 2, 3 * math.pi).heading == pytest.approx(math.pi)
    assert Pose.of((1, 2, 0.5)) == Pose(1.0, 2.0, 0.5)
    assert Pose(0, 0, 0).is_close(Pose(0, 0, TAU - 1e-12))
    for bad in [(math.nan, 0, 0), (0, math.inf, 0), (0, 0, math.nan), (0, 0, "east"),
                (0, 0, None), (True, 0, 0), ("1", 0, 0)]:
        with pytest.raises(ValueError):
            Pose(*bad)
    for bad in [None, (1, 2), "abc", (1, 2, 3, 4), {"x": 1}, np.zeros(2)]:
        with pytest.raises(ValueError):
            Pose.of(bad, "p0")
    assert Pose.of(np.array([1.0, 2.0, 0.5])) == Pose(1.0, 2.0, 0.5)
    assert Pose.from_json(json.loads(json.dumps(Pose(1, 2, 3).to_json()))) == Pose(1, 2, 3)
    for bad in [{"x": 1, "y": 2}, {"x": 1, "y": 2, "heading": "s"}, [1, 2, 3]]:
        with pytest.raises(ValueError):
            Pose.from_json(bad)


# ----------------------------------------------------------------------------- segments

def test_arc_sweep_sign_is_clockwise_on_screen():
    """Facing east with sweep +pi/2 the unit ends facing south (down the screen), below."""
    arc = Arc.from_pose(Pose(0, 0, 0), 2.0, math.pi / 2)
    end = arc.end_pose()
    assert arc.center == pytest.approx((0.0, 2.0))  # centre below the unit (y down)
    assert (end.x, end.y) == pytest.approx((2.0, 2.0))
    assert end.heading == pytest.approx(math.pi / 2)
    assert arc.steer == 1 and arc.length == pytest.approx(math.pi)


def test_reversing_arc_faces_its_heading_and_moves_backwards():
    arc = Arc.from_pose(Pose(0, 0, 0), 1.0, 0.3, gear=-1)
    p = arc.pose_at(0.01)
    assert p.x < 0  # moved west while facing (roughly) east
    assert arc.steer == -1 and arc.center == pytest.approx((0.0, -1.0))
    line = Line(0, 0, 0, 1.0, gear=-1)
    assert line.end_pose() == Pose(-1.0, 0.0, 0.0)


@given(x=st.floats(-50, 50), y=st.floats(-50, 50), h=st.floats(-7, 7),
       r=st.floats(0.05, 10), sweep=st.floats(-7, 7), gear=st.sampled_from([1, -1]),
       frac=st.floats(0, 1))
@settings(max_examples=150, deadline=None)
def test_arc_pose_at_matches_reference(x, y, h, r, sweep, gear, frac):
    arc = Arc.from_pose(Pose(x, y, h), r, sweep, gear)
    s = arc.length * frac
    p, (rx, ry, rh) = arc.pose_at(s), ref_point(arc, s)
    assert math.hypot(p.x - rx, p.y - ry) <= 1e-9 * max(1.0, r)
    assert same_heading(p.heading, rh, 1e-9)
    # the heading is tangent to the circle and the motion goes the way the gear says
    cx, cy = arc.center
    radial = (p.x - cx, p.y - cy)
    assert abs(radial[0] * math.cos(p.heading) + radial[1] * math.sin(p.heading)) <= 1e-7 * r
    assert math.hypot(*radial) == pytest.approx(r, rel=1e-9)


def test_arc_validation():
    good = Arc.from_pose(Pose(1, 2, 0.4), 2.0, 1.0)
    assert Arc(1, 2, 0.4, good.length, good.center, 2.0, 1.0) == good
    with pytest.raises(ValueError, match="radius"):
        Arc(1, 2, 0.4, 2.0, good.center, 0.0, 1.0)
    with pytest.raises(ValueError, match="length"):
        Arc(1, 2, 0.4, 5.0, good.center, 2.0, 1.0)
    with pytest.raises(ValueError, match="wrong side"):
        Arc(1, 2, 0.4, good.length, good.center, 2.0, -1.0)
    with pytest.raises(ValueError, match="centre"):
        Arc(1, 2, 0.4, good.length, (good.center[0] + 0.1, good.center[1]), 2.0, 1.0)
    with pytest.raises(ValueError, match="gear"):
        Arc(1, 2, 0.4, good.length, good.center, 2.0, 1.0, gear=0)
    with pytest.raises(ValueError):
        Line(0, 0, 0, -1.0)
    with pytest.raises(ValueError):
        Line(0, 0, 0, math.nan)
    with pytest.raises(ValueError):
        good.pose_at(good.length + 0.1)


# ----------------------------------------------------------------------------- path

def test_path_length_matches_dense_sampling():
    path = sample_path()
    assert path.length == pytest.approx(2.0 + 1.5 * math.pi / 2 + 0.7 + 1.25)
    assert dense_length(path) == pytest.approx(path.length, rel=1e-6)


def test_path_pose_at_walks_segments_continuously():
    path = sample_path()
    ends = np.cumsum([s.length for s in path.segments])
    for i, joint in enumerate(ends[:-1]):
        before, after = path.pose_at(joint - 1e-9), path.pose_at(joint + 1e-9)
        assert before.distance_to(after) < 1e-8
        assert same_heading(before.heading, after.heading, 1e-8)
        nxt = path.segments[i + 1]
        assert path.pose_at(joint).is_close(Pose(nxt.x, nxt.y, nxt.heading), 1e-9, 1e-9)
    for d in np.linspace(0, path.length, 57):
        i, s = path.segment_at(d)
        rx, ry, rh = ref_point(path.segments[i], s)
        p = path.pose_at(d)
        assert math.hypot(p.x - rx, p.y - ry) < 1e-9 and same_heading(p.heading, rh)
    assert path.pose_at(0) == path.start_pose()
    assert path.pose_at(path.length).is_close(path.end_pose(), 1e-12, 1e-12)
    assert [path.gear_at(d) for d in (0.5, 3.0, 5.0, path.length)] == [1, 1, -1, -1]
    assert path.cusps() == pytest.approx([2.0 + 1.5 * math.pi / 2])
    with pytest.raises(ValueError):
        path.pose_at(-0.5)
    with pytest.raises(ValueError):
        path.pose_at(path.length + 0.5)
    with pytest.raises(ValueError):
        path.pose_at(math.nan)


def test_path_sample():
    path = sample_path()
    pts = path.sample(0.05)
    assert pts.shape[1] == 3
    steps = np.hypot(np.diff(pts[:, 0]), np.diff(pts[:, 1]))
    assert steps.max() <= 0.05 + 1e-12
    assert np.allclose(pts[0], [0, 0, 0])
    end = path.end_pose()
    assert np.allclose(pts[-1, :2], [end.x, end.y]) and same_heading(pts[-1, 2], end.heading)
    # every sample agrees with pose_at at its distance
    d = np.linspace(0, path.length, len(pts))
    for k in range(0, len(pts), 7):
        p = path.pose_at(float(d[k]))
        assert math.hypot(p.x - pts[k, 0], p.y - pts[k, 1]) < 1e-9
        assert same_heading(p.heading, float(pts[k, 2]))
    assert steps.sum() <= path.length + 1e-9  # chords; shorter still across the cusp
    assert path.segments[1].sample(0.1).shape == (math.ceil(1.5 * math.pi / 2 / 0.1) + 1, 3)
    for bad in (0, -1, math.nan, "x", 1e-9):
        with pytest.raises(ValueError):
            path.sample(bad)
    assert len(path.sample(math.inf)) == 2  # start and end, always


def test_segment_sample_xy_is_sample_without_headings():
    for seg in sample_path().segments:
        along, xy = seg.sample_xy(0.1)
        poses = seg.sample(0.1)
        assert xy.tolist() == poses[:, :2].tolist()  # the same points, bit for bit
        assert along.tolist() == np.linspace(0.0, seg.length, len(poses)).tolist()


def test_path_curvature_corners_and_word():
    path = sample_path()
    assert path.max_curvature() == pytest.approx(1.0)
    assert path.min_radius() == pytest.approx(1.0)
    assert path.corners() == []
    assert path.word == "S++'S'"  # by sweep sign; ' marks reversing
    poly = Path.from_waypoints([(0, 0), (3, 0), (3, 0), (3, 4)])
    assert len(poly.segments) == 2 and poly.length == pytest.approx(7.0)
    assert poly.corners() == [1] and poly.max_curvature() == math.inf
    assert poly.end_pose().is_close(Pose(3.0, 4.0, math.pi / 2), 1e-12, 1e-12)
    assert Path([Line(0, 0, 0.3, 2.0)]).max_curvature() == 0.0
    for bad in ([(0, 0)], [(1, 1), (1, 1)], [(0, 0), (1, math.nan)], "ab", None, [(0, 0), (1,)]):
        with pytest.raises(ValueError):
            Path.from_waypoints(bad)


def test_path_rejects_gaps_and_junk():
    with pytest.raises(ValueError, match="gap"):
        Path([Line(0, 0, 0, 1.0), Line(1.5, 0, 0, 1.0)])
    with pytest.raises(ValueError):
        Path([])
    with pytest.raises(ValueError):
        Path([Line(0, 0, 0, 1.0), "arc"])


def test_path_reversed_drives_back_to_start():
    path = sample_path()
    back = path.reversed()
    assert back.start_pose().is_close(path.end_pose(), 1e-12, 1e-12)
    assert back.end_pose().is_close(path.start_pose(), 1e-9, 1e-9)
    assert back.length == pytest.approx(path.length)
    for d in np.linspace(0, path.length, 23):
        assert back.pose_at(path.length - d).is_close(path.pose_at(d), 1e-9, 1e-9)


# ----------------------------------------------------------------------------- JSON

def test_json_round_trip():
    path = sample_path()
    data = json.loads(json.dumps(path.to_json(), allow_nan=False))
    assert set(data) == {"segments", "label"}
    assert [s["type"] for s in data["segments"]] == ["line", "arc", "arc", "line"]
    again = Path.from_json(data)
    assert again == path and again.length == path.length
    assert segment_from_json(path.segments[1].to_json()) == path.segments[1]
    # gear defaults to forward; JSON ints are fine
    assert Path.from_json({"segments": [{"type": "line", "x": 0, "y": 0, "heading": 0,
                                         "length": 2}]}).length == 2.0


def _valid_json() -> dict:
    return sample_path().to_json()


BAD_VALUES = [math.nan, math.inf, -math.inf, "1.0", None, True, [1, 2], {"a": 1}, 10**400]


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["segments"][1].pop("radius"), "missing radius"),
    (lambda d: d["segments"][0].update(length=-1.0), "length must be >= 0"),
    (lambda d: d["segments"][0].update(x=math.nan), "finite"),
    (lambda d: d["segments"][2].update(sweep="0.7"), "must be a number"),
    (lambda d: d["segments"][1].update(center=[1.0]), "pair"),
    (lambda d: d["segments"][1].update(colour="red"), "unknown keys colour"),
    (lambda d: d["segments"][3].update(type="spline"), "'line' or 'arc'"),
    (lambda d: d["segments"][3].update(gear=2), "gear"),
    (lambda d: d["segments"][3].update(x=100.0), "gap"),
    (lambda d: d.update(segments=[]), "at least one"),
    (lambda d: d.update(segments="line"), "must be a list"),
    (lambda d: d.pop("segments"), "missing 'segments'"),
    (lambda d: d.update(extra=1), "unknown keys extra"),
    (lambda d: d.update(label=3), "label"),
])
def test_malformed_json_rejected(mutate, message):
    data = _valid_json()
    mutate(data)
    with pytest.raises(ValueError, match=message):
        Path.from_json(data)


@given(seg=st.integers(0, 3), key=st.sampled_from(
    ["x", "y", "heading", "length", "center", "radius", "sweep", "gear", "type"]),
    bad=st.sampled_from(BAD_VALUES), drop=st.booleans())
@settings(max_examples=200, deadline=None)
def test_fuzz_one_bad_field_is_rejected(seg, key, bad, drop):
    data = _valid_json()
    target = data["segments"][seg]
    if drop:
        if key == "gear" or key not in target:  # gear is optional; lines have no radius
            target[key + "_typo"] = 1
        else:
            del target[key]
    elif key not in target:
        target[key] = 1.0  # a key this segment type does not have
    else:
        target[key] = bad
    with pytest.raises(ValueError):
        Path.from_json(data)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["segments", "type", "x", "y", "heading", "length", "center",
                         "radius", "sweep", "gear", "label", "q"]), inner, max_size=9),
    max_leaves=12)


@given(data=json_values)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_fuzz_arbitrary_json_only_ever_raises_value_error(data):
    try:
        path = Path.from_json(data)
    except ValueError:
        return
    assert isinstance(path, Path) and math.isfinite(path.length)


@pytest.mark.parametrize("seg", [Line(1.0, 2.0, 0.3, 2.5), Arc.from_pose(Pose(0, 0, 0), 2.0, math.pi / 2),
                                 Arc.from_pose(Pose(1, 1, 1.0), 1.0, -0.7, gear=-1)])
def test_pose_within_is_pose_at_clamped_to_the_segment(seg):
    """The unchecked pose for driving units: ``pose_at`` inside the segment, its ends outside."""
    for f in (0.0, 0.3, 0.77, 1.0):
        assert seg.pose_within(f * seg.length) == seg.pose_at(f * seg.length)
    assert seg.pose_within(-0.4) == seg.start_pose()
    assert seg.pose_within(seg.length + 0.4) == seg.end_pose()
