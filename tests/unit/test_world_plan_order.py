"""The order in which a cooperative plan's units take a tile, changed while they drive
(``tile_order.TileOrder.go_first``): a unit the plan has wait for one still far off goes first,
unless the new order would make a ring of waits, the other is near, or the unit would end its
plan on the other's way. Hand-made plans on a row of tiles, with the units where the checks read
them; then a run on a map with long ways, checked from its samples alone."""

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcstar.world import read_scenario
from arcstar.world.tile_order import FAR_BEHIND, Schedule, TileOrder
from worldcheck import check_trajectory, deepest_overlap, longest_stuck


@dataclass
class Body:
    x: float
    y: float


@dataclass
class Where:
    """What ``go_first`` reads of the world: the time and where each unit is."""

    bodies: dict[str, Body]
    time: float = 0.0

    def find(self, uid: str) -> Body | None:
        return self.bodies.get(uid)


def row(x0: int, x1: int, y: int = 0) -> list[tuple[int, int]]:
    """The tiles from column x0 to x1 (either way) on row y."""
    step = 1 if x1 >= x0 else -1
    return [(x, y) for x in range(x0, x1 + step, step)]


def planned(plans: dict[str, tuple[list[tuple[int, int]], list[int]]]) -> TileOrder:
    """A plan with each unit's tiles and the tick it enters each, its tiles in by_tile as a round
    leaves them; every unit on its first tile, its goal the last."""
    c = TileOrder()
    for uid, (tiles, ticks) in plans.items():
        visits = list(zip(tiles, ticks, strict=True))
        c.plans[uid] = Schedule(visits, tiles[-1], tiles[-1])
        for k, (tile, t) in enumerate(visits):
            c.by_tile.setdefault(tile, []).append((t, uid, k))
    return c


def at(tile: tuple[int, int]) -> Body:
    return Body(tile[0] + 0.5, tile[1] + 0.5)


def waits_for(c: TileOrder, uid: str, k: int) -> list[str]:
    return list(c.ahead_of(uid, c.plans[uid].visits[k]))


def test_a_unit_goes_first_over_one_far_off_and_the_other_then_waits_for_it():
    """a waits at (10, 0) for b, planned there first but still 30 tiles off along the row: a
    goes first there and on (11, 0), the tiles they share, then turns off the row; b, when it
    gets there, waits for a."""
    far = FAR_BEHIND + 14
    a = ([(9, 0), (10, 0), (11, 0), (11, 1), (11, 2)], [40, 41, 42, 43, 44])
    b = (row(10 + far, 0), list(range(0, far + 11)))
    c = planned({"a": a, "b": b})
    world = Where({"a": at((9, 0)), "b": at((10 + far, 0))})
    assert waits_for(c, "a", 1) == ["b"] and waits_for(c, "a", 2) == ["b"]
    assert c.go_first(world, "a", c.plans["a"].visits[1])
    assert waits_for(c, "a", 1) == [] and waits_for(c, "a", 2) == []
    assert c.first == {("a", "b"): ("a", frozenset({(10, 0), (11, 0)}))}
    k = next(i for i, (t, _) in enumerate(c.plans["b"].visits) if t == (11, 0))
    assert waits_for(c, "b", k) == ["a"]  # where b was first, it now waits for a
    c.plans["a"].progress = 2
    assert waits_for(c, "b", k) == []


def test_a_unit_waits_for_one_near_as_planned():
    """The same plans with b only a few tiles off: the order stands."""
    near = FAR_BEHIND // 2
    a = ([(9, 0), (10, 0), (11, 0), (11, 1), (11, 2)], [40, 41, 42, 43, 44])
    c = planned({"a": a, "b": (row(10 + near, 0), list(range(0, near + 11)))})
    world = Where({"a": at((9, 0)), "b": at((10 + near, 0))})
    assert not c.go_first(world, "a", c.plans["a"].visits[1])
    assert waits_for(c, "a", 1) == ["b"]


def test_a_unit_never_goes_first_to_end_its_plan_on_the_others_way():
    """a's plan ends on b's way: gone first, it would stand there and b could never pass."""
    far = FAR_BEHIND + 4
    c = planned({"a": (row(9, 12), list(range(40, 44))), "b": (row(10 + far, 0), list(range(0, far + 11)))})
    world = Where({"a": at((9, 0)), "b": at((10 + far, 0))})
    assert not c.go_first(world, "a", c.plans["a"].visits[1])


