"""The built-in maps the lab offers beside files: Lester's worked example, an empty walled room and
a large serpentine for long, cancellable searches. Each is a ``MapFile`` with its start and goal.

The lab's build writes them (with the example map of ``static/maps/``) into the page's core data,
so the page draws and edits them before Pyodide has loaded.
"""

from __future__ import annotations

import numpy as np

from .mapio import MapFile, parse_ascii
from .tilemap import WALL, TileMap

# Lester's "A* Pathfinding for Beginners", Figures 1 to 7: the target is three tiles right of the
# tile beside the start, behind a wall three tiles tall.
LESTER_ROWS = (".......", "...#...", ".S.#.G.", "...#...", ".......")


def lester() -> MapFile:
    """Lester's worked example (searched with 10/14 step costs and Manhattan x 10)."""
    return parse_ascii("\n".join(LESTER_ROWS))


def walled_room(width: int, height: int) -> MapFile:
    """An open map inside a one-tile border wall; start near the top-left, goal near the
    bottom-right corner."""
    grid = np.zeros((height, width), dtype=np.uint8)
    grid[[0, -1], :] = WALL
    grid[:, [0, -1]] = WALL
    return MapFile(TileMap(grid), (2, 2), (width - 3, height - 3))


def serpentine(size: int = 1024, spacing: int = 8) -> MapFile:
    """A square open map crossed by a wall every ``spacing`` rows, each with a 3-tile gap at
    alternating ends: the path from the top-left to the bottom-left zigzags across the whole map,
    so A* expands most of it (made for trying cancel on a long search)."""
    grid = np.zeros((size, size), dtype=np.uint8)
    for k, y in enumerate(range(spacing, size - 1, spacing)):
        grid[y, :] = WALL
        if k % 2 == 0:
            grid[y, size - 3:] = 0
        else:
            grid[y, :3] = 0
    return MapFile(TileMap(grid), (1, 1), (1, size - 2))
