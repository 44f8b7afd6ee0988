"""PlanJob in slices: the search, then the turning stage, each bounded; cancel in any stage;
one budget for the search and the turning stage's re-searches. And the options in parts: the
registry, what options guarantee, cost profiles applied per query."""

from __future__ import annotations

import math

import numpy as np
import pytest

import arcstar
from arcstar.outcomes import BadInput, Status
from arcstar.planner import METHODS, PlanJob, PlanOptions, Stage, guarantee
from test_turning import DOOR, ascii_map

RECALC = {"turning": "recalculate", "width": 1.0, "radius": 2.0}


def _stepped(job: PlanJob, budget: int) -> list[Stage]:
    stages = []
    while job.step(budget) == Status.RUNNING:
        stages.append(job.stage)
    return stages


def test_the_turning_stage_runs_in_slices_and_gives_the_one_go_answer():
    f = ascii_map(DOOR)
    whole = arcstar.plan(f.map, f.start, f.goal, **RECALC)
    assert whole.searches > 1  # the door makes it re-search: the stage has real work
    job = PlanJob(f.map, f.start, f.goal, PlanOptions.from_dict(RECALC))
    stages = _stepped(job, 16)
    assert stages.count(Stage.TURNING) >= 3  # several slices inside the turning stage
    sliced = job.result()
    assert (sliced.status, sliced.legal, sliced.searches, sliced.expanded, sliced.path) == \
        (whole.status, whole.legal, whole.searches, whole.expanded, whole.path)
    assert sliced.segments.to_json() == whole.segments.to_json()
    assert sliced.stage == "turning" and sliced.expanded > PlanJob(f.map, f.start, f.goal).search.expanded


def test_cancel_works_in_the_turning_stage():
    f = ascii_map(DOOR)
    job = PlanJob(f.map, f.start, f.goal, PlanOptions.from_dict(RECALC))
    while job.stage is Stage.SEARCH:
        job.step(16)
    assert job.stage is Stage.TURNING
    job.step(16)
    job.cancel()
    r = job.result()
    assert job.done and r.status == Status.CANCELLED and r.stage == "turning"
    assert job.step(16) == Status.CANCELLED  # stepping a finished job changes nothing


def test_the_budget_counts_the_turning_stages_re_searches():
    f = ascii_map(DOOR)
    whole = arcstar.plan(f.map, f.start, f.goal, **RECALC)
    first = PlanJob(f.map, f.start, f.goal, PlanOptions.from_dict(RECALC))
    _stepped(first, 1 << 20)
    search_only = first.search.expanded
    assert whole.expanded > search_only
    r = arcstar.plan(f.map, f.start, f.goal, max_expansions=search_only + 5, **RECALC)
    assert r.status == Status.BUDGET_EXHAUSTED and r.stage == "turning"
    assert r.expanded <= search_only + 5 and r.path  # the tile path stays: a partial result
    assert arcstar.plan(f.map, f.start, f.goal, max_expansions=whole.expanded, **RECALC).status == Status.FOUND


def test_statuses_are_typed_and_compare_as_the_protocol_strings():
    f = ascii_map(DOOR)
    r = arcstar.plan(f.map, f.start, f.goal)
    assert r.status is Status.FOUND and r.status == "found" and r.to_json()["status"] == "found"
    walled = f.map.copy()
    walled.terrain[:, 5] = 1
    walled.touch()
    u = arcstar.plan(walled, f.start, f.goal)
    assert u.status is Status.UNREACHABLE and u.expanded == 0


@pytest.mark.parametrize("raw, field", [
    ({"weight": -1}, "weight"), ({"weight": math.nan}, "weight"), ({"neighbours": 6}, "neighbours"),
    ({"bogus": 1}, "options.bogus"), ({"method": "fastest"}, "method"), ({"width": 0}, "width"),
    ({"radius": math.inf, "turning": "tighter"}, "radius"), ({"turning": "spin"}, "turning"),
    ({"art": 8}, "art"), ({"method": "jps", "width": 1.0}, "width"),
    ({"method": "hpa", "turning": "smooth"}, "turning"),
    ({"method": "jps", "open_list": "unsorted"}, "open_list"), ({"max_expansions": 0}, "max_expansions"),
    ({"terrain_costs": [[3, -2]]}, "terrain_costs[0]"), ({"terrain_costs": "cheap"}, "terrain_costs"),
    ({"turn_penalty": "x"}, "turn_penalty"), ({"cluster_size": 1}, "cluster_size"), ({"trace": "yes"}, "trace"),
])
def test_bad_options_name_their_field(raw, field):
    with pytest.raises(BadInput) as e:
        PlanOptions.from_dict(raw)
    assert e.value.field == field


