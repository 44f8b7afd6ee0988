"""Reading and writing maps: ASCII art, Moving AI ``.map``/``.scen``, and arcstar JSON.

Every reader refuses malformed input with a ``ValueError`` that says what and where.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..outcomes import BadInput, shown
from .jsontext import load_json
from .tilemap import DEFAULT_TERRAINS, GROUND, WALL, Terrain, TileMap, check_cost, check_size

# ASCII: each terrain's own character, plus Moving AI's characters for convenience.
ASCII_CHARS: dict[str, int] = {t.char: t.code for t in DEFAULT_TERRAINS}
ASCII_CHARS.update({"@": WALL, "O": WALL, "T": WALL, "W": WALL})
MARKERS = {"S": "start", "G": "goal", "E": "goal", "A": "start", "B": "goal"}

# Moving AI benchmark rules: '.', 'G', 'S' passable; '@', 'O', 'T', 'W' blocked.
MOVINGAI_CHARS: dict[str, int] = {".": GROUND, "G": GROUND, "S": GROUND,
                                  "@": WALL, "O": WALL, "T": WALL, "W": WALL}


@dataclass
class MapFile:
    """A map read from a file, with the start and goal markers it held (ASCII art only)."""

    map: TileMap
    start: tuple[int, int] | None = None
    goal: tuple[int, int] | None = None


def parse_ascii(text: str) -> MapFile:
    """Read ASCII art: one row per line, ``.`` ground, ``#`` wall, other terrain characters,
    ``S`` (or ``A``) the start and ``G`` (or ``E``, ``B``) the goal, both on ground; the lab's
    format. Blank lines around it are ignored."""
    if not isinstance(text, str):
        raise ValueError(f"ASCII map must be text, got {type(text).__name__}")
    rows = [r.rstrip("\r") for r in text.strip("\n").split("\n")]
    rows = [r for r in rows if r.strip() != ""] if rows else []
    if not rows:
        raise ValueError("ASCII map is empty")
    width = len(rows[0])
    check_size(width, len(rows))
    grid = np.zeros((len(rows), width), dtype=np.uint8)
    marks: dict[str, tuple[int, int]] = {}
    for y, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(f"ASCII map is not rectangular: row {y} has {len(row)} characters, row 0 has {width}")
        for x, ch in enumerate(row):
            if ch in MARKERS:
                role = MARKERS[ch]
                if role in marks:
                    raise ValueError(f"ASCII map has more than one {role} marker (second at {x},{y})")
                marks[role] = (x, y)
                grid[y, x] = GROUND
            elif ch in ASCII_CHARS:
                grid[y, x] = ASCII_CHARS[ch]
            else:
                raise ValueError(f"unknown character {ch!r} at ({x}, {y}) in ASCII map")
    return MapFile(TileMap(grid), marks.get("start"), marks.get("goal"))


def to_ascii(tilemap: TileMap, start: Sequence[int] | None = None, goal: Sequence[int] | None = None,
             path: Iterable[Sequence[int]] | None = None) -> str:
    """ASCII art of a map, optionally with start ``S``, goal ``G`` and path tiles ``*``."""
    chars = np.array([" "] * 256)
    for t in tilemap.terrains.values():
        chars[t.code] = t.char
    art = chars[tilemap.terrain]
    for x, y in path or ():
        art[y, x] = "*"
    if start is not None:
        art[start[1], start[0]] = "S"
    if goal is not None:
        art[goal[1], goal[0]] = "G"
    return "\n".join("".join(row) for row in art) + "\n"


def parse_movingai_map(text: str) -> TileMap:
    """Read a Moving AI ``.map`` (``type octile``, ``height``, ``width``, ``map``, then rows)."""
    if not isinstance(text, str):
        raise ValueError(f"a .map file must be text, got {type(text).__name__}")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    header: dict[str, str] = {}
    i = 0
    while i < len(lines) and lines[i].strip().lower() != "map":
        parts = lines[i].split()
        if parts:
            if len(parts) != 2:
                raise ValueError(f".map header line {i + 1} is not 'key value': {lines[i][:40]!r}")
            header[parts[0].lower()] = parts[1]
        i += 1
    if i == len(lines):
        raise ValueError(".map file has no 'map' line: not a Moving AI map")
    for key in ("height", "width"):
        if key not in header:
            raise ValueError(f".map header has no '{key}' line")
    try:
        height, width = int(header["height"]), int(header["width"])
    except ValueError:
        raise ValueError(f".map header has a non-integer size: {header['width']!r} x {header['height']!r}") from None
    check_size(width, height)
    rows = lines[i + 1:i + 1 + height]
    if len(rows) < height or (rows and rows[-1] == "" and height > 0 and len(rows[-1]) != width):
        got = len([r for r in rows if r])
        raise ValueError(f".map file is truncated: header says {height} rows, found {got}")
    table = np.full(256, 255, dtype=np.uint8)
    for ch, code in MOVINGAI_CHARS.items():
        table[ord(ch)] = code
    grid = np.empty((height, width), dtype=np.uint8)
    for y, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(f".map row {y} has {len(row)} characters, header says width {width}")
        raw = np.frombuffer(row.encode("latin-1", errors="replace"), dtype=np.uint8)
        codes = table[raw]
        if (codes == 255).any():
            x = int(np.argmax(codes == 255))
            raise ValueError(f"unknown terrain character {row[x]!r} at ({x}, {y}) in .map file")
        grid[y] = codes
    return TileMap(grid)


def to_movingai_map(tilemap: TileMap) -> str:
    """Write a Moving AI ``.map``: passable tiles as ``.``, impassable as ``@``."""
    rows = ["".join("@" if b else "." for b in row) for row in tilemap.blocked]
    return f"type octile\nheight {tilemap.height}\nwidth {tilemap.width}\nmap\n" + "\n".join(rows) + "\n"


@dataclass(frozen=True)
class Scenario:
    """One Moving AI problem: start, goal and the optimal octile length from the file."""

    id: int
    bucket: int
    map_name: str
    width: int
    height: int
    start: tuple[int, int]
    goal: tuple[int, int]
    optimal: float


def parse_scen(text: str, tilemap: TileMap | None = None) -> list[Scenario]:
    """Read a Moving AI ``.scen`` file; with ``tilemap``, also check every problem lies on it."""
    if not isinstance(text, str):
        raise ValueError(f"a .scen file must be text, got {type(text).__name__}")
    lines = text.replace("\r\n", "\n").split("\n")
    if not lines or not lines[0].lower().startswith("version"):
        raise ValueError(".scen file must start with a 'version' line")
    out: list[Scenario] = []
    for n, line in enumerate(lines[1:], start=2):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 9:
            raise ValueError(f".scen line {n} has {len(parts)} fields, expected 9")
        try:
            bucket, w, h, sx, sy, gx, gy = (int(parts[k]) for k in (0, 2, 3, 4, 5, 6, 7))
            opt = float(parts[8])
        except ValueError:
            raise ValueError(f".scen line {n} has a field that is not a number: {line[:60]!r}") from None
        if not math.isfinite(opt) or opt < 0:
            raise ValueError(f".scen line {n} has an invalid optimal length {parts[8]!r}")
        sc = Scenario(len(out), bucket, parts[1].replace("\\", "/").rsplit("/", 1)[-1], w, h, (sx, sy), (gx, gy), opt)
        if tilemap is not None:
            for role, (x, y) in (("start", sc.start), ("goal", sc.goal)):
                if not tilemap.in_bounds(x, y):
                    raise ValueError(f".scen line {n}: {role} ({x}, {y}) lies outside the "
                                     f"{tilemap.width}x{tilemap.height} map")
        out.append(sc)
    return out


def map_to_json(tilemap: TileMap) -> dict:
    """arcstar JSON: size, terrain types with costs, rows of terrain characters, influence."""
    chars = {t.code: t.char for t in tilemap.terrains.values()}
    rows = ["".join(chars[int(c)] for c in row) for row in tilemap.terrain]
    doc = {
        "format": "arcstar-map", "version": 1, "width": tilemap.width, "height": tilemap.height,
        "terrains": [{"code": t.code, "name": t.name, "char": t.char,
                      "cost": None if math.isinf(t.cost) else t.cost}
                     for t in sorted(tilemap.terrains.values(), key=lambda t: t.code)],
        "rows": rows,
    }
    if tilemap.influence is not None:
        doc["influence"] = tilemap.influence.tolist()
    return doc


MAX_MAP_DEPTH = 8  # an arcstar map nests three levels (influence rows); deeper text is refused unparsed


def map_from_json(doc: object) -> TileMap:
    """Read arcstar JSON (a dict, or its text); the inverse of ``map_to_json``."""
    if isinstance(doc, (str, bytes)):
        doc = load_json(doc, "map JSON", MAX_MAP_DEPTH)
    if not isinstance(doc, dict) or doc.get("format") != "arcstar-map":
        got = f"format {shown(doc.get('format'), 40)}" if isinstance(doc, dict) \
            else f"a JSON {_JSON_KIND.get(type(doc), type(doc).__name__)}"
        raise ValueError(f"not an arcstar JSON map: expected a JSON object with format 'arcstar-map', got {got}")
    terrains: Sequence[Terrain] = DEFAULT_TERRAINS
    if "terrains" in doc:
        raw = doc["terrains"]
        if not isinstance(raw, list) or not raw:
            raise ValueError("'terrains' must be a non-empty list")
        parsed: list[Terrain] = []
        for t in raw:
            if not isinstance(t, dict) or not {"code", "name", "char"} <= t.keys():
                raise ValueError(f"terrain entry {t!r} needs code, name and char")
            code, char = t["code"], t["char"]
            if not isinstance(code, int) or not 0 <= code <= 255 or not isinstance(char, str) or len(char) != 1:
                raise ValueError(f"terrain entry {t!r}: code must be 0..255 and char one character")
            cost = math.inf if t.get("cost") is None else check_cost(t["cost"], f"cost of {t['name']}")
            parsed.append(Terrain(code, str(t["name"]), char, cost))
        terrains = parsed
    rows = doc.get("rows")
    width, height = check_size(doc.get("width"), doc.get("height"))
    if not isinstance(rows, list) or len(rows) != height or not all(isinstance(r, str) for r in rows):
        raise ValueError(f"'rows' must be a list of {height} strings")
    by_char = {t.char: t.code for t in terrains}
    grid = np.empty((height, width), dtype=np.uint8)
    for y, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(f"row {y} has {len(row)} characters, width is {width}")
        for x, ch in enumerate(row):
            if ch not in by_char:
                raise ValueError(f"unknown terrain character {ch!r} at ({x}, {y})")
            grid[y, x] = by_char[ch]
    influence = None
    if "influence" in doc:
        try:
            influence = np.asarray(doc["influence"], dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError("'influence' must be a grid of numbers") from None
    return TileMap(grid, terrains, influence)


def read_text_file(path: str | Path, what: str = "map file") -> str:
    """A file's text (UTF-8); a clear ``ValueError`` naming the file when it cannot be read."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise ValueError(f"cannot read {what} {p.name}: {e.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{what} {p.name} is not text") from None


