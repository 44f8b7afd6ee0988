"""What the Web Worker calls: a JSON request/response protocol over timesliced plans.

One entry point, ``Service.handle(message_json, cells=None) -> response_json``; it never
raises: every failure comes back as ``{"type": "error", "id": ..., "message": ...}``.

Requests:
- ``{"type": "plan", "id": ID, "map": {"width": W, "height": H, "version": V},
  "start": [x, y], "goal": [x, y], "options": {...}}`` with ``cells`` the W*H terrain codes
  (uint8, row-major ``y * W + x``) as any buffer; without ``cells`` the map cached under that
  version is used. Answers ``{"type": "started", "id": ID}``.
- ``{"type": "step", "id": ID, "budget_ms": 8}``: works for about that long, then answers
  ``progress`` (``expanded``, ``open``), or ``result`` (``result``: the plan as JSON), after
  which the job is gone. With the ``trace`` option (on by default) the result also says
  ``closed_count``, ``open_count`` and ``"explored": true``: the explored tiles wait as one byte
  per tile (0 unseen, 1 open, 2 closed) for ``take_buffer()``, so a million tiles cross to
  JavaScript as one typed array instead of JSON. For at most ``search.TRACE_DETAIL_LIMIT``
  expansions it also holds ``trace``: ``{"buffers": {name: dtype}}`` naming arrays to fetch with
  ``take_buffer("trace." + name)``: ``nodes``, ``g``, ``h``, ``parent`` (final state of each tile
  seen, flat indices, parent -1 for the start), and for replay ``order`` (tiles in expansion
  order), ``updates`` (float64 [tile, g, parent, ...] triples in the order they happened) and
  ``marks`` (triples made before each expansion).
- ``{"type": "cancel", "id": ID}``: answers ``cancelled``.
- ``{"type": "load_map", "id": ID, "text": "..."}``: reads a Moving AI ``.map``, arcstar JSON or
  ASCII art with the core's readers; answers ``{"type": "map", "width", "height", "start",
  "goal", "terrains": [{code, name, char, cost}]}`` with the terrain codes for ``take_buffer()``.
- ``{"type": "load_scen", "id": ID, "text": "...", "width": W, "height": H}``: reads a ``.scen``
  file and checks it against a map of that size; answers ``{"type": "scenarios", "scenarios":
  [{id, bucket, start, goal, optimal}]}``.

- ``{"type": "info", "id": ID}``: what this core offers: methods, heuristics, diagonal policies,
  cost models, open lists, stop rules, the default terrain types, and ``limits``: per method,
  the options it accepts (``planner.METHOD_LIMITS``).

A plan's ``map`` may carry ``terrain_costs``: ``[[code, cost or null (impassable)], ...]``,
applied to the default terrain types (send a new ``version`` when they change).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass

import numpy as np

from . import __version__
from .grid import COST_MODELS, DIAGONAL_POLICIES
from .heuristics import HEURISTICS
from .mapio import load_text, map_to_json, parse_scen
from .openlists import OPEN_LISTS
from .planner import METHOD_LIMITS, METHODS, PlanJob, PlanOptions
from .search import STOP_RULES, TRACE_DETAIL_LIMIT
from .tilemap import DEFAULT_TERRAINS, TileMap, check_size

MAX_BUDGET_MS = 1000.0
MAX_JOBS = 8


@dataclass
class _Job:
    plan: PlanJob
    chunk: int = 256


class Service:
    """Holds the current map (by version) and the running plans of one worker."""

    def __init__(self) -> None:
        self.map: TileMap | None = None
        self.map_version: object = None
        self.jobs: dict[object, _Job] = {}
        self.buffers: dict[str, bytes] = {}

    def take_buffer(self, name: str = "explored") -> bytes | None:
        """A binary array of the last answer, once (None when there is none): ``explored`` or
        ``cells`` (one byte per tile) or ``trace.*`` (see the module docstring)."""
        return self.buffers.pop(name, None)

    def handle(self, message_json: str, cells: object = None) -> str:
        """Answer one request (JSON text in, JSON text out); never raises."""
        msg_id = None
        try:
            try:
                msg = json.loads(message_json)
            except (TypeError, ValueError) as e:
                raise ValueError(f"request is not valid JSON: {e}") from None
            if not isinstance(msg, dict):
                raise ValueError("request must be a JSON object")
            if not isinstance(msg.get("id"), (str, int)) or isinstance(msg.get("id"), bool):
                raise ValueError("request needs an 'id' (a string or an integer)")
            msg_id = msg["id"]
            kind = msg.get("type")
            if kind == "plan":
                out = self._plan(msg, cells)
            elif kind == "step":
                out = self._step(msg)
            elif kind == "cancel":
                out = self._cancel(msg)
            elif kind == "info":
                out = self._info(msg)
            elif kind == "load_map":
                out = self._load_map(msg)
            elif kind == "load_scen":
                out = self._load_scen(msg)
            else:
                raise ValueError(f"unknown request type {kind!r} "
                                 "(expected plan, step, cancel, info, load_map or load_scen)")
        except ValueError as e:
            out = {"type": "error", "id": msg_id, "message": str(e)}
        except Exception as e:  # a bug must not kill the worker: report it instead
            self.jobs.pop(msg_id, None)
            out = {"type": "error", "id": msg_id, "message": f"internal error: {type(e).__name__}: {e}"}
        return json.dumps(out, allow_nan=False)

    # -- requests ---------------------------------------------------------------------------
    def _plan(self, msg: dict, cells: object) -> dict:
        spec = msg.get("map")
        if not isinstance(spec, dict):
            raise ValueError("plan request needs a 'map' object with width, height and version")
        tilemap = self._map(spec, cells)
        raw = msg.get("options", {})
        options = PlanOptions.from_dict({"trace": True, **raw} if isinstance(raw, dict) else raw)
        if len(self.jobs) >= MAX_JOBS and msg["id"] not in self.jobs:
            raise ValueError(f"too many searches at once (at most {MAX_JOBS}): cancel one first")
        job = PlanJob(tilemap, msg.get("start"), msg.get("goal"), options)
        old = self.jobs.pop(msg["id"], None)
        if old is not None:
            old.plan.cancel()
        self.jobs[msg["id"]] = _Job(job)
        return {"type": "started", "id": msg["id"]}

    def _map(self, spec: dict, cells: object) -> TileMap:
        version = spec.get("version")
        if cells is None:
            if self.map is None or version != self.map_version:
                raise ValueError(f"no map with version {version!r} was sent: send its cells")
            return self.map
        width, height = spec.get("width"), spec.get("height")
        check_size(width, height)
        if hasattr(cells, "to_py"):  # a JavaScript typed array inside Pyodide
            cells = cells.to_py()
        try:
            data = np.frombuffer(bytes(memoryview(cells)), dtype=np.uint8)
        except TypeError:
            raise ValueError("map cells must be a byte buffer (a Uint8Array)") from None
        if data.size != width * height:
            raise ValueError(f"map cells hold {data.size} values, expected width x height = {width * height}")
        tilemap = TileMap(data.reshape(height, width).copy())
        costs = spec.get("terrain_costs", [])
        if not isinstance(costs, list):
            raise ValueError("map terrain_costs must be a list of [code, cost] pairs")
        for pair in costs:
            if not isinstance(pair, list) or len(pair) != 2 or not isinstance(pair[0], int):
                raise ValueError(f"map terrain_costs entries must be [code, cost], got {pair!r}")
            tilemap.set_cost(pair[0], math.inf if pair[1] is None else pair[1])
        self.map, self.map_version = tilemap, version
        return tilemap

    @staticmethod
    def _info(msg: dict) -> dict:
        return {"type": "info", "id": msg["id"], "version": __version__, "methods": list(METHODS),
                "heuristics": list(HEURISTICS), "diagonal": list(DIAGONAL_POLICIES),
                "costs": list(COST_MODELS), "open_lists": list(OPEN_LISTS), "stop": list(STOP_RULES),
                "limits": METHOD_LIMITS,
                "terrains": [{"code": t.code, "name": t.name, "char": t.char,
                              "cost": None if math.isinf(t.cost) else t.cost} for t in DEFAULT_TERRAINS]}

    def _load_map(self, msg: dict) -> dict:
        text = msg.get("text")
        if not isinstance(text, str):
            raise ValueError("load_map needs the file's 'text'")
        loaded = load_text(text)
        self.buffers = {"cells": loaded.map.terrain.tobytes()}
        doc = map_to_json(loaded.map)
        return {"type": "map", "id": msg["id"], "width": loaded.map.width, "height": loaded.map.height,
                "start": loaded.start and list(loaded.start), "goal": loaded.goal and list(loaded.goal),
                "terrains": doc["terrains"]}

    def _load_scen(self, msg: dict) -> dict:
        text, width, height = msg.get("text"), msg.get("width"), msg.get("height")
        if not isinstance(text, str):
            raise ValueError("load_scen needs the file's 'text'")
        check_size(width, height)
        scens = parse_scen(text, TileMap.empty(width, height))
        return {"type": "scenarios", "id": msg["id"],
                "scenarios": [{"id": s.id, "bucket": s.bucket, "start": list(s.start), "goal": list(s.goal),
                               "optimal": s.optimal} for s in scens]}

    def _step(self, msg: dict) -> dict:
        job = self.jobs.get(msg["id"])
        if job is None:
            raise ValueError(f"no running search with id {msg['id']!r}")
        budget = msg.get("budget_ms", 8)
        if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not math.isfinite(budget) or budget <= 0:
            raise ValueError(f"budget_ms must be a positive number, got {budget!r}")
        deadline = time.perf_counter() + min(float(budget), MAX_BUDGET_MS) / 1000.0
        plan = job.plan
        while not plan.done:
            t0 = time.perf_counter()
            plan.step(job.chunk)
            took = time.perf_counter() - t0
            # keep each chunk near a tenth of the budget so the deadline is met closely
            if took < budget / 20000.0:
                job.chunk = min(job.chunk * 2, 1 << 16)
            elif took > budget / 5000.0:
                job.chunk = max(job.chunk // 2, 16)
            if time.perf_counter() >= deadline:
                break
        search = plan.search
        if not plan.done:
            return {"type": "progress", "id": msg["id"], "expanded": search.expanded, "open": search.open_count}
        del self.jobs[msg["id"]]
        self.buffers = {}
        return {"type": "result", "id": msg["id"], "result": self._result_json(plan, plan.result())}

    def _cancel(self, msg: dict) -> dict:
        job = self.jobs.pop(msg["id"], None)
        if job is not None:
            job.plan.cancel()
        return {"type": "cancelled", "id": msg["id"]}

    def _result_json(self, plan: PlanJob, result) -> dict:
        out = result.to_json()
        trace = result.trace
        if trace is None:
            return out
        self.buffers["explored"] = explored = trace.explored(plan.graph)
        counts = np.bincount(np.frombuffer(explored, dtype=np.uint8), minlength=3)
        out.update(explored=True, open_count=int(counts[1]), closed_count=int(counts[2]))
        if trace.nodes and len(trace.expanded) <= TRACE_DETAIL_LIMIT:
            arrays = self._trace_arrays(plan, trace)
            self.buffers.update((f"trace.{k}", a.tobytes()) for k, a in arrays.items())
            out["trace"] = {"buffers": {k: str(a.dtype) for k, a in arrays.items()}}
        return out

    @staticmethod
    def _trace_arrays(plan: PlanJob, trace) -> dict[str, np.ndarray]:
        """The trace as flat-index numpy arrays (padded node ids become y * width + x)."""
        graph = plan.graph

        def flat(nodes) -> np.ndarray:
            n = np.asarray(nodes, dtype=np.int64)
            y, x = np.divmod(n, graph.stride)
            return np.where(n >= 0, (y - 1) * graph.width + x - 1, -1).astype(np.int32)

        nodes = list(trace.nodes)
        info = trace.nodes
        updates = np.asarray(trace.updates, dtype=np.float64).reshape(-1, 3)
        updates[:, 0] = flat(updates[:, 0].astype(np.int64))
        updates[:, 2] = flat(updates[:, 2].astype(np.int64))
        return {"nodes": flat(nodes),
                "g": np.array([info[n]["g"] for n in nodes], dtype=np.float64),
                "h": np.array([info[n]["h"] for n in nodes], dtype=np.float64),
                "parent": flat([info[n]["parent"] for n in nodes]),
                "order": flat(trace.expanded),
                "marks": np.asarray(trace.marks, dtype=np.int32),
                "updates": updates.ravel()}
