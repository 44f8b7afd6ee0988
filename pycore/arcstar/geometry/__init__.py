"""Layer 3, geometry: poses, paths of ``Line`` and ``Arc`` segments with ``pose_at`` (Pinter's
Listing 2), and the curve builders: arc-then-line, Pinter's four tangent curves, the Dubins and
Reeds-Shepp sets. Tile units; x right, y down; headings in radians, 0 = east, pi/2 = south."""

from .curves import (
    arc_then_line,
    dubins,
    dubins_all,
    dubins_length,
    pinter_curves,
    reeds_shepp,
    reeds_shepp_all,
    reeds_shepp_length,
)
from .primitives import Arc, Line, Path, Pose, angle_diff, normalize_angle, point_of, segment_from_json

__all__ = ["Arc", "Line", "Path", "Pose", "angle_diff", "arc_then_line", "dubins", "dubins_all", "dubins_length",
           "normalize_angle", "pinter_curves", "point_of", "reeds_shepp", "reeds_shepp_all", "reeds_shepp_length",
           "segment_from_json"]