def load_map(path: str | Path) -> MapFile:
    """Open a map file by its content: Moving AI ``.map``, arcstar JSON, or ASCII art."""
    return load_text(read_text_file(path))


_JSON_KIND = {list: "array", str: "string", int: "number", float: "number", bool: "boolean", type(None): "null"}

#: The square-map formats ``load_text`` reads: Moving AI ``.map``, arcstar JSON, ASCII art.
MAP_FORMATS = ("movingai", "json", "ascii")


def text_format(text: str) -> str:
    """The format a map's text is in, told by its content (one of ``MAP_FORMATS``)."""
    head = text.lstrip()[:64].lower()
    if head.startswith("type "):
        return "movingai"
    if head.startswith("{"):
        return "json"
    return "ascii"


def check_format(format: object) -> str:
    """``format`` if it names one of ``MAP_FORMATS``, else a ``BadInput`` naming the field."""
    if not isinstance(format, str) or format not in MAP_FORMATS:
        raise BadInput(f"format must be one of {', '.join(MAP_FORMATS)}, got {shown(format, 40)}", "format")
    return format


def load_text(text: str, format: str | None = None) -> MapFile:
    """Read a map from its text: Moving AI ``.map``, arcstar JSON, or ASCII art, as ``format``
    says (for example from the file's name: a ``.json`` file is read as JSON, and an error
    speaks of JSON), or by its content when ``format`` is None."""
    if not isinstance(text, str):
        raise ValueError(f"a map must be text, got {type(text).__name__}")
    format = text_format(text) if format is None else check_format(format)
    if format == "movingai":
        return MapFile(parse_movingai_map(text))
    if format == "json":
        return MapFile(map_from_json(text))
    return parse_ascii(text)
