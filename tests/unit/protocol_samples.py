"""Real protocol messages, made by the real ``Service``: one or more of every type.

Shared by ``test_protocol.py`` (validated with jsonschema) and ``tests/js/protocol.test.mjs``
(validated with ajv: it runs ``python -m protocol_samples`` and reads the JSON it prints), so
both sides check the same messages against the same schema.
"""

from __future__ import annotations

import json

import numpy as np

from arcstar.directional.figures import FIGURES
from arcstar.service import Service

# What worker.js posts itself (the answers the service does not make): boot progress, and that
# its runtime broke.
BOOT_SAMPLES = [
    {"type": "boot", "stage": "pyodide", "progress": 0.05, "message": "Loading the Python runtime (Pyodide)…"},
    {"type": "boot", "stage": "failed", "progress": 0, "message": "The engine failed to load: no numpy"},
    {"type": "boot", "stage": "ready", "progress": 1, "message": "Engine ready in 1.8 s", "from_snapshot": True},
    {"type": "crashed", "message": "the Python runtime failed: RangeError: Maximum call stack size exceeded"},
]


def call(svc: Service, msg: dict, cells: object = None) -> dict:
    """Send one request (as JSON text, as the worker does) and read the answer."""
    return json.loads(svc.handle(json.dumps(msg), cells))


def plan_msg(id_: object, w: int, h: int, start: list, goal: list, version: object = 1, **options: object) -> dict:
    return {"type": "plan", "id": id_, "map": {"width": w, "height": h, "version": version},
            "start": start, "goal": goal, "options": options}


def run_to_end(svc: Service, id_: object, budget_ms: float = 5) -> tuple[dict, list[dict]]:
    """Step a search to its end: the last answer, and the progress answers before it."""
    progress = []
    for _ in range(100_000):
        out = call(svc, {"type": "step", "id": id_, "budget_ms": budget_ms})
        if out["type"] != "progress":
            return out, progress
        progress.append(out)
    raise AssertionError("search did not end")


def serpentine(w: int = 300, h: int = 300) -> np.ndarray:
    """A map of long walls with gaps at alternate ends: a long search."""
    grid = np.zeros((h, w), dtype=np.uint8)
    for x in range(10, w - 1, 20):
        grid[0 if x % 40 == 10 else 1:h - (1 if x % 40 == 10 else 0), x] = 1
    return grid


