"""Clearance: the clearance map against a brute force, passable tiles, and the per-tile move
masks, which must agree exactly with the swept-capsule test (and with an independent brute
force up to tangency).

Coordinates: tile (x, y) covers [x, x+1) x [y, y+1), centre (x + 0.5, y + 0.5), y down;
arrays are indexed [y, x]. Move bits: +x, -x, +y, -y, (+1,+1), (+1,-1), (-1,+1), (-1,-1).
"""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arcstar.collision.clearance import DEFAULT_CAP, MOVES, clearance_map, move_masks_for, passable_for, step_ok_for
from arcstar.collision.swept import swept_line_clear
from arcstar.maps.mapio import parse_ascii
from arcstar.maps.tilemap import Terrain, TileMap
from arcstar.outcomes import BadInput
from arcstar.search.grid import GridGraph, GridOptions
from conftest import benchmarks_dir

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def brute_clearance(blocked: np.ndarray, cap: float = DEFAULT_CAP) -> np.ndarray:
    """Twice the distance from each tile centre to the nearest blocked square or map edge."""
    h, w = blocked.shape
    out = np.zeros((h, w))
    js, is_ = np.nonzero(blocked)
    for y in range(h):
        for x in range(w):
            cx, cy = x + 0.5, y + 0.5
            d = min(cx, w - cx, cy, h - cy)
            for i, j in zip(is_, js):
                ex = max(i - cx, cx - (i + 1), 0.0)
                ey = max(j - cy, cy - (j + 1), 0.0)
                d = min(d, math.hypot(ex, ey))
            out[y, x] = min(2 * d, cap)
    return out


def brute_step_clearance(blocked: np.ndarray, a: tuple[int, int], b: tuple[int, int]) -> float:
    """Minimum distance from the moving centre (sampled every 0.002) to walls and map edge."""
    h, w = blocked.shape
    u = np.linspace(0.0, 1.0, 800)[:, None]
    pts = np.array([a[0] + 0.5, a[1] + 0.5]) + u * np.array([b[0] - a[0], b[1] - a[1]], float)
    x, y = pts[:, 0:1], pts[:, 1:2]
    best = float(np.minimum(np.minimum(x, w - x), np.minimum(y, h - y)).min())
    js, is_ = np.nonzero(blocked)
    if len(js):
        ex = np.maximum(np.maximum(is_ - x, x - is_ - 1), 0.0)
        ey = np.maximum(np.maximum(js - y, y - js - 1), 0.0)
        best = min(best, float(np.sqrt(ex * ex + ey * ey).min()))
    return max(best, 0.0)


def random_blocked(seed: int, hmax: int = 14) -> np.ndarray:
    rng = np.random.default_rng(seed)
    h, w = (int(v) for v in rng.integers(1, hmax, 2))
    return rng.random((h, w)) < rng.uniform(0.0, 0.35)


def ascii_map(text: str) -> TileMap:
    return parse_ascii(textwrap.dedent(text)).map


# ----------------------------------------------------------------------------- clearance map

@FAST
@given(seed=st.integers(0, 2**32 - 1), cap=st.sampled_from([DEFAULT_CAP, 3.0, 5.5, 40.0]))
def test_clearance_map_matches_brute_force(seed, cap):
    blocked = random_blocked(seed)
    m = TileMap.from_blocked(blocked)
    got = clearance_map(m, cap)
    assert got.shape == blocked.shape and got.dtype == np.float64
    np.testing.assert_allclose(got, brute_clearance(blocked, cap), rtol=0, atol=1e-12)
    assert np.all(got[blocked] == 0.0)


def test_clearance_in_an_open_field_grows_to_the_cap():
    m = TileMap.empty(41, 41)
    c = clearance_map(m)
    assert c[20, 20] == DEFAULT_CAP and c[0, 0] == 1.0 and c[1, 5] == 3.0
    big = clearance_map(m, 100.0)
    assert big[20, 20] == 41.0  # centre of a 41-wide map: 20.5 from every edge


