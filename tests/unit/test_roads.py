"""The road problem (Pinter, Figure 16): road-only moves, cones beyond the turns, and curves
whose whole body stays on road tiles, checked by dense sampling in this file.

Coordinates: tiles (x, y), centres (x + 0.5, y + 0.5), y down. In the maps ``=`` is road.
"""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arcstar import parse_ascii
from arcstar.collision.clearance import MOVES
from arcstar.maps.tilemap import TileMap
from arcstar.planner import plan_on_road
from arcstar.turning.methods import realize
from arcstar.turning.roads import cone_map, realize_on_road, road_cones, road_graph_mask, road_map, road_mask
from test_turning import body_margin, check_shape, covered, path_points

L_ROAD = """
....................
.=========..........
.........=..........
.........=..........
.........=..........
.........=..........
.........=..........
.........=..........
....................
"""

ZIGZAG = """
..............................
.=====........................
.....=........................
.....=........................
.....=====....................
.........=....................
.........=....................
.........=====................
.............=................
.............=====............
.................=............
.................=............
.................===========..
..............................
"""

WIDE_ZIGZAG = """
...............................
.========......................
.========......................
.......==......................
.......==......................
.......=========...............
.......=========...............
..............==...............
..............==...............
..............==...............
..............=========........
..............=========........
...............................
"""

LONG_ZIGZAG = """
.................................
.========........................
........=........................
........=........................
........=........................
........=........................
........=........................
........=........................
........========.#...............
...............=.................
...............=.................
...............=.................
...............=.................
...............=.................
...............=========.........
.................................
"""


def road_of(text: str) -> tuple[TileMap, list[tuple[int, int]]]:
    """A map and its road path from the top-left road tile to the bottom-right one."""
    m = parse_ascii(textwrap.dedent(text)).map
    ys, xs = np.nonzero(road_mask(m))
    tiles = sorted(zip(xs.tolist(), ys.tolist()), key=lambda p: (p[1], p[0]))
    res = plan_on_road(m, tiles[0], tiles[-1], width=1.0)
    assert res.status == "found"
    return m, res.path


def off_road(m: TileMap) -> np.ndarray:
    """Independently: tiles that are not road (terrain code 2) or are blocked."""
    return (m.terrain != 2) | m.blocked


def check_on_road(m: TileMap, res, width: float) -> None:
    """The whole body stays on road tiles at every sample (touching the verge allowed)."""
    assert res.legal, res.message
    assert body_margin(off_road(m), path_points(res.path), width) >= -1e-7


def turn_count(tiles) -> int:
    d = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(tiles, tiles[1:])]
    return sum(1 for a, b in zip(d, d[1:]) if a != b)


# ----------------------------------------------------------------------------- masks and search

def test_road_graph_mask_allows_only_road_to_road_steps():
    m, _ = road_of(WIDE_ZIGZAG)
    m.set_tile(3, 1, 1)  # a wall on the road
    road = (m.terrain == 2) & ~m.blocked
    mask = road_graph_mask(m)
    h, w = road.shape
    for y in range(h):
        for x in range(w):
            for k, (dx, dy) in enumerate(MOVES):
                nx, ny = x + dx, y + dy
                ok = road[y, x] and 0 <= nx < w and 0 <= ny < h and road[ny, nx]
                if dx and dy:
                    ok = ok and road[y, nx] and road[ny, x]  # a diagonal passes their shared corner
                assert bool(mask[y, x] >> k & 1) == ok, (x, y, dx, dy)


def test_plan_on_road_keeps_to_the_road_where_a_plain_plan_cuts_across():
    from arcstar import plan
    m, tiles = road_of(L_ROAD)
    assert all(m.terrain[y, x] == 2 for x, y in tiles)
    assert turn_count(tiles) == 1
    m.set_cost(2, 1.0)  # road no cheaper than the field: the plain plan cuts the corner
    plain = plan(m, tiles[0], tiles[-1], width=1.0)
    assert any(m.terrain[y, x] != 2 for x, y in plain.path)
    assert plan_on_road(m, tiles[0], tiles[-1], width=1.0).path == tiles
    with pytest.raises(ValueError, match="not a road tile"):
        plan_on_road(m, (0, 0), tiles[-1])
    with pytest.raises(ValueError, match="too close"):  # too wide for a 1-wide road
        plan_on_road(m, tiles[0], tiles[-1], width=1.5)


