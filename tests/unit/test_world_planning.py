"""The plans units wait for (``world.planning``): a tick's ``plan_work`` is kept to, tasks are
served in the order they came, stale plans are never applied, and a world whose budget never
binds is the world that plans in place."""

from __future__ import annotations

import inspect
import math

import pytest

import arcstar
import arcstar.world.planning as planning
from arcstar.geometry.primitives import Pose
from arcstar.world import Order, OrderKind, World, presets, read_scenario
from arcstar.world.units import Avoidance, unit_of_kind
from test_world_avoidance import TOLERANCE, overlap, run_from


def task(log: list[str], name: str, pieces: list[int]):
    """A task that yields ``pieces`` of work, logging each, then logs that it is done."""
    try:
        for p in pieces:
            log.append(f"{name}:{p}")
            yield p
        log.append(f"{name} done")
    finally:
        log.append(f"{name} closed")


def test_without_a_budget_a_task_is_done_as_it_is_handed_over():
    q, log = planning.PlanQueue(None), []
    assert q.hand("a", task(log, "a", [5, 5, 5]))
    assert log[-2:] == ["a done", "a closed"] and len(q) == 0


def test_tasks_are_served_in_order_within_the_budget_each_tick():
    q, log = planning.PlanQueue(10), []
    assert not q.hand("a", task(log, "a", [4, 4, 4, 4]))  # 12 > 10 after three pieces: stops
    assert log == ["a:4", "a:4", "a:4"] and q.spent == 12
    assert not q.hand("b", task(log, "b", [1]))  # nothing left this tick, and a waits before it
    assert log[-1] == "a:4" and q.waiting("b")
    q.start_tick()  # a ends, then b gets the rest
    assert log[3:] == ["a:4", "a done", "a closed", "b:1", "b done", "b closed"]
    assert len(q) == 0 and q.spent == 5


def test_a_task_handed_over_starts_at_once_only_if_none_waits_before_it():
    q, log = planning.PlanQueue(10), []
    q.hand("a", task(log, "a", [20, 1]))
    q.start_tick()
    assert "a done" in log and q.spent == 1
    assert q.hand("b", task(log, "b", [3]))  # the queue is empty and work is left: now
    assert q.spent == 4


def test_a_dropped_or_replaced_task_is_closed_and_its_end_never_runs():
    q, log = planning.PlanQueue(1), []
    q.hand("a", task(log, "a", [1, 1]))
    second = task(log, "a2", [1])
    q.hand("a", second)  # a second task for the unit replaces the first (no work is left this tick)
    assert "a closed" in log and "a done" not in log
    q.drop("a")
    q.drop("nobody")
    assert inspect.getgeneratorstate(second) == inspect.GEN_CLOSED and "a2 done" not in log and len(q) == 0


def test_a_task_asked_for_something_else_is_stale_and_dropped():
    q, log = planning.PlanQueue(1), []
    q.hand("a", task(log, "a", [1, 1]), stamp=("order", 0))
    assert q.waiting("a", ("order", 0))
    assert not q.waiting("a", ("order", 1)) and "a closed" in log and len(q) == 0


def counted_slices(monkeypatch) -> dict[int, list[int]]:
    """The work of every slice the world's plans do, by the tick it was done in."""
    slices: dict[int, list[int]] = {}
    world: dict[str, World] = {}
    real = next

    def counting(work):
        n = real(work)
        slices.setdefault(world["w"].ticks, []).append(n)
        return n

    monkeypatch.setattr(planning, "next", counting, raising=False)
    return slices, world


@pytest.mark.parametrize("method", ["pinter", "claimed"])
def test_a_crowd_keeps_to_its_budget_a_tick_and_its_units_stand_while_they_wait(monkeypatch, method):
    budget = 150
    slices, world = counted_slices(monkeypatch)
    doc = presets.crowd(count=30, size=40, avoidance=method, seed=5)
    doc["plan_work"] = budget
    w = world["w"] = read_scenario(doc).world
    waited = 0
    for _ in range(600):
        w.step()
        for u in w.units:
            if u.mover is None and w.planning(u):  # its leg waits for its route
                waited += 1
                assert u.speed == 0.0 and u.samples[-1][4] == 0.0
    assert waited > 30  # the budget binds: routes wait over ticks
    for tick, pieces in slices.items():
        assert sum(pieces[:-1]) < budget, (tick, pieces)  # the last slice began under the budget
    assert max(sum(p) for p in slices.values()) > budget  # (so the check above checked something)
    assert sum(1 for u in w.units if u.arrived is not None) >= 10  # (25 and 28 of 30 planning in place)


@pytest.mark.parametrize("method", ["pinter", "claimed"])
def test_a_door_of_twenty_comes_through_apart_on_a_small_budget_the_same_every_run(method):
    doc = presets.door(count=20, avoidance=method, seed=1)
    doc["plan_work"] = 150
    sc = read_scenario(doc)
    w = run_from(sc, doc)  # every trajectory checked: speeds, braking, walls
    assert all(u.arrived is not None for u in w.units), [(u.spec.id, u.status) for u in w.units]
    assert overlap(w) <= TOLERANCE
    again = read_scenario(doc).world
    again.run(sc.duration)
    assert [u.samples for u in again.units] == [u.samples for u in w.units]


@pytest.mark.parametrize("method", ["pinter", "claimed", "cooperative"])
def test_a_budget_that_never_binds_is_planning_in_place(method):
    doc = presets.crowd(count=24, size=32, avoidance=method, seed=2)
    ample = dict(doc, plan_work=1 << 30)
    a, b = read_scenario(doc).world, read_scenario(ample).world
    for _ in range(200):
        a.step()
        b.step()
    assert [u.samples for u in a.units] == [u.samples for u in b.units]


def open_world(plan_work: int) -> World:
    return World(arcstar.parse_ascii("\n".join(["." * 30] * 12)).map, avoidance=Avoidance.PINTER,
                 plan_work=plan_work)


def test_an_order_given_while_the_route_waits_replaces_it():
    w = open_world(plan_work=1)
    u = w.add(unit_of_kind("p", "person"), Pose(2.5, 2.5, 0.0), [Order(OrderKind.MOVE, ((27.5, 2.5, None),))])
    w.step()
    assert w.planning(u) and u.mover is None  # one slice a tick: the route is still being planned
    w.order("p", Order(OrderKind.MOVE, ((2.5, 9.5, None),)))
    w.run(60.0)
    assert u.status == "arrived" and math.hypot(u.x - 2.5, u.y - 9.5) < 0.02
    assert max(x for _, x, _, _, _ in u.samples) < 3.0  # it never set off east, to the old goal


def test_a_unit_removed_while_its_route_waits_leaves_the_others_to_go_on():
    w = open_world(plan_work=1)
    w.add(unit_of_kind("a", "tank"), Pose(2.5, 2.5, 0.0), [Order(OrderKind.MOVE, ((27.5, 2.5, None),))])
    b = w.add(unit_of_kind("b", "person"), Pose(2.5, 9.5, 0.0), [Order(OrderKind.MOVE, ((27.5, 9.5, None),))])
    w.step()
    w.remove("a")
    assert len(w.plans) <= 1
    w.run(60.0)
    assert b.status == "arrived" and [v.spec.id for v in w.units] == ["b"]
