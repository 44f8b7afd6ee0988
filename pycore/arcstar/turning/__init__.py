"""Layer 5, turning: from a tile path to a path a unit can drive. Smoothing (Pinter's Listing
1), the basic legal-turn methods (ignore, recalculate, tighter, backing up), fixed-angle art
and road cornering; every method can run in slices (``realize_steps``)."""

from .art import to_fixed_angles
from .layout import TIGHTER_LEVELS
from .methods import TURN_METHODS, Realized, realize, realize_steps, run_work
from .options import TurningOptions
from .roads import realize_on_road
from .smoothing import smooth, smooth_points, tile_centres

__all__ = ["TIGHTER_LEVELS", "TURN_METHODS", "Realized", "TurningOptions", "realize", "realize_on_road",
           "realize_steps", "run_work", "smooth", "smooth_points", "tile_centres", "to_fixed_angles"]
