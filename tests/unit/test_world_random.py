"""Random small scenarios of every kind, run as a user would (``load_scenario``,
``run_scenario``) and checked from the outside with ``worldcheck``: no body in a wall, no
trajectory over its unit's limits, no two bodies overlapping by more than 0.05 tile under a
method that avoids, and the same run twice from the same file. The generator is this file's own
(rooms and passages, corridors with bays, fields of blocks, open ground; every kind of unit and
order; fog and the world's budgets on some), seeded, so a failure names the seed to replay."""

import json
import math
import random

import pytest

from arcstar.world import load_scenario, run_scenario
from worldcheck import check_trajectory, deepest_overlap

METHODS = ("none", "pinter", "claimed", "cooperative")


def random_map(rng: random.Random) -> list[str]:
    """Rows of a small map: two rooms joined by one or two passages, a corridor one or two
    wide with bays, a field of 3 x 3 blocks, or open ground with scattered walls."""
    kind = rng.choice(("rooms", "corridor", "field", "open"))
    if kind == "rooms":
        wa, wb, h, thick = rng.randint(4, 8), rng.randint(4, 8), rng.randint(4, 8), rng.randint(1, 3)
        w = wa + wb + thick + 2
        g = [["#"] * w for _ in range(h + 2)]
        for y in range(1, h + 1):
            for x in [*range(1, wa + 1), *range(wa + 1 + thick, w - 1)]:
                g[y][x] = "."
        for _ in range(rng.choice((1, 1, 2))):
            row = rng.randint(1, h)
            for x in range(wa + 1, wa + 1 + thick):
                g[row][x] = "."
    elif kind == "corridor":
        length, wide = rng.randint(6, 14), rng.choice((1, 2))
        w, h = length + 8, wide + 4
        g = [["#"] * w for _ in range(h)]
        for y in range(1, h - 1):
            for x in (1, 2, 3, w - 4, w - 3, w - 2):
                g[y][x] = "."
        for y in range(2, 2 + wide):
            for x in range(1, w - 1):
                g[y][x] = "."
        for _ in range(rng.randint(1, 2)):
            g[1][rng.randint(5, w - 6)] = "."
    elif kind == "field":
        w, h = rng.randint(14, 24), rng.randint(12, 20)
        g = [["."] * w for _ in range(h)]
        for _ in range(rng.randint(2, 6)):
            x, y = rng.randrange(w - 3), rng.randrange(h - 3)
            for dy in range(3):
                g[y + dy][x:x + 3] = ["#"] * 3
    else:
        w, h = rng.randint(10, 20), rng.randint(8, 14)
        g = [["."] * w for _ in range(h)]
        for _ in range(w * h // 12):
            g[rng.randrange(h)][rng.randrange(w)] = "#"
    return ["".join(r) for r in g]


def random_unit(rng: random.Random, uid: str, start, goal, other) -> dict:
    """A unit of a random kind (or the issue's example fields, the defaults, a body of its own)
    with a move, the nearest of two targets, a patrol, or a move cut short by timed orders."""
    unit: dict = {"id": uid, "start": [start[0] + 0.5, start[1] + 0.5, rng.uniform(-math.pi, math.pi)]}
    pick = rng.random()
    if pick < 0.4:
        unit["kind"] = rng.choice(("person", "person", "tank", "car"))
    elif pick < 0.6:
        unit.update(width=0.8, radius=0.5, speed=2.0)
    elif pick < 0.8:
        unit.update(width=round(rng.uniform(0.2, 0.95), 2), radius=round(rng.uniform(0.3, 2.0), 2),
                    speed=round(rng.uniform(0.8, 3.0), 2), can_reverse=rng.random() < 0.5)
    g, o = [goal[0] + 0.5, goal[1] + 0.5], [other[0] + 0.5, other[1] + 0.5]
    order = rng.random()
    if order < 0.6:
        unit["goal"] = g
    elif order < 0.75:
        unit["targets"] = [g, o]
    elif order < 0.85:
        unit["patrol"] = [g]
    else:
        unit["orders"] = [{"type": "move", "goal": g}, {"type": "stop", "at": round(rng.uniform(2.0, 8.0), 1)},
                          {"type": "move", "goal": o, "at": round(rng.uniform(9.0, 15.0), 1)}]
    return unit


def random_scenario(seed: int) -> dict:
    rng = random.Random(seed)
    rows = random_map(rng)
    free = [(x, y) for y, r in enumerate(rows) for x, c in enumerate(r) if c == "."]
    n = min(rng.randint(2, 8), len(free) // 3)
    starts, goals, others = rng.sample(free, n), rng.sample(free, n), rng.sample(free, n)
    doc = {"map": rows, "seed": rng.randint(1, 99), "duration": 40.0, "avoidance": METHODS[seed % 4],
           "units": [random_unit(rng, f"u{i}", s, g, o) for i, (s, g, o) in enumerate(zip(starts, goals, others))]}
    if rng.random() < 0.2:
        doc["fog"] = True
    if rng.random() < 0.25:
        doc["plan_work"], doc["route_work"] = 2000, 300
    return doc


@pytest.mark.parametrize("seed", range(64))
def test_random_scenarios_drive_legally_apart_and_the_same_twice(seed):
    text = json.dumps(random_scenario(seed))
    scenario = load_scenario(text)
    world = scenario.world
    specs = {u.spec.id: u.spec for u in world.units}
    blocked = world.map.blocked.copy()
    out = run_scenario(scenario, digits=None)
    assert json.dumps(run_scenario(load_scenario(text), digits=None)) == json.dumps(out)
    runs, widths = [], []
    for u in out["units"]:
        spec = specs[u["id"]]
        check_trajectory(u["samples"], world.dt, spec.speed, spec.accel_rate, spec.brake_rate, blocked, spec.width,
                         radius=spec.radius)
        runs.append(u["samples"])
        widths.append(spec.width)
    if world.avoidance.value != "none":
        assert deepest_overlap(runs, widths) <= 0.05
