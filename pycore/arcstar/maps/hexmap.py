"""Hex maps: a hex grid of terrain cells, addressed in axial coordinates, with its readers.

Coordinates follow Red Blob Games ("Hexagonal Grids"): a cell is the axial pair (q, r), with
s = -q - r implied; its six neighbours are (q, r) plus one of ``AXIAL_DIRECTIONS``. The two
orientations share these axial neighbours and differ only in how cells are drawn:

- ``"pointy"`` (a corner at the top): rows of cells, stored as **odd-r** offset rows, odd rows
  shoved right by half a cell. ``col = q + (r - (r & 1)) // 2``, ``row = r``; back:
  ``q = col - (row - (row & 1)) // 2``, ``r = row``.
- ``"flat"`` (a flat edge at the top): columns of cells, stored as **odd-q** offset columns, odd
  columns shoved down by half a cell. ``col = q``, ``row = r + (q - (q & 1)) // 2``; back:
  ``q = col``, ``r = row - (col - (col & 1)) // 2``.

The storage is a rectangle of ``width`` columns and ``height`` rows of uint8 terrain codes,
indexed ``[row, col]``, flat index ``row * width + col``; offset (0, 0) is axial (0, 0).

Drawing units: hex size 1 (centre to corner), x grows right and y grows down (as tile units do),
and the map's bounding box starts at (0, 0). Pointy: centre ``x = sqrt3 * (col + (row & 1) / 2)
+ sqrt3 / 2``, ``y = 1.5 * row + 1``. Flat: ``x = 1.5 * col + 1``, ``y = sqrt3 * (row + (col & 1)
/ 2) + sqrt3 / 2``. Neighbouring centres are sqrt 3 apart in both orientations.

Terrain types and move costs are the tile maps' (``tilemap.DEFAULT_TERRAINS``); the cells are
kept in a ``TileMap`` over the offset rectangle, which supplies the cost lookup, the blocked
mask, the cheapest cost and the version counter.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import TypeVar

import numpy as np

from ..outcomes import BadInput, shown
from .jsontext import as_text, load_json
from .mapio import ASCII_CHARS
from .tilemap import DEFAULT_TERRAINS, Terrain, TileMap, check_size

T = TypeVar("T")
ORIENTATIONS = ("pointy", "flat")
# (dq, dr) of the six neighbours, counter-clockwise from "east" (+q) in Red Blob's order.
AXIAL_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
MAX_HEX_SIDE = 4096  # columns or rows
MAX_HEX_CELLS = 2048 * 2048  # a hex map's successor lists cost more than a grid's: a lower cap
MAX_HEX_TEXT = 8 * MAX_HEX_CELLS + 65536  # characters of ASCII or JSON text read at most
HEX_FORMAT = "arcstar-hex"
SQRT3 = math.sqrt(3.0)
_JSON_KEYS = ("format", "version", "orientation", "width", "height", "rows")


def check_orientation(orientation: object, field: str = "orientation") -> str:
    """``"pointy"`` or ``"flat"``; anything else is refused."""
    if not isinstance(orientation, str) or orientation not in ORIENTATIONS:
        raise BadInput(f"orientation must be 'pointy' or 'flat', got {shown(orientation)}", field)
    return orientation


def axial_to_offset(q: int, r: int, orientation: str) -> tuple[int, int]:
    """(col, row) in the storage of a map of this orientation (odd-r pointy, odd-q flat)."""
    if orientation == "pointy":
        return q + (r - (r & 1)) // 2, r
    return q, r + (q - (q & 1)) // 2


def offset_to_axial(col: int, row: int, orientation: str) -> tuple[int, int]:
    """(q, r) of the stored cell (col, row): the inverse of ``axial_to_offset``."""
    if orientation == "pointy":
        return col - (row - (row & 1)) // 2, row
    return col, row - (col - (col & 1)) // 2


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """The number of steps between two axial cells on an open hex grid."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def check_hex_size(width: object, height: object) -> tuple[int, int]:
    """Positive integers, each at most ``MAX_HEX_SIDE`` and at most ``MAX_HEX_CELLS`` in all."""
    for field, v in (("width", width), ("height", height)):
        try:
            check_size(v, 1)
        except ValueError as e:
            raise BadInput(f"hex map {field} must be a positive integer, got {shown(v)}", field) from e
        if int(v) > MAX_HEX_SIDE:  # type: ignore[call-overload]
            raise BadInput(f"hex map {field} {v} is over the limit of {MAX_HEX_SIDE}", field)
    w, h = int(width), int(height)  # type: ignore[call-overload]
    if w * h > MAX_HEX_CELLS:
        raise BadInput(f"hex map of {w}x{h} = {w * h} cells is over the limit of {MAX_HEX_CELLS}", "height")
    return w, h


