"""What the Web Worker calls: requests in, answers out, plans run in timeslices.

One entry point, ``Service.handle(message_json, cells=None) -> answer_json``. It never raises:
every failure is an answer ``{"type": "error", "id", "kind", "field", "message"}`` whose ``kind``
(``outcomes.ErrorKind``) and ``field`` (the dotted name of the bad part, e.g. ``map.width``)
are what code reads; the message is for people. Every message is defined in
``protocol.schema.json``; in short:

- ``plan`` (map ``{width, height, version, terrain_costs?}``, start, goal, options; a hex map or a
  waypoint graph with ``map.kind``, see ``graphmaps``), with
  ``cells`` the width*height terrain codes (uint8, row-major ``y * width + x``) as any buffer;
  without ``cells`` the map cached under that version is used. ``terrain_costs`` apply to this
  plan only (a ``CostProfile``): the cached map keeps its own costs. Answers ``started``.
- ``step`` (``budget_ms``, default 8): works for about that long, then answers ``progress``
  (``expanded``, ``open``) or ``result``, after which the job is gone.
- ``cancel``: answers ``cancelled``. ``info``: what this core offers (methods and their
  ``limits``, heuristics, terrains, ...). ``describe`` (options): what a plan with them
  guarantees (``optimal``, ``legal``, ``text``), from the planner's method registry.
- ``load_map`` (text): reads a ``.map``, arcstar JSON or ASCII art; answers ``map``.
  ``generate`` (kind, width, height, seed, density, corridor, room: ``maps.GeneratorParams``):
  a seeded map with its start and goal; answers ``generated`` (cells as for ``map``).
  ``write_map`` (map as for ``plan``, format ``movingai``): the map as a Moving AI ``.map`` under
  its ``terrain_costs`` (passable ``.``, impassable ``@``), and the terrains written as a letter
  that does not keep them (``lost``); answers ``map_text``.
  ``load_scen`` (text, width, height): answers ``scenarios``.
- User code (``usercode``, the lab's Python panel): a ``plan`` with ``code`` (Python source
  defining ``heuristic(x, y, gx, gy)`` and/or ``cost(x, y, terrain)``) compiles it afresh and
  plans with it (A* or Dijkstra, a point unit's tile path); its result adds ``user_code``. An
  error in the code, at once or mid-search, is an error answer with ``code_error`` {function,
  line, reason}. ``check_code`` (code) compiles and samples it; answers ``code_checked``.
- Units in motion (one world per service, ``worlds.WorldSession``): ``world_info`` (kinds,
  avoidance methods, presets; answers ``world_info``), ``world_preset`` (name: its scenario
  document, answers ``world_scenario``), ``world_start`` (map as for ``plan``, seed, avoidance, dt,
  fog), ``world_add`` / ``world_remove`` / ``world_order`` (all or nothing) and ``world_step``
  (ticks, budget_ms, and what to tell: claimed tiles, paths, a team's known tiles); each of these
  answers ``world_state``. A bad one is an error answer and the world stays as it was.

Binary parts (a result's ``explored`` tiles and ``trace`` arrays, a loaded map's ``cells``)
appear in an answer as ``{"name", "dtype", "length"}`` descriptors; the bytes wait for
``take_buffer(name)`` until the next request.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Any, cast

import numpy as np

from ..maps.costs import CostProfile
from ..maps.generators import GeneratorParams, generate
from ..maps.mapio import check_format, load_text, parse_scen, text_format, to_movingai_map
from ..maps.tilemap import DEFAULT_TERRAINS, WALL, Terrain, TileMap, check_size
from ..outcomes import BadInput, field_of, shown
from ..planner import METHODS, PlanJob, PlanOptions, guarantee
from ..search.engine import STOP_RULES, TRACE_DETAIL_LIMIT
from ..search.grid import COST_MODELS, DIAGONAL_POLICIES
from ..search.heuristics import HEURISTICS
from ..search.openlists import OPEN_LISTS
from ..version import __version__
from . import graphmaps, protocol, usercode, worlds
from .protocol import buffer, check_int, check_keys, check_text, end_point, within

MAX_BUDGET_MS = 1000.0
DEFAULT_BUDGET_MS = 8.0
MAX_JOBS = 8

# The fields each request may have (the schema's service_request definitions).
REQUEST_KEYS: dict[str, tuple[str, ...]] = {
    "plan": ("type", "id", "alongside", "map", "start", "goal", "options", "code"),
    "step": ("type", "id", "budget_ms"),
    "cancel": ("type", "id"),
    "info": ("type", "id"),
    "load_map": ("type", "id", "text", "format"),
    "load_scen": ("type", "id", "text", "width", "height"),
    "write_map": ("type", "id", "map", "format"),
    "describe": ("type", "id", "options"),
    **worlds.WORLD_KEYS,
    "generate": ("type", "id", "kind", "width", "height", "seed", "density", "corridor", "room"),
    "check_code": ("type", "id", "code"),
}
MAP_KEYS = ("width", "height", "version", "terrain_costs")


@dataclass
class _Job:
    plan: PlanJob | usercode.UserPlan
    chunk: int = 256


def terrain_json(t: Terrain) -> dict[str, Any]:
    """A terrain type as the protocol sends it (an impassable cost is null)."""
    return {"code": t.code, "name": t.name, "char": t.char, "cost": None if math.isinf(t.cost) else t.cost}


def plan_options(raw: object, defaults: dict[str, Any]) -> PlanOptions:
    """``PlanOptions`` from a request's options, a bad one named as ``options.<name>``."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise BadInput(f"options must be an object, got {type(raw).__name__}", "options")
    try:
        return PlanOptions.from_dict({**defaults, **raw})
    except ValueError as e:
        raise within("options", e) from None


