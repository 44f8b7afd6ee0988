"""Smoothing (Pinter's Listing 1): shorter or equal, never worse, impossible sections kept.

Legality is checked with ``collision.swept_line_clear`` (itself tested against a brute force
in test_collision). Coordinates: tiles (x, y), centres (x + 0.5, y + 0.5), y down.
"""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arcstar import plan
from arcstar.collision.swept import swept_line_clear, walkable_sampled
from arcstar.maps.mapio import parse_ascii
from arcstar.maps.tilemap import TileMap
from arcstar.turning.smoothing import smooth, smooth_points, tile_centres


def ascii_map(text: str) -> TileMap:
    return parse_ascii(textwrap.dedent(text)).map


def length(points) -> float:
    return sum(math.dist(a, b) for a, b in zip(points, points[1:]))


def is_subsequence(short, long) -> bool:
    it = iter(long)
    return all(any(p == q for q in it) for p in short)


def check_smoothed(m: TileMap, tiles, width: float, exact: bool = True) -> list[tuple[float, float]]:
    """Smooth and check every promise of Listing 1; returns the smoothed points."""
    orig = tile_centres(tiles)
    out = smooth(m, tiles, width, exact=exact)
    assert out[0] == orig[0] and out[-1] == orig[-1]
    assert is_subsequence(out, orig)
    assert length(out) <= length(orig) + 1e-9
    original_legs = set(zip(orig, orig[1:]))
    test = swept_line_clear if exact else walkable_sampled
    for a, b in zip(out, out[1:]):
        assert (a, b) in original_legs or test(m, a, b, width), (a, b)
    if exact and all(swept_line_clear(m, a, b, width) for a, b in original_legs):
        assert all(swept_line_clear(m, a, b, width) for a, b in zip(out, out[1:]))
    return out


def test_open_field_becomes_one_leg():
    m = TileMap.empty(12, 12)
    tiles = [(1, 1), (2, 2), (3, 3), (4, 3), (5, 3), (6, 4), (7, 5), (8, 5), (9, 6)]
    assert check_smoothed(m, tiles, 1.0) == [(1.5, 1.5), (9.5, 6.5)]
    assert check_smoothed(m, tiles, 1.0, exact=False) == [(1.5, 1.5), (9.5, 6.5)]


def test_corner_is_kept():
    m = ascii_map("""
    ......
    ......
    ..###.
    ..###.
    ......""")
    tiles = [(0, 3), (0, 2), (1, 1), (2, 1), (3, 1), (4, 1), (5, 2), (5, 3)]
    out = check_smoothed(m, tiles, 1.0)
    assert len(out) < len(tiles) and len(out) >= 3


FIGURE_4 = """
............
............
............
......######
###.##......
............
............
............"""


def test_figure_4_impossible_section_is_left_alone():
    """A* for a thin unit squeezes through a 1-wide gap; a unit of width 1.5 cannot pass it,
    so the points around the gap stay as they were (and nothing new is made illegal), while
    the open stretches before and after it are still smoothed."""
    m = ascii_map(FIGURE_4)
    res = plan(m, (1, 1), (10, 6))
    assert res.status == "found"
    tiles = res.path
    assert (3, 4) in tiles
    orig = tile_centres(tiles)
    out = check_smoothed(m, tiles, 1.5)
    assert len(out) < len(orig)
    k = orig.index((3.5, 4.5))
    assert orig[k] in out  # the gap's tile is kept...
    i = out.index(orig[k])
    # ...with its neighbours: the legs into and out of the gap are the original ones
    assert out[i - 1] == orig[k - 1] and out[i + 1] == orig[k + 1]
    assert not swept_line_clear(m, orig[k - 1], orig[k], 1.5)
    assert not swept_line_clear(m, orig[k], orig[k + 1], 1.5)
    # a unit that fits the gap is smoothed through it
    thin = check_smoothed(m, tiles, 0.8)
    assert len(thin) < len(out) and orig[k] not in thin


