"""Sweeps over many Moving AI map and scenario files: serial, and in parallel on Dask.

The maps here are generated with their optima computed by the independent reference Dijkstra
(tests/unit/reference.py), plus a shared benchmark map when the benchmarks are there; a Dask
sweep must give the serial sweep's rows (all but the measured ``ms``), and both the optima.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from arcstar.cli import main
from arcstar.sweeps import CHUNK, read_pairs, run_serial
from conftest import CORE, benchmarks_dir
from reference import dijkstra


def write_pair(folder: Path, name: str, seed: int, width: int, height: int, problems: int) -> tuple[str, str]:
    """A random .map (20% walls) and a .scen of ``problems`` reachable pairs with reference optima."""
    rng = np.random.default_rng(seed)
    walls = rng.random((height, width)) < 0.2
    costs = np.where(walls, math.inf, 1.0)
    rows = ["".join("@" if w else "." for w in row) for row in walls]
    (folder / f"{name}.map").write_text(f"type octile\nheight {height}\nwidth {width}\nmap\n" + "\n".join(rows) + "\n")
    free = np.argwhere(~walls)
    lines = ["version 1"]
    while len(lines) <= problems:
        (sy, sx), (gy, gx) = free[rng.integers(len(free), size=2)]
        best = dijkstra(costs, (int(sx), int(sy)), (int(gx), int(gy)))
        if best is not None:
            lines.append(f"0\t{name}.map\t{width}\t{height}\t{sx}\t{sy}\t{gx}\t{gy}\t{best:.8f}")
    (folder / f"{name}.map.scen").write_text("\n".join(lines) + "\n")
    return str(folder / f"{name}.map"), str(folder / f"{name}.map.scen")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Three generated pairs (one longer than a chunk) and, when present, the arena benchmark."""
    folder = tmp_path_factory.mktemp("sweeps")
    out: list[str] = []
    for seed, (w, h, n) in enumerate([(40, 30, CHUNK + 9), (25, 25, 20), (60, 12, 30)]):
        out += write_pair(folder, f"gen{seed}", seed, w, h, n)
    bench = benchmarks_dir()
    if bench is not None and (bench / "maps" / "arena.map").is_file():
        out += [str(bench / "maps" / "arena.map"), str(bench / "scen" / "arena.map.scen")]
    return out


def scen_optima(path: str) -> list[float]:
    """The ninth field of every problem line, read here (not by the core's reader)."""
    return [float(line.split("\t")[8]) for line in Path(path).read_text().splitlines()[1:] if line.strip()]


def without_ms(doc: list[dict]) -> list[dict]:
    return [{**f, "rows": [{k: v for k, v in r.items() if k != "ms"} for r in f["rows"]]} for f in doc]


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(CORE)}
    return subprocess.run([sys.executable, "-m", "arcstar", "scen", *args], capture_output=True, text=True,
                          env=env, timeout=timeout)


def test_serial_sweep_finds_every_optimum_in_file_order(files: list[str]) -> None:
    results = run_serial(read_pairs(files), "astar")
    assert [r.map_path for r in results] == files[::2]
    for r, scen in zip(results, files[1::2], strict=True):
        optima = scen_optima(scen)
        assert [row["id"] for row in r.rows] == list(range(len(optima)))
        assert [row["optimal"] for row in r.rows] == pytest.approx(optima)
        assert [row["cost"] for row in r.rows] == pytest.approx(optima, rel=1e-6, abs=1e-4)  # files round optima
        assert r.wrong == []


