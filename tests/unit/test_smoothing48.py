"""Smoothing48 (Pinter's "A Better Smoothing Pass"): the situations of his Figures 17-19 rebuilt
from their captions, the six-points-back rule, the backward pass, slicing and bad input. Every
chain a pass returns is checked with the exact swept-disc test, independently of the table."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arcstar
from arcstar.collision.swept import path_clear
from arcstar.directional.smoothing48 import Smoothing48
from arcstar.geometry.primitives import Path
from arcstar.maps.tilemap import TileMap
from arcstar.outcomes import BadInput, Status
from arcstar.turning.methods import realize
from arcstar.turning.smoothing import smooth

NORTH = -math.pi / 2  # up the screen (y down)

# Figure 17: the path runs east along the top, then down at q, then east to the goal; a blocker
# near q (x) stops Listing 1 from skipping past r, so it goes S -> q -> r -> G.
FIGURE_17 = """\
################
#S.............#
#..............#
######....x....#
######.........#
#####..........#
#####..........#
#####.........G#
################
""".replace("x", "#")
FIGURE_17_PATH = [(x, 1) for x in range(1, 9)] + [(8, y) for y in range(2, 8)] + [(x, 7) for x in range(9, 15)]
FIGURE_17_Q = (8, 2)  # Listing 1's checkpoint at the corner

# Figure 18: the ship heads straight up column 6, then turns right at p = (6, 1) into a passage
# one tile high; open water on both sides of its column below (one tile of it to the right).
FIGURE_18 = """\
################
#..............#
#.......########
#.......########
#.......########
#.......########
#.......########
#.......########
#.......########
#.......########
#.......########
#.......########
#.......########
################
"""
FIGURE_18_PATH = [(6, y) for y in range(12, 1, -1)] + [(x, 1) for x in range(6, 14)]

# Figure 19: a corridor one tile wide leads straight up into a passage one tile high: no legal
# turn on the green path; the only legal way is the other route, round by the right.
FIGURE_19 = """\
#################
#...........G...#
#.##########....#
#.#.........#...#
#.#.........#...#
#...............#
#S..............#
#################
"""
FIGURE_19_PATH = [(1, y) for y in range(6, 0, -1)] + [(x, 1) for x in range(2, 13)]


def _run(tilemap: TileMap, tiles: list, radius: float, **kw: object) -> Smoothing48:
    s = Smoothing48(tilemap, tiles, 1.0, radius, **kw)  # type: ignore[arg-type]
    while s.step(7) == Status.RUNNING:
        pass
    return s


def _chain(s: Smoothing48) -> Path:
    stops = s.stops
    return Path(tuple(seg for a, b in zip(stops, stops[1:]) for seg in s.hop_path(a, b).segments))


def _map(text: str) -> TileMap:
    return arcstar.parse_ascii(text).map


def test_figure_17_changes_direction_before_q():
    """Listing 1 stops at q and goes q -> r -> goal; Smoothing48 turns before q and cuts the
    corner, and its curved path is still shorter than Listing 1's polyline."""
    m = _map(FIGURE_17)
    simple = smooth(m, FIGURE_17_PATH, 1.0)
    assert (FIGURE_17_Q[0] + 0.5, FIGURE_17_Q[1] + 0.5) in simple and len(simple) == 4  # S, q, r, G
    s = _run(m, FIGURE_17_PATH, 1.0, start_heading=0.0)
    assert s.status == Status.FOUND
    chain = _chain(s)
    assert path_clear(m, chain, 1.0)
    tiles = [st.tile for st in s.stops]
    assert FIGURE_17_Q not in tiles
    q_index = FIGURE_17_PATH.index(FIGURE_17_Q)
    before = [st for st in s.stops if st.index < q_index]
    after = [st for st in s.stops if st.index > q_index]
    assert before and after and after[0].tile[1] > before[-1].tile[1] + 1  # the hop over q cuts down
    assert chain.length < sum(math.dist(a, b) for a, b in zip(simple, simple[1:]))


def test_figure_18_finds_the_legal_approach_simple_smoothing_misses():
    """Listing 1 (then arcs, walls ignored) makes the turn at p illegally; Smoothing48 finds a
    legal path along the same tiles by approaching p from a diagonal."""
    m = _map(FIGURE_18)
    cheat = realize(m, FIGURE_18_PATH, NORTH, None, 1.0, 1.5, "ignore")
    assert not cheat.legal
    s = _run(m, FIGURE_18_PATH, 1.5, start_heading=NORTH)
    assert s.status == Status.FOUND and s.failure is None
    assert path_clear(m, _chain(s), 1.0)
    p_index = FIGURE_18_PATH.index((6, 1))
    assert any(st.heading % 2 == 1 for st in s.stops if st.index <= p_index)  # a diagonal heading


def test_figure_19_smoothing48_fails_where_directional48_succeeds():
    """No legal path stays on the green tiles: the pass fails (and says where); a full
    Directional-48 search finds the other route."""
    m = _map(FIGURE_19)
    s = _run(m, FIGURE_19_PATH, 1.0, start_heading=NORTH)
    assert s.status == Status.NO_PATH
    fail = s.failure
    assert fail is not None and fail.tile[0] == 1  # stuck in the corridor, before the turn
    assert s.stops[-1] == fail and path_clear(m, _chain(s), 1.0)
    r = arcstar.plan(m, (1, 6, NORTH), (12, 1), method="directional48", width=1.0, radius=1.0)
    assert r.status == "found" and r.legal
    assert any(x >= 13 for x, _y in r.path)  # the completely different route, round the right


