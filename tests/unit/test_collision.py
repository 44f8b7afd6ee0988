"""Collision: the exact swept-disc tests against an independent brute force, Pinter's sampled
Walkable() and its known corner miss, paths, curves, and bad input.

The brute force shares nothing with ``collision``: it samples the unit's centre densely along
the line or arc (every 0.002 tile, from first principles: a + u (b - a), or centre + R (cos,
sin) of the angle) and measures, at each sample, the exact distance to every blocked square
and to the map's edge. The body overlaps a wall iff that minimum clearance is below the
radius; the sampling can overestimate the true minimum by at most 0.001, so a disagreement is
accepted only when the brute-force clearance is within 1.1e-3 of the radius (tangency).
Coordinates: tile (x, y) covers [x, x+1) x [y, y+1), y down, heading 0 = +x, pi/2 = +y.
"""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arcstar.collision.swept import (
    Footprint,
    blocked_stretches,
    first_collision,
    path_clear,
    swept_arc_clear,
    swept_line_clear,
    walkable,
    walkable_curve,
    walkable_sampled,
)
from arcstar.geometry.curves import dubins, dubins_all
from arcstar.geometry.primitives import Arc, Line, Path, Pose
from arcstar.maps.mapio import parse_ascii
from arcstar.maps.tilemap import TileMap

BAND = 1.1e-3
STEP = 0.002
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ----------------------------------------------------------------------------- brute force

