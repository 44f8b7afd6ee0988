"""``spacing.room`` checks only the units that could touch a unit's way ahead (a distance and a
bounding-box test first, for speed). These tests hold it to the same check run over every other
unit with nothing skipped, on crowds in motion: skipping must never change the answer."""

import math
import random
from bisect import bisect_right
from collections.abc import Iterator

import numpy as np
import pytest

import arcstar
from arcstar.geometry.primitives import Line, Path, Pose
from arcstar.world import Avoidance, Mover, World, presets, read_scenario, spacing, unit_of_kind


def standing_over_all(u, others, near, dt, dist, xy, i0, i1, i2, standoff):
    """The body check, every point of the way against every other unit, in numpy: the first
    point closer to a body than their radii and MARGIN (plus STANDOFF against a unit driving at
    u through where it stands) and closer than it is now; half the gap to a unit coming at it,
    which is looked for a stopping distance further (points up to ``i2``, else ``i1``)."""
    best, who = math.inf, None
    for j in others:
        towards = spacing.approaching(j, u.x, u.y)
        ahead = xy[i0:(i2 if towards else i1) + 1]
        d = np.hypot(ahead[:, 0] - j.x, ahead[:, 1] - j.y)
        clear = u.spec.width / 2.0 + j.spec.width / 2.0 + spacing.MARGIN
        way = spacing.ahead_of(j, dt)
        if standoff and towards and u.gives_way_to != j.spec.id and (d < clear + spacing.STANDOFF).any() \
                and way is not None and (np.hypot(way[1][:, 0] - u.x, way[1][:, 1] - u.y) < clear).any():
            clear += spacing.STANDOFF
        hit = np.flatnonzero(d < min(clear, math.hypot(j.x - u.x, j.y - u.y) - 1e-9))
        if len(hit):
            gap = max(0.0, float(dist[i0 + hit[0]]) - u.mover.s - spacing.SPACING)
            gap = gap / 2.0 if towards else gap
            if gap < best:
                best, who = gap, j
    return best, who


def weak_over_all(j):
    """Whether j brakes weakly: at its top speed it needs more to stop than it drives in WINDOW."""
    return j.spec.speed ** 2 / (2.0 * j.mover.brake_rate) > j.spec.speed * spacing.WINDOW


def unstoppable_over_all(u, j, way, ahead, clear):
    """The weak-brakes check, in numpy: for a weakly braking j, the first of u's points within
    ``clear`` of any point of j's way ahead (no deeper than u is now if u is within it); None
    else."""
    if way is None or not weak_over_all(j):
        return None
    jxy = way[1]
    now = float(np.hypot(jxy[:, 0] - u.x, jxy[:, 1] - u.y).min())
    limit = clear if now >= clear else now - 1e-9
    d = np.hypot(ahead[:, 0][:, None] - jxy[:, 0], ahead[:, 1][:, None] - jxy[:, 1]).min(axis=1)
    hit = np.flatnonzero(d < limit)
    return int(hit[0]) if len(hit) else None


def crossing_over_all(u, j, way, longer, ahead, dists, times, clear, turns):
    """The crossing check, every point of u's way against every point of j's (both out to
    ``far_of``), in numpy: the first of u's points within ``clear`` of one of j's that the two
    get to within WINDOW s of each other (``dists``: how far along u's way its points lie), if j
    goes first: j gets to the first place they share first (ties: the lower id), unless the
    unit that makes second cannot stop short of it (its stopping distance over the way to it
    less SPACING); then the turn settled before (``turns``) stands, or, none settled, the other
    goes second if it can stop. Then the first
    such point against j's way read a stopping distance of u's further (``longer``), if that
    comes sooner. None if j does not go first (and when j is behind u in its lane, less than
    ``clear`` to its side, going its way, unless j brakes weakly; behind and ways as the units
    move, a unit backing up the way its tail faces)."""
    # the ways the two move: backing up, a unit moves the way its tail faces
    ug, jg = u.mover.gear, j.mover.gear
    forward, rel = ug * np.array([math.cos(u.heading), math.sin(u.heading)]), np.array([j.x - u.x, j.y - u.y])
    along, across = float(forward @ rel), float(forward[0] * rel[1] - forward[1] * rel[0])
    if along < 0.0 and abs(across) < clear and ug * jg * math.cos(u.heading - j.heading) > 0.0 and not weak_over_all(j):
        return None
    if way is None:
        return None
    _, jxy, jtimes = way
    d = np.hypot(ahead[:, 0][:, None] - jxy[:, 0], ahead[:, 1][:, None] - jxy[:, 1])
    meet = (d < clear) & (np.abs(times[:, None] - jtimes[None, :]) < spacing.WINDOW)
    if not meet.any():
        return None
    k = int(np.flatnonzero(meet.any(axis=1))[0])
    at = int(np.flatnonzero(meet.any(axis=0))[0])
    first = j.spec.id if (float(jtimes[at]), j.spec.id) < (float(times[k]), u.spec.id) else u.spec.id
    u_stops = float(dists[k]) - u.mover.s - spacing.SPACING >= u.mover.stopping_distance()
    j_stops = float(way[0][at]) - j.mover.s - spacing.SPACING >= j.mover.stopping_distance()
    if not (j_stops if first == u.spec.id else u_stops):
        was = turns.get(tuple(sorted((u.spec.id, j.spec.id))))
        if was is not None:
            first = was
        elif first == j.spec.id and j_stops:
            first = u.spec.id
        elif first == u.spec.id and u_stops:
            first = j.spec.id
    if first != j.spec.id:
        return None
    _, lxy, ltimes = longer
    d = np.hypot(ahead[:, 0][:, None] - lxy[:, 0], ahead[:, 1][:, None] - lxy[:, 1])
    meet = (d < clear) & (np.abs(times[:, None] - ltimes[None, :]) < spacing.WINDOW)
    return min(k, int(np.flatnonzero(meet.any(axis=1))[0]))


