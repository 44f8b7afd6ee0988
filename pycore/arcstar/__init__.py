"""arcstar: realistic pathfinding for game units.

Tiles are (x, y) with x growing right and y growing down; tile (x, y) covers
[x, x+1) x [y, y+1) and its centre is (x + 0.5, y + 0.5). Headings are radians,
0 = +x (east), pi/2 = +y (south, down the screen).

The layers, each a subpackage that imports only the ones before it: ``maps``, ``search``,
``geometry``, ``collision``, ``turning``, ``planner``, ``service``.
"""

from .collision import Unit
from .maps import (
    DEFAULT_TERRAINS,
    CostProfile,
    GeneratedMap,
    GeneratorKind,
    GeneratorParams,
    MapFile,
    Terrain,
    TileMap,
    generate,
    generate_map,
    load_map,
    parse_ascii,
    parse_movingai_map,
    parse_scen,
)
from .outcomes import BadInput, ErrorKind, Status
from .planner import METHODS, PlanJob, PlanOptions, PlanResult, guarantee, nearest, plan
from .search import SearchOptions
from .turning import TurningOptions
from .version import __version__

__all__ = ["DEFAULT_TERRAINS", "METHODS", "BadInput", "CostProfile", "ErrorKind", "GeneratedMap", "GeneratorKind",
           "GeneratorParams", "MapFile", "PlanJob", "PlanOptions", "PlanResult", "SearchOptions", "Status", "Terrain",
           "TileMap", "TurningOptions", "Unit", "__version__", "generate", "generate_map", "guarantee", "load_map",
           "nearest", "parse_ascii", "parse_movingai_map", "parse_scen", "plan"]
