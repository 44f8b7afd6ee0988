"""Scenario files and ``python -m arcstar world``: the documented format runs, and hostile or
malformed files are refused with a clear error naming the field (exit code 2)."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

import arcstar
from arcstar.cli import main
from arcstar.outcomes import BadInput
from arcstar.world import MAX_SCENARIO_BYTES, load_scenario, read_scenario, run_scenario
from worldcheck import check_trajectory

EXAMPLE = {"map": ["..........", "..........", "......###.", "......#...", "......#..."], "seed": 1,
           "duration": 120, "avoidance": "none",
           "units": [{"id": "a", "start": [1.5, 1.5, 0.0], "goal": [8.5, 4.5], "width": 0.8, "radius": 0.5,
                      "speed": 2.0}]}


def _run_cli(tmp_path, capsys, doc, *extra):
    f = tmp_path / "scenario.json"
    f.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    code = main(["world", str(f), *extra])
    return code, capsys.readouterr()


def test_the_readme_example_runs_from_the_command_line(tmp_path, capsys):
    code, out = _run_cli(tmp_path, capsys, EXAMPLE, "--json")
    assert code == 0
    doc = json.loads(out.out)
    (u,) = doc["units"]
    assert u["id"] == "a" and isinstance(u["arrived"], float) and u["status"] == "arrived"
    samples = u["samples"]
    assert samples[0] == [0.0, 1.5, 1.5, 0.0, 0.0]
    assert u["arrived"] == samples[-1][0] and samples[-1][1:3] == [8.5, 4.5]
    blocked = arcstar.parse_ascii("\n".join(EXAMPLE["map"])).map.blocked
    # the defaults: top speed 2 tiles/s reached in a second (2 tiles/s^2), braking twice that, dt
    # 0.05 s; the output is rounded to 1e-6
    check_trajectory(samples, doc["dt"], 2.0, 2.0, 4.0, blocked, 0.8, eps=1e-5)


def test_the_text_output_says_where_each_unit_ended(tmp_path, capsys):
    code, out = _run_cli(tmp_path, capsys, EXAMPLE)
    assert code == 0 and out.out.startswith("a: arrived at ")


def test_the_richer_form_kinds_orders_dt_and_method():
    doc = {"map": ["....................", "....................", ".........#..........",
                   ".........#..........", "...................."],
           "seed": 3, "duration": 30, "dt": 0.1, "method": "tighter",
           "units": [{"id": "t", "kind": "tank", "start": [1.5, 1.5, 0.0], "team": "red",
                      "orders": [{"type": "move", "goal": [15.5, 3.5, 1.5707963]},
                                 {"type": "move", "goal": [2.5, 4.5]}]},
                     {"id": "p", "kind": "person", "start": [18.5, 0.5], "speed": 1.0,
                      "patrol": [[12.5, 0.5], [18.5, 4.5]]},
                     {"id": "g", "start": [0.5, 4.5], "targets": [[19.5, 4.5], [4.5, 0.5]], "method": "astar"},
                     {"id": "s", "kind": "car", "start": [5.5, 4.5, 3.14159],
                      "orders": [{"type": "move", "goal": [0.5, 0.5]}, {"type": "stop", "at": 1.0}]}]}
    out = run_scenario(read_scenario(doc), digits=None)
    by = {u["id"]: u for u in out["units"]}
    assert by["t"]["arrived"] is not None and by["t"]["samples"][-1][1:3] == pytest.approx([2.5, 4.5])
    assert by["p"]["arrived"] is None and by["p"]["status"] == "patrolling" and out["time"] == pytest.approx(30)
    assert by["g"]["samples"][-1][1:3] == pytest.approx([4.5, 0.5])
    assert by["s"]["status"] == "stopped" and by["s"]["arrived"] is None
    blocked = arcstar.parse_ascii("\n".join(doc["map"])).map.blocked
    presets = {"t": (2.0, 1.0, 2.0, 0.9), "p": (1.0, 1.5, 3.0, 0.5), "g": (2.0, 2.0, 4.0, 0.8),
               "s": (4.0, 2.5, 5.0, 0.8)}
    for uid, (v, a, b, w) in presets.items():
        check_trajectory(by[uid]["samples"], 0.1, v, a, b, blocked, w)


def test_the_same_file_gives_the_same_output(tmp_path, capsys):
    first = _run_cli(tmp_path, capsys, EXAMPLE, "--json")[1].out
    assert first == _run_cli(tmp_path, capsys, EXAMPLE, "--json")[1].out


def _with(**changes):
    doc = json.loads(json.dumps(EXAMPLE))
    for path, value in changes.items():
        target = doc
        keys = path.split("__")
        for k in keys[:-1]:
            target = target[int(k)] if isinstance(target, list) else target[k]
        last = keys[-1]
        if value is _DROP:
            del target[last]
        elif isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
    return doc


_DROP = object()

BAD = [
    (_with(map=42), "map"),
    (_with(map=["..", "..."]), "map"),
    (_with(map=["..x"]), "map"),
    (_with(units=[]), "units"),
    (_with(units="a"), "units"),
    (_with(seed=1.5), "seed"),
    (_with(seed=True), "seed"),
    (_with(duration=1e9), "duration"),
    (_with(duration=-1), "duration"),
    (_with(duration="10"), "duration"),
    (_with(dt=0.0), "dt"),
    (_with(dt=5), "dt"),
    (_with(avoidance="Pinter"), "avoidance"),
    (_with(fog="yes"), "fog"),
    (_with(avoidance="flock"), "avoidance"),
    (_with(method="teleport"), "method"),
    (_with(colour="red"), "colour"),
    (_with(units__0__start=[1.5, 1.5, "east"]), "units[0].start[2]"),
    (_with(units__0__start=[1.5]), "units[0].start"),
    (_with(units__0__start=[99.5, 1.5, 0.0]), "units[0].start"),
    (_with(units__0__start=[-0.5, 1.5, 0.0]), "units[0].start"),
    (_with(units__0__start=[6.5, 2.5, 0.0]), "units[0].start"),
    (_with(units__0__start=_DROP), "units[0].start"),
    (_with(units__0__goal=[6.5, 3.5]), "units[0].goal"),
    (_with(units__0__goal=[9.5, 0.5], units__0__width=3.5), "units[0].start"),
    (_with(units__0__width=-1), "units[0].width"),
    (_with(units__0__speed=0), "units[0].speed"),
    (_with(units__0__speed=1e300), "units[0].speed"),
    (_with(units__0__radius=None), "units[0].radius"),
    (_with(units__0__can_reverse="yes"), "units[0].can_reverse"),
    (_with(units__0__kind="horse"), "units[0].kind"),
    (_with(units__0__method="warp"), "units[0].method"),
    (_with(units__0__method="jps"), "units[0].method"),  # plans for a point: it routed no unit
    (_with(method="hpa"), "method"),
    (_with(units__0__id=7), "units[0].id"),
    (_with(units__0__wings=2), "units[0].wings"),
    (_with(units__0__orders=[{"type": "fly"}]), "units[0].orders[0].type"),
    (_with(units__0__orders=[{"type": "move"}]), "units[0].orders[0].goal"),
    (_with(units__0__orders=[{"type": "stop", "goal": [1.5, 1.5]}]), "units[0].orders[0].goal"),
    (_with(units__0__orders=[{"type": "stop", "at": -1}]), "units[0].orders[0].at"),
    (_with(units__0__patrol=[]), "units[0].patrol"),
    (_with(units__0__targets=[[1.5, 1.5], [1e20, 1]]), "units[0].targets[1][0]"),
    ({**EXAMPLE, "units": [EXAMPLE["units"][0], EXAMPLE["units"][0]]}, "units[1].id"),
    ({**EXAMPLE, "units": [EXAMPLE["units"][0], {**EXAMPLE["units"][0], "id": "b"}]}, "units[1].start"),
    ({**EXAMPLE, "units": [EXAMPLE["units"][0]] * 300}, "units"),
    ({**EXAMPLE, "duration": 3600, "dt": 0.005, "units": [EXAMPLE["units"][0], {**EXAMPLE["units"][0], "id": "b"}]},
     "duration"),
    ([1, 2], ""),
]


@pytest.mark.parametrize(("doc", "field"), BAD)
def test_bad_scenarios_name_the_field(doc, field):
    with pytest.raises(BadInput) as e:
        read_scenario(doc)
    assert e.value.field == field, str(e.value)


@pytest.mark.parametrize(("text", "why"), [
    ("{", "not valid JSON"),
    ('{"map": ["..."], "units": [{"id": "a", "start": [NaN, 0.5]}]}', "finite"),
    ('{"map": ["..."], "units": [{"id": "a", "start": [Infinity, 0.5]}]}', "finite"),
    ("[" * 5000 + "]" * 5000, "deeper"),
    (" " * (MAX_SCENARIO_BYTES + 1), "over the limit"),
    (b"\xff\xfe", "UTF-8"),
])
def test_hostile_text_is_refused(text, why):
    with pytest.raises(BadInput, match=why):
        load_scenario(text)


def test_the_command_line_exits_2_with_the_message(tmp_path, capsys):
    code, out = _run_cli(tmp_path, capsys, _with(units__0__start=[6.5, 2.5, 0.0]))
    assert code == 2 and "units[0].start" in out.err and "wall" in out.err and out.out == ""
    code, out = _run_cli(tmp_path, capsys, _with(avoidance="orca"))
    assert code == 2 and "avoidance must be one of none, pinter, claimed, cooperative" in out.err
    code, out = _run_cli(tmp_path, capsys, "not json")
    assert code == 2 and "not valid JSON" in out.err
    assert main(["world", str(tmp_path / "missing.json")]) == 2


def test_a_heading_given_at_the_goal_is_faced_on_arrival():
    doc = _with(units__0__goal=[8.5, 4.5, math.pi / 2])
    out = run_scenario(read_scenario(doc), digits=None)
    last = out["units"][0]["samples"][-1]
    assert out["units"][0]["arrived"] is not None
    assert abs(math.remainder(last[3] - math.pi / 2, 2 * math.pi)) < 1e-9
    assert np.allclose(last[1:3], [8.5, 4.5])


def test_headings_in_the_output_stay_within_minus_pi_and_pi(tmp_path, capsys):
    """Facing west is pi, which rounds to 3.141593, above pi: the output keeps every heading in
    (-pi, pi] as DESIGN.md has them."""
    doc = {**EXAMPLE, "units": [{**EXAMPLE["units"][0], "start": [8.5, 1.5, math.pi], "goal": [1.5, 1.5]}]}
    code, out = _run_cli(tmp_path, capsys, doc, "--json")
    headings = [s[3] for s in json.loads(out.out)["units"][0]["samples"]]
    assert code == 0 and headings[0] == pytest.approx(math.pi, abs=1e-6)
    assert all(-math.pi < h <= math.pi for h in headings)


def test_orders_listed_after_a_timed_order_follow_it():
    """A timed order replaces what the unit does; the untimed orders listed after it queue
    behind it (they were dropped with the queue it replaced)."""
    doc = {**EXAMPLE, "units": [{**EXAMPLE["units"][0], "goal": None, "orders": [
        {"type": "move", "goal": [8.5, 0.5]},
        {"type": "move", "goal": [1.5, 4.5], "at": 1.5},
        {"type": "move", "goal": [4.5, 3.5]}]}]}
    doc["units"][0].pop("goal")
    w = read_scenario(doc).world
    w.run(120)
    (u,) = w.units
    xs = [s[1] for s in u.samples]
    assert max(xs) < 8.0  # the first move was replaced on its way
    assert any(abs(s[1] - 1.5) < 0.01 and abs(s[2] - 4.5) < 0.01 for s in u.samples)  # the timed goal
    assert (u.x, u.y) == pytest.approx((4.5, 3.5)) and w.arrival(u) is not None  # then the one after it


@pytest.mark.parametrize("method", ["backup", "recalculate", "ignore"])
def test_a_unit_whose_turning_method_finds_no_way_pivots_and_goes(method):
    """A tank facing the closed end of a one-tile corridor: Pinter's turning methods find no
    way out from there (no three-point turn clears the walls); the unit falls back on a plain
    search and pivots, rather than standing for good with 'no route'."""
    rows = ["#" * 20] + ["#........" + "#" * 11] * 4 + ["#................." + "##"] + \
        ["#........" + "#" * 11] * 4 + ["#" * 20]
    doc = {"map": rows, "seed": 7, "duration": 90, "method": method, "avoidance": "pinter",
           "units": [{"id": "a", "kind": "tank", "start": [16.5, 5.5, 0.0], "goal": [2.5, 2.5]}]}
    w = read_scenario(doc).world
    w.run(90)
    (u,) = w.units
    assert w.arrival(u) is not None, u.status


@pytest.mark.parametrize("avoidance", ["claimed", "pinter", "cooperative"])
def test_a_unit_with_no_legal_curve_pivots_even_when_others_stand_on_its_way_at_first(avoidance):
    """A tank planned with "ignore" (curves that do not look at walls) in a junction two tiles
    wide, whose goal a unit stands on at the start. Under ``claimed`` its first plan, on the map
    with the other unit's tile walled, found no way; the plan on the map alone gave a curve
    through a wall, and the fallback to pivoting was tried on the walled map again: the tank stood
    with "no route" for good (an outside search's scenario). Both arrive, within their limits."""
    rows = ["#" * 13] + ["######..#####"] * 5 + ["#...........#"] * 2 + ["######..#####"] * 4 + ["#" * 13]
    doc = {"map": rows, "seed": 130070, "duration": 150, "avoidance": avoidance, "units": [
        {"id": "u0", "kind": "tank", "start": [6.5, 1.5, -1.2277654650484036], "method": "ignore",
         "can_reverse": True, "goal": [6.5, 11.5]},
        {"id": "u1", "width": 0.7, "radius": 0.3, "speed": 1.0, "start": [6.5, 11.5, 0.93],
         "method": "directional8", "goal": [6.5, 1.5]}]}
    sc = read_scenario(doc)
    w = sc.world
    w.run(sc.duration)
    blocked = np.array([[c == "#" for c in r] for r in rows])
    for u in w.units:
        assert u.arrived is not None, (u.spec.id, u.status)
        check_trajectory(u.samples, w.dt, u.spec.speed, u.spec.accel_rate, u.spec.brake_rate, blocked,
                         u.spec.width, radius=u.spec.radius)



@pytest.mark.parametrize("method", ["directional48", "directional8", "hybrid", "recalculate", "tighter", "backup",
                                    "astar", "dijkstra"])
def test_a_move_to_the_nearest_target_drives_as_a_move_to_it_would(method):
    """Of several targets the unit goes to the nearest by the ground, and it goes there as its
    method plans a move to that target. An outside survey found every method but backup driven
    as "tighter" to the nearest target (a tank swinging its heading at 10.7 rad/s, arriving in
    3.85 s where a move there took 6.15 s planned with directional48)."""
    rows = [".............", ".............", ".###.........", ".#...........", "...#.........", ".#..##....#.."]
    unit = {"id": "u", "start": [12.5, 1.5, -0.657], "kind": "tank", "method": method}
    near = read_scenario({"map": rows, "duration": 30, "units": [{**unit, "targets": [[11.5, 5.5], [6.5, 0.5]]}]})
    move = read_scenario({"map": rows, "duration": 30, "units": [{**unit, "goal": [11.5, 5.5]}]})
    for sc in (near, move):
        sc.world.run(sc.duration)
    a, b = near.world.units[0], move.world.units[0]
    assert a.arrived is not None and math.hypot(a.x - 11.5, a.y - 5.5) < 0.02, a.status
    assert a.samples == b.samples


@pytest.mark.parametrize("unit", [{"patrol": [[6.5, 1.5]]}, {"orders": [{"type": "patrol", "points": [[6.5, 1.5]]}]}])
def test_a_patrol_of_one_point_goes_back_and_forth_from_where_the_unit_stands(unit):
    """As the lab's Patrol does with one point (an outside survey found the unit parked on the
    point for good, its status patrolling)."""
    sc = read_scenario({"map": ["........"] * 3, "duration": 30, "units": [{"id": "p", "start": [0.5, 1.5], **unit}]})
    sc.world.run(sc.duration)
    xs = [s[1] for s in sc.world.units[0].samples]
    ends, side = [], None  # the ends it reaches in turn
    for x in xs:
        at = "point" if abs(x - 6.5) < 0.02 else "home" if abs(x - 0.5) < 0.02 else None
        if at is not None and at != side:
            ends.append(at)
            side = at
    assert ends[:4] == ["home", "point", "home", "point"], ends
    assert sc.world.units[0].status == "patrolling"


def test_an_order_queued_after_a_patrol_is_refused_naming_it_and_a_timed_one_is_taken():
    rows = ["........"] * 3
    unit = {"id": "p", "start": [0.5, 1.5], "patrol": [[6.5, 1.5], [6.5, 0.5]]}
    with pytest.raises(BadInput) as err:
        read_scenario({"map": rows, "units": [{**unit, "orders": [{"type": "move", "goal": [2.5, 2.5]}]}]})
    assert err.value.field == "units[0].orders[0]" and "after a patrol" in str(err.value)
    timed = [{"type": "patrol", "points": [[3.5, 0.5]], "at": 2.0}, {"type": "stop"}]
    with pytest.raises(BadInput) as err:  # behind a timed patrol, too
        read_scenario({"map": rows, "units": [{"id": "p", "start": [0.5, 1.5], "orders": timed}]})
    assert err.value.field == "units[0].orders[1]"
    sc = read_scenario({"map": rows, "duration": 20, "units": [
        {**unit, "orders": [{"type": "move", "goal": [2.5, 2.5], "at": 5.0}]}]})
    sc.world.run(sc.duration)
    u = sc.world.units[0]
    assert u.status == "arrived" and math.hypot(u.x - 2.5, u.y - 2.5) < 0.02


@pytest.mark.no_pyodide  # (the README is not mounted there)
def test_the_readmes_smallest_scenario_prints_what_the_readme_shows(tmp_path, capsys):
    """The README's example output is what its example scenario prints (an outside audit found
    it showed the run of an older default acceleration)."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    after = readme.split("The smallest scenario:", 1)[1]
    scenario = after.split("```json", 1)[1].split("```", 1)[0]
    shown = after.split("The output:", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    expected = json.loads(shown.replace(", ...]", "]"))
    code, printed = _run_cli(tmp_path, capsys, json.loads(scenario), "--json")
    assert code == 0
    out = json.loads(printed.out)
    assert {k: out[k] for k in ("dt", "seed", "avoidance", "time")} == \
        {k: expected[k] for k in ("dt", "seed", "avoidance", "time")}
    (unit,), (want,) = out["units"], expected["units"]
    assert (unit["id"], unit["arrived"], unit["status"]) == (want["id"], want["arrived"], want["status"])
    assert unit["samples"][:len(want["samples"])] == want["samples"]


def test_a_target_with_no_room_for_the_unit_is_passed_over_for_one_with_room():
    """A move to the nearest of several targets goes to the nearest whose tile has room for the
    unit's body, rather than failing because one target's tile does not (its point fits, off
    the tile's centre, by the map's edge): found by an outside audit. With room on none, it
    says why."""
    rows = ["." * 12] * 8
    unit = {"id": "a", "start": [1.5, 3.5, 0.0], "width": 1.2}
    sc = read_scenario({"map": rows, "duration": 30, "units": [{**unit, "targets": [[4.0, 0.9], [9.5, 4.5]]}]})
    sc.world.run(sc.duration)
    u = sc.world.units[0]
    assert u.status == "arrived" and math.hypot(u.x - 9.5, u.y - 4.5) < 0.02, u.status
    sc = read_scenario({"map": rows, "duration": 30, "units": [{**unit, "targets": [[4.0, 0.9], [11.0, 3.5]]}]})
    sc.world.run(sc.duration)
    u = sc.world.units[0]
    assert u.status.startswith("no route") and "too close to a wall" in u.status, u.status