def clearance_along(blocked: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Per point, the distance to the nearest blocked closed square or to the map's outside."""
    h, w = blocked.shape
    x, y = pts[:, 0], pts[:, 1]
    out = np.minimum(np.minimum(x, w - x), np.minimum(y, h - y)).clip(min=0.0)
    js, is_ = np.nonzero(blocked)
    for k in range(0, len(pts), 1000):
        px, py = x[k:k + 1000, None], y[k:k + 1000, None]
        ex = np.maximum(np.maximum(is_ - px, px - is_ - 1), 0.0)
        ey = np.maximum(np.maximum(js - py, py - js - 1), 0.0)
        if len(js):
            out[k:k + 1000] = np.minimum(out[k:k + 1000], np.sqrt(ex * ex + ey * ey).min(axis=1))
    return out


def line_points(a, b, step: float = STEP) -> np.ndarray:
    n = max(1, math.ceil(math.dist(a, b) / step))
    u = np.linspace(0.0, 1.0, n + 1)[:, None]
    return np.asarray(a, float) + u * (np.asarray(b, float) - np.asarray(a, float))


def arc_points(arc: Arc, step: float = STEP) -> np.ndarray:
    cx, cy = arc.center
    a0 = math.atan2(arc.y - cy, arc.x - cx)
    n = max(1, math.ceil(arc.length / step))
    phi = a0 + np.linspace(0.0, arc.sweep, n + 1)
    return np.stack([cx + arc.radius * np.cos(phi), cy + arc.radius * np.sin(phi)], axis=1)


def path_points(path: Path, step: float = STEP) -> tuple[np.ndarray, np.ndarray]:
    """Points along a path and their distances along it, from first principles."""
    pts, dist, start = [], [], 0.0
    for seg in path.segments:
        if isinstance(seg, Arc) and seg.length > 0:
            p = arc_points(seg, step)
        else:
            e = seg.end_pose()
            p = line_points((seg.x, seg.y), (e.x, e.y), step)
        pts.append(p)
        dist.append(start + np.linspace(0.0, seg.length, len(p)))
        start += seg.length
    return np.concatenate(pts), np.concatenate(dist)


def agrees(exact_clear: bool, min_clearance: float, width: float) -> bool:
    brute_clear = min_clearance > width / 2
    return exact_clear == brute_clear or abs(min_clearance - width / 2) <= BAND


def random_map(seed: int, hmax: int = 30, density: float | None = None) -> tuple[TileMap, np.ndarray]:
    rng = np.random.default_rng(seed)
    h, w = (int(v) for v in rng.integers(4, hmax, 2))
    dens = rng.uniform(0.0, 0.15) if density is None else density
    blocked = rng.random((h, w)) < dens
    return TileMap.from_blocked(blocked), blocked


def ascii_map(text: str) -> TileMap:
    return parse_ascii(textwrap.dedent(text)).map


# ----------------------------------------------------------------------------- footprint

def test_footprint_validates_width():
    assert Footprint(1).width == 1.0 and Footprint(1.5).radius == 0.75
    for bad in (0, -1, -0.5, math.nan, math.inf, -math.inf, "1", None, True, [1.0], 1e-12):
        with pytest.raises(ValueError):
            Footprint(bad)


def test_functions_accept_a_footprint_or_a_number():
    m = TileMap.empty(5, 5)
    assert swept_line_clear(m, (1.5, 1.5), (3.5, 2.5), Footprint(1.0))
    assert swept_line_clear(m, (1.5, 1.5), (3.5, 2.5), 1)
    assert swept_line_clear(m, (1.5, 1.5), (3.5, 2.5), np.float32(1.0))


# ----------------------------------------------------------------------------- hand cases

CORRIDOR = """
#######
.......
#######
"""


def test_touching_a_wall_is_allowed_overlapping_is_not():
    m = ascii_map(CORRIDOR)
    assert swept_line_clear(m, (0.5, 1.5), (6.5, 1.5), 1.0)  # exactly fills the corridor
    assert not swept_line_clear(m, (0.5, 1.5), (6.5, 1.5), 1.0 + 1e-6)
    assert not swept_line_clear(m, (0.5, 1.5), (6.5, 1.4), 1.0)  # drifts into the wall
    assert swept_line_clear(m, (0.5, 1.5), (6.5, 1.5), 0.2)
    # the map's edge is a wall too: the corridor's open ends are at x = 0 and x = 7
    assert not swept_line_clear(m, (0.4, 1.5), (6.5, 1.5), 0.9)


def test_diagonal_through_a_blocked_corner():
    m = ascii_map("""
    ....
    .#..
    ....
    ....""")
    # from (0,0) to (1,... ) the centre line passes exactly through the corner (1, 1)
    assert not swept_line_clear(m, (0.5, 0.5), (2.5, 2.5), 0.05)
    assert swept_line_clear(m, (0.5, 2.5), (3.5, 2.5), 1.0)
    assert swept_line_clear(m, (2.5, 0.5), (2.5, 3.5), 1.0)
    assert not swept_line_clear(m, (2.4, 0.5), (2.4, 3.5), 1.0)


def test_segment_of_zero_length_is_a_disc():
    m = ascii_map(CORRIDOR)
    assert swept_line_clear(m, (3.5, 1.5), (3.5, 1.5), 1.0)
    assert not swept_line_clear(m, (3.5, 1.5), (3.5, 1.5), 1.1)
    assert not swept_line_clear(m, (3.5, 0.5), (3.5, 0.5), 0.1)  # on a wall


def test_off_the_map_is_blocked():
    m = TileMap.empty(4, 3)
    assert swept_line_clear(m, (0.5, 0.5), (3.5, 2.5), 1.0)
    assert not swept_line_clear(m, (0.5, 0.5), (4.5, 2.5), 0.5)
    assert not swept_line_clear(m, (-1.0, 1.5), (2.5, 1.5), 0.5)
    assert not swept_line_clear(m, (1.5, 1.5), (2.5, 1.5), 3.5)


# ----------------------------------------------------------------------------- exact vs brute force

@FAST
@given(seed=st.integers(0, 2**32 - 1), width=st.floats(0.05, 3.0),
       kind=st.sampled_from(["free", "centres", "horizontal", "vertical", "short"]))
def test_swept_line_matches_brute_force(seed, width, kind):
    m, blocked = random_map(seed)
    rng = np.random.default_rng(seed + 1)
    h, w = blocked.shape
    r = width / 2
    a = (rng.uniform(r, max(r, w - r)), rng.uniform(r, max(r, h - r)))
    b = (rng.uniform(r, max(r, w - r)), rng.uniform(r, max(r, h - r)))
    if kind == "centres":
        a, b = (math.floor(a[0]) + 0.5, math.floor(a[1]) + 0.5), (math.floor(b[0]) + 0.5, math.floor(b[1]) + 0.5)
    elif kind == "horizontal":
        b = (b[0], a[1])
    elif kind == "vertical":
        b = (a[0], b[1])
    elif kind == "short":
        b = (a[0] + rng.uniform(-1.5, 1.5), a[1] + rng.uniform(-1.5, 1.5))
    exact = swept_line_clear(m, a, b, width)
    mc = float(clearance_along(blocked, line_points(a, b)).min())
    assert agrees(exact, mc, width), (a, b, width, exact, mc)
    # the sampled test is never stricter than the exact one
    if exact:
        assert walkable_sampled(m, a, b, width)


def test_long_lines_match_brute_force():
    """Capsules spanning many rows take the vectorised path; check it as well."""
    rng = np.random.default_rng(7)
    for trial in range(40):
        blocked = rng.random((130, 120)) < rng.uniform(0.0, 0.004)
        m = TileMap.from_blocked(blocked)
        width = float(rng.uniform(0.1, 3.0))
        a = (rng.uniform(2, 20), rng.uniform(2, 20))
        b = (rng.uniform(2, 118), rng.uniform(110, 128))
        if trial % 2:
            a, b = (a[1], a[0]), (b[1] - 10, b[0])  # mostly horizontal
        exact = swept_line_clear(m, a, b, width)
        mc = float(clearance_along(blocked, line_points(a, b, 0.002)).min())
        assert agrees(exact, mc, width), (trial, a, b, width, exact, mc)


@FAST
@given(seed=st.integers(0, 2**32 - 1), width=st.floats(0.05, 2.5), radius=st.floats(0.2, 5.0),
       sweep=st.floats(-7.0, 7.0), gear=st.sampled_from([1, -1]))
def test_swept_arc_matches_brute_force(seed, width, radius, sweep, gear):
    m, blocked = random_map(seed, hmax=24)
    rng = np.random.default_rng(seed + 2)
    h, w = blocked.shape
    arc = Arc.from_pose(Pose(rng.uniform(0, w), rng.uniform(0, h), rng.uniform(-4, 4)), radius, sweep, gear)
    exact = swept_arc_clear(m, arc, width)
    mc = float(clearance_along(blocked, arc_points(arc)).min())
    assert agrees(exact, mc, width), (arc, width, exact, mc)


def test_arc_cases_by_hand():
    m = TileMap.empty(12, 12)
    m.set_tile(6, 6, 1)
    # a circle of radius 3 round the blocked tile's centre never comes near it...
    full = Arc.from_pose(Pose(9.5, 6.5, math.pi / 2), 3.0, 2 * math.pi)
    assert swept_arc_clear(m, full, 1.0)
    # the sweep's inner edge, 3 - width / 2, must stay beyond the tile's corners (0.707 away)
    assert swept_arc_clear(m, full, 4.5)  # inner edge at 0.75
    assert not swept_arc_clear(m, full, 4.7)  # inner edge at 0.65
    # a crossing arc whose end points and corners are all far from the tile
    cross = Arc.from_pose(Pose(1.0, 6.5, -0.35), 20.0, 0.7)
    assert not swept_arc_clear(m, cross, 0.01)
    # a quarter turn that stops short of the tile
    quarter = Arc.from_pose(Pose(6.5, 1.5, 0.0), 2.0, math.pi / 2)  # ends at (8.5, 3.5)
    assert swept_arc_clear(m, quarter, 1.0)


# ----------------------------------------------------------------------------- Pinter's sampled test

def test_sampled_walkable_misses_a_corner_the_exact_test_sees():
    """Figure 3's diamond has gaps: a blocked corner can poke into the disc between them."""
    m = ascii_map("""
    ....
    .#..
    ....""")
    a, b = (0.5, 1.0), (1.0, 0.5)  # passes (0.75, 0.75): the corner (1, 1) is 0.354 away
    assert walkable_sampled(m, a, b, 1.0)
    assert not swept_line_clear(m, a, b, 1.0)
    assert walkable(m, a, b, 1.0, exact=False) and not walkable(m, a, b, 1.0)


def test_sampled_walkable_basics():
    m = ascii_map(CORRIDOR)
    assert walkable_sampled(m, (0.5, 1.5), (6.5, 1.5), 1.0)  # touching both walls is fine
    assert not walkable_sampled(m, (0.5, 1.5), (6.5, 1.5), 1.2)
    assert not walkable_sampled(m, (0.5, 1.5), (3.5, 0.5), 0.1)
    assert not walkable_sampled(m, (0.2, 1.5), (3.5, 1.5), 0.5)  # leaves the map


# ----------------------------------------------------------------------------- paths

def random_path(rng, w: int, h: int) -> Path:
    p0 = Pose(rng.uniform(1, w - 1), rng.uniform(1, h - 1), rng.uniform(-math.pi, math.pi))
    p1 = Pose(rng.uniform(1, w - 1), rng.uniform(1, h - 1), rng.uniform(-math.pi, math.pi))
    path = dubins(p0, p1, float(rng.uniform(0.5, 3.0)))
    if rng.random() < 0.5:
        e = path.end_pose()
        tail = Line.from_pose(e, float(rng.uniform(0, 4)))
        path = Path(path.segments + (tail,))
    return path


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), width=st.floats(0.1, 2.0))
def test_path_first_collision_and_stretches_match_brute_force(seed, width):
    m, blocked = random_map(seed, hmax=22, density=0.06)
    rng = np.random.default_rng(seed + 3)
    h, w = blocked.shape
    path = random_path(rng, w, h)
    pts, dist = path_points(path)
    clear = clearance_along(blocked, pts)
    r = width / 2
    ok = path_clear(m, path, width)
    assert agrees(ok, float(clear.min()), width)
    fc = first_collision(m, path, width)
    assert (fc is None) == ok
    if fc is not None:
        assert 0.0 <= fc <= path.length + 1e-9
        # before fc the body is clear (up to the band), and it is in contact at fc
        before = dist < fc - 2 * STEP
        assert np.all(clear[before] > r - BAND)
        near = np.abs(dist - fc) <= 2 * STEP
        assert clear[near].min() <= r + BAND
    stretches = blocked_stretches(m, path, width, step=0.05)
    assert (not stretches) == ok
    assert all(a <= b for a, b in stretches)
    assert all(b1 < a2 for (_, b1), (a2, _) in zip(stretches, stretches[1:]))
    if stretches:
        assert abs(stretches[0][0] - fc) <= 1e-6
    inside = np.zeros(len(dist), bool)
    bridged = np.zeros(len(dist), bool)
    for a, b in stretches:
        inside |= (dist >= a - 1e-6) & (dist <= b + 1e-6)
        bridged |= (dist >= a - 0.05) & (dist <= b + 0.05)
    assert np.all(inside[clear < r - BAND])  # every overlap is inside a stretch
    # samples well clear of walls lie outside the stretches (gaps < step may be bridged)
    assert not np.any(inside[clear > r + BAND] & ~bridged[clear > r + BAND])
    for a, b in stretches:
        mid = (dist >= a + 0.05) & (dist <= b - 0.05)
        # inside a stretch only gaps shorter than step can be clear
        if mid.any():
            assert clear[mid].min() <= r + BAND