class HexMap:
    """A rectangle of hex cells (odd-r rows when pointy, odd-q columns when flat) with terrain
    codes and per-terrain move costs; cells are addressed in axial (q, r).

    ``terrain`` is the uint8 array ``[row, col]``; ``cost_grid``/``blocked`` derive from it and
    are cached per ``version`` (bumped by every edit), as on a ``TileMap``.
    """

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by content

    def __init__(self, terrain: np.ndarray, orientation: str = "pointy",
                 terrains: Iterable[Terrain] = DEFAULT_TERRAINS) -> None:
        self.orientation = check_orientation(orientation)
        terrain = np.asarray(terrain)
        if terrain.ndim != 2:
            raise BadInput(f"hex terrain must be a 2-D array [row, col], got shape {terrain.shape}", "terrain")
        check_hex_size(terrain.shape[1], terrain.shape[0])
        try:
            self.grid = TileMap(terrain, terrains)
        except ValueError as e:
            raise BadInput(str(e), "terrain") from e

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def empty(cls, width: int, height: int, orientation: str = "pointy") -> HexMap:
        """An all-ground map of ``width`` columns and ``height`` rows of storage."""
        w, h = check_hex_size(width, height)
        return cls(np.zeros((h, w), dtype=np.uint8), orientation)

    def copy(self) -> HexMap:
        """An independent copy (same orientation, terrain types and costs)."""
        other = HexMap(self.terrain.copy(), self.orientation, self.terrains.values())
        other.grid.version = self.version
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HexMap):
            return NotImplemented
        return (self.orientation == other.orientation and self.terrain.shape == other.terrain.shape
                and bool(np.array_equal(self.terrain, other.terrain)) and self.terrains == other.terrains)

    def __repr__(self) -> str:
        return f"HexMap({self.width}x{self.height}, {self.orientation}, version={self.version})"

    # -- shape, coordinates, lookups ------------------------------------------------------
    @property
    def terrain(self) -> np.ndarray:
        return self.grid.terrain

    @property
    def terrains(self) -> dict[int, Terrain]:
        return self.grid.terrains

    @property
    def width(self) -> int:
        """Columns of storage."""
        return self.grid.width

    @property
    def height(self) -> int:
        """Rows of storage."""
        return self.grid.height

    @property
    def version(self) -> int:
        return self.grid.version

    def to_offset(self, q: int, r: int) -> tuple[int, int]:
        """(col, row) of axial (q, r) in this map's storage (it may lie off the map)."""
        return axial_to_offset(q, r, self.orientation)

    def to_axial(self, col: int, row: int) -> tuple[int, int]:
        """(q, r) of the stored cell (col, row)."""
        return offset_to_axial(col, row, self.orientation)

    def in_bounds(self, q: int, r: int) -> bool:
        col, row = self.to_offset(q, r)
        return 0 <= col < self.width and 0 <= row < self.height

    def index(self, q: int, r: int) -> int:
        """The flat index ``row * width + col`` of axial (q, r); ``BadInput`` when off the map."""
        col, row = self.to_offset(q, r)
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise BadInput(f"hex ({q}, {r}) is off the {self.width}x{self.height} {self.orientation} map", "cell")
        return row * self.width + col

    def cell_of(self, index: int) -> tuple[int, int]:
        """Axial (q, r) of a flat index; the inverse of ``index``."""
        row, col = divmod(index, self.width)
        return self.to_axial(col, row)

    def cells(self) -> Iterable[tuple[int, int]]:
        """Every cell's axial (q, r), in storage order (row by row)."""
        for row in range(self.height):
            for col in range(self.width):
                yield self.to_axial(col, row)

    def neighbours(self, q: int, r: int) -> list[tuple[int, int]]:
        """The on-map axial neighbours of (q, r), blocked or not."""
        return [(q + dq, r + dr) for dq, dr in AXIAL_DIRECTIONS if self.in_bounds(q + dq, r + dr)]

    def code_at(self, q: int, r: int) -> int:
        col, row = self.to_offset(q, r)
        return int(self.terrain[row, col])

    def cost_at(self, q: int, r: int) -> float:
        """The move-cost multiplier of entering (q, r); inf when impassable."""
        return self.terrains[self.code_at(q, r)].cost

    def is_blocked(self, q: int, r: int) -> bool:
        """True when (q, r) is impassable or off the map."""
        if not self.in_bounds(q, r):
            return True
        col, row = self.to_offset(q, r)
        return bool(self.blocked[row, col])

    @property
    def cost_grid(self) -> np.ndarray:
        """Per-cell move-cost multipliers (float64, inf = impassable), shape (height, width)."""
        return self.grid.cost_grid

    @property
    def blocked(self) -> np.ndarray:
        """Boolean mask of impassable cells, shape (height, width)."""
        return self.grid.blocked

    def min_cost(self) -> float:
        """The cheapest passable move cost on the map (scales the hex heuristic)."""
        return self.grid.min_cost()

    def cached(self, key: str, build: Callable[[], T]) -> T:
        """A value derived from this version of the map, built once (for graphs and drawing)."""
        return self.grid.cached(key, build)

    # -- edits (each bumps the version) ---------------------------------------------------
    def set_cell(self, q: int, r: int, code: int) -> None:
        col, row = self.to_offset(q, r)
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise BadInput(f"hex ({q}, {r}) is off the {self.width}x{self.height} map", "cell")
        if code not in self.terrains:
            raise BadInput(f"unknown terrain code {shown(code)}", "code")
        self.grid.set_tile(col, row, code)

    def set_cost(self, code: int, cost: float) -> None:
        """Change the move cost of one terrain type (inf makes it impassable)."""
        try:
            self.grid.set_cost(code, cost)
        except ValueError as e:
            raise BadInput(str(e), "cost") from e

    # -- drawing --------------------------------------------------------------------------
    def center(self, q: int, r: int) -> tuple[float, float]:
        """The centre of (q, r) in drawing units (hex size 1, y down, box from (0, 0))."""
        col, row = self.to_offset(q, r)
        if self.orientation == "pointy":
            return SQRT3 * (col + 0.5 * (row & 1)) + SQRT3 / 2, 1.5 * row + 1.0
        return 1.5 * col + 1.0, SQRT3 * (row + 0.5 * (col & 1)) + SQRT3 / 2

    def corners(self, q: int, r: int) -> list[tuple[float, float]]:
        """The six corners of (q, r) in drawing units, clockwise on screen (y down)."""
        cx, cy = self.center(q, r)
        start = -30.0 if self.orientation == "pointy" else 0.0
        return [(cx + math.cos(math.radians(start + 60 * i)), cy + math.sin(math.radians(start + 60 * i)))
                for i in range(6)]

    def extent(self) -> tuple[float, float]:
        """The drawing's (width, height): the bounding box of every cell."""
        w, h = self.width, self.height
        if self.orientation == "pointy":
            return SQRT3 * (w + (0.5 if h > 1 else 0.0)), 1.5 * h + 0.5
        return 1.5 * w + 0.5, SQRT3 * (h + (0.5 if w > 1 else 0.0))

    def cell_at_point(self, x: float, y: float) -> tuple[int, int]:
        """The axial cell whose hexagon holds the drawing point (x, y) (it may lie off the map)."""
        if self.orientation == "pointy":
            px, py = x - SQRT3 / 2, y - 1.0
            fq, fr = (SQRT3 / 3 * px - py / 3), 2.0 / 3.0 * py
        else:
            px, py = x - 1.0, y - SQRT3 / 2
            fq, fr = 2.0 / 3.0 * px, (-px / 3 + SQRT3 / 3 * py)
        return _axial_round(fq, fr)


