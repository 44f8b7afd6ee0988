"""The world session the worker drives: one ``World`` on the lab's map, its units added, ordered
and removed by id, stepped in ticks, and its state told back compactly.

Tile units, seconds and radians as everywhere (tile centres at +0.5, y down, heading 0 = east,
pi/2 = south). Every request is checked in full before anything changes (``BadInput`` naming
the field, e.g. ``units[2].start``), so a bad message leaves the world as it was.

A state answer (``WorldSession.state``) carries the per-unit arrays (x, y, heading, speed as
float64, a status code as uint8) as binary parts, in ``World.units`` order, and only what changed
since the last answer of the rest: the roster (ids, kinds, teams, bodies) when units came or
went, status texts that changed, paths that changed (when asked), avoidance events since the
last answer, the team's known tiles under fog when they changed (when asked), and the metrics.
"""

from __future__ import annotations

import inspect
import math
import time
from collections import deque
from typing import Any

import numpy as np

from ..collision.swept import swept_line_clear
from ..geometry.primitives import Pose
from ..maps.tilemap import WALL, TileMap
from ..outcomes import BadInput, shown
from ..world import KIND_PRESETS, PLAN_METHODS, Order, OrderKind, UnitSpec, UnitState, UnitStatus, World, unit_of_kind
from ..world import units as world_units
from ..world.fog import check_sight
from ..world.metrics import AT_GOAL
from ..world.presets import PRESETS
from ..world.world import MAX_EVENTS
from .protocol import buffer, check_keys

MAX_UNITS = 256
#: Ticks one step may run (at dt 0.05 s: 10 s of game time).
MAX_TICKS = 200
MAX_POINTS = 64
#: Events one answer carries (the newest are kept).
MAX_EVENTS_PER_ANSWER = 256
DT_RANGE = (0.005, 0.5)
MAX_BUDGET_MS = 1000.0
#: Coordinates beyond this are refused before they are compared with the map.
MAX_COORD = 1e9
#: A unit that neither moves nor turns by more than this in a tick, while it has something to do,
#: is counted as stuck (tiles, radians).
STILL = 1e-6
#: How many tiles round a goal the spread of a group's move looks at.
MAX_SPREAD_TILES = 4096
#: The planning work a tick of the lab's world may do for a round of cooperative plans
#: (``World.plan_work``: about 40 ms on CPython, twice that in Pyodide), so that a round for a
#: crowd or a jam (up to 4.7 s in one piece on CPython: the swap under pinter) never stops the
#: lab's world: its units stand a little longer instead (2000 made that swap 33 s longer, 8000
#: 9 s; the doors 1 to 4 s).
PLAN_WORK = 8000
#: The work a tick of the lab's world may spend on units' re-plans and the checks for them
#: (``World.route_work``): avoidance's re-plans come in bursts, a dozen at one look, and the
#: lab's world then stepped in one 20 to 50 ms piece; at 400 (about a millisecond on CPython)
#: a 100-unit crowd under pinter keeps its 95th-percentile tick under 4 ms on CPython, a
#: re-plan waiting 7 ticks on average (0.35 s), at most 24.
ROUTE_WORK = 400

#: The status codes of the state arrays, by index (``UnitStatus``'s values in its order).
STATUS_CODES = tuple(s.value for s in UnitStatus)
SPEC_FIELDS = ("width", "radius", "speed", "acceleration", "braking", "lateral", "turn_rate", "can_reverse",
               "team", "method")
UNIT_KEYS = ("id", "kind", "start", "goal", *SPEC_FIELDS)
#: The fields of each world request (the schema's world_* definitions).
WORLD_KEYS: dict[str, tuple[str, ...]] = {
    "world_info": ("type", "id"),
    "world_preset": ("type", "id", "name"),
    "world_start": ("type", "id", "map", "seed", "avoidance", "dt", "fog"),
    "world_add": ("type", "id", "units"),
    "world_remove": ("type", "id", "units"),
    "world_order": ("type", "id", "units", "order", "points", "queue", "spread"),
    "world_step": ("type", "id", "ticks", "budget_ms", "claimed", "paths", "team", "full"),
}


def fog_built() -> bool:
    """Whether the core's ``World`` takes ``fog`` (per-team known maps) yet."""
    return "fog" in inspect.signature(World).parameters


def built_avoidance() -> tuple[str, ...]:
    """The avoidance methods the core accepts now (read at run time: more are coming)."""
    return tuple(world_units.BUILT_AVOIDANCE)