def samples() -> dict[str, list[dict]]:
    """Requests the service accepted and answers it gave, in the service's JSON form:
    ``{"requests": [...], "answers": [...]}`` (answers include ``BOOT_SAMPLES``)."""
    svc = Service()
    requests: list[dict] = []
    answers: list[dict] = list(BOOT_SAMPLES)

    def ask(msg: dict, cells: object = None) -> dict:
        requests.append(msg)
        out = call(svc, msg, cells)
        answers.append(out)
        return out

    def finish(id_: object, budget_ms: float = 50) -> None:
        while ask({"type": "step", "id": id_, "budget_ms": budget_ms})["type"] == "progress":
            pass

    # a small plan to its result, with explored tiles and the replay trace
    grid = np.zeros((5, 7), dtype=np.uint8)
    grid[1:4, 3] = 1
    ask(plan_msg("small", 7, 5, [1, 2], [5, 2]), grid.tobytes())
    finish("small")
    # a turned path: segments, legality, waypoints
    ask(plan_msg(2, 7, 5, [1, 2], [5, 2], turning="tighter", radius=1, trace=False))
    finish(2)
    # the other ends: unreachable (walled in), no path (too wide for the gap), budget exhausted
    walled = np.zeros((4, 4), dtype=np.uint8)
    walled[0:3, 2] = walled[2, 2:] = 1
    ask(plan_msg("walled", 4, 4, [0, 0], [3, 0], version="w"), walled.tobytes())
    finish("walled")
    gap = np.zeros((7, 9), dtype=np.uint8)
    gap[:, 4] = 1
    gap[3, 4] = 0
    ask(plan_msg("wide", 9, 7, [1, 3], [7, 3], version="gap", width=2), gap.tobytes())
    finish("wide")
    ask(plan_msg("tired", 9, 7, [1, 3], [7, 3], version="gap", max_expansions=2))
    finish("tired")
    # the hybrid on Pinter's Figure 21a: its steps (stages) for the lab to draw
    fig = FIGURES["figure21a"]
    loaded = fig.loaded
    assert loaded.start is not None and loaded.goal is not None
    hybrid = plan_msg("hybrid", loaded.map.width, loaded.map.height, [*loaded.start, fig.start_heading],
                      list(loaded.goal), version="fig21a", method="hybrid", radius=fig.radius, width=1.0)
    ask(hybrid, np.ascontiguousarray(loaded.map.terrain, dtype=np.uint8).tobytes())
    finish("hybrid")
    # progress on a big map with a tiny budget, then cancelled
    big = serpentine()
    ask(plan_msg(7, 300, 300, [0, 0], [299, 299], version="big", heuristic="octile"), big.tobytes())
    ask({"type": "step", "id": 7, "budget_ms": 0.5})
    ask({"type": "cancel", "id": 7})
    # errors: bad input with a field, and the request as a whole
    ask(plan_msg(8, 300, 300, [0, 0], [299, 299], version="big", weight="heavy"))
    ask({"type": "step", "id": "nothing", "budget_ms": 8})
    # the requests answered at once
    ask({"type": "info", "id": "i"})
    ask({"type": "load_map", "id": "m", "text": "type octile\nheight 2\nwidth 3\nmap\n.@.\n...\n"})
    ask({"type": "load_map", "id": "art", "text": "S.#\n..G\n"})
    ask({"type": "load_scen", "id": "s", "width": 3, "height": 2,
         "text": "version 1\n0\tm.map\t3\t2\t0\t0\t2\t0\t3.41421\n"})
    grid = np.array([[0, 2, 6], [1, 0, 0]], dtype=np.uint8)  # ground, road, water; wall, ground
    ask({"type": "write_map", "id": "wm", "map": {"width": 3, "height": 2, "version": "wm",
                                                  "terrain_costs": [[6, 2.0]]}, "format": "movingai"}, grid.tobytes())
    ask({"type": "describe", "id": "d", "options": {"method": "astar", "heuristic": "octile"}})
    ask({"type": "describe", "id": "d2", "options": {"turning": "tighter", "radius": 2}})
    world_samples(ask)
    ask({"type": "generate", "id": "g", "kind": "caves", "width": 20, "height": 12, "seed": 5, "density": 0.45})
    ask({"type": "generate", "id": "g2", "kind": "maze", "width": 9, "height": 7, "seed": 0, "corridor": 1})
    user_code_samples(ask, finish)
    return {"requests": requests, "answers": answers}


def user_code_samples(ask, finish) -> None:  # noqa: ANN001 (the samples' recorder)
    """The Python panel: check_code, a plan with user code to its result, and a code_error."""
    code = "def heuristic(x, y, gx, gy):\n    return 10 * max(abs(x - gx), abs(y - gy))\n"
    ask({"type": "check_code", "id": "cc", "code": code})
    grid = np.zeros((5, 7), dtype=np.uint8)
    grid[1:4, 3] = 1
    ask({**plan_msg("user", 7, 5, [1, 2], [5, 2], version="user"), "code": code}, grid.tobytes())
    finish("user")
    ask({"type": "check_code", "id": "bad", "code": "def cost(x, y, t):\n    return -1\n"})


def world_samples(ask) -> None:  # noqa: ANN001 (the samples' recorder)
    """Units in motion: every world request and answer, the state with paths and claimed tiles."""
    ask({"type": "world_info", "id": "wi"})
    doc = ask({"type": "world_preset", "id": "wp", "name": "corridor_bay"})
    rows = doc["map"]
    grid = np.array([[1 if c == "#" else 0 for c in r] for r in rows], dtype=np.uint8)
    h, w = grid.shape
    ask({"type": "world_start", "id": "ws", "map": {"width": w, "height": h, "version": "bay"}, "seed": 1,
         "avoidance": "none", "dt": 0.05, "fog": False}, grid.tobytes())
    ask({"type": "world_add", "id": "wa", "units": doc["units"]})
    ask({"type": "world_add", "id": "wa2", "units": [{"id": "p", "kind": "person", "team": "red",
                                                       "start": [3.5, 1.5, None]}]})
    ask({"type": "world_order", "id": "wo", "units": ["p"], "order": "move", "points": [[5.5, 1.5, 0.0]],
         "queue": False, "spread": False})
    ask({"type": "world_step", "id": "wt", "ticks": 20, "budget_ms": 100, "claimed": True, "paths": True,
         "team": "red", "full": True})
    ask({"type": "world_remove", "id": "wr", "units": ["p"]})
    ask({"type": "world_order", "id": "wo2", "units": ["a"], "order": "patrol", "points": [[8.5, 2.5]]})


if __name__ == "__main__":  # for tests/js/protocol.test.mjs
    print(json.dumps(samples()))