def _axial_round(fq: float, fr: float) -> tuple[int, int]:
    """The axial cell nearest fractional (fq, fr) (cube rounding)."""
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return int(q), int(r)


# -- readers and writers ------------------------------------------------------------------
def _codes_from_rows(rows: list[str], width: int, field: str = "rows") -> np.ndarray:
    """The terrain codes of rows of terrain characters (``ASCII_CHARS``), each ``width`` long."""
    for y, row in enumerate(rows):
        if len(row) != width:
            raise BadInput(f"row {y} has {len(row)} characters, expected {width} (rows must not be ragged)",
                           f"{field}[{y}]")
    table = np.full(256, 255, dtype=np.uint8)
    for ch, code in ASCII_CHARS.items():
        table[ord(ch)] = code
    raw = np.frombuffer("".join(rows).encode("latin-1", errors="replace"), dtype=np.uint8)
    codes = table[raw]
    bad = codes == 255
    if bad.any():
        y, x = divmod(int(np.argmax(bad)), width)
        raise BadInput(f"unknown terrain character {rows[y][x]!r} at column {x} of row {y}", f"{field}[{y}]")
    return codes.reshape(len(rows), width)


def parse_hex_ascii(text: str | bytes, orientation: str = "pointy") -> HexMap:
    """Read hex ASCII art: one storage row per line (odd-r rows when pointy, the rows of odd-q
    columns when flat), one terrain character per cell from the square reader's table
    (``mapio.ASCII_CHARS``), no indentation; blank lines before and after are ignored."""
    check_orientation(orientation)
    text = as_text(text, "hex ASCII map", MAX_HEX_TEXT)
    rows = [r.rstrip("\r") for r in text.split("\n")]
    while rows and rows[-1].strip() == "":
        rows.pop()
    while rows and rows[0].strip() == "":
        rows.pop(0)
    if not rows:
        raise BadInput("hex ASCII map is empty", "rows")
    if len(rows[0]) > MAX_HEX_SIDE:
        raise BadInput(f"row 0 has {len(rows[0])} cells, over the limit of {MAX_HEX_SIDE}", "rows[0]")
    if len(rows) > MAX_HEX_SIDE or len(rows) * len(rows[0]) > MAX_HEX_CELLS:
        raise BadInput(f"{len(rows)} rows of {len(rows[0])} cells is over the limit of {MAX_HEX_SIDE} rows "
                       f"or {MAX_HEX_CELLS} cells", "rows")
    return HexMap(_codes_from_rows(rows, len(rows[0])), orientation)


