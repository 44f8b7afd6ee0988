"""A unit of a cooperative plan planned again alone, the others driving on, where the whole
round was planned again, every unit braking and standing for it: under fog, the units whose plans
a wall learned on the way crosses (``coordinated.Cooperative._mend``); a unit given an order as it
goes (``Cooperative._reorder``). Runs checked from their samples alone (limits, walls, overlaps)
against runs without the cause; then the order a unit planned again takes on its tiles
(``tile_order.TileOrder.replace``), on hand-made plans."""

import pytest

from arcstar.world.tile_order import TileOrder
from test_world_avoidance import TOLERANCE, overlap
from test_world_avoidance import run as run_checked

#: Two lanes a wall apart. The top one (rows 1 to 4) has a wall across rows 1 to 3 at column 12
#: that nobody knows at the start, so units sent east along row 1 or 2 must go round it by row
#: 4; the bottom one (rows 6 to 8) is open end to end.
LANES = ["######################",
         "#...........#........#",
         "#...........#........#",
         "#...........#........#",
         "#....................#",
         "######################",
         "#....................#",
         "#....................#",
         "#....................#",
         "######################"]


def run(doc):
    """Run ``doc`` to its end, every trajectory checked against the true map, no two bodies
    overlapping."""
    w = run_checked(doc)
    assert overlap(w) <= TOLERANCE
    return w


def lanes(top: list[tuple[float, float]], kind: str = "person") -> dict:
    """Units of ``kind`` going east: along the top lane from ``top`` (x, y) to its far end, and
    two along the bottom lane."""
    east = sorted(top, reverse=True)  # the first on a row goes farthest: nobody passes another's goal
    units = [{"id": f"t{i}", "kind": kind, "start": [x, y, 0.0], "goal": [20.5 - 2 * east.index((x, y)), y]}
             for i, (x, y) in enumerate(top)]
    units += [{"id": f"b{i}", "kind": kind, "start": [1.5 + 3 * i, 7.5, 0.0], "goal": [17.5 + 2 * i, 7.5]}
              for i in range(2)]
    return {"map": LANES, "fog": True, "avoidance": "cooperative", "duration": 90, "seed": 1, "units": units}


@pytest.mark.parametrize("top", [[(1.5, 1.5)], [(1.5, 2.5), (2.5, 2.5), (3.5, 2.5)], [(2.5, 1.5), (1.5, 3.5)]])
@pytest.mark.parametrize("kind", ["person", "tank"])
def test_units_a_learned_wall_does_not_concern_drive_on(top, kind):
    """The units of the top lane learn the wall on their way and go round it; the two of the
    bottom lane, whose plans it does not cross, never brake for it: they arrive when they would
    with the top lane empty."""
    doc = lanes(top, kind)
    w = run(doc)
    assert all(u.arrived is not None for u in w.units), [(u.spec.id, u.status) for u in w.units]
    assert all(w.known_map(u).blocked[1:4, 12].all() for u in w.units)  # the wall was learned
    alone = run({**doc, "units": [u for u in doc["units"] if u["id"].startswith("b")]})
    for u in alone.units:
        assert w.unit(u.spec.id).arrived == pytest.approx(u.arrived), u.spec.id  # as if the others were not there

def row(x0: int, x1: int, y: int = 0) -> list[tuple[int, int]]:
    """The tiles from column x0 to x1 (either way) on row y."""
    step = 1 if x1 >= x0 else -1
    return [(x, y) for x in range(x0, x1 + step, step)]


def planned(plans: dict[str, tuple[list[tuple[int, int]], int]]) -> TileOrder:
    """A round's plans: each unit's tiles from the tick given, one a tick, every unit on its
    first tile, its goal its last."""
    order = TileOrder()
    for uid, (tiles, t0) in plans.items():
        order.add(uid, [(t, t0 + k) for k, t in enumerate(tiles)], tiles[-1], tiles[-1], {tiles[0]})
    return order


def waits(order: TileOrder, uid: str) -> dict[int, list[str]]:
    """For each visit ``uid`` has still to make, the units it would wait for there."""
    plan = order.plans[uid]
    return {k: list(order.ahead_of(uid, v)) for k, v in enumerate(plan.visits) if k > max(plan.progress, 0)}


def test_a_unit_planned_again_last_waits_for_every_unit_on_its_tiles_and_none_for_it():
    """u, on (5, 0), is planned again along row 0 to (9, 0) after every other unit: v crosses it
    at (7, 0) late in its plan, w early. u waits for both there; nobody waits for u anywhere."""
    order = planned({"u": (row(5, 9), 0), "v": ([(7, 3), (7, 2), (7, 1), (7, 0), (7, -1)], 40),
                     "w": ([(8, 1), (8, 0), (8, -1)], 0)})
    order.first[("u", "w")] = ("u", frozenset({(8, 0)}))
    order.refused["u"] = 5.0
    order.replace("u", row(5, 9), {(5, 0)}, (9, 0), (9, 0))
    assert ("u", "w") not in order.first and "u" not in order.refused
    assert order.plans["u"].visits[0] == ((5, 0), -1)
    assert [k for _t, uid, k in order.by_tile[(6, 0)]] == [1]  # its old entries are gone
    latest = max(t for entries in order.by_tile.values() for t, uid, _ in entries if uid != "u")
    assert all(t > latest for _tile, t in order.plans["u"].visits[1:])
    assert waits(order, "u") == {1: [], 2: ["v"], 3: ["w"], 4: []}
    for other in ("v", "w"):
        assert all("u" not in by for by in waits(order, other).values())
    assert order.completes(order.first)


