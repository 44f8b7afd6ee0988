"""The worker protocol: its schema, reading requests safely, and building answers.

The protocol is defined once, in ``protocol.schema.json`` beside this module (JSON Schema
draft 2020-12, shipped in the wheel); ``schema()`` reads it. The service does not validate
against it at run time (it must run in Pyodide with numpy only): the checks here and in
``service.py`` are written by hand, raise ``outcomes.BadInput`` naming the bad field, and the
tests hold every message the service sends to the schema.

Binary parts never travel as JSON: an answer holds a ``buffer(name, array)`` descriptor where the
bytes belong and the service keeps them for ``Service.take_buffer(name)``; the worker swaps each
descriptor for a typed array and transfers it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from ..maps.jsontext import load_json
from ..outcomes import BadInput, ErrorKind, field_of, shown

SCHEMA_FILE = "protocol.schema.json"

# The message types by direction (the schema's $defs page_request, service_request, answer).
WORLD_REQUEST_TYPES = ("world_info", "world_preset", "world_start", "world_add", "world_remove", "world_order",
                       "world_step")
PAGE_REQUEST_TYPES = ("plan", "cancel", "info", "load_map", "load_scen", "describe", *WORLD_REQUEST_TYPES,
                      "world_run", "generate", "write_map", "check_code")
SERVICE_REQUEST_TYPES = ("plan", "step", "cancel", "info", "load_map", "load_scen", "describe", *WORLD_REQUEST_TYPES,
                         "generate", "write_map", "check_code")
ANSWER_TYPES = ("boot", "started", "progress", "result", "error", "cancelled", "info", "map", "scenarios",
                "describe", "crashed", "world_info", "world_scenario", "world_state", "generated", "map_text",
                "code_checked")

MAX_ID = 2**53 - 1  # ids must survive JavaScript's numbers
MAX_ID_LENGTH = 256
MAX_DEPTH = 32  # no message nests deeper than a few levels; deeper text is refused unparsed
MAX_INT_DIGITS = 24

DTYPES = {"uint8": np.uint8, "int32": np.int32, "float64": np.float64}


@lru_cache(maxsize=1)
def _schema_text() -> str:
    return resources.files(__package__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def schema() -> dict[str, Any]:
    """The protocol's JSON Schema (a fresh dict each call), read from the package's files."""
    return json.loads(_schema_text())


def schema_types(direction: str) -> tuple[str, ...]:
    """The message types the schema lists for a direction: ``page_request``,
    ``service_request`` or ``answer``."""
    doc = schema()
    defs = doc["$defs"]
    names = []
    for ref in defs[direction]["oneOf"]:
        target = defs[ref["$ref"].rsplit("/", 1)[-1]]
        names.append(target["properties"]["type"]["const"])
    return tuple(names)


# ----------------------------------------------------------------------------- reading requests

def _refuse_constant(name: str) -> float:
    raise BadInput(f"{name} is not a number JSON can carry: numbers must be finite")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadInput(f"the number {text[:40]} is too large: numbers must be finite")
    return value


def _bounded_int(text: str) -> int:
    if len(text) > MAX_INT_DIGITS:
        raise BadInput(f"an integer of {len(text)} digits is too large")
    return int(text)


def parse_request(text: object) -> dict[str, Any]:
    """A request object from JSON text, with a usable ``id`` and a known ``type``.

    Refuses (``BadInput``) text that is not JSON, nests deeper than ``MAX_DEPTH``, or holds NaN,
    Infinity or absurd numbers; an id that is not a string or a JavaScript-safe integer.
    """
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", "replace")
    if not isinstance(text, str):
        raise BadInput(f"request must be JSON text, got {type(text).__name__}")
    msg = load_json(text, "request", MAX_DEPTH, parse_constant=_refuse_constant, parse_float=_finite_float,
                    parse_int=_bounded_int)
    if not isinstance(msg, dict):
        raise BadInput("request must be a JSON object")
    check_id(msg.get("id"))
    kind = msg.get("type")
    if kind not in SERVICE_REQUEST_TYPES:
        raise BadInput(f"unknown request type {shown(kind)} (expected {', '.join(SERVICE_REQUEST_TYPES)})", "type")
    return msg


def check_id(value: object) -> None:
    """An id is a string of at most ``MAX_ID_LENGTH`` characters or an integer within +-2**53."""
    if isinstance(value, str) and len(value) <= MAX_ID_LENGTH:
        return
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_ID:
        return
    raise BadInput("request needs an 'id': a string (at most 256 characters) or an integer within +-2**53", "id")


def check_keys(msg: Mapping[str, Any], allowed: tuple[str, ...], where: str = "") -> None:
    """Refuse keys a message (or part of one, ``where``) does not define."""
    for key in msg:
        if key not in allowed:
            name = key if len(key) <= 40 else key[:40] + "…"
            raise BadInput(f"unknown field {name!r} in {where or 'the request'} "
                           f"(expected {', '.join(allowed)})", f"{where}.{name}" if where else name)


def check_int(value: object, field: str, low: int = 1) -> int:
    """An int (not a bool) of at least ``low``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise BadInput(f"{field} must be an integer >= {low}, got {shown(value, 60)}", field)
    return value


