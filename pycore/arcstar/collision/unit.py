"""The unit a plan is for: its body and how it turns, and the grid it can walk.

A unit is a disc of diameter ``width`` tiles (None: a point, which fits every open tile) that
turns on arcs of at least ``radius`` tiles and may back up when ``can_reverse``. Speed and
acceleration arrive with units in motion (the world layer).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..maps.tilemap import TileMap
from ..outcomes import BadInput
from ..search.grid import GridGraph, GridOptions, graph_for
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
        # walls take tiles away, so a search reads only what it read before, but for the one cost
        # of every step and the heuristic's scale: the same on both maps, or built anew
        if graph is None or graph.uniform_steps is None or tilemap.min_cost() != graph.min_cost:
            graph = graph_for(tilemap, grid)
        return graph.restricted(move_masks_for(tilemap, w), passable_for(tilemap, w), tilemap.version)
    return tilemap.cached(f"graph:{grid}:width={w!r}", build)
