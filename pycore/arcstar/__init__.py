"""arcstar: realistic pathfinding for game units.

Tiles are (x, y) with x growing right and y growing down; tile (x, y) covers
[x, x+1) x [y, y+1) and its centre is (x + 0.5, y + 0.5). Headings are radians,
0 = +x (east), pi/2 = +y (south, down the screen).
"""

from .mapio import MapFile, load_map, parse_ascii, parse_movingai_map, parse_scen
from .planner import PlanJob, PlanOptions, PlanResult, nearest, plan
from .tilemap import DEFAULT_TERRAINS, Terrain, TileMap

__version__ = "0.1.0"
__all__ = ["DEFAULT_TERRAINS", "MapFile", "PlanJob", "PlanOptions", "PlanResult", "Terrain", "TileMap",
           "load_map", "nearest", "parse_ascii", "parse_movingai_map", "parse_scen", "plan", "__version__"]
