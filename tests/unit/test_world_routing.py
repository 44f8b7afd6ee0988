"""Routes within a tick's budget (``World.route_work``, ``arcstar.world.routing``): the queue
alone on made-up work, then worlds whose avoidance re-plans wait their turn, checked from the
samples with ``worldcheck``."""

import pytest

import arcstar
from arcstar.geometry.primitives import Pose
from arcstar.world import World, methods, presets, read_scenario
from arcstar.world.orders import Order, OrderKind, Route
from arcstar.world.routing import RouteQueue
from arcstar.world.units import Avoidance, UnitSpec
from worldcheck import check_trajectory, deepest_overlap

TOLERANCE = 0.05


def work(pieces, log=None, name="", result=None):
    """Made-up sliced work: yields ``pieces`` in turn (noting each in ``log``), then returns."""
    for p in pieces:
        if log is not None:
            log.append((name, p))
        yield p
    return result if result is not None else Route(None, message=name)


def test_without_a_budget_a_route_is_planned_when_asked():
    q = RouteQueue(None)
    q.new_tick(0)
    route = q.ask("a", ("leg",), lambda: work([500, 500], name="a"))
    assert route is not None and route.message == "a"
    assert q.can_plan() and not q.jobs and q.planned == 1 and q.longest == 0


def test_routes_are_planned_first_asked_first_within_the_budget():
    q = RouteQueue(250)
    log: list = []
    q.new_tick(0)
    assert q.ask("a", (1,), lambda: work([100] * 4, log, "a")) is None
    assert q.ask("b", (1,), lambda: work([100] * 2, log, "b")) is None
    assert log == [("a", 100)] * 3  # a's work until the budget ran out, none of b's
    assert not q.can_plan()
    q.new_tick(1)
    assert log[3:] == [("a", 100), ("b", 100), ("b", 100)]  # a done, then b, within 250 + a piece
    assert q.ask("a", (1,), lambda: work([1], log, "a-again")).message == "a"  # done, not asked anew
    assert q.ask("b", (1,), lambda: work([1], log, "b-again")) is None  # its work has not returned yet
    q.new_tick(2)
    assert q.ask("b", (1,), lambda: work([1], log, "b-again")).message == "b"
    assert len(log) == 6 and (q.planned, q.waited, q.longest) == (2, 3, 2)
    assert not q.jobs


def test_a_route_asked_for_something_else_is_dropped_and_planned_afresh():
    q = RouteQueue(150)
    log: list = []
    q.new_tick(0)
    assert q.ask("a", ("old",), lambda: work([100] * 5, log, "old")) is None
    q.new_tick(1)
    assert q.ask("a", ("new",), lambda: work([100] * 2, log, "new")) is None  # the tick's budget was spent
    q.new_tick(2)
    assert q.ask("a", ("new",), lambda: work([1], log, "x")) is None  # both pieces done, not returned
    q.new_tick(3)
    assert q.ask("a", ("new",), lambda: work([1], log, "x")).message == "new"
    assert [n for n, _ in log].count("old") == 4 and [n for n, _ in log].count("new") == 2
    q.ask("b", (0,), lambda: work([100] * 9, log, "b"))
    q.drop("b")
    q.drop("nobody")
    assert not q.jobs


def test_work_charged_and_spent_counts_against_the_tick():
    q = RouteQueue(300)
    q.new_tick(0)
    q.charge(250)
    assert q.can_plan()
    assert q.spend(work([40, 40], name="now")).message == "now"  # planned at once, past the budget
    assert not q.can_plan() and q.left == 300 - 330
    q.new_tick(1)
    assert q.can_plan() and q.left == 300


