"""Scenario presets: the proof scenarios of the world (head-on in a corridor with a passing bay,
a crossing at a junction, a crowd through a door, two groups swapping through a corridor, a dead
end hidden by fog) and a crowd for timing, as scenario documents (the README's "Worlds" format).

Each is a function with its sizes as parameters, so tests, benchmarks and the lab take the same
scenes and can vary them. Positions are tile centres (+0.5); headings radians (0 = east,
pi/2 = south). Every document passes ``read_scenario``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

Doc = dict[str, Any]

EAST, SOUTH, WEST, NORTH = 0.0, math.pi / 2, math.pi, -math.pi / 2


def _doc(rows: list[str], units: list[Doc], avoidance: str, duration: float, seed: int = 1,
         **extra: Any) -> Doc:
    return {"map": rows, "seed": seed, "duration": duration, "avoidance": avoidance, "units": units, **extra}


def _c(x: int, y: int) -> tuple[float, float]:
    return x + 0.5, y + 0.5


def corridor_bay(length: int = 15, avoidance: str = "pinter", kind: str = "tank") -> Doc:
    """Two units head-on in a one-tile corridor ``length`` tiles long with a one-tile passing bay
    (a notch below the corridor) at its middle."""
    if length < 5:
        raise ValueError("corridor_bay needs length >= 5")
    bay = length // 2
    rows = ["#" * (length + 2),
            "#" + "." * length + "#",
            "#" * (bay + 1) + "." + "#" * (length - bay),
            "#" * (length + 2)]
    a, b = _c(1, 1), _c(length, 1)
    units = [{"id": "a", "kind": kind, "start": [*a, EAST], "goal": list(b)},
             {"id": "b", "kind": kind, "start": [*b, WEST], "goal": list(a)}]
    return _doc(rows, units, avoidance, 60.0)


def junction(arm: int = 6, avoidance: str = "pinter", kind: str = "car") -> Doc:
    """Two units crossing at a plus-shaped junction of one-tile roads, ``arm`` tiles each way,
    timed to reach the centre together."""
    n = 2 * arm + 1
    rows = []
    for y in range(n):
        rows.append("".join("." if x == arm or y == arm else "#" for x in range(n)))
    rows = ["#" * (n + 2)] + ["#" + r + "#" for r in rows] + ["#" * (n + 2)]
    m = arm + 1
    units = [{"id": "east", "kind": kind, "start": [*_c(1, m), EAST], "goal": list(_c(n, m))},
             {"id": "south", "kind": kind, "start": [*_c(m, 1), SOUTH], "goal": list(_c(m, n))}]
    return _doc(rows, units, avoidance, 60.0)


def door(count: int = 20, avoidance: str = "pinter", kind: str = "person", room: int = 8,
         seed: int = 1, unit: dict[str, Any] | None = None) -> Doc:
    """``count`` units in a room ``room`` x ``room`` tiles, each sent to its own tile in a second
    room through a one-tile door in the wall between them; ``unit``: the fields every unit has
    instead of ``kind``'s preset (as in a scenario file, e.g. the issue's example unit
    ``{"width": 0.8, "radius": 0.5, "speed": 2.0}``)."""
    if count > room * room // 2:
        raise ValueError("door: too many units for the rooms")
    w = 2 * room + 3
    rows = ["#" * w]
    mid = room // 2 + 1
    for y in range(1, room + 1):
        rows.append("#" + "." * room + ("." if y == mid else "#") + "." * room + "#")
    rows.append("#" * w)
    rng = random.Random(seed)
    left = [(x, y) for y in range(1, room + 1) for x in range(1, room + 1)]
    right = [(x + room + 1, y) for x, y in left]
    starts = rng.sample(left, count)
    goals = rng.sample(right, count)
    fields = {"kind": kind} if unit is None else dict(unit)
    units = [{"id": f"u{i}", **fields, "start": [*_c(*s), EAST], "goal": list(_c(*g))}
             for i, (s, g) in enumerate(zip(starts, goals))]
    return _doc(rows, units, avoidance, 180.0, seed=seed)


def group_swap(count: int = 10, avoidance: str = "pinter", kind: str = "person", corridor: int = 2,
               length: int = 10) -> Doc:
    """Two groups of ``count`` in rooms at either end of a corridor ``corridor`` tiles wide and
    ``length`` long swap rooms: each unit goes to the mirror of its start."""
    side = max(4, math.ceil(math.sqrt(2 * count)) + 1)
    h = max(side, corridor) + 2
    top = 1 + (h - 2 - corridor) // 2
    rows = []
    for y in range(h):
        if y in (0, h - 1):
            rows.append("#" * (2 * side + length + 2))
            continue
        hall = "." * length if top <= y < top + corridor else "#" * length
        rows.append("#" + "." * side + hall + "." * side + "#")
    room = [(x, y) for x in range(1, side + 1) for y in range(1, h - 1)]
    room.sort(key=lambda p: (-p[0], abs(p[1] - (top + corridor / 2))))  # nearest the corridor first
    w = 2 * side + length + 2
    units = []
    for i, (x, y) in enumerate(room[:count]):
        mx = w - 1 - x
        units.append({"id": f"l{i}", "kind": kind, "team": "left", "start": [*_c(x, y), EAST],
                      "goal": list(_c(mx, y))})
        units.append({"id": f"r{i}", "kind": kind, "team": "right", "start": [*_c(mx, y), WEST],
                      "goal": list(_c(x, y))})
    return _doc(rows, units, avoidance, 240.0)


def fog_dead_end(avoidance: str = "none", kind: str = "person") -> Doc:
    """One unit in fog, in a room whose only way out is at its bottom left: on a map taken as open
    where unknown, its way east to the goal runs into the room's east wall, which it sees only
    when within its sight (4 tiles); it must discover it and go round by the top corridor."""
    rows = ["####################",
            "#..................#",
            "#.################.#",
            "#.#..............#.#",
            "#.#..............#.#",
            "#.#..............#.#",
            "#.#..............#.#",
            "#................#.#",
            "####################"]
    units = [{"id": "scout", "kind": kind, "team": "blue", "sight": 4.0, "start": [*_c(4, 4), EAST],
              "goal": list(_c(18, 5))}]
    return _doc(rows, units, avoidance, 120.0, fog=True)


def crowd(count: int = 100, size: int = 128, avoidance: str = "pinter", seed: int = 7,
          density: float = 0.12) -> Doc:
    """``count`` units with random starts and goals on a ``size`` x ``size`` map of scattered
    wall blocks (``density`` of the map): the timing scene for world ticks."""
    rng = random.Random(seed)
    grid = [["."] * size for _ in range(size)]
    blocks = int(size * size * density / 9)
    for _ in range(blocks):
        bx, by = rng.randrange(1, size - 4), rng.randrange(1, size - 4)
        for y in range(by, by + 3):
            for x in range(bx, bx + 3):
                grid[y][x] = "#"
    for i in range(size):
        grid[0][i] = grid[size - 1][i] = grid[i][0] = grid[i][size - 1] = "#"
    free = [(x, y) for y in range(1, size - 1) for x in range(1, size - 1) if grid[y][x] == "."]
    picks = rng.sample(free, 2 * count)
    kinds = ("person", "tank", "car")
    units = [{"id": f"u{i}", "kind": kinds[i % 3], "start": [*_c(*picks[2 * i]), rng.uniform(-math.pi, math.pi)],
              "goal": list(_c(*picks[2 * i + 1]))} for i in range(count)]
    return _doc(["".join(r) for r in grid], units, avoidance, 120.0, seed=seed)


#: The presets by name, as the lab and the benchmarks list them.
PRESETS: dict[str, Callable[..., Doc]] = {
    "corridor_bay": corridor_bay,
    "junction": junction,
    "door": door,
    "group_swap": group_swap,
    "fog_dead_end": fog_dead_end,
    "crowd": crowd,
}