def test_six_points_back_gives_up_sooner():
    """An open approach and an impossible last turn into a slot: without Pinter's rule the pass
    searches back through the whole path; with it, it stops a few points from the farthest."""
    b = np.zeros((9, 30), dtype=bool)
    b[0, :] = b[-1, :] = b[:, 0] = b[:, -1] = True
    b[1:4, 23:] = True  # a slot one tile wide going up at x = 26, off a corridor one tile high
    b[1:4, 26] = False
    b[5:8, 23:] = True
    m = TileMap.from_blocked(b)
    tiles = [(x, 4) for x in range(1, 27)] + [(26, y) for y in (3, 2, 1)]
    quick = _run(m, tiles, 1.5, start_heading=0.0)
    slow = _run(m, tiles, 1.5, start_heading=0.0, give_up=None)
    assert quick.status == slow.status == Status.NO_PATH
    assert 3 * quick.expanded < slow.expanded
    assert quick.failure is not None and quick.failure.index >= len(tiles) - 8
    assert path_clear(m, _chain(quick), 1.0)


def test_backward_pass_reads_in_travel_order_and_is_legal():
    m = _map(FIGURE_17)
    fwd = _run(m, FIGURE_17_PATH, 1.0, start_heading=0.0)
    back = _run(m, FIGURE_17_PATH, 1.0, start_heading=0.0, backward=True)
    assert fwd.status == back.status == Status.FOUND
    assert back.stops[0].tile == FIGURE_17_PATH[0] and back.stops[-1].tile == FIGURE_17_PATH[-1]
    chain = _chain(back)
    assert path_clear(m, chain, 1.0)
    assert abs(chain.start_pose().heading) < 1e-9  # arrives at the start facing its heading
    # a backward failure point lies after the forward one on Figure 19 (it starts at the goal)
    m19 = _map(FIGURE_19)
    b19 = _run(m19, FIGURE_19_PATH, 1.0, start_heading=NORTH, backward=True)
    assert b19.status == Status.NO_PATH and b19.failure is not None
    assert b19.stops[-1].tile == FIGURE_19_PATH[-1] and path_clear(m19, _chain(b19), 1.0)


def test_off_lattice_start_heading_and_slicing():
    m = _map(FIGURE_17)
    whole = Smoothing48(m, FIGURE_17_PATH, 1.0, 1.0, 0.3)
    whole.step(10_000)
    sliced = _run(m, FIGURE_17_PATH, 1.0, start_heading=0.3)
    assert whole.status == sliced.status == Status.FOUND
    assert [s for s in whole.stops] == [s for s in sliced.stops]
    chain = _chain(sliced)
    assert abs(chain.start_pose().heading - 0.3) < 1e-9 and path_clear(m, chain, 1.0)


def test_cancel_and_budget():
    m = _map(FIGURE_17)
    s = Smoothing48(m, FIGURE_17_PATH, 1.0, 1.0, 0.0)
    assert s.step(1) == Status.RUNNING
    s.cancel()
    assert s.status == Status.CANCELLED and s.step(5) == Status.CANCELLED
    capped = _run(m, FIGURE_17_PATH, 1.0, start_heading=0.0, max_expansions=2)
    assert capped.status == Status.BUDGET_EXHAUSTED and capped.expanded == 2


@pytest.mark.parametrize("tiles, kw, field", [
    ([], {}, "tiles"),
    ([(1, 1), (3, 1)], {}, "tiles"),
    ([(1, 1), (0, 0)], {}, "tiles"),
    ("abc", {}, "tiles"),
    ([(1, 1), (2, 1)], {"give_up": 0}, "give_up"),
    ([(1, 1), (2, 1)], {"goal_headings": [9]}, "goal_headings"),
])
def test_bad_input_names_the_field(tiles, kw, field):
    m = _map(FIGURE_17)
    with pytest.raises(BadInput) as e:
        Smoothing48(m, tiles, 1.0, 1.0, **kw)
    assert e.value.field == field
    with pytest.raises(BadInput) as e:
        Smoothing48(m, [(1, 1), (2, 1)], -1.0, 1.0)
    assert e.value.field == "width"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walls=st.lists(st.tuples(st.integers(1, 14), st.integers(1, 10)), max_size=40),
       radius=st.sampled_from([0.5, 1.0, 1.5]), backward=st.booleans(), neighbours=st.sampled_from([4, 8]))
def test_random_maps_every_chain_is_legal(walls, radius, backward, neighbours):
    """Found or failed, forward or backward, on 4- and 8-neighbour paths: the chain a pass
    returns visits the path's points in order and passes the exact swept-disc test."""
    b = np.zeros((12, 16), dtype=bool)
    b[0, :] = b[-1, :] = b[:, 0] = b[:, -1] = True
    for x, y in walls:
        b[y, x] = True
    b[2, 2] = b[9, 13] = False
    m = TileMap.from_blocked(b)
    r = arcstar.plan(m, (2, 2), (13, 9), neighbours=neighbours, width=1.0)
    if r.status != "found":
        return
    s = _run(m, r.path, radius, start_heading=0.0, backward=backward)
    assert s.status in (Status.FOUND, Status.NO_PATH)
    stops = s.stops
    assert [p.index for p in stops] == sorted(p.index for p in stops)
    assert all(r.path[p.index] == p.tile for p in stops)
    if len(stops) > 1:
        assert path_clear(m, _chain(s), 1.0)
    if s.status == Status.FOUND:
        assert stops[0].index == 0 and stops[-1].index == len(r.path) - 1
