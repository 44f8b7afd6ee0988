"""The world's motion: a unit arrives, within its limits, never in a wall, the same every run.

Every property is checked from the samples with ``worldcheck`` (code of its own, not the
world's): speed, acceleration and braking from successive samples, continuity, heading along
the motion, and an exact disc-against-tile test."""

import math

import numpy as np
import pytest

import arcstar
from arcstar.geometry.primitives import Pose
from arcstar.maps.tilemap import WALL
from arcstar.world import KIND_PRESETS, Avoidance, Kind, Order, OrderKind, UnitSpec, World, unit_of_kind
from worldcheck import check_trajectory, disc_overlap, wrap

OPEN = ["............", "............", "............", "............"]
CORNER = ["..........", "..........", "......###.", "......#...", "......#..."]
ROOMS = ["..........#.........", "..........#.........", "....................", "..........#.........",
         "..........#.........", "####.######.........", "....................", "...................."]


def world_of(rows, specs_poses_orders, dt=0.05, seed=1):
    m = arcstar.parse_ascii("\n".join(rows)).map
    w = World(m, dt, seed)
    for spec, pose, orders in specs_poses_orders:
        w.add(spec, Pose(*pose), orders)
    return w, m


def move(x, y, h=None, at=None):
    return Order(OrderKind.MOVE, ((x, y, h),), at)


def check(u, w, m):
    s = u.spec
    check_trajectory(u.samples, w.dt, s.speed, s.accel_rate, s.brake_rate, m.blocked, s.width)


def test_a_unit_on_an_open_map_arrives_on_its_goal():
    spec = UnitSpec("a", width=0.8, radius=0.5, speed=2.0)
    w, m = world_of(OPEN, [(spec, (1.5, 1.5, 0.0), [move(10.5, 2.5)])])
    w.run(60)
    u = w.units[0]
    check(u, w, m)
    assert u.arrived is not None and u.arrived == pytest.approx(u.samples[-1][0])
    assert u.samples[-1][1:3] == pytest.approx((10.5, 2.5), abs=1e-9) and u.samples[-1][4] == 0.0
    assert max(s[4] for s in u.samples) == pytest.approx(2.0)  # it reached cruising speed
    # no faster than a straight-line sprint at these limits allows
    assert u.arrived >= math.hypot(9, 1) / 2.0


@pytest.mark.parametrize("method", ["tighter", "smooth", "astar", "directional24"])
def test_a_unit_drives_round_a_corner_within_its_limits(method):
    spec = UnitSpec("a", width=0.8, radius=1.0, speed=2.0, method=method)
    w, m = world_of(CORNER, [(spec, (1.5, 1.5, 0.0), [move(8.5, 4.5)])])
    w.run(60)
    u = w.units[0]
    check(u, w, m)
    assert u.arrived is not None, u.status
    assert u.samples[-1][1:3] == pytest.approx((8.5, 4.5), abs=1e-9)


def test_it_brakes_before_a_tight_arc():
    # a low lateral limit: the arcs of radius 1 may be taken at sqrt(0.5) = 0.71 tiles/s only
    spec = UnitSpec("a", width=0.8, radius=1.0, speed=3.0, acceleration=2.0, braking=3.0, lateral=0.5,
                    method="directional24")
    w, m = world_of(CORNER, [(spec, (1.5, 1.5, 0.0), [move(8.5, 4.5)])])
    w.run(60)
    u = w.units[0]
    check(u, w, m)
    s = np.asarray(u.samples)
    turning = np.abs(np.array([math.atan2(math.sin(b - a), math.cos(b - a)) for a, b in zip(s[:-1, 3], s[1:, 3])]))
    on_arc = turning > 1e-9
    assert on_arc.any() and s[1:, 4][on_arc].max() <= math.sqrt(0.5) + 1e-9
    assert s[:, 4].max() > 2.0  # and fast on the straights


