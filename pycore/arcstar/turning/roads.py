"""The road problem (Pinter, Figure 16): units that keep to the road and corner tightly.

Coordinates as everywhere in arcstar: tile (x, y) covers [x, x+1) x [y, y+1), its centre is
(x + 0.5, y + 0.5), x right, y DOWN; headings in radians, 0 = east, pi/2 = south.

The shortest curve between two waypoints cuts corners: a unit heading east that must go five
tiles north swings round about 105 degrees and drives north-north-west, diagonally across the
road and the verge (Figure 16a). On a road that looks wrong: it should turn at the corner and
then drive along the road (16b). Pinter lists four remedies; this module implements

- **movement restricted to road tiles** (his second): ``road_graph_mask`` is a per-tile
  legal-move mask (bit k = direction k of ``clearance.MOVES``, ``grid.GridGraph``'s order)
  allowing only road-to-road steps (a diagonal step also needs both orthogonal neighbours to
  be road: it passes through their shared corner), for ``GridGraph.restricted``;
  ``plan_on_road`` runs A* with it on ``road_map`` (off-road = wall), so a wide unit's whole
  body fits on the road at every tile centre and step;
- **cones** (his fourth): the number of tiles a unit needs for a turn is the length of its
  fillet's tangent, ``n = ceil(r tan(|turn| / 2))`` (two tiles for a 90 degree turn at radius
  2, as in his figure). Beyond every turn, *after n tiles have gone by* on the new road,
  temporary blockers are placed on the off-road tiles beside the road: the turn itself keeps
  the room it needs (a turn zone of n tiles round the corner is never coned), but a curve
  that is still off the road n tiles after the corner -- the diagonal short cut of 16a --
  hits a cone, so the unit has to complete its turn at the corner and then follow the road.
  ``road_cones`` lists them per turn.

``realize_on_road`` turns a road tile path into a drivable path: the waypoints are smoothed
only over road tiles (Listing 1 on the road map), and the curves are those of
``turning``'s "tighter" method checked exactly against a map where everything that is not
road is blocked, so the whole body stays on road tiles; where the turning radius does not fit
a road corner the turn is made tighter (and slower: ``speed_limits``), down to a stop and a
turn on the spot. With ``cones=True`` it is Pinter's cone method instead: the curves are
checked against the walls plus the cones (the unit may swing onto the verge inside a turn
zone at full radius, but cannot cut across beyond it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..collision.clearance import MOVES
from ..collision.swept import check_width
from ..geometry.primitives import angle_diff, check_radius
from ..maps.tilemap import TileMap
from .layout import polyline
from .methods import Realized, check_heading, check_tiles, realize_checked

__all__ = ["Cone", "cone_map", "realize_on_road", "road_cones", "road_graph_mask", "road_map",
           "road_mask", "ROAD"]

#: The default terrain code of roads (``tilemap.DEFAULT_TERRAINS``); a terrain named "road" wins.
ROAD = 2


def _check_map(tilemap: Any) -> TileMap:
    if not isinstance(tilemap, TileMap):
        raise ValueError(f"map must be a TileMap, got {type(tilemap).__name__}")
    return tilemap


def _road_codes(tilemap: TileMap) -> list[int]:
    named = [t.code for t in tilemap.terrains.values() if t.name == "road"]
    return named or ([ROAD] if ROAD in tilemap.terrains else [])


def road_mask(tilemap: TileMap) -> np.ndarray:
    """Road tiles (``[y, x]``, bool): terrain "road" that is not blocked. Read-only, cached."""
    tilemap = _check_map(tilemap)

    def build() -> np.ndarray:
        mask = np.isin(tilemap.terrain, _road_codes(tilemap)) & ~tilemap.blocked
        mask.flags.writeable = False
        return mask
    return tilemap.cached("roads:mask", build)


def road_map(tilemap: TileMap) -> TileMap:
    """A map on which everything that is not road is impassable (for the exact tests and the
    road search); road tiles keep their terrain, costs and influence. Cached per version."""
    tilemap = _check_map(tilemap)

    def build() -> TileMap:
        road = road_mask(tilemap)
        walls = [t.code for t in tilemap.terrains.values() if math.isinf(t.cost)]
        if not walls:
            return TileMap.from_blocked(~road)
        terrain = np.where(road, tilemap.terrain, np.uint8(walls[0])).astype(np.uint8)
        return TileMap(terrain, tilemap.terrains.values(), tilemap.influence)
    return tilemap.cached("roads:map", build)


def road_graph_mask(tilemap: TileMap) -> np.ndarray:
    """Per tile (``[y, x]``, uint8), the road-to-road steps: bit k set when the tile and its
    neighbour in direction ``clearance.MOVES[k]`` are both road (for a diagonal, both
    orthogonal neighbours too). AND it with ``clearance.move_masks_for`` for a wide unit."""
    road = road_mask(tilemap)
    h, w = road.shape
    pad = np.pad(road, 1)

    def at(dx: int, dy: int) -> np.ndarray:
        return pad[1 + dy:1 + dy + h, 1 + dx:1 + dx + w]
    mask = np.zeros((h, w), dtype=np.uint8)
    for bit, (dx, dy) in enumerate(MOVES):
        ok = road & at(dx, dy)
        if dx and dy:
            ok &= at(dx, 0) & at(0, dy)
        mask |= ok.astype(np.uint8) << np.uint8(bit)
    return mask


@dataclass(frozen=True)
class Cone:
    """The cones of one road turn.

    index, end: the tile-path indices where the turn starts and ends (equal for a single
    corner; a 90 degree turn made of two 45 degree steps spans two). corner: the tile at
    ``index``. turn: the signed heading change (radians, > 0 clockwise on screen). needed:
    the tiles the unit needs for the turn, ceil(r tan(|turn| / 2)). tiles: the cone tiles
    (x, y): off-road, unblocked tiles beside the road from ``needed + 1`` tiles after the turn.
    """

    index: int
    end: int
    corner: tuple[int, int]
    turn: float
    needed: int
    tiles: tuple[tuple[int, int], ...]

    def to_json(self) -> dict:
        return {"index": self.index, "end": self.end, "corner": list(self.corner), "turn": self.turn,
                "needed": self.needed, "tiles": [list(t) for t in self.tiles]}


def _turns(tiles: list[tuple[int, int]]) -> list[tuple[int, int, float]]:
    """(first index, last index, signed angle) of each turn of a tile path; two changes of
    direction one step apart the same way round (a corner cut by one diagonal) are one turn."""
    dirs = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(tiles, tiles[1:])]
    heads = [math.atan2(dy, dx) for dx, dy in dirs]
    changes = [(k, angle_diff(heads[k], heads[k - 1])) for k in range(1, len(heads))
               if dirs[k] != dirs[k - 1]]
    out: list[tuple[int, int, float]] = []
    for k, th in changes:
        if out and k - out[-1][1] == 1 and th * out[-1][2] > 0 and abs(out[-1][2] + th) < math.pi:
            a, _, t0 = out[-1]
            out[-1] = (a, k, t0 + th)
        else:
            out.append((k, k, th))
    return out


def road_cones(tilemap: TileMap, tiles: Any, radius: float) -> list[Cone]:
    """Pinter's cones for a road tile path: one ``Cone`` per turn (see the module notes)."""
    tilemap = _check_map(tilemap)
    r = check_radius(radius, "radius")
    tiles = check_tiles(tilemap, tiles)
    road = road_mask(tilemap)
    blocked = tilemap.blocked
    turns = _turns(tiles)
    needed = [max(1, math.ceil(r * math.tan(0.5 * min(abs(th), math.pi - 1e-9)) - 1e-9)) for _, _, th in turns]
    zones = [(tiles[a], tiles[b], n) for (a, b, _), n in zip(turns, needed)]

    def in_zone(x: int, y: int) -> bool:
        for (ax, ay), (bx, by), n in zones:
            if max(abs(x - ax), abs(y - ay)) <= n or max(abs(x - bx), abs(y - by)) <= n:
                return True
        return False
    out = []
    for t, ((a, b, th), n) in enumerate(zip(turns, needed)):
        stop = turns[t + 1][0] if t + 1 < len(turns) else len(tiles)
        cones: list[tuple[int, int]] = []
        for j in range(b + n + 1, min(b + 2 * n + 2, stop)):
            x, y = tiles[j]
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    cx, cy = x + dx, y + dy
                    if (dx or dy) and tilemap.in_bounds(cx, cy) and not road[cy, cx] and not blocked[cy, cx] \
                            and not in_zone(cx, cy) and (cx, cy) not in cones:
                        cones.append((cx, cy))
        out.append(Cone(a, b, tiles[a], th, n, tuple(cones)))
    return out