class Service:
    """Holds the current map (by version) and the running plans of one worker."""

    def __init__(self) -> None:
        self.map: TileMap | None = None
        self.map_version: object = None
        self.jobs: dict[object, _Job] = {}
        self.buffers: dict[str, bytes] = {}
        self.world: worlds.WorldSession | None = None
        self.graph_maps = graphmaps.GraphMaps()

    def take_buffer(self, name: str = "explored") -> bytes | None:
        """A binary part of the last answer, once (None when there is none): ``explored``,
        ``cells``, ``trace.<key>`` or ``heading_fans.<key>``, as its answer's descriptor names it."""
        return self.buffers.pop(name, None)

    def handle(self, message_json: str, cells: object = None) -> str:
        """Answer one request (JSON text in, JSON text out); never raises."""
        msg_id = None
        self.buffers = {}  # binary parts live until the next request
        try:
            msg = protocol.parse_request(message_json)
            msg_id = msg["id"]
            check_keys(msg, REQUEST_KEYS[msg["type"]])
            out = getattr(self, "_" + msg["type"])(msg, cells)
        except RecursionError:  # a hostile structure inside the size limits
            out = protocol.error(msg_id, BadInput("request nests too deeply"))
        except Exception as e:  # bad input is reported; so is a bug, which must not kill the worker
            out = protocol.error(msg_id, e)
        return protocol.dumps(out)

    # -- requests ---------------------------------------------------------------------------
    def _plan(self, msg: dict, cells: object) -> dict:
        spec = msg.get("map")
        if not isinstance(spec, dict):
            raise BadInput("plan request needs a 'map' object with width, height and version", "map")
        kind = graphmaps.map_kind(spec)
        if kind != "squares":  # a hex map or a waypoint graph (graphmaps.py)
            start = graphmaps.graph_end(kind, msg.get("start"), "start")
            goal = graphmaps.graph_end(kind, msg.get("goal"), "goal")
            tilemap = self.graph_maps.get(kind, spec, cells, self._map)
            options = plan_options(msg.get("options"), {"trace": True})
        else:
            start, goal = end_point(msg.get("start"), "start"), end_point(msg.get("goal"), "goal", heading_sets=True)
            tilemap = self._map(spec, cells)
            options = plan_options(msg.get("options"), {"trace": True})
            if "terrain_costs" in spec:
                options = replace(options, costs=self._costs(spec["terrain_costs"], tilemap))
        if len(self.jobs) >= MAX_JOBS and msg["id"] not in self.jobs:
            raise BadInput(f"too many searches at once (at most {MAX_JOBS}): cancel one first", "id")
        job: PlanJob | usercode.UserPlan
        if "code" in msg:  # the user's functions: their errors keep their code_error
            if kind != "squares":
                raise BadInput(f"Python functions plan on square tile maps, not {kind}", "map.kind")
            job = usercode.UserPlan.start(tilemap, start, goal, options, usercode.compile_code(msg["code"]))
        else:
            try:
                job = PlanJob(tilemap, start, goal, options)
            except ValueError as e:
                raise BadInput(str(e), field_of(e)) from None
        old = self.jobs.pop(msg["id"], None)
        if old is not None:
            old.plan.cancel()
        self.jobs[msg["id"]] = _Job(job)
        return {"type": "started", "id": msg["id"]}

    @staticmethod
    def _costs(costs: object, tilemap: TileMap) -> CostProfile:
        """The map's ``terrain_costs`` as this query's cost profile (applied per plan, the map
        itself keeps the default costs), checked against the map's terrain types."""
        if not isinstance(costs, list) or not all(isinstance(p, list) for p in costs):
            raise BadInput("map.terrain_costs must be a list of [code, cost] pairs", "map.terrain_costs")
        try:
            profile = CostProfile(tuple(tuple(p) for p in costs))
            profile.view(tilemap)  # codes the map does not define are refused here
        except ValueError as e:
            raise BadInput(str(e), "map.terrain_costs") from None
        return profile

    def _map(self, spec: dict, cells: object) -> TileMap:
        if "cells" in spec:
            raise BadInput("map.cells travels beside the JSON (a Uint8Array), not in it", "map.cells")
        check_keys(spec, MAP_KEYS, "map")
        width, height = check_int(spec.get("width"), "map.width"), check_int(spec.get("height"), "map.height")
        version = spec.get("version")
        if isinstance(version, bool) or not isinstance(version, (int, str)):
            raise BadInput(f"map.version must be an integer or a string, got {type(version).__name__}",
                           "map.version")
        if cells is None:
            if self.map is None or version != self.map_version:
                raise BadInput(f"no map with version {version!r} was sent: send its cells", "map.version")
            if (width, height) != (self.map.width, self.map.height):
                raise BadInput(f"map version {version!r} is {self.map.width}x{self.map.height}, "
                               f"not {width}x{height}", "map.width")
            return self.map
        try:
            check_size(width, height)
        except ValueError as e:
            raise within("map", e) from None
        # Let go of the map this replaces (and its graphs) before the new one is built, so two
        # large maps are never held at once.
        self.map, self.map_version = None, None
        if hasattr(cells, "to_py"):  # a JavaScript typed array inside Pyodide
            cells = cells.to_py()
        try:
            data = np.frombuffer(bytes(memoryview(cast(Any, cells))), dtype=np.uint8)
        except TypeError:
            raise BadInput("map cells must be a byte buffer (a Uint8Array)", "map.cells") from None
        if data.size != width * height:
            raise BadInput(f"map cells hold {data.size} values, expected width x height = {width * height}",
                           "map.cells")
        try:
            tilemap = TileMap(data.reshape(height, width).copy())
        except ValueError as e:
            raise within("map.cells", e) from None
        self.map, self.map_version = tilemap, version
        return tilemap

    def _step(self, msg: dict, cells: object) -> dict:
        job = self.jobs.get(msg["id"])
        if job is None:
            raise BadInput(f"no running search with id {msg['id']!r}", "id")
        budget = msg.get("budget_ms", DEFAULT_BUDGET_MS)
        if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not math.isfinite(budget) or budget <= 0:
            raise BadInput(f"budget_ms must be a positive number, got {shown(budget, 60)}", "budget_ms")
        budget = min(float(budget), MAX_BUDGET_MS)
        deadline = time.perf_counter() + budget / 1000.0
        plan = job.plan
        try:
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
            if not plan.done:
                search = plan.search
                return {"type": "progress", "id": msg["id"], "expanded": search.expanded, "open": search.open_count}
            result = self._result_json(plan, plan.result())
        except BaseException:
            del self.jobs[msg["id"]]  # a job that failed once is not stepped again
            raise
        del self.jobs[msg["id"]]
        return {"type": "result", "id": msg["id"], "result": result}

    def _cancel(self, msg: dict, cells: object) -> dict:
        job = self.jobs.pop(msg["id"], None)
        if job is not None:
            job.plan.cancel()
        return {"type": "cancelled", "id": msg["id"]}

    def _info(self, msg: dict, cells: object) -> dict:
        return {"type": "info", "id": msg["id"], "version": __version__, "methods": list(METHODS),
                "heuristics": list(HEURISTICS), "diagonal": list(DIAGONAL_POLICIES),
                "costs": list(COST_MODELS), "open_lists": list(OPEN_LISTS), "stop": list(STOP_RULES),
                "limits": {name: spec.to_json() for name, spec in METHODS.items()},
                "terrains": [terrain_json(t) for t in DEFAULT_TERRAINS]}

    def _describe(self, msg: dict, cells: object) -> dict:
        said = guarantee(plan_options(msg.get("options"), {}))
        return {"type": "describe", "id": msg["id"], "optimal": bool(said.optimal), "legal": said.legal,
                "text": str(said.text)}

    def _load_map(self, msg: dict, cells: object) -> dict:
        text = check_text(msg.get("text"), "text")
        fmt = text_format(text) if msg.get("format") is None else check_format(msg["format"])
        try:
            loaded = load_text(text, fmt)
        except ValueError as e:
            raise within("text", e) from None
        tilemap = loaded.map
        terrain = np.ascontiguousarray(tilemap.terrain, dtype=np.uint8).ravel()
        self.buffers["cells"] = terrain.tobytes()
        return {"type": "map", "id": msg["id"], "width": tilemap.width, "height": tilemap.height,
                "start": loaded.start and list(loaded.start), "goal": loaded.goal and list(loaded.goal),
                "terrains": [terrain_json(t) for t in sorted(tilemap.terrains.values(), key=lambda t: t.code)],
                "format": fmt, "cells": buffer("cells", terrain)}

    def _generate(self, msg: dict, cells: object) -> dict:
        made = generate(GeneratorParams.from_dict({k: v for k, v in msg.items() if k not in ("type", "id")}))
        terrain = np.ascontiguousarray(made.map.terrain, dtype=np.uint8).ravel()
        self.buffers["cells"] = terrain.tobytes()
        return {"type": "generated", "id": msg["id"], "width": made.map.width, "height": made.map.height,
                "start": made.start and list(made.start), "goal": made.goal and list(made.goal),
                "terrains": [terrain_json(t) for t in sorted(made.map.terrains.values(), key=lambda t: t.code)],
                "params": made.params.to_json(), "cells": buffer("cells", terrain)}

    def _check_code(self, msg: dict, cells: object) -> dict:
        code = usercode.compile_code(msg.get("code"))
        usercode.sample(code)
        return {"type": "code_checked", "id": msg["id"], "functions": code.functions}

    def _load_scen(self, msg: dict, cells: object) -> dict:
        text = check_text(msg.get("text"), "text")
        width, height = check_int(msg.get("width"), "width"), check_int(msg.get("height"), "height")
        try:
            check_size(width, height)
        except ValueError as e:
            raise within("", e) from None
        try:
            scens = parse_scen(text, TileMap.empty(width, height))
        except ValueError as e:
            raise within("text", e) from None
        return {"type": "scenarios", "id": msg["id"],
                "scenarios": [{"id": s.id, "bucket": s.bucket, "start": list(s.start), "goal": list(s.goal),
                               "optimal": s.optimal} for s in scens]}

    def _write_map(self, msg: dict, cells: object) -> dict:
        if msg.get("format") != "movingai":
            got = shown(msg.get("format"), 40)
            raise BadInput(f"format must be 'movingai' (the only map format written), got {got}", "format")
        spec = msg.get("map")
        if not isinstance(spec, dict):
            raise BadInput("write_map needs a 'map' object with width, height and version", "map")
        tilemap = self._map(spec, cells)
        if "terrain_costs" in spec:  # the lab's costs decide what is passable
            tilemap = self._costs(spec["terrain_costs"], tilemap).view(tilemap)
        counts = np.bincount(tilemap.terrain.ravel(), minlength=256)
        lost = [{"code": t.code, "name": t.name, "tiles": int(counts[t.code]),
                 "cost": None if math.isinf(t.cost) else t.cost, "written": "@" if math.isinf(t.cost) else "."}
                for t in sorted(tilemap.terrains.values(), key=lambda t: t.code)
                if counts[t.code] and (t.cost != 1.0 if not math.isinf(t.cost) else t.code != WALL)]
        return {"type": "map_text", "id": msg["id"], "format": "movingai", "text": to_movingai_map(tilemap),
                "lost": lost}

    # -- the world ----------------------------------------------------------------------------
    def _world_info(self, msg: dict, cells: object) -> dict:
        return {"type": "world_info", "id": msg["id"], **worlds.world_info()}

    def _world_preset(self, msg: dict, cells: object) -> dict:
        return {"type": "world_scenario", "id": msg["id"], **worlds.preset_scenario(msg.get("name"))}

    def _world_start(self, msg: dict, cells: object) -> dict:
        spec = msg.get("map")
        if not isinstance(spec, dict):
            raise BadInput("world_start needs a 'map' object with width, height and version", "map")
        tilemap = self._map(spec, cells)
        if "terrain_costs" in spec:  # the lab's costs: the world's units plan and stand by them
            tilemap = self._costs(spec["terrain_costs"], tilemap).view(tilemap)
        self.world = worlds.WorldSession.start(msg, tilemap)
        return self._world_state(msg, full=True)

    def _world_change(self, msg: dict, cells: object) -> dict:
        """world_add, world_remove and world_order: checked in full, then done."""
        if self.world is None:
            raise BadInput("no world is running: send world_start first", "type")
        getattr(self.world, msg["type"][len("world_"):])(msg)
        return self._world_state(msg)

    _world_add = _world_remove = _world_order = _world_change

    def _world_step(self, msg: dict, cells: object) -> dict:
        if self.world is None:
            raise BadInput("no world is running: send world_start first", "type")
        args = worlds.step_args(msg)
        stepped = self.world.step(args.pop("ticks"), args.pop("budget_ms"))
        return self._world_state(msg, stepped=stepped, **args)

    def _world_state(self, msg: dict, **view: Any) -> dict:
        assert self.world is not None
        return {"type": "world_state", "id": msg["id"], **self.world.state(self.buffers, **view)}

    # -- binary parts -----------------------------------------------------------------------
    def _result_json(self, plan: PlanJob | usercode.UserPlan, result: Any) -> dict:
        """The result as JSON, its explored tiles and replay arrays (a directional plan's heading
        fans: ``DirectionalRun.fans()``) kept for ``take_buffer``; with user code, ``user_code``."""
        out = result.to_json()
        if isinstance(plan, usercode.UserPlan):
            out["user_code"] = plan.user_json()
        fans = getattr(plan.search, "fans", None)  # a directional plan's states, for heading fans
        folded = fans() if callable(fans) else None
        if folded is not None:
            out["heading_fans"] = {}
            for key, data in zip(("opened", "closed"), folded):
                self.buffers[f"heading_fans.{key}"] = data
                out["heading_fans"][key] = buffer(f"heading_fans.{key}", np.frombuffer(data, dtype=np.uint8))
        trace = result.trace
        if trace is None:
            return out
        graph = graphmaps.drawable(plan.graph)
        explored = np.frombuffer(trace.explored(graph), dtype=np.uint8)
        self.buffers["explored"] = explored.tobytes()
        counts = np.bincount(explored, minlength=3)
        out.update(explored=buffer("explored", explored), open_count=int(counts[1]), closed_count=int(counts[2]))
        if trace.nodes and len(trace.expanded) <= TRACE_DETAIL_LIMIT:
            arrays = trace_arrays(graph, trace)
            self.buffers.update((f"trace.{k}", a.tobytes()) for k, a in arrays.items())
            out["trace"] = {k: buffer(f"trace.{k}", a) for k, a in arrays.items()}
        return out


def trace_arrays(graph: Any, trace: Any) -> dict[str, np.ndarray]:
    """A trace as flat tile-index arrays (``y * width + x``; -1 for no parent)."""

    def flat(nodes: Any) -> np.ndarray:
        return graph.cell_index(np.asarray(nodes, dtype=np.int64)).astype(np.int32)

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
