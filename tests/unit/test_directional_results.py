"""What directional plans say beyond their path: the hybrid's steps (``PlanResult.stages``, for the
lab to draw; checked against what the article says of Figures 21a and 21b), and that an island
no motion of the unit's body reaches fails fast, wide units included."""

from __future__ import annotations

import json

import arcstar
from arcstar.directional.figures import FIGURES


def _plan(name: str) -> arcstar.PlanResult:
    fig = FIGURES[name]
    f = fig.loaded
    assert f.start is not None and f.goal is not None
    return arcstar.plan(f.map, (*f.start, fig.start_heading), f.goal, method="hybrid", width=1.0, radius=fig.radius)


def test_figure_21b_needs_no_patch_and_its_forward_pass_reaches_the_goal():
    r = _plan("figure21b")
    assert r.status == "found" and r.method == "hybrid" and r.stages is not None
    st = r.stages
    goal = FIGURES["figure21b"].loaded.goal
    assert st["astar"][0] == list(FIGURES["figure21b"].loaded.start) and st["astar"][-1] == list(goal)
    assert st["forward"]["failed_at"] is None and st["forward"]["stops"][-1][:2] == list(goal)
    assert st["patch"] is None and st["failed"] is None
    json.dumps(r.to_json())  # JSON-safe


def test_figure_21a_patches_between_the_two_failure_points():
    st = _plan("figure21a").stages
    assert st is not None
    fwd, bwd = st["forward"], st["backward"]
    assert fwd["failed_at"] is not None and bwd is not None and bwd["failed_at"] is not None
    assert st["patch"] is not None
    # the patch joins the two chains (Pinter's step 4: from the forward chain to the backward one)
    assert st["patch"]["from"] in fwd["stops"] and st["patch"]["to"] in bwd["stops"]


def test_other_methods_carry_no_stages():
    f = FIGURES["figure21b"].loaded
    assert arcstar.plan(f.map, f.start, f.goal).stages is None
    assert "stages" not in arcstar.plan(f.map, f.start, f.goal).to_json()


def test_a_wide_units_unreachable_goal_fails_fast_in_directional_search_too():
    # a gap one tile wide: a 2-tile unit can never pass, so no search runs (0 expansions)
    import numpy as np
    blocked = np.zeros((9, 12), dtype=bool)
    blocked[:, 6] = True
    blocked[4, 6] = False
    m = arcstar.TileMap.from_blocked(blocked)
    for method in ("directional8", "directional24", "directional48", "hybrid"):
        r = arcstar.plan(m, (2, 4), (9, 4), method=method, width=2.0, radius=1.0)
        assert r.status == "unreachable" and r.expanded == 0, method
        thin = arcstar.plan(m, (2, 4), (9, 4), method=method, width=0.8, radius=0.5)
        assert thin.status != "unreachable", method


def test_directional_settings_promise_legal_paths_and_say_so():
    from arcstar.planner import PlanOptions, guarantee
    for method in ("directional8", "directional24", "directional48"):
        said = guarantee(PlanOptions.from_dict({"method": method, "radius": 1.5}))
        assert said.legal is True and said.optimal is True and "octile" not in said.text
        assert guarantee(PlanOptions.from_dict({"method": method, "radius": 1.5, "weight": 2})).optimal is False
    hybrid = guarantee(PlanOptions.from_dict({"method": "hybrid", "radius": 1.5}))
    assert hybrid.legal is True and hybrid.optimal is False


def test_a_result_claims_least_cost_only_where_the_heuristic_is_consistent():
    import numpy as np

    from arcstar.directional.heuristic import TABLE_REACH
    small = arcstar.TileMap.from_blocked(np.zeros((20, 30), dtype=bool))
    r = arcstar.plan(small, (2, 2), (25, 15), method="directional24", radius=1.5)
    assert r.status == "found" and r.optimal and r.legal
    wide = arcstar.TileMap.from_blocked(np.zeros((12, 2 * TABLE_REACH + 20), dtype=bool))
    far = arcstar.plan(wide, (2, 5), (2 * TABLE_REACH + 15, 5), method="directional24", radius=1.5)
    assert far.status == "found" and far.legal and not far.optimal  # the table does not reach the start
    dijkstra_like = arcstar.plan(wide, (2, 5), (2 * TABLE_REACH + 15, 5), method="directional24", radius=1.5,
                                 heuristic="none")
    assert dijkstra_like.optimal and dijkstra_like.cost is not None and far.cost is not None
    assert far.cost >= dijkstra_like.cost - 1e-9