def room_over_all(u, units, near, dt, standoff, turns):
    """``room`` with no unit left out: the body check against every other unit, then the
    crossing check against every moving one (the order ``room`` uses, so ties agree); ``turns``:
    who goes first where, as settled before ``room`` was asked."""
    m = u.mover
    if m is None:
        return math.inf, None
    others = [j for j in units if j is not u]
    dist, xy = m.points()
    i0 = int((dist <= m.s).sum())
    i1 = int((dist <= m.s + spacing.reach_of(u, dt)).sum())
    i2 = int((dist <= m.s + spacing.reach_of(u, dt) + m.stopping_distance()).sum())
    ahead = xy[i0:i1 + 1]
    if len(ahead) == 0 or not others:
        return math.inf, None
    best, who = standing_over_all(u, others, near, dt, dist, xy, i0, i1, i2, standoff)
    far = xy[i0:i2 + 1]
    times = (dist[i0:i2 + 1] - m.s) / max(m.v, spacing.VMIN)
    for j in others:
        if j.mover is None or abs(j.speed) < spacing.VMIN:
            continue
        way, clear = spacing.ahead_of(j, dt), u.spec.width / 2.0 + j.spec.width / 2.0 + spacing.MARGIN
        at = unstoppable_over_all(u, j, way, ahead, clear)
        if at is None:
            jdist, jxy = j.mover.points()
            jv = max(j.mover.v, spacing.VMIN)
            j0 = int((jdist <= j.mover.s).sum())  # as ahead_of: out to the first point past the end
            on = slice(j0, int((jdist <= j.mover.s + spacing.far_of(j, dt) + m.stopping_distance()).sum()) + 1)
            longer = jdist[on], jxy[on], (jdist[on] - j.mover.s) / jv
            at = crossing_over_all(u, j, spacing.ahead_of(j, dt, far=True), longer, far, dist[i0:i2 + 1], times,
                                   clear, turns)
        if at is not None:
            gap = max(0.0, float(dist[i0 + at]) - m.s - spacing.SPACING)
            if gap < best:
                best, who = gap, j
    return best, who


@pytest.mark.parametrize("seed,weak", [(1, False), (2, False), (3, False), (1, True), (5, True)])
@pytest.mark.parametrize("standoff", [True, False])
def test_room_skips_only_units_that_cannot_matter(seed, weak, standoff):
    """With ``weak``, every fourth unit brakes weakly (0.3 tiles/s^2: ``spacing._unstoppable``)."""
    doc = presets.crowd(count=60, size=40, avoidance="pinter", seed=seed)
    for unit in doc["units"][::4] if weak else ():
        unit.update(speed=2.0, acceleration=1.0, braking=0.3)
    w = read_scenario(doc).world
    w.record = False
    checked = limited = 0
    for tick in range(120):
        w.step()
        if tick % 10:
            continue
        near = spacing.Neighbours(w.units, spacing.reach_pad(w.units, w.dt))
        for u in w.units:
            turns = near.turns.settled()
            got = spacing.room(u, near, w.dt, standoff)
            want = room_over_all(u, w.units, near, w.dt, standoff, turns)
            assert got[0] == want[0], (tick, u.spec.id)
            assert got[1] is want[1], (tick, u.spec.id)
            checked += 1
            limited += want[1] is not None
    assert checked > 500 and limited > 20  # the crowd is dense enough for the check to bite