@pytest.mark.parametrize("unit", [{"kind": "car"}, {"kind": "tank"}, {}, {"width": 0.8, "radius": 0.5, "speed": 2.0}])
def test_a_turn_tightened_beside_walls_swings_the_heading_no_faster_than_the_unit_turns(unit):
    """Ordered back the way it faces in a corridor two tiles high, a unit takes "tighter"'s
    turn, tightened below its radius. On the lateral limit alone it went round at twice the rate
    it can turn at all (a car at 4 rad/s: it pivots at 0.5 and turns on its own radius at 2), and
    beside a wall at up to eight times (an outside search). Driving or pivoting, its heading now
    turns at most at ``yaw_limit``."""
    doc = {"map": ["#" * 20, "#" + "." * 18 + "#", "#" + "." * 18 + "#", "#" * 20], "seed": 1, "duration": 60,
           "units": [{"id": "u", **unit, "start": [9.5, 1.5, math.pi], "goal": [17.5, 2.5]}]}
    sc = arcstar.world.read_scenario(doc)
    w = sc.world
    w.run(sc.duration)
    u = w.units[0]
    assert u.arrived is not None
    check_trajectory(u.samples, w.dt, u.spec.speed, u.spec.accel_rate, u.spec.brake_rate, w.map.blocked,
                     u.spec.width, radius=u.spec.radius)
    limit = max(u.spec.pivot_rate, u.spec.speed / u.spec.radius)
    assert u.spec.yaw_limit == limit
    for a, b in zip(u.samples, u.samples[1:]):
        assert abs(wrap(b[3] - a[3])) / w.dt <= limit + 1e-6, f"turns too fast at t={b[0]}"


def test_a_person_stops_and_turns_on_the_spot_at_a_corner():
    spec = unit_of_kind("p", "person", method="astar")
    w, m = world_of(ROOMS, [(spec, (1.5, 2.5, 0.0), [move(12.5, 6.5)])])
    w.run(60)
    u = w.units[0]
    check(u, w, m)
    assert u.arrived is not None
    s = np.asarray(u.samples)
    still = [i for i in range(1, len(s)) if abs(s[i, 4]) == 0.0 and np.hypot(*(s[i, 1:3] - s[i - 1, 1:3])) == 0.0]
    turned = [i for i in still if abs(math.remainder(s[i, 3] - s[i - 1, 3], 2 * math.pi)) > 1e-6]
    assert turned, "a person pivots at a polyline corner"
    rate = max(abs(math.remainder(s[i, 3] - s[i - 1, 3], 2 * math.pi)) for i in turned) / w.dt
    assert rate <= KIND_PRESETS[Kind.PERSON]["turn_rate"] + 1e-9


def test_a_unit_without_a_turn_rate_pivots_as_fast_as_its_tightest_turn():
    """Not given, turn_rate is speed / radius (capped at a turn a second); given, it is kept; the
    kinds keep theirs; and the pivot in a run is at that rate."""
    assert UnitSpec("a", speed=2.0, radius=0.5).turn_rate == pytest.approx(4.0)
    assert UnitSpec("a", speed=2.0, radius=0.05).turn_rate == pytest.approx(2 * math.pi)
    assert UnitSpec("a", speed=2.0, radius=0.5, turn_rate=0.3).turn_rate == 0.3
    assert unit_of_kind("t", "tank").turn_rate == KIND_PRESETS[Kind.TANK]["turn_rate"]
    spec = UnitSpec("a", speed=2.0, radius=0.5, method="astar")
    w, m = world_of(ROOMS, [(spec, (1.5, 2.5, 0.0), [move(12.5, 6.5)])])
    w.run(60)
    u = w.units[0]
    check(u, w, m)
    s = np.asarray(u.samples)
    turns = [abs(math.remainder(s[i, 3] - s[i - 1, 3], 2 * math.pi)) / w.dt for i in range(1, len(s))
             if s[i, 4] == 0.0 and np.hypot(*(s[i, 1:3] - s[i - 1, 1:3])) == 0.0]
    assert max(turns) == pytest.approx(4.0)


