"""Pinter's claims for every unit at once, and the units whose claims collide.

Every ``CHECK_EVERY`` (half a second) each unit claims the tiles its body will cover over the
next ``HORIZON`` (two seconds) along its path, each tile with the time window it is there: at the
speed it has, or half its top speed if slower; a unit standing idle holds its tiles for good,
one held or pivoting holds them for the horizon. Two units whose windows on a tile overlap
(within ``SLACK``) will collide.

The claims are made for all units together with numpy (the points of every unit's way ahead in
one array, their tiles, each tile's window as the least and greatest time a point covers it):
a unit at a time, in Python, they cost about 25 us each, the bulk of the half-second look.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .avoidance import Tile

if TYPE_CHECKING:
    from .state import UnitState

#: How often claims are made (s), how far ahead they reach (s), the slack between two windows on
#: one tile that still counts as a collision (s).
CHECK_EVERY, HORIZON, SLACK = 0.5, 2.0, 0.25
#: The work a unit's claim counts for against a tick's budget (``World.route_work``): about as
#: long as 5 search expansions (100 units' claims take about 1.2 ms on CPython).
CLAIM_WORK = 5


def claims(units: Sequence[UnitState]) -> tuple[list[frozenset[Tile]], dict[str, set[str]]]:
    """Each unit's claimed tiles (in the order of ``units``) and, for each unit whose claim
    collides with another's, the ids of the others."""
    if not units:
        return [], {}
    # the points: each unit where it stands (its window: from now for as long as it holds its
    # tiles), then every other point of each unit's way ahead within reach (the time it is there)
    here_x: list[float] = []
    here_y: list[float] = []
    here_r: list[float] = []
    hold: list[float] = []
    way_x: list[float] = []  # every mover's points within reach, every other one, in turn
    way_y: list[float] = []
    along: list[float] = []
    movers: list[tuple[int, float, float, float, int]] = []  # unit, s, speed, half width, points
    for i, u in enumerate(units):
        half = u.spec.width / 2.0 - 1e-9
        m = u.mover
        here_x.append(u.x)
        here_y.append(u.y)
        here_r.append(half)
        hold.append(math.inf if m is None else (HORIZON if m.v == 0.0 else 0.0))
        if m is None:
            continue
        v = max(abs(m.v), 0.5 * u.spec.speed)
        reach = min(u.spec.speed * HORIZON, abs(m.v) * HORIZON + 0.5 * m.accel_rate * HORIZON ** 2)
        s = m.s
        ds, xs, ys = m.cover(s + reach)  # (sampled as far as the claim reaches)
        i0, i1 = m.after(s), min(m.after(s + reach) + 1, len(ds))
        if i1 > i0:
            way_x += xs[i0:i1:2]
            way_y += ys[i0:i1:2]
            along += ds[i0:i1:2]
            movers.append((i, s, v, half, (i1 - i0 + 1) // 2))
    n = len(units)
    who = np.arange(n)
    x, y, r = np.array(here_x + way_x), np.array(here_y + way_y), np.array(here_r)
    first, last = np.zeros(n), np.array(hold)
    if movers:
        counts = [p[4] for p in movers]
        when = np.minimum((np.array(along) - np.repeat([p[1] for p in movers], counts))
                          / np.repeat([p[2] for p in movers], counts), HORIZON)
        who = np.concatenate((who, np.repeat([p[0] for p in movers], counts)))
        r = np.concatenate((r, np.repeat([p[3] for p in movers], counts)))
        first, last = np.concatenate((first, when)), np.concatenate((last, when))
    x0, x1 = np.floor(x - r).astype(np.int64), np.floor(x + r).astype(np.int64)
    y0, y1 = np.floor(y - r).astype(np.int64), np.floor(y + r).astype(np.int64)
    # consecutive points of a unit's way on the same tiles are one stretch, from its first time
    # to its last (times only grow along a way); each unit's own point is a stretch of its own
    new = np.ones(len(x), dtype=bool)
    new[n + 1:] = (who[n + 1:] != who[n:-1]) | (x0[n + 1:] != x0[n:-1]) | (x1[n + 1:] != x1[n:-1]) \
        | (y0[n + 1:] != y0[n:-1]) | (y1[n + 1:] != y1[n:-1])
    at = np.flatnonzero(new)
    first, last = np.minimum.reduceat(first, at), np.maximum.reduceat(last, at)
    who, x0, x1, y0, y1 = who[at], x0[at], x1[at], y0[at], y1[at]
    parts = []
    for dx in range(int((x1 - x0).max()) + 1):  # every tile of each stretch's bounding box
        for dy in range(int((y1 - y0).max()) + 1):
            keep = (x0 + dx <= x1) & (y0 + dy <= y1)
            parts.append((who[keep], x0[keep] + dx, y0[keep] + dy, first[keep], last[keep]))
    unit, tx, ty, first, last = (np.concatenate(c) for c in zip(*parts, strict=True))
    # one window per unit and tile: the least first and greatest last time
    left, top = int(tx.min()), int(ty.min())
    wide, high = int(tx.max()) - left + 1, int(ty.max()) - top + 1
    tile = (ty - top) * wide + (tx - left)
    key = unit * (wide * high) + tile
    order = np.argsort(key, kind="stable")
    key = key[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    a = np.minimum.reduceat(first[order], starts)
    b = np.maximum.reduceat(last[order], starts)
    unit, tile = (key[starts] // (wide * high)), key[starts] % (wide * high)
    cells = list(zip((tile % wide + left).tolist(), (tile // wide + top).tolist(), strict=True))
    bounds = np.searchsorted(unit, np.arange(len(units) + 1)).tolist()
    claimed = [frozenset(cells[bounds[i]:bounds[i + 1]]) for i in range(len(units))]
    # the tiles claimed by more than one unit, and their windows
    by = np.argsort(tile, kind="stable")
    t = tile[by]
    shared = np.r_[False, t[1:] == t[:-1]]
    shared[:-1] |= shared[1:]
    hits: dict[str, set[str]] = {}
    if shared.any():
        pick = by[shared]
        ts, us, aa, bb = t[shared].tolist(), unit[pick].tolist(), a[pick].tolist(), b[pick].tolist()
        k = 0
        while k < len(ts):
            end = k + 1
            while end < len(ts) and ts[end] == ts[k]:
                end += 1
            for p in range(k, end):
                for q in range(p + 1, end):
                    if aa[p] <= bb[q] + SLACK and aa[q] <= bb[p] + SLACK:
                        ui, vi = units[us[p]].spec.id, units[us[q]].spec.id
                        hits.setdefault(ui, set()).add(vi)
                        hits.setdefault(vi, set()).add(ui)
            k = end
    return claimed, hits
