"""Layer 4, collision: the unit (a disc of a width, a turning radius) and whether its body
clears the walls: exact swept-disc tests for lines and arcs, Pinter's sampled test, clearance
maps and per-width move masks, and the grid a unit of a width can walk."""

from .clearance import MOVES, clearance_map, move_masks_for, passable_for, step_ok_for
from .swept import (
    blocked_stretches,
    first_collision,
    path_clear,
    swept_arc_clear,
    swept_line_clear,
    walkable,
    walkable_curve,
    walkable_sampled,
)
from .unit import Unit, unit_graph

__all__ = ["MOVES", "Unit", "blocked_stretches", "clearance_map", "first_collision", "move_masks_for",
           "passable_for", "path_clear", "step_ok_for", "swept_arc_clear", "swept_line_clear", "unit_graph",
           "walkable", "walkable_curve", "walkable_sampled"]
