"""Units avoiding each other and exploring in fog: the proof scenarios (arcstar.world.presets),
run with each avoidance method and checked from the samples alone with ``worldcheck`` (code of
its own): every unit within its limits and out of walls, bodies never overlapping by more than
0.05 tile, arrivals, and how long a unit ever stood stuck."""

import json
import math
import random

import pytest

import arcstar
from arcstar.search.cooperative import CooperativePlanner
from arcstar.world import presets, read_scenario
from worldcheck import check_trajectory, deepest_overlap, longest_stuck

TOLERANCE = 0.05


def run(doc):
    return run_from(read_scenario(doc), doc)


def run_from(sc, doc):
    """Run a scenario read from ``doc`` to its end, every trajectory checked."""
    w = sc.world
    w.run(sc.duration)
    blocked = arcstar.parse_ascii("\n".join(doc["map"])).map.blocked
    for u in w.units:
        s = u.spec
        check_trajectory(u.samples, w.dt, s.speed, s.accel_rate, s.brake_rate + 1e-9, blocked, s.width)
    return w


def overlap(w):
    return deepest_overlap([u.samples for u in w.units], [u.spec.width for u in w.units])


@pytest.mark.parametrize("method", ["pinter", "claimed", "cooperative"])
@pytest.mark.parametrize("kind", ["tank", "person"])
def test_head_on_in_a_corridor_with_a_passing_bay(method, kind):
    w = run(presets.corridor_bay(length=13, avoidance=method, kind=kind))
    assert all(u.arrived is not None for u in w.units), [(u.id, u.status) for u in w.units]
    assert overlap(w) <= TOLERANCE
    a, b = w.units
    assert a.samples[-1][1:3] == pytest.approx((13.5, 1.5)) and b.samples[-1][1:3] == pytest.approx((1.5, 1.5))


@pytest.mark.parametrize("method", ["pinter", "claimed", "cooperative"])
@pytest.mark.parametrize("unit", [{"kind": "car"}, {"kind": "tank"},
                                  {"width": 0.8, "radius": 0.5, "speed": 6.0, "braking": 2.0}])
@pytest.mark.parametrize("length, bay", [(14, 8), (21, 5)])
def test_units_meeting_head_on_at_full_speed_stop_apart(method, unit, length, bay):
    """Fast units head-on in a long corridor with its bay off the middle: each leaves the other
    only half the gap, so each must see the other from twice its stopping distance (cars at 4
    tiles/s stopped 0.2 tile inside each other under claimed when they looked only as far as
    they needed to stop)."""
    rows = ["#" * (length + 2), "#" + "." * length + "#",
            "#" * (bay + 1) + "." + "#" * (length - bay), "#" * (length + 2)]
    units = [{"id": "a", **unit, "start": [1.5, 1.5, 0.0], "goal": [length + 0.5, 1.5]},
             {"id": "b", **unit, "start": [length + 0.5, 1.5, math.pi], "goal": [1.5, 1.5]}]
    w = run({"map": rows, "seed": 1, "duration": 90, "avoidance": method, "units": units})
    assert overlap(w) <= TOLERANCE
    assert all(u.arrived is not None for u in w.units), [(u.spec.id, u.status) for u in w.units]


def test_without_avoidance_the_same_corridor_has_the_bodies_overlap():
    """The check can fail: with no avoidance the two drive through each other."""
    w = run(presets.corridor_bay(length=13, avoidance="none"))
    assert overlap(w) > 0.5


@pytest.mark.parametrize("method", ["pinter", "claimed", "cooperative"])
@pytest.mark.parametrize("kind", ["car", "person"])
def test_two_units_crossing_at_a_junction(method, kind):
    w = run(presets.junction(arm=5, avoidance=method, kind=kind))
    assert all(u.arrived is not None for u in w.units)
    assert overlap(w) <= TOLERANCE


def boxed_in(method, kind):
    """A unit late to a corner of a room whose way there is packed with units resting on their
    goals: one of those must step aside and come back."""
    rows = ["#######", "#.....#", "#.....#", "#.....#", "#######"]
    units = [{"id": "late", "kind": kind, "start": [1.5, 3.5, 0.0], "goal": [5.5, 1.5]}]
    for i, (x, y) in enumerate([(4, 1), (5, 2), (4, 2), (3, 1), (5, 3)]):
        units.append({"id": f"r{i}", "kind": kind, "start": [x + .5, y + .5, 0.0], "goal": [x + .5, y + .5]})
    return {"map": rows, "seed": 1, "duration": 120, "avoidance": method, "units": units}


@pytest.mark.parametrize("method", ["pinter", "claimed", "cooperative"])
@pytest.mark.parametrize("kind", ["person", "tank"])
def test_a_unit_boxed_in_by_units_resting_on_their_goals_gets_through(method, kind):
    """Under pinter the late unit re-planned round the resting units over and over, each hold
    too short to count as a jam (the watchdog now makes it one); under claimed the unit that
    shared a tile with one stepping aside was left out of the jam's plan and taken in again,
    round after round (now the other starts beside it)."""
    w = run(boxed_in(method, kind))
    assert all(u.arrived is not None for u in w.units), [(u.spec.id, u.status) for u in w.units if u.arrived is None]
    assert overlap(w) <= TOLERANCE
    goals = {u["id"]: u["goal"] for u in boxed_in(method, kind)["units"]}
    for u in w.units:
        assert u.samples[-1][1:3] == pytest.approx(goals[u.spec.id], abs=1e-6)


@pytest.mark.parametrize("method", ["pinter", "claimed", "cooperative"])
def test_the_issue_example_unit_through_a_door_all_arrive_apart(method):
    """The door with the unit of the issue's example file (0.8 wide, turning radius 0.5, 2 tiles/s,
    no kind): wider than the preset's people, and slower to start and stop. Under pinter four of
    them, pressed off their tiles' centres into each other, held the jam's plan for good
    (``test_wide_units_pressed_off_their_centres_get_apart``), and 9 of 20 were through at 180 s."""
    doc = presets.door(count=20, avoidance=method, seed=2, unit={"width": 0.8, "radius": 0.5, "speed": 2.0})
    w = run(doc)
    assert {u.spec.width for u in w.units} == {0.8}
    assert all(u.arrived is not None for u in w.units), [(u.spec.id, u.status) for u in w.units if u.arrived is None]
    assert overlap(w) <= TOLERANCE


def test_wide_units_pressed_off_their_centres_get_apart():
    """Four 0.8-wide units where local avoidance left them at the door above (pinter), each off
    its tile's centre and pressed against the next: the way to each one's own centre passes
    through another's body, so each waited for another, for good. Now a unit that cannot get to
    its own centre starts from a free tile beside it, and one pressed against a body may always
    draw away from it."""
    doc = presets.door(count=20, avoidance="cooperative", seed=2, unit={"width": 0.8, "radius": 0.5, "speed": 2.0})
    pressed = {"u7": (5.77, 6.86), "u17": (6.20, 6.16), "u16": (6.70, 5.50), "u18": (5.32, 7.54)}
    doc["units"] = [dict(u, start=[*pressed[u["id"]], 0.0]) for u in doc["units"] if u["id"] in pressed]
    doc["duration"] = 60
    for a, b in [("u7", "u17"), ("u17", "u16"), ("u7", "u18")]:  # within a body of each other: pressed
        assert math.dist(pressed[a], pressed[b]) < 0.8 + 0.1
    w = run(doc)
    assert all(u.arrived is not None for u in w.units), [(u.spec.id, u.status) for u in w.units if u.arrived is None]
    assert overlap(w) <= TOLERANCE