def test_first_collision_position_by_hand():
    m = ascii_map("""
    ..........
    ......#...
    ..........""")
    path = Path((Line(0.5, 1.5, 0.0, 9.0),))
    # the unit of width 1 reaches the wall (x = 6) with its front when its centre is at 5.5
    assert first_collision(m, path, 1.0) == pytest.approx(5.0, abs=1e-6)
    (a, b), = blocked_stretches(m, path, 1.0)
    assert a == pytest.approx(5.0, abs=1e-6) and b == pytest.approx(7.0, abs=1e-6)
    assert not path_clear(m, path, 1.0)
    clear = Path((Line(0.5, 0.5, 0.0, 9.0),))
    assert path_clear(m, clear, 0.9) and first_collision(m, clear, 0.9) is None
    assert blocked_stretches(m, clear, 0.9) == []


def test_stretches_find_a_thin_overlap_between_samples():
    """A body grazing a corner for much less than the step still yields a stretch."""
    m = TileMap.empty(8, 8)
    m.set_tile(4, 4, 1)
    # heading up-right (y down: heading -pi/4), passing the corner (4, 4) at 0.499
    u = (math.sqrt(0.5), -math.sqrt(0.5))
    p0 = (4 - 0.499 * math.sqrt(0.5), 4 - 0.499 * math.sqrt(0.5))
    start = (p0[0] - 2.5 * u[0], p0[1] - 2.5 * u[1])
    path = Path((Line(start[0], start[1], -math.pi / 4, 5.0),))
    half = math.sqrt(0.5**2 - 0.499**2)  # 0.0316: the overlap lasts 0.063
    (a, b), = blocked_stretches(m, path, 1.0, step=0.5)
    assert a == pytest.approx(2.5 - half, abs=1e-5) and b == pytest.approx(2.5 + half, abs=1e-5)
    assert not path_clear(m, path, 1.0) and path_clear(m, path, 0.997)
    assert first_collision(m, path, 1.0) == pytest.approx(2.5 - half, abs=1e-5)


