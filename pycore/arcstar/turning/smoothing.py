"""Smoothing (layer 5): Pinter's simple smoothing, his Listing 1.

Coordinates as everywhere in arcstar: tile (x, y) covers [x, x+1) x [y, y+1), its centre is
(x + 0.5, y + 0.5), x right, y DOWN.

An A* path zigzags along 45-degree steps. Listing 1 walks it with a *checkpoint*: while the
straight move from the checkpoint to the point after the current one is walkable for the
unit's width, the current point is dropped; otherwise the current point becomes the new
checkpoint. Walkable is the exact swept-disc test (``collision.swept_line_clear``) by default,
Pinter's sampled diamond test (``collision.walkable_sampled``) with ``exact=False``.

Every leg of the result is either a straight move that passed the walkable test or a leg of
the original path. So sections that are not walkable for this width (Figure 4: A* run for a
thinner unit, or on the grid's corner rule, squeezes through a gap) keep their points as they
were: smoothing never makes a path worse, and with ``exact=True`` a path whose legs were all
legal stays legal. The result is never longer than the input (triangle inequality), starts
and ends at the same points, and keeps the input's points in order (a subsequence).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping
from typing import Any

from ..collision.swept import body_reach, check_width, hit_tables, line_hits, walkable_sampled
from ..geometry.primitives import point_of
from ..maps.tilemap import TileMap

__all__ = ["smooth", "smooth_points", "tile_centres"]


def _check_map(tilemap: Any) -> TileMap:
    if not isinstance(tilemap, TileMap):
        raise ValueError(f"map must be a TileMap, got {type(tilemap).__name__}")
    return tilemap


def _sequence(points: Any) -> list:
    if isinstance(points, (str, bytes, Mapping)) or not isinstance(points, Iterable):
        raise ValueError(f"points must be a sequence of (x, y) pairs, got {type(points).__name__}")
    return list(points)


def tile_centres(points: Any) -> list[tuple[float, float]]:
    """The centres (x + 0.5, y + 0.5) of a list of tiles (x, y) (integers; integral floats
    accepted); ``ValueError`` for anything else."""
    out = []
    for k, p in enumerate(_sequence(points)):
        if isinstance(p, (str, bytes)) or not hasattr(p, "__len__") or len(p) != 2:
            raise ValueError(f"points[{k}] must be a tile (x, y) of two integers, got {p!r}")
        xy = []
        for v in p:
            if isinstance(v, bool) or not isinstance(v, numbers.Real):
                raise ValueError(f"points[{k}] must be a tile (x, y) of two integers, got {p!r}")
            if not isinstance(v, numbers.Integral):
                f = float(v)
                if not f.is_integer():
                    raise ValueError(f"points[{k}] must be a tile (x, y) of two integers, got {p!r}")
            xy.append(int(v))  # type: ignore[call-overload]  # a numbers.Real; typeshed's has no __int__
        out.append((xy[0] + 0.5, xy[1] + 0.5))
    return out


def smooth(tilemap: TileMap, points: Any, width: Any, exact: bool = True) -> list[tuple[float, float]]:
    """Pinter's Listing 1 on a grid path: ``points`` are tiles (x, y) (e.g. ``plan(...).path``),
    the result is a list of tile centres (x + 0.5, y + 0.5) with every waypoint dropped that a
    unit of diameter ``width`` can skip by walking straight from the checkpoint.

    ``exact=True`` (default) uses the exact swept-disc test, ``exact=False`` Pinter's sampled
    diamond test. Impossible sections are left as they are (see the module notes).
    """
    return smooth_points(tilemap, tile_centres(points), width, exact)


def smooth_points(tilemap: TileMap, points: Any, width: Any,
                  exact: bool = True) -> list[tuple[float, float]]:
    """Listing 1 on arbitrary positions (x, y) in tiles (no conversion to tile centres).
    Consecutive repeated points are merged first."""
    tilemap = _check_map(tilemap)
    w = check_width(width)
    if not isinstance(exact, bool):
        raise ValueError(f"exact must be true or false, got {exact!r}")
    pts: list[tuple[float, float]] = []
    for k, p in enumerate(_sequence(points)):
        q = point_of(p, f"points[{k}]")
        if not pts or q != pts[-1]:
            pts.append(q)
    if len(pts) <= 2:
        return pts
    if exact:
        t, r = hit_tables(tilemap), body_reach(w)

        def walk(a: tuple[float, float], b: tuple[float, float]) -> bool:
            return not line_hits(t, a[0], a[1], b[0], b[1], r)
    else:
        def walk(a: tuple[float, float], b: tuple[float, float]) -> bool:
            return walkable_sampled(tilemap, a, b, w)
    # Listing 1: checkPoint, currentPoint; drop currentPoint while checkPoint -> next walks
    out = [pts[0]]
    check = pts[0]
    for cur in range(1, len(pts) - 1):
        if not walk(check, pts[cur + 1]):
            check = pts[cur]
            out.append(check)
    out.append(pts[-1])
    return out