#: Rooms joined by a short passage, as an outside survey drew them (its rooms, door and units).
MERGE_ROOMS = {
    "claimed": (["####################", "#........###########", "#........###########", "#........###########",
                 "#........##........#", "#........##........#", "#........##........#", "#..................#",
                 "###########........#", "###########........#", "####################"],
                [((1.5, 7.5, -0.23455528425252536), (15.5, 4.5)),
                 ((7.5, 5.5, -2.794769524638824), (17.5, 4.5)),
                 ((4.5, 7.5, 1.683511698023918), (16.5, 4.5)),
                 ((1.5, 3.5, 1.0316059914172193), (11.5, 5.5)),
                 ((8.5, 4.5, -2.429953185930101), (13.5, 4.5)),
                 ((1.5, 4.5, -2.920450962097279), (17.5, 8.5)),
                 ((6.5, 2.5, -0.6552477419859253), (18.5, 6.5)),
                 ((3.5, 5.5, -0.43887395501065596), (16.5, 6.5))]),
    "pinter": (["########################", "#........###############", "#......................#"]
               + ["#........###...........#"] * 8 + ["########################"],
               [((2.5, 8.5, 0.12794719454427783), (22.5, 10.5)),
                ((3.5, 10.5, -2.2760430218366468), (14.5, 5.5)),
                ((4.5, 7.5, 2.544299670216101), (20.5, 7.5)),
                ((6.5, 3.5, -1.1842263806082087), (17.5, 7.5)),
                ((5.5, 10.5, 2.356201715816913), (17.5, 5.5)),
                ((5.5, 5.5, 1.9394613865565988), (20.5, 8.5)),
                ((4.5, 9.5, 1.838970006512831), (21.5, 7.5))]),
}


@pytest.mark.parametrize("method", sorted(MERGE_ROOMS))
def test_units_side_by_side_merging_into_one_lane_keep_apart(method):
    """Units of the issue's example that set off side by side and merge into one lane towards
    the passage. Each timed itself first to the places their ways share, and each left the other
    to mind it: ``spacing`` skipped a unit behind going its way, taken to mind the one ahead, also
    when it drove beside it, one lane over (bodies 0.11 and 0.07 tile deep). Now only a unit
    behind in this one's own lane is left to mind it."""
    rows, placed = MERGE_ROOMS[method]
    units = [{"id": f"u{i}", "start": list(start), "goal": list(goal), "width": 0.8, "radius": 0.5, "speed": 2.0}
             for i, (start, goal) in enumerate(placed)]
    w = run({"map": rows, "seed": 1, "duration": 90, "avoidance": method, "units": units})
    assert all(u.arrived is not None for u in w.units), [(u.spec.id, u.status) for u in w.units if u.arrived is None]
    assert overlap(w) <= TOLERANCE


@pytest.mark.parametrize("seed", [1, 2])
def test_twenty_units_through_a_one_tile_door_cooperatively(seed):
    w = run(presets.door(count=20, avoidance="cooperative", seed=seed))
    assert all(u.arrived is not None for u in w.units)
    assert overlap(w) <= TOLERANCE


@pytest.mark.parametrize("method, seed, unit", [
    ("cooperative", 1, None), ("pinter", 1, None), ("claimed", 1, None), ("cooperative", 8, None),
    ("cooperative", 2, {"width": 0.8, "radius": 0.5, "speed": 2.0}),
])
def test_no_unit_waits_at_the_door_longer_than_ten_seconds(method, seed, unit):
    """The issue's door scenario (seed 1); seed 8, where the plan in the given priority order
    had one unit wait for a file of eleven (15.5 s; a few orders are now tried, the one with the
    shortest longest wait kept); and a door of the issue's example unit, where one unit stood
    beside the door while six others turned into it ahead of it (12 s; the plan now knows a turn
    takes time); the issue's door under claimed stood 10.9 s until a round's plans included a
    fair one (agents that have waited planned first). Not every door meets it: bench/ sweeps
    other seeds and reports each one's longest wait. Read with the arrivals alone (a unit's
    standing before its reported arrival, wherever it stood) it holds too: a unit arrives when
    it first stands on its goal, not when it is back from making way for others."""
    doc = presets.door(count=20, avoidance=method, seed=seed, unit=unit)
    w = run(doc)
    stuck = longest_stand(doc, w)
    assert stuck <= 10.0 + 1e-9, stuck
    before = max(longest_stuck(u.samples, u.arrived) for u in w.units)
    assert before <= 10.0 + 1e-9, before


#: Two rooms and a door that three files feed (from the left, and from above and below the
#: tile before the passage), twenty units, as an outside survey's generator drew them.
THREE_FILES = (["#######################", "#.........#############", "#.........#...........#",
                "#.........#...........#", "#.....................#", "#.........#...........#",
                "#.........#...........#", "###########...........#", "###########...........#",
                "###########...........#", "###########...........#", "###########...........#",
                "#######################"],
               [((6.5, 5.5, 1.011), (16.5, 5.5)), ((4.5, 1.5, 1.94), (14.5, 2.5)),
                ((9.5, 5.5, -0.056), (15.5, 3.5)), ((5.5, 6.5, 1.372), (21.5, 6.5)), ((1.5, 6.5, -0.376), (17.5, 7.5)),
                ((1.5, 2.5, -1.664), (16.5, 10.5)), ((4.5, 5.5, -2.314), (17.5, 2.5)),
                ((6.5, 3.5, -0.174), (15.5, 5.5)), ((5.5, 1.5, 1.486), (15.5, 8.5)),
                ((6.5, 4.5, -3.013), (20.5, 4.5)), ((7.5, 2.5, -2.176), (13.5, 2.5)),
                ((1.5, 1.5, 2.63), (20.5, 11.5)), ((4.5, 6.5, 0.206), (12.5, 10.5)),
                ((2.5, 1.5, 0.342), (16.5, 6.5)), ((9.5, 1.5, 0.672), (14.5, 5.5)),
                ((9.5, 6.5, -2.212), (12.5, 7.5)), ((6.5, 1.5, -0.374), (18.5, 2.5)),
                ((7.5, 6.5, -0.694), (14.5, 10.5)), ((3.5, 3.5, 1.389), (14.5, 11.5)),
                ((1.5, 4.5, -0.063), (12.5, 4.5))])


def test_three_files_into_a_door_take_turns_within_ten_seconds():
    """Twenty units of ``UnitSpec``'s own fields (no kind) through a door three files feed. The
    round's plan was chosen by its longest wait in ticks; the plan kept let the files from the
    left and from above go through while the head of the file from below stood 20 s beside the
    door (seven ticks, each a unit turning into the passage ahead of it). Plans are now compared
    as they are driven, in the units' own time (``plan_times``)."""
    rows, placed = THREE_FILES
    units = [{"id": f"u{i}", "start": list(start), "goal": list(goal)} for i, (start, goal) in enumerate(placed)]
    doc = {"map": rows, "seed": 1, "duration": 150, "avoidance": "cooperative", "units": units}
    stuck = through(doc)
    assert stuck <= 10.0 + 1e-9, stuck


