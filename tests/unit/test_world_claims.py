"""Pinter's claims (``arcstar.world.claims``) against a reference written plainly here: each
point of a unit's way ahead within reach, its body's tiles, each tile's window the least and
greatest time a point covers it; and which units' claims collide."""

import math

import pytest

from arcstar.world import presets, read_scenario
from arcstar.world.claims import HORIZON, SLACK, claims


def reference(u):
    """The tiles unit ``u`` claims and their windows (s from now), point by point."""
    r = u.spec.width / 2.0 - 1e-9

    def body(x, y):
        return {(tx, ty) for tx in range(math.floor(x - r), math.floor(x + r) + 1)
                for ty in range(math.floor(y - r), math.floor(y + r) + 1)}

    m = u.mover
    if m is None:
        return {t: (0.0, math.inf) for t in body(u.x, u.y)}
    stand = HORIZON if m.v == 0.0 else 0.0
    out = {t: (0.0, stand) for t in body(u.x, u.y)}
    v = max(abs(m.v), 0.5 * u.spec.speed)
    reach = min(u.spec.speed * HORIZON, abs(m.v) * HORIZON + 0.5 * m.accel_rate * HORIZON ** 2)
    dist, xy = m.points()
    ahead = [k for k in range(len(dist)) if dist[k] > m.s]
    if ahead:
        last = max([k for k in range(len(dist)) if dist[k] <= m.s + reach] + [ahead[0] - 1]) + 1
        for k in range(ahead[0], min(last + 1, len(dist)), 2):
            when = min((float(dist[k]) - m.s) / v, HORIZON)
            for t in body(float(xy[k, 0]), float(xy[k, 1])):
                a, b = out.get(t, (when, when))
                out[t] = (min(a, when), max(b, when))
    return out


def collide(units, windows):
    hits = {}
    for i, u in enumerate(units):
        for j in range(i + 1, len(units)):
            v = units[j]
            for t, (a1, b1) in windows[i].items():
                ab = windows[j].get(t)
                if ab is not None and a1 <= ab[1] + SLACK and ab[0] <= b1 + SLACK:
                    hits.setdefault(u.spec.id, set()).add(v.spec.id)
                    hits.setdefault(v.spec.id, set()).add(u.spec.id)
                    break
    return hits


@pytest.mark.parametrize("doc", [presets.crowd(60, seed=4), presets.door(count=20), presets.group_swap(count=10),
                                 presets.corridor_bay(kind="car")], ids=["crowd", "door", "swap", "corridor"])
def test_claims_match_a_point_by_point_reference_as_units_move(doc):
    doc["avoidance"] = "none"
    w = read_scenario(doc).world
    looked = 0
    for tick in range(160):
        w.step()
        if tick % 10:
            continue
        tiles, hits = claims(w.units)
        windows = [reference(u) for u in w.units]
        assert tiles == [frozenset(x) for x in windows]
        assert hits == collide(w.units, windows)
        looked += 1
    assert looked == 16


def test_units_head_on_in_a_corridor_collide_and_units_far_apart_do_not():
    rows = ["#" * 24, "#" + "." * 22 + "#", "#" * 24, "#" + "." * 22 + "#", "#" * 24]
    unit = {"width": 0.8, "radius": 0.5, "speed": 2.0}
    doc = {"map": rows, "seed": 1, "duration": 30, "units": [
        {"id": "a", **unit, "start": [2.5, 1.5, 0.0], "goal": [21.5, 1.5]},
        {"id": "b", **unit, "start": [8.5, 1.5, math.pi], "goal": [1.5, 1.5]},
        {"id": "c", **unit, "start": [2.5, 3.5, 0.0], "goal": [21.5, 3.5]}]}
    w = read_scenario(doc).world
    for _ in range(20):  # 1 s: a and b close at up to 4 tiles/s, 6 tiles apart
        w.step()
    tiles, hits = claims(w.units)
    assert hits == {"a": {"b"}, "b": {"a"}}
    assert all(t[1] == 3 for t in tiles[2])  # c's lane only


def test_no_units_claim_nothing_and_an_idle_unit_holds_its_tiles():
    assert claims([]) == ([], {})
    doc = {"map": ["#####", "#...#", "#...#", "#####"], "units": [
        {"id": "a", "start": [1.3, 1.5, 0.0], "width": 0.5, "radius": 0.5, "speed": 1.0},
        {"id": "b", "start": [2.1, 1.5, 0.0], "goal": [2.1, 2.5], "width": 0.5, "radius": 0.5, "speed": 1.0}]}
    w = read_scenario(doc).world
    w.step()
    tiles, hits = claims(w.units)
    assert tiles[0] == {(1, 1)}
    assert hits == {"a": {"b"}, "b": {"a"}}  # b's body reaches into a's tile now: a holds it for good
