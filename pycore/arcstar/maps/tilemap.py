"""Tile maps: terrain codes, their move costs, an influence layer, and derived caches.

Coordinates (the same everywhere in arcstar): tile (x, y) covers [x, x+1) x [y, y+1), x grows
right and y grows down; arrays are indexed ``[y, x]``, flat indices are ``y * width + x``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar, cast

import numpy as np

INF = math.inf
_T = TypeVar("_T")
MAX_TILES = 16 * 1024 * 1024  # 4096 x 4096: larger maps are refused, not allocated


@dataclass(frozen=True)
class Terrain:
    """A terrain type: its code in the map array, a name, its ASCII character and move cost.

    ``cost`` multiplies the distance of a step that enters the tile; ``inf`` is impassable.
    """

    code: int
    name: str
    char: str
    cost: float


DEFAULT_TERRAINS: tuple[Terrain, ...] = (
    Terrain(0, "ground", ".", 1.0),
    Terrain(1, "wall", "#", INF),
    Terrain(2, "road", "=", 0.5),
    Terrain(3, "sand", ":", 2.0),
    Terrain(4, "swamp", "%", 4.0),
    Terrain(5, "hills", "^", 3.0),
    Terrain(6, "water", "~", INF),
)
GROUND, WALL = 0, 1


def check_cost(cost: float, what: str = "cost") -> float:
    """A move cost must be a positive number or inf (impassable); anything else is refused."""
    if isinstance(cost, bool) or not isinstance(cost, (int, float)):
        raise ValueError(f"{what} must be a number, got {cost!r}")
    cost = float(cost)
    if math.isnan(cost) or cost <= 0:
        raise ValueError(f"{what} must be a positive number or inf (impassable), got {cost!r}")
    return cost


class TileMap:
    """A rectangular map of terrain codes (uint8) with per-terrain move costs.

    Every change bumps ``version``; derived arrays (blocked mask, cost grid) are cached per
    version, so a search can snapshot them cheaply and editors can keep caches in step.
    """

    def __init__(
        self,
        terrain: np.ndarray,
        terrains: Iterable[Terrain] = DEFAULT_TERRAINS,
        influence: np.ndarray | None = None,
    ) -> None:
        terrain = np.asarray(terrain)
        if terrain.ndim != 2 or terrain.shape[0] < 1 or terrain.shape[1] < 1:
            raise ValueError(f"a map must be a non-empty 2-D grid, got shape {terrain.shape}")
        check_size(terrain.shape[1], terrain.shape[0])
        if terrain.dtype != np.uint8:
            if not np.issubdtype(terrain.dtype, np.integer) or terrain.min() < 0 or terrain.max() > 255:
                raise ValueError("terrain codes must be integers 0..255")
        self.terrain = np.ascontiguousarray(terrain, dtype=np.uint8)
        self.terrains = {t.code: t for t in terrains}
        unknown = set(np.flatnonzero(np.bincount(self.terrain.ravel(), minlength=256)).tolist()) - set(self.terrains)
        if unknown:
            raise ValueError(f"terrain codes with no terrain type: {sorted(unknown)}")
        self.influence: np.ndarray | None = None
        self.version = 0
        self._cache: dict[str, object] = {}
        self._cache_version = -1
        self._origin: tuple[TileMap, int, int, np.ndarray] | None = None  # see walled_from
        if influence is not None:
            self.set_influence(influence)
            self.version = 0

    # -- construction -------------------------------------------------------------------
    @classmethod
    def empty(cls, width: int, height: int) -> TileMap:
        """An all-ground map of the given size."""
        check_size(width, height)
        return cls(np.zeros((height, width), dtype=np.uint8))

    @classmethod
    def from_blocked(cls, blocked: np.ndarray) -> TileMap:
        """A ground/wall map from a boolean array (True = wall)."""
        return cls(np.where(np.asarray(blocked, dtype=bool), WALL, GROUND).astype(np.uint8))

    def copy(self) -> TileMap:
        """An independent copy (same terrain types and costs)."""
        m = TileMap(self.terrain.copy(), self.terrains.values(), self.influence)
        m.version = self.version
        return m

    def walled(self, tiles: Iterable[tuple[int, int]], influence: np.ndarray | None = None) -> TileMap:
        """A copy with ``tiles`` (x, y; those off the map are ignored) made walls, and with
        ``influence`` as its penalty layer if given (as ``set_influence``). The copy remembers
        this map (``walled_from``), so that what other layers derive from it can be patched from
        this map's instead of built again: a unit planning round a few tiles others hold pays for
        those tiles, not for the whole map."""
        code = next((c for c in (WALL, *self.terrains) if c in self.terrains and self.terrains[c].cost == INF), None)
        if code is None:
            raise ValueError("this map has no impassable terrain to make walls of")
        h, w = self.terrain.shape
        flat: set[int] = set()
        for t in tiles:
            if not isinstance(t, tuple) or len(t) != 2 or \
                    not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in t):
                raise ValueError(f"tiles to wall must be (x, y) pairs of integers, got {t!r}")
            x, y = t
            if 0 <= x < w and 0 <= y < h:
                flat.add(int(y) * w + int(x))
        out = self.copy()
        if influence is not None:
            out.influence = _checked_influence(influence, self.terrain.shape)
        cells = np.array(sorted(flat), dtype=np.int64)
        cells = cells[~self.blocked.ravel()[cells]]  # the tiles this makes blocked
        if len(cells):
            out.terrain.ravel()[cells] = code
            out.touch()
        out._origin = (self, self.version, out.version, cells)
        return out

    def walled_from(self) -> tuple[TileMap, np.ndarray] | None:
        """(the map this was walled from, the flat indices of the tiles that walling blocked),
        while neither map has changed since ``walled``; None otherwise."""
        if self._origin is None:
            return None
        base, base_version, version, cells = self._origin
        if base.version != base_version or self.version != version:
            return None
        return base, cells

    # -- shape and lookups --------------------------------------------------------------
    @property
    def width(self) -> int:
        return int(self.terrain.shape[1])

    @property
    def height(self) -> int:
        return int(self.terrain.shape[0])

    def in_bounds(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def cost_at(self, x: int, y: int) -> float:
        """The move-cost multiplier of tile (x, y); inf when impassable."""
        return self.terrains[int(self.terrain[y, x])].cost

    def is_blocked(self, x: int, y: int) -> bool:
        """True when (x, y) is impassable or off the map."""
        return not self.in_bounds(x, y) or bool(self.blocked[y, x])

    # -- edits (each bumps the version) -------------------------------------------------
    def set_tile(self, x: int, y: int, code: int) -> None:
        if not self.in_bounds(x, y):
            raise ValueError(f"tile ({x}, {y}) is off the {self.width}x{self.height} map")
        if code not in self.terrains:
            raise ValueError(f"unknown terrain code {code!r}")
        self.terrain[y, x] = code
        self.touch()

    def set_cost(self, code: int, cost: float) -> None:
        """Change the move cost of one terrain type (inf makes it impassable)."""
        if code not in self.terrains:
            raise ValueError(f"unknown terrain code {code!r}")
        t = self.terrains[code]
        self.terrains[code] = Terrain(t.code, t.name, t.char, check_cost(cost, f"cost of {t.name}"))
        self.touch()

    def set_influence(self, influence: np.ndarray | None) -> None:
        """Set the additive penalty layer (Lester's influence map); None removes it."""
        self.influence = None if influence is None else _checked_influence(influence, self.terrain.shape)
        self.touch()

    def touch(self) -> None:
        """Mark the map changed: derived caches are rebuilt on next use."""
        self.version += 1

    # -- derived caches ------------------------------------------------------------------
    def _cached(self, key: str, build: Callable[[], _T]) -> _T:
        if self._cache_version != self.version:
            self._cache.clear()
            self._cache_version = self.version
        if key not in self._cache:
            self._cache[key] = build()
        return cast(_T, self._cache[key])  # each key is always built by the same kind of builder

    @property
    def cost_grid(self) -> np.ndarray:
        """Per-tile move-cost multipliers (float64, inf = impassable), shape (height, width)."""
        return self._cached("cost_grid", lambda: self._cost_table()[self.terrain])

    def _cost_table(self) -> np.ndarray:
        """Move cost per terrain code (inf for codes the map does not define)."""
        table = np.full(256, INF)
        for t in self.terrains.values():
            table[t.code] = t.cost
        return table

    @property
    def blocked(self) -> np.ndarray:
        """Boolean mask of impassable tiles, shape (height, width)."""
        return self._cached("blocked", lambda: np.isinf(self.cost_grid))

    def min_cost(self) -> float:
        """The cheapest passable move cost on the map (scales heuristics to stay admissible)."""
        def build() -> float:
            present = np.bincount(self.terrain.ravel(), minlength=256) > 0
            costs = self._cost_table()[present]
            finite = costs[np.isfinite(costs)]
            return float(finite.min()) if finite.size else 1.0
        return self._cached("min_cost", build)

    def cached(self, key: str, build: Callable[[], _T]) -> _T:
        """A value derived from this version of the map, built once (for other layers' caches)."""
        return self._cached(key, build)

    def __repr__(self) -> str:
        return f"TileMap({self.width}x{self.height}, version={self.version})"


def check_size(width: object, height: object) -> tuple[int, int]:
    """Refuse sizes that are not positive integers or would not fit in memory sensibly;
    return them as (width, height) ints."""
    sizes: list[int] = []
    for name, v in (("width", width), ("height", height)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
            raise ValueError(f"map {name} must be a positive integer, got {v!r}")
        sizes.append(int(v))
    w, h = sizes
    if w * h > MAX_TILES:
        raise ValueError(
            f"map of {width}x{height} = {w * h} tiles is larger than the limit "
            f"of {MAX_TILES} tiles"
        )
    return w, h


def _checked_influence(influence: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """A copy of ``influence`` as a penalty layer for a map of ``shape``, checked."""
    out = np.array(influence, dtype=np.float64)
    if out.shape != shape:
        raise ValueError(f"influence shape {out.shape} != map shape {shape}")
    if not np.all(np.isfinite(out)) or np.any(out < 0):
        raise ValueError("influence penalties must be finite and >= 0")
    return out