def hex_to_ascii(hexmap: HexMap) -> str:
    """The map as hex ASCII art (each terrain's character, one line per storage row)."""
    chars = np.array(["?"] * 256)
    for t in hexmap.terrains.values():
        chars[t.code] = t.char
    return "\n".join("".join(row) for row in chars[hexmap.terrain]) + "\n"


def hex_map_to_json(hexmap: HexMap) -> dict:
    """arcstar hex JSON: format, orientation, storage size and rows of terrain characters
    (the default terrain table; per-map cost changes are not stored)."""
    return {"format": HEX_FORMAT, "version": 1, "orientation": hexmap.orientation,
            "width": hexmap.width, "height": hexmap.height,
            "rows": hex_to_ascii(hexmap).rstrip("\n").split("\n")}


def hex_map_from_json(doc: object) -> HexMap:
    """Read arcstar hex JSON (a dict, or its text); the inverse of ``hex_map_to_json``.
    Unknown keys, a wrong size or a bad row are refused with the field they concern."""
    if isinstance(doc, (str, bytes, bytearray)):
        text = as_text(doc, "hex map JSON", MAX_HEX_TEXT)
        doc = load_json(text, "hex map JSON", 8)  # the format nests two levels
    if not isinstance(doc, dict):
        raise BadInput(f"a hex map must be a JSON object, got {shown(doc)}")
    if doc.get("format") != HEX_FORMAT:
        raise BadInput(f"not an arcstar hex map: format must be {HEX_FORMAT!r}, got {shown(doc.get('format'))}",
                       "format")
    for key in doc:
        if key not in _JSON_KEYS:
            raise BadInput(f"unknown key {shown(key)} in a hex map", str(key)[:40])
    if doc.get("version", 1) != 1 or isinstance(doc.get("version"), bool):
        raise BadInput(f"hex map version must be 1, got {shown(doc.get('version'))}", "version")
    orientation = check_orientation(doc.get("orientation"))
    width, height = check_hex_size(doc.get("width"), doc.get("height"))
    rows = doc.get("rows")
    if not isinstance(rows, list):
        raise BadInput(f"'rows' must be a list of {height} strings, got {shown(rows)}", "rows")
    if len(rows) != height:
        raise BadInput(f"'rows' has {len(rows)} rows, height is {height}", "rows")
    for y, row in enumerate(rows):
        if not isinstance(row, str):
            raise BadInput(f"row {y} must be a string, got {shown(row)}", f"rows[{y}]")
    return HexMap(_codes_from_rows(rows, width), orientation)