def test_a_unit_without_acceleration_reaches_top_speed_in_a_second_and_brakes_twice_as_hard():
    """Not given, acceleration is speed per second and braking twice it; given, they are kept (a
    braking not given is twice the acceleration given); and a run speeds up and stops at them."""
    assert (UnitSpec("a", speed=3.0).acceleration, UnitSpec("a", speed=3.0).braking) == (3.0, 6.0)
    assert (UnitSpec("a", acceleration=0.5).acceleration, UnitSpec("a", acceleration=0.5).braking) == (0.5, 1.0)
    assert UnitSpec("a", acceleration=0.5, braking=0.7).braking == 0.7
    assert unit_of_kind("t", "tank").acceleration == KIND_PRESETS[Kind.TANK]["acceleration"]
    spec = UnitSpec("a", speed=3.0)
    w, m = world_of(OPEN, [(spec, (0.5, 1.5, 0.0), [move(11.5, 1.5)])])
    w.run(30)
    u = w.units[0]
    check(u, w, m)
    s = np.asarray(u.samples)
    dv = np.diff(s[:, 4]) / w.dt
    assert dv.max() == pytest.approx(3.0) and -6.0 - 1e-9 <= dv.min() < -3.0 * 1.5  # brakes well beyond 3
    assert s[s[:, 0] <= 1.0 + 1e-9, 4].max() == pytest.approx(3.0)  # top speed within the first second


@pytest.mark.parametrize("kind", ["tank", "car", "person"])
def test_the_presets_drive_within_their_limits(kind):
    spec = unit_of_kind(kind, kind)
    w, m = world_of(ROOMS, [(spec, (1.5, 1.5, 0.0), [move(17.5, 6.5)])])
    w.run(120)
    u = w.units[0]
    check(u, w, m)
    assert u.arrived is not None, u.status


def test_the_same_seed_gives_the_same_samples():
    def run():
        specs = [(unit_of_kind("t", "tank"), (1.5, 1.5, 0.0), [move(17.5, 6.5)]),
                 (unit_of_kind("p", "person"), (2.5, 6.5, math.pi / 2), [move(15.5, 1.5, 0.0)]),
                 (UnitSpec("c", method="directional24"), (15.5, 3.5, math.pi), [move(1.5, 0.5)])]
        w, _ = world_of(ROOMS, specs, seed=7)
        w.run(90)
        return [(u.samples, u.arrived, u.status) for u in w.units]

    first = run()
    assert first == run()
    assert all(arrived is not None for _, arrived, _ in first)


def test_a_stop_order_brakes_to_a_halt_and_stays():
    spec = UnitSpec("a", speed=2.0, acceleration=1.0, braking=2.0)
    w, m = world_of(OPEN, [(spec, (0.5, 1.5, 0.0), [move(11.5, 1.5), Order(OrderKind.STOP, at=3.0)])])
    w.run(30)
    u = w.units[0]
    check(u, w, m)
    assert u.arrived is None and u.status == "stopped"
    s = np.asarray(u.samples)
    # braking from at most 2 tiles/s at 2 tiles/s^2 takes 1 s; then the world has nothing left to do
    assert w.time <= 3.0 + 1.0 + 2 * w.dt and s[-1, 4] == 0.0
    assert s[-1, 1] < 11.0 and s[s[:, 0] >= 3.0 + 1.0, 4].max(initial=0.0) == 0.0


def test_a_timed_move_replaces_the_current_one():
    spec = UnitSpec("a", speed=2.0)
    w, m = world_of(OPEN, [(spec, (0.5, 1.5, 0.0), [move(11.5, 1.5), move(2.5, 3.5, at=2.0)])])
    w.run(60)
    u = w.units[0]
    check(u, w, m)
    assert u.arrived is not None and u.samples[-1][1:3] == pytest.approx((2.5, 3.5))


def test_a_patrol_loops_between_its_points():
    spec = UnitSpec("a", width=0.8, radius=0.5, speed=2.0)
    points = ((9.5, 1.5, None), (2.5, 1.5, None))
    w, m = world_of(OPEN, [(spec, (1.5, 1.5, 0.0), [Order(OrderKind.PATROL, points)])])
    w.run(40)
    u = w.units[0]
    check(u, w, m)
    assert u.arrived is None and w.time == pytest.approx(40.0)
    s = np.asarray(u.samples)
    for px, py, _ in points:
        near = np.hypot(s[:, 1] - px, s[:, 2] - py) < 1e-6
        visits = np.count_nonzero(np.diff(near.astype(int)) == 1)
        assert visits >= 2, f"visited ({px}, {py}) {visits} times"


def _bfs(blocked, start, goal):
    """Steps on the 4-neighbour grid (an independent distance)."""
    from collections import deque
    h, w = blocked.shape
    dist = {start: 0}
    q = deque([start])
    while q:
        x, y = q.popleft()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and not blocked[ny, nx] and (nx, ny) not in dist:
                dist[(nx, ny)] = dist[(x, y)] + 1
                q.append((nx, ny))
    return dist.get(goal, math.inf)


