"""The benchmark harness runs, and its answer checker catches wrong answers (no timing asserts)."""

import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Marked no_pyodide (bench/ is not mounted there); imports happen in the tests, so collecting
# this file inside Pyodide does not fail.
pytestmark = pytest.mark.no_pyodide


def bench_module(name: str):
    if not (ROOT / "bench" / "__init__.py").is_file():
        pytest.skip("bench/ is not beside tests/")
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return importlib.import_module(f"bench.{name}")


@pytest.fixture
def sb():
    return bench_module("search_bench")


def test_walk_length_checks_moves_and_corner_cutting(sb):
    blocked = [[False, False, False], [False, True, False], [False, False, False]]
    assert sb.walk_length(blocked, [(0, 0), (2, 0), (2, 2)]) == (4.0, "")  # jump points are fine
    length, why = sb.walk_length(blocked, [(0, 0), (1, 1)])
    assert length is None and "blocked" in why
    length, why = sb.walk_length(blocked, [(1, 0), (2, 1)])  # slides past the wall's corner
    assert length is None and "corner" in why
    length, why = sb.walk_length(blocked, [(0, 0), (2, 1)])
    assert length is None and "neither" in why
    assert sb.walk_length(blocked, [(0, 0)]) == (0.0, "")


def test_pick_is_fixed_and_spread_over_buckets(sb):
    scen = [type("S", (), {"id": i, "bucket": i // 10})() for i in range(100)]
    a, b = sb.pick(scen, 10, seed=3), sb.pick(scen, 10, seed=3)
    assert [s.id for s in a] == [s.id for s in b]
    assert sorted(s.bucket for s in a) == list(range(10))


def test_search_cpython_section_on_arena_has_rows_and_right_answers():
    common = bench_module("common")
    if common.data_dir() is None:
        pytest.skip("the shared Moving AI benchmarks are not beside the repo")
    sections_search = bench_module("sections_search")
    res = sections_search.search_cpython(common.Context(maps=["arena"], per_map=2, verbose=False))
    assert res.status == "ok"
    (table,) = res.tables
    methods = [row[2] for row in table.rows]
    assert any(m.startswith("astar") for m in methods)
    assert res.wrong_answers == 0
    for row in res.data["maps"][0]["rows"]:
        assert row["queries"] >= 1, row
        assert row["mismatches"] == 0 and row["bad_paths"] == 0, row
    assert "| arena |" in table.markdown()
