"""Pinter's hybrid figures as maps: the situations of Figures 8, 20 and 21a/21b of "Toward More
Realistic Pathfinding", rebuilt from their captions and text (the figures themselves are not in
the article's text). Tests assert what the article says of each; the bench times the hybrid on
them. Each is a ``MapFile`` (walls ``#``, start ``S``, goal ``G``) with the start heading
(radians; 0 east, -pi/2 north, y down) and the unit's turning radius (tiles; 1 tile wide).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..maps.mapio import MapFile, parse_ascii

NORTH = -math.pi / 2

# Figure 8: the way from the corridor to the goal is a left turn, too tight for the unit; the room
# to the right has no room for a left turn either, so the legal path makes a right-hand loop
# there and then goes on west.
FIGURE_8 = """\
###########
#####.....#
#####.....#
#####.....#
#####.....#
#G........#
#####.#####
#####.#####
#####.#####
#####S#####
###########
"""


@dataclass(frozen=True)
class Figure:
    """A rebuilt figure: the map (with start and goal), the start heading and the radius."""

    name: str
    text: str
    start_heading: float
    radius: float = 1.0

    @property
    def loaded(self) -> MapFile:
        return parse_ascii(self.text)


def bend_map(width: int, height: int, walls: list[tuple[int, int, int, int]], bends: list[tuple[int, int]],
             start: tuple[int, int], goal: tuple[int, int]) -> str:
    """A walled room with wall blocks (x0, x1, y0, y1, inclusive) and open ``bends`` cut into
    them (one-tile-wide S-bends no turning unit can drive), as ASCII."""
    g = [["#"] * width] + [["#"] + ["."] * (width - 2) + ["#"] for _ in range(height - 2)] + [["#"] * width]
    for x0, x1, y0, y1 in walls:
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                g[y][x] = "#"
    for x, y in bends:
        g[y][x] = "."
    g[start[1]][start[0]], g[goal[1]][goal[0]] = "S", "G"
    return "\n".join("".join(r) for r in g) + "\n"


# Figure 20: a long way across a thick wall. 4-neighbour A* is misled into an S-bend one tile wide
# in the wall; the legal route is the circuitous one round the wall's end on the right.
FIGURE_20 = bend_map(40, 18, [(1, 31, 8, 10)], [(14, 10), (14, 9), (15, 9), (16, 9), (16, 8)], (2, 15), (20, 2))
# Figure 21a: the same situation, simpler and shorter. 21b: one blocking tile more, in the bend,
# so the initial A* is not misled.
FIGURE_21A = bend_map(24, 13, [(1, 17, 5, 7)], [(10, 7), (10, 6), (11, 6), (12, 6), (12, 5)], (10, 10), (12, 2))
FIGURE_21B = bend_map(24, 13, [(1, 17, 5, 7)], [(10, 7), (10, 6), (12, 6), (12, 5)], (10, 10), (12, 2))
# Two such bends far apart: the smoothing passes fail more than 12 tiles apart (step 4 fails).
TWO_BENDS = bend_map(44, 16, [(6, 8, 1, 11), (32, 34, 1, 11)],
                     [(6, 6), (7, 6), (7, 7), (8, 7), (32, 6), (33, 6), (33, 7), (34, 7)], (2, 6), (41, 7))

FIGURES = {f.name: f for f in (
    Figure("figure8", FIGURE_8, NORTH),
    Figure("figure20", FIGURE_20, 0.0),
    Figure("figure21a", FIGURE_21A, NORTH),
    Figure("figure21b", FIGURE_21B, NORTH),
    Figure("two_bends", TWO_BENDS, 0.0),
)}