def test_plain_curves_cut_across_the_field():
    m, tiles = road_of(ZIGZAG)
    out = realize(m, tiles, None, None, 1.0, 2.0, "tighter")  # legal on the map, but off the road
    assert out.legal
    assert body_margin(off_road(m), path_points(out.path), 1.0) < -0.4


# ----------------------------------------------------------------------------- strict: on the road

@pytest.mark.parametrize("text", [L_ROAD, ZIGZAG, LONG_ZIGZAG], ids=["L", "zigzag", "long-zigzag"])
@pytest.mark.parametrize("radius", [0.4, 1.0, 2.0, 3.5])
def test_curves_stay_on_one_wide_roads(text, radius):
    m, tiles = road_of(text)
    out = realize_on_road(m, tiles, 1.0, radius)
    assert out.method == "road"
    check_shape(out, tiles, None, None, radius)
    check_on_road(m, out, 1.0)
    # a 1-wide road corner fits a width-1 unit only at r <= 1/2 (measured): tighter and slower
    if radius > 0.5:
        assert out.speed_limits and all(f < 1.0 for _, _, f in out.speed_limits)
        for s in out.path.segments:
            if s.kind == "arc" and s.radius < radius:
                d = sum(x.length for x in out.path.segments[:out.path.segments.index(s)])
                assert covered(out.speed_limits, max(0.0, d - radius), d + s.length, math.sqrt(s.radius / radius))
    else:
        assert out.speed_limits == []
    assert f"{turn_count(tiles)} turn(s)" in out.message


@pytest.mark.parametrize("radius", [0.5, 1.5, 3.0])
@pytest.mark.parametrize("width", [0.6, 1.0])
def test_curves_stay_on_a_two_wide_zigzag(radius, width):
    m = parse_ascii(textwrap.dedent(WIDE_ZIGZAG)).map
    with pytest.raises(ValueError, match="too close"):  # centred on a tile, 1.8 overhangs the road
        plan_on_road(m, (1, 1), (22, 11), width=1.8)
    res = plan_on_road(m, (1, 1), (22, 11), width=width)
    assert res.status == "found"
    out = realize_on_road(m, res.path, width, radius, start_heading=0.0, goal_heading=0.0)
    check_shape(out, res.path, 0.0, 0.0, radius)
    check_on_road(m, out, width)


def test_road_map_blocks_everything_but_road():
    m, _ = road_of(L_ROAD)
    assert np.array_equal(road_map(m).blocked, off_road(m))


# ----------------------------------------------------------------------------- cones

@pytest.mark.parametrize("text", [L_ROAD, ZIGZAG, LONG_ZIGZAG], ids=["L", "zigzag", "long-zigzag"])
@pytest.mark.parametrize("radius", [0.5, 1.0, 2.0, 3.0])
def test_cones_stand_beside_the_road_beyond_every_turn(text, radius):
    m, tiles = road_of(text)
    cones = road_cones(m, tiles, radius)
    assert len(cones) == turn_count(tiles)  # one set per turn
    road = (m.terrain == 2) & ~m.blocked
    index = {t: k for k, t in enumerate(tiles)}
    corners = [c.corner for c in cones]
    for c in cones:
        assert abs(abs(c.turn) - math.pi / 2) < 1e-9
        assert c.needed == max(1, math.ceil(radius - 1e-9))  # tiles a 90 degree turn needs: r tan 45
        assert tiles[c.index] == c.corner
        for x, y in c.tiles:
            assert not road[y, x] and not m.blocked[y, x], "a cone on the road or on a wall"
            # beside the road, after the turn's tiles have gone by
            beside = [index[(x + dx, y + dy)] for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                      if (x + dx, y + dy) in index]
            assert beside and max(beside) >= c.end + c.needed + 1
            # never inside a turn's own room
            for cx, cy in corners:
                assert max(abs(x - cx), abs(y - cy)) > min(cc.needed for cc in cones)
    long = road_cones(m, tiles, 1.0)
    if text == LONG_ZIGZAG:  # straights longer than a turn needs: cones on both sides
        assert all(len(c.tiles) >= 2 for c in long)


