"""The map generators: each kind's promise checked by code of its own (breadth-first searches and
counts written here, not the generators' helpers), determinism, the fingerprints that prove
CPython and Pyodide make the same map from the same seed, bad parameters, and the CLI."""

from __future__ import annotations

import hashlib
import json
import math
from collections import deque

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arcstar
from arcstar.cli import main
from arcstar.maps import GeneratorKind, GeneratorParams, generate, generate_map, parse_ascii
from arcstar.maps.carving import largest_region, line_tiles
from arcstar.outcomes import BadInput

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KINDS = [k.value for k in GeneratorKind]
ROAD = next(t.code for t in arcstar.DEFAULT_TERRAINS if t.name == "road")


def open_mask(made) -> np.ndarray:
    return ~made.map.blocked


def components(mask: np.ndarray) -> list[set[tuple[int, int]]]:
    """4-connected components of True tiles, by breadth-first search."""
    h, w = mask.shape
    seen: set[tuple[int, int]] = set()
    out = []
    for y in range(h):
        for x in range(w):
            if not mask[y, x] or (x, y) in seen:
                continue
            comp = {(x, y)}
            queue = deque([(x, y)])
            seen.add((x, y))
            while queue:
                cx, cy = queue.popleft()
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if 0 <= nx < w and 0 <= ny < h and mask[ny, nx] and (nx, ny) not in seen:
                        seen.add((nx, ny))
                        comp.add((nx, ny))
                        queue.append((nx, ny))
            out.append(comp)
    return out


def check_ends(made, region: set[tuple[int, int]]) -> None:
    assert made.start is not None and made.goal is not None
    assert made.start != made.goal
    assert made.start in region and made.goal in region


# ----------------------------------------------------------------------------- maze

def maze_lattice(made, corridor: int) -> tuple[int, int, list[tuple[int, int, int, int]]]:
    """The maze's cell lattice read back from its tiles by the documented layout (cell (i, j) at
    tiles 1 + i*(c+1) .. + c-1, 1-tile walls): checks every cell is wholly open, every wall
    junction is wall, every passage is wholly open or wholly wall; returns the edges."""
    blocked = made.map.blocked
    p = corridor + 1
    cw, ch = (made.map.width - 1) // p, (made.map.height - 1) // p
    edges = []
    for j in range(ch):
        for i in range(cw):
            x, y = 1 + i * p, 1 + j * p
            assert not blocked[y:y + corridor, x:x + corridor].any(), f"cell {i},{j} is not open"
            assert blocked[y + corridor, x + corridor], "a wall junction is open"
            if i + 1 < cw:
                gap = blocked[y:y + corridor, x + corridor]
                assert gap.all() or not gap.any()
                if not gap.any():
                    edges.append((i, j, i + 1, j))
            if j + 1 < ch:
                gap = blocked[y + corridor, x:x + corridor]
                assert gap.all() or not gap.any()
                if not gap.any():
                    edges.append((i, j, i, j + 1))
    # nothing open outside the cells and passages: the border and the leftover are wall
    assert blocked[0, :].all() and blocked[:, 0].all()
    assert blocked[1 + ch * p - 1:, :].all() and blocked[:, 1 + cw * p - 1:].all()
    return cw, ch, edges


@FAST
@given(st.integers(5, 41), st.integers(5, 31), st.integers(0, 2**32 - 1), st.integers(1, 3))
def test_a_maze_is_a_tree_on_its_cell_lattice(w, h, seed, corridor):
    if min(w, h) < corridor + 2:
        return
    made = generate_map("maze", w, h, seed, corridor=corridor)
    cw, ch, edges = maze_lattice(made, corridor)
    assert len(edges) == cw * ch - 1
    # connected: a breadth-first search over the edges reaches every cell
    adj: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for a, b, c, d in edges:
        adj.setdefault((a, b), []).append((c, d))
        adj.setdefault((c, d), []).append((a, b))
    seen = {(0, 0)}
    queue = deque([(0, 0)])
    while queue:
        for n in adj.get(queue.popleft(), []):
            if n not in seen:
                seen.add(n)
                queue.append(n)
    assert len(seen) == cw * ch
    comps = components(open_mask(made))
    assert len(comps) == 1
    check_ends(made, comps[0])


@FAST
@given(st.integers(3, 40), st.integers(3, 30), st.integers(0, 10**6))
def test_a_corridor_one_maze_is_a_tree_of_tiles(w, h, seed):
    """Width-1 corridors: the open tiles themselves form a tree (connected, pairs = tiles - 1)."""
    made = generate_map("maze", w, h, seed)
    mask = open_mask(made)
    pairs = int((mask[:, 1:] & mask[:, :-1]).sum() + (mask[1:, :] & mask[:-1, :]).sum())
    assert pairs == int(mask.sum()) - 1
    assert len(components(mask)) == 1