def test_a_units_way_is_asked_again_once_it_has_moved():
    w = read_scenario(presets.crowd(count=20, size=32, avoidance="pinter", seed=4)).world
    w.record = False
    for _ in range(5):
        w.step()
    near = spacing.Neighbours(w.units, spacing.reach_pad(w.units, w.dt))
    j = next(u for u in w.units if u.mover is not None and u.mover.v > 0)

    def fresh_box():
        way = spacing.ahead_of(j, w.dt)
        assert way is not None
        return (*way[1].min(axis=0).tolist(), *way[1].max(axis=0).tolist())

    before = near.way_box(j, w.dt)
    assert before == fresh_box()
    w.step()  # j moves on: the box kept for it is stale
    after = near.way_box(j, w.dt)
    assert after != before and after == fresh_box()


@pytest.mark.parametrize("seed", [1, 2])
def test_room_during_a_tick_skips_nobody_however_far_fast_units_reach(seed, monkeypatch):
    """In the world's own tick (neighbours bucketed where the units stood when it began, each
    unit asked about after others have moved) ``room`` agrees with the check over every unit, in
    a crowd where every other unit is a car far faster than the presets (its way ahead reaches
    a dozen tiles)."""
    import arcstar.world.world as world_module

    doc = presets.crowd(count=50, size=48, avoidance="pinter", seed=seed, density=0.02)
    for i, unit in enumerate(doc["units"]):
        if i % 2:
            unit.update(kind="car", speed=7.0, braking=2.0)
    w = read_scenario(doc).world
    w.record = False
    seen = {"checked": 0, "limited": 0, "far": 0}
    real = world_module.spacing_room

    def checked_room(u, near, dt, standoff=True, margin=spacing.MARGIN):
        turns = near.turns.settled()
        got = real(u, near, dt, standoff, margin)
        if margin == spacing.MARGIN:
            want = room_over_all(u, w.units, near, dt, standoff, turns)
            assert got[0] == want[0], (w.ticks, u.spec.id)
            if got[1] is not want[1]:  # a tie (two units at one gap, often 0): the one named must limit it so
                pair = room_over_all(u, [u, got[1]], near, dt, standoff, turns)
                assert pair == (got[0], got[1]), (w.ticks, u.spec.id)
            seen["checked"] += 1
            seen["limited"] += want[1] is not None
            seen["far"] += want[1] is not None and math.hypot(want[1].x - u.x, want[1].y - u.y) > 5.0
        return got

    monkeypatch.setattr(world_module, "spacing_room", checked_room)
    fastest = 0.0
    for _ in range(160):
        w.step()
        fastest = max(fastest, max(abs(u.speed) for u in w.units))
    assert seen["checked"] > 3000 and seen["limited"] > 100
    assert fastest > 5.0 and seen["far"] > 0  # the cars got going, and held units from afar


@pytest.mark.parametrize("method", ["pinter", "claimed", "cooperative"])
def test_a_unit_driving_to_a_refuge_keeps_clear_of_one_coming_to_its_mouth(method):
    """Two and two fast units (3 tiles/s, braking 2 tiles/s^2: over 2 tiles to stop) head-on in a
    corridor one tile wide with one bay (an outside search's scenario, generator seed 110375).
    Under ``pinter`` one of the right pair drives to the bay to let the other by while one of the
    left pair comes the other way to the bay's mouth: the crossing check read each way out to
    its reach alone, and the two ran into each other 0.52 tile deep. Everyone arrives, and no
    two bodies overlap."""
    from worldcheck import deepest_overlap

    pair = {"width": 0.6, "radius": 0.3, "speed": 3.0, "acceleration": 1.0}
    doc = {"map": ["#" * 19, "#" * 19, "#" + "." * 17 + "#", "##########.########", "#" * 19],
           "seed": 110375, "duration": 240, "avoidance": method, "units": [
               {"id": "u0", **pair, "start": [1.5, 2.5, 0.0], "goal": [17.5, 2.5]},
               {"id": "u1", **pair, "start": [17.5, 2.5, math.pi / 2], "goal": [1.5, 2.5]},
               {"id": "u2", **pair, "start": [2.5, 2.5, 0.0], "goal": [16.5, 2.5]},
               {"id": "u3", **pair, "start": [16.5, 2.5, -0.11408209101510991], "goal": [2.5, 2.5]}]}
    sc = read_scenario(doc)
    sc.world.run(sc.duration)
    assert deepest_overlap([u.samples for u in sc.world.units], [0.6] * 4) <= 0.05
    assert all(u.arrived is not None for u in sc.world.units)


