"""A unit that brakes weakly (0.3 tiles/s^2 at 2 tiles/s: nearly 7 tiles to stop) among others:
the others keep out of the way it cannot stop on (``spacing._unstoppable``), give it the right
of way where it cannot stop short of a crossing, and leave it the larger share of the gap when
they meet head-on. Before, a unit ordered onto its way arrived there early and stood in it, and
the weak one drove into it (0.6 to 0.8 tile deep).

Overlaps are measured by ``worldcheck`` (not the world's code) and every trajectory is held to
its unit's limits (``test_world_avoidance.run``).
"""

from __future__ import annotations

import random

import pytest

from test_world_avoidance import overlap, run

WEAK = {"width": 0.8, "radius": 0.5, "speed": 2.0, "acceleration": 1.0, "braking": 0.3}
ROOM = ["#" * 32] + ["#" + "." * 30 + "#" for _ in range(9)] + ["#" * 32]


@pytest.mark.parametrize("method", ["pinter", "claimed", "cooperative"])
@pytest.mark.parametrize("kind", ["person", "tank", "car"])
@pytest.mark.parametrize("at", [2.0, 3.5, 5.0])
def test_a_unit_sent_onto_the_way_of_one_that_cannot_stop_waits_for_it(method, kind, at):
    """Ordered (at ``at`` s) to a place on the weak unit's line, it would get there first and
    stand in the way: it waits beside it till the weak one has gone by."""
    doc = {"map": ROOM, "seed": 1, "duration": 60, "avoidance": method, "units": [
        {"id": "w", **WEAK, "start": [1.5, 5.5, 0.0], "goal": [29.5, 5.5]},
        {"id": "p", "kind": kind, "start": [14.5, 1.5, 1.57],
         "orders": [{"type": "move", "goal": [14.5, 5.5], "at": at}]}]}
    w = run(doc)
    assert overlap(w) <= 0.05
    assert all(u.arrived is not None for u in w.units), [(u.id, u.status) for u in w.units]


@pytest.mark.parametrize("method", ["pinter", "claimed"])
@pytest.mark.parametrize("kind", ["person", "tank", "car"])
def test_head_on_with_a_unit_that_cannot_stop(method, kind):
    doc = {"map": ROOM, "seed": 2, "duration": 90, "avoidance": method, "units": [
        {"id": "w", **WEAK, "start": [1.5, 5.5, 0.0], "goal": [29.5, 5.5]},
        {"id": "p", "kind": kind, "start": [29.5, 5.5, 3.14159], "goal": [1.5, 5.5]}]}
    w = run(doc)
    assert overlap(w) <= 0.05
    assert all(u.arrived is not None for u in w.units), [(u.id, u.status) for u in w.units]


def mixed(seed: int, method: str) -> dict:
    """Twelve units on a 24x24 map of 2x2 blocks, random starts and goals: three weak ones and
    nine of random kinds (the first seeds, not picked)."""
    rng = random.Random(seed)
    n = 24
    grid = [["."] * n for _ in range(n)]
    for _ in range(12):
        bx, by = rng.randrange(1, n - 3), rng.randrange(1, n - 3)
        for y in range(by, by + 2):
            for x in range(bx, bx + 2):
                grid[y][x] = "#"
    free = [(x, y) for y in range(n) for x in range(n) if grid[y][x] == "."]
    picks = rng.sample(free, 24)
    units = []
    for i in range(12):
        u = {"id": f"u{i}", "start": [picks[2 * i][0] + .5, picks[2 * i][1] + .5, rng.uniform(-3, 3)],
             "goal": [picks[2 * i + 1][0] + .5, picks[2 * i + 1][1] + .5]}
        u.update(WEAK if i < 3 else {"kind": rng.choice(["person", "car", "tank"])})
        units.append(u)
    return {"map": ["".join(r) for r in grid], "seed": seed, "duration": 90, "avoidance": method, "units": units}


@pytest.mark.parametrize("method", ["pinter", "claimed"])
@pytest.mark.parametrize("seed", range(6))
def test_mixed_crowds_with_weak_brakes_keep_apart_and_arrive(method, seed):
    w = run(mixed(seed, method))
    assert overlap(w) <= 0.05
    assert all(u.arrived is not None for u in w.units), [(u.id, u.status) for u in w.units]
