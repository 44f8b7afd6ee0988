"""``spacing.room`` checks only the units that could touch a unit's way ahead (a distance and a
bounding-box test first, for speed). These tests hold it to the same check run over every other
unit with nothing skipped, on crowds in motion: skipping must never change the answer."""

import math

import pytest

from arcstar.world import presets, read_scenario, spacing


def room_over_all(u, units, near, dt, standoff):
    """``room`` with no unit left out: the body check against every other unit, then the
    crossing check against every moving one (the order ``room`` uses, so ties agree)."""
    m = u.mover
    if m is None:
        return math.inf, None
    others = [j for j in units if j is not u]
    dist, xy = m.points(spacing.SPACING)
    i0 = int((dist <= m.s).sum())
    i1 = int((dist <= m.s + spacing.reach_of(u, dt)).sum())
    ahead = xy[i0:i1 + 1]
    if len(ahead) == 0 or not others:
        return math.inf, None
    best, who = spacing.standing_in_way(u, others, near, dt, dist[i0:i1 + 1], ahead, standoff)
    times = (dist[i0:i1 + 1] - m.s) / max(m.v, spacing.VMIN)
    for j in others:
        if j.mover is None or abs(j.speed) < spacing.VMIN:
            continue
        at = spacing.crossing(u, j, spacing.ahead_of(j, dt), ahead, times,
                              u.spec.width / 2.0 + j.spec.width / 2.0 + spacing.MARGIN)
        if at is not None:
            gap = max(0.0, float(dist[i0 + at]) - m.s - spacing.SPACING)
            if gap < best:
                best, who = gap, j
    return best, who


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("standoff", [True, False])
def test_room_skips_only_units_that_cannot_matter(seed, standoff):
    w = read_scenario(presets.crowd(count=60, size=40, avoidance="pinter", seed=seed)).world
    w.record = False
    checked = limited = 0
    for tick in range(120):
        w.step()
        if tick % 10:
            continue
        near = spacing.Neighbours(w.units)
        for u in w.units:
            got = spacing.room(u, near, w.dt, standoff)
            want = room_over_all(u, w.units, near, w.dt, standoff)
            assert got[0] == want[0], (tick, u.spec.id)
            assert got[1] is want[1], (tick, u.spec.id)
            checked += 1
            limited += want[1] is not None
    assert checked > 500 and limited > 20  # the crowd is dense enough for the check to bite


def test_a_units_way_is_asked_again_once_it_has_moved():
    w = read_scenario(presets.crowd(count=20, size=32, avoidance="pinter", seed=4)).world
    w.record = False
    for _ in range(5):
        w.step()
    near = spacing.Neighbours(w.units)
    j = next(u for u in w.units if u.mover is not None and u.mover.v > 0)
    before = near.way(j, w.dt)
    assert before is not None and near.way(j, w.dt) is before  # kept while j stands where it was
    w.step()  # j moves on
    after = near.way(j, w.dt)
    fresh = spacing.ahead_of(j, w.dt)
    assert after is not None and fresh is not None
    assert after is not before and after[1].tolist() == fresh[1].tolist()
