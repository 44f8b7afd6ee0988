"""Fixed-angle character art (Pinter, Figures 14 and 15): paths whose every segment faces one
of 8 or 16 legal directions, so a unit drawn in only that many frames never slides.

Coordinates as everywhere in arcstar: tiles, x right, y DOWN, headings in radians with
0 = east and pi/2 = south; legal headings are the multiples of ``2 pi / directions``.

``to_fixed_angles(path, directions)`` rebuilds a path of lines and arcs as a polyline:

- **arcs** follow the regular polygon *circumscribed* about the turning circle whose edges
  face the legal headings (Figure 15, left): each edge touches the circle where the unit's
  heading is legal, and runs ``base = r tan(pi / directions)`` either side of that point
  (``r tan 22.5deg`` for 8 directions, ``r tan 11.25deg`` for 16), so one legal direction
  is held for two bases. The arc's ends are projected radially onto the polygon (Pinter:
  "extrapolate any point on the original arc onto the point where it hits one of the
  triangles") and the polygon is followed between them: the replacement lies just outside
  the circle (at most ``r (1 / cos(pi / directions) - 1)`` off it);
- **straight lines** become at most two segments in the two legal directions that bracket
  the line's direction, meeting where they must to end at the same point (Figure 15,
  right: of the two such routes, the one that keeps the previous heading, else the one that
  takes the longer step first);
- the joins between pieces (an arc's projected end to the next piece) are such two-segment
  legs too, and the last one ends exactly at the input's end point.

A reversing segment (``gear = -1``) stays reversing: the unit *faces* a legal heading and
moves backwards. The result is a polyline ``Path`` (label ``"art8"`` / ``"art16"``); its
headings jump at the corners, which is what fixed-angle art does. It is longer than the
input (``extra_length``) and may clip walls the curve did not: check it with ``legal_art``.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

from ..collision.swept import path_clear
from ..geometry.primitives import Arc, Line, Path
from ..maps.tilemap import TileMap

__all__ = ["ART_DIRECTIONS", "FixedArt", "extra_length", "fixed_art", "legal_art", "to_fixed_angles"]

ART_DIRECTIONS = (8, 16)
_STRAIGHT = 1e-10  # a chord within this distance (tiles) of a legal direction is one segment
_TINY = 1e-12


def _check_directions(directions: Any) -> int:
    if isinstance(directions, bool) or not isinstance(directions, numbers.Integral) \
            or int(directions) not in ART_DIRECTIONS:
        raise ValueError(f"directions must be 8 or 16, got {directions!r}")
    return int(directions)


def _check_path(path: Any) -> Path:
    if not isinstance(path, Path):
        raise ValueError(f"path must be a geometry.Path, got {type(path).__name__}")
    return path


def _arc_anchors(seg: Arc, step: float) -> list[tuple[float, float]]:
    """The circumscribed polygon's points for an arc: its start projected onto the polygon,
    the polygon's vertices passed, its end projected."""
    cx, cy = seg.center
    R, k = seg.radius, seg.steer
    h0 = seg.heading
    h1 = h0 + seg.sweep

    def on_circle(h: float, scale: float) -> tuple[float, float]:
        # position on the turning circle where the unit faces h (see geometry.Arc), scaled
        return cx + k * R * scale * math.sin(h), cy - k * R * scale * math.cos(h)

    def projected(h: float) -> tuple[float, float]:
        edge = round(h / step) * step  # the polygon edge facing the nearest legal heading
        return on_circle(h, 1.0 / math.cos(h - edge))

    out = [projected(h0)]
    sigma = 1.0 if seg.sweep > 0.0 else -1.0
    # vertices sit at headings (j + 1/2) step, strictly inside the sweep
    a, b = sigma * h0 / step - 0.5, sigma * h1 / step - 0.5
    j = math.floor(a) + 1
    vertex = 1.0 / math.cos(0.5 * step)
    while j < b - 1e-12:
        if j > a + 1e-12:
            out.append(on_circle(sigma * (j + 0.5) * step, vertex))
        j += 1
    out.append(projected(h1))
    return out