def test_one_pair_keeps_the_old_format_and_several_name_their_files(files: list[str], capsys) -> None:
    assert main(["scen", *files[:2], "--json", "--first", "5"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [set(r) for r in rows] == [{"id", "optimal", "cost", "expanded", "ms"}] * 5
    assert main(["scen", *files[:4], "--json", "--first", "3"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(f["map"], f["scen"], len(f["rows"])) for f in doc] == [(files[0], files[1], 3), (files[2], files[3], 3)]
    assert main(["scen", *files[:4], "--first", "3"]) == 0
    text = capsys.readouterr().out
    assert f"== {files[0]} {files[1]}" in text and "2 files, 6 problems, 0 not optimal" in text


@pytest.mark.no_pyodide
def test_dask_sweep_gives_the_serial_rows(files: list[str]) -> None:
    pytest.importorskip("distributed")
    serial = run_cli(*files, "--json")
    on_dask = run_cli(*files, "--json", "--dask", "--workers", "2")
    assert serial.returncode == 0, serial.stderr
    assert on_dask.returncode == 0, on_dask.stderr
    serial_doc, dask_doc = json.loads(serial.stdout), json.loads(on_dask.stdout)
    assert without_ms(dask_doc) == without_ms(serial_doc)
    assert sum(len(f["rows"]) for f in dask_doc) == sum(len(scen_optima(s)) for s in files[1::2])
    for f in dask_doc:
        assert [r["cost"] for r in f["rows"]] == pytest.approx(scen_optima(f["scen"]), rel=1e-6, abs=1e-4)


@pytest.mark.no_pyodide
def test_a_wrong_optimum_is_flagged_on_dask_as_serially(tmp_path: Path, files: list[str]) -> None:
    pytest.importorskip("distributed")
    lie = tmp_path / "lie.scen"
    text = Path(files[1]).read_text().splitlines()
    fields = text[1].split("\t")
    fields[8] = f"{float(fields[8]) + 1:.8f}"
    lie.write_text("\n".join([text[0], "\t".join(fields), *text[2:]]) + "\n")
    serial = run_cli(files[0], str(lie), "--json")
    on_dask = run_cli(files[0], str(lie), "--json", "--dask")
    assert serial.returncode == on_dask.returncode == 1, on_dask.stderr
    assert without_ms([{"rows": json.loads(on_dask.stdout)}]) == without_ms([{"rows": json.loads(serial.stdout)}])


def test_bad_files_and_arguments_are_refused_before_any_work(tmp_path: Path, files: list[str], capsys) -> None:
    (tmp_path / "cut.scen").write_text("version 1\n0\tt.map\t4\t3\t0\n")
    (tmp_path / "out.scen").write_text("version 1\n0\tt.map\t4\t3\t0\t0\t300\t2\t3\n")
    (tmp_path / "bin.map").write_bytes(b"\xff\xfe\x00junk")
    cases = [
        ([files[0]], "pairs"),
        ([*files[:2], files[2]], "pairs"),
        ([files[0], str(tmp_path / "cut.scen")], "fields"),
        ([files[0], str(tmp_path / "out.scen")], "outside"),
        ([files[0], str(tmp_path / "none.scen")], "cannot read"),
        ([str(tmp_path / "bin.map"), files[1]], "map"),
        ([*files[:2], "--first", "0"], "--first"),
    ]
    for args, says in cases:
        # --dask too: the files are checked before a cluster is started (it would take seconds)
        assert main(["scen", *args, "--dask"]) == 2, args
        assert says in capsys.readouterr().err, args


def test_without_dask_the_flag_says_how_to_install_it(files: list[str], monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    assert main(["scen", *files[:2], "--dask"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'arcstar[dask]'" in err and "not installed" in err
    assert main(["scen", *files[:2], "--scheduler", "tcp://127.0.0.1:8786"]) == 2
    assert "arcstar[dask]" in capsys.readouterr().err


@pytest.mark.no_pyodide
def test_a_scheduler_that_is_not_there_or_malformed_gets_a_clear_error(files: list[str]) -> None:
    pytest.importorskip("distributed")
    for address, says in [("tcp://127.0.0.1:9", "cannot reach the Dask scheduler"),
                          ("not a scheduler", "cannot reach the Dask scheduler")]:
        proc = run_cli(*files[:2], "--scheduler", address, "--timeout", "2")
        assert proc.returncode == 2, proc.stderr
        assert says in proc.stderr and "Traceback" not in proc.stderr
    proc = run_cli(*files[:2], "--scheduler", "tcp://127.0.0.1:9", "--timeout", "nan")
    assert proc.returncode == 2 and "--timeout" in proc.stderr
    proc = run_cli(*files[:2], "--dask", "--workers", "100000")
    assert proc.returncode == 2 and "--workers" in proc.stderr


@pytest.mark.no_pyodide
def test_the_core_imports_and_plans_without_dask() -> None:
    code = ("import sys, arcstar, arcstar.cli, arcstar.sweeps\n"
            "assert not {'dask', 'distributed'} & set(sys.modules), 'dask imported'\n"
            "print(arcstar.plan(arcstar.parse_ascii('S..G').map, (0, 0), (3, 0)).status)")
    env = {**os.environ, "PYTHONPATH": str(CORE)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "found"


@pytest.mark.no_pyodide
def test_a_task_that_fails_on_a_worker_is_one_clear_error(files: list[str]) -> None:
    pytest.importorskip("distributed")
    from arcstar.sweeps import SweepError, run_dask
    with pytest.raises(SweepError, match="failed on a worker: BadInput: .*nonsense"):
        run_dask(read_pairs(files[:2], first=3), "nonsense", workers=1)