def test_clearance_is_cached_read_only_and_follows_edits():
    m = TileMap.empty(9, 9)
    c = clearance_map(m)
    assert clearance_map(m) is c
    with pytest.raises(ValueError):
        c[0, 0] = 5.0
    assert c[4, 4] == 9.0
    m.set_tile(4, 4, 1)
    c2 = clearance_map(m)
    assert c2 is not c and c2[4, 4] == 0.0 and c2[4, 5] == 1.0


def test_clearance_on_a_movingai_map_matches_brute_force_at_sampled_tiles():
    root = benchmarks_dir()
    if root is None:
        pytest.skip("Moving AI benchmark maps not available")
    from arcstar.maps.mapio import load_map

    m = load_map(root / "maps" / "brc202d.map").map
    c = clearance_map(m)
    blocked = m.blocked
    h, w = blocked.shape
    rng = np.random.default_rng(5)
    for _ in range(150):
        x, y = int(rng.integers(w)), int(rng.integers(h))
        x0, x1, y0, y1 = max(x - 10, 0), min(x + 11, w), max(y - 10, 0), min(y + 11, h)
        window = blocked[y0:y1, x0:x1]
        js, is_ = np.nonzero(window)
        cx, cy = x + 0.5, y + 0.5
        d = min(cx, w - cx, cy, h - cy, 9.0)
        if len(js):
            ex = np.maximum(np.maximum(is_ + x0 - cx, cx - (is_ + x0) - 1), 0.0)
            ey = np.maximum(np.maximum(js + y0 - cy, cy - (js + y0) - 1), 0.0)
            d = min(d, float(np.sqrt(ex * ex + ey * ey).min()))
        assert c[y, x] == pytest.approx(min(2 * d, DEFAULT_CAP), abs=1e-12)


# ----------------------------------------------------------------------------- passable tiles

def test_corridor_narrower_than_the_unit_is_not_passable():
    m = ascii_map("""
    ##########
    ..........
    ..........
    ##########
    ....#.....
    ##########""")
    p = passable_for(m, 1.5)
    assert not p[4].any()  # the 1-wide corridor
    assert p[1:3].sum() == 0  # 2-wide, but a centred disc of 1.5 cannot fit at a centre: 1.5 > 1
    assert passable_for(m, 1.0)[1:3].all()  # a unit of width 1 touches the walls: allowed
    assert passable_for(m, 1.0)[4].sum() == 9
    wide = ascii_map("""
    #####
    .....
    .....
    .....
    #####""")
    # the map's ends count as walls too, so only the middle row's inner tiles fit 2.9
    assert passable_for(wide, 2.9)[2, 1:4].all() and passable_for(wide, 2.9).sum() == 3
    assert not passable_for(wide, 3.01).any()


@FAST
@given(seed=st.integers(0, 2**32 - 1), width=st.floats(0.05, 6.0))
def test_passable_is_clearance_at_least_width(seed, width):
    blocked = random_blocked(seed)
    m = TileMap.from_blocked(blocked)
    np.testing.assert_array_equal(passable_for(m, width), brute_clearance(blocked, 100.0) >= width)


def test_wide_units_beyond_the_cap():
    m = TileMap.empty(30, 30)
    assert passable_for(m, 20.0)[15, 15] and not passable_for(m, 20.0)[5, 15]
    assert not passable_for(m, 31.0).any()


# ----------------------------------------------------------------------------- move masks

def check_masks(m: TileMap, blocked: np.ndarray, width: float) -> None:
    masks = move_masks_for(m, width)
    h, w = blocked.shape
    assert masks.shape == (h, w) and masks.dtype == np.uint8
    for y in range(h):
        for x in range(w):
            for bit, (dx, dy) in enumerate(MOVES):
                allowed = bool(masks[y, x] >> bit & 1)
                nx, ny = x + dx, y + dy
                if not (0 <= nx < w and 0 <= ny < h):
                    assert not allowed
                    continue
                exact = step_ok_for(m, (x, y), (nx, ny), width)
                assert allowed == exact, ((x, y), (dx, dy), width)
                mc = brute_step_clearance(blocked, (x, y), (nx, ny))
                assert allowed == (mc >= width / 2) or abs(mc - width / 2) < 2e-3, ((x, y), (dx, dy), width, mc)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), width=st.floats(0.05, 4.0))
