"""Planning along roads (Pinter, Figure 16): A* that never leaves the road tiles."""

from __future__ import annotations

from typing import Any, cast

from ..collision.unit import Unit
from ..maps.tilemap import TileMap
from ..outcomes import BadInput, Status
from ..search.engine import path_length
from ..turning.methods import masked_search, search_options_for
from ..turning.roads import road_graph_mask, road_map, road_mask
from .result import PlanResult
from .sites import check_tile


def plan_on_road(tilemap: TileMap, start: object, goal: object, **options: Any) -> PlanResult:
    """A* restricted to road tiles (Pinter's "temporarily disallow movement to any off-road
    tile"); options: ``SearchOptions`` fields, ``method`` and ``width`` (the unit must fit on
    the road, the verge counting as a wall). ``BadInput`` for a start or goal off the road or
    too close to its edge for the width."""
    if not isinstance(tilemap, TileMap):
        raise BadInput(f"map must be a TileMap, got {type(tilemap).__name__}", "map")
    width = Unit(width=options.get("width")).width
    opts, heuristic = search_options_for(dict(options), width)
    s = check_tile(tilemap, start, "start")
    g = check_tile(tilemap, goal, "goal")
    road = road_mask(tilemap)
    for role, (x, y) in (("start", s), ("goal", g)):
        if not road[y, x]:
            raise BadInput(f"{role} ({x}, {y}) is not a road tile", role)
    strict = road_map(tilemap)  # the body must fit on the road: the verge counts as a wall
    s = check_tile(strict, s, "start", width)
    g = check_tile(strict, g, "goal", width)
    search = masked_search(strict, opts, heuristic, width, s, g, road_graph_mask(tilemap), road)
    if search is None:
        return PlanResult(status=Status.NO_PATH,
                          message="the start or goal is too close to the road's edge for this width")
    search.run()
    path = list(cast("list[tuple[int, int]]", search.path or []))  # a grid search: tiles (x, y)
    message = "" if search.status == Status.FOUND else f"no path along the road ({search.status})"
    return PlanResult(status=search.status, path=path, cost=search.cost, length=path_length(path),
                      expanded=search.expanded, ms=search.ms, optimal=False, message=message)
