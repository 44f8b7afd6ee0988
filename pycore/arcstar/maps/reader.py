"""One reader for every kind of map file, chosen by the file's content (and, for hex ASCII
art, by the caller: the same characters draw square or hex maps)."""

from __future__ import annotations

import re

from ..outcomes import BadInput
from .hexmap import HexMap, check_orientation, hex_map_from_json, parse_hex_ascii
from .mapio import MapFile, load_text
from .waypoints import WaypointMap, waypoints_from_json

_FORMAT = re.compile(r'"format"\s*:\s*"(arcstar-[a-z]+)"')


def read_any(text: str, hex: str | None = None) -> MapFile | HexMap | WaypointMap:
    """A square map (``MapFile``: Moving AI ``.map``, arcstar JSON, ASCII), a ``HexMap``
    (arcstar-hex JSON, or ASCII art when ``hex`` names an orientation, "pointy" or "flat") or
    a ``WaypointMap`` (arcstar-waypoints JSON)."""
    if not isinstance(text, str):
        raise BadInput(f"a map must be text, got {type(text).__name__}", "map")
    if hex is not None:
        check_orientation(hex, "hex")
    head = text.lstrip()[:4096]
    if head.startswith("{"):
        found = _FORMAT.search(head)
        kind = found.group(1) if found else ""
        if kind == "arcstar-hex":
            return hex_map_from_json(text)
        if kind == "arcstar-waypoints":
            return waypoints_from_json(text)
    elif hex is not None:
        return parse_hex_ascii(text, hex)
    return load_text(text)
