"""The hybrid search (Pinter's "Performance and Hybrid Solutions") and its fallbacks ("Path
Failure and Timeslicing"): his Figures 8, 20 and 21a/21b rebuilt from their captions and text
(``arcstar.directional.figures``),
the 12-tile rule, the region table per width, slicing, cancelling in every step, bad input, and
random maps. Every returned path is checked with the exact swept-disc test."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arcstar
from arcstar.cli import main
from arcstar.collision.clearance import regions_for
from arcstar.collision.swept import path_clear
from arcstar.directional.figures import FIGURE_8, FIGURE_20, FIGURE_21A, FIGURE_21B, TWO_BENDS
from arcstar.directional.hybrid import SPAN, HybridSearch, Stage
from arcstar.directional.lattice import Neighbourhood, UnitKind
from arcstar.geometry.primitives import Arc
from arcstar.maps.tilemap import TileMap
from arcstar.outcomes import BadInput, Status
from arcstar.planner.job import PlanJob, run
from arcstar.planner.options import PlanOptions
from arcstar.turning.methods import realize

NORTH = -math.pi / 2

def _job(text: str, radius: float = 1.0, heading: float = NORTH, **kw: object) -> PlanJob:
    f = arcstar.parse_ascii(text)
    return PlanJob(f.map, (*f.start, heading), f.goal,
                   PlanOptions.from_dict({"method": "hybrid", "width": 1.0, "radius": radius, **kw}))


def _done(job: PlanJob, budget: int = 64) -> arcstar.PlanResult:
    while job.step(budget) == Status.RUNNING:
        pass
    r = job.result()
    if r.segments is not None:
        assert r.legal == path_clear(job.site.tilemap, r.segments, 1.0)
    return r


def _sweep(r: arcstar.PlanResult) -> float:
    assert r.segments is not None
    return sum(s.sweep for s in r.segments.segments if isinstance(s, Arc))


def test_figure_8_the_hybrid_finds_the_right_hand_loop():
    """A* and simple smoothing give an illegal left turn; the hybrid's Directional-8 patch finds
    the legal way: a right-hand loop (a net turn of +270 degrees, not -90)."""
    f = arcstar.parse_ascii(FIGURE_8)
    astar = arcstar.plan(f.map, f.start, f.goal, neighbours=4, width=1.0)
    assert not realize(f.map, astar.path, NORTH, None, 1.0, 1.0, "ignore").legal
    job = _job(FIGURE_8)
    r = _done(job)
    assert r.status == "found" and r.method == "hybrid" and r.legal
    assert job.search.hybrid.patch_ends is not None  # step 5 ran
    assert abs(_sweep(r) - 1.5 * math.pi) < 1e-6


def test_figure_20_two_passes_fail_and_directional8_finds_the_circuitous_route():
    job = _job(FIGURE_20, heading=0.0)
    r = _done(job)
    h = job.search.hybrid
    assert r.status == "found" and r.method == "hybrid" and r.legal
    fw, bw = h.forward, h.backward
    assert fw.status == bw.status == Status.NO_PATH  # steps 2 and 3 fail, at a and at b
    a, b = fw.failure, bw.failure
    assert a.tile[1] >= 9 and b.tile[1] <= 9 and a.index <= b.index  # both in the bend
    pa, pb = h.patch_ends  # step 4: stepped back along the chains, at most 12 tiles apart
    assert pa in fw.stops and pb in bw.stops and pa.index <= a.index and pb.index >= b.index
    assert max(abs(pa.tile[0] - pb.tile[0]), abs(pa.tile[1] - pb.tile[1])) <= SPAN
    assert max(x for x, _y in r.path) >= 32  # round the end of the wall
    assert r.length > len(h.astar_path) + 10  # circuitous: far longer than the misleading A* path


def test_figure_21_one_blocking_tile_makes_it_fast():
    """21a needs the Directional-8 patch; 21b (one tile more) does not: the 4-neighbour A* is
    no longer misled, Smoothing48 succeeds at once, far fewer nodes are expanded."""
    assert sum(a != b for a, b in zip(FIGURE_21A, FIGURE_21B)) == 1
    ja, jb = _job(FIGURE_21A), _job(FIGURE_21B)
    ra, rb = _done(ja), _done(jb)
    assert ra.status == rb.status == "found" and ra.method == rb.method == "hybrid" and ra.legal and rb.legal
    ha, hb = ja.search.hybrid, jb.search.hybrid
    assert ha.forward.status == Status.NO_PATH and ha.patch_ends is not None
    assert hb.forward.status == Status.FOUND and hb.backward is None and hb.patch_ends is None
    assert 2 * rb.expanded < ra.expanded


def test_failure_points_more_than_12_apart_fall_back_to_directional24():
    job = _job(TWO_BENDS, heading=0.0)
    r = _done(job)
    h = job.search.hybrid
    assert h.failed is Stage.SPAN
    a, b = h.forward.failure, h.backward.failure
    assert max(abs(a.tile[0] - b.tile[0]), abs(a.tile[1] - b.tile[1])) > SPAN
    assert r.method == "directional24" and r.status == "found" and r.legal
    assert "directional24" in r.message and r.expanded > h.expanded


def test_a_wide_units_unreachable_goal_fails_fast():
    """The region table is per width: a unit 2 tiles wide cannot pass a gap 1 tile wide, so the
    plan says unreachable without searching; a unit 1 tile wide gets through."""
    text = "##########\n#........#\n#..S.....#\n#........#\n#........#\n#####.####\n#........#\n" \
           "#........#\n#......G.#\n#........#\n##########\n"
    f = arcstar.parse_ascii(text)
    wide = arcstar.plan(f.map, f.start, f.goal, method="hybrid", width=2.0, radius=1.0)
    assert wide.status == "unreachable" and wide.expanded == 0 and wide.method == "hybrid"
    thin = arcstar.plan(f.map, f.start, f.goal, method="hybrid", width=1.0, radius=0.6)
    assert thin.status == "found" and thin.legal


def test_regions_for_never_splits_what_a_search_joins():
    """Wherever Directional-24 finds a path for a width, every tile its centre crosses carries the
    start's label of ``regions_for`` (the table may only err toward 'same region')."""
    rng = np.random.default_rng(3)
    checked = 0
    for _trial in range(60):
        b = rng.random((14, 14)) < 0.22
        b[0, :] = b[-1, :] = b[:, 0] = b[:, -1] = True
        b[2, 2] = b[11, 11] = False
        w = float(rng.choice([0.6, 1.0, 1.4]))
        m = TileMap.from_blocked(b)
        try:
            r = arcstar.plan(m, (2, 2), (11, 11), method="directional24", width=w, radius=0.8)
        except BadInput:
            continue
        labels = regions_for(m, w)
        if r.status != "found":
            continue
        checked += 1
        d = 0.0
        home = labels[2, 2]
        assert home >= 0
        while d <= r.segments.length:
            p = r.segments.pose_at(d)
            assert labels[math.floor(p.y), math.floor(p.x)] == home
            d += 0.05
    assert checked >= 5