def test_nearest_goes_to_the_target_nearest_by_the_ground_not_the_crow():
    rows = ["..........", "..........", "..........", "#########.", ".........."]
    spec = UnitSpec("a", width=0.8, radius=0.5)
    targets = ((1.5, 4.5, None), (8.5, 1.5, None))  # the first is nearer as the crow flies, behind a wall
    w, m = world_of(rows, [(spec, (1.5, 1.5, 0.0), [Order(OrderKind.NEAREST, targets)])])
    w.run(60)
    u = w.units[0]
    check(u, w, m)
    steps = [_bfs(m.blocked, (1, 1), (math.floor(x), math.floor(y))) for x, y, _ in targets]
    want = targets[int(np.argmin(steps))]
    assert want == targets[1] and math.hypot(0, 3) < math.hypot(7, 0)
    assert u.arrived is not None and u.samples[-1][1:3] == pytest.approx(want[:2])


def test_an_unreachable_goal_leaves_the_unit_where_it_is_and_says_why():
    rows = ["....#....", "....#....", "....#...."]
    w, m = world_of(rows, [(UnitSpec("a", width=0.8), (1.5, 1.5, 0.0), [move(7.5, 1.5)])])
    w.run(10)
    u = w.units[0]
    assert u.arrived is None and u.status.startswith("no route")
    assert "unreachable" in u.status or "no_path" in u.status
    assert {tuple(s[1:3]) for s in u.samples} == {(1.5, 1.5)}


def test_the_independent_wall_check_sees_an_overlap():
    blocked = np.zeros((3, 3), bool)
    blocked[1, 1] = True
    assert disc_overlap(blocked, 0.5, 0.5, 1.0) == 0.0  # touching the wall tile's corner region only
    assert disc_overlap(blocked, 0.5, 1.5, 1.0) == pytest.approx(0.0)  # touching its side
    assert disc_overlap(blocked, 0.6, 1.5, 1.0) == pytest.approx(0.1)
    assert disc_overlap(blocked, 0.3, 0.5, 1.0) == pytest.approx(0.2)  # past the map's edge


@pytest.mark.parametrize("seed", range(4))
def test_random_maps_units_and_methods_stay_within_limits(seed):
    """Random 14x10 maps, kinds, methods, starts and goals: every run keeps the limits and
    arrives, or says why the planner found no route."""
    import random
    rng = random.Random(seed)
    for _ in range(10):
        grid = [["#" if rng.random() < 0.18 else "." for _ in range(14)] for _ in range(10)]
        free = [(x, y) for y in range(10) for x in range(14) if grid[y][x] == "."]
        kind = rng.choice(["tank", "car", "person", None])
        method = rng.choice(["tighter", "astar", "directional24", "backup", "smooth"])
        spec = unit_of_kind("u", kind, method=method, width=0.6, radius=rng.choice([0.5, 1.0]))
        (sx, sy), (gx, gy) = rng.sample(free, 2)
        w, m = world_of(["".join(r) for r in grid],
                        [(spec, (sx + 0.5, sy + 0.5, rng.uniform(-3, 3)), [move(gx + 0.5, gy + 0.5)])])
        w.run(200)
        u = w.units[0]
        s = u.spec
        check_trajectory(u.samples, w.dt, s.speed, s.accel_rate, s.brake_rate, m.blocked, s.width, radius=s.radius)
        assert u.arrived is not None or u.status.startswith("no route"), u.status
        if u.arrived is not None:
            assert u.samples[-1][1:3] == pytest.approx((gx + 0.5, gy + 0.5), abs=1e-9)


@pytest.mark.parametrize("method", ["backup", "directional24"])
def test_a_car_backs_up_to_turn_round_in_a_small_room(method):
    rows = ["##########", "#........#", "#........#", "#........#", "##########"]
    spec = unit_of_kind("c", "car", method=method, radius=1.5, width=0.8)
    w, m = world_of(rows, [(spec, (7.5, 2.5, 0.0), [move(2.5, 2.5, math.pi)])])
    w.run(60)
    u = w.units[0]
    check_trajectory(u.samples, w.dt, spec.speed, spec.accel_rate, spec.brake_rate, m.blocked, spec.width,
                     radius=spec.radius)
    assert u.arrived is not None
    assert any(s[4] < 0 for s in u.samples), "it reverses (negative speed) on the way"
    assert abs(math.remainder(u.samples[-1][3] - math.pi, 2 * math.pi)) < 1e-6


