"""Islands: region labels against an independent flood fill, the move-rule claims, caching, fail-fast."""

from collections import deque

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arcstar
from arcstar.maps.tilemap import WALL
from arcstar.search.regions import connectivity, label, region_count, region_of, regions, same_region
from conftest import benchmarks_dir
from reference import step_ok

POLICIES = ["never", "both", "either", "always"]
STEPS = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0)]


def flood_labels(blocked: np.ndarray, diagonal: str = "both", neighbours: int = 8, cut: int = 0) -> np.ndarray:
    """Reference: breadth-first flood fill in row-major order, moves judged by ``reference.step_ok``
    (the rules as stated), optionally never crossing the lines of a ``cut`` x ``cut`` grid."""
    h, w = blocked.shape
    out = np.full((h, w), -1, dtype=np.int64)
    n = 0
    for y0 in range(h):
        for x0 in range(w):
            if blocked[y0, x0] or out[y0, x0] >= 0:
                continue
            out[y0, x0] = n
            queue = deque([(x0, y0)])
            while queue:
                x, y = queue.popleft()
                for dx, dy in STEPS:
                    nx, ny = x + dx, y + dy
                    if not step_ok(blocked, (x, y), (nx, ny), diagonal, neighbours) or out[ny, nx] >= 0:
                        continue
                    if cut and (nx // cut != x // cut or ny // cut != y // cut):
                        continue
                    out[ny, nx] = n
                    queue.append((nx, ny))
            n += 1
    return out


@st.composite
def blocked_maps(draw, max_side=14):
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    density = draw(st.sampled_from([0.1, 0.3, 0.45, 0.6, 0.8]))
    seed = draw(st.integers(0, 2**32 - 1))
    return np.random.default_rng(seed).random((h, w)) < density


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(blocked_maps(), st.sampled_from(POLICIES), st.sampled_from([4, 8]))
def test_labels_equal_a_flood_fill(blocked, diagonal, neighbours):
    tilemap = arcstar.TileMap.from_blocked(blocked)
    got = regions(tilemap, diagonal, neighbours)
    want = flood_labels(blocked, diagonal, neighbours)
    assert got.dtype == np.int32 and got.shape == blocked.shape
    assert np.array_equal(got, want)
    assert region_count(tilemap, diagonal, neighbours) == int(want.max()) + 1


@settings(max_examples=150, deadline=None)
@given(blocked_maps())
def test_no_corner_cutting_connects_exactly_what_four_neighbours_connect(blocked):
    # A diagonal step allowed under "both" (or "either") has a free side tile: two straight steps
    # through it join the same tiles. Only "always" (squeezing between two walls) joins more.
    four = flood_labels(blocked, "never", 4)
    assert np.array_equal(flood_labels(blocked, "both", 8), four)
    assert np.array_equal(flood_labels(blocked, "either", 8), four)
    always = flood_labels(blocked, "always", 8)
    # "always" only merges: tiles together under 4-connectivity stay together
    for r in range(int(four.max()) + 1):
        assert len(np.unique(always[four == r])) == 1


def test_always_joins_a_diagonal_squeeze_that_no_corner_cutting_does_not():
    tilemap = arcstar.parse_ascii(".#\n#.").map
    assert not same_region(tilemap, (0, 0), (1, 1), "both")
    assert not same_region(tilemap, (0, 0), (1, 1), "either")
    assert not same_region(tilemap, (0, 0), (1, 1), "both", neighbours=4)
    assert same_region(tilemap, (0, 0), (1, 1), "always")
    assert not same_region(tilemap, (0, 0), (1, 1), "always", neighbours=4)
    assert connectivity("always", 8) == 8 and connectivity("either", 8) == connectivity("both") == 4


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(blocked_maps(max_side=20), st.integers(1, 7), st.booleans())
def test_cluster_cut_labels_equal_a_flood_fill_that_stays_in_each_cluster(blocked, cut, eight):
    got, count = label(~blocked, eight=eight, cut=cut)
    want = flood_labels(blocked, "always" if eight else "both", 8, cut=cut)
    assert np.array_equal(got, want)
    assert count == int(want.max()) + 1


def edits():
    return st.lists(st.tuples(st.integers(0, 11), st.integers(0, 9), st.booleans(), st.integers(1, 3)),
                    min_size=1, max_size=25)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(blocked_maps(max_side=12), edits(), st.sampled_from(["both", "always"]))
def test_labels_stay_right_through_a_sequence_of_brush_strokes(blocked, strokes, diagonal):
    # The lab edits one stroke at a time (walls added: regions may split; removed: they may merge).
    tilemap = arcstar.TileMap.from_blocked(blocked)
    h, w = blocked.shape
    for x, y, wall, size in strokes:
        before = regions(tilemap, diagonal)
        assert regions(tilemap, diagonal) is before  # cached while the version holds
        ys, xs = slice(y % h, min(h, y % h + size)), slice(x % w, min(w, x % w + size))
        tilemap.terrain[ys, xs] = WALL if wall else 0
        tilemap.touch()
        got = regions(tilemap, diagonal)
        assert np.array_equal(got, flood_labels(tilemap.blocked, diagonal))


def test_split_and_merge_by_single_tile_edits():
    tilemap = arcstar.parse_ascii("""
.....
.....
.....
""").map
    assert region_count(tilemap) == 1
    for y in range(3):
        tilemap.set_tile(2, y, WALL)
    assert region_count(tilemap) == 2 and not same_region(tilemap, (0, 0), (4, 2))
    tilemap.set_tile(2, 1, 0)
    assert region_count(tilemap) == 1 and same_region(tilemap, (0, 0), (4, 2))


def test_results_are_read_only_and_blocked_is_minus_one():
    tilemap = arcstar.parse_ascii("..#\n###\n#..").map
    labels = regions(tilemap)
    assert labels.tolist() == [[0, 0, -1], [-1, -1, -1], [-1, 1, 1]]
    with pytest.raises(ValueError):
        labels[0, 0] = 5
    assert region_of(tilemap, (2, 2)) == 1 and region_of(tilemap, (1, 1)) == -1
    assert not same_region(tilemap, (1, 1), (1, 1))  # a wall is in no region


def test_bad_input_is_refused():
    tilemap = arcstar.TileMap.empty(4, 3)
    with pytest.raises(ValueError, match="diagonal"):
        regions(tilemap, "sometimes")
    with pytest.raises(ValueError, match="neighbours"):
        regions(tilemap, "both", 6)
    with pytest.raises(ValueError, match="off the"):
        same_region(tilemap, (0, 0), (4, 0))
    with pytest.raises(ValueError, match="pair of integers"):
        same_region(tilemap, (0, 0), "a")
    with pytest.raises(ValueError, match="TileMap"):
        regions(np.zeros((3, 3)))


def test_an_unreachable_goal_is_known_without_a_search():
    # Lester's island: the goal is walled in, so plain A* would exhaust every reachable tile.
    loaded = arcstar.parse_ascii("""
S..........
...........
.......###.
.......#E#.
.......###.
""")
    tilemap = loaded.map
    assert not same_region(tilemap, loaded.start, loaded.goal)
    result = arcstar.plan(tilemap, loaded.start, loaded.goal, heuristic="octile")
    assert result.status == "unreachable" and result.expanded == 0  # the planner asks the islands first


def _load(name):
    root = benchmarks_dir()
    if root is None:
        pytest.skip("Moving AI benchmark maps not found")
    return arcstar.load_map(root / "maps" / f"{name}.map").map


@pytest.mark.parametrize("name, four, eight", [("NewYork_0_1024", 2, 2), ("maze512-1-0", 1, 1),
                                               ("AcrosstheCape", 58, 47), ("Berlin_0_256", 31, 25)])
def test_benchmark_region_counts(name, four, eight):
    tilemap = _load(name)
    assert region_count(tilemap, "both") == four
    assert region_count(tilemap, "never", 4) == four
    assert region_count(tilemap, "always") == eight
    labels = regions(tilemap)
    assert (labels >= 0).sum() == (~tilemap.blocked).sum()


def test_a_benchmark_map_against_the_flood_fill():
    tilemap = _load("Berlin_0_256")
    for diagonal in ("both", "always"):
        assert np.array_equal(regions(tilemap, diagonal), flood_labels(tilemap.blocked, diagonal))
