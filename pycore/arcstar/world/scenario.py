"""Scenario files: a map, units and their orders, read from JSON with every field checked, run
to the end, and the trajectories written back (the format is in the README, "Worlds").

Hostile input is refused with ``BadInput`` naming the field (``units[2].start``): text over
``MAX_CHARS``, nesting deeper than ``MAX_DEPTH``, wrong types, NaN or infinities, units off the
map, in a wall, too wide for where they stand or inside another unit's body (``PLACE_OVERLAP``),
and runs longer than ``MAX_DURATION`` or with more than ``MAX_SAMPLES`` samples in all.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..collision.swept import swept_line_clear
from ..geometry.primitives import Pose
from ..maps.jsontext import load_json
from ..maps.mapio import parse_ascii
from ..maps.tilemap import TileMap
from ..outcomes import BadInput, shown
from ..search.options import check_number
from .orders import Order, OrderKind, Point, tile_of
from .state import UnitState
from .units import PLAN_METHODS, UnitSpec, check_avoidance, unit_of_kind
from .world import DT, World

MAX_CHARS = 4_000_000
MAX_DEPTH = 10
MAX_UNITS = 256
#: One game hour (s): longer runs are refused.
MAX_DURATION = 3600.0
#: Samples in all (units x ticks): about 60 MB of JSON.
MAX_SAMPLES = 1_000_000
MAX_ORDERS = 64
MAX_POINTS = 64
DT_RANGE = (0.005, 0.5)
TOP_FIELDS = {"map", "seed", "duration", "avoidance", "units", "dt", "method", "fog", "plan_work",
              "route_work"}
SPEC_FIELDS = {"width", "radius", "speed", "acceleration", "braking", "lateral", "turn_rate",
               "can_reverse", "team", "method", "sight"}
UNIT_FIELDS = {"id", "kind", "start", "goal", "targets", "patrol", "orders"} | SPEC_FIELDS
ORDER_FIELDS = {"type", "goal", "targets", "points", "at"}


@dataclass
class Scenario:
    """A scenario read and checked: the world with its units placed, and how long to run."""

    world: World
    duration: float


def _object(value: Any, field: str, known: set[str]) -> dict:
    if not isinstance(value, dict):
        raise BadInput(f"{field or 'scenario'} must be an object, got {shown(value)}", field)
    unknown = sorted(str(k) for k in value if k not in known)
    if unknown:
        where = f"{field}." if field else ""
        raise BadInput(f"unknown field {where}{unknown[0]} (known: {', '.join(sorted(known))})",
                       f"{where}{unknown[0]}")
    return value


def _number(value: Any, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or abs(value) > 1e9:
        raise BadInput(f"{field} must be a finite number, got {shown(value)}", field)
    return float(value)


def _list(value: Any, field: str, low: int, high: int) -> list:
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise BadInput(f"{field} must be a list of {low} to {high} items, got {shown(value)}", field)
    return value


def _point(value: Any, field: str, tilemap: TileMap, width: float) -> Point:
    """(x, y) or (x, y, heading) in tiles / radians, on the map where the body fits."""
    p = _list(value, field, 2, 3)
    x, y = _number(p[0], f"{field}[0]"), _number(p[1], f"{field}[1]")
    h = _number(p[2], f"{field}[2]") if len(p) == 3 else None
    tx, ty = tile_of(x, y)
    if not tilemap.in_bounds(tx, ty):
        raise BadInput(f"{field} ({x:g}, {y:g}) is off the {tilemap.width}x{tilemap.height} map", field)
    if tilemap.is_blocked(tx, ty):
        raise BadInput(f"{field} ({x:g}, {y:g}) is in a wall", field)
    if not swept_line_clear(tilemap, (x, y), (x, y), width):
        raise BadInput(f"{field} ({x:g}, {y:g}): a body {width:g} wide overlaps a wall there", field)
    return (x, y, h)


def _points(value: Any, field: str, tilemap: TileMap, width: float) -> tuple[Point, ...]:
    return tuple(_point(p, f"{field}[{i}]", tilemap, width)
                 for i, p in enumerate(_list(value, field, 1, MAX_POINTS)))


def _order(value: Any, field: str, tilemap: TileMap, width: float) -> Order:
    o = _object(value, field, ORDER_FIELDS)
    kind = o.get("type")
    if not isinstance(kind, str) or kind not in tuple(OrderKind):
        raise BadInput(f"{field}.type must be one of {', '.join(OrderKind)}, got {shown(kind)}", f"{field}.type")
    k = OrderKind(kind)
    need = {OrderKind.MOVE: "goal", OrderKind.NEAREST: "targets", OrderKind.PATROL: "points"}.get(k)
    extra = sorted(set(o) - {"type", "at", *([need] if need else [])})
    if extra:
        raise BadInput(f"{field}: a {kind} order takes no {extra[0]}", f"{field}.{extra[0]}")
    points: tuple[Point, ...] = ()
    if need is not None:
        if need not in o:
            raise BadInput(f"{field}: a {kind} order needs {need}", f"{field}.{need}")
        points = ((_point(o[need], f"{field}.{need}", tilemap, width),) if need == "goal"
                  else _points(o[need], f"{field}.{need}", tilemap, width))
    at = None
    if "at" in o:
        at = check_number(o["at"], f"{field}.at")
        if at > MAX_DURATION:
            raise BadInput(f"{field}.at must be at most {MAX_DURATION:g} s, got {at:g}", f"{field}.at")
    return Order(k, points, at)


def _spec(u: dict, field: str, method: str | None) -> UnitSpec:
    uid = u.get("id")
    if not isinstance(uid, str):
        raise BadInput(f"{field}.id must be a string, got {shown(uid)}", f"{field}.id")
    given = {k: u[k] for k in SPEC_FIELDS if k in u}
    if method is not None:
        given.setdefault("method", method)
    try:
        return unit_of_kind(uid, u.get("kind"), **given)
    except BadInput as e:
        raise BadInput(f"{field}.{e.field}: {e}", f"{field}.{e.field}") from None


def _unit(value: Any, field: str, tilemap: TileMap, method: str | None) -> tuple[UnitSpec, Pose, list[Order]]:
    u = _object(value, field, UNIT_FIELDS)
    spec = _spec(u, field, method)
    if "start" not in u:
        raise BadInput(f"{field} needs a start [x, y, heading]", f"{field}.start")
    x, y, h = _point(u["start"], f"{field}.start", tilemap, spec.width)
    named: list[tuple[Order, str]] = []
    for name, kind in (("goal", OrderKind.MOVE), ("targets", OrderKind.NEAREST), ("patrol", OrderKind.PATROL)):
        if name in u:
            pts = ((_point(u[name], f"{field}.{name}", tilemap, spec.width),) if name == "goal"
                   else _points(u[name], f"{field}.{name}", tilemap, spec.width))
            named.append((Order(kind, pts), f"{field}.{name}"))
    if "orders" in u:
        named += [(_order(o, f"{field}.orders[{i}]", tilemap, spec.width), f"{field}.orders[{i}]")
                  for i, o in enumerate(_list(u["orders"], f"{field}.orders", 0, MAX_ORDERS))]
    _after_patrol(named)
    return spec, Pose(x, y, 0.0 if h is None else h), [o for o, _ in named]


def _after_patrol(named: list[tuple[Order, str]]) -> None:
    """Refuse an untimed order queued after a patrol: a patrol goes on for ever, so it would
    never run (an order timed with ``at`` replaces the patrol, and those after it queue behind
    it: the same holds for them)."""
    patrolling = False
    for order, name in named:
        if order.at is None and patrolling:
            raise BadInput(f"{name}: a {order.kind} order queued after a patrol never runs (a patrol goes on "
                           f"for ever; give the order an \"at\" time to have it replace the patrol)", name)
        patrolling = order.kind is OrderKind.PATROL


def _map(value: Any) -> TileMap:
    if isinstance(value, list) and value and all(isinstance(r, str) and "\n" not in r for r in value):
        text = "\n".join(value)
    elif isinstance(value, str):
        text = value
    else:
        raise BadInput(f"map must be a list of ASCII rows (strings), got {shown(value)}", "map")
    try:
        return parse_ascii(text).map
    except BadInput as e:
        raise BadInput(f"map: {e}", "map") from None
    except ValueError as e:
        raise BadInput(f"map: {e}", "map") from None


def read_scenario(doc: Any) -> Scenario:
    """A ``Scenario`` from a parsed JSON document (see the module notes for what is refused)."""
    d = _object(doc, "", TOP_FIELDS)
    if "map" not in d or "units" not in d:
        raise BadInput("a scenario needs a map and units", "map" if "map" not in d else "units")
    tilemap = _map(d["map"])
    seed = d.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) >= 2 ** 63:
        raise BadInput(f"seed must be an integer below 2**63 in size, got {shown(seed)}", "seed")
    duration = check_number(d.get("duration", 60.0), "duration", 0.0, strict=True)
    if duration > MAX_DURATION:
        raise BadInput(f"duration must be at most {MAX_DURATION:g} s, got {duration:g}", "duration")
    dt = check_number(d.get("dt", DT), "dt", 0.0, strict=True)
    if not DT_RANGE[0] <= dt <= DT_RANGE[1]:
        raise BadInput(f"dt must be within {DT_RANGE[0]:g} to {DT_RANGE[1]:g} s, got {dt:g}", "dt")
    avoidance = check_avoidance(d.get("avoidance", "none"))
    method = d.get("method")
    if method is not None and (not isinstance(method, str) or method not in PLAN_METHODS):
        raise BadInput(f"method must be one of {', '.join(PLAN_METHODS)}, got {shown(method)}", "method")
    units = _list(d["units"], "units", 1, MAX_UNITS)
    ticks = math.ceil(duration / dt)
    if (ticks + 1) * len(units) > MAX_SAMPLES:
        raise BadInput(f"duration {duration:g} s at dt {dt:g} s for {len(units)} units makes more than "
                       f"{MAX_SAMPLES} samples; shorten it", "duration")
    fog = d.get("fog", False)
    if not isinstance(fog, bool):
        raise BadInput(f"fog must be true or false, got {shown(fog)}", "fog")
    world = World(tilemap, dt, seed, avoidance, fog=fog, plan_work=d.get("plan_work"),
                  route_work=d.get("route_work"))  # it checks both
    seen: set[str] = set()
    for i, raw in enumerate(units):
        spec, pose, orders = _unit(raw, f"units[{i}]", tilemap, method)
        if spec.id in seen:
            raise BadInput(f"units[{i}].id {spec.id!r} is used twice", f"units[{i}].id")
        seen.add(spec.id)
        try:
            world.add(spec, pose, orders)
        except BadInput as e:
            raise BadInput(f"units[{i}].{e.field} {e}", f"units[{i}].{e.field}") from None
    return Scenario(world, duration)


def load_scenario(text: str | bytes) -> Scenario:
    """A ``Scenario`` from JSON text (size and nesting checked before parsing)."""
    return read_scenario(load_json(text, "scenario", MAX_DEPTH, max_chars=MAX_CHARS))


def run_scenario(scenario: Scenario, digits: int | None = 6) -> dict[str, Any]:
    """Run to the end and return ``{"units": [{"id", "arrived", "status", "samples"}], ...}``;
    samples are [t, x, y, heading, speed] per tick (s, tiles, radians, tiles/s, negative in
    reverse), rounded to ``digits`` decimals (None: exact)."""
    world = scenario.world
    world.run(scenario.duration)

    def r(v: float) -> float:
        return v if digits is None else round(v, digits)

    def heading(h: float) -> float:
        """Rounded and still in (-pi, pi] (pi itself rounds to 3.141593, above pi)."""
        if digits is None:
            return h
        v = round(h, digits)
        if v > math.pi or v <= -math.pi:
            v = math.copysign(math.floor(abs(h) * 10 ** digits) / 10 ** digits, h)
        return v

    def out(u: UnitState) -> dict[str, Any]:
        arrived = world.arrival(u)
        return {"id": u.spec.id, "arrived": None if arrived is None else r(arrived), "status": u.status,
                "samples": [[r(t), r(x), r(y), heading(h), r(v)] for t, x, y, h, v in u.samples]}

    return {"dt": world.dt, "seed": world.seed, "avoidance": world.avoidance.value, "time": r(world.time),
            "units": [out(u) for u in world.units]}