def _legs(p: tuple[float, float], q: tuple[float, float], gear: int, step: float,
          prev: float | None) -> list[tuple[float, float]]:
    """(heading, length) of at most two legal legs from p to q driven with ``gear``.
    ``prev``: the heading faced before, kept first when it is one of the two."""
    vx, vy = q[0] - p[0], q[1] - p[1]
    dist = math.hypot(vx, vy)
    if dist <= _TINY:
        return []
    dx, dy = (vx, vy) if gear > 0 else (-vx, -vy)  # the direction faced
    phi = math.atan2(dy, dx)
    k = round(phi / step)
    if dist * abs(math.sin(phi - k * step)) <= _STRAIGHT and math.cos(phi - k * step) > 0.0:
        return [(k * step, dist)]
    lo = math.floor(phi / step)
    ta, tb = lo * step, (lo + 1) * step
    ea, eb = (math.cos(ta), math.sin(ta)), (math.cos(tb), math.sin(tb))
    s = math.sin(step)
    alpha = (dx * eb[1] - dy * eb[0]) / s  # d = alpha e_a + beta e_b
    beta = (ea[0] * dy - ea[1] * dx) / s
    first_a = alpha >= beta
    if prev is not None:
        if abs(math.remainder(prev - ta, 2.0 * math.pi)) < 1e-9:
            first_a = True
        elif abs(math.remainder(prev - tb, 2.0 * math.pi)) < 1e-9:
            first_a = False
    legs = [(ta, alpha), (tb, beta)] if first_a else [(tb, beta), (ta, alpha)]
    return [(h, n) for h, n in legs if n > _TINY]


def to_fixed_angles(path: Path, directions: int) -> Path:
    """``path`` as a polyline whose every segment faces a multiple of ``2 pi / directions``
    (8 or 16), ending exactly where ``path`` ends (module notes)."""
    path = _check_path(path)
    n = _check_directions(directions)
    step = 2.0 * math.pi / n
    segs = [s for s in path.segments if s.length > 0.0]
    start = path.start_pose()
    # anchors: points the polyline passes, each with the gear of the leg that reaches it
    anchors: list[tuple[tuple[float, float], int]] = []
    for i, seg in enumerate(segs):
        nxt = segs[i + 1] if i + 1 < len(segs) else None
        if isinstance(seg, Line):
            if not isinstance(nxt, Arc):  # before an arc, the line aims at the arc's polygon
                anchors.append((seg.end_pose().xy, seg.gear))
            continue
        pts = _arc_anchors(seg, step)
        lead = seg.gear
        if i > 0 and isinstance(segs[i - 1], Line):
            lead = segs[i - 1].gear
        anchors.append((pts[0], lead))
        anchors += [(p, seg.gear) for p in pts[1:]]
    end = path.end_pose()
    last_gear = segs[-1].gear if segs else 1
    anchors.append((end.xy, last_gear))
    out: list[Line] = []
    x, y = start.x, start.y
    prev: float | None = None
    for q, gear in anchors:
        for heading, length in _legs((x, y), q, gear, step, prev):
            line = Line(x, y, heading, length, gear)
            out.append(line)
            e = line.end_pose()
            x, y = e.x, e.y
            prev = heading
    if not out:
        h = round(start.heading / step) * step
        out.append(Line(start.x, start.y, h, 0.0))
    return Path(tuple(out), f"art{n}")


def extra_length(original: Path, art: Path) -> float:
    """How much longer the fixed-angle path is than the original (tiles)."""
    return _check_path(art).length - _check_path(original).length


def legal_art(tilemap: TileMap, art: Path, width: float) -> bool:
    """The exact swept-disc test (``collision.path_clear``) of a fixed-angle path: the art path
    may clip walls the curve it came from did not."""
    return path_clear(tilemap, _check_path(art), width)


@dataclass
class FixedArt:
    """A fixed-angle rendering of a path and what it cost."""

    path: Path
    directions: int
    extra_length: float
    legal: bool | None  # None when no map was given

    def to_json(self) -> dict:
        return {"path": self.path.to_json(), "directions": self.directions,
                "extra_length": self.extra_length, "legal": self.legal}


def fixed_art(path: Path, directions: int, tilemap: TileMap | None = None,
              width: float | None = None) -> FixedArt:
    """``to_fixed_angles`` plus its extra length and, given a map and width, its legality."""
    art = to_fixed_angles(path, directions)
    legal = None
    if tilemap is not None:
        if width is None:
            raise ValueError("width is needed to check the art path against a map")
        legal = legal_art(tilemap, art, width)
    return FixedArt(art, int(directions), extra_length(path, art), legal)