def test_move_masks_are_exact(seed, width):
    blocked = random_blocked(seed, hmax=10)
    check_masks(TileMap.from_blocked(blocked), blocked, width)


@pytest.mark.parametrize("width", [0.5, 1.0, 2.0, 2.9, 3.0, 3.1, 5.7, 5.8])
def test_move_masks_exact_at_chosen_widths(width):
    rng = np.random.default_rng(int(width * 10))
    blocked = rng.random((13, 13)) < 0.08
    check_masks(TileMap.from_blocked(blocked), blocked, width)


def test_diagonal_step_can_clip_a_tile_two_columns_over():
    """Both end discs clear, the mid-step capsule clips tile (7, 4) for 2.83 < width < 3.16."""
    m = TileMap.empty(13, 13)
    m.set_tile(7, 4, 1)
    for width, ok in ((2.8, True), (3.0, False), (3.1, False)):
        p = passable_for(m, width)
        assert p[5, 5] and p[6, 6]
        assert step_ok_for(m, (5, 5), (6, 6), width) is ok
        assert bool(move_masks_for(m, width)[5, 5] >> MOVES.index((1, 1)) & 1) is ok
        assert bool(move_masks_for(m, width)[6, 6] >> MOVES.index((-1, -1)) & 1) is ok
    assert not passable_for(m, 3.2)[5, 5]  # wider still: the end disc itself reaches the tile


def test_any_width_needs_both_orthogonal_neighbours_free_for_a_diagonal():
    m = ascii_map("""
    ...
    .#.
    ...""")
    for width in (1e-3, 0.3, 1.0):
        masks = move_masks_for(m, width)
        assert not masks[0, 0] >> MOVES.index((1, 1)) & 1 or m.blocked[1, 1]
        assert not step_ok_for(m, (1, 0), (0, 1), width)
        assert not swept_line_clear(m, (1.5, 0.5), (0.5, 1.5), width)


def test_masks_follow_grid_move_order_and_match_the_plain_grid_for_thin_units():
    """A thin unit under the exact rule is Lester's 'both' corner rule; the bit order is
    GridGraph.moves' order, so the lead can drop the mask into the padded layout."""
    rng = np.random.default_rng(11)
    blocked = rng.random((12, 15)) < 0.25
    m = TileMap.from_blocked(blocked)
    g = GridGraph(m, GridOptions(8, "both"))
    s = g.stride
    for k, (dx, dy) in enumerate(MOVES):
        assert g.moves[k][0] == dx + dy * s
    legal = np.frombuffer(g.legal, dtype=np.uint8).reshape(m.height + 2, s)
    np.testing.assert_array_equal(np.pad(move_masks_for(m, 0.01), 1), legal)


def test_masks_cached_and_bad_input():
    m = TileMap.empty(5, 5)
    assert move_masks_for(m, 1.0) is move_masks_for(m, 1.0)
    assert passable_for(m, 1.0) is passable_for(m, 1.0)
    for bad in (0.0, -1.0, math.nan, math.inf, "1", None):
        for fn in (passable_for, move_masks_for):
            with pytest.raises(ValueError):
                fn(m, bad)
        with pytest.raises(ValueError):
            step_ok_for(m, (0, 0), (1, 1), bad)
    for cap in (0, -1, math.nan, math.inf, "big"):
        with pytest.raises(ValueError):
            clearance_map(m, cap)
    for tile in ((5, 0), (-1, 0), (0.5, 0), ("a", 0), (0,), None):
        with pytest.raises(ValueError):
            step_ok_for(m, tile, (1, 1), 1.0)
    with pytest.raises(ValueError):
        clearance_map(np.zeros((3, 3)))
    assert step_ok_for(m, (0, 0), (4, 4), 1.0) and step_ok_for(m, (0.0, 0), (1, 1), 1.0)


