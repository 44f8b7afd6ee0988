"""The issue's door criterion on doors no preset draws (``world_doors``): two rooms of random
sizes side by side, a passage 1 to 3 tiles long and one tile wide between them at a random
row, 20 units at random starts (random headings) in one room sent to random tiles of the
other, for the issue's example unit, ``UnitSpec``'s defaults (the unit of a file that gives
no fields) and people; every avoidance method that avoids. A generator of its own, with fixed
seeds, so that a change is measured on the same doors every run, and on doors the tests and
the presets were never tuned on.
"""

from __future__ import annotations

import math
import random
from typing import Any

from bench.common import Context, SectionResult, Table, fmt_ms
from bench.sections_world import fmt_overlap, fmt_s, fmt_stuck, proof_check

#: The units tried at each door: the issue's example file's fields, none (``UnitSpec``'s
#: defaults: turning radius 1.0, pivots at 2 rad/s), and the person kind.
UNITS: dict[str, dict[str, Any]] = {"example": {"width": 0.8, "radius": 0.5, "speed": 2.0}, "default": {},
                                    "person": {"kind": "person"}}
#: How many doors (generator seeds 1000 on), and how many with --quick.
DOORS, QUICK_DOORS = 10, 2
#: Units through each door (fewer where a room is smaller).
COUNT = 20


def door(seed: int, unit: dict[str, Any], count: int = COUNT) -> tuple[dict[str, Any], str]:
    """A scenario document for door ``seed`` with ``unit``'s fields on every unit, and a name
    saying its rooms (width x height), passage length, room B's drop and the passage's row."""
    rng = random.Random(seed)
    wa, ha, wb, hb = (rng.randint(6, 12) for _ in range(4))
    long = rng.choice([1, 1, 2, 3])
    drop = rng.randint(0, 3)  # room B's top row below room A's
    height, width = max(ha, hb + drop) + 2, wa + wb + long + 2
    grid = [["#"] * width for _ in range(height)]
    bx = wa + 1 + long
    a = [(x, y) for y in range(1, ha + 1) for x in range(1, wa + 1)]
    b = [(x, y) for y in range(1 + drop, hb + drop + 1) for x in range(bx, bx + wb)]
    for x, y in a + b:
        grid[y][x] = "."
    row = rng.randint(1 + drop, min(ha, hb + drop))
    for x in range(wa + 1, bx):
        grid[row][x] = "."
    count = min(count, len(a), len(b))
    starts, goals = rng.sample(a, count), rng.sample(b, count)
    units = [{"id": f"u{i}", "start": [s[0] + 0.5, s[1] + 0.5, rng.uniform(-math.pi, math.pi)],
              "goal": [g[0] + 0.5, g[1] + 0.5], **unit} for i, (s, g) in enumerate(zip(starts, goals, strict=True))]
    name = f"A {wa}x{ha}, B {wb}x{hb}, passage {long}, drop {drop}, row {row}"
    return {"map": ["".join(r) for r in grid], "units": units, "duration": 300.0, "seed": 1}, name


def world_doors(ctx: Context, methods: list[str] | None = None) -> SectionResult:
    """The proof criteria (all arrive, no overlap over 0.05 tile, nobody stuck over 10 s) on
    ``DOORS`` generated doors per unit and avoidance method but ``none``."""
    from bench import world_bench

    res = SectionResult("world_doors", "The door criterion on generated doors (random rooms, passages, rows, starts "
                        "and goals), on CPython")
    built = [m for m in (methods or ctx.methods or world_bench.built_methods()) if m != "none"]
    seeds = range(1000, 1000 + (QUICK_DOORS if ctx.quick else DOORS))
    rows: list[list[Any]] = []
    met: dict[tuple[str, str], list[int]] = {}
    data: list[dict[str, Any]] = []
    for seed in seeds:
        for uname, unit in UNITS.items():
            doc, name = door(seed, unit)
            for method in built:
                ctx.log(f"door {seed} {uname} {method}")
                r = world_bench.run_scenario_timed(dict(doc, avoidance=method), 60.0 if ctx.quick else 300.0)
                m = r["metrics"]
                proof = proof_check(m) if not r.get("failed") else "**no**: failed"
                tally = met.setdefault((method, uname), [0, 0])
                tally[0] += proof == "yes"
                tally[1] += 1
                rows.append([seed, name, uname, method, f"{m['arrived']}/{m['units']}", fmt_s(m["makespan"]),
                             fmt_overlap(m), fmt_stuck(m), f"{fmt_ms(r['median_ms'])} / {fmt_ms(r['max_ms'])}", proof])
                data.append({"door": seed, "unit": uname, "method": method, **r})
    res.tables.append(Table("Criteria met per avoidance method and unit",
                            ["avoidance", *UNITS], [[method, *(f"{met[(method, u)][0]}/{met[(method, u)][1]}"
                                                               for u in UNITS)] for method in built]))
    res.tables.append(Table("Each door", ["door", "rooms", "unit", "avoidance", "arrived", "makespan s",
                                          "deepest overlap", "longest stuck s", "ms/tick: median / worst", "proof"],
                            rows))
    res.notes += [f"doors: `bench/sections_world_doors.door(seed)` for seeds {seeds[0]} to {seeds[-1]}: rooms A and B "
                  "6 to 12 tiles a side, A left of B, B's top 0 to 3 rows below A's, joined by a one-tile passage 1 "
                  "(most often), 2 or 3 tiles long at a random row both rooms share; 20 units on random tiles of A, "
                  "random headings, each sent to a random tile of B; 300 s of game time",
                  "units: example = the issue's example file's fields (width 0.8, radius 0.5, speed 2.0), default = "
                  "no fields (`UnitSpec`'s defaults: width 0.8, radius 1.0, speed 2.0), person = the person kind",
                  "proof: as `world_sweep`'s (all arrive, deepest overlap of bodies and walls <= 0.05 tile, nobody "
                  "stuck more than 10 s)",
                  "ms/tick: the median and the worst `World.step()` (without `plan_work`: the worst is the tick "
                  "that plans a jam's or the cooperative method's round)"]
    res.data = {"runs": data}
    return res


SECTIONS = {"world_doors": world_doors}