def world_info() -> dict[str, Any]:
    """What the lab offers: kinds and their presets, avoidance methods, planning methods, presets,
    status codes, limits, and whether fog is built."""
    kinds = {k.value: {"width": p["width"], "radius": p["radius"], "speed": p["speed"]}
             for k, p in KIND_PRESETS.items()}
    return {"kinds": kinds, "avoidance": list(built_avoidance()), "methods": list(PLAN_METHODS),
            "presets": list(PRESETS), "status_codes": list(STATUS_CODES), "fog": fog_built(),
            "limits": {"units": MAX_UNITS, "ticks": MAX_TICKS, "points": MAX_POINTS, "dt": list(DT_RANGE)}}


def preset_scenario(name: object) -> dict[str, Any]:
    """A preset's scenario document (the README's "Worlds" format) for the lab to load."""
    if not isinstance(name, str) or name not in PRESETS:
        raise BadInput(f"name must be one of {', '.join(PRESETS)}, got {shown(name)}", "name")
    try:
        doc = PRESETS[name]()
    except ValueError as e:
        raise BadInput(f"preset {name}: {e}", "name") from None
    units = []
    for u in doc.get("units", []):
        units.append({k: u[k] for k in UNIT_KEYS if k in u})
    return {"name": name, "map": list(doc["map"]), "seed": int(doc.get("seed", 0)),
            "avoidance": str(doc.get("avoidance", "none")), "duration": float(doc.get("duration", 60.0)),
            "fog": bool(doc.get("fog", False)), "units": units}


# ----------------------------------------------------------------------------- checks

def _flag(msg: dict, key: str, default: bool = False) -> bool:
    value = msg.get(key, default)
    if not isinstance(value, bool):
        raise BadInput(f"{key} must be true or false, got {shown(value)}", key)
    return value