@pytest.mark.parametrize("avoidance", ["pinter", "claimed"])
@pytest.mark.parametrize("kind", ["car", "tank", "person"])
def test_a_turn_at_a_crossing_is_kept_while_the_units_cross_and_forgotten_once_they_have(kind, avoidance):
    """Two units crossing at a junction: who goes first is settled when their ways first meet
    (the rule itself is held to the numpy check above, in crowds), kept while they cross, and
    forgotten once they have passed; both arrive, and the bodies never overlap."""
    from worldcheck import deepest_overlap

    w = read_scenario(presets.junction(avoidance=avoidance, kind=kind)).world
    settled = 0
    for _ in range(400):
        w.step()
        settled += bool(w.turns.settled())
    assert settled > 0
    assert not w.turns.settled()
    assert all(u.arrived is not None for u in w.units)
    assert deepest_overlap([u.samples for u in w.units], [u.spec.width for u in w.units]) <= 0.05


@pytest.mark.parametrize("backing", [True, False])
@pytest.mark.parametrize("gap, side, tank_speed, person_speed",
                         [(2.0, 0.0, 0.5, 0.5), (2.0, 0.2, 0.5, 0.5), (3.0, 0.0, 0.5, 1.4), (3.0, 0.2, 0.5, 1.4)])
def test_of_a_tank_and_a_person_running_at_each_other_one_is_held(backing, gap, side, tank_speed, person_speed):
    """A tank backs up (or drives, facing the other way) towards a person walking at it, a few
    tiles apart: one of the two must be held. Read by its heading, the backing tank took the
    person for a unit behind it going its way (one it need not mind) while the person went first,
    and the tank backed 0.21 tile into it (a crowd of 60 on a Moving AI arena)."""
    rows = ["#" * 30] + ["#" + "." * 28 + "#" for _ in range(7)] + ["#" * 30]
    world = World(arcstar.parse_ascii("\n".join(rows)).map, seed=1, avoidance=Avoidance.PINTER)
    heading = 0.0 if backing else math.pi
    tank = world.add(unit_of_kind("tank", "tank"), Pose(15.5, 4.5, heading))
    person = world.add(unit_of_kind("person", "person"), Pose(15.5 - gap, 4.5 + side, 0.0))
    tank.mover = Mover(Path((Line(15.5, 4.5, heading, 8.0, -1 if backing else 1),)), tank.spec, heading, (),
                       speed=tank_speed)
    person.mover = Mover(Path((Line(15.5 - gap, 4.5 + side, 0.0, 10.0),)), person.spec, 0.0, (), speed=person_speed)
    tank.speed, person.speed = -tank_speed if backing else tank_speed, person_speed
    near = spacing.Neighbours(world.units, spacing.reach_pad(world.units, world.dt))
    held = [spacing.room(u, near, world.dt) for u in (tank, person)]
    assert min(r for r, _ in held) < math.inf, held


def crowd_movers(avoidance: str) -> list[Mover]:
    """The movers of a crowd of 40 after its first tick (their paths of every shape)."""
    w = read_scenario(presets.crowd(count=40, avoidance=avoidance)).world
    w.step()
    movers = [u.mover for u in w.units if u.mover is not None]
    assert len(movers) > 30
    return movers


def reads_out(rng: random.Random, length: float, step: float) -> Iterator[float]:
    """Distances a check reads a path out to, rising by random steps up to ``step`` past its
    ``length``."""
    upto = 0.0
    while upto < length + 1.0:
        upto += rng.uniform(0.0, step)
        yield upto


