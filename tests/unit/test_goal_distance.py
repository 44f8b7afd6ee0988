"""The abstract distance swept as far as it is asked (``search.goal_distance``): every value read
equals a breadth-first sweep's of the whole map, made here independently, whatever the order of
the reads and the budgets; and it sweeps only part of a map where only part is asked."""

from __future__ import annotations

import random
import struct
import tracemalloc
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcstar.search.goal_distance import GoalDistances


def moves(open_: list[list[bool]], neighbours: int) -> list[tuple[int, ...]]:
    """Per tile (y * width + x), the open tiles one move away; diagonals past two open sides."""
    h, w = len(open_), len(open_[0])
    dirs = [(1, 0), (-1, 0), (0, 1), (0, -1)] + ([(1, 1), (1, -1), (-1, 1), (-1, -1)] if neighbours == 8 else [])
    out = []
    for y in range(h):
        for x in range(w):
            near = []
            if open_[y][x]:
                for dx, dy in dirs:
                    nx, ny = x + dx, y + dy
                    if 0 <= nx < w and 0 <= ny < h and open_[ny][nx] and (
                            not (dx and dy) or (open_[y][nx] and open_[ny][x])):
                        near.append(ny * w + nx)
            out.append(tuple(near))
    return out


def sweep(adjacent: list[tuple[int, ...]], goal: int) -> list[int]:
    """Moves to ``goal`` from every tile by breadth-first search (-1: none)."""
    dist = [-1] * len(adjacent)
    dist[goal] = 0
    todo = deque([goal])
    while todo:
        u = todo.popleft()
        for v in adjacent[u]:
            if dist[v] < 0:
                dist[v] = dist[u] + 1
                todo.append(v)
    return dist


def random_map(rng: random.Random, w: int, h: int, density: float) -> list[list[bool]]:
    return [[rng.random() >= density for _ in range(w)] for _ in range(h)]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), neighbours=st.sampled_from([4, 8]), density=st.floats(0.0, 0.45),
       budget=st.sampled_from([None, 1, 7, 50]))
def test_every_distance_read_is_the_sweeps(seed: int, neighbours: int, density: float, budget: int | None) -> None:
    rng = random.Random(seed)
    w, h = rng.randint(1, 14), rng.randint(1, 14)
    open_ = random_map(rng, w, h, density)
    tiles = [y * w + x for y in range(h) for x in range(w) if open_[y][x]]
    if not tiles:
        return
    adjacent = moves(open_, neighbours)
    goal = rng.choice(tiles)
    truth = sweep(adjacent, goal)
    d = GoalDistances(adjacent, goal)
    asked = list(range(w * h))
    rng.shuffle(asked)
    for t in asked:
        if budget is not None:
            while not d.settle(t, budget):
                assert not d.exhausted  # (a slice that stops short leaves tiles to sweep)
        assert d[t] == truth[t], (t, goal)
    assert len(d) == w * h


def test_a_tile_the_goal_cannot_reach_reads_minus_one_once_all_it_reaches_is_closed() -> None:
    open_ = [[True, True, False, True, True]] * 3  # two rooms, no way between
    adjacent = moves(open_, 8)
    d = GoalDistances(adjacent, 0)
    assert d[4] == -1 and d.exhausted
    assert [d[t] for t in (0, 1, 5, 6, 10, 11)] == [0, 1, 1, 1, 2, 2]
    assert d[2] == -1  # a wall is no tile of the goal's either


def test_a_short_ask_on_a_large_map_sweeps_a_small_part_of_it() -> None:
    """An agent a few tiles from its goal does not pay for the whole map; a farther ask goes on
    from where the sweep stopped."""
    n = 128
    open_ = [[True] * n for _ in range(n)]
    for y in range(20, 100):
        open_[y][64] = False  # a wall with ways round both ends
    adjacent = moves(open_, 8)
    goal = 60 * n + 40
    truth = sweep(adjacent, goal)
    d = GoalDistances(adjacent, goal)
    assert d[60 * n + 52] == 12
    assert d.work <= 25 * 25 and sum(v >= 0 for v in d.values) <= 27 * 27
    far = 60 * n + 90  # behind the wall: round its end
    assert d[far] == truth[far]
    assert d.work < n * n and not d.exhausted
    assert all(v == truth[t] for t, v in enumerate(d.values) if v >= 0)


def test_a_settle_within_a_budget_closes_no_more_than_the_budget() -> None:
    open_ = [[True] * 30 for _ in range(30)]
    adjacent = moves(open_, 4)
    d = GoalDistances(adjacent, 0)
    done, slices = False, 0
    while not done:
        before = d.work
        done = d.settle(29 * 30 + 29, 10)
        assert d.work - before <= 10
        slices += 1
    assert d[29 * 30 + 29] == 58 and slices > 1


@pytest.mark.parametrize("goal", [-1, 9, 99])
def test_a_goal_off_the_grid_is_refused(goal: int) -> None:
    with pytest.raises(ValueError, match="not one of the grid's 9 tiles"):
        GoalDistances(moves([[True] * 3] * 3, 8), goal)


def test_whole_sweeps_every_tile_after_a_partial_ask() -> None:
    rng = random.Random(5)
    open_ = random_map(rng, 20, 15, 0.3)
    open_[7][10] = True
    adjacent = moves(open_, 8)
    goal = 7 * 20 + 10
    d = GoalDistances(adjacent, goal)
    near = next(v for v in adjacent[goal])
    assert d[near] == 1 and not d.exhausted
    assert d.whole() == sweep(adjacent, goal) and d.exhausted


def test_a_whole_sweep_of_a_large_map_holds_a_slot_a_tile_not_an_int_object():
    """A cooperative round keeps a sweep per agent's goal, each a list the size of the map: with a
    new int object a tile (28 bytes past 256 on 64-bit CPython, beside the list's 8) 60 goals on
    1024 x 1024 held 2 GB. The tiles at one distance share one object, so a whole sweep of a
    512 x 512 open map (distances to 1,022) holds little beyond its list's 8 bytes a tile."""
    n = 512
    adjacent = moves([[True] * n for _ in range(n)], 4)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        d = GoalDistances(adjacent, 0)
        d.whole()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert d[n * n - 1] == 2 * (n - 1)
    assert held < struct.calcsize("P") * n * n * 1.1, f"{held / 1e6:.1f} MB"  # (4-byte slots in Pyodide)
