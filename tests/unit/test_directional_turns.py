"""Speed and people (Pinter, "Speed and Other Movement Restrictions"): the turn penalty of
Directional-24/48 and the people option; goal heading sets through plan() and the CLI."""

from __future__ import annotations

import json
import math

import pytest

import arcstar
from arcstar.cli import main as cli_main
from arcstar.collision.swept import path_clear
from arcstar.directional.graph import DirectionalGraph
from arcstar.directional.lattice import Neighbourhood, UnitKind, heading_set
from arcstar.directional.search import DirectionalSearch
from arcstar.geometry.primitives import Arc, Pose
from arcstar.maps.tilemap import TileMap
from arcstar.outcomes import BadInput
from arcstar.planner.options import PEOPLE_RADIUS, PEOPLE_TURN_PENALTY, PlanOptions
from test_directional import _reference

#: Pinter's Figure 22, rebuilt from its text: the shortest way weaves between staggered blockers
#: (many turns), a longer way round the top is two long straights (few turns).
FIGURE_22 = """\
........................
........................
........................
...#...#...#...#...#....
.S...#...#...#...#...#G.
...#...#...#...#...#....
........................
"""

def turned(path) -> float:
    return sum(abs(s.sweep) for s in path.segments if isinstance(s, Arc))


def search(m: TileMap, kind: UnitKind, start: Pose, goal, headings, penalty: float):
    g = DirectionalGraph(m, kind, start, goal, headings, turn_penalty=penalty)
    s = DirectionalSearch(g)
    s.run()
    return g, s


@pytest.mark.parametrize("art,goal,headings", [
    ("........\n...#....\n...#..#.\n........\n.#......\n", (6, 3), set(range(8))),
    ("........\n..::....\n..::.#..\n.....#..\n........\n", (7, 1), {2}),
])
def test_penalised_cost_is_the_exhaustive_reference(art, goal, headings):
    m = arcstar.parse_ascii(art).map
    kind = UnitKind(0.8, 1.0, Neighbourhood.D24)
    start = Pose(0.5, 0.5, 0.0)
    ref, _ = _reference(m, kind, start, goal, headings, turn_penalty=0.6)
    g, s = search(m, kind, start, goal, headings, 0.6)
    assert ref is not None and math.isclose(s.cost, ref, rel_tol=1e-9)


def test_figure_22_a_turn_penalty_takes_the_way_with_fewer_turns():
    loaded = arcstar.parse_ascii(FIGURE_22)
    m, (sx, sy), goal = loaded.map, loaded.start, loaded.goal
    kind = UnitKind(0.6, 0.5, Neighbourhood.D24)
    start = Pose(sx + 0.5, sy + 0.5, 0.0)
    g0, plain = search(m, kind, start, goal, range(8), 0.0)
    g1, slow = search(m, kind, start, goal, range(8), 2.0)
    p0, p1 = g0.path_of(plain.path_nodes), g1.path_of(slow.path_nodes)
    assert path_clear(m, p0, 0.6) and path_clear(m, p1, 0.6)
    assert p0.length < p1.length  # the weave is the shortest way...
    assert turned(p1) < 0.7 * turned(p0)  # ...the penalised search turns far less
    # the cost is the length plus the penalty per radian turned (ground costs 1 per tile)
    assert math.isclose(slow.cost, p1.length + 2.0 * turned(p1), rel_tol=1e-9)


def test_plan_takes_the_turn_penalty_on_24_and_48_and_refuses_it_on_8():
    loaded = arcstar.parse_ascii(FIGURE_22)
    for method in ("directional24", "directional48"):
        r = arcstar.plan(loaded.map, (*loaded.start, 0.0), loaded.goal, method=method, width=0.8, turn_penalty=2.0)
        assert r.status == "found" and r.legal
    with pytest.raises(BadInput) as err:
        arcstar.plan(loaded.map, loaded.start, loaded.goal, method="directional8", turn_penalty=1.0)
    assert err.value.field == "turn_penalty"


def test_people_is_a_tight_radius_with_a_turn_penalty():
    o = PlanOptions.from_dict({"method": "directional24", "people": True})
    assert o.unit.radius == PEOPLE_RADIUS and o.search.turn_penalty == PEOPLE_TURN_PENALTY
    o = PlanOptions.from_dict({"method": "directional48", "people": True, "radius": 0.3, "turn_penalty": 2.0})
    assert o.unit.radius == 0.3 and o.search.turn_penalty == 2.0  # given values win
    assert PlanOptions.from_dict(o.to_dict()) == o
    loaded = arcstar.parse_ascii(FIGURE_22)
    r = arcstar.plan(loaded.map, (*loaded.start, 0.0), loaded.goal, method="directional24", width=0.6, people=True)
    assert r.status == "found" and r.legal
    for options, field in (({"method": "astar", "people": True}, "people"),
                           ({"method": "directional8", "people": True}, "people"),
                           ({"method": "directional24", "people": "yes"}, "people")):
        with pytest.raises(BadInput) as err:
            PlanOptions.from_dict(options)
        assert err.value.field == field


def test_goal_heading_sets_through_plan():
    m = TileMap.empty(14, 8)
    opts = {"method": "directional24", "width": 0.8, "radius": 1.0}
    r = arcstar.plan(m, (2, 3, 0.0), (10, 3, [math.pi / 2, -math.pi / 2]), **opts)
    assert r.status == "found" and r.legal
    end = r.segments.end_pose().heading
    assert min(abs(math.remainder(end - h, 2 * math.pi)) for h in (math.pi / 2, -math.pi / 2)) < 1e-9
    one = arcstar.plan(m, (2, 3, 0.0), (10, 3, math.pi / 2), **opts)
    both = arcstar.plan(m, (2, 3, 0.0), (10, 3, [math.pi / 2, -math.pi / 2, math.pi / 2]), **opts)
    assert both.cost <= one.cost + 1e-9  # more headings accepted: never dearer
    assert heading_set([0.1, 6.2, math.pi], "goal") == {0, 4}
    for goal in ((10, 3, []), (10, 3, [0.0, math.nan]), (10, 3, ["east"])):
        with pytest.raises(BadInput) as err:
            arcstar.plan(m, (2, 3), goal, **opts)
        assert err.value.field == "goal"
    with pytest.raises(BadInput) as err:  # a heading set is for the directional methods
        arcstar.plan(m, (2, 3), (10, 3, [0.0, 1.0]), method="astar")
    assert err.value.field == "goal"


def test_cli_takes_heading_sets_turn_penalty_and_people(tmp_path, capsys):
    f = tmp_path / "m.txt"
    f.write_text(FIGURE_22)
    code = cli_main(["plan", str(f), "--method", "directional24", "--width", "0.8", "--to", "22,4,0/1.5708",
                     "--turn-penalty", "1.5", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["status"] == "found" and out["legal"] is True
    assert cli_main(["plan", str(f), "--method", "directional48", "--width", "0.6", "--people", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "found"
    assert cli_main(["plan", str(f), "--method", "directional24", "--to", "22,4,0/x"]) == 2