# ----------------------------------------------------------------------------- curves

def test_walkable_curve_takes_the_shortest_clear_dubins_curve():
    m = TileMap.empty(24, 24)
    a, b = (5.5, 12.5), (16.5, 12.5)  # east-facing start, south-facing goal, radius 2
    best = dubins(Pose(*a, 0.0), Pose(*b, math.pi / 2), 2.0)
    free = walkable_curve(m, a, 0.0, b, math.pi / 2, 1.0, 2.0)
    assert free is not None and free.length == pytest.approx(best.length) and free.word == best.word
    m.set_tile(10, 11, 1)  # on the shortest curve's straight
    path = walkable_curve(m, a, 0.0, b, math.pi / 2, 1.0, 2.0)
    assert path is not None and path.length > best.length + 1.0 and path_clear(m, path, 1.0)
    shorter = [p for p in dubins_all(Pose(*a, 0.0), Pose(*b, math.pi / 2), 2.0)
               if p.length < path.length - 1e-9]
    assert shorter and not any(path_clear(m, p, 1.0) for p in shorter)
    e = path.end_pose()
    assert math.hypot(e.x - b[0], e.y - b[1]) < 1e-6
    assert abs(math.remainder(e.heading - math.pi / 2, 2 * math.pi)) < 1e-6