def test_options_round_trip_through_the_flat_form():
    raw = {"method": "dijkstra", "neighbours": 4, "width": 1.5, "turning": "tighter", "radius": 2.0,
           "terrain_costs": [[3, 1.5]], "max_expansions": 100}
    o = PlanOptions.from_dict(raw)
    assert o.unit.width == 1.5 and o.search.neighbours == 4 and o.turning.method == "tighter"
    assert PlanOptions.from_dict(o.to_dict()) == o


def test_the_registry_is_what_the_planner_enforces():
    for name, spec in METHODS.items():
        limits = spec.to_json()
        assert limits["width"] == (not spec.point_only)
        for open_list in ("heap", "unsorted"):
            allowed = open_list in limits["open_lists"]
            try:
                PlanOptions.from_dict({"method": name, "open_list": open_list})
                assert allowed
            except BadInput as e:
                assert not allowed and e.field == "open_list"


def test_guarantees_follow_the_options():
    assert guarantee(PlanOptions.from_dict({"method": "dijkstra"})).optimal
    assert not guarantee(PlanOptions.from_dict({"heuristic": "manhattan"})).optimal  # Lester's, with diagonals
    assert guarantee(PlanOptions.from_dict({"heuristic": "manhattan", "neighbours": 4})).optimal
    assert guarantee(PlanOptions.from_dict({"heuristic": "octile"})).optimal
    assert not guarantee(PlanOptions.from_dict({"heuristic": "octile", "weight": 2})).optimal
    assert not guarantee(PlanOptions.from_dict({"method": "hpa"})).optimal
    g = guarantee(PlanOptions.from_dict({"turning": "tighter"}))
    assert g.legal is False and "legal" in g.text
    # what the guarantee says is what the plan reports
    f = ascii_map(DOOR)
    for raw in ({"heuristic": "octile"}, {"heuristic": "octile", "stop": "reached"}, {"method": "dijkstra"}):
        assert arcstar.plan(f.map, f.start, f.goal, **raw).optimal == guarantee(PlanOptions.from_dict(raw)).optimal


def test_a_cost_profile_applies_per_query_and_leaves_the_map_alone():
    f = ascii_map("""
        ..........
        .S.::::.G.
        ..........
        """)
    m = f.map
    version, costs = m.version, dict(m.terrains)
    plain = arcstar.plan(m, f.start, f.goal)
    assert all(m.terrain[y, x] != 3 for x, y in plain.path)  # sand costs 2: the plain plan goes round
    cheap = arcstar.plan(m, f.start, f.goal, terrain_costs=[[3, 0.5]])
    assert any(m.terrain[y, x] == 3 for x, y in cheap.path) and cheap.cost < plain.cost
    with pytest.raises(BadInput) as e:  # ground impassable for this query: the start is blocked for it
        arcstar.plan(m, f.start, f.goal, terrain_costs=[[0, None]])
    assert e.value.field == "start"
    walled = arcstar.plan(m, f.start, f.goal, terrain_costs=[[3, None]])  # sand impassable: go round
    assert walled.status == Status.FOUND and walled.cost == plain.cost
    assert m.version == version and dict(m.terrains) == costs
    assert arcstar.plan(m, f.start, f.goal).cost == plain.cost


def test_an_influence_overlay_steers_one_query():
    f = ascii_map("""
        .........
        .S.....G.
        .........
        """)
    m = f.map
    influence = np.zeros((m.height, m.width))
    influence[1, 2:7] = 100.0
    profile = arcstar.CostProfile(influence=influence)
    job = PlanJob(m, f.start, f.goal, PlanOptions(costs=profile))
    while job.step(64) == Status.RUNNING:
        pass
    r = job.result()
    assert all(y != 1 for x, y in r.path[1:-1]) and m.influence is None
    with pytest.raises(BadInput) as e:
        PlanJob(m, f.start, f.goal, PlanOptions(costs=arcstar.CostProfile(influence=np.zeros((2, 2)))))
    assert e.value.field == "influence"