#: Two rooms joined by a passage three tiles long, twenty people, as an outside survey's
#: generator drew them.
CHAIN_DOOR = (["######################", "#.........############", "#.........############",
                 "#.........############", "#.........###........#", "#.........###........#",
                 "#.........###........#", "#.........###........#", "#....................#",
                 "#.........###........#", "#.........###........#", "######################"],
                [((5.5, 7.5, -0.458), (16.5, 4.5)), ((7.5, 6.5, -1.903), (17.5, 6.5)),
                 ((4.5, 1.5, 1.662), (19.5, 5.5)), ((8.5, 10.5, -0.288), (16.5, 9.5)),
                 ((7.5, 5.5, 1.697), (16.5, 8.5)), ((9.5, 1.5, 1.599), (16.5, 10.5)),
                 ((7.5, 7.5, -2.306), (13.5, 4.5)), ((2.5, 8.5, -2.287), (13.5, 5.5)),
                 ((4.5, 7.5, 1.522), (14.5, 7.5)), ((3.5, 2.5, 2.331), (18.5, 6.5)),
                 ((2.5, 5.5, -2.003), (15.5, 4.5)), ((8.5, 5.5, 2.25), (15.5, 8.5)),
                 ((3.5, 9.5, -1.868), (20.5, 5.5)), ((5.5, 10.5, -0.999), (13.5, 7.5)),
                 ((5.5, 1.5, 0.862), (20.5, 10.5)), ((2.5, 10.5, -2.205), (14.5, 6.5)),
                 ((3.5, 4.5, 0.069), (20.5, 9.5)), ((7.5, 10.5, -0.407), (13.5, 10.5)),
                 ((6.5, 8.5, -2.528), (13.5, 6.5)), ((7.5, 8.5, -2.768), (15.5, 9.5))])


def test_units_making_way_in_a_chain_do_not_wait_in_a_ring():
    """Twenty people through a door under pinter, the last of them in a jam's plan. A unit
    resting on its goal by the passage's mouth was to step aside for a unit leaving the passage,
    but only once the unit resting beside it could leave in its turn (``_needed``'s chain), which
    waited for a unit still in the passage, itself held behind the one waiting for the first: a
    ring nobody broke for 17 s, the others moving about. The chain is not followed where it
    closes so."""
    rows, placed = CHAIN_DOOR
    units = [{"id": f"u{i}", "kind": "person", "start": list(start), "goal": list(goal)}
             for i, (start, goal) in enumerate(placed)]
    doc = {"map": rows, "seed": 1, "duration": 150, "avoidance": "pinter", "units": units}
    stuck = through(doc)
    assert stuck <= 10.0 + 1e-9, stuck


def test_two_groups_of_ten_swap_through_a_corridor_cooperatively():
    w = run(presets.group_swap(count=10, avoidance="cooperative"))
    assert all(u.arrived is not None for u in w.units)
    assert overlap(w) <= TOLERANCE


