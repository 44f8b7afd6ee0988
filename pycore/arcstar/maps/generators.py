"""Seeded map generators: a perfect maze, rooms and doors, caves, random obstacles and roads.

The same (kind, size, seed, parameters) give the same map on every platform (CPython and
Pyodide alike: see ``carving.SeededStream``), so a seed is enough to share a map. Each map comes
with a start and a goal far apart on open tiles the generator knows are joined (the tiles
nearest the top-left and the bottom-right corners of the largest open region; on a road map the
two towns farthest apart). Tiles are ``(x, y)``, x right, y down.

``generate(GeneratorParams(kind="caves", width=64, height=48, seed=7))`` or
``generate_map("maze", 41, 31, seed=3)``; bad parameters raise ``BadInput`` naming the field.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

import numpy as np

from ..outcomes import BadInput, shown
from .carving import SeededStream, far_apart, largest_region, line_tiles
from .mapio import MapFile
from .tilemap import DEFAULT_TERRAINS, GROUND, WALL, TileMap

_CODE = {t.name: t.code for t in DEFAULT_TERRAINS}
ROAD, SAND, HILLS, SWAMP = _CODE["road"], _CODE["sand"], _CODE["hills"], _CODE["swamp"]


class GeneratorKind(StrEnum):
    """What a generator makes."""

    MAZE = "maze"            # a perfect maze: one route between any two open cells
    ROOMS = "rooms"          # rooms split by walls, each wall with one door
    CAVES = "caves"          # a cellular automaton's caves, the largest one kept
    OBSTACLES = "obstacles"  # walls scattered at random at a density
    ROADS = "roads"          # rough terrain crossed by roads joining a few towns


#: Sides in tiles. At least 3 (a maze needs a cell inside its border); at most 1024 because a
#: generator runs in one call of the lab's worker, not in slices (1024 x 1024: 0.3 to 1.7 s on CPython).
MIN_SIDE, MAX_SIDE = 3, 1024
#: Seeds are 32-bit unsigned integers: exact in JavaScript numbers and short in a link.
MAX_SEED = 2**32 - 1
#: Per kind that takes one, what ``density`` means, its range and default (why the default):
DENSITY: dict[GeneratorKind, tuple[str, float, float, float]] = {
    # 0.25: about the most walls at which most open tiles still form one region on 4 neighbours
    GeneratorKind.OBSTACLES: ("share of tiles that are walls", 0.0, 0.9, 0.25),
    # 0.45: the classic start fill for the 4-5 rule; below 0.3 hardly any wall survives, above
    # 0.65 hardly any cave does
    GeneratorKind.CAVES: ("share of tiles that start as walls before the automaton", 0.3, 0.65, 0.45),
    # 0.5: half the land rough, so a road is worth taking
    GeneratorKind.ROADS: ("share of tiles of rough terrain (sand, hills, swamp) before roads", 0.0, 0.9, 0.5),
}
#: Cave automaton steps (4: the caves are smooth; more changes little).
CAVE_STEPS = 4
#: A road map's coarse noise cell, tiles: patches of terrain about this wide.
ROAD_PATCH = 8


@dataclass(frozen=True)
class GeneratorParams:
    """What to generate. Checked on construction: a bad field raises ``BadInput`` naming it.

    - ``kind``: a ``GeneratorKind`` or its name.
    - ``width``, ``height``: tiles, ``MIN_SIDE``..``MAX_SIDE`` (default 48 x 32, the lab's example).
    - ``seed``: 0..``MAX_SEED`` (default 1).
    - ``density``: obstacles, caves and roads only (see ``DENSITY``); None is the kind's default.
    - ``corridor``: maze only, corridor width in tiles, 1..8 (default 1: a classic maze; walls
      are always 1 tile).
    - ``room``: rooms only, the smallest side of a room in tiles, 2..64 (default 5: big enough
      to turn a unit of width 1 round in).
    """

    kind: GeneratorKind | str = GeneratorKind.MAZE
    width: int = 48
    height: int = 32
    seed: int = 1
    density: float | None = None
    corridor: int = 1
    room: int = 5

    def __post_init__(self) -> None:
        try:
            kind = GeneratorKind(self.kind)
        except ValueError:
            raise BadInput(f"unknown generator kind {shown(self.kind)} (expected "
                           f"{', '.join(k.value for k in GeneratorKind)})", "kind") from None
        object.__setattr__(self, "kind", kind)
        for name, low, high in (("width", MIN_SIDE, MAX_SIDE), ("height", MIN_SIDE, MAX_SIDE),
                                ("seed", 0, MAX_SEED), ("corridor", 1, 8), ("room", 2, 64)):
            object.__setattr__(self, name, _int_in(getattr(self, name), name, low, high))
        if self.density is not None:
            if kind not in DENSITY:
                raise BadInput(f"a {kind.value} takes no density (only {', '.join(k.value for k in DENSITY)} do)",
                               "density")
            what, least, most, _ = DENSITY[kind]
            d = self.density
            if isinstance(d, bool) or not isinstance(d, numbers.Real) or not math.isfinite(d) or not least <= d <= most:
                raise BadInput(f"density of {kind.value} ({what}) must be a number from {least} to {most}, "
                               f"got {shown(d)}", "density")
            object.__setattr__(self, "density", float(d))
        if kind == GeneratorKind.MAZE:
            for name in ("width", "height"):
                if getattr(self, name) < self.corridor + 2:
                    raise BadInput(f"a maze with corridors {self.corridor} wide needs a {name} of at least "
                                   f"{self.corridor + 2} tiles", name)

    @property
    def used_density(self) -> float | None:
        """The density the generator uses (the kind's default when none was given)."""
        kind = GeneratorKind(self.kind)
        if kind not in DENSITY:
            return None
        return DENSITY[kind][3] if self.density is None else self.density

    def to_json(self) -> dict[str, Any]:
        """The parameters as JSON (the density as used)."""
        out = asdict(self)
        out["kind"] = GeneratorKind(self.kind).value
        out["density"] = self.used_density
        return out

    @classmethod
    def from_dict(cls, raw: object) -> GeneratorParams:
        """From a JSON object; unknown keys are refused, naming them."""
        if not isinstance(raw, dict):
            raise BadInput(f"generator parameters must be an object, got {type(raw).__name__}", "")
        fields = ("kind", "width", "height", "seed", "density", "corridor", "room")
        for key in raw:
            if key not in fields:
                raise BadInput(f"unknown generator parameter {shown(key)} (expected {', '.join(fields)})",
                               str(key)[:40])
        if "kind" not in raw:
            raise BadInput("say which generator: kind", "kind")
        return cls(**raw)


def _int_in(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not low <= int(value) <= high:
        raise BadInput(f"{name} must be an integer from {low} to {high}, got {shown(value)}", name)
    return int(value)


@dataclass(frozen=True)
class GeneratedMap:
    """A generated map, its start and goal (None when it has fewer than two open tiles that are
    joined), and the parameters that made it."""

    map: TileMap
    start: tuple[int, int] | None
    goal: tuple[int, int] | None
    params: GeneratorParams

    def map_file(self) -> MapFile:
        return MapFile(self.map, self.start, self.goal)


def generate_map(kind: GeneratorKind | str, width: int = 48, height: int = 32, seed: int = 1,
                 **options: Any) -> GeneratedMap:
    """``generate(GeneratorParams(kind, width, height, seed, **options))``."""
    return generate(GeneratorParams(kind, width, height, seed, **options))


def generate(params: GeneratorParams) -> GeneratedMap:
    """The map the parameters describe, always the same for the same parameters."""
    if not isinstance(params, GeneratorParams):
        raise BadInput(f"generate takes GeneratorParams, got {type(params).__name__}", "params")
    rng = SeededStream(params.seed)
    kind = GeneratorKind(params.kind)
    if kind == GeneratorKind.ROADS:
        terrain, ends = _roads(params, rng)
    else:
        open_tiles = {GeneratorKind.MAZE: _maze, GeneratorKind.ROOMS: _rooms, GeneratorKind.CAVES: _caves,
                      GeneratorKind.OBSTACLES: _obstacles}[kind](params, rng)
        terrain = np.where(open_tiles, GROUND, WALL).astype(np.uint8)
        ends = far_apart(largest_region(open_tiles))
    start, goal = ends if ends else (None, None)
    return GeneratedMap(TileMap(terrain), start, goal, params)


# ----------------------------------------------------------------------------- the kinds

def _maze(p: GeneratorParams, rng: SeededStream) -> np.ndarray:
    """A perfect maze (depth-first, a random unvisited neighbour each step: long winding
    corridors). Layout: cell (i, j) covers tiles x in [1 + i*(c+1), 1 + i*(c+1) + c) and the same
    in y, c the corridor width; 1-tile walls between cells and round the edge; tiles past the
    last whole cell are wall."""
    c = p.corridor
    cw, ch = (p.width - 1) // (c + 1), (p.height - 1) // (c + 1)
    lattice = np.zeros((2 * ch + 1, 2 * cw + 1), dtype=bool)  # cells at odd (row, col), walls between
    seen = bytearray(cw * ch)
    stack = [0]
    seen[0] = 1
    lattice[1, 1] = True
    while stack:
        cell = stack[-1]
        i, j = cell % cw, cell // cw
        nexts = [(ni, nj) for ni, nj in ((i + 1, j), (i, j + 1), (i - 1, j), (i, j - 1))
                 if 0 <= ni < cw and 0 <= nj < ch and not seen[nj * cw + ni]]
        if not nexts:
            stack.pop()
            continue
        ni, nj = nexts[rng.below(len(nexts))]
        seen[nj * cw + ni] = 1
        lattice[2 * nj + 1, 2 * ni + 1] = True
        lattice[j + nj + 1, i + ni + 1] = True  # the wall between the two cells
        stack.append(nj * cw + ni)
    sizes_y = [1] + [c, 1] * ch
    sizes_x = [1] + [c, 1] * cw
    tiles = np.repeat(np.repeat(lattice, sizes_y, axis=0), sizes_x, axis=1)
    out = np.zeros((p.height, p.width), dtype=bool)
    out[:tiles.shape[0], :tiles.shape[1]] = tiles
    return out


def _rooms(p: GeneratorParams, rng: SeededStream) -> np.ndarray:
    """Recursive division: split the open inside of a walled map with a 1-tile wall holding one
    door, and each side again, while a side can hold two rooms of at least ``room`` tiles. A new
    wall never lands against a door of the walls round it, so every room stays reachable."""
    grid = np.zeros((p.height, p.width), dtype=bool)
    grid[1:-1, 1:-1] = True
    m = p.room
    todo = [(1, 1, p.width - 2, p.height - 2)]  # open rectangles, corners inclusive
    while todo:
        x0, y0, x1, y1 = todo.pop()
        w, h = x1 - x0 + 1, y1 - y0 + 1
        # where a wall may go: both sides keep m tiles, and no door of the boundary ends on it
        cols = [x for x in range(x0 + m, x1 - m + 1) if not grid[y0 - 1, x] and not grid[y1 + 1, x]]
        rows = [y for y in range(y0 + m, y1 - m + 1) if not grid[y, x0 - 1] and not grid[y, x1 + 1]]
        if not cols and not rows:
            continue
        vertical = bool(cols) and (not rows or w > h or (w == h and rng.below(2) == 0))
        if vertical:
            x = cols[rng.below(len(cols))]
            grid[y0:y1 + 1, x] = False
            grid[y0 + rng.below(h), x] = True
            todo += [(x0, y0, x - 1, y1), (x + 1, y0, x1, y1)]
        else:
            y = rows[rng.below(len(rows))]
            grid[y, x0:x1 + 1] = False
            grid[y, x0 + rng.below(w)] = True
            todo += [(x0, y0, x1, y - 1), (x0, y + 1, x1, y1)]
    return grid


def _caves(p: GeneratorParams, rng: SeededStream) -> np.ndarray:
    """A cellular automaton: tiles start as walls at the density, then ``CAVE_STEPS`` times a
    tile becomes wall with 5 or more wall neighbours (of 8; off the map counts as wall) and
    stays wall with 4 or more (the 4-5 rule); then only the largest cave stays open."""
    density = p.used_density
    assert density is not None
    wall = rng.floats(p.width * p.height).reshape(p.height, p.width) < density
    wall[[0, -1], :] = True
    wall[:, [0, -1]] = True
    for _ in range(CAVE_STEPS):
        padded = np.pad(wall, 1, constant_values=True).astype(np.int8)
        around = sum(padded[1 + dy:1 + dy + p.height, 1 + dx:1 + dx + p.width]
                     for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx)
        wall = (around >= 5) | (wall & (around >= 4))
    return largest_region(~wall)


def _obstacles(p: GeneratorParams, rng: SeededStream) -> np.ndarray:
    """Exactly round(density x tiles) walls at distinct random tiles (no border)."""
    density = p.used_density
    assert density is not None
    n = p.width * p.height
    walls = np.argsort(rng.floats(n), kind="stable")[:round(density * n)]
    open_tiles = np.ones(n, dtype=bool)
    open_tiles[walls] = False
    return open_tiles.reshape(p.height, p.width)


def _roads(p: GeneratorParams, rng: SeededStream) -> tuple[np.ndarray, tuple[tuple[int, int], tuple[int, int]] | None]:
    """Patches of ground, sand, hills and swamp (a smooth random field cut at its quantiles:
    exactly the density's share rough), then roads: a few towns joined by the shortest
    tree of straight 4-connected roads (Prim's), so every town is reachable by road."""
    density = p.used_density
    assert density is not None
    w, h = p.width, p.height
    gw, gh = w // ROAD_PATCH + 2, h // ROAD_PATCH + 2
    coarse = rng.floats(gw * gh).reshape(gh, gw)
    fy, fx = np.arange(h) / ROAD_PATCH, np.arange(w) / ROAD_PATCH
    iy, ix = fy.astype(int), fx.astype(int)
    ty, tx = (fy - iy)[:, None], (fx - ix)[None, :]
    field = ((coarse[iy][:, ix] * (1 - tx) + coarse[iy][:, ix + 1] * tx) * (1 - ty)
             + (coarse[iy + 1][:, ix] * (1 - tx) + coarse[iy + 1][:, ix + 1] * tx) * ty)
    rank = np.empty(w * h, dtype=np.int64)
    rank[np.argsort(field.ravel(), kind="stable")] = np.arange(w * h)
    rough = round(density * w * h)
    bands = np.searchsorted([w * h - rough + k * rough / 3 for k in (0, 1, 2)], rank, side="right")
    terrain = np.array([GROUND, SAND, HILLS, SWAMP], dtype=np.uint8)[bands].reshape(h, w)
    towns: list[tuple[int, int]] = []
    count = max(3, min(12, w * h // 200))
    while len(towns) < count:
        t = (rng.below(w), rng.below(h))
        if t not in towns:
            towns.append(t)
    joined, rest = [towns[0]], towns[1:]
    while rest:  # Prim: the shortest link from the joined towns to another, ties to the first
        a, b = min(((a, b) for a in joined for b in rest),
                   key=lambda ab: (ab[0][0] - ab[1][0]) ** 2 + (ab[0][1] - ab[1][1]) ** 2)
        for x, y in line_tiles(a, b):
            terrain[y, x] = ROAD
        joined.append(b)
        rest.remove(b)
    far = max(((a, b) for i, a in enumerate(towns) for b in towns[i + 1:]),
              key=lambda ab: (ab[0][0] - ab[1][0]) ** 2 + (ab[0][1] - ab[1][1]) ** 2)
    return terrain, far
