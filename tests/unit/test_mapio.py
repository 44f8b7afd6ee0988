"""Map readers and writers: round trips, and clear errors on malformed or hostile files."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arcstar
from arcstar.maps.mapio import (
    load_map,
    map_from_json,
    map_to_json,
    parse_ascii,
    parse_movingai_map,
    parse_scen,
    to_ascii,
    to_movingai_map,
)
from conftest import benchmarks_dir


def test_ascii_round_trip_with_markers_and_terrain():
    art = "S.=#\n:%^~\n...G\n"
    loaded = parse_ascii(art)
    assert (loaded.map.width, loaded.map.height) == (4, 3)
    assert loaded.start == (0, 0) and loaded.goal == (3, 2)
    assert loaded.map.is_blocked(3, 0) and loaded.map.is_blocked(3, 1) and not loaded.map.is_blocked(2, 0)
    assert loaded.map.cost_at(2, 0) < 1 < loaded.map.cost_at(0, 1)
    assert to_ascii(loaded.map, loaded.start, loaded.goal) == art
    assert parse_ascii(art.replace("G", "E")).goal == (3, 2)  # E is read as the goal too


@pytest.mark.parametrize("text,msg", [
    ("", "empty"), ("\n\n", "empty"), ("...\n..\n", "not rectangular"), ("..x\n...\n", "unknown character"),
    ("S.S\n", "more than one start"), ("G.E\n", "more than one goal"), (b"...", "must be text"), (None, "must be text"),
])
def test_ascii_errors(text, msg):
    with pytest.raises(ValueError, match=msg):
        parse_ascii(text)


MOVINGAI = "type octile\nheight 3\nwidth 4\nmap\n.@..\n.T.G\nSW..\n"


def test_movingai_map_reads_the_benchmark_characters():
    m = parse_movingai_map(MOVINGAI)
    assert (m.width, m.height) == (4, 3)
    expect = np.array([[0, 1, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0]], dtype=bool)
    assert np.array_equal(m.blocked, expect)
    again = parse_movingai_map(to_movingai_map(m))
    assert np.array_equal(again.blocked, m.blocked)
    assert np.array_equal(parse_movingai_map(MOVINGAI.replace("\n", "\r\n")).blocked, m.blocked)  # CRLF


@pytest.mark.parametrize("text,msg", [
    ("type octile\nheight 3\nwidth 4\nmap\n.@..\n", "truncated"),
    ("type octile\nheight 3\nwidth 4\n", "no 'map' line"),
    ("type octile\nwidth 4\nmap\n....\n", "no 'height'"),
    ("type octile\nheight x\nwidth 4\nmap\n....\n", "non-integer"),
    ("type octile\nheight 1\nwidth 4\nmap\n.?..\n", "unknown terrain"),
    ("type octile\nheight 1\nwidth 4\nmap\n...\n", "characters"),
    ("type octile\nheight 100000\nwidth 100000\nmap\n", "larger than the limit"),
    ("type octile\nheight -3\nwidth 4\nmap\n", "positive integer"),
    ("type octile\nheight 1 2\nwidth 4\nmap\n....\n", "not 'key value'"),
])
def test_movingai_map_errors(text, msg):
    with pytest.raises(ValueError, match=msg):
        parse_movingai_map(text)


def test_scen_reads_problems_and_checks_them_against_the_map():
    m = parse_movingai_map(MOVINGAI)
    text = "version 1\n0\tmaps/x/tiny.map\t4\t3\t0\t0\t3\t2\t3.41421\n"
    (sc,) = parse_scen(text, m)
    assert sc.start == (0, 0) and sc.goal == (3, 2) and sc.optimal == pytest.approx(3.41421)
    assert sc.map_name == "tiny.map"
    with pytest.raises(ValueError, match="outside"):
        parse_scen("version 1\n0\ttiny.map\t4\t3\t0\t0\t9\t2\t3\n", m)
    with pytest.raises(ValueError, match="9"):
        parse_scen("version 1\n0\ttiny.map\t4\t3\t0\t0\t3\n")
    with pytest.raises(ValueError, match="not a number"):
        parse_scen("version 1\n0\ttiny.map\t4\t3\tzero\t0\t3\t2\t3\n")
    with pytest.raises(ValueError, match="version"):
        parse_scen("0\ttiny.map\t4\t3\t0\t0\t3\t2\t3\n")
    with pytest.raises(ValueError, match="optimal length"):
        parse_scen("version 1\n0\ttiny.map\t4\t3\t0\t0\t3\t2\tnan\n")


def test_json_round_trip_keeps_terrain_costs_and_influence():
    m = parse_ascii("..=\n#:~\n").map
    m.set_cost(3, 7.5)
    m.set_influence(np.arange(6, dtype=float).reshape(2, 3))
    doc = json.loads(json.dumps(map_to_json(m)))
    back = map_from_json(doc)
    assert np.array_equal(back.terrain, m.terrain)
    assert back.cost_at(1, 1) == 7.5 and math.isinf(back.cost_at(0, 1))
    assert np.array_equal(back.influence, m.influence)


@pytest.mark.parametrize("doc,msg", [
    ("{", "not valid JSON"), ([], "not an arcstar JSON map"), ({"format": "other"}, "not an arcstar JSON map"),
    ({"format": "arcstar-map", "width": 2, "height": 1, "rows": ["..", ".."]}, "list of 1 strings"),
    ({"format": "arcstar-map", "width": 2, "height": 1, "rows": ["x."]}, "unknown terrain"),
    ({"format": "arcstar-map", "width": 0, "height": 1, "rows": []}, "positive integer"),
    ({"format": "arcstar-map", "width": 2, "height": 1, "rows": [".."],
      "terrains": [{"code": 0, "name": "g", "char": ".", "cost": -1}]}, "positive number"),
    ({"format": "arcstar-map", "width": 2, "height": 1, "rows": [".."],
      "terrains": [{"code": 0, "name": "g", "char": ".", "cost": "NaN"}]}, "must be a number"),
    ({"format": "arcstar-map", "width": 2, "height": 1, "rows": [".."], "influence": [[1, "a"]]}, "influence"),
    ({"format": "arcstar-map", "width": 2, "height": 1, "rows": [".."], "influence": [[1, -2]]}, "influence"),
])
def test_json_errors(doc, msg):
    with pytest.raises(ValueError, match=msg):
        map_from_json(doc)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_readers_never_fail_other_than_with_value_error(text):
    for reader in (parse_ascii, parse_movingai_map, parse_scen, map_from_json):
        try:
            reader(text)
        except ValueError:
            pass


def test_load_map_detects_the_format(tmp_path):
    (tmp_path / "a.txt").write_text("S.#\n..E\n")
    (tmp_path / "b.map").write_text(MOVINGAI)
    (tmp_path / "c.json").write_text(json.dumps(map_to_json(parse_ascii("..#\n").map)))
    (tmp_path / "d.bin").write_bytes(b"\xff\xfe\x00")
    assert load_map(tmp_path / "a.txt").start == (0, 0)
    assert load_map(tmp_path / "b.map").map.width == 4
    assert load_map(tmp_path / "c.json").map.is_blocked(2, 0)
    with pytest.raises(ValueError, match="not text"):
        load_map(tmp_path / "d.bin")
    with pytest.raises(ValueError, match="cannot read"):
        load_map(tmp_path / "missing.map")


def test_tilemap_rejects_absurd_sizes_and_codes():
    with pytest.raises(ValueError, match="limit"):
        arcstar.TileMap.empty(10**4, 10**4)
    with pytest.raises(ValueError, match="no terrain type"):
        arcstar.TileMap(np.full((2, 2), 99, dtype=np.uint8))
    with pytest.raises(ValueError, match="2-D"):
        arcstar.TileMap(np.zeros(5, dtype=np.uint8))
    m = arcstar.TileMap.empty(2, 2)
    for bad in (0, -1, math.nan, "1", None):
        with pytest.raises(ValueError):
            m.set_cost(0, bad)
    with pytest.raises(ValueError, match="off the"):
        m.set_tile(5, 5, 1)


def test_benchmark_map_loads():
    root = benchmarks_dir()
    if root is None:
        pytest.skip("the shared Moving AI benchmarks are not beside this checkout")
    m = load_map(root / "maps" / "arena.map").map
    scen = parse_scen((root / "scen" / "arena.map.scen").read_text(), m)
    assert (m.width, m.height) == (49, 49) and len(scen) == 160
    assert int((~m.blocked).sum()) == 2054  # the passable count the benchmark README gives


@pytest.mark.parametrize("deep", ["[" * 5000 + "]" * 5000, '{"a":' * 5000 + "1" + "}" * 5000])
def test_deeply_nested_json_is_refused_before_parsing(deep):
    """A 10 KB file nested 5,000 deep must not reach the recursive parser (in Pyodide a stack
    overflow there is fatal to the runtime, not a RecursionError)."""
    from arcstar.maps.hexmap import hex_map_from_json
    from arcstar.maps.waypoints import waypoints_from_json
    from arcstar.outcomes import BadInput
    text = '{"format":"arcstar-map","width":3,"height":1,"rows":["..."],"influence":' + deep + "}"
    for read in (map_from_json, hex_map_from_json, waypoints_from_json):
        with pytest.raises(BadInput, match="nests deeper"):
            read(text)
