"""Run metrics from trajectories (``arcstar.world.metrics``): hand-made runs whose answers are
worked out here by hand, and the sweep against a plain pairwise loop on random runs."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arcstar
from arcstar.geometry.primitives import Pose
from arcstar.world import Order, OrderKind, World, unit_of_kind
from arcstar.world import metrics as M


def still(t, x, y, heading=0.0):
    return [[ti, x, y, heading, 0.0] for ti in t]


def line(t, x0, y0, vx, vy):
    """Samples of a body moving at (vx, vy) tiles/s from (x0, y0) at t[0]."""
    h = math.atan2(vy, vx)
    return [[ti, x0 + vx * (ti - t[0]), y0 + vy * (ti - t[0]), h, math.hypot(vx, vy)] for ti in t]


TICKS = [0.1 * i for i in range(31)]  # 0 .. 3 s


def test_two_discs_approaching_overlap_by_contact_minus_distance():
    # a stands at (5, 5), 1.0 wide; b (0.6 wide) comes from x = 8 at 1 tile/s and stops at x = 5.5.
    # Contact distance (1.0 + 0.6) / 2 = 0.8, closest 0.5 at t = 2.5: overlap 0.3 then.
    a = M.track("a", 1.0, still(TICKS, 5.0, 5.0), None, (5.0, 5.0))
    b_samples = [[t, max(5.5, 8.0 - t), 5.0, math.pi, 1.0 if 8.0 - t > 5.5 else 0.0] for t in TICKS]
    b = M.track("b", 0.6, b_samples, 2.5, (5.5, 5.0))
    m = M.measure([a, b])
    assert m.deepest_overlap == pytest.approx(0.3)
    assert set(m.overlap_pair) == {"a", "b"}
    assert m.overlap_time == pytest.approx(2.5)


def test_discs_that_never_touch_have_no_overlap():
    # Side by side 1.0 apart, both 0.9 wide, moving together: 0.1 of air between them always.
    a = M.track("a", 0.9, line(TICKS, 0.0, 0.0, 1.0, 0.0), None, (9.0, 0.0))
    b = M.track("b", 0.9, line(TICKS, 0.0, 1.0, 1.0, 0.0), None, (9.0, 1.0))
    m = M.measure([a, b])
    assert m.deepest_overlap == 0.0 and m.overlap_pair is None and m.overlap_time is None


def test_diagonal_distance_and_three_bodies():
    # c at (3, 4) from the origin: distance 5; widths 6 and 5 touch at 5.5: overlap 0.5.
    # d far away; e touches a by exactly 0 (distance 2, widths 2 and 2).
    t = [0.0, 1.0]
    units = [M.track("a", 6.0, still(t, 0.0, 0.0), None, (0, 0)),
             M.track("c", 5.0, still(t, 3.0, 4.0), None, (0, 0)),
             M.track("d", 1.0, still(t, 100.0, 100.0), None, (0, 0))]
    m = M.measure(units)
    assert m.deepest_overlap == pytest.approx(0.5) and set(m.overlap_pair) == {"a", "c"}


def test_units_on_different_clocks_hold_their_last_sample():
    # a is sampled at 0 and 2 only: it stands at x = 0 until t = 2, then jumps to x = 10.
    # b passes x = 0.5 at t = 1.5 (sampled there): with a at 0, widths 1 and 1: overlap 0.5.
    a = M.track("a", 1.0, [[0.0, 0.0, 0.0, 0.0, 0.0], [2.0, 10.0, 0.0, 0.0, 0.0]], None, (0, 0))
    b = M.track("b", 1.0, [[0.0, 5.0, 0.0, 0.0, 0.0], [1.5, 0.5, 0.0, 0.0, 0.0], [2.5, 0.5, 0.0, 0.0, 0.0]],
                None, (0, 0))
    m = M.measure([a, b])
    assert m.deepest_overlap == pytest.approx(0.5) and m.overlap_time == pytest.approx(1.5)


def test_nan_positions_are_off_the_map():
    t = [0.0, 1.0, 2.0]
    a = M.track("a", 1.0, still(t, 0.0, 0.0), None, (0, 0))
    b = M.track("b", 1.0, [[0.0, math.nan, math.nan, 0, 0], [1.0, math.nan, math.nan, 0, 0],
                           [2.0, 0.8, 0.0, 0, 0]], None, (0, 0))
    c = M.track("c", 1.0, [[0.0, math.nan, math.nan, 0, 0]] * 1 + [[2.0, math.nan, math.nan, 0, 0]], None, (0, 0))
    m = M.measure([a, b, c])
    assert m.deepest_overlap == pytest.approx(0.2) and m.overlap_time == pytest.approx(2.0)


def test_success_makespan_and_sum_of_travel():
    t = [0.0, 5.0, 10.0]
    a = M.track("a", 0.5, still(t, 0, 0), 4.0, (0, 0))
    b = M.track("b", 0.5, still(t, 9, 0), 7.5, (9, 0))
    c = M.track("c", 0.5, still(t, 20, 3), None, (20, 7))
    m = M.measure([a, b, c])
    assert m.units == 3 and m.arrived == 2 and m.success_rate == pytest.approx(2 / 3)
    assert m.makespan is None and m.latest_arrival == 7.5
    assert m.duration == 10.0 and m.sum_of_travel == pytest.approx(4.0 + 7.5 + 10.0)
    assert m.farthest_from_goal == pytest.approx(4.0)
    m = M.measure([a, b, c], duration=60.0)
    assert m.sum_of_travel == pytest.approx(4.0 + 7.5 + 60.0)
    m = M.measure([a, b])
    assert m.success_rate == 1.0 and m.makespan == 7.5 and m.sum_of_travel == pytest.approx(11.5)
    assert m.farthest_from_goal == 0.0
    empty = M.measure([])
    assert empty.success_rate == 1.0 and empty.units == 0 and empty.deepest_overlap == 0.0


def test_stuck_counts_standing_before_arrival_only():
    # Moves 0..1 s, stands 1..4 s, moves 4..5 s, arrives at 5 s and stands there until 9 s.
    t = [0.5 * i for i in range(19)]
    rows = []
    for ti in t:
        if ti <= 1.0:
            x, v = ti, 1.0
        elif ti < 4.0:
            x, v = 1.0, 0.0
        elif ti <= 5.0:
            x, v = 1.0 + (ti - 4.0), 1.0
        else:
            x, v = 2.0, 0.0
        rows.append([ti, x, 0.0, 0.0, v])
    rows[2][4] = 0.0  # the sample at 1.0 s: it has just stopped
    rows[8][4] = 0.0  # the sample at 4.0 s: it is about to start
    rows[10][4] = 0.0  # the sample at 5.0 s: it has just stopped on the goal
    m = M.measure([M.track("a", 0.5, rows, 5.0, (2.0, 0.0))])
    assert m.longest_stuck == pytest.approx(3.0) and m.stuck_unit == "a"
    # Never arrives: the standing at the end counts (5..9 s = 4 s).
    m = M.measure([M.track("a", 0.5, rows, None, (3.0, 0.0))])
    assert m.longest_stuck == pytest.approx(4.0)
    # Standing on its goal (within AT_GOAL) without being counted as arrived is not stuck.
    m = M.measure([M.track("a", 0.5, rows, None, (2.0, 0.005))])
    assert m.longest_stuck == pytest.approx(3.0)


def test_turning_on_the_spot_is_not_stuck():
    t = [0.1 * i for i in range(21)]
    rows = [[ti, 1.0, 1.0, 0.5 * ti, 0.0] for ti in t]  # pivots at 0.5 rad/s for 2 s
    m = M.measure([M.track("p", 0.5, rows, None, (5.0, 1.0))])
    assert m.longest_stuck == 0.0 and m.stuck_unit is None


def test_creeping_by_micrometres_is_standing_still():
    # A deadlocked pair under a local avoidance jitters: 1e-5 tiles a tick at 2e-4 tiles/s.
    t = [0.05 * i for i in range(101)]
    rows = [[ti, 3.0 + 1e-5 * (i % 2), 1.0, 0.0, 2e-4] for i, ti in enumerate(t)]
    m = M.measure([M.track("j", 0.5, rows, None, (9.0, 1.0))])
    assert m.longest_stuck == pytest.approx(5.0) and m.stuck_unit == "j"


def test_wall_overlap_against_tile_squares():
    # A 3x3 map with its centre tile blocked. A body 1.0 wide at (0.5, 1.5) touches the blocked
    # square [1, 2) x [1, 2) exactly (distance 0.5): no overlap. At (0.7, 1.5): 0.2 deep. At
    # (0.5, 0.5), 0.5 from the square's corner (1, 1) diagonally: 0.5 - sqrt(0.5) < 0, none.
    blocked = np.array([[False, False, False], [False, True, False], [False, False, False]])
    at = [[0.0, 0.5, 1.5, 0, 0], [1.0, 0.7, 1.5, 0, 0], [2.0, 0.5, 0.5, 0, 0]]
    assert M.wall_overlap([M.track("a", 1.0, at, None, (0, 0))], blocked) == (pytest.approx(0.2), 0, 1.0)
    corner = [[0.0, 0.6, 0.6, 0, 0]]  # distance to (1, 1) is sqrt(0.32); 0.6 wide: 0.3 - 0.566 < 0
    assert M.wall_overlap([M.track("c", 0.6, corner, None, (0, 0))], blocked) == (0.0, -1, None)
    corner = [[0.0, 0.8, 0.8, 0, 0]]  # sqrt(0.08) = 0.283 from the corner; 1.0 wide: 0.217 deep
    depth, _, _ = M.wall_overlap([M.track("c", 1.0, corner, None, (0, 0))], blocked)
    assert depth == pytest.approx(0.5 - math.sqrt(0.08))
    # Off the map counts as wall: 0.2 past the left edge; a centre inside a wall: the half-width.
    assert M.wall_overlap([M.track("e", 1.0, [[0.0, 0.3, 0.5, 0, 0]], None, (0, 0))], blocked)[0] == \
        pytest.approx(0.2)
    assert M.wall_overlap([M.track("i", 0.4, [[0.0, 1.5, 1.5, 0, 0]], None, (0, 0))], blocked)[0] == \
        pytest.approx(0.2)
    m = M.measure([M.track("a", 1.0, at, None, (0, 0))], blocked=blocked)
    assert m.deepest_wall == pytest.approx(0.2) and m.wall_unit == "a" and m.wall_time == 1.0
    assert M.measure([M.track("a", 1.0, at, None, (0, 0))]).deepest_wall is None


def test_track_refuses_what_is_not_a_trajectory():
    with pytest.raises(ValueError, match="rows"):
        M.track("a", 1.0, [[0.0, 1.0, 2.0]], None, (0, 0))
    with pytest.raises(ValueError, match="decrease"):
        M.track("a", 1.0, [[1.0, 0, 0, 0, 0], [0.5, 0, 0, 0, 0]], None, (0, 0))
    with pytest.raises(ValueError, match="width"):
        M.track("a", -1.0, [[1.0, 0, 0, 0, 0]], None, (0, 0))


def test_metrics_of_a_world_run():
    # Two units head-on on open ground with no avoidance drive through each other: at some
    # tick their centres are within one tick's closing distance, so the overlap is nearly a width.
    m = arcstar.parse_ascii("\n".join(["." * 12] * 3)).map
    w = World(m, 0.05, 1)
    specs = [unit_of_kind("a", "person"), unit_of_kind("b", "person")]
    w.add(specs[0], Pose(0.5, 1.5, 0.0), [Order(OrderKind.MOVE, ((11.5, 1.5, None),))])
    w.add(specs[1], Pose(11.5, 1.5, math.pi), [Order(OrderKind.MOVE, ((0.5, 1.5, None),))])
    w.run(60.0)
    run = {"units": [{"id": u.id, "arrived": u.arrived, "samples": [list(s) for s in u.samples]} for u in w.units]}
    tracks = M.tracks_from_run(run, {s.id: s.width for s in specs}, {"a": (11.5, 1.5), "b": (0.5, 1.5)})
    res = M.measure(tracks)
    assert res.success_rate == 1.0
    assert res.makespan == max(u.arrived for u in w.units)
    assert res.sum_of_travel == pytest.approx(sum(u.arrived for u in w.units))
    closing = 2 * 1.4 * 0.05
    assert 0.5 - closing <= res.deepest_overlap <= 0.5 + 1e-12
    # it creeps onto its goal at under STILL_SPEED in the last tick before it counts as arrived,
    # which is standing on its goal, not being stuck
    assert res.longest_stuck == 0.0


def brute_force(xs, ys, widths):
    best = 0.0
    for t in range(xs.shape[0]):
        for i in range(xs.shape[1]):
            for j in range(i + 1, xs.shape[1]):
                d = math.hypot(xs[t, i] - xs[t, j], ys[t, i] - ys[t, j])
                if math.isnan(d):
                    continue
                best = max(best, (widths[i] + widths[j]) / 2 - d)
    return best


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 7), st.integers(1, 9), st.floats(2.0, 20.0),
       st.booleans(), st.sampled_from([2, 3, 4096]))
def test_sweep_matches_a_pairwise_loop(seed, ticks, units, side, holes, chunk):
    rng = np.random.default_rng(seed)
    xs = rng.uniform(0, side, (ticks, units)).round(1)  # rounding makes ties in x
    ys = rng.uniform(0, side, (ticks, units)).round(1)
    if holes:
        xs[rng.random(xs.shape) < 0.2] = np.nan
    widths = rng.uniform(0.1, 3.0, units)
    old = M.CHUNK
    M.CHUNK = chunk
    try:
        depth, t, i, j = M.deepest_overlap(xs, ys, widths)
    finally:
        M.CHUNK = old
    expected = brute_force(xs, ys, widths)
    assert depth == pytest.approx(expected, abs=1e-12)
    if depth > 0.0:
        d = math.hypot(xs[t, i] - xs[t, j], ys[t, i] - ys[t, j])
        assert (widths[i] + widths[j]) / 2 - d == pytest.approx(depth, abs=1e-12)
    else:
        assert (t, i, j) == (-1, -1, -1)
