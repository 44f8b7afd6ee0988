"""Where a cooperative round's units start (``world.starts``): the ways a unit settles to its
tile's centre by, each with how far it keeps off the bodies standing round it, checked against
every body with geometry written here."""

import math
import random

from arcstar.collision.swept import swept_line_clear
from arcstar.world import presets, read_scenario
from arcstar.world.spacing import MARGIN
from arcstar.world.starts import ways_to


def seg_clearance(p, a, b, reach):
    """How far a disc at ``p`` keeps off the segment a-b, less ``reach``."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    f = 0.0 if n == 0 else min(1.0, max(0.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / n))
    return math.hypot(p[0] - ax - f * dx, p[1] - ay - f * dy) - reach


def test_a_units_ways_to_its_tile_centre_keep_off_every_body_as_they_say():
    """In a crowd moved a few seconds (bodies off their centres, pressed together), each unit's
    ways to its own tile's centre and to a neighbour's: the corners and the wall test as the
    docstring says, and each way's clearance the least over every other body of every leg (at
    most MARGIN), whichever bodies the function looked at."""
    w = read_scenario(presets.crowd(count=100, size=32, avoidance="none", seed=3)).world
    for _ in range(30):
        w.step()
    rng = random.Random(2)
    checked = 0
    for u in w.units:
        tx, ty = math.floor(u.x), math.floor(u.y)
        for end in ((tx + 0.5, ty + 0.5), (tx + rng.choice((-0.5, 1.5)), ty + 0.5)):
            got = ways_to(w, u, end)
            here = (u.x, u.y)
            across, along = (here[0], end[1]), (end[0], here[1])
            first, second = (across, along) if abs(here[1] - end[1]) >= abs(here[0] - end[0]) else (along, across)
            want = []
            for way in ([here, first, end], [here, second, end], [here, end]):
                pts = [p for i, p in enumerate(way) if i == 0 or math.dist(p, way[i - 1]) > 1e-9]
                legs = list(zip(pts, pts[1:]))
                if all(swept_line_clear(w.map, a, b, u.spec.width) for a, b in legs):
                    c = min([MARGIN] + [seg_clearance((v.x, v.y), a, b, (u.spec.width + v.spec.width) / 2.0)
                                        for v in w.units if v is not u for a, b in legs])
                    want.append((c, pts))
            assert [p for _, p in got] == [p for _, p in want]
            assert all(math.isclose(g, c, abs_tol=1e-9) for (g, _), (c, _) in zip(got, want, strict=True))
            checked += sum(c < MARGIN for c, _ in want)
    assert checked > 20  # ways that pass near a body, not only open ground