# ----------------------------------------------------------------------------- rooms, caves

@FAST
@given(st.integers(3, 60), st.integers(3, 40), st.integers(0, 2**32 - 1), st.integers(2, 8))
def test_every_room_is_reachable(w, h, seed, room):
    made = generate_map("rooms", w, h, seed, room=room)
    mask = open_mask(made)
    assert not mask[[0, -1], :].any() and not mask[:, [0, -1]].any()  # a walled edge
    comps = components(mask)
    assert len(comps) == 1
    if mask.sum() >= 2:
        check_ends(made, comps[0])


def test_rooms_are_split_into_several_rooms():
    made = generate_map("rooms", 48, 32, 3)
    blocked = made.map.blocked
    inner_walls = int(blocked[1:-1, 1:-1].sum())
    assert inner_walls > 48 + 32  # at least a few walls inside
    assert not blocked[1:-1, 1:-1].all()


@FAST
@given(st.integers(8, 60), st.integers(8, 40), st.integers(0, 2**32 - 1),
       st.floats(0.3, 0.65, allow_nan=False))
def test_caves_are_one_connected_cave(w, h, seed, density):
    made = generate_map("caves", w, h, seed, density=density)
    comps = components(open_mask(made))
    assert len(comps) <= 1
    if comps and len(comps[0]) >= 2:
        check_ends(made, comps[0])
    elif not comps:
        assert made.start is None and made.goal is None


def test_default_caves_are_caves_not_noise():
    """The automaton smooths: at the default fill most open tiles have no wall among their 4
    neighbours, unlike raw noise of the same share of walls."""
    made = generate_map("caves", 64, 48, 11)
    mask = open_mask(made)
    assert 0.2 < mask.mean() < 0.8
    inner = mask[1:-1, 1:-1] & mask[:-2, 1:-1] & mask[2:, 1:-1] & mask[1:-1, :-2] & mask[1:-1, 2:]
    assert inner.sum() > 0.6 * mask.sum()


# ----------------------------------------------------------------------------- obstacles, roads

@FAST
@given(st.integers(3, 80), st.integers(3, 60), st.integers(0, 2**32 - 1), st.floats(0, 0.9, allow_nan=False))
def test_obstacles_have_the_density_asked(w, h, seed, density):
    made = generate_map("obstacles", w, h, seed, density=density)
    walls = int(made.map.blocked.sum())
    assert abs(walls - density * w * h) <= 0.5 + 1e-9  # exactly round(density x tiles)
    comps = components(open_mask(made))
    if comps and max(len(c) for c in comps) >= 2:
        check_ends(made, max(comps, key=len))


def test_obstacles_are_scattered_evenly():
    made = generate_map("obstacles", 100, 100, 5, density=0.3)
    blocked = made.map.blocked
    for q in (blocked[:50, :50], blocked[:50, 50:], blocked[50:, :50], blocked[50:, 50:]):
        assert abs(q.mean() - 0.3) < 0.05


@FAST
@given(st.integers(3, 60), st.integers(3, 40), st.integers(0, 2**32 - 1), st.floats(0, 0.9, allow_nan=False))
def test_roads_join_the_towns_across_rough_land(w, h, seed, density):
    made = generate_map("roads", w, h, seed, density=density)
    terrain = made.map.terrain
    roads = terrain == ROAD
    comps = components(roads)
    assert len(comps) == 1  # one road network
    check_ends(made, comps[0])
    assert not made.map.blocked.any()  # roads never cut the land off
    names = {t.code: t.name for t in arcstar.DEFAULT_TERRAINS}
    present = {names[int(c)] for c in np.unique(terrain)}
    assert present <= {"ground", "road", "sand", "hills", "swamp"}


def test_roads_cover_exactly_the_rough_share_before_roads_are_laid():
    made = generate_map("roads", 80, 60, 2, density=0.6)
    terrain = made.map.terrain
    rough = np.isin(terrain, [3, 4, 5]).sum()
    roads = (terrain == ROAD).sum()
    assert rough <= round(0.6 * 80 * 60) <= rough + roads
    assert {3, 4, 5} <= set(np.unique(terrain).tolist())


def test_a_plan_between_the_ends_is_found_on_every_kind():
    for kind in KINDS:
        made = generate_map(kind, 40, 30, 9)
        result = arcstar.plan(made.map, made.start, made.goal)
        assert result.status == "found", kind