def check_text(value: object, field: str) -> str:
    """A string."""
    if not isinstance(value, str):
        raise BadInput(f"{field} must be text (a string), got {type(value).__name__}", field)
    return value


#: The most headings a goal may allow (the directional lattice has 8).
MAX_GOAL_HEADINGS = 8


def end_point(value: object, field: str, heading_sets: bool = False) -> list[Any]:
    """A plan's start or goal: ``[x, y]`` integers, or ``[x, y, heading]`` in radians; with
    ``heading_sets`` (the goal) also ``[x, y, [heading, ...]]``: any of 1 to 8 headings."""
    if isinstance(value, list) and len(value) in (2, 3):
        if all(_is_int(v) for v in value[:2]):
            if len(value) == 2 or (_is_number(value[2]) and math.isfinite(value[2])):
                return value
            if heading_sets and isinstance(value[2], list) and 1 <= len(value[2]) <= MAX_GOAL_HEADINGS \
                    and all(_is_number(h) and math.isfinite(h) for h in value[2]):
                return [value[0], value[1], list(value[2])]
        elif all(_is_number(v) for v in value[:2]):
            raise BadInput(f"{field} must be a pair of integers [x, y], got {shown(value, 60)}", field)
    sets = f" or [x, y, [heading, ...]] (1 to {MAX_GOAL_HEADINGS} headings)" if heading_sets else ""
    raise BadInput(f"{field} must be [x, y] or [x, y, heading]{sets} (integers, and radians), got {shown(value, 60)}",
                   field)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def within(prefix: str, error: ValueError) -> BadInput:
    """A checker's ``ValueError`` as ``BadInput`` with its field under ``prefix``
    (``weight`` within ``options`` is ``options.weight``; no field at all is ``prefix``)."""
    field = field_of(error)
    if not field:
        field = prefix
    elif prefix and field != prefix and not field.startswith(prefix + "."):
        field = f"{prefix}.{field}"
    return BadInput(str(error), field)


# ----------------------------------------------------------------------------- answers

def buffer(name: str, array: np.ndarray) -> dict[str, Any]:
    """The descriptor an answer holds where a binary part belongs."""
    return {"name": name, "dtype": str(array.dtype), "length": int(array.size)}


def error(msg_id: object, exc: BaseException) -> dict[str, Any]:
    """An error answer: ``bad_input`` (with its field) for a ``ValueError``, else ``internal``;
    an error in the user's code (``usercode.UserCodeError``) adds its ``code_error``."""
    if isinstance(exc, ValueError):
        out = {"type": "error", "id": msg_id, "kind": ErrorKind.BAD_INPUT.value, "field": field_of(exc),
               "message": str(exc) or "bad input"}
        detail = getattr(exc, "code_error", None)
        if isinstance(detail, dict):
            out["code_error"] = detail
        return out
    return {"type": "error", "id": msg_id, "kind": ErrorKind.INTERNAL.value, "field": "",
            "message": f"internal error: {type(exc).__name__}: {exc}"}


def dumps(answer: dict[str, Any]) -> str:
    """JSON text of an answer; NaN or Infinity in one (a bug) becomes an internal error."""
    try:
        return json.dumps(answer, allow_nan=False)
    except (TypeError, ValueError) as e:
        return json.dumps(error(answer.get("id"), RuntimeError(f"unsendable answer: {e}")))