def _number(value: object, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or abs(value) > MAX_COORD:
        raise BadInput(f"{field} must be a finite number, got {shown(value)}", field)
    return float(value)


def _list(value: object, field: str, low: int, high: int) -> list:
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise BadInput(f"{field} must be a list of {low} to {high} items, got {shown(value, 60)}", field)
    return value


def _seed(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) >= 2 ** 63:
        raise BadInput(f"seed must be an integer below 2**63 in size, got {shown(value)}", "seed")
    return value


def check_avoidance(value: object) -> world_units.Avoidance:
    """``value`` as an avoidance method the core has built (``BadInput`` naming ``avoidance``)."""
    try:
        return world_units.check_avoidance(value)
    except ValueError as e:
        raise BadInput(str(e), "avoidance") from None


def _on_goal(u: UnitState) -> bool:
    """Whether ``u`` stands on a point of its order (standing there is not being stuck, as in
    ``world.metrics``: a plan may have a unit on its goal step aside later)."""
    order = u.order
    return order is not None and any(math.hypot(p[0] - u.x, p[1] - u.y) <= AT_GOAL for p in order.points)


class WorldSession:
    """One world on one map, and what the page was last told of it."""

    def __init__(self, tilemap: TileMap, seed: int = 0, avoidance: object = "none", dt: float = 0.05,
                 fog: bool = False) -> None:
        extra: dict[str, Any] = {}
        if fog:
            if not fog_built():
                raise BadInput("fog of war is not built in this core yet: start without fog", "fog")
            extra["fog"] = True
        self.map = tilemap
        self.fog = fog
        self.world = World(tilemap, dt=dt, seed=seed, avoidance=check_avoidance(avoidance), record=False,
                           plan_work=PLAN_WORK, route_work=ROUTE_WORK, **extra)
        self.roster_version = 1
        self._roster_sent = 0
        self._paths_sent: dict[str, object] = {}
        self._status_sent: dict[str, str] = {}
        self._known_sent: dict[str, bytes] = {}
        self._known_team: str | None = None
        self._last_event: object = None
        # metrics
        self.ordered_at: dict[str, float] = {}
        self.travel: dict[str, float] = {}
        self.stuck: dict[str, float] = {}
        self.longest_stuck = 0.0
        self.deepest_overlap = 0.0
        self._prev: dict[str, tuple[float, float, float]] = {}

    @classmethod
    def start(cls, msg: dict, tilemap: TileMap) -> WorldSession:
        """A session from a ``world_start`` request (its map already read)."""
        seed = _seed(msg.get("seed", 0))
        dt = _number(msg.get("dt", 0.05), "dt")
        if not DT_RANGE[0] <= dt <= DT_RANGE[1]:
            raise BadInput(f"dt must be within {DT_RANGE[0]:g} to {DT_RANGE[1]:g} s, got {dt:g}", "dt")
        return cls(tilemap, seed, msg.get("avoidance", "none"), dt, _flag(msg, "fog"))

    # -- checks against the map ---------------------------------------------------------------
    def point(self, value: object, field: str, width: float, *,
              lone: bool = False) -> tuple[float, float, float | None]:
        """(x, y) or (x, y, heading) on the map where a body ``width`` wide fits. ``lone``: the
        request's only point (one unit placed, one point ordered), so the message says what is
        wrong with it without naming the field and the point again (the lab names the tile)."""
        p = _list(value, field, 2, 3)
        x, y = _number(p[0], f"{field}[0]"), _number(p[1], f"{field}[1]")
        h = _number(p[2], f"{field}[2]") if len(p) == 3 and p[2] is not None else None
        tx, ty = math.floor(x), math.floor(y)
        m = self.map
        where = f"{field} ({x:g}, {y:g})"
        if not m.in_bounds(tx, ty):
            raise BadInput("the point is off the map" if lone else f"{where} is off the {m.width}x{m.height} map",
                           field)
        if m.is_blocked(tx, ty):
            raise BadInput(f"the tile is {_blocked_name(m, tx, ty)}" if lone else f"{where} is in a wall", field)
        if not swept_line_clear(m, (x, y), (x, y), width):
            raise BadInput(f"{'' if lone else f'{where}: '}a body {width:g} wide overlaps a wall there", field)
        return (x, y, h)

    def _spec(self, u: dict, field: str) -> UnitSpec:
        uid = u.get("id")
        if not isinstance(uid, str):
            raise BadInput(f"{field}.id must be a string, got {shown(uid)}", f"{field}.id")
        given = {k: u[k] for k in SPEC_FIELDS if k in u}
        for k in ("width", "radius", "speed", "acceleration", "braking", "lateral", "turn_rate"):
            if k in given:
                given[k] = _number(given[k], f"{field}.{k}")
        try:
            return unit_of_kind(uid, u.get("kind"), **given)
        except BadInput as e:
            raise BadInput(f"{field}.{e.field}: {e}", f"{field}.{e.field}") from None

    # -- requests -----------------------------------------------------------------------------
    def add(self, msg: dict) -> None:
        """``world_add``: units ``[{id, kind?, team?, start: [x, y, heading?], goal?, ...}]``, all
        or none."""
        raw = _list(msg.get("units"), "units", 1, MAX_UNITS)
        w = self.world
        if len(w.units) + len(raw) > MAX_UNITS:
            raise BadInput(f"a world holds at most {MAX_UNITS} units ({len(w.units)} now, {len(raw)} more asked)",
                           "units")
        new: list[tuple[UnitSpec, Pose, list[Order]]] = []
        seen: set[str] = set()
        for i, u in enumerate(raw):
            field = f"units[{i}]"
            if not isinstance(u, dict):
                raise BadInput(f"{field} must be an object, got {shown(u)}", field)
            check_keys(u, UNIT_KEYS, field)
            spec = self._spec(u, field)
            if spec.id in seen or any(v.id == spec.id for v in w.units):
                raise BadInput(f"{field}.id {spec.id!r} is used already", f"{field}.id")
            seen.add(spec.id)
            if self.fog:
                try:
                    check_sight(spec)  # (the world would refuse it too, but after the units before it)
                except BadInput as e:
                    raise BadInput(f"{field}.{e.field}: {e}", f"{field}.{e.field}") from None
            if "start" not in u:
                raise BadInput(f"{field} needs a start [x, y, heading]", f"{field}.start")
            lone = len(raw) == 1
            x, y, h = self.point(u["start"], f"{field}.start", spec.width, lone=lone)
            fault = w.placing_fault(spec.width, x, y, [(s.id, s.width, p.x, p.y) for s, p, _ in new])
            if fault is not None:
                where = "" if lone else f"{field}.start ({x:g}, {y:g}): "
                raise BadInput(f"{where}{fault}", f"{field}.start")
            orders = []
            if u.get("goal") is not None:
                orders.append(Order(OrderKind.MOVE, (self.point(u["goal"], f"{field}.goal", spec.width),)))
            new.append((spec, Pose(x, y, 0.0 if h is None else h), orders))
        for spec, pose, orders in new:
            w.add(spec, pose, orders)
            self._prev[spec.id] = (pose.x, pose.y, pose.heading)
            self.stuck[spec.id] = 0.0
            if orders:
                self.ordered_at[spec.id] = w.time
        self.roster_version += 1

    def remove(self, msg: dict) -> None:
        """``world_remove``: unit ids, all or none."""
        ids = self._ids(msg)
        for uid in ids:
            self.world.remove(uid)
            for table in (self._paths_sent, self._status_sent, self.ordered_at, self.travel, self.stuck, self._prev):
                table.pop(uid, None)
        self.roster_version += 1

    def _ids(self, msg: dict) -> list[str]:
        ids = _list(msg.get("units"), "units", 1, MAX_UNITS)
        for i, uid in enumerate(ids):
            if not isinstance(uid, str):
                raise BadInput(f"units[{i}] must be a unit id (a string), got {shown(uid)}", f"units[{i}]")
            try:
                self.world.unit(uid)
            except BadInput:
                raise BadInput(f"units[{i}]: no unit with id {shown(uid)}", f"units[{i}]") from None
        if len(set(ids)) != len(ids):
            raise BadInput("units names a unit twice", "units")
        return ids

    def order(self, msg: dict) -> None:
        """``world_order``: ``units`` (ids), ``order`` (move, nearest, patrol, stop), ``points``
        ([x, y] or [x, y, heading]), ``queue`` (after what they do), ``spread`` (a move of several
        units: each to its own tile round the point, the nearest unit to the point itself)."""
        ids = self._ids(msg)
        kind = msg.get("order")
        if not isinstance(kind, str) or kind not in tuple(OrderKind):
            raise BadInput(f"order must be one of {', '.join(OrderKind)}, got {shown(kind)}", "order")
        k = OrderKind(kind)
        queue, spread = _flag(msg, "queue"), _flag(msg, "spread")
        units = [self.world.unit(uid) for uid in ids]
        width = max(u.spec.width for u in units)
        if k is OrderKind.STOP:
            if msg.get("points") not in (None, []):
                raise BadInput("a stop order takes no points", "points")
            points: tuple = ()
        else:
            high = 1 if k is OrderKind.MOVE else MAX_POINTS
            raw = _list(msg.get("points"), "points", 1, high)
            points = tuple(self.point(p, f"points[{i}]", width, lone=len(raw) == 1) for i, p in enumerate(raw))
        if queue:  # all or none: a patrol never ends, so what would wait behind one would never run
            for u in units:
                last = u.queue[-1] if u.queue else u.order
                if last is not None and last.kind is OrderKind.PATROL:
                    raise BadInput(f"{u.id} is on a patrol, which never ends: an order queued after it would never "
                                   "run (give it unqueued to replace the patrol)", "queue")
        goals: list[tuple] = [points] * len(units)
        if k is OrderKind.MOVE and spread and len(units) > 1:
            goals = [(p,) for p in self._spread(points[0], units, width)]
        for u, pts in zip(units, goals):
            self.world.order(u.id, Order(k, pts), queue=queue)
            if k is OrderKind.STOP:
                self.ordered_at.pop(u.id, None)
            elif not (queue and u.id in self.ordered_at):
                self.ordered_at[u.id] = self.world.time
                self.travel.pop(u.id, None)

    def _spread(self, goal: tuple, units: list, width: float) -> list[tuple]:
        """Distinct points round ``goal`` for a group (breadth first over the open tiles from
        the goal's tile where the widest body fits), the nearest unit taking the goal itself."""
        gx, gy, gh = goal
        start = (math.floor(gx), math.floor(gy))
        spots: list[tuple] = [goal]
        seen = {start}
        todo = deque([start])
        m = self.map
        while todo and len(spots) < len(units) and len(seen) < MAX_SPREAD_TILES:
            x, y = todo.popleft()
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                n = (x + dx, y + dy)
                if n in seen or not m.in_bounds(*n) or m.is_blocked(*n):
                    continue
                seen.add(n)
                todo.append(n)
                c = (n[0] + 0.5, n[1] + 0.5)
                if swept_line_clear(m, c, c, width):
                    spots.append((c[0], c[1], gh))
                    if len(spots) == len(units):
                        break
        order = sorted(range(len(units)), key=lambda i: math.hypot(units[i].x - gx, units[i].y - gy))
        out: list[tuple] = [goal] * len(units)
        for rank, i in enumerate(order):
            out[i] = spots[min(rank, len(spots) - 1)]
        return out

    def step(self, ticks: int, budget_ms: float | None = None) -> int:
        """Run up to ``ticks`` ticks (stopping early once ``budget_ms`` has passed, after at least
        one); returns how many ran."""
        deadline = None if budget_ms is None else time.perf_counter() + budget_ms / 1000.0
        ran = 0
        while ran < ticks:
            self.world.step()
            self._measure()
            ran += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return ran

    def _measure(self) -> None:
        """After a tick: the deepest overlap of two bodies, stuck times, travel times."""
        w = self.world
        units = w.units
        n = len(units)
        if n > 1:
            xy = np.array([(u.x, u.y) for u in units])
            r = np.array([u.spec.width / 2 for u in units])
            d = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(-1))
            depth = r[:, None] + r[None, :] - d
            np.fill_diagonal(depth, -np.inf)
            deepest = float(depth.max())
            if deepest > self.deepest_overlap:
                self.deepest_overlap = deepest
        for u in units:
            px, py, ph = self._prev.get(u.id, (u.x, u.y, u.heading))
            still = abs(u.x - px) <= STILL and abs(u.y - py) <= STILL and abs(u.heading - ph) <= STILL
            if still and u.busy and not _on_goal(u):
                s = self.stuck.get(u.id, 0.0) + w.dt
                self.stuck[u.id] = s
                self.longest_stuck = max(self.longest_stuck, s)
            else:
                self.stuck[u.id] = 0.0
            self._prev[u.id] = (u.x, u.y, u.heading)
            if u.arrived is not None and u.id in self.ordered_at and u.id not in self.travel:
                self.travel[u.id] = max(0.0, u.arrived - self.ordered_at[u.id])

    # -- answers ------------------------------------------------------------------------------
    def metrics(self) -> dict[str, Any]:
        w = self.world
        arrived = [u.arrived for u in w.units if u.arrived is not None]
        return {"units": len(w.units), "arrived": len(arrived), "makespan": max(arrived) if arrived else None,
                "travel_sum": round(sum(self.travel.values()), 6),
                "deepest_overlap": round(max(0.0, self.deepest_overlap), 6),
                "longest_stuck": round(self.longest_stuck, 6),
                "stuck_now": sum(1 for s in self.stuck.values() if s > 0)}

    def state(self, buffers: dict[str, bytes], *, claimed: bool = False, paths: bool = False,
              team: str | None = None, full: bool = False, stepped: int = 0) -> dict[str, Any]:
        """The state answer's fields (binary parts put in ``buffers``); see the module notes."""
        w = self.world
        units = w.units
        if full:
            self._roster_sent, self._paths_sent, self._status_sent, self._known_sent = 0, {}, {}, {}
        arrays: dict[str, np.ndarray] = {
            "x": np.array([u.x for u in units], dtype=np.float64),
            "y": np.array([u.y for u in units], dtype=np.float64),
            "heading": np.array([u.heading for u in units], dtype=np.float64),
            "speed": np.array([u.speed for u in units], dtype=np.float64),
            "status": np.array([_code(u) for u in units], dtype=np.uint8)}
        out: dict[str, Any] = {"time": w.time, "ticks": w.ticks, "dt": w.dt, "stepped": stepped, "busy": w.busy,
                               "avoidance": w.avoidance.value, "fog": self.fog, "roster_version": self.roster_version}
        parts: dict[str, Any] = {}
        for name, a in arrays.items():
            buffers[f"world.{name}"] = a.tobytes()
            parts[name] = buffer(f"world.{name}", a)
        out["units"] = parts
        if self._roster_sent != self.roster_version:
            out["roster"] = [{"id": u.id, "kind": u.spec.kind.value if u.spec.kind else None, "team": u.spec.team,
                              "width": u.spec.width, "radius": u.spec.radius, "speed": u.spec.speed,
                              "method": u.spec.method, "can_reverse": u.spec.can_reverse} for u in units]
            self._roster_sent = self.roster_version
        notes = []
        for u in units:
            text = u.status + (" (waiting)" if u.waiting else "")
            if self._status_sent.get(u.id) != text:
                notes.append([u.id, text])
                self._status_sent[u.id] = text
        out["notes"] = notes
        if paths:
            changed = []
            for u in units:
                p = u.path
                if u.id not in self._paths_sent or self._paths_sent[u.id] is not p:
                    changed.append([u.id, None if p is None else [s.to_json() for s in p.segments]])
                    self._paths_sent[u.id] = p
            out["paths"] = changed
        else:
            self._paths_sent = {}
        if claimed:
            w_, h_ = self.map.width, self.map.height
            per = [[ty * w_ + tx for tx, ty in sorted(u.claimed) if 0 <= tx < w_ and 0 <= ty < h_] for u in units]
            tiles = np.array([t for p in per for t in p], dtype=np.int32)
            counts = np.array([len(p) for p in per], dtype=np.int32)
            buffers["world.claimed.tiles"], buffers["world.claimed.counts"] = tiles.tobytes(), counts.tobytes()
            out["claimed"] = {"tiles": buffer("world.claimed.tiles", tiles),
                              "counts": buffer("world.claimed.counts", counts)}
        out["events"] = self._events()
        if team != self._known_team:  # another player: its grid goes out whole, changed or not
            self._known_sent, self._known_team = {}, team
        seen = seen_tiles(w, team) if team is not None and self.fog else None
        if team is not None and seen is not None:
            known = np.ascontiguousarray(np.asarray(seen, dtype=np.uint8)).ravel()
            data = known.tobytes()
            if self._known_sent.get(team) != data:
                self._known_sent[team] = data
                buffers["world.known"] = data
                out["known"] = {"team": team, "tiles": buffer("world.known", known)}
        out["metrics"] = self.metrics()
        return out

    def _events(self) -> list[list[Any]]:
        """Events since the last answer, oldest first (the newest ``MAX_EVENTS_PER_ANSWER``)."""
        events = self.world.events
        new: list[Any] = []
        for e in reversed(events):
            if e is self._last_event or len(new) >= min(MAX_EVENTS, MAX_EVENTS_PER_ANSWER):
                break
            new.append(e)
        if events:
            self._last_event = events[-1]
        return [[e.t, e.unit, str(e.kind), e.x, e.y] for e in reversed(new)]