def cone_map(tilemap: TileMap, cones: list[Cone]) -> TileMap:
    """A map with the walls of ``tilemap`` and every cone tile blocked."""
    tilemap = _check_map(tilemap)
    blocked = tilemap.blocked.copy()
    for cone in cones:
        for x, y in cone.tiles:
            blocked[y, x] = True
    return TileMap.from_blocked(blocked)


# ----------------------------------------------------------------------------- realize

def realize_on_road(tilemap: TileMap, tiles: Any, width: float, radius: float, *,
                    start_heading: float | None = None, goal_heading: float | None = None,
                    cones: bool = False) -> Realized | None:
    """A drivable path along a road tile path (e.g. ``plan_on_road(...).path``): waypoints
    smoothed over road tiles only, "tighter" turns checked exactly against "everything but
    road is a wall" (default), or against the walls plus ``road_cones`` (``cones=True``).

    ``Realized.method`` is "road" (or "road+cones"); ``legal`` is the exact test against that
    map (which blocks at least the walls). None for an empty tile path; bad input raises
    ``ValueError``.
    """
    tilemap = _check_map(tilemap)
    w = check_width(width)
    r = check_radius(radius, "radius")
    hs = check_heading(start_heading, "start_heading")
    hg = check_heading(goal_heading, "goal_heading")
    if not isinstance(cones, bool):
        raise ValueError(f"cones must be true or false, got {cones!r}")
    tiles = check_tiles(tilemap, tiles)
    if not tiles:
        return None
    method = "road+cones" if cones else "road"
    road = road_mask(tilemap)
    off = [t for t in tiles if not road[t[1], t[0]]]
    if off:
        pts = [(x + 0.5, y + 0.5) for x, y in tiles]
        pts = [p for k, p in enumerate(pts) if k == 0 or p != pts[k - 1]]
        path = polyline(pts, hs, hg)
        return Realized(path, False, method, pts, [], len(path.corners()),
                        f"no legal path: tile {off[0]} is not a road tile", 1)
    strict = road_map(tilemap)
    cone_list = road_cones(tilemap, tiles, r)
    target = cone_map(tilemap, cone_list) if cones else strict
    res = realize_checked(target, strict, tiles, hs, hg, w, r, "tighter")
    res.method = method
    n_cones = sum(len(c.tiles) for c in cone_list)
    where = (f"checked against walls and {n_cones} cone(s) at {len(cone_list)} turn(s)" if cones
             else f"kept on road tiles ({len(cone_list)} turn(s))")
    res.message = where + (f"; {res.message}" if res.message else "")
    return res