@pytest.mark.parametrize("bad", [0, -5, 2.5, True, "many", [1], 1 << 31])
def test_a_bad_route_work_is_refused_naming_it(bad):
    with pytest.raises(arcstar.BadInput) as err:
        RouteQueue(bad)
    assert err.value.field == "route_work"
    doc = presets.door(count=2, avoidance="pinter")
    doc["route_work"] = bad
    with pytest.raises(arcstar.BadInput) as err:
        read_scenario(doc)
    assert err.value.field == "route_work"
    with pytest.raises(arcstar.BadInput) as err:
        World(read_scenario(presets.door(count=2)).world.map, route_work=bad)
    assert err.value.field == "route_work"


@pytest.mark.parametrize("method", ["pinter", "claimed"])
def test_no_route_work_starts_in_a_tick_whose_budget_is_spent(monkeypatch, method):
    """A crowd whose re-plans and checks share 150 units of work a tick: every piece of a
    queued route, and every look for a way round (Pinter's for a unit whose claims collide, a
    held unit's), starts while the tick has work left (a look, once started, runs to its end;
    the claims and the orders' own routes count but do not wait); units wait their turn and
    still keep apart, the same every run."""
    pieces: list[tuple[int, int]] = []  # (tick, work left) before each piece of a queued route
    checks: list[tuple[int, int]] = []  # (tick, work left) as each look at a way round starts
    world: dict = {}
    ask, check, resolve = RouteQueue.ask, methods.Pinter._check, methods.Local.resolve

    def watched_ask(self, uid, what, make):
        def watched():
            inner = make()
            while True:
                pieces.append((world["w"].ticks, self.left))
                try:
                    done = next(inner)
                except StopIteration as end:
                    return end.value
                yield done
        return ask(self, uid, what, watched)

    def watched_check(self, w, u, now):
        checks.append((w.ticks, w.routes.left))
        return check(self, w, u, now)

    def watched_resolve(self, w, u, j, now):
        checks.append((w.ticks, w.routes.left))
        return resolve(self, w, u, j, now)

    monkeypatch.setattr(RouteQueue, "ask", watched_ask)
    monkeypatch.setattr(methods.Pinter, "_check", watched_check)
    monkeypatch.setattr(methods.Local, "resolve", watched_resolve)
    doc = presets.crowd(count=40, size=40, avoidance=method, seed=3)
    doc["duration"], doc["route_work"] = 40, 150
    sc = read_scenario(doc)
    world["w"] = w = sc.world
    w.run(sc.duration)
    assert pieces and checks
    assert all(left > 0 for _, left in pieces), [p for p in pieces if p[1] <= 0][:5]
    assert all(left > 0 for _, left in checks), [c for c in checks if c[1] <= 0][:5]
    assert w.routes.planned > 10 and w.routes.longest >= 2  # the queue was used, and units waited
    assert deepest_overlap([u.samples for u in w.units], [u.spec.width for u in w.units]) <= TOLERANCE
    again = read_scenario(doc).world
    again.run(sc.duration)
    assert [u.samples for u in again.units] == [u.samples for u in w.units]


@pytest.mark.parametrize("method", ["pinter", "claimed"])
def test_a_door_with_a_small_route_budget_still_comes_through(method):
    """The door of 20 people with 100 units of route work a tick (a route of a few hundred
    waits a few ticks): all arrive, apart, within their limits and out of walls, and a unit
    never moves while its route waits."""
    doc = presets.door(count=20, avoidance=method, seed=1)
    doc["route_work"] = 100
    sc = read_scenario(doc)
    w = sc.world
    waiting: list[tuple[str, int]] = []
    end = round(sc.duration / w.dt)
    while w.ticks < end and w.busy:
        w.step()
        waiting += [(uid, w.ticks) for uid in w.routes.jobs]
        assert all(w.unit(uid).speed == 0.0 and w.unit(uid).mover is None for uid in w.routes.jobs)
    if method == "pinter":  # (claimed's door is untangled by a jam's plan: no way round is asked for)
        assert waiting and w.routes.waited > 0
    assert all(w.arrival(u) is not None for u in w.units), [(u.spec.id, u.status) for u in w.units]
    blocked = arcstar.parse_ascii("\n".join(doc["map"])).map.blocked
    for u in w.units:
        s = u.spec
        check_trajectory(u.samples, w.dt, s.speed, s.accel_rate, s.brake_rate + 1e-9, blocked, s.width)
    assert deepest_overlap([u.samples for u in w.units], [u.spec.width for u in w.units]) <= TOLERANCE