def ring_plans(with_c: bool) -> tuple[TileOrder, Where]:
    """b, far off east on row 1, is planned through Z = (11, 1) and X = (10, 1) first; a, at
    (9, 1), through X and then Y = (10, 2); c (with ``with_c``) through Z after b and then Y
    before a. With a first at X, b would wait on Z for a to leave X, a for c to leave Y and c
    for b to leave Z."""
    far = FAR_BEHIND + 4
    b = ([*row(10 + far, 11, 1), (10, 1), (10, 0)], list(range(0, far + 2)))
    a = ([(9, 1), (10, 1), (10, 2), (10, 3)], [39, 40, 41, 42])
    plans = {"a": a, "b": b}
    bodies = {"a": at((9, 1)), "b": at((10 + far, 1))}
    if with_c:
        plans["c"] = ([(11, 2), (11, 1), (10, 2), (9, 2)], [29, 30, 31, 32])
        bodies["c"] = at((11, 2))
    return planned(plans), Where(bodies)


def test_an_order_that_would_close_a_ring_of_waits_is_refused():
    plan, world = ring_plans(with_c=True)
    assert plan.completes({})  # the plans as made can be driven to their end
    assert waits_for(plan, "a", 1) == ["b"]
    assert not plan.go_first(world, "a", plan.plans["a"].visits[1])
    assert waits_for(plan, "a", 1) == ["b"] and plan.first == {}
    assert not plan.go_first(world, "a", plan.plans["a"].visits[1])  # not asked again so soon
    world.time = 1.0
    plan.plans["c"].progress = 3  # c went by: no ring left
    assert plan.go_first(world, "a", plan.plans["a"].visits[1])


def test_without_the_third_unit_the_same_order_is_taken():
    plan, world = ring_plans(with_c=False)
    assert plan.go_first(world, "a", plan.plans["a"].visits[1])
    assert waits_for(plan, "a", 1) == []



