"""The engine on the Moving AI benchmark maps: costs equal the scenarios' optimal lengths."""

import random

import pytest

import arcstar
from arcstar.maps.mapio import load_map, parse_scen
from conftest import benchmarks_dir
from reference import check_path

ROOT = benchmarks_dir()
MAPS = sorted(p.name[:-4] for p in (ROOT / "maps").glob("*.map")) if ROOT else []
pytestmark = pytest.mark.skipif(ROOT is None, reason="the shared Moving AI benchmarks are not beside this checkout")


def tolerance(opt: float, two_decimals: bool) -> float:
    """The benchmark README's advice: relative 1e-6, or half a unit of the printed digits."""
    return max(1e-6 * opt, 0.005 if two_decimals else 5e-6 * opt)


def load(name):
    m = load_map(ROOT / "maps" / f"{name}.map").map
    text = (ROOT / "scen" / f"{name}.map.scen").read_text()
    return m, parse_scen(text, m), text.startswith("version 1.0")


def sample(scens, n, seed=7):
    """The longest scenario and n - 1 others spread over the buckets (fixed seed)."""
    longest = max(scens, key=lambda s: s.optimal)
    rng = random.Random(seed)
    return [longest] + rng.sample(scens, min(n - 1, len(scens)))


@pytest.mark.parametrize("name", MAPS)
def test_astar_matches_optimal_lengths(name):
    m, scens, two_dec = load(name)
    assert len(scens) > 0
    for sc in sample(scens, 6):
        r = arcstar.plan(m, sc.start, sc.goal, costs="octile", heuristic="octile")
        assert r.status == "found"
        assert abs(r.cost - sc.optimal) <= tolerance(sc.optimal, two_dec), (sc, r.cost)
        assert abs(r.length - r.cost) < 1e-6  # uniform terrain: cost is the geometric length
        check_path(m.blocked, r.path, sc.start, sc.goal)


@pytest.mark.parametrize("name", MAPS)
def test_dijkstra_matches_optimal_lengths(name):
    m, scens, two_dec = load(name)
    small = m.width * m.height <= 256 * 256  # Dijkstra floods the map: the longest problem only on big ones
    for sc in sample(scens, 3 if small else 1, seed=11):
        r = arcstar.plan(m, sc.start, sc.goal, method="dijkstra", costs="octile")
        assert abs(r.cost - sc.optimal) <= tolerance(sc.optimal, two_dec), (sc, r.cost)


def test_every_arena_scenario():
    m, scens, two_dec = load("arena")
    for sc in scens:
        r = arcstar.plan(m, sc.start, sc.goal, costs="octile", heuristic="octile")
        assert abs(r.cost - sc.optimal) <= tolerance(sc.optimal, two_dec), (sc, r.cost)


def test_lester_costs_scale_the_same_paths():
    m, scens, _ = load("arena")
    for sc in scens[::40]:
        octile = arcstar.plan(m, sc.start, sc.goal, costs="octile", heuristic="octile")
        lester = arcstar.plan(m, sc.start, sc.goal, costs="lester", heuristic="octile")
        assert lester.cost <= 10 * octile.cost + 1e-9  # 14 < 10 sqrt 2: never dearer than scaled


@pytest.mark.parametrize("name", ["arena", "brc202d", "AR0011SR", "8room_000", "Berlin_0_256"])
def test_every_method_through_the_planner(name):
    m, scens, two_dec = load(name)
    for sc in sample(scens, 3, seed=5):
        for method in ("jps", "jpsplus", "hpa"):
            r = arcstar.plan(m, sc.start, sc.goal, method=method, costs="octile")
            assert r.status == "found" and r.method == method
            check_path(m.blocked, r.path, sc.start, sc.goal)
            if method == "hpa":
                tol = tolerance(sc.optimal, two_dec)
                assert sc.optimal - tol <= r.cost <= 1.4 * sc.optimal + tol  # the stated bound
            else:
                assert r.optimal and abs(r.cost - sc.optimal) <= tolerance(sc.optimal, two_dec), (method, sc)
