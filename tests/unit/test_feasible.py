"""The search of every arrangement (``arcstar.search.feasible``): held to a breadth-first search of
the agents' configurations written here, on small random maps with dead ends, and on pockets
where units must back out and come in again in another order."""

from __future__ import annotations

import random
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcstar.search.feasible import moves_at_least, reachable_steps, schedule
from arcstar.search.sliced import run_to_end
from arcstar.world import coordinated


def grid(rows: list[str]):
    """The open tiles of ``rows`` as nodes, their 4-neighbours, and a tile's node."""
    tiles = [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "."]
    node = {t: k for k, t in enumerate(tiles)}
    adjacent = [[node[n] for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if n in node] for x, y in tiles]
    return tiles, adjacent, node


def fewest_moves(adjacent, starts, goals, free=()):
    """The fewest one-at-a-time moves (an agent into a free neighbouring node) that bring every
    agent not in ``free`` to its goal, by a breadth-first search of every configuration; None
    if none does."""
    held = [i for i in range(len(starts)) if i not in set(free)]
    start = tuple(starts)
    seen = {start: 0}
    queue = deque([start])
    while queue:
        c = queue.popleft()
        if all(c[i] == goals[i] for i in held):
            return seen[c]
        for i, v in enumerate(c):
            for n in adjacent[v]:
                if n not in c:
                    new = c[:i] + (n,) + c[i + 1:]
                    if new not in seen:
                        seen[new] = seen[c] + 1
                        queue.append(new)
    return None


def random_map(rng: random.Random) -> list[str]:
    """A small room with walls dotted in and pockets one tile wide cut into its border."""
    w, h = rng.randint(2, 4), rng.randint(2, 3)
    rows = [["#"] * (w + 6) for _ in range(h + 2)]
    for y in range(1, h + 1):
        for x in range(5, w + 5):
            rows[y][x] = "." if rng.random() > 0.15 else "#"
    for _ in range(rng.randint(0, 2)):  # pockets going left from the room, 1 to 4 deep
        y = rng.randint(1, h)
        for x in range(5 - rng.randint(1, 4), 5):
            rows[y][x] = "."
    return ["".join(r) for r in rows]


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 3), loose=st.booleans())
def test_the_plan_has_the_fewest_moves_and_none_is_found_where_none_exists(seed, count, loose):
    rng = random.Random(seed)
    rows = random_map(rng)
    tiles, adjacent, _ = grid(rows)
    if len(tiles) < count + 1:
        return
    starts = rng.sample(range(len(tiles)), count)
    pocket = [k for k, (x, _) in enumerate(tiles) if x < 5]  # goals in the pockets, mostly: wrong ways round
    goals = rng.sample(pocket, count) if len(pocket) >= count and rng.random() < 0.7 else \
        rng.sample(range(len(tiles)), count)
    free = [0] if loose and count > 1 else []
    best = fewest_moves(adjacent, starts, goals, free)
    found = run_to_end(reachable_steps(starts, goals, adjacent, 10**7, free))
    assert found.answer is (best is not None), rows
    if best is None:
        return
    assert len(found.moves) == best
    config = list(starts)
    for agent, frm, to in found.moves:  # one at a time, into a free neighbouring node
        assert config[agent] == frm and to in adjacent[frm] and to not in config
        config[agent] = to
    assert all(config[i] == goals[i] for i in range(count) if i not in free)
    ticks = schedule(starts, found.moves)
    assert list(ticks[-1]) == config


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 3))
def test_the_estimate_never_exceeds_the_fewest_moves(seed, count):
    """What the search is led by (goal distances, and in pockets a unit in the way leaving and
    coming back) is a lower bound: checked against the breadth-first search here from every
    configuration the start and goals of a random pocketed map give, mostly with goals deep in
    pockets and units in them."""
    rng = random.Random(seed)
    rows = random_map(rng)
    tiles, adjacent, _ = grid(rows)
    pocket = [k for k, (x, _) in enumerate(tiles) if x < 5]
    if len(tiles) < count + 1 or len(pocket) < count:
        return
    goals = rng.sample(pocket, count)
    for _ in range(5):
        config = rng.sample(pocket if rng.random() < 0.5 and len(pocket) >= count else range(len(tiles)), count)
        best = fewest_moves(adjacent, config, goals)
        bound = moves_at_least(config, goals, adjacent)
        assert (bound is None) == (best is None and bound is None) or best is None, (rows, config, goals)
        if best is not None:
            assert bound is not None and bound <= best, (rows, config, goals, bound, best)


POCKET = ["################",
          "#........#######",
          "#........#######",
          "#..............#",
          "#........#######",
          "################"]


@pytest.mark.parametrize("inside,goals", [
    ([(11, 3), (13, 3), (12, 3)], [(14, 3), (13, 3), (12, 3)]),  # the deepest goal's unit shut out by two
    ([(11, 3), (13, 3), (12, 3), (10, 3)], [(14, 3), (13, 3), (12, 3), (11, 3)]),
    ([(12, 3), (13, 3), (14, 3), (2, 2)], [(13, 3), (14, 3), (11, 3), (5, 4)]),
    # five tanks as a jam under pinter left them: one on its goal shut in by one sent deeper, so
    # all three in front of it must leave too (counting only those two: a million successors)
    ([(12, 3), (11, 3), (13, 3), (8, 3), (10, 3)], [(14, 3), (12, 3), (13, 3), (10, 3), (11, 3)]),
])
def test_units_in_a_pocket_in_the_wrong_order_are_planned_out_and_in_again_within_the_worlds_budget(inside, goals):
    """Units in a dead end one tile wide, each goal deeper than where a unit sent further in can
    get: they must back out and come in again. The sum of goal distances alone let the search
    look at over a million successors for four such units (beyond ``PROOF_WORK``, so the units
    gave up); counting that a unit in the way must leave the pocket and come back, it finds the
    fewest moves within the world's budget."""
    _, adjacent, node = grid(POCKET)
    starts, ends = [node[t] for t in inside], [node[t] for t in goals]
    found = run_to_end(reachable_steps(starts, ends, adjacent, coordinated.PROOF_WORK))
    assert found.answer is True
    config = list(starts)
    for agent, frm, to in found.moves:
        assert config[agent] == frm and to in adjacent[frm] and to not in config
        config[agent] = to
    assert config == ends
    if len(starts) <= 3:
        assert len(found.moves) == fewest_moves(adjacent, starts, ends)


def test_a_goal_its_agent_cannot_reach_is_no_plan_at_once():
    _, adjacent, node = grid(["#####", "#.#.#", "#####"])
    found = run_to_end(reachable_steps([node[(1, 1)]], [node[(3, 1)]], adjacent, 10))
    assert found.answer is False