CORRIDOR = ["############", "#..........#", "############"]


@pytest.mark.parametrize("kind", ["tank", "car"])
def test_a_unit_that_can_back_up_backs_a_short_way_behind_it_on_a_tile_path(kind):
    # A tile path (plain A*, as steps aside and the cooperative plans are driven) that runs
    # straight back behind the unit: backed along, facing the way it faced, where one that cannot
    # back up turns half round on the spot first (a tank in 3.9 s, a car in 6.3 s).
    times = {}
    for reverse in (True, False):
        spec = unit_of_kind("a", kind, method="astar", can_reverse=reverse)
        w, m = world_of(CORRIDOR, [(spec, (7.5, 1.5, 0.0), [move(4.5, 1.5)])])
        w.run(60)
        u = w.units[0]
        check(u, w, m)
        assert u.arrived is not None and u.samples[-1][1:3] == pytest.approx((4.5, 1.5), abs=1e-9)
        headings = [wrap(s[3]) for s in u.samples]
        if reverse:
            assert all(s[4] <= 0.0 for s in u.samples), "backed all the way"
            assert max(abs(h) for h in headings) < 1e-9, "never turned"
        else:
            assert all(s[4] >= 0.0 for s in u.samples)
            assert abs(abs(headings[-1]) - math.pi) < 1e-6, "turned round to face the way"
        times[reverse] = u.arrived
    assert times[True] < times[False] - 2.0


def test_a_long_way_behind_is_driven_facing_it():
    spec = unit_of_kind("a", "tank", method="astar")
    w, m = world_of(CORRIDOR, [(spec, (9.5, 1.5, 0.0), [move(2.5, 1.5)])])  # 7 tiles back
    w.run(60)
    u = w.units[0]
    check(u, w, m)
    assert u.arrived is not None
    assert all(s[4] >= 0.0 for s in u.samples) and abs(abs(wrap(u.samples[-1][3])) - math.pi) < 1e-6


def test_backing_polyline_backs_a_short_run_behind_and_drives_the_rest_facing_it():
    from arcstar.world.orders import REVERSE_MOST, backing_polyline
    # facing east; two tiles west (behind: backed), then two north (a quarter turn either way:
    # driven facing it), then five east (a quarter turn from north: driven facing it too)
    pts = [(5.5, 5.5), (4.5, 5.5), (3.5, 5.5), (3.5, 4.5), (3.5, 3.5), (8.5, 3.5)]
    lines = backing_polyline(pts, 0.0)
    got = [(round(seg.x, 9), round(seg.y, 9), round(wrap(seg.heading), 9), seg.gear) for seg in lines]
    assert got[:2] == [(5.5, 5.5, 0.0, -1), (4.5, 5.5, 0.0, -1)]
    assert got[2:4] == [(3.5, 5.5, round(-math.pi / 2, 9), 1), (3.5, 4.5, round(-math.pi / 2, 9), 1)]
    assert got[4] == (3.5, 3.5, 0.0, 1) and lines[4].length == pytest.approx(5.0)
    end = lines[-1].end_pose()
    assert (end.x, end.y) == pytest.approx((8.5, 3.5))
    # a run behind longer than REVERSE_MOST is turned to
    far = [(10.5, 1.5), (10.5 - REVERSE_MOST - 1, 1.5)]
    assert [seg.gear for seg in backing_polyline(far, 0.0)] == [1]


def test_under_fog_a_unit_sees_round_it_as_it_is_placed():
    """What a unit stands in is known to its team before the world first steps (the lab drew
    the whole map unknown, the units' own tiles too, until the first tick); others know nothing."""
    m = arcstar.parse_ascii("\n".join(["##########", "#........#", "#..####..#", "#........#", "##########"])).map
    w = World(m, 0.05, 1, fog=True)
    w.add(UnitSpec("a", team="red", sight=3.0), Pose(1.5, 1.5, 0.0))
    seen = w.fog.seen("red")
    assert seen[1, 1] and seen[0, 0] and not seen[3, 8]
    known = w.fog.known("red").blocked
    assert known[0, 1] and known[1, 0] and not known[2, 7]  # walls it sees; one it cannot is open
    assert not w.fog.seen("blue").any()
    assert w.ticks == 0