# ----------------------------------------------------------------------------- determinism

@FAST
@given(st.sampled_from(KINDS), st.integers(3, 50), st.integers(3, 40), st.integers(0, 2**32 - 1))
def test_the_same_seed_gives_the_same_map(kind, w, h, seed):
    a, b = generate_map(kind, w, h, seed), generate_map(kind, w, h, seed)
    assert np.array_equal(a.map.terrain, b.map.terrain)
    assert (a.start, a.goal) == (b.start, b.goal)


@pytest.mark.parametrize("kind", KINDS)
def test_different_seeds_give_different_maps(kind):
    maps = {generate_map(kind, 40, 30, seed).map.terrain.tobytes() for seed in range(8)}
    assert len(maps) == 8


# The sha256 of the terrain bytes and the ends, computed on CPython 3.11 with numpy 2.4. The
# Pyodide run of these tests (Python 3.12, numpy 2.0.2) must get the same: the same seed gives
# the same map in the lab's worker as on a desktop, so a seed in a link is enough.
FINGERPRINTS = {
    ("maze", 41, 31, 7, None): "b14b7121988fc5c0d6397d87",
    ("rooms", 48, 32, 7, None): "d10fb3ddac327feb671b0cd1",
    ("caves", 64, 48, 7, None): "f4ccc4e5069463c2e8bd8b7f",
    ("obstacles", 50, 40, 7, 0.3): "fbfa1c36f20a4ef1cc9a8af8",
    ("roads", 64, 48, 7, None): "1804e2a3ecddbe3651b70f1b",
    ("maze", 33, 21, 4294967295, None): "7a46caf2a9d10e0fc98ebbac",
}


def fingerprint(made) -> str:
    digest = hashlib.sha256(made.map.terrain.tobytes())
    digest.update(json.dumps([made.start, made.goal, list(made.map.terrain.shape)]).encode())
    return digest.hexdigest()[:24]


@pytest.mark.parametrize("key", list(FINGERPRINTS))
def test_maps_match_their_fingerprints_on_every_platform(key):
    kind, w, h, seed, density = key
    assert fingerprint(generate_map(kind, w, h, seed, density=density)) == FINGERPRINTS[key]


# ----------------------------------------------------------------------------- the helpers

def test_largest_region_agrees_with_a_breadth_first_search():
    rng = np.random.default_rng(3)
    for _ in range(30):
        mask = rng.random((rng.integers(1, 30), rng.integers(1, 30))) < 0.55
        comps = components(mask)
        got = largest_region(mask)
        if not comps:
            assert not got.any()
            continue
        biggest = max(len(c) for c in comps)
        assert int(got.sum()) == biggest
        assert {(int(x), int(y)) for y, x in zip(*np.nonzero(got))} in comps


@given(st.tuples(st.integers(-20, 20), st.integers(-20, 20)), st.tuples(st.integers(-20, 20), st.integers(-20, 20)))
def test_a_road_line_is_4_connected_and_close_to_the_straight_line(a, b):
    tiles = line_tiles(a, b)
    assert tiles[0] == a and tiles[-1] == b
    assert len(tiles) == abs(a[0] - b[0]) + abs(a[1] - b[1]) + 1
    for (x0, y0), (x1, y1) in zip(tiles, tiles[1:]):
        assert abs(x1 - x0) + abs(y1 - y0) == 1
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    for x, y in tiles:  # within a tile of the line through the centres
        cross = abs((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]))
        assert length == 0 or cross / length <= 1.0


# ----------------------------------------------------------------------------- bad parameters

@pytest.mark.parametrize("kwargs, field", [
    ({"kind": "labyrinth"}, "kind"),
    ({"kind": 3}, "kind"),
    ({"kind": "maze", "width": 0}, "width"),
    ({"kind": "maze", "height": 10**6}, "height"),
    ({"kind": "maze", "width": 10.5}, "width"),
    ({"kind": "maze", "width": True}, "width"),
    ({"kind": "obstacles", "density": 2}, "density"),
    ({"kind": "obstacles", "density": -0.1}, "density"),
    ({"kind": "obstacles", "density": math.nan}, "density"),
    ({"kind": "obstacles", "density": math.inf}, "density"),
    ({"kind": "obstacles", "density": "0.3"}, "density"),
    ({"kind": "caves", "density": 0.9}, "density"),
    ({"kind": "maze", "density": 0.3}, "density"),
    ({"kind": "maze", "seed": "abc"}, "seed"),
    ({"kind": "maze", "seed": -1}, "seed"),
    ({"kind": "maze", "seed": 2**32}, "seed"),
    ({"kind": "maze", "seed": 1.0}, "seed"),
    ({"kind": "maze", "corridor": 0}, "corridor"),
    ({"kind": "maze", "corridor": 4, "width": 5}, "width"),
    ({"kind": "rooms", "room": 1}, "room"),
])
def test_bad_parameters_name_their_field(kwargs, field):
    with pytest.raises(BadInput) as err:
        GeneratorParams(**kwargs)
    assert err.value.field == field
    assert str(err.value)


