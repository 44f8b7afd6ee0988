"""The unit a plan is for: its body and how it turns, and the grid it can walk.

A unit is a disc of diameter ``width`` tiles (None: a point, which fits every open tile) that
turns on arcs of at least ``radius`` tiles and may back up when ``can_reverse``. Speed and
acceleration arrive with units in motion (the world layer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from ..maps.tilemap import TileMap
from ..outcomes import BadInput
from ..search.grid import GridGraph, GridOptions, graph_for, one_step_cost
from ..search.options import check_number
from .clearance import move_masks_for, passable_for


@dataclass(frozen=True)
class Unit:
    """width: diameter in tiles, or None for a point unit. radius: the turning radius in tiles
    (used by the turning methods; 1.0 is a car-like unit on a tile grid). can_reverse: it may
    drive backwards (Reeds-Shepp curves, three-point turns)."""

    width: float | None = None
    radius: float = 1.0
    can_reverse: bool = False

    def __post_init__(self) -> None:
        if self.width is not None:
            check_number(self.width, "width", strict=True)
        check_number(self.radius, "radius", strict=True)
        if not isinstance(self.can_reverse, bool):
            raise BadInput(f"can_reverse must be true or false, got {self.can_reverse!r}", "can_reverse")


def unit_graph(tilemap: TileMap, grid: GridOptions, width: float | None) -> GridGraph:
    """The grid a unit of ``width`` walks: tiles where it fits and steps its swept disc clears
    (cached per map version, grid options and width; the plain grid for a point unit).

    On a map walled from another (``TileMap.walled``) it is the other's graph with the moves and
    tiles the walls take away taken away, not a new build: the same searches, for a fraction of
    the time (the world plans round other units so, several times a tick in a crowd)."""
    if width is None:
        return graph_for(tilemap, grid)
    if grid.diagonal not in ("both", "never"):
        raise BadInput("with a width, diagonal must be 'both' or 'never': the swept-disc test decides the rest",
                       "diagonal")
    w = float(width)

    def build() -> GridGraph:
        origin = tilemap.walled_from()
        graph = None if origin is None else unit_graph(origin[0], grid, w)
        added = None if origin is None else _added_penalties(origin[0], tilemap)
        # walls take tiles away, so a search reads only what it read before, but for whether all
        # steps cost one the same (the uniform loop) and the heuristic's scale: the same on both
        # maps, or built anew; penalties added on a map that had none are added to the same step
        # costs (``penalised``: then some open tile costs more, on both)
        if graph is None or added is False or tilemap.min_cost() != graph.min_cost or \
                added is None and graph.uniform_steps is None and one_step_cost(tilemap, grid):
            graph, added = graph_for(tilemap, grid), None
        out = graph.restricted(move_masks_for(tilemap, w), passable_for(tilemap, w), tilemap.version)
        return out if added is None else out.penalised(*added)
    return tilemap.cached(f"graph:{grid}:width={w!r}", build)


def _added_penalties(origin: TileMap, tilemap: TileMap) -> tuple[np.ndarray, np.ndarray] | Literal[False] | None:
    """The open tiles of ``tilemap`` (walled from ``origin``) whose penalty it adds, and how
    much (flat indices, amounts); None if it adds none (the same layer, or none on either);
    False if that cannot be patched exactly (``origin`` has other penalties of its own: a sum of
    two penalties need not equal one layer)."""
    if tilemap.influence is None:
        return None if origin.influence is None else False
    if origin.influence is not None:
        return None if np.array_equal(origin.influence, tilemap.influence) else False
    flat = tilemap.influence.ravel()
    cells = np.flatnonzero((flat > 0) & ~tilemap.blocked.ravel())
    return (cells, flat[cells]) if len(cells) else None