@pytest.mark.parametrize("text", [L_ROAD, LONG_ZIGZAG], ids=["L", "long-zigzag"])
@pytest.mark.parametrize("radius", [1.0, 2.0])
def test_cones_mode_swings_onto_the_verge_only_at_the_turns(text, radius):
    m, tiles = road_of(text)
    cones = road_cones(m, tiles, radius)
    out = realize_on_road(m, tiles, 1.0, radius, cones=True)
    assert out.method == "road+cones" and out.legal, out.message
    check_shape(out, tiles, None, None, radius)
    coned = m.blocked.copy()
    for c in cones:
        for x, y in c.tiles:
            coned[y, x] = True
    pts = path_points(out.path)
    assert body_margin(coned, pts, 1.0) >= -1e-7, "the body hits a cone"
    assert np.array_equal(cone_map(m, cones).blocked, coned)
    # off the road only near a turn: within the tiles the turn needs (plus the tile it is on)
    off = off_road(m)
    for p in pts[::5]:
        if body_margin(off, p[None, :], 1.0) < -1e-7:
            assert any(max(abs(math.floor(p[0]) - c.corner[0]), abs(math.floor(p[1]) - c.corner[1])) <= c.needed + 1
                       for c in cones), p
    strict = realize_on_road(m, tiles, 1.0, radius)
    assert strict.speed_limits and not out.speed_limits  # the turn zone lets it keep its radius


# ----------------------------------------------------------------------------- edges and input

def test_straight_road_has_no_cones_and_no_limits():
    m = parse_ascii(textwrap.dedent("""
        ..........
        .========.
        ..........
    """)).map
    tiles = [(x, 1) for x in range(1, 9)]
    assert road_cones(m, tiles, 2.0) == []
    out = realize_on_road(m, tiles, 1.0, 2.0)
    check_on_road(m, out, 1.0)
    assert out.path.word == "S" and out.speed_limits == []


def test_off_road_tiles_are_no_legal_path():
    m, tiles = road_of(L_ROAD)
    out = realize_on_road(m, [(0, 0)] + tiles, 1.0, 1.0)
    assert not out.legal and "not a road tile" in out.message
    assert realize_on_road(m, [], 1.0, 1.0) is None


@pytest.mark.parametrize("kwargs, match", [
    ({"radius": 0.0}, "radius"), ({"radius": float("nan")}, "radius"), ({"width": -1.0}, "width"),
    ({"width": "1"}, "width"), ({"start_heading": "east"}, "start_heading"), ({"cones": 1}, "cones"),
    ({"tilemap": None}, "TileMap"), ({"tiles": [(1, 1), (1, 99)]}, "off the"),
])
def test_bad_input(kwargs, match):
    m, tiles = road_of(L_ROAD)
    args = {"tilemap": m, "tiles": tiles, "width": 1.0, "radius": 1.0}
    extra = {k: kwargs.pop(k) for k in ("start_heading", "cones") if k in kwargs}
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        realize_on_road(args["tilemap"], args["tiles"], args["width"], args["radius"], **extra)
    with pytest.raises(ValueError, match="radius"):
        road_cones(m, tiles, -1.0)
    with pytest.raises(ValueError, match="TileMap"):
        road_graph_mask("map")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), radius=st.sampled_from([0.3, 1.0, 2.5]),
       width=st.sampled_from([0.5, 1.0]))
def test_random_road_networks_stay_on_the_road(seed, radius, width):
    rng = np.random.default_rng(seed)
    h, w = (int(v) for v in rng.integers(8, 20, 2))
    terrain = np.where(rng.random((h, w)) < 0.15, 1, 0).astype(np.uint8)  # walls and ground
    # a random monotone staircase road from the top-left to the bottom-right, 1 or 2 wide
    x, y, thick = 1, 1, int(rng.integers(1, 3))
    while x < w - 3 or y < h - 3:
        terrain[y:y + thick, x:x + thick] = 2
        if (rng.random() < 0.5 and x < w - 3) or y >= h - 3:
            x += 1
        else:
            y += 1
    terrain[y:y + thick, x:x + thick] = 2
    m = TileMap(terrain)
    try:
        res = plan_on_road(m, (1, 1), (x, y), width=width)
    except ValueError:
        return
    if res.status != "found":
        return
    out = realize_on_road(m, res.path, width, radius)
    check_shape(out, res.path, None, None, radius)
    margin = body_margin(off_road(m), path_points(out.path), width)
    assert out.legal == (margin >= -1e-7) or (not out.legal and margin < 0.01 + 1e-7)
    if out.legal:
        assert margin >= -1e-7
