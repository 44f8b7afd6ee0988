"""Realistic paths through the planner: each turning method, fixed-angle art, and bad input."""

import json
import math

import numpy as np
import pytest

import arcstar
from arcstar.cli import main
from arcstar.geometry.primitives import Line, Path
from arcstar.turning.methods import TURN_METHODS
from reference import disc_clear

ROOMS = """
S.........
..........
......###.
......#...
......#..G
"""


def body_clear(tilemap, path: Path, width: float) -> bool:
    """Independent check: sample the path every 0.05 tile, test each piece with the dense sampler."""
    pts = path.sample(0.05)[:, :2]
    return all(disc_clear(tilemap.blocked, tuple(a), tuple(b), width, step=0.02) for a, b in zip(pts, pts[1:]))


@pytest.mark.parametrize("method", TURN_METHODS)
def test_every_turning_method_is_legal_when_it_says_so(method):
    loaded = arcstar.parse_ascii(ROOMS)
    m = loaded.map
    r = arcstar.plan(m, (0, 0, 0.0), (*loaded.goal, math.pi / 2), turning=method, radius=1.5, width=1.0)
    assert r.segments is not None and isinstance(r.legal, bool)
    assert r.status == ("found" if r.legal else "not_legal")  # a typed status, the same verdict
    start, end = r.segments.start_pose(), r.segments.end_pose()
    assert (start.x, start.y) == pytest.approx((0.5, 0.5)) and (end.x, end.y) == pytest.approx((9.5, 4.5))
    if method != "smooth":
        assert end.heading == pytest.approx(math.pi / 2, abs=1e-6)  # arrives facing down, as asked
    assert r.legal == body_clear(m, r.segments, 1.0) or not r.legal  # never labelled legal wrongly
    if r.legal:
        assert body_clear(m, r.segments, 1.0)
        assert r.blocked == []
    else:
        assert "not legal" in r.message and r.blocked
        for a, b in r.blocked:  # each reported stretch really overlaps a wall at its middle
            p = r.segments.pose_at((a + b) / 2)
            assert not disc_clear(m.blocked, (p.x, p.y), (p.x, p.y), 1.0)
    doc = json.loads(json.dumps(r.to_json()))
    assert Path.from_json({"segments": doc["segments"]}).length == pytest.approx(r.segments.length)


def test_tighter_turns_slow_down_and_art_keeps_legal_angles():
    loaded = arcstar.parse_ascii(ROOMS)
    r = arcstar.plan(loaded.map, (0, 0, 0.0), loaded.goal, turning="tighter", radius=1.5)
    assert r.legal and r.speed_limits and all(0 <= f < 1 for _a, _b, f in r.speed_limits)
    art = arcstar.plan(loaded.map, (0, 0, 0.0), loaded.goal, turning="tighter", radius=1.5, art=8)
    for seg in art.segments.segments:
        assert isinstance(seg, Line)  # fixed-angle art has no arcs
        if seg.length > 1e-9:
            assert (seg.heading / (math.pi / 4)) == pytest.approx(round(seg.heading / (math.pi / 4)), abs=1e-6)
    assert art.legal == body_clear(loaded.map, art.segments, 1.0) or not art.legal


def test_no_legal_path_for_a_unit_wider_than_every_corridor():
    m = arcstar.TileMap.empty(12, 7)
    m.terrain[3, :] = 1
    m.terrain[3, 5] = 0  # a one-tile door
    m.touch()
    assert arcstar.plan(m, (2, 1), (9, 5), turning="tighter", width=1.0).legal
    wide = arcstar.plan(m, (2, 1), (9, 5), turning="tighter", width=1.5)
    assert wide.status == "no_path" and wide.segments is None


@pytest.mark.parametrize("options,msg", [
    ({"turning": "drift"}, "turning"), ({"turning": "smooth", "radius": 0}, "radius"),
    ({"turning": "smooth", "radius": float("nan")}, "radius"), ({"art": 8}, "turning method"),
    ({"turning": "smooth", "art": 12}, "art"), ({"can_reverse": "yes"}, "can_reverse"),
    ({"turning": "backup", "method": "jps"}, "point unit"),
])
def test_bad_turning_options(options, msg):
    with pytest.raises(ValueError, match=msg):
        arcstar.plan(arcstar.TileMap.empty(6, 6), (1, 1), (4, 4), **options)


@pytest.mark.parametrize("start", [(1, 1, "east"), (1, 1, float("inf")), (1, 1, None), (1, 1, 0, 0)])
def test_bad_headings(start):
    with pytest.raises(ValueError, match="heading|x, y"):
        arcstar.plan(arcstar.TileMap.empty(6, 6), start, (4, 4), turning="smooth")


def test_command_line_plans_curves(tmp_path, capsys):
    f = tmp_path / "rooms.txt"
    f.write_text(ROOMS)
    assert main(["plan", str(f), "--from", "0,0,0", "--method", "tighter", "--radius", "1.5", "--width", "1",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["legal"] is True and doc["segments"] and {s["type"] for s in doc["segments"]} <= {"line", "arc"}
    code = main(["plan", str(f), "--method", "ignore", "--radius", "2"])
    out = capsys.readouterr().out
    assert "ignore:" in out and code == (1 if "NOT legal" in out else 0)  # exit 1: no legal path
    assert main(["plan", str(f), "--from", "0,0,x", "--method", "smooth"]) == 2
    assert "HEADING" in capsys.readouterr().err


def test_influence_map_still_applies_to_realistic_paths():
    loaded = arcstar.parse_ascii(ROOMS)
    danger = np.zeros((5, 10))
    danger[0:2, 2:6] = 40
    loaded.map.set_influence(danger)
    r = arcstar.plan(loaded.map, (0, 0, 0.0), loaded.goal, turning="smooth", heuristic="octile")
    plain = arcstar.plan(loaded.map, (0, 0), loaded.goal, width=1.0, heuristic="octile")
    assert r.legal and r.path == plain.path and r.cost == plain.cost
    assert sum(1 for x, y in r.path if danger[y, x]) == 1  # the wall leaves one dangerous tile on any route