def test_walkable_curve_none_when_boxed_in():
    m = ascii_map("""
    .......
    .#####.
    .#...#.
    .#####.
    .......""")
    assert walkable_curve(m, (3.5, 2.5), 0.0, (3.5, 2.5), math.pi, 0.8, 1.0) is None
    assert walkable_curve(m, (3.5, 2.5), 0.0, (0.5, 0.5), 0.0, 0.5, 1.0) is None


# ----------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("bad", [(math.nan, 1.0), (1.0, math.inf), ("1", 1.0), None, (1.0,), 3.0])
def test_bad_points_are_refused(bad):
    m = TileMap.empty(4, 4)
    for fn in (swept_line_clear, walkable_sampled, walkable):
        with pytest.raises(ValueError):
            fn(m, bad, (1.5, 1.5), 1.0)
        with pytest.raises(ValueError):
            fn(m, (1.5, 1.5), bad, 1.0)


def test_bad_widths_headings_maps_paths_are_refused():
    m = TileMap.empty(6, 6)
    arc = Arc.from_pose(Pose(3, 3, 0), 1.0, 1.0)
    path = Path((arc,))
    for w in (-1.0, 0.0, math.nan, math.inf, "wide", None):
        with pytest.raises(ValueError):
            swept_line_clear(m, (1.5, 1.5), (2.5, 2.5), w)
        with pytest.raises(ValueError):
            swept_arc_clear(m, arc, w)
        with pytest.raises(ValueError):
            path_clear(m, path, w)
    for h in (math.nan, "north", None, math.inf):
        with pytest.raises(ValueError):
            walkable_curve(m, (1.5, 1.5), h, (4.5, 4.5), 0.0, 1.0, 1.0)
        with pytest.raises(ValueError):
            walkable_curve(m, (1.5, 1.5), 0.0, (4.5, 4.5), h, 1.0, 1.0)
    with pytest.raises(ValueError):
        walkable_curve(m, (1.5, 1.5), 0.0, (4.5, 4.5), 0.0, 1.0, -1.0)
    with pytest.raises(ValueError):
        swept_line_clear(np.zeros((3, 3)), (1.5, 1.5), (2.5, 2.5), 1.0)
    with pytest.raises(ValueError):
        swept_arc_clear(m, Line(1, 1, 0, 1), 1.0)
    for fn in (path_clear, first_collision, blocked_stretches):
        with pytest.raises(ValueError):
            fn(m, [arc], 1.0)
    with pytest.raises(ValueError):
        blocked_stretches(m, path, 1.0, step=0.0)
    with pytest.raises(ValueError):
        walkable(m, (1.5, 1.5), (2.5, 2.5), 1.0, exact="yes")