def test_slices_and_one_go_agree_and_cli_takes_hybrid(tmp_path, capsys):
    one = _done(_job(FIGURE_21A), budget=1 << 20)
    small = _done(_job(FIGURE_21A), budget=1)
    assert one.path == small.path and one.expanded == small.expanded and one.cost == small.cost
    f = tmp_path / "m.txt"
    f.write_text(FIGURE_21A)
    assert main(["plan", str(f), "--method", "hybrid", "--radius", "1", "--width", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["method"] == "hybrid" and doc["legal"] is True and doc["segments"]


@pytest.mark.parametrize("stage", [Stage.ASTAR, Stage.FORWARD, Stage.BACKWARD, Stage.PATCH, Stage.SMOOTH])
def test_cancel_in_every_step(stage):
    f = arcstar.parse_ascii(FIGURE_20)
    h = HybridSearch(f.map, f.start, 0.0, f.goal, None, UnitKind(1.0, 1.0, Neighbourhood.D8))
    while h.stage is not stage:
        assert h.step(1) == Status.RUNNING
    h.cancel()
    assert h.status == Status.CANCELLED and h.step(10) == Status.CANCELLED and h.segments is None


def test_cancel_a_plan_in_the_fallback():
    job = _job(TWO_BENDS, heading=0.0)
    while job.search.method != "directional24":
        assert job.step(16) == Status.RUNNING
    job.step(4)
    job.cancel()
    assert job.result().status == "cancelled"


def test_budget_counts_every_step():
    r = _done(_job(FIGURE_20, heading=0.0, max_expansions=150))
    assert r.status == "budget_exhausted" and r.expanded <= 151


@pytest.mark.parametrize("kw, start, goal, field", [
    ({"turning": "smooth"}, (1, 1), (8, 1), "turning"),
    ({"radius": -1.0}, (1, 1), (8, 1), "radius"),
    ({"width": 0.0}, (1, 1), (8, 1), "width"),
    ({}, (0, 0), (8, 1), "start"),
    ({}, (1, 1), (99, 1), "goal"),
    ({"width": 2.5}, (1, 1), (8, 1), "start"),
])
def test_bad_input_names_the_field(kw, start, goal, field):
    m = arcstar.parse_ascii("##########\n#........#\n#........#\n##########\n").map
    with pytest.raises(BadInput) as e:
        arcstar.plan(m, start, goal, method="hybrid", **kw)
    assert e.value.field == field


def test_targets_and_budget_are_refused():
    m = arcstar.parse_ascii("##########\n#........#\n#........#\n##########\n").map
    with pytest.raises(BadInput) as e:
        arcstar.nearest(m, (1, 1), [(8, 1)], method="hybrid")
    assert e.value.field == "method"
    job = PlanJob(m, (1, 1), (8, 1), PlanOptions.from_dict({"method": "hybrid"}))
    with pytest.raises(BadInput) as e:
        job.step(0)
    assert e.value.field == "budget"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walls=st.lists(st.tuples(st.integers(1, 14), st.integers(1, 10)), max_size=45),
       heading=st.integers(0, 7), radius=st.sampled_from([0.6, 1.0, 1.5]), width=st.sampled_from([1.0, 1.5]),
       reverse=st.booleans())
def test_random_maps_a_hybrid_path_is_legal(walls, heading, radius, width, reverse):
    b = np.zeros((12, 16), dtype=bool)
    b[0, :] = b[-1, :] = b[:, 0] = b[:, -1] = True
    for x, y in walls:
        b[y, x] = True
    b[1:4, 1:4] = b[8:11, 12:15] = False  # room for the wider unit at the start and the goal
    m = TileMap.from_blocked(b)
    r = run(PlanJob(m, (2, 2, heading * math.pi / 4), (13, 9),
                    PlanOptions.from_dict({"method": "hybrid", "width": width, "radius": radius,
                                           "can_reverse": reverse, "max_expansions": 20_000})))
    assert r.method in ("hybrid", "directional24")
    if r.status == "found":
        assert r.legal and path_clear(m, r.segments, width)
        p0 = r.segments.start_pose()
        assert (p0.x, p0.y) == (2.5, 2.5)
        assert abs(math.remainder(p0.heading - heading * math.pi / 4, 2 * math.pi)) < 1e-9
        end = r.segments.end_pose()
        assert abs(end.x - 13.5) < 1e-6 and abs(end.y - 9.5) < 1e-6
    else:
        assert r.status in ("no_path", "unreachable", "budget_exhausted")
