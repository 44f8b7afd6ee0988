"""A cooperative plan as driven (world.plan_times): seconds, not ticks.

Each expected time is worked out here from the unit's numbers and the module's stated rules: a
tile at top speed, plus the time to get going and stop when it starts from a stand; a pivot at
the pivot rate; a unit enters a tile once every unit planned there before it has reached its
centre, and is on its centre no sooner than the last of them is on its next.
"""

from __future__ import annotations

import math

import pytest

from arcstar.world.plan_times import driven
from arcstar.world.units import UnitSpec

UNIT = UnitSpec("u", speed=2.0, acceleration=2.0, braking=4.0, turn_rate=2.0)
SLOW = UnitSpec("s", speed=2.0, acceleration=2.0, braking=4.0, turn_rate=0.5)
#: A tile from a stand (stopping on its centre), and a tile on the run.
FROM_STAND = 1 / 2.0 + 2.0 / (2 * 2.0) + 2.0 / (2 * 4.0)
ON_THE_RUN = 1 / 2.0
EAST, SOUTH = 0.0, math.pi / 2


def test_a_straight_run_gets_going_once():
    d = driven([[(0, 0), (1, 0), (2, 0), (3, 0)]], [(3, 0)], [UNIT], [EAST])
    assert d.done == [pytest.approx(FROM_STAND + 2 * ON_THE_RUN)]
    assert d.stands == [0.0]


def test_a_corner_is_a_pivot_and_a_fresh_start_not_a_stand():
    d = driven([[(0, 0), (1, 0), (1, 1)]], [(1, 1)], [UNIT], [EAST])
    assert d.done == [pytest.approx(FROM_STAND + (math.pi / 2) / 2.0 + FROM_STAND)]
    assert d.stands == [0.0]


def test_a_planned_wait_is_a_stand_until_the_one_ahead_is_on_the_tile():
    """``b`` waits on (0, 1) while ``a`` crosses (1, 1) southwards, then goes east into it."""
    a = [(1, 0), (1, 1), (1, 2), (1, 2)]
    b = [(0, 1), (0, 1), (0, 1), (1, 1)]
    d = driven([a, b], [(1, 2), (1, 1)], [UNIT, UNIT], [SOUTH, EAST])
    assert d.stands == [0.0, pytest.approx(FROM_STAND)]
    assert d.done == [pytest.approx(FROM_STAND + ON_THE_RUN), pytest.approx(2 * FROM_STAND)]
    assert d.makespan == pytest.approx(2 * FROM_STAND) and d.longest_stand == pytest.approx(FROM_STAND)


def test_the_wait_lasts_as_long_as_the_one_ahead_takes_to_turn_in():
    """The same wait, ``a`` now facing east at the start: it pivots before it goes, slowly or
    quickly, and ``b``'s stand grows with its pivot, which the plan's ticks cannot tell."""
    a = [(1, 0), (1, 1), (1, 2), (1, 2)]
    b = [(0, 1), (0, 1), (0, 1), (1, 1)]
    for spec in (UNIT, SLOW):
        d = driven([a, b], [(1, 2), (1, 1)], [spec, UNIT], [EAST, EAST])
        assert d.stands[1] == pytest.approx((math.pi / 2) / spec.pivot_rate + FROM_STAND)


def test_a_unit_following_into_a_tile_left_the_same_tick_is_on_it_once_the_leader_is_on_its_next():
    """A file of three moving east together; the leader first pivots from facing south, slowly.
    Listed follower first, so the order within a tick matters."""
    units = [[(0, 0), (1, 0)], [(1, 0), (2, 0)], [(2, 0), (3, 0)]]
    d = driven(units, [(1, 0), (2, 0), (3, 0)], [UNIT, UNIT, SLOW], [EAST, EAST, SOUTH])
    lead = (math.pi / 2) / SLOW.pivot_rate + FROM_STAND
    assert d.done == [pytest.approx(lead)] * 3
    # held behind the leader's body: standing, though the plan has them move at once
    assert d.stands == [pytest.approx(lead - FROM_STAND)] * 2 + [0.0]


def test_waiting_on_its_own_goal_is_not_a_stand():
    """``r`` on (1, 0) steps into (1, 1) once ``q``, slow to turn, has crossed it. Resting on
    its goal, the wait is not a stand (``metrics`` does not count it either); passing through,
    it is."""
    q = [(0, 1), (1, 1), (2, 1), (2, 1)]
    r = [(1, 0), (1, 0), (1, 1), (1, 2)]
    q_on = (math.pi / 2) / SLOW.pivot_rate + FROM_STAND
    resting = driven([q, r], [(2, 1), (1, 0)], [SLOW, UNIT], [SOUTH, SOUTH])
    passing = driven([q, r], [(2, 1), (1, 2)], [SLOW, UNIT], [SOUTH, SOUTH])
    assert resting.stands == [0.0, 0.0]
    assert passing.stands == [0.0, pytest.approx(q_on)]


def test_a_unit_on_its_goal_steps_aside_just_in_time():
    """``r`` rests on its goal (3, 0) in a corridor with a bay below it; ``p``, slow to turn at
    the start, comes through. As the world drives it, ``r`` leaves its goal only once ``p`` is
    where the plan had it the tick before (``Cooperative._needed``), so it does not stand in the
    bay for ``p``'s whole approach."""
    p = [(0, 0), (1, 0), (2, 0), (2, 0), (3, 0), (4, 0)]
    r = [(3, 0), (3, 0), (3, 0), (3, 1), (3, 1), (3, 0)]
    d = driven([p, r], [(4, 0), (3, 0)], [SLOW, UNIT], [-math.pi / 2, SOUTH])
    p_near = (math.pi / 2) / SLOW.pivot_rate + FROM_STAND + ON_THE_RUN  # p on (2, 0)'s centre
    assert d.stands == [0.0, 0.0]
    assert d.done[1] == pytest.approx(p_near + FROM_STAND + math.pi / 2.0 + FROM_STAND)  # aside, about turn, back

def test_nothing_to_drive():
    d = driven([[(2, 2)]], [(2, 2)], [UNIT], [EAST])
    assert d.done == [0.0] and d.stands == [0.0]
    assert driven([], [], [], []).makespan == 0.0