def seen_tiles(world: World, team: str) -> np.ndarray | None:
    """The tiles ``team`` has seen under fog (bool, height x width), or None without fog: from
    ``World.known(team)`` when that is an array, else ``World.fog.seen(team)``."""
    known = getattr(world, "known", None)
    if callable(known):
        got = known(team)
        if isinstance(got, np.ndarray) and got.shape == (world.map.height, world.map.width):
            return got
    fog = getattr(world, "fog", None)
    seen = getattr(fog, "seen", None)
    if callable(seen):
        got = seen(team)
        if isinstance(got, np.ndarray) and got.shape == (world.map.height, world.map.width):
            return got
    return None


def _blocked_name(m: TileMap, x: int, y: int) -> str:
    """An impassable tile's kind, for people: "a wall", or "water (impassable)"."""
    t = m.terrains.get(int(m.terrain[y, x]))
    return "a wall" if t is None or t.code == WALL else f"{t.name} (impassable)"


def _code(u: Any) -> int:
    if u.waiting:
        return STATUS_CODES.index("waiting")
    return STATUS_CODES.index(u.state.value)


def step_args(msg: dict) -> dict[str, Any]:
    """A ``world_step`` request's ticks, budget and view options, checked."""
    ticks = msg.get("ticks", 1)
    if isinstance(ticks, bool) or not isinstance(ticks, int) or not 0 <= ticks <= MAX_TICKS:
        raise BadInput(f"ticks must be an integer from 0 to {MAX_TICKS}, got {shown(ticks)}", "ticks")
    budget = msg.get("budget_ms", MAX_BUDGET_MS)  # a step never holds the worker longer than a second
    budget = _number(budget, "budget_ms")
    if budget <= 0:
        raise BadInput(f"budget_ms must be a positive number, got {budget:g}", "budget_ms")
    budget = min(budget, MAX_BUDGET_MS)
    team = msg.get("team")
    if team is not None and (not isinstance(team, str) or len(team) > 64):
        raise BadInput(f"team must be a string of at most 64 characters, got {shown(team)}", "team")
    return {"ticks": ticks, "budget_ms": budget, "claimed": _flag(msg, "claimed"), "paths": _flag(msg, "paths"),
            "team": team, "full": _flag(msg, "full")}


__all__ = ["MAX_TICKS", "MAX_UNITS", "STATUS_CODES", "WORLD_KEYS", "WorldSession", "built_avoidance",
           "fog_built", "preset_scenario", "step_args", "world_info"]