# ----------------------------------------------------------------------------- walled copies

def walled_case(seed: int) -> tuple[TileMap, TileMap, np.ndarray]:
    """A random map, a copy of it with random tiles walled (some off the map, some walls
    already) and the copy's blocked tiles as a fresh array."""
    blocked = random_blocked(seed)
    base = TileMap.from_blocked(blocked)
    rng = np.random.default_rng(seed + 1)
    h, w = blocked.shape
    tiles = [(int(x), int(y)) for x, y in zip(rng.integers(-2, w + 2, 12), rng.integers(-2, h + 2, 12))]
    walled = base.walled(tiles[:int(rng.integers(0, 13))])
    return base, walled, walled.blocked.copy()


@FAST
@given(seed=st.integers(0, 2**31), width=st.floats(0.05, 4.0))
def test_a_walled_copys_tables_are_patched_from_its_origins_and_still_exact(seed, width):
    base, walled, blocked = walled_case(seed)
    passable_for(base, width), move_masks_for(base, width)  # the origin's tables, to patch from
    assert walled.walled_from() is not None and walled.walled_from()[0] is base
    np.testing.assert_array_equal(passable_for(walled, width), brute_clearance(blocked, 100.0) >= width)
    check_masks(walled, blocked, width)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), width=st.sampled_from([None, 0.5, 0.9, 1.0, 1.6, 3.0]),
       diagonal=st.sampled_from(["both", "never"]))
def test_a_walled_copy_plans_as_a_map_built_fresh_does(seed, width, diagonal):
    _, walled, blocked = walled_case(seed)
    same_plans(walled, TileMap.from_blocked(blocked), seed, width, diagonal)


def same_plans(copy: TileMap, fresh: TileMap, seed: int, width: float | None, diagonal: str) -> None:
    """Plans between random open tiles on ``copy`` and on ``fresh`` (the same map built anew)
    agree: status, path, cost and expansions."""
    from arcstar.planner import plan

    blocked = fresh.blocked
    h, w = blocked.shape
    rng = np.random.default_rng(seed)
    opts = {"width": width, "diagonal": diagonal, "neighbours": 8 if diagonal == "both" else 4}

    def outcome(m: TileMap, a: tuple[int, int], b: tuple[int, int]) -> tuple:
        try:
            r = plan(m, a, b, **opts)
        except BadInput as e:  # the body does not fit there: the same on both
            return ("refused", str(e))
        return r.status, r.path, r.cost, r.expanded
    for _ in range(4):
        a = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        b = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        if blocked[a[1], a[0]] or blocked[b[1], b[0]]:
            continue
        assert outcome(copy, a, b) == outcome(fresh, a, b)


def test_walled_copies_forget_their_origin_once_either_changes():
    base = TileMap.empty(6, 4)
    base.set_tile(0, 0, 1)
    walled = base.walled([(0, 0), (2, 1), (9, 9), (-1, 2)])
    assert walled.blocked[1, 2] and not base.blocked[1, 2]
    origin = walled.walled_from()
    assert origin is not None and origin[1].tolist() == [1 * 6 + 2]  # only the tile it blocked
    walled.set_tile(4, 3, 1)
    assert walled.walled_from() is None
    again = base.walled([(3, 3)])
    base.set_tile(5, 0, 1)
    assert again.walled_from() is None and not again.blocked[0, 5]
    assert base.walled([]).walled_from()[1].size == 0
    for bad in ([(1.5, 0)], [(1, None)], [(True, 0)], [(1, 2, 3)], ["ab"], [[1, 1]]):
        with pytest.raises(ValueError, match="pairs of integers"):
            base.walled(bad)
    no_walls = TileMap(np.zeros((2, 2), dtype=np.uint8), [Terrain(0, "ground", ".", 1.0)])
    with pytest.raises(ValueError):
        no_walls.walled([(0, 0)])