@pytest.mark.parametrize("method", ["none", "pinter", "cooperative"])
def test_a_unit_in_fog_meets_a_dead_end_and_goes_round(method):
    doc = presets.fog_dead_end(avoidance=method)
    w = run(doc)
    (u,) = w.units
    assert u.arrived is not None
    # the dead end was learned on the way: it went east first, then round by the top corridor
    xs = [s[1] for s in u.samples]
    assert max(xs[: len(xs) // 3]) > 9.0, "it did not try the way it believed open"
    assert min(s[2] for s in u.samples) < 2.0, "it did not go round by the top corridor"
    # on the true map from the start it would have gone straight round
    doc["fog"] = False
    clear = run(doc)
    assert clear.units[0].arrived < u.arrived


def test_the_same_seed_gives_the_same_run():
    doc = presets.door(count=8, avoidance="pinter", seed=3)
    a, b = run(doc), run(doc)
    assert [u.samples for u in a.units] == [u.samples for u in b.units]


def test_cooperative_plans_without_rotations_never_close_a_ring():
    """The planner the world drives: no ring of agents each stepping into the tile the next one
    leaves in the same tick (a 2x2 block of four agents wanting to turn round it)."""
    m = arcstar.parse_ascii("\n".join(["....", "....", "....", "...."])).map
    agents = [((1, 1), (2, 1)), ((2, 1), (2, 2)), ((2, 2), (1, 2)), ((1, 2), (1, 1))]
    p = CooperativePlanner(m, agents, 8, neighbours=4, rotations=False)
    hist = p.solve(200)
    assert p.arrived
    for t in range(len(hist[0]) - 1):
        moves = {hist[i][t]: hist[i][t + 1] for i in range(len(agents)) if hist[i][t] != hist[i][t + 1]}
        for start in moves:
            at, seen = start, set()
            while at in moves and at not in seen:
                seen.add(at)
                at = moves[at]
            assert at != start or len(seen) < 2, f"a ring moves round at tick {t}"
    assert math.isfinite(len(hist[0]))


def test_a_unit_on_its_goal_steps_aside_only_when_the_other_comes():
    """A person stands on its goal in a one-tile corridor, beside the only bay; another comes
    from 7 tiles away and must pass. The one on its goal waits there and steps into the bay
    only once the other is near (not at once, to stand in the bay for the whole approach)."""
    doc = {"map": ["#################", "#...............#", "########.########", "#################"],
           "seed": 1, "duration": 60, "avoidance": "cooperative",
           "units": [{"id": "r", "kind": "person", "start": [8.5, 1.5, 0.0], "goal": [8.5, 1.5]},
                     {"id": "p", "kind": "person", "start": [1.5, 1.5, 0.0], "goal": [15.5, 1.5]}]}
    w = run(doc)
    r, p = w.unit("r"), w.unit("p")
    assert p.arrived is not None and overlap(w) <= TOLERANCE
    left = next(s for s in r.samples if math.hypot(s[1] - 8.5, s[2] - 1.5) > 0.01)
    at = next(s for s in p.samples if s[0] >= left[0])
    assert math.hypot(at[1] - 8.5, at[2] - 1.5) <= 2.6, (left, at)
    assert min(s[2] for s in r.samples) >= 1.5 - 1e-9 and max(s[2] for s in r.samples) > 2.4  # into the bay
    assert math.hypot(r.samples[-1][1] - 8.5, r.samples[-1][2] - 1.5) < 1e-6  # and back on its goal


def test_twenty_people_through_a_door_under_pinter_all_arrive():
    """Pinter's local rules jam at the door; the jam goes to a cooperative plan (the units that
    stand off their tile centres settle on them first) and everyone gets through."""
    w = run(presets.door(count=20, avoidance="pinter", seed=1))
    assert all(u.arrived is not None for u in w.units), [(u.id, u.status) for u in w.units]
    assert overlap(w) <= TOLERANCE


@pytest.mark.parametrize("seed", [3, 8])
def test_a_jam_handed_to_a_plan_never_puts_a_body_in_a_wall(seed):
    """Under claimed the crowd jams at the door and is handed to a cooperative plan; units off
    their tile centres settle on them first. ``run`` checks every sample against the walls (a
    settling move once cut the door's corner)."""
    w = run(presets.door(count=20, avoidance="claimed", seed=seed))
    assert all(u.arrived is not None for u in w.units), [(u.id, u.status) for u in w.units]
    assert overlap(w) <= TOLERANCE


@pytest.mark.parametrize("doc", [presets.door(count=20, avoidance="claimed", seed=1),
                                 presets.group_swap(count=10, avoidance="claimed")], ids=["door", "swap"])
def test_claimed_tiles_bring_the_door_and_the_swap_through(doc):
    """The issue's door and swap under Lester's claimed tiles: all arrive, no overlap. People
    packed two to a tile, and the jam's tile plan left the second out, in the plan's way: 0 of
    20 arrived in either, until one centre went to a tile."""
    w = run(doc)
    assert all(u.arrived is not None for u in w.units), [(u.id, u.status) for u in w.units]
    assert overlap(w) <= TOLERANCE


def test_a_one_tile_wide_swap_under_claimed_all_arrive():
    """Eight a side through a corridor one tile wide. A unit off its tile's centre that the plan
    sends on went back to the centre first, into the unit closing up behind it, and both stood
    for good (0 of 16 arrived)."""
    w = run(presets.group_swap(count=8, corridor=1, avoidance="claimed"))
    assert all(u.arrived is not None for u in w.units), [(u.id, u.status) for u in w.units]
    assert overlap(w) <= TOLERANCE


TANK_SWAP_LEFT = [((3, 2), (12, 2)), ((4, 4), (14, 5)), ((3, 4), (10, 1)), ((5, 1), (13, 4)), ((2, 3), (12, 3)),
                  ((5, 4), (14, 1)), ((1, 4), (12, 1)), ((3, 1), (14, 2)), ((1, 1), (13, 1)), ((4, 5), (10, 2))]
TANK_SWAP_RIGHT = [((11, 2), (5, 5)), ((12, 4), (1, 1)), ((12, 2), (4, 2)), ((13, 2), (1, 4)), ((14, 4), (5, 4)),
                   ((11, 5), (3, 3)), ((10, 4), (4, 3)), ((14, 5), (1, 5)), ((12, 3), (5, 3)), ((10, 1), (5, 1))]


def test_tanks_swap_rooms_through_a_one_tile_gap_backing_out_of_each_others_way():
    """Ten tanks a side swap two small rooms through a gap one tile wide and four long (an
    outside survey's map). The plan has tanks step aside and back again and again; driven
    facing every step, each half turn took 3.9 s and 11 of 20 were home at 300 s. Tanks back
    along a short run behind them now."""
    units = [{"id": f"{side}{i}", "kind": "tank", "start": [sx + 0.5, sy + 0.5, h], "goal": [gx + 0.5, gy + 0.5]}
             for side, pairs, h in (("l", TANK_SWAP_LEFT, 0.0), ("r", TANK_SWAP_RIGHT, math.pi))
             for i, ((sx, sy), (gx, gy)) in enumerate(pairs)]
    doc = {"map": ["################", "#..............#", "#.....####.....#", "#.....####.....#", "#.....####.....#",
                   "#.....####.....#", "################"],
           "seed": 3, "duration": 300, "avoidance": "cooperative", "units": units}
    w = run(doc)
    assert all(w.arrival(u) is not None for u in w.units), [(u.id, u.status) for u in w.units]
    assert overlap(w) <= TOLERANCE
    assert any(s[4] < 0.0 for u in w.units for s in u.samples), "some tank backs up"


def _two_in_a_corridor(goal_x):
    doc = {"map": ["############", "#..........#", "############"], "seed": 1, "duration": 20,
           "avoidance": "pinter",
           "units": [{"id": "a", "kind": "person", "start": [1.5, 1.5, 0.0], "goal": [goal_x, 1.5]},
                     {"id": "b", "kind": "person", "start": [6.8, 1.5, 0.0]}]}
    w = read_scenario(doc).world
    while w.units[0].x < 4.8:  # b's tile (x from 6) within a's reach this tick (its stop, a tick, a tile)
        w.step()
    return w


def test_a_unit_stops_short_of_a_tile_another_units_centre_is_in():
    """One centre to a tile (local methods): a stands off before its centre enters b's tile,
    at the last point of its path outside it, and says b holds it."""
    w = _two_in_a_corridor(10.5)
    a, b = w.units
    room, by = w.avoider.tile_room(a, w.dt)
    assert by is b
    assert 5.85 <= a.x + room < 6.0  # its path runs straight along x; b's tile starts at x = 6


def test_a_tile_beyond_what_a_unit_could_need_to_stop_for_does_not_hold_it():
    """Only tiles within its reach this tick (stopping distance, a tick, a tile) can slow a
    unit: one farther on neither holds it nor is named as holding it."""
    doc = {"map": ["############", "#..........#", "############"], "seed": 1, "duration": 20,
           "avoidance": "pinter",
           "units": [{"id": "a", "kind": "person", "start": [1.5, 1.5, 0.0], "goal": [10.5, 1.5]},
                     {"id": "b", "kind": "person", "start": [6.8, 1.5, 0.0]}]}
    w = read_scenario(doc).world
    a, b = w.units
    while a.x < 3.5:
        w.step()
    m = a.mover
    assert m is not None and m.v > 1.0
    reach = m.v ** 2 / (2.0 * m.brake_rate) + (m.v + m.accel_rate * w.dt) * w.dt + 1.0
    assert a.x + reach < 6.0  # b's tile is out of reach
    assert w.avoider.tile_room(a, w.dt) == (math.inf, None)


def test_the_last_tile_of_a_leg_may_hold_another_centre():
    """A unit's goal tile may hold a standing unit (their bodies may fit side by side there)."""
    w = _two_in_a_corridor(6.2)
    a, _ = w.units
    assert a.mover is not None
    assert w.avoider.tile_room(a, w.dt) == (math.inf, None)


def test_two_groups_swap_under_pinter_all_arrive():
    """The issue's swap under Pinter's rules: units give way into refuges, and a jam goes to a
    cooperative plan; a unit waiting in a refuge keeps waiting while the one it lets by is
    between two legs (it let go too early, and the swap never untangled)."""
    w = run(presets.group_swap(count=10, avoidance="pinter"))
    assert all(u.arrived is not None for u in w.units), [(u.id, u.status) for u in w.units]
    assert overlap(w) <= TOLERANCE


def test_a_tank_waits_for_the_other_to_back_into_the_bay_without_a_jam():
    """Two tanks head-on under pinter: one backs into the passing bay (turning on the spot
    first, which takes a tank a while) and the other waits. Counting that wait as a jam handed
    both to a cooperative plan mid-manoeuvre, which sent the first back out (16 s of waiting)."""
    w = run(presets.corridor_bay(length=13, avoidance="pinter"))
    assert all(u.arrived is not None for u in w.units)
    assert max(longest_stuck(u.samples, u.arrived) for u in w.units) <= 10.0
    assert not [e for e in w.events if e.kind.value == "jam"]


EXAMPLE_UNIT = {"width": 0.8, "radius": 0.5, "speed": 2.0}


def longest_stand(doc, w):
    """The longest any unit of ``doc`` run as ``w`` stood before it arrived (``longest_stuck``;
    standing on its goal not counted)."""
    goals = {u["id"]: u["goal"] for u in doc["units"]}
    return max(longest_stuck(u.samples, u.arrived, goal=goals[u.id]) for u in w.units)


def through(doc):
    """Run ``doc``: every unit arrives and no two bodies overlap by more than ``TOLERANCE``;
    the longest stand (``longest_stand``)."""
    w = run(doc)
    assert all(u.arrived is not None for u in w.units), [(u.spec.id, u.status) for u in w.units if u.arrived is None]
    assert overlap(w) <= TOLERANCE
    return longest_stand(doc, w)


def two_rooms(seed, method, count=20):
    """Two rooms of random size joined by a one-tile door in a random row, ``count`` units of one
    random kind (the issue's example unit, a person or a tank) from random tiles of the left room
    to random tiles of the right (seeded)."""
    rng = random.Random(seed)
    w, h = rng.randint(6, 10), rng.randint(6, 10)
    door = rng.randint(1, h)
    rows = ["#" * (2 * w + 3)]
    rows += ["#" + "." * w + ("." if y == door else "#") + "." * w + "#" for y in range(1, h + 1)]
    rows.append("#" * (2 * w + 3))
    left = [(x, y) for y in range(1, h + 1) for x in range(1, w + 1)]
    starts, goals = rng.sample(left, count), rng.sample([(x + w + 1, y) for x, y in left], count)
    unit = rng.choice([EXAMPLE_UNIT, EXAMPLE_UNIT, {"kind": "person"}, {"kind": "tank"}])
    units = [{"id": f"u{i}", **unit, "start": [s[0] + .5, s[1] + .5, rng.uniform(-3.14, 3.14)],
              "goal": [g[0] + .5, g[1] + .5]} for i, (s, g) in enumerate(zip(starts, goals))]
    return {"map": rows, "seed": seed, "duration": 240, "avoidance": method, "units": units}


def test_units_whose_ways_to_their_first_centres_cross_are_planned_again():
    """Tanks at a door under claimed: a jam's plan started two of them off their tiles' centres,
    and each one's way to its first centre passed the other's body, which the plan had wait for
    it (spacing held one, the plan the other). The plan's order cannot see such a ring, and they
    stood 43 s; a unit held so for ``RING_AFTER`` now has the round planned again."""
    doc = two_rooms(10, "claimed")
    assert {u.get("kind") for u in doc["units"]} == {"tank"}
    stuck = through(doc)
    assert stuck <= 20.0, stuck


def test_a_cooperative_plan_gives_a_tank_two_ticks_on_each_corner_and_a_person_one():
    """Tanks pivot slowly for their speed (a quarter turn takes them as long as 4 tiles), so their
    plans stand 2 ticks on a corner before they turn, where a person's stand 1: the plan's timing
    stays near the time units take to drive it. Read from each round's plan: the tick a unit
    enters each tile, so it stood on a corner from entering it to leaving it."""
    rows = ["############", *["#..........#"] * 8, "############"]
    units = [{"id": f"{kind}{i}", "kind": kind, "start": [1.5 + 2 * i, 1.5 + 3 * k, 0.0],
              "goal": [10.5 - 2 * i, 8.5 - 3 * k]}
             for k, kind in enumerate(("tank", "person")) for i in range(3)]
    sc = read_scenario({"map": rows, "seed": 1, "duration": 60, "avoidance": "cooperative", "units": units})
    w = sc.world
    stands = {u["id"]: [] for u in units}
    while w.busy and w.time < sc.duration:
        w.step()
        for uid, plan in w.avoider.driving.plans.items():
            v = plan.visits
            stands[uid] += [tc - tb - 1 for (a, _), (b, tb), (c, tc) in zip(v, v[1:], v[2:])
                            if (b[0] - a[0], b[1] - a[1]) != (c[0] - b[0], c[1] - b[1])]
    assert all(u.arrived is not None for u in w.units)
    for uid, seen in stands.items():
        assert seen, uid  # every unit's way here has a corner
        assert min(seen) >= (2 if uid.startswith("tank") else 1), (uid, seen)
    assert any(min(seen) == 1 for uid, seen in stands.items() if uid.startswith("person"))


def test_units_that_stand_re_planning_round_each_other_are_a_jam_in_seconds():
    """The issue's example units at an unseen door under pinter: two stood face to face from the
    start, each re-planning round the other's claims every second or two, so neither was ever
    held ``JAM_AFTER`` without a break and the 12 s watchdog took them in only after 12.5 s.
    Standing still ``STILL_AFTER`` is a jam too."""
    doc = two_rooms(125, "pinter")
    assert "kind" not in doc["units"][0]
    stuck = through(doc)
    assert stuck <= 10.0, stuck


def test_a_unit_asked_to_step_off_its_goal_later_waits_on_the_goal_itself():
    """People at an unseen door under pinter: a jam's plan had one, still short of its goal and
    on the goal's tile, step aside later for a unit passing; it was sent straight towards the
    tile it would step to and stopped where the plan's count put its tile's centre, 6 cm short
    of its goal, for 30 s (standing, not arrived). Until it may leave its tile it drives to the
    centre (its goal), and waits there."""
    doc = two_rooms(121, "pinter")
    assert doc["units"][0].get("kind") == "person"
    stuck = through(doc)
    assert stuck <= 10.0, stuck


def test_a_round_planned_a_little_each_tick_brings_the_door_through_with_short_ticks(monkeypatch):
    """With ``plan_work`` a cooperative round is planned over several ticks, no tick doing more
    than the budget and one piece of work (a search, a sweep, a few LaCAM turns), its units
    standing meanwhile; the door still comes through, apart, the same every run."""
    import arcstar.search.cooperative as coop

    budget = 600
    done: dict[int, list[int]] = {}
    world = {}
    fresh = coop.CooperativePlanner._fresh

    def counted(self):
        piece = fresh(self)
        done.setdefault(world["w"].ticks, []).append(piece)
        return piece

    monkeypatch.setattr(coop.CooperativePlanner, "_fresh", counted)
    doc = presets.door(count=20, avoidance="cooperative", seed=1)
    doc["plan_work"] = budget
    sc = read_scenario(doc)
    world["w"] = sc.world
    w = run_from(sc, doc)
    assert all(u.arrived is not None for u in w.units), [(u.spec.id, u.status) for u in w.units]
    assert overlap(w) <= TOLERANCE
    biggest = max(p for pieces in done.values() for p in pieces)
    assert all(sum(pieces) <= budget + biggest for pieces in done.values())
    assert sum(len(p) > 1 for p in done.values()) > 5 and len(done) > 3  # sliced, over several ticks
    going_on = [k for k in done if k + 1 in done]  # ticks after which the round was still being planned
    assert going_on and all(u.samples[k + 1][4] == 0.0 for k in going_on for u in w.units)
    again = read_scenario(doc).world
    again.run(sc.duration)
    assert [u.samples for u in again.units] == [u.samples for u in w.units]


@pytest.mark.parametrize("bad", [0, -5, 2.5, True, "many", [1], 1 << 31])
def test_a_bad_plan_work_is_refused_naming_it(bad):
    doc = presets.door(count=2, avoidance="cooperative")
    doc["plan_work"] = bad
    with pytest.raises(arcstar.BadInput) as err:
        read_scenario(doc)
    assert err.value.field == "plan_work"


@pytest.mark.parametrize("method", ["pinter", "claimed", "cooperative"])
@pytest.mark.parametrize("rows, starts, goal", [
    (["#" * 12] + ["#" + "." * 10 + "#"] * 6 + ["#" * 12], [(1.5, 1.5), (10.5, 6.5)], (6.5, 4.5)),
    (["#" * 12, "#" + "." * 10 + "#", "#" * 12], [(1.5, 1.5), (10.5, 1.5), (2.5, 1.5)], (6.5, 1.5)),
])
def test_units_sent_to_one_tile_report_arrived_only_on_it(method, rows, starts, goal):
    """Two or three units sent to one goal cannot all stand on it: a unit the plan gave a tile
    next to it (or that stepped aside and came back elsewhere) is not arrived, and says so; one
    reported arrived stands on its goal when it arrives and at the end."""
    doc = {"map": rows, "seed": 3, "duration": 90, "avoidance": method,
           "units": [{"id": f"u{i}", "start": [x, y, 0.0], "goal": list(goal), "width": 0.8, "radius": 0.5,
                      "speed": 2.0} for i, (x, y) in enumerate(starts)]}
    w = run(doc)
    assert overlap(w) <= TOLERANCE
    for u in w.units:
        arrived = w.arrival(u)  # what a run reports
        if arrived is None:
            assert u.status != "arrived", u.id
            continue
        when = next(s for s in u.samples if abs(s[0] - arrived) < 1e-6)
        last = u.samples[-1]
        assert math.hypot(when[1] - goal[0], when[2] - goal[1]) <= 0.01, (u.id, when)
        assert math.hypot(last[1] - goal[0], last[2] - goal[1]) <= 0.01, (u.id, last)
    if len(starts) == 2:
        assert sum(w.arrival(u) is not None for u in w.units) == 1, [(u.id, u.status) for u in w.units]


@pytest.mark.parametrize("method", ["pinter", "claimed", "cooperative"])
def test_a_unit_made_to_make_way_keeps_its_arrival_and_a_timed_order_is_driven(method):
    """a stands on its goal in a corridor when b, ordered at 4 s (a timed order: under
    cooperative it was driven by the stale plan, and b 'arrived' where it stood), needs to pass:
    a steps into the bay and back. a arrived when it first stood on its goal, and says so
    after it comes back; b drives to its own goal."""
    doc = {"map": ["############", "#..........#", "#####.######", "############"], "seed": 1, "duration": 60,
           "avoidance": method,
           "units": [{"id": "a", "start": [2.5, 1.5, 0.0], "goal": [5.5, 1.5], **EXAMPLE_UNIT},
                     {"id": "b", "start": [1.5, 1.5, 0.0], **EXAMPLE_UNIT,
                      "orders": [{"type": "move", "goal": [10.5, 1.5], "at": 4.0}]}]}
    w = run(doc)
    assert overlap(w) <= TOLERANCE
    a, b = w.units
    assert b.arrived is not None and math.hypot(b.x - 10.5, b.y - 1.5) <= 0.01, b.status
    assert a.arrived is not None and a.arrived < 4.0 and a.status == "arrived"
    on_goal = [math.hypot(s[1] - 5.5, s[2] - 1.5) <= 0.01 for s in a.samples]
    first = next(i for i, s in enumerate(a.samples) if abs(s[0] - a.arrived) < 1e-6)
    assert on_goal[first] and a.samples[first][4] == 0.0 and on_goal[-1]
    assert not all(on_goal[first:])  # it made way, and came back


@pytest.mark.parametrize("method", ["none", "pinter", "claimed"])
def test_under_fog_a_car_beside_a_long_wall_keeps_its_body_out_of_it(method):
    """A car drives beside a long wall it learns as it goes: seen along its length, a wall hides
    its own further tiles from a ray to their centres, so the car knew only the nearest, planned
    its turn through the rest as open ground and clipped them (0.16 tile). A wall's face is now
    seen with the floor before it. ``run`` checks every body against the true map."""
    rows = ["######################",
            "#....................#",
            "#....................#",
            "#....#############...#",
            "#................#...#",
            "#....#############...#",
            "#....................#",
            "#....................#",
            "######################"]
    doc = {"map": rows, "seed": 7, "duration": 90, "avoidance": method, "fog": True,
           "units": [{"id": "t", "kind": "tank", "team": "red", "start": [3.5, 4.5, 0.0], "goal": [20.5, 4.5]},
                     {"id": "q", "kind": "car", "team": "blue", "start": [20.5, 7.5, math.pi], "goal": [1.5, 1.5]}]}
    w = run(doc)
    assert all(w.arrival(u) is not None for u in w.units), [(u.id, u.status) for u in w.units]


@pytest.mark.parametrize("method", ["none", "pinter", "claimed"])
def test_under_fog_a_way_that_would_clip_a_wall_learned_by_a_hair_is_planned_again(method):
    """A car plans, knowing nothing of the room below, a way that ends by swinging round to a goal
    heading on an arc whose lowest point takes its body 0.008 of a tile past the bottom wall's
    face. It saw the wall in time, but a learned wall counted only where the body's bounding box
    reached it at every fifth of a tile along the way, the lowest point fell between two, and the
    car drove into the wall (an outside random search). A wall learned near the way now has the
    way tested exactly. ``run`` checks every body against the true map."""
    rows = ["#################",
            "#...............#",
            "#######.###.#####",
            "#...............#",
            "#...............#",
            "#################"]
    doc = {"map": rows, "seed": 1, "duration": 60, "avoidance": method, "fog": True,
           "units": [{"id": "c", "kind": "car", "start": [13.5, 3.5, -1.898], "goal": [3.5, 4.5, -1.782]}]}
    w = run(doc)
    assert w.arrival(w.units[0]) is not None, w.units[0].status


@pytest.mark.parametrize("method", ["none", "pinter", "claimed", "cooperative"])
@pytest.mark.parametrize("unit", [{"width": 0.8, "radius": 0.5, "speed": 2.0, "sight": 3}, {"kind": "car"}])
def test_under_fog_a_unit_whose_only_way_a_wall_closes_stops_short_of_it(method, unit):
    """The goal lies beyond a wall across the corridor, unseen at first: when the unit sees it
    and no way is left, it stops short of the wall and says why (it drove on through the wall and
    "arrived": a failed re-plan left it on its old way; so did one that other units hemmed in
    under claimed, found by an outside survey). ``run`` checks every body against the true map."""
    doc = {"map": ["#" * 22, "#" + "." * 12 + "#" + "." * 7 + "#", "#" * 22], "seed": 2, "duration": 40,
           "avoidance": method, "fog": True,
           "units": [{"id": "a", **unit, "start": [1.5, 1.5, 0.0], "goal": [19.5, 1.5]}]}
    w = run(doc)
    a = w.units[0]
    assert a.arrived is None and a.status.startswith("no route"), a.status
    assert max(s[1] for s in a.samples) < 13.0 - a.spec.width / 2.0
    assert a.samples[-1][4] == 0.0 and not w.busy


@pytest.mark.parametrize("method", ["pinter", "claimed", "cooperative"])
@pytest.mark.parametrize("rows, starts, goal", [
    (["#" * 12, "#" + "." * 10 + "#", "#" * 12], [(1.5, 1.5), (10.5, 1.5), (2.5, 1.5)], (6.5, 1.5)),
    (["#" * 14, "#" + "." * 12 + "#", "#" * 14], [(1.5, 1.5), (2.5, 1.5), (3.5, 1.5), (12.5, 1.5)], (7.5, 1.5)),
    (["#" * 12] + ["#" + "." * 10 + "#"] * 6 + ["#" * 12],
     [(1.5, 1.5), (10.5, 6.5), (1.5, 6.5), (10.5, 1.5), (5.5, 1.5)], (6.5, 4.5)),
])
def test_units_sent_to_one_tile_settle_with_the_tile_taken(method, rows, starts, goal):
    """Units sent to one tile take it and the tiles round it, and stop: one stands on it,
    arrived, and the others stand still as near as they can get, each on its own side (in a
    one-tile corridor, three units given one tile in the units' order were sent past each other
    and the tile was left empty under cooperative, and the local methods shuffled for good)."""
    doc = {"map": rows, "seed": 5, "duration": 120, "avoidance": method,
           "units": [{"id": f"u{i}", "start": [x, y, 0.0], "goal": list(goal), "width": 0.8, "radius": 0.5,
                      "speed": 2.0} for i, (x, y) in enumerate(starts)]}
    w = run(doc)
    assert overlap(w) <= TOLERANCE
    assert not w.busy, [(u.id, u.status) for u in w.units]  # done before the duration: nobody shuffles on
    assert w.time < doc["duration"] - 1.0
    on = [u for u in w.units if math.hypot(u.samples[-1][1] - goal[0], u.samples[-1][2] - goal[1]) <= 0.01]
    assert len(on) == 1 and on[0].arrived is not None, [(u.id, u.samples[-1]) for u in w.units]
    for u in w.units:
        last = u.samples[-1]
        assert last[4] == 0.0
        if u is not on[0]:
            assert u.arrived is None and u.status.startswith("stopped"), (u.id, u.status)
            assert math.hypot(last[1] - goal[0], last[2] - goal[1]) <= len(starts), (u.id, last)


@pytest.mark.parametrize("method", ["pinter", "claimed", "cooperative"])
@pytest.mark.parametrize("orders, status", [([{"type": "stop"}], "stopped"), ([], "idle"),
                                            ([{"type": "move", "goal": [1.5, 3.5]}], "no route: ")])
def test_a_unit_made_to_make_way_keeps_the_status_its_orders_left(method, orders, status):
    """A unit told to stop, never told anything, or sent to a tile walled off from it steps into
    a bay to let another by and back: it says what it said before (a stopped unit read "idle"
    after making way, and one a jam's plan moved to its tile's centre read "moving" for good,
    found by an outside survey; one whose goal could not be reached read "stopped 11.00 tiles
    from its goal" at a random search's room, its no route forgotten)."""
    unit = {"width": 0.8, "radius": 0.5, "speed": 2.0}
    doc = {"map": ["#########", "#.......#", "###.#####", "#.#######", "#########"], "seed": 1, "duration": 60,
           "avoidance": method,
           "units": [{"id": "a", **unit, "start": [3.5, 1.5, 0.0], "orders": orders},
                     {"id": "b", **unit, "start": [1.5, 1.5, 0.0], "goal": [7.5, 1.5]}]}
    w = run(doc)
    a, b = w.units
    assert b.arrived is not None and overlap(w) <= TOLERANCE
    assert any(s[2] > 2.0 for s in a.samples)  # it made way
    assert a.status.startswith(status) and a.arrived is None and not w.busy, a.status
    assert a.state.value == {"stopped": "stopped", "idle": "idle", "no route: ": "failed"}[status]


@pytest.mark.parametrize("method", ["none", "pinter", "claimed", "cooperative"])
def test_the_nearest_of_several_targets_is_the_nearest_by_the_ground(method):
    """One target lies just across a wall (2 tiles as the crow flies, 8 by the ground), the
    other 3 tiles away in the open: every method sends the unit to the second (cooperative
    took the nearest as the crow flies)."""
    doc = {"map": ["########", "#....#.#", "#....#.#", "#....#.#", "#......#", "########"], "seed": 1,
           "duration": 30, "avoidance": method,
           "units": [{"id": "a", "start": [4.5, 1.5, math.pi], "targets": [[6.5, 1.5], [1.5, 1.5]],
                      "width": 0.8, "radius": 0.5, "speed": 2.0}]}
    w = run(doc)
    a = w.units[0]
    assert a.arrived is not None and a.samples[-1][1:3] == pytest.approx((1.5, 1.5)), a.status


def test_a_unit_stepping_aside_gives_way_to_one_sent_to_its_tile():
    """People at a door under claimed: a jam's plan counted a unit's step aside and back as a
    claim on the tile it came from, which another unit was sent to; nearer, it took the tile,
    and the two ended on each other's goals for good, 'stopped 1.00 tiles from its goal'. A
    unit's own goal now comes before a step aside, and one standing idle gives way."""
    doc = two_rooms(127, "claimed")
    assert {u.get("kind") for u in doc["units"]} == {"person"}
    w = run(doc)
    assert all(w.arrival(u) is not None for u in w.units), [(u.id, u.status) for u in w.units if u.arrived is None]
    assert overlap(w) <= TOLERANCE


@pytest.mark.parametrize("team", ["", "x"])
def test_cooperative_under_fog_plans_on_what_its_units_have_seen_whatever_their_teams(team):
    """One cooperative plan for units of several teams is made on what any of them has seen, not
    on the true map (an outside survey found a second team put the plan on the true map: a unit
    went round a wall nobody had seen from the first second, and one whose goal lay in a closed
    pocket nobody had seen knew at once it could not get there)."""
    rows = ["..............", "..............", "..........#...", "..........#...", "..........#...",
            "..........#...", ".........##..."]
    doc = {"map": rows, "fog": True, "avoidance": "cooperative", "duration": 40,
           "units": [{"id": "a", "kind": "person", "start": [0.5, 5.5], "goal": [12.5, 5.5], "sight": 3},
                     {"id": "b", "kind": "person", "start": [0.5, 0.5], "goal": [0.5, 0.5], "team": team}]}
    sc = read_scenario(doc)
    w = run_from(sc, doc)
    a = w.units[0]
    assert a.arrived is not None
    first = next(s for s in a.samples if abs(s[2] - 5.5) > 0.5)  # where it first left the straight way
    assert first[1] > 6.0, first  # it drove at the wall it had not seen before it turned
    pocket = {"map": ["..............", "..........###.", "..........#.#.", "..........###.", "..............",
                      "..............", "..............", ".............."], "fog": True,
              "avoidance": "cooperative", "duration": 30,
              "units": [{"id": "a", "start": [0.5, 2.5], "goal": [11.5, 2.5], "sight": 3},
                        {"id": "b", "start": [0.5, 7.5], "goal": [1.5, 7.5], "sight": 2, "team": team}]}
    sc = read_scenario(pocket)
    w = run_from(sc, pocket)
    a = w.units[0]
    assert max(s[1] for s in a.samples) > 6.0  # it went to look
    assert a.status.startswith("no route") and a.arrived is None


@pytest.mark.parametrize("method", ["pinter", "claimed"])
@pytest.mark.parametrize("kind", ["person", "tank", None])
@pytest.mark.parametrize("starts", [[(1.5, 1.5), (1.5, 5.5)], [(1.5, 0.5), (4.5, 6.5), (10.5, 0.5)]])
def test_units_sent_to_one_place_in_the_open_settle(method, kind, starts):
    """In an open field too: the one there first keeps the place and the others stop beside it.
    An outside audit found two people (or two of the default unit) under claimed take the place
    in turn for good, each asked to make way and coming back, and two tanks under pinter re-plan
    round the one on it for good, still moving at 200 s."""
    units = [{"id": f"u{i}", "start": [x, y, 0.0], "goal": [9.5, 3.5], **({"kind": kind} if kind else {})}
             for i, (x, y) in enumerate(starts)]
    doc = {"map": ["." * 12] * 8, "duration": 120, "avoidance": method, "units": units}
    w = run(doc)
    assert overlap(w) <= TOLERANCE
    assert not w.busy and w.time < 60.0, [(u.id, u.status) for u in w.units]
    on = [u for u in w.units if math.hypot(u.x - 9.5, u.y - 3.5) <= 0.01]
    assert len(on) == 1 and on[0].status == "arrived"
    assert all(u.status.startswith("stopped") for u in w.units if u is not on[0])


T_JUNCTION = ["###################", "#.................#", "###.#####.#####.###", "#########.#########",
              "#########.#########", "#########.#########", "#########.#########", "#########.#########",
              "#########.#########", "###################"]


@pytest.mark.parametrize("method", ["pinter", "claimed"])
def test_a_timed_order_to_a_unit_in_a_jams_plan_is_driven(method):
    """Three cars meet where a long stem joins a corridor; their jam is handed to a cooperative
    plan, and car s gets a timed order while in it. A timed order comes in the unit's own turn,
    after the plan's look round: the plan handed s its old way, which ended on its old goal's
    tile, and the order counted as done with s standing 'stopped 8.06 tiles from its goal' for
    good (found by an outside survey). Now the plan is made again and s drives to its new goal."""
    order_at = 40.05
    doc = {"map": T_JUNCTION, "seed": 1, "duration": 160.05, "avoidance": method, "units": [
        {"id": "w", "kind": "car", "start": [1.5, 1.5, 0.0], "goal": [9.5, 8.5]},
        {"id": "s", "kind": "car", "start": [9.5, 8.5, -math.pi / 2], "goal": [17.5, 1.5],
         "orders": [{"type": "move", "goal": [9.5, 2.5], "at": order_at}]},
        {"id": "e", "kind": "car", "start": [17.5, 1.5, math.pi], "goal": [1.5, 1.5]}]}
    sc = read_scenario(doc)
    w = sc.world
    while w.time < order_at - 1e-9:
        w.step()
    assert w.avoider.member(w.unit("s"))  # the order comes while s is in the jam's plan
    w = run_from(sc, doc)
    s = w.unit("s")
    assert s.arrived is not None and s.status == "arrived"
    assert (s.x, s.y) == pytest.approx((9.5, 2.5))
    assert all(u.arrived is not None for u in w.units), [(u.spec.id, u.status) for u in w.units]
    assert overlap(w) <= TOLERANCE


#: An outside survey's door with timed orders (14 units of every kind, some sent to one tile).
SURVEY_DOOR_UNITS = json.loads(
    "[{\"id\":\"u0\",\"start\":[7.5,4.5,-2.78],\"goal\":[13.5,5.5],\"kind\":\"tank\"},{\"id\":\"u1\",\"start\":[15.5,3.5,0."
    "79],\"kind\":\"car\",\"orders\":[{\"type\":\"move\",\"goal\":[13.5,5.5]},{\"type\":\"move\",\"goal\":[15.5,2.5],\"at\":4"
    "0}]},{\"id\":\"u2\",\"start\":[6.5,4.5,-1.51],\"goal\":[13.5,5.5],\"kind\":\"person\"},{\"id\":\"u3\",\"start\":[13.5,"
    "5.5,-2.39],\"kind\":\"tank\",\"orders\":[{\"type\":\"move\",\"goal\":[13.5,5.5]},{\"type\":\"move\",\"goal\":[16.5,6.5"
    "],\"at\":30}]},{\"id\":\"u4\",\"start\":[6.5,3.5,3.01],\"goal\":[17.5,6.5],\"kind\":\"car\"},{\"id\":\"u5\",\"start\":[1"
    "6.5,4.5,-1.44],\"kind\":\"person\",\"orders\":[{\"type\":\"move\",\"goal\":[2.5,1.5]},{\"type\":\"move\",\"goal\":[2.5"
    ",4.5],\"at\":15}]},{\"id\":\"u6\",\"start\":[5.5,1.5,2.97],\"goal\":[14.5,7.5],\"kind\":\"tank\"},{\"id\":\"u7\",\"star"
    "t\":[10.5,7.5,-0.19],\"kind\":\"car\",\"orders\":[{\"type\":\"move\",\"goal\":[8.5,2.5]},{\"type\":\"move\",\"goal\":[1"
    "1.5,2.5],\"at\":12}]},{\"id\":\"u8\",\"start\":[3.5,2.5,-1.82],\"goal\":[10.5,4.5],\"kind\":\"person\"},{\"id\":\"u9\""
    ",\"start\":[11.5,1.5,-1.99],\"kind\":\"tank\",\"orders\":[{\"type\":\"move\",\"goal\":[8.5,3.5]},{\"type\":\"move\",\"g"
    "oal\":[14.5,3.5],\"at\":30}]},{\"id\":\"u10\",\"start\":[3.5,1.5,1.46],\"goal\":[11.5,2.5],\"kind\":\"car\"},{\"id\":"
    "\"u11\",\"start\":[10.5,2.5,3.0],\"kind\":\"person\",\"orders\":[{\"type\":\"move\",\"goal\":[7.5,5.5]},{\"type\":\"mov"
    "e\",\"goal\":[15.5,6.5],\"at\":12}]},{\"id\":\"u12\",\"start\":[4.5,7.5,2.47],\"goal\":[11.5,5.5],\"kind\":\"tank\"},"
    "{\"id\":\"u13\",\"start\":[15.5,5.5,-0.05],\"kind\":\"car\",\"orders\":[{\"type\":\"move\",\"goal\":[7.5,6.5]},{\"type\""
    ":\"move\",\"goal\":[17.5,2.5],\"at\":30}]}]")


def test_a_step_aside_never_makes_a_jams_round_due_again(monkeypatch):
    """A round has idle units step aside (an order aside, queued by the plan itself); the check
    that re-plans a unit whose order changed since its round (a timed order) took that order for
    a new one too and planned the round again each time (an outside survey: twice the work on
    its door). Only a unit's own orders count."""
    from arcstar.world import coordinated

    due: list[tuple[str, bool]] = []
    may_start = coordinated.Cooperative.may_start

    def watched(self, world, u, now):
        before = self.dirty
        ok = may_start(self, world, u, now)
        if not before and self.dirty:
            due.append((u.spec.id, u.next_order is not None and u.next_order.aside))
        return ok

    monkeypatch.setattr(coordinated.Cooperative, "may_start", watched)
    rows = ["#" * 19] + ["#........#........#"] * 3 + ["#" + "." * 17 + "#"] + ["#........#........#"] * 3 + ["#" * 19]
    doc = {"map": rows, "seed": 5, "duration": 150, "avoidance": "pinter", "units": SURVEY_DOOR_UNITS}
    w = run(doc)
    assert not any(aside for _, aside in due), due
    assert overlap(w) <= TOLERANCE