def test_a_path_sampled_as_far_as_asked_reads_as_the_whole_path():
    """A mover samples its path a few segments at a time, as far as the checks ask
    (``Mover.cover``): what they read out to a distance (the points, bisections for distances up
    to it, bounding boxes of its points) is what they would read in the path sampled whole, and
    the bounding boxes are the points' own least and greatest values."""
    rng = random.Random(4)
    for m in crowd_movers("cooperative"):
        whole = Mover(m.path, m.unit, m.heading)
        full_d, full_xy = whole.points()
        fd, fx, fy = full_d.tolist(), full_xy[:, 0].tolist(), full_xy[:, 1].tolist()
        lazy = Mover(m.path, m.unit, m.heading)
        for upto in reads_out(rng, m.path.length, 3.0):
            ds, xs, ys = lazy.cover(upto)
            n = len(ds)
            assert (ds, xs, ys) == (fd[:n], fx[:n], fy[:n])
            assert n == len(fd) or ds[-1] > upto
            x = rng.uniform(0.0, upto)
            assert bisect_right(ds, x) == bisect_right(fd, x)
            i0 = rng.randrange(n)
            i1 = rng.randrange(i0, n)
            box = (min(xs[i0:i1 + 1]), min(ys[i0:i1 + 1]), max(xs[i0:i1 + 1]), max(ys[i0:i1 + 1]))
            assert lazy.box(i0, i1) == whole.box(i0, i1) == box
        assert len(lazy.cover(math.inf)[0]) == len(fd)


def test_tile_entries_read_as_far_as_asked_are_the_whole_paths():
    """Where a path's centre enters each tile (``Mover.entries``), read out to a distance, is a
    prefix of the entries of the path sampled whole, holding every entry up to that distance;
    ``into_last`` stops a look at the first entry into the path's last tile. The entries here
    are worked out from the whole path's points, a tile at a time."""
    rng = random.Random(5)
    for m in crowd_movers("pinter"):
        full_d, full_xy = Mover(m.path, m.unit, m.heading).points()
        enter, before, tiles = [], [], []
        for i in range(1, len(full_d)):
            t = (math.floor(full_xy[i, 0]), math.floor(full_xy[i, 1]))
            if t != (math.floor(full_xy[i - 1, 0]), math.floor(full_xy[i - 1, 1])):
                enter.append(float(full_d[i]))
                before.append(float(full_d[i - 1]))
                tiles.append(t)
        end_tile = (math.floor(full_xy[-1, 0]), math.floor(full_xy[-1, 1]))
        first_into_last = tiles.index(end_tile) if tiles else 0
        lazy = Mover(m.path, m.unit, m.heading)
        for upto in reads_out(rng, m.path.length, 4.0):
            e, b, t = lazy.entries(upto)
            n = len(e)
            assert (e, b, t) == (enter[:n], before[:n], tiles[:n])
            end = bisect_right(e, upto)
            assert end == bisect_right(enter, upto)
            assert lazy.into_last(end) == min(end, first_into_last)
    # a path whose last tile it crossed before: the look stops at the first entry into it
    loop = Path.from_waypoints([(0.5, 0.5), (2.5, 0.5), (2.5, 1.5), (1.5, 1.5), (1.5, 0.3)])
    m = Mover(loop, unit_of_kind("p", "person"), 0.0)
    e, _, t = m.entries(math.inf)
    assert t == [(1, 0), (2, 0), (2, 1), (1, 1), (1, 0)]
    assert [m.into_last(k) for k in range(len(e) + 1)] == [0] * (len(e) + 1)
    fresh = Mover(loop, unit_of_kind("p", "person"), 0.0)
    e, _, t = fresh.entries(0.3)  # (the first segment sampled: two entries, neither the last tile's first)
    assert t == [(1, 0), (2, 0)] and fresh.into_last(bisect_right(e, 0.3)) == 0
    assert fresh.into_last(2) == 0


def test_path_tiles_are_the_tiles_under_the_centre_along_the_way():
    """``avoidance.path_tiles``: the unit's own tile, then the tile of each point of its path
    from where it is out to ``ahead`` tiles (and the first point past that) that differs from
    the tile before, worked out here from the path sampled whole."""
    from arcstar.world.avoidance import path_tiles
    w = read_scenario(presets.crowd(count=60, avoidance="claimed")).world
    for _ in range(40):
        w.step()
    rng = random.Random(6)
    seen = 0
    for u in w.units:
        m = u.mover
        if m is None:
            continue
        full_d, full_xy = Mover(m.path, m.unit, m.heading).points()
        for ahead in (0.0, rng.uniform(0.0, 3.0), 12.0, 40.0, 1e9):
            i0, i1 = bisect_right(full_d.tolist(), m.s), bisect_right(full_d.tolist(), m.s + ahead)
            want = [(math.floor(u.x), math.floor(u.y))]
            for x, y in full_xy[i0:i1 + 1].tolist():
                t = (math.floor(x), math.floor(y))
                if t != want[-1]:
                    want.append(t)
            assert path_tiles(u, ahead) == want
            seen += len(want) > 2
    assert seen > 30
