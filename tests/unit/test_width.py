"""A* for a unit of a given width: the width problem grid libraries leave open."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arcstar
from reference import check_path, disc_clear

ROOMS = """
S.................
..................
..................
###.#######...####
..................
.G................
..................
"""


def centre(t):
    return (t[0] + 0.5, t[1] + 0.5)


def test_wider_units_take_wider_gaps_or_find_none():
    loaded = arcstar.parse_ascii(ROOMS)
    m = loaded.map
    thin = arcstar.plan(m, loaded.start, loaded.goal, width=1.0, heuristic="octile")
    assert (3, 3) in thin.path  # through the one-tile gap
    goal = loaded.goal
    wide = arcstar.plan(m, (1, 1), goal, width=1.8, heuristic="octile")
    assert wide.status == "found" and (12, 3) in wide.path  # the middle of the three-tile gap
    assert wide.cost > arcstar.plan(m, (1, 1), goal, width=1.0, heuristic="octile").cost
    for r, w in ((thin, 1.0), (wide, 1.8)):
        for a, b in zip(r.path, r.path[1:]):
            assert disc_clear(m.blocked, centre(a), centre(b), w), (a, b, w)
    m2 = m.copy()
    m2.set_tile(11, 3, 1)  # narrow the wide gap to two tiles: no centre line fits a 1.8 disc
    assert arcstar.plan(m2, (1, 1), goal, width=1.8).status == "no_path"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(5, 11), st.integers(5, 11), st.lists(st.booleans(), min_size=121, max_size=121),
       st.sampled_from([0.5, 1.0, 1.4, 2.0, 2.9]), st.data())
def test_every_step_keeps_the_disc_off_the_walls(w, h, cells, width, data):
    blocked = np.array(cells[:w * h]).reshape(h, w) & (np.random.default_rng(w * h).random((h, w)) < 0.35)
    m = arcstar.TileMap.from_blocked(blocked)
    from arcstar.collision.clearance import passable_for
    fits = np.argwhere(passable_for(m, width))
    if len(fits) < 2:
        return
    (sy, sx), (gy, gx) = data.draw(st.sampled_from(fits.tolist())), data.draw(st.sampled_from(fits.tolist()))
    r = arcstar.plan(m, (sx, sy), (gx, gy), width=width, heuristic="octile")
    if r.status == "found":
        check_path(m.blocked, r.path, (sx, sy), (gx, gy))
        for a, b in zip(r.path, r.path[1:]):
            assert disc_clear(m.blocked, centre(a), centre(b), width), (a, b)
    else:
        assert r.status == "no_path"


def test_width_errors():
    m = arcstar.TileMap.empty(6, 6)
    for bad, msg in ((0, "width"), (-1, "width"), (float("nan"), "width"), ("wide", "width"), (True, "width")):
        with pytest.raises(ValueError, match=msg):
            arcstar.plan(m, (2, 2), (3, 3), width=bad)
    with pytest.raises(ValueError, match="diagonal"):
        arcstar.plan(m, (2, 2), (3, 3), width=1.0, diagonal="always")
    with pytest.raises(ValueError, match="too close to a wall"):
        arcstar.plan(m, (0, 0), (3, 3), width=2.5)
    wall = arcstar.TileMap.empty(9, 9)
    wall.terrain[:, 4] = 1
    wall.terrain[4, 4] = 0  # a one-tile door
    wall.touch()
    assert arcstar.plan(wall, (1, 4), (7, 4), width=1.0).status == "found"
    assert arcstar.plan(wall, (1, 4), (7, 4), width=1.2).status == "no_path"  # wider than every door
