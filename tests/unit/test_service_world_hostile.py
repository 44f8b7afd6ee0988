"""The worker's world requests under random and hostile sequences (a hypothesis state machine).

Units are added, removed, ordered and stepped in any order, with messages that are well formed
or not: wrong types, points in walls and off the map, unknown and repeated ids, unknown orders,
bodies dropped onto others, fields out of range, fast units that brake too weakly to see where
they stop under fog. Whatever comes, every answer is a world state or a ``bad_input`` error
naming a field (never ``internal``), a refused request changes nothing in the world, and, checked
here with code of its own: no body stands in a wall, and under every avoidance method but
``none`` no two bodies ever overlap by more than the world's tolerance.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from arcstar.service import Service
from protocol_samples import call

#: Two rooms and a door, a pillar in one (y down).
ROWS = ["############",
        "#....#.....#",
        "#....#..#..#",
        "#..........#",
        "#....#.....#",
        "#....#.....#",
        "############"]
BLOCKED = np.array([[c == "#" for c in r] for r in ROWS])
#: How deep two bodies may overlap where they are placed or as they move (tiles).
TOLERANCE = 0.05

OPEN = [(x + 0.5, y + 0.5) for y in range(BLOCKED.shape[0]) for x in range(BLOCKED.shape[1]) if not BLOCKED[y, x]]

centre = st.sampled_from(OPEN).map(list)  # an open tile's centre
coord = st.one_of(st.floats(-2.0, 14.0, allow_nan=False), st.integers(-3, 15))
junk_point = st.one_of(
    st.lists(coord, min_size=2, max_size=3),  # anywhere: in walls and off the map too
    st.sampled_from([None, "3,4", [1], [1, 2, 3, 4], {"x": 1}, [1e308, 1.0], [True, False], []]),
)
point = st.one_of(centre, centre, centre, junk_point)
bad_value = st.sampled_from([None, -1, 0, "fast", [], {}, 1e9, -0.0, True])
ids = st.integers(0, 60).map(lambda k: f"u{k}")


@st.composite
def unit_msg(draw: st.DrawFn) -> dict:
    """A unit to add: mostly a good one on an open tile, now and then with one thing wrong."""
    u: dict = {"id": draw(ids), "start": draw(centre) + [draw(st.floats(-3.0, 3.0))]}
    kind = draw(st.sampled_from(["person", "tank", "car", None]))
    if kind is not None:
        u["kind"] = kind
    if draw(st.booleans()):
        u["goal"] = draw(centre)
    hostile = draw(st.integers(0, 9))
    if hostile == 0:
        u["id"] = draw(st.sampled_from([7, "", None, "x" * 70]))
    elif hostile == 1:
        u[draw(st.sampled_from(["width", "radius", "speed", "acceleration", "braking", "turn_rate", "lateral"]))] = \
            draw(bad_value)
    elif hostile == 2:  # fast and braking weakly: under fog it cannot see where it stops
        u.update(speed=10.0, acceleration=0.1)
    elif hostile == 3:
        u["start" if draw(st.booleans()) else "goal"] = draw(junk_point)
    elif hostile == 4:
        u[draw(st.sampled_from(["colour", "hp", "__proto__"]))] = 1
    elif hostile == 5:
        u["kind"] = draw(st.sampled_from(["robot", 3, ""]))
    elif hostile == 6:
        del u["start"]
    return u


class WorldMessages(RuleBasedStateMachine):
    """One world session, requests in any order (module notes)."""

    def __init__(self) -> None:
        super().__init__()
        self.svc = Service()
        self.avoidance = "none"
        self.msg_id = 0

    @initialize(avoidance=st.sampled_from(["none", "pinter", "claimed", "cooperative"]), fog=st.booleans(),
                seed=st.integers(0, 2**31))
    def start(self, avoidance: str, fog: bool, seed: int) -> None:
        self.avoidance = avoidance
        out = self.send({"type": "world_start", "map": {"width": BLOCKED.shape[1], "height": BLOCKED.shape[0],
                                                          "version": 1},
                         "seed": seed, "avoidance": avoidance, "fog": fog}, BLOCKED.astype(np.uint8).tobytes())
        assert out["type"] == "world_state", out

    # -- the requests -----------------------------------------------------------------------
    def send(self, msg: dict, cells: object = None) -> dict:
        self.msg_id += 1
        return call(self.svc, {**msg, "id": self.msg_id}, cells)

    def units(self) -> list:
        assert self.svc.world is not None
        return self.svc.world.world.units

    def snapshot(self) -> list[tuple]:
        return [(u.spec.id, u.x, u.y, u.heading, u.speed, u.order, tuple(u.queue), u.detour) for u in self.units()]

    def change(self, msg: dict) -> None:
        """Send a change (add, remove, order): a state, or a named refusal that changed nothing."""
        before = self.snapshot()
        out = self.send(msg)
        if out["type"] == "error":
            assert out["kind"] == "bad_input", out
            assert isinstance(out["field"], str) and out["field"], out
            assert 0 < len(out["message"]) < 1000, out
            assert self.snapshot() == before, (msg, out)
        else:
            assert out["type"] == "world_state", out

    @rule(units=st.one_of(st.lists(unit_msg(), min_size=1, max_size=3), st.sampled_from([[], None, "a", [1]])))
    def add(self, units: list) -> None:
        self.change({"type": "world_add", "units": units})

    @precondition(lambda self: self.svc.world is not None and len(self.units()) > 0)
    @rule(data=st.data())
    def remove(self, data: st.DataObject) -> None:
        known = [u.spec.id for u in self.units()]
        names = data.draw(st.lists(st.one_of(st.sampled_from(known), st.sampled_from(known), ids,
                                             st.sampled_from([1, None])), max_size=3))
        self.change({"type": "world_remove", "units": names})

    @precondition(lambda self: self.svc.world is not None and len(self.units()) > 0)
    @rule(data=st.data(), kind=st.sampled_from(["move", "move", "nearest", "patrol", "stop", "dance", None]),
          points=st.one_of(st.lists(point, min_size=1, max_size=1), st.lists(point, min_size=1, max_size=1),
                           st.lists(point, min_size=2, max_size=3), st.sampled_from([None, "here", [[]]])),
          queue=st.sampled_from([False, False, True, "yes"]), spread=st.sampled_from([False, True, True, 1]))
    def order(self, data: st.DataObject, kind: object, points: object, queue: object, spread: object) -> None:
        known = [u.spec.id for u in self.units()]
        names = data.draw(st.lists(st.sampled_from(known), min_size=1, max_size=3, unique=True))
        msg = {"type": "world_order", "units": names, "order": kind, "points": points, "queue": queue,
               "spread": spread}
        self.change({k: v for k, v in msg.items() if v is not None or k == "order"})

    @rule(ticks=st.one_of(st.integers(0, 40), st.integers(1, 40), st.integers(5, 40),
                          st.sampled_from([-1, 10**9, "5", 2.5, None])))
    def step(self, ticks: object) -> None:
        out = self.send({"type": "world_step", "ticks": ticks})
        if out["type"] == "error":
            assert (out["kind"], out["field"]) == ("bad_input", "ticks"), out
        else:
            assert out["type"] == "world_state", out

    # -- what always holds ---------------------------------------------------------------------
    @invariant()
    def bodies_stay_out_of_walls(self) -> None:
        if self.svc.world is None:
            return
        h, w = BLOCKED.shape
        for u in self.units():
            r = u.spec.width / 2.0 - TOLERANCE
            for ty in range(math.floor(u.y - r), math.floor(u.y + r) + 1):
                for tx in range(math.floor(u.x - r), math.floor(u.x + r) + 1):
                    if 0 <= tx < w and 0 <= ty < h and not BLOCKED[ty, tx]:
                        continue
                    # the nearest point of that wall tile's square to the centre
                    nx, ny = min(max(u.x, tx), tx + 1), min(max(u.y, ty), ty + 1)
                    assert math.hypot(u.x - nx, u.y - ny) >= r, (u.spec.id, u.x, u.y, (tx, ty))

    @invariant()
    def bodies_keep_apart(self) -> None:
        if self.svc.world is None or self.avoidance == "none":  # without avoidance they drive through
            return
        units = self.units()
        for i, a in enumerate(units):
            for b in units[i + 1:]:
                deep = (a.spec.width + b.spec.width) / 2.0 - math.hypot(a.x - b.x, a.y - b.y)
                assert deep <= TOLERANCE + 1e-9, (a.spec.id, b.spec.id, deep)


WorldMessages.TestCase.settings = settings(max_examples=100, stateful_step_count=40, deadline=None,
                                           suppress_health_check=[HealthCheck.too_slow])
test_world_messages = WorldMessages.TestCase
