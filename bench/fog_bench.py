"""Fog re-planning (issue 11): D* Lite's incremental re-plan against a fresh A* after each discovery.

A unit with a sight radius walks from its start to its goal on a map it does not know (unknown
tiles planned as open ground). Each step it moves to the next tile of its plan, sees the true
terrain within the radius, and when that changed its known map it re-plans: the incremental
planner (``arcstar.search.incremental``: move_to + update + plan) and, on the same known map, a
fresh A* (a ``GridGraph`` built from it, then ``AStar`` with octile H). Both costs must agree.

Pure Python + numpy + arcstar, so it runs in Pyodide too (bench/pyodide_runner.mjs calls
``run_request_json``). Standalone: ``python bench/fog_bench.py [--quick]`` (pycore/ on the path).
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from arcstar.maps.mapio import parse_movingai_map
from arcstar.maps.tilemap import GROUND, TileMap
from arcstar.outcomes import Status
from arcstar.search.engine import AStar
from arcstar.search.grid import GridGraph, GridOptions
from arcstar.search.incremental import IncrementalPlanner

OPTIONS = GridOptions(costs="octile")  # 8 neighbours, no corner cutting, 1 and sqrt 2
MOVINGAI_MAP = "Berlin_0_256"  # a 256x256 city map; its top-left 128x128 window for 128


def random_map(size: int, density: float, rng: np.random.Generator) -> TileMap:
    return TileMap.from_blocked(rng.random((size, size)) < density)


def movingai_window(data_dir: str, size: int) -> TileMap | None:
    path = Path(data_dir) / "maps" / f"{MOVINGAI_MAP}.map"
    if not path.is_file():
        return None
    full = parse_movingai_map(path.read_text(encoding="latin-1"))
    return TileMap(full.terrain[:size, :size].copy(), full.terrains.values())


def fresh_astar(known: TileMap, tile: tuple[int, int], goal: tuple[int, int]) -> tuple[AStar, float]:
    """A fresh A* on a freshly built graph of the known map; the search and the total ms."""
    t0 = time.perf_counter()
    graph = GridGraph(known, OPTIONS)
    search = AStar(graph, graph.node(*tile), [graph.node(*goal)], heuristic="octile")
    search.run()
    return search, (time.perf_counter() - t0) * 1000.0


def endpoints(true_map: TileMap, rng: np.random.Generator) -> tuple[tuple[int, int], tuple[int, int]]:
    """A start and a goal far apart (at least 0.6 of the side, octile) joined on the true map."""
    open_tiles = np.argwhere(~true_map.blocked)
    side = max(true_map.width, true_map.height)
    for _ in range(500):
        (sy, sx), (gy, gx) = open_tiles[rng.integers(len(open_tiles), size=2)]
        if max(abs(int(sx) - int(gx)), abs(int(sy) - int(gy))) < 0.6 * side:
            continue
        start, goal = (int(sx), int(sy)), (int(gx), int(gy))
        if fresh_astar(true_map, start, goal)[0].status == Status.FOUND:
            return start, goal
    raise RuntimeError("no far-apart connected endpoints on this map")


def reveal(true_map: TileMap, known: TileMap, at: tuple[int, int], radius: float) -> list[tuple[int, int]]:
    """Copy the true terrain within ``radius`` of ``at`` (between tile centres) into ``known``."""
    x0, y0 = at
    r = int(radius)
    ys, xs = np.mgrid[max(0, y0 - r):min(true_map.height, y0 + r + 1), max(0, x0 - r):min(true_map.width, x0 + r + 1)]
    near = (xs - x0) ** 2 + (ys - y0) ** 2 <= radius * radius
    differ = near & (known.terrain[ys, xs] != true_map.terrain[ys, xs])
    changed = list(zip(xs[differ].tolist(), ys[differ].tolist(), strict=True))
    if changed:
        known.terrain[ys[differ], xs[differ]] = true_map.terrain[ys[differ], xs[differ]]
        known.touch()
    return changed


def walk(true_map: TileMap, start: tuple[int, int], goal: tuple[int, int], radius: float) -> dict:
    """One unit's walk; per discovery the two re-plans' expansions and ms."""
    known = TileMap(np.full(true_map.terrain.shape, GROUND, np.uint8), true_map.terrains.values())
    rows: list[tuple[int, float, int, float, float]] = []
    wrong = 0
    tile = start
    t0 = time.perf_counter()
    planner = IncrementalPlanner(known, start, goal, OPTIONS)
    planner.update(reveal(true_map, known, tile, radius))
    path = planner.plan()
    first = (planner.expanded, (time.perf_counter() - t0) * 1000.0)
    search, ms = fresh_astar(known, tile, goal)
    first_astar = (search.expanded, ms)
    move_only = 0
    for _ in range(4 * true_map.width * true_map.height):
        if path is None or tile == goal:
            break
        tile = path[1]
        t0 = time.perf_counter()
        planner.move_to(tile)
        inc_ms = (time.perf_counter() - t0) * 1000.0
        changed = reveal(true_map, known, tile, radius)
        t0 = time.perf_counter()
        planner.update(changed)
        path = planner.plan()
        inc_ms += (time.perf_counter() - t0) * 1000.0
        if not changed:
            move_only += planner.expanded
            continue
        search, ms = fresh_astar(known, tile, goal)
        if search.cost is None or planner.cost is None or not math.isclose(search.cost, planner.cost, rel_tol=1e-9):
            wrong += 1
        rows.append((planner.expanded, inc_ms, search.expanded, search.ms, ms))
    return {"arrived": tile == goal, "rows": rows, "wrong": wrong, "first": first, "first_astar": first_astar,
            "move_only_expansions": move_only}


def measure(kind: str, size: int, walks: int, seed: int, radius: float, data_dir: str | None) -> dict | None:
    rng = np.random.default_rng(seed + size)
    true_map = random_map(size, 0.2, rng) if kind == "random" else \
        movingai_window(data_dir, size) if data_dir else None
    if true_map is None:
        return None
    runs = [walk(true_map, *endpoints(true_map, rng), radius) for _ in range(walks)]
    rows = [r for run in runs for r in run["rows"]]
    med = [statistics.median(col) if rows else None for col in zip(*rows, strict=True)] or [None] * 5
    inc_exp, inc_ms, a_exp, a_ms, a_total_ms = med
    return {
        "map": f"random 20% walls {size}x{size}" if kind == "random" else f"{MOVINGAI_MAP} {size}x{size} window",
        "size": size, "walks": walks, "arrived": sum(r["arrived"] for r in runs),
        "discoveries": len(rows), "wrong": sum(r["wrong"] for r in runs),
        "incremental_expansions": inc_exp, "astar_expansions": a_exp,
        "expansion_ratio": a_exp / inc_exp if rows and inc_exp else None,
        "total_expansion_ratio": sum(r[2] for r in rows) / max(1, sum(r[0] for r in rows)) if rows else None,
        "incremental_ms": inc_ms, "astar_ms": a_ms, "astar_with_graph_ms": a_total_ms,
        "time_ratio": a_ms / inc_ms if rows and inc_ms else None,
        "time_ratio_with_graph": a_total_ms / inc_ms if rows and inc_ms else None,
        "first_plan": [r["first"] for r in runs], "first_astar": [r["first_astar"] for r in runs],
        "move_only_expansions": sum(r["move_only_expansions"] for r in runs),
    }


def run_request(request: dict) -> dict:
    """What the section asks: {"sizes", "kinds", "walks", "seed", "radius", "data_dir"}."""
    results = []
    for size in request.get("sizes", [128, 256]):
        for kind in request.get("kinds", ["random", "movingai"]):
            r = measure(kind, size, request.get("walks", 2), request.get("seed", 1), request.get("radius", 5.0),
                        request.get("data_dir"))
            if r is not None:
                results.append(r)
    return {"runtime": {"python": sys.version.split()[0]}, "results": results}


def run_request_json(text: str) -> str:
    return json.dumps(run_request(json.loads(text)))


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(json.dumps(run_request({"walks": 1 if quick else 2, "sizes": [128] if quick else [128, 256]}), indent=1))