def test_a_unit_planned_again_in_its_turn_goes_before_the_units_behind_it():
    """u, on (5, 0) and planned again along row 0 from tick 10 (where it is by the plan's
    clock), and v behind it on the same row, planned through (5, 0) at tick 12: last on every
    tile, u would wait on (6, 0) for v, which must first pass through u where it stands (a ring
    ``completes`` finds); in its turn it goes first. A tick another unit holds on a tile is
    taken one later."""
    order = planned({"u": (row(5, 9), 0), "v": (row(3, 8), 10), "w": ([(7, 1), (7, 0), (7, -1)], 11)})
    order.replace("u", row(5, 9), {(5, 0)}, (9, 0), (9, 0))
    assert waits(order, "u")[1] == ["v"]
    assert not order.completes(order.first)
    order.replace("u", row(5, 9), {(5, 0)}, (9, 0), (9, 0), at=10)
    assert order.plans["u"].visits == [((5, 0), -1), ((6, 0), 11), ((7, 0), 12 + 1), ((8, 0), 14), ((9, 0), 15)]
    # (w holds (7, 0) at tick 12)
    assert waits(order, "u") == {1: [], 2: ["w"], 3: [], 4: []}
    assert waits(order, "v")[3] == ["u"]  # v, behind, follows it onto (6, 0)
    assert order.completes(order.first)


@pytest.mark.parametrize("orders", [
    [{"type": "move", "goal": [14.5, 3.5], "at": 2.0}],  # sent elsewhere on its way
    [{"type": "move", "goal": [4.5, 1.5], "at": 7.0}],  # sent back
    [{"type": "patrol", "points": [[8.5, 2.5], [3.5, 4.5]]}],  # a leg after a leg
])
@pytest.mark.parametrize("kind", ["person", "car"])
def test_an_order_to_one_unit_does_not_stop_the_others(orders, kind):
    """Without fog, a unit of the top lane takes new orders as it goes, while the two of the
    bottom lane patrol it end to end: they drive exactly as when the top unit had only its
    first order (each order planned the round again, every unit braking for it)."""
    doc = lanes([(1.5, 1.5)], kind)
    doc.update(fog=False, map=[LANES[4] if 0 < i < 5 else r for i, r in enumerate(LANES)], duration=40)  # no wall
    for u in doc["units"][1:]:
        u["patrol"] = [[20.5 if u["id"] == "b1" else 18.5, 7.5]]  # back and forth from where it starts
        del u["goal"]
    plain = run(doc)
    doc["units"][0]["orders"] = orders
    w = run(doc)
    top = w.unit("t0")
    if orders[0]["type"] == "move":
        assert top.arrived is not None and (top.x, top.y) == pytest.approx(orders[0]["goal"][:2])
    else:  # it went round its patrol
        assert any(abs(s[1] - 3.5) < 0.01 and abs(s[2] - 4.5) < 0.01 for s in top.samples)
    assert [u.samples for u in w.units[1:]] == [u.samples for u in plain.units[1:]]


@pytest.mark.parametrize("at", [1.0, 6.0])
def test_a_unit_sent_where_another_ends_stops_beside_it_and_the_others_drive_on(at):
    """t1 is sent, as it goes, to the tile t0 is planned to end on (its own goal): it stops on a
    free tile beside it, t0 arrives, and the bottom lane drives as when t1 had its first order."""
    doc = lanes([(1.5, 1.5), (1.5, 3.5)])
    doc.update(fog=False, map=[LANES[4] if 0 < i < 5 else r for i, r in enumerate(LANES)], duration=40)
    for u in doc["units"][2:]:
        u["patrol"] = [[20.5 if u["id"] == "b1" else 18.5, 7.5]]
        del u["goal"]
    plain = run(doc)
    goal = doc["units"][0]["goal"]
    doc["units"][1]["orders"] = [{"type": "move", "goal": goal, "at": at}]
    w = run(doc)
    t0, t1 = w.unit("t0"), w.unit("t1")
    assert t0.arrived is not None and (t0.x, t0.y) == pytest.approx(goal)
    assert t1.status.startswith("stopped") and abs(t1.x - goal[0]) + abs(t1.y - goal[1]) == pytest.approx(1.0)
    assert [u.samples for u in w.units[2:]] == [u.samples for u in plain.units[2:]]
