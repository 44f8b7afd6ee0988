"""Layer 1, maps: what the world looks like. ``TileMap`` (terrain codes, move costs, an
influence layer, caches rebuilt per version), per-query ``CostProfile``s, and the readers and
writers: Moving AI ``.map``/``.scen``, arcstar JSON, ASCII art; seeded generators (maze, rooms,
caves, obstacles, roads)."""

from .costs import CostProfile
from .generators import GeneratedMap, GeneratorKind, GeneratorParams, generate, generate_map
from .mapio import (
    MapFile,
    Scenario,
    load_map,
    load_text,
    map_from_json,
    map_to_json,
    parse_ascii,
    parse_movingai_map,
    parse_scen,
    to_ascii,
    to_movingai_map,
)
from .tilemap import DEFAULT_TERRAINS, GROUND, INF, MAX_TILES, WALL, Terrain, TileMap, check_cost, check_size

__all__ = ["DEFAULT_TERRAINS", "GROUND", "INF", "MAX_TILES", "WALL", "CostProfile", "GeneratedMap", "GeneratorKind",
           "GeneratorParams", "MapFile", "Scenario", "Terrain", "TileMap", "check_cost", "check_size", "generate",
           "generate_map", "load_map", "load_text", "map_from_json", "map_to_json", "parse_ascii", "parse_movingai_map",
           "parse_scen", "to_ascii", "to_movingai_map"]