def test_sampled_smoothing_cuts_a_corner_the_exact_one_keeps():
    """Pinter's diamond misses the corner (3, 3) of the blocked tile (2, 2) on the diagonal
    shortcut: it passes 0.707 from it, inside the radius 0.8, between two diamond points."""
    m = TileMap.empty(8, 8)
    m.set_tile(2, 2, 1)
    tiles = [(2, 4), (3, 4), (4, 3), (4, 2)]
    assert all(swept_line_clear(m, a, b, 1.6) for a, b in zip(tile_centres(tiles), tile_centres(tiles)[1:]))
    assert check_smoothed(m, tiles, 1.6) == [(2.5, 4.5), (4.5, 3.5), (4.5, 2.5)]
    sampled = check_smoothed(m, tiles, 1.6, exact=False)
    assert sampled == [(2.5, 4.5), (4.5, 2.5)]
    assert not swept_line_clear(m, sampled[0], sampled[1], 1.6)


def serpentine(width: int = 40, lanes: int = 12) -> TileMap:
    """Horizontal walls with a gap at alternating ends: the path has to snake."""
    rows = []
    for lane in range(lanes):
        rows += ["." * width] * 2
        if lane < lanes - 1:
            wall = ["#"] * width
            gap = range(width - 2, width) if lane % 2 == 0 else range(0, 2)
            for x in gap:
                wall[x] = "."
            rows.append("".join(wall))
    return parse_ascii("\n".join(rows)).map


def test_two_hundred_waypoint_path():
    m = serpentine()
    res = plan(m, (0, 0), (0, m.height - 1))
    assert res.status == "found" and len(res.path) >= 200
    for width in (0.5, 1.0):
        out = check_smoothed(m, res.path, width)
        assert len(out) < len(res.path) / 4
    # the lanes are 2 wide, too narrow for a unit of 1.5 at any tile centre: all kept
    assert check_smoothed(m, res.path, 1.5) == tile_centres(res.path)
    out = check_smoothed(m, res.path, 1.0, exact=False)
    assert len(out) < len(res.path) / 4


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), width=st.floats(0.5, 1.5), exact=st.booleans(),
       neighbours=st.sampled_from([8, 4]))
def test_random_maps_with_astar_paths(seed, width, exact, neighbours):
    rng = np.random.default_rng(seed)
    h, w = (int(v) for v in rng.integers(6, 30, 2))
    blocked = rng.random((h, w)) < rng.uniform(0.05, 0.3)
    free = np.argwhere(~blocked)
    if len(free) < 2:
        return
    (y0, x0), (y1, x1) = free[rng.choice(len(free), 2, replace=False)]
    m = TileMap.from_blocked(blocked)
    res = plan(m, (int(x0), int(y0)), (int(x1), int(y1)), neighbours=neighbours)
    if res.status != "found" or len(res.path) < 2:
        return
    check_smoothed(m, res.path, width, exact=exact)


def test_short_inputs_and_repeats():
    m = TileMap.empty(5, 5)
    assert smooth(m, [(1, 1)], 1.0) == [(1.5, 1.5)]
    assert smooth(m, [], 1.0) == []
    assert smooth(m, [(1, 1), (1, 1), (2, 2)], 1.0) == [(1.5, 1.5), (2.5, 2.5)]
    assert smooth(m, [(1, 1), (2, 2), (3, 3)], 1.0) == [(1.5, 1.5), (3.5, 3.5)]
    assert smooth(m, [(1.0, 1), (2, 2.0)], 1.0) == [(1.5, 1.5), (2.5, 2.5)]
    assert smooth(m, np.array([[1, 1], [2, 2], [3, 3]]), 1.0) == [(1.5, 1.5), (3.5, 3.5)]
    assert smooth_points(m, [(1.2, 1.2), (2.5, 1.5), (3.7, 1.2)], 1.0) == [(1.2, 1.2), (3.7, 1.2)]


def test_bad_input():
    m = TileMap.empty(5, 5)
    for bad in ([(1, 1), (1.5, 2)], [(1, 1), ("a", 2)], [(1, 1), (2,)], "path", 5, None, {"a": 1},
                [(1, 1), (True, 2)], [(1, 1), (math.nan, 2)]):
        with pytest.raises(ValueError):
            smooth(m, bad, 1.0)
    for w in (0, -1, math.nan, math.inf, "1"):
        with pytest.raises(ValueError):
            smooth(m, [(1, 1), (2, 2), (3, 3)], w)
    with pytest.raises(ValueError):
        smooth(m, [(1, 1), (2, 2), (3, 3)], 1.0, exact=1)
    with pytest.raises(ValueError):
        smooth(None, [(1, 1), (2, 2)], 1.0)
    with pytest.raises(ValueError):
        smooth_points(m, [(1, 1), (math.inf, 2), (3, 3)], 1.0)