def costly_case(seed: int, kind: str) -> tuple[TileMap, TileMap]:
    """A walled copy (``walled``) of a random map and the same map built fresh. ``kind``: "terrain"
    (tiles of several costs), "influence" (a penalty layer given to the copy, as the world's
    claimed tiles are), "chain" (walls again on such a copy, as a re-plan round units does)."""
    blocked = random_blocked(seed)
    rng = np.random.default_rng(seed + 2)
    h, w = blocked.shape
    terrain = np.where(blocked, 1, 0).astype(np.uint8)
    if kind == "terrain":  # some open tiles costlier (code 2)
        terrain[(rng.random((h, w)) < 0.3) & ~blocked] = 2
    terrains = [Terrain(0, "ground", ".", 1.0), Terrain(1, "wall", "#", math.inf), Terrain(2, "mud", "~", 3.0)]
    base = TileMap(terrain, terrains)

    def tiles() -> list[tuple[int, int]]:
        return [(int(x), int(y)) for x, y in zip(rng.integers(-1, w + 1, 6), rng.integers(-1, h + 1, 6))]
    penalty = None
    if kind != "terrain":
        penalty = np.where(rng.random((h, w)) < 0.2, rng.choice([5.0, 20.0, 0.5], (h, w)), 0.0)
    copy = base.walled(tiles()[:int(rng.integers(0, 7))], penalty)
    if kind == "chain":
        copy = copy.walled(tiles())
    fresh = TileMap(copy.terrain.copy(), terrains)
    fresh.set_influence(copy.influence)
    return copy, fresh


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), kind=st.sampled_from(["terrain", "influence", "chain"]),
       width=st.sampled_from([None, 0.5, 0.9, 1.6]), diagonal=st.sampled_from(["both", "never"]))
def test_a_walled_copy_with_costs_plans_as_a_map_built_fresh_does(seed, kind, width, diagonal):
    """Its graph is the origin's restricted (and, for a penalty layer the origin lacks, its step
    costs raised): the same plans, costs and expansions as a graph built from nothing."""
    copy, fresh = costly_case(seed, kind)
    assert copy.walled_from() is not None
    same_plans(copy, fresh, seed, width, diagonal)


def test_a_penalty_layer_given_to_a_walled_copy_is_checked():
    base = TileMap.empty(4, 3)
    for bad in (np.zeros((2, 2)), np.full((3, 4), -1.0), np.full((3, 4), np.nan)):
        with pytest.raises(ValueError):
            base.walled([(0, 0)], bad)
    layer = np.ones((3, 4))
    copy = base.walled([], layer)
    layer[0, 0] = 9.0  # the copy keeps its own
    assert copy.influence[0, 0] == 1.0 and base.influence is None and copy.walled_from() is not None


def test_walls_over_the_only_costly_tiles_plan_as_a_fresh_map():
    """The origin's searches take the general loop (tiles of two costs), the walled copy's
    would take the uniform one (its costly tile walled): built anew, the same plans."""
    from arcstar.planner import plan

    terrains = [Terrain(0, "ground", ".", 1.0), Terrain(1, "wall", "#", math.inf), Terrain(2, "mud", "~", 3.0)]
    terrain = np.zeros((5, 7), dtype=np.uint8)
    terrain[2, 3] = 2
    base = TileMap(terrain, terrains)
    copy = base.walled([(3, 2)])
    fresh = TileMap(copy.terrain.copy(), terrains)
    for width in (None, 0.8):
        a, b = plan(copy, (0, 2), (6, 2), width=width), plan(fresh, (0, 2), (6, 2), width=width)
        assert (a.status, a.path, a.cost, a.expanded) == (b.status, b.path, b.cost, b.expanded)
        assert (3, 2) not in a.path
