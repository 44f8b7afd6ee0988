"""The command line: plan on ASCII and Moving AI files, JSON output, clear errors."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import arcstar
from arcstar.cli import main
from reference import check_path, dijkstra

ART = "S....#....\n.###.#.##.\n...#...#.E\n"


def test_plan_prints_the_path_and_stats(tmp_path, capsys):
    f = tmp_path / "m.txt"
    f.write_text(ART)
    assert main(["plan", str(f)]) == 0
    out = capsys.readouterr().out
    assert "status: found" in out and "expanded:" in out and "path: 0,0 " in out


def test_plan_json_is_a_legal_least_cost_path(tmp_path, capsys):
    f = tmp_path / "m.txt"
    f.write_text(ART)
    assert main(["plan", str(f), "--from", "0,2", "--to", "9,0", "--json", "--heuristic", "octile"]) == 0
    doc = json.loads(capsys.readouterr().out)
    m = arcstar.parse_ascii(ART).map
    path = [tuple(p) for p in doc["path"]]
    check_path(m.blocked, path, (0, 2), (9, 0))
    assert doc["cost"] == dijkstra(m.cost_grid, (0, 2), (9, 0), 10, 14)
    assert doc["status"] == "found" and doc["expanded"] > 0 and "ms" in doc


def test_no_path_exits_1_and_bad_input_exits_2(tmp_path, capsys):
    f = tmp_path / "m.txt"
    f.write_text("S.#.E\n")
    assert main(["plan", str(f), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["status"] == "unreachable"
    assert main(["plan", str(f), "--from", "2,0", "--to", "4,0"]) == 2
    assert "blocked" in capsys.readouterr().err
    assert main(["plan", str(tmp_path / "none.map"), "--from", "0,0", "--to", "1,0"]) == 2
    assert "cannot read" in capsys.readouterr().err
    g = tmp_path / "plain.txt"
    g.write_text("...\n")
    assert main(["plan", str(g)]) == 2
    assert "--from" in capsys.readouterr().err
    assert main(["plan", str(f), "--from", "1;2"]) == 2
    assert "expected X,Y" in capsys.readouterr().err


@pytest.mark.no_pyodide
def test_python_dash_m_arcstar_runs(tmp_path):
    f = tmp_path / "m.map"
    f.write_text("type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n")
    core = Path(arcstar.__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(core)}
    proc = subprocess.run([sys.executable, "-m", "arcstar", "plan", str(f), "--from", "0,1", "--to", "2,1",
                           "--json"], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["path"] == [[0, 1], [0, 0], [1, 0], [2, 0], [2, 1]]


TINY_MAP = "type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n"


def test_scen_rows_and_summary(tmp_path, capsys):
    (tmp_path / "t.map").write_text(TINY_MAP)
    (tmp_path / "t.scen").write_text("version 1\n0\tt.map\t4\t3\t0\t0\t3\t2\t5\n"
                                     "1\tt.map\t4\t3\t0\t1\t3\t1\t5\n")
    assert main(["scen", str(tmp_path / "t.map"), str(tmp_path / "t.scen"), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [set(r) for r in rows] == [{"id", "optimal", "cost", "expanded", "ms"}] * 2
    assert [round(r["cost"], 5) for r in rows] == [r["optimal"] for r in rows]
    assert main(["scen", str(tmp_path / "t.map"), str(tmp_path / "t.scen"), "--algorithm", "dijkstra"]) == 0
    assert "2 problems, 0 not optimal" in capsys.readouterr().out


def test_scen_flags_a_wrong_optimum_and_bad_files(tmp_path, capsys):
    (tmp_path / "t.map").write_text(TINY_MAP)
    (tmp_path / "lie.scen").write_text("version 1\n0\tt.map\t4\t3\t0\t0\t3\t2\t3\n")
    assert main(["scen", str(tmp_path / "t.map"), str(tmp_path / "lie.scen")]) == 1
    assert "1 not optimal" in capsys.readouterr().out
    (tmp_path / "out.scen").write_text("version 1\n0\tt.map\t4\t3\t0\t0\t30\t2\t3\n")
    assert main(["scen", str(tmp_path / "t.map"), str(tmp_path / "out.scen")]) == 2
    assert "outside" in capsys.readouterr().err
    (tmp_path / "cut.scen").write_text("version 1\n0\tt.map\t4\t3\t0\n")
    assert main(["scen", str(tmp_path / "t.map"), str(tmp_path / "cut.scen")]) == 2
    assert "fields" in capsys.readouterr().err
    assert main(["scen", str(tmp_path / "t.map"), str(tmp_path / "none.scen")]) == 2
    assert "cannot read" in capsys.readouterr().err
