"""Units that cannot get past each other: when LaCAM has searched every way the units of a plan
(the cooperative round, or a jam's under ``pinter`` and ``claimed``) can move and none brings
them all to their goals, units give up their orders one at a time, each reading ``stuck``,
until the rest can be planned; units that can get through are not stopped. Before this, the
local methods' units read ``moving`` until the run's end.

Which units cannot get through is worked out here without the world: on a 1-wide corridor with
no bay, two units facing each other can never pass (the corridor's order of units is fixed).
"""

from __future__ import annotations

import pytest

from arcstar.search.lacam import lacam
from arcstar.world import UnitStatus
from test_world_avoidance import overlap, run

METHODS = ["pinter", "claimed", "cooperative"]
UNITS = {"person": {"kind": "person"}, "tank": {"kind": "tank"},
         "example": {"width": 0.8, "radius": 0.5, "speed": 2.0}}


def corridor(length: int, rows_above: list[str] | None = None) -> list[str]:
    wall = "#" * (length + 2)
    return [*(rows_above or []), wall, "#" + "." * length + "#", wall]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("unit", list(UNITS))
@pytest.mark.parametrize("length,a,b", [(8, 1, 8), (11, 2, 9), (13, 1, 12), (12, 4, 7)])
def test_a_swap_in_a_corridor_with_no_bay_ends_with_one_or_both_stuck(method, unit, length, a, b):
    """They cannot pass: one gives up where it stands; the other then gets to its goal only if
    the first can be pushed back off it into the corridor's end (a tile free behind it), and
    otherwise gives up too. The run ends; nobody reads ``moving``."""
    doc = {"map": corridor(length), "seed": 3, "duration": 200, "avoidance": method, "units": [
        {"id": "a", "start": [a + 0.5, 1.5, 0.0], "goal": [b + 0.5, 1.5], **UNITS[unit]},
        {"id": "b", "start": [b + 0.5, 1.5, 3.14159], "goal": [a + 0.5, 1.5], **UNITS[unit]}]}
    w = run(doc)
    assert not w.busy and w.time < 200 - 1.0, "the run went on to its end"
    states = [u.state for u in w.units]
    assert set(states) <= {UnitStatus.STUCK, UnitStatus.ARRIVED} and UnitStatus.STUCK in states, \
        [(u.id, u.status) for u in w.units]
    for u in w.units:
        assert not u.busy
        if u.state is UnitStatus.STUCK:
            assert u.arrived is None and u.status.startswith("stuck"), u.status
        else:
            goal = doc["units"][w.units.index(u)]["goal"]
            assert abs(u.x - goal[0]) < 0.01 and abs(u.y - goal[1]) < 0.01
    if (a, b) == (1, length):  # nobody has a tile behind it to be pushed onto
        assert states == [UnitStatus.STUCK, UnitStatus.STUCK]
    assert w.units[0].x < w.units[1].x  # (the world's own check: they never passed each other)
    assert overlap(w) <= 0.05


@pytest.mark.parametrize("method", METHODS)
def test_only_the_units_that_cannot_get_through_stop(method):
    """The swap above, and a unit in a room above it that goes about its business: it arrives."""
    rows = corridor(12, ["#" * 14, "#" + "." * 12 + "#", "#" + "." * 12 + "#"])  # a room above it
    doc = {"map": rows, "seed": 5, "duration": 200, "avoidance": method, "units": [
        {"id": "a", "kind": "person", "start": [1.5, 4.5, 0.0], "goal": [12.5, 4.5]},
        {"id": "b", "kind": "person", "start": [12.5, 4.5, 3.14159], "goal": [1.5, 4.5]},
        {"id": "c", "kind": "person", "start": [1.5, 1.5, 0.0], "goal": [12.5, 2.5]}]}
    w = run(doc)
    a, b, c = w.units
    assert c.arrived is not None and c.state is UnitStatus.ARRIVED, (c.state, c.status)
    assert a.state is UnitStatus.STUCK and b.state is UnitStatus.STUCK, (a.status, b.status)
    assert not w.busy


@pytest.mark.parametrize("method", METHODS)
def test_a_corridor_with_a_bay_is_not_given_up(method):
    """The same swap with a bay: a way exists, nobody gives up, both arrive."""
    rows = corridor(11)
    rows[0] = rows[0][:6] + "." + rows[0][7:]
    rows.insert(0, "#" * 13)
    doc = {"map": rows, "seed": 3, "duration": 200, "avoidance": method, "units": [
        {"id": "a", "kind": "person", "start": [1.5, 2.5, 0.0], "goal": [11.5, 2.5]},
        {"id": "b", "kind": "person", "start": [11.5, 2.5, 3.14159], "goal": [1.5, 2.5]}]}
    w = run(doc)
    assert all(u.arrived is not None and u.state is UnitStatus.ARRIVED for u in w.units), \
        [(u.id, u.status) for u in w.units]


def test_lacam_tells_a_search_run_dry_from_one_cut_short():
    line = list(range(6))

    def near(v: int) -> list[int]:
        return [u for u in (v - 1, v + 1) if 0 <= u < 6]

    dist = [[abs(v - g) for v in line] for g in (5, 0)]
    dry = lacam([0, 5], [5, 0], near, dist, max_nodes=10_000)
    assert dry.configs is None and dry.exhausted
    grid = [[v + d for v in range(9)] for d in (0,)]  # one agent, a long way, one node allowed
    cut = lacam([0], [8], lambda v: [u for u in (v - 1, v + 1) if 0 <= u < 9], [[8 - v for v in grid[0]]],
                max_nodes=1)
    assert cut.configs is None and not cut.exhausted
    found = lacam([0], [8], lambda v: [u for u in (v - 1, v + 1) if 0 <= u < 9], [[8 - v for v in grid[0]]])
    assert found.configs is not None and not found.exhausted


def test_the_lab_world_reports_stuck_units_with_their_own_code():
    """The service's status codes come from the world's states: a stuck unit is "stuck" (it read
    "idle" when codes were matched on the text meant for people)."""
    from arcstar.service import Service
    from arcstar.service.worlds import STATUS_CODES
    from test_service_world import arrays, call, person, start_world

    svc = Service()
    start_world(svc, corridor(8), avoidance="cooperative")
    call(svc, {"type": "world_add", "id": 2, "units": [person("a", 1.5, 1.5, goal=[8.5, 1.5]),
                                                        person("b", 8.5, 1.5, goal=[1.5, 1.5])]})
    out = call(svc, {"type": "world_step", "id": 3, "ticks": 200})
    assert [STATUS_CODES[c] for c in arrays(svc, out)["status"]] == ["stuck", "stuck"]
    assert set(STATUS_CODES) == {s.value for s in UnitStatus}