@pytest.mark.parametrize("raw, field", [
    ([], ""), ({"width": 3}, "kind"), ({"kind": "maze", "colour": "red"}, "colour"),
    ({"kind": "maze", "x" * 500: 1}, "x" * 40),
])
def test_parameters_from_json_refuse_what_they_do_not_know(raw, field):
    with pytest.raises(BadInput) as err:
        GeneratorParams.from_dict(raw)
    assert err.value.field == field


def test_generate_takes_only_parameters():
    with pytest.raises(BadInput):
        generate({"kind": "maze"})  # type: ignore[arg-type]


def test_parameters_round_trip_through_json():
    p = GeneratorParams("caves", 30, 20, 99)
    doc = p.to_json()
    assert doc == {"kind": "caves", "width": 30, "height": 20, "seed": 99, "density": 0.45, "corridor": 1, "room": 5}
    assert GeneratorParams.from_dict(json.loads(json.dumps(doc))) == GeneratorParams("caves", 30, 20, 99, 0.45)


def test_the_package_exports_the_generators():
    assert {"generate", "generate_map", "GeneratorParams", "GeneratorKind", "GeneratedMap"} <= set(arcstar.__all__)
    made = arcstar.generate(arcstar.GeneratorParams("maze", 9, 9, 1))
    assert isinstance(made.map_file(), arcstar.MapFile)


# ----------------------------------------------------------------------------- the CLI

def test_cli_prints_the_map_as_ascii_with_its_ends(capsys):
    assert main(["generate", "maze", "--width", "21", "--height", "11", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    read = parse_ascii(out)
    made = generate_map("maze", 21, 11, 4)
    assert np.array_equal(read.map.terrain, made.map.terrain)
    assert (read.start, read.goal) == (made.start, made.goal)


def test_cli_writes_json_and_ascii_files(tmp_path):
    out = tmp_path / "roads.json"
    assert main(["generate", "roads", "--width", "30", "--height", "20", "--seed", "2", "--density", "0.4",
                 "-o", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["format"] == "arcstar-map" and doc["width"] == 30 and len(doc["rows"]) == 20
    txt = tmp_path / "caves.txt"
    assert main(["generate", "caves", "--seed", "3", "-o", str(txt)]) == 0
    assert parse_ascii(txt.read_text()).map.width == 48


@pytest.mark.parametrize("args, words", [
    (["maze", "--width", "0"], "width"),
    (["obstacles", "--density", "2"], "density"),
    (["maze", "--density", "0.2"], "density"),
    (["caves", "--seed", "-5"], "seed"),
])
def test_cli_bad_parameters_exit_2_with_a_message(args, words, capsys):
    assert main(["generate", *args]) == 2
    err = capsys.readouterr().err
    assert "arcstar: error:" in err and words in err


def test_cli_refuses_an_unwritable_file(tmp_path, capsys):
    assert main(["generate", "maze", "-o", str(tmp_path / "no" / "such" / "dir.txt")]) == 2
    assert "cannot write" in capsys.readouterr().err


@pytest.mark.no_pyodide
def test_the_labs_density_table_is_the_cores():
    """web/generator.js repeats DENSITY (the page knows the ranges before the engine is up)."""
    import re
    from pathlib import Path

    from arcstar.maps.generators import DENSITY, MAX_SEED, MAX_SIDE, MIN_SIDE

    js = (Path(__file__).resolve().parents[2] / "web" / "generator.js").read_text()
    table = re.search(r"export const DENSITY = Object\.freeze\(\{(.*?)\}\);", js, re.S)
    assert table
    rows = dict((k, (float(a), float(b), float(c)))
                for k, a, b, c in re.findall(r"(\w+): \['[^']*', ([\d.]+), ([\d.]+), ([\d.]+)\]", table.group(1)))
    assert rows == {k.value: (low, high, d) for k, (_, low, high, d) in DENSITY.items()}
    assert f"GEN_SIDE = Object.freeze([{MIN_SIDE}, {MAX_SIDE}])" in js
    assert MAX_SEED == 2**32 - 1 and "MAX_SEED = 2 ** 32 - 1" in js
