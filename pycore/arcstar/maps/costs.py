"""Cost profiles: per-query move costs, the way Detour's query filter applies them.

A map holds terrain codes and its own costs; a query may see other costs (a hovercraft finds
water passable, a scout pays double in swamp) and an influence overlay (additive penalties:
danger, claimed tiles) without editing the map. ``CostProfile.view(tilemap)`` is the map as the
query sees it: a derived ``TileMap`` built once per map version and profile, so the map's own
caches never hold a query's costs and every layer below the planner works on the view unchanged.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from ..outcomes import BadInput
from .tilemap import TileMap, check_cost


@dataclass(frozen=True)
class CostProfile:
    """Move costs for one query.

    terrain: (code, cost) pairs overriding the map's cost of those terrain codes; a cost is a
        positive multiplier or ``inf`` (impassable). Codes the map does not define are an error.
    influence: None, or a (height, width) array of finite additive penalties >= 0 per tile
        entered, in the search's cost units, added to the map's own influence layer.
    """

    terrain: tuple[tuple[int, float], ...] = ()
    influence: np.ndarray | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        pairs = []
        for k, pair in enumerate(self.terrain):
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise BadInput(f"terrain costs must be (code, cost) pairs, got {pair!r}", f"terrain_costs[{k}]")
            code, cost = pair
            if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code <= 255:
                raise BadInput(f"a terrain code must be an integer 0..255, got {code!r}", f"terrain_costs[{k}]")
            try:
                pairs.append((code, check_cost(math.inf if cost is None else cost, f"terrain {code} cost")))
            except ValueError as e:
                raise BadInput(str(e), f"terrain_costs[{k}]") from None
        object.__setattr__(self, "terrain", tuple(pairs))
        if self.influence is not None:
            inf = np.asarray(self.influence, dtype=np.float64)
            if inf.ndim != 2 or not np.isfinite(inf).all() or (inf < 0).any():
                raise BadInput("influence must be a 2-D array of finite penalties >= 0", "influence")
            inf.setflags(write=False)
            object.__setattr__(self, "influence", inf)

    @classmethod
    def of(cls, terrain: Mapping[int, float | None] | Iterable[tuple[int, float | None]] = (),
           influence: np.ndarray | None = None) -> CostProfile:
        """A profile from a {code: cost} mapping or pairs (None = impassable)."""
        items = terrain.items() if isinstance(terrain, Mapping) else terrain
        return cls(tuple((c, math.inf if v is None else v) for c, v in items), influence)

    @property
    def is_default(self) -> bool:
        return not self.terrain and self.influence is None

    @property
    def key(self) -> str:
        """A short fingerprint: equal for profiles that cost every step the same."""
        digest = hashlib.sha1(repr(self.terrain).encode())
        if self.influence is not None:
            digest.update(repr(self.influence.shape).encode())
            digest.update(self.influence.tobytes())
        return digest.hexdigest()[:16]

    def view(self, tilemap: TileMap) -> TileMap:
        """The map as this profile's queries see it (the map itself for the default profile)."""
        if self.is_default:
            return tilemap
        return tilemap.cached(f"cost-profile:{self.key}", lambda: self._build(tilemap))

    def _build(self, tilemap: TileMap) -> TileMap:
        for code, _cost in self.terrain:
            if code not in tilemap.terrains:
                raise BadInput(f"terrain code {code} is not a terrain of this map", "terrain_costs")
        view = tilemap.copy()
        for code, cost in self.terrain:
            view.set_cost(code, cost)
        if self.influence is not None:
            if self.influence.shape != (tilemap.height, tilemap.width):
                raise BadInput(f"influence must have the map's shape {(tilemap.height, tilemap.width)}, "
                               f"got {self.influence.shape}", "influence")
            base = tilemap.influence if tilemap.influence is not None else 0.0
            view.set_influence(base + self.influence)
        return view