@pytest.mark.parametrize("d_off", [FAR_BEHIND + 6, FAR_BEHIND // 2])
def test_a_unit_goes_first_over_a_third_on_the_shared_tiles_only_if_it_too_is_far(d_off):
    """a, at (9, 5), shares row 5 from (10, 5) to (14, 5) with b coming the other way, far off;
    d crosses the row at (12, 5), planned there before a. Going first over b, a would still wait
    for d there: it goes first over both when d is far off too, else over neither."""
    far = FAR_BEHIND + 10
    a = ([*row(9, 14, 5), (14, 6), (14, 7)], list(range(40, 48)))
    b = (row(14 + far, 8, 5), list(range(0, far + 7)))
    d = ([(12, 5 - d_off + k) for k in range(d_off)] + [(12, 5), (12, 6), (12, 7)], list(range(10, 13 + d_off)))
    plan = planned({"a": a, "b": b, "d": d})
    world = Where({"a": at((9, 5)), "b": at((14 + far, 5)), "d": at((12, 5 - d_off))})
    assert waits_for(plan, "a", 1) == ["b"] and sorted(waits_for(plan, "a", 3)) == ["b", "d"]
    went = plan.go_first(world, "a", plan.plans["a"].visits[1])
    assert went is (d_off > FAR_BEHIND)
    if went:
        assert set(plan.first) == {("a", "b"), ("a", "d")} and waits_for(plan, "a", 3) == []
        assert plan.first[("a", "d")] == ("a", frozenset({(12, 5)}))
    else:
        assert plan.first == {} and sorted(waits_for(plan, "a", 3)) == ["b", "d"]


def test_going_first_again_over_the_same_unit_adds_the_tiles():
    """a goes first over b, far off, on row 0; later it would wait for b again where their ways
    cross on row 2, b still far off: it goes first there too, on both stretches."""
    far = FAR_BEHIND + 4
    a = ([(9, 0), (10, 0), (11, 0), (11, 1), (11, 2), (10, 2), (9, 2), (8, 2), (7, 2), (6, 2)],
         list(range(40, 50)))
    b = ([*row(10 + far, 8, 0), (8, 1), (8, 2), (8, 3)], list(range(0, far + 6)))
    plan = planned({"a": a, "b": b})
    world = Where({"a": at((9, 0)), "b": at((10 + far, 0))})
    assert plan.go_first(world, "a", plan.plans["a"].visits[1])
    assert plan.first[("a", "b")] == ("a", frozenset({(10, 0), (11, 0)}))
    plan.plans["a"].progress = 6  # on (9, 2), about to wait for b on (8, 2)
    world.time = 2.0
    assert waits_for(plan, "a", 7) == ["b"]
    assert plan.go_first(world, "a", plan.plans["a"].visits[7])
    assert plan.first[("a", "b")] == ("a", frozenset({(10, 0), (11, 0), (8, 2)}))
    k = next(i for i, (t, _) in enumerate(plan.plans["b"].visits) if t == (8, 2))
    assert waits_for(plan, "b", k) == ["a"]

@pytest.mark.parametrize("whole", [True, False])
def test_completes_finds_two_units_that_would_meet_head_on(whole):
    """a and b share two tiles, met from either side, b first on both as planned. a first on
    both drives; a first on only one would have each reach the other's next tile."""
    a = ([(0, 0), (1, 0), (2, 0), (3, 0)], [5, 6, 7, 8])
    b = ([(3, 1), (2, 0), (1, 0), (0, 1)], [0, 1, 2, 3])
    plan = planned({"a": a, "b": b})
    assert plan.completes({})
    tiles = {(1, 0), (2, 0)} if whole else {(1, 0)}
    assert plan.completes({("a", "b"): ("a", frozenset(tiles))}) is whole


def test_a_car_does_not_wait_at_a_crossing_for_a_person_still_far_off():
    """A cooperative plan counts one move a tick for every unit, so over a long way it drifts
    from the driving: a person 35 tiles from a crossing is planned over it before a car 45 tiles
    off, but the car, nearly three times as fast, gets there first and waited 13 s for the
    person, still 20 tiles away. It now goes first; the person's run is as before. Checked from
    the samples: limits, walls, overlaps, stands."""
    w, h = 80, 70
    rows = ["#" * w] + ["#" + "." * (w - 2) + "#" for _ in range(h - 2)] + ["#" * w]
    doc = {"map": rows, "seed": 1, "duration": 120, "avoidance": "cooperative",
           "units": [{"id": "person", "kind": "person", "start": [75.5, 20.5, 3.14159], "goal": [4.5, 20.5]},
                     {"id": "car", "kind": "car", "start": [40.5, 65.5, -1.5708], "goal": [40.5, 2.5]}]}
    world = read_scenario(doc).world
    world.run(doc["duration"])
    blocked = np.array([[c == "#" for c in r] for r in rows])
    for u in world.units:
        s = u.spec
        check_trajectory(u.samples, world.dt, s.speed, s.accel_rate, s.brake_rate + 1e-9, blocked, s.width)
    assert deepest_overlap([u.samples for u in world.units], [u.spec.width for u in world.units]) <= 0.05
    car, person = world.unit("car"), world.unit("person")
    assert car.arrived is not None and person.arrived is not None
    assert longest_stuck(car.samples, car.arrived) < 1.0  # it stood 13 s at the crossing
    # it crossed the person's row before the person got there
    crossed = next(t for t, x, y, _h, _v in car.samples if y < 20.0)
    reached = next(t for t, x, y, _h, _v in person.samples if x < 41.0)
    assert crossed < reached


def drivable(c: TileOrder, first: dict) -> bool:
    """Whether every plan of ``c`` reaches its end, worked out here as a fixed point: any unit
    whose next tile no unit it waits for still holds moves on (a unit waits there for one with
    a visit on that tile it has not left, planned there earlier, or going first there by
    ``first``), until none can; moving on never makes another wait, so the order is free."""
    progress = {uid: p.progress for uid, p in c.plans.items()}
    moved = True
    while moved:
        moved = False
        for uid, plan in c.plans.items():
            while progress[uid] + 1 < len(plan.visits):
                tile, tick = plan.visits[progress[uid] + 1]
                blocked = False
                for vid, other in c.plans.items():
                    if vid == uid:
                        continue
                    for k, (t_tile, t) in enumerate(other.visits):
                        if t_tile != tile or progress[vid] > k:
                            continue
                        pair = first.get(tuple(sorted((uid, vid))))
                        if pair is not None and tile in pair[1]:
                            blocked |= pair[0] == vid
                        else:
                            blocked |= t < tick and (t >= 0 or tick > 0)
                if blocked:
                    break
                progress[uid] += 1
                moved = True
    return all(progress[uid] + 1 >= len(p.visits) for uid, p in c.plans.items())


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_completes_is_the_fixed_point_of_the_waits(data):
    """``completes`` on random plans over a few tiles, progress and pairs' orders: every plan
    driven to its end exactly when the fixed point of the tile order's waits says so."""
    tiles = [(x, y) for x in range(3) for y in range(2)]
    plans = {}
    for i in range(data.draw(st.integers(2, 5))):
        way = data.draw(st.lists(st.sampled_from(tiles), min_size=1, max_size=7))
        start = data.draw(st.integers(-1, 4))  # (-1: a tile held from the start, as a body holds)
        plans[f"u{i}"] = (way, list(range(start, start + len(way))))
    c = planned(plans)
    for plan in c.plans.values():
        plan.progress = data.draw(st.integers(0, len(plan.visits) - 1))
    first = {}
    for _ in range(data.draw(st.integers(0, 3))):
        a, b = sorted(data.draw(st.lists(st.sampled_from(sorted(plans)), min_size=2, max_size=2, unique=True)))
        first[(a, b)] = (data.draw(st.sampled_from((a, b))),
                         frozenset(data.draw(st.lists(st.sampled_from(tiles), max_size=4))))
    assert c.completes(first) is drivable(c, first)