def test_a_new_order_drops_the_route_a_unit_waits_for_and_is_planned_at_once():
    """A step aside waits its turn; an order given meanwhile replaces it, planned at once."""
    tilemap = arcstar.parse_ascii("\n".join(["#" * 12] + ["#" + "." * 10 + "#"] * 4 + ["#" * 12])).map
    w = World(tilemap, route_work=1, avoidance=Avoidance.PINTER)
    w.add(UnitSpec("a"), Pose(2.5, 2.5, 0.0))
    w.order("a", Order(OrderKind.MOVE, ((8.5, 2.5, None),), aside=True))
    w.step()
    assert "a" in w.routes.jobs and w.unit("a").mover is None  # one piece a tick: it waits
    w.order("a", Order(OrderKind.MOVE, ((2.5, 4.5, None),)))
    assert "a" not in w.routes.jobs
    w.step()
    a = w.unit("a")
    assert a.mover is not None and "a" not in w.routes.jobs
    w.run(30.0)
    assert (a.x, a.y) == pytest.approx((2.5, 4.5)) and a.arrived is not None


def test_a_unit_removed_while_its_route_waits_leaves_nothing_behind():
    tilemap = arcstar.parse_ascii("\n".join(["#" * 12] + ["#" + "." * 10 + "#"] * 4 + ["#" * 12])).map
    w = World(tilemap, route_work=1)
    w.add(UnitSpec("a"), Pose(2.5, 2.5, 0.0))
    w.add(UnitSpec("b"), Pose(2.5, 4.5, 0.0))
    w.order("a", Order(OrderKind.MOVE, ((8.5, 2.5, None),), aside=True))
    w.step()
    assert "a" in w.routes.jobs
    w.remove("a")
    assert not w.routes.jobs
    w.order("b", Order(OrderKind.MOVE, ((8.5, 4.5, None),)))
    w.run(30.0)
    assert w.unit("b").arrived is not None



@pytest.mark.parametrize("method", ["tighter", "astar"])
def test_a_route_from_past_a_tiles_centre_by_a_walls_corner_keeps_the_body_out_of_the_wall(method):
    """A unit standing past its tile's centre plans from the tile it drives into, and its route
    leads in straight to that tile's centre. Beside a wall's corner that line took a 0.8-wide
    body 0.013 tile into the wall (a random search's run under pinter, the unit re-planned
    where it had braked). The tile ahead is planned from only when the line to its centre is
    clear; else the unit's own tile."""
    from arcstar.world.orders import plan_route, start_tile
    from worldcheck import disc_overlap

    rows = ["##########", "#........#", "#........#", "#....#...#", "#........#", "##########"]
    tilemap = arcstar.parse_ascii("\n".join(rows)).map
    unit = UnitSpec("u", width=0.8, radius=1.0, method=method)
    pose = Pose(6.347, 2.770, 1.083)  # past tile (6, 2)'s centre, driving down past wall (5, 3)'s corner
    assert start_tile(tilemap, pose, (6.5, 4.5, None), 0.3) == (6, 3)  # a thinner body may go straight
    assert start_tile(tilemap, pose, (6.5, 4.5, None), unit.width) == (6, 2)
    route = plan_route(tilemap, unit, pose, ((6.5, 4.5, None),))
    assert route.path is not None
    poses = route.path.sample(0.02)
    assert abs(poses[0][0] - pose.x) < 1e-9 and abs(poses[0][1] - pose.y) < 1e-9
    assert max(disc_overlap(tilemap.blocked, x, y, unit.width) for x, y, _ in poses) <= 1e-6