def test_under_fog_a_unit_that_needs_farther_than_it_can_see_to_stop_is_refused():
    """A unit sees at least as far as it needs to stop, so that it never drives into a wall it
    has not seen; one that brakes too weakly for its speed would need a sight of hundreds of
    tiles (an outside search's unit, 10 tiles/s braking 0.2: 251 tiles, and a second of work a
    look on a 12 x 12 map). It is refused, naming ``braking``, and the world keeps what it had;
    without fog it is placed."""
    m = arcstar.parse_ascii("\n".join(["#" * 12] + ["#" + "." * 10 + "#"] * 6 + ["#" * 12])).map
    w = World(m, 0.05, 1, fog=True)
    w.add(UnitSpec("a", team="red"), Pose(1.5, 1.5, 0.0))
    for spec in (UnitSpec("fast", speed=10.0, acceleration=0.1), UnitSpec("slow", speed=1.0, braking=0.001)):
        with pytest.raises(arcstar.BadInput) as err:
            w.add(spec, Pose(5.5, 5.5, 0.0))
        assert err.value.field == "braking" and "needs" in str(err.value)
    assert [u.spec.id for u in w.units] == ["a"]
    # at the limit (stopping in 62.5 tiles: a sight of 64) it is placed
    w.add(UnitSpec("edge", speed=10.0, braking=0.8), Pose(5.5, 5.5, 0.0))
    World(m, 0.05, 1).add(UnitSpec("fast", speed=10.0, acceleration=0.1), Pose(5.5, 5.5, 0.0))


def test_a_far_sight_on_a_small_map_sees_the_whole_room():
    """A unit whose sight reaches past the map (64 tiles on a 30 x 20 room) sees every tile of
    an open room from a corner, the farthest 34 tiles off, and the walls round it."""
    rows = ["#" * 32] + ["#" + "." * 30 + "#"] * 20 + ["#" * 32]
    w = World(arcstar.parse_ascii("\n".join(rows)).map, 0.05, 1, fog=True)
    w.add(UnitSpec("a", team="red", sight=64.0), Pose(1.5, 1.5, 0.0))
    assert w.fog.seen("red").all()
    assert (w.fog.known("red").blocked == w.map.blocked).all()


@pytest.mark.parametrize("fog", [False, True])
@pytest.mark.parametrize("method", ["directional24", "hybrid", "recalculate", "backup", "astar", "dijkstra"])
def test_a_unit_drives_as_its_method_plans_under_fog_too(method, fog):
    """Under fog a unit's tiles come from D* Lite, and it drives them as its method does without
    fog: keeping its turning radius (the directional searches, recalculate, backup) or pivoting at
    corners (the plain searches). An outside survey found fog put every unit on "tighter": a tank
    planned with directional24 swung its heading at 10.7 rad/s pulling away, and one planned with
    recalculate found no route on an open map."""
    doc = {"map": ["." * 10] * 3, "duration": 30, "fog": fog,
           "units": [{"id": "u", "kind": "tank", "start": [3.5, 2.5, 1.869], "goal": [8.5, 0.5], "method": method}]}
    sc = arcstar.world.read_scenario(doc)
    w = sc.world
    w.run(sc.duration)
    u = w.units[0]
    assert u.arrived is not None, u.status
    spec = u.spec
    check_trajectory(u.samples, w.dt, spec.speed, spec.accel_rate, spec.brake_rate, w.map.blocked, spec.width,
                     radius=spec.radius)
    for a, b in zip(u.samples, u.samples[1:]):
        rate = abs(math.remainder(b[3] - a[3], 2 * math.pi)) / w.dt
        if a[4] == 0.0 and b[4] == 0.0:  # a pivot on the spot (recalculate finds no legal way here: it pivots)
            assert rate <= spec.turn_rate + 1e-6
        elif method in ("astar", "dijkstra"):
            assert rate < 1e-6, f"turns while moving at t={b[0]}"  # it pivots standing
        else:
            assert rate <= max(abs(a[4]), abs(b[4])) / spec.radius + 1e-6, f"tighter than its radius at t={b[0]}"


def test_a_body_put_where_a_moving_unit_cannot_stop_short_of_it_is_refused():
    """``World.add`` refuses a body nearer ahead of a moving unit than that unit can stop (it
    would be driven into), naming ``start``, and keeps what it had; behind it, or once the unit
    stands, the same body is placed."""
    m = arcstar.parse_ascii("\n".join(["#" * 22, "#" + "." * 20 + "#", "#" * 22])).map
    w = World(m, 0.05, 1, avoidance=arcstar.world.Avoidance.PINTER)
    w.add(UnitSpec("car", speed=4.0, braking=2.0), Pose(1.5, 1.5, 0.0), [Order(OrderKind.MOVE, ((20.5, 1.5, None),))])
    while w.unit("car").speed < 3.0:
        w.step()
    car = w.unit("car")
    assert car.mover is not None and car.mover.stopping_distance() > 2.0
    ahead = car.x + 2.0  # within its stopping distance
    with pytest.raises(arcstar.BadInput) as err:
        w.add(UnitSpec("p", width=0.5), Pose(ahead, 1.5, 0.0))
    assert err.value.field == "start" and "could not stop" in str(err.value)
    assert [u.spec.id for u in w.units] == ["car"]
    w.add(UnitSpec("behind", width=0.5), Pose(car.x - 1.5, 1.5, 0.0))
    w.run(30.0)
    assert w.unit("car").arrived is not None
    w.add(UnitSpec("p", width=0.5), Pose(18.5, 1.5, 0.0))  # the car stands on its goal: placed


def test_under_fog_a_unit_added_under_the_id_of_one_removed_plans_on_its_own_teams_map():
    """A unit's D* Lite planner is kept by its id from route to route; one removed must take its
    planner with it. Red has seen a wall across the room and plans round it by the top row; a
    blue unit added in the place of a removed red one, under its id and with its goal, knows
    nothing of the wall and plans straight at it (it had driven red's way round). The units plan
    by plain A*, which pivots at the tiles' corners: a smoothing turning method straightens red's
    tiles on blue's map and hides which tiles it was given."""
    rows = ["#" * 16, "#" + "." * 14 + "#"] + ["#" + "." * 9 + "#" + "." * 4 + "#"] * 4 + ["#" * 16]
    w = World(arcstar.parse_ascii("\n".join(rows)).map, 0.05, 1, Avoidance.NONE, fog=True)
    w.add(UnitSpec("scout", team="red", sight=3.0), Pose(12.5, 3.5, 0.0))
    goal = Order(OrderKind.MOVE, ((13.5, 4.5, None),))

    def top_row_used(team):
        w.add(UnitSpec("a", team=team, sight=3.0, method="astar"), Pose(2.5, 4.5, 0.0), [goal])
        w.step()
        ys = w.unit("a").mover.points()[1][:, 1]
        w.remove("a")
        return bool((ys < 2.0).any())

    assert w.fog.known("red").is_blocked(10, 4) and not w.fog.known("blue").is_blocked(10, 4)
    assert top_row_used("red")
    assert not top_row_used("blue")


def test_a_way_round_others_is_planned_on_the_map_as_it_is_when_the_unit_routes():
    """A unit checked a way round other units' tiles (``World.replan``) brakes and plans its
    way where it stands, on the walls as they are then: walls added to the map in between are
    kept to, whatever the check's walled copy of the map held."""
    tm = arcstar.TileMap.empty(24, 9)
    world = World(tm, 0.05, 1, Avoidance.PINTER)
    world.add(unit_of_kind("a", "person"), Pose(2.5, 4.5, 0.0), [Order(OrderKind.MOVE, ((21.5, 4.5, None),))])
    for _ in range(10):
        world.step()
    a = world.unit("a")
    assert a.mover is not None and a.x < 7.0
    assert world.replan(a, frozenset((x, 4) for x in range(8, 14)))  # a way round by row 3 or 5
    for x in range(8, 14):  # now only rows 2 and 6 lead round
        tm.set_tile(x, 3, WALL)
        tm.set_tile(x, 5, WALL)
    centres = []
    for _ in range(400):
        world.step()
        centres.append((a.x, a.y))
        if not a.busy:
            break
    assert world.arrival(a) is not None
    assert not any(tm.is_blocked(math.floor(x), math.floor(y)) for x, y in centres)
    assert any(y < 3.0 or y > 6.0 for _, y in centres)  # it went round by row 2 or 6
