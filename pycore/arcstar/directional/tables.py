"""The hit-check table (Pinter's Figure 13) and the per-map windows it is checked against.

``MotionTable`` holds, per start heading, child offset and end heading, the move's curve, its cost
before terrain, the tiles the body touches on it (exactly: ``collision.sweep_cells``) as one
Python integer bitmask over a K x K window centred on the parent tile, and the centreline length
inside each tile (for terrain costs, computed per move when a non-uniform map first asks). K =
2P + 1 with P the farthest tile any move touches, so the window follows from the radius, the
width and the neighbourhood (not a fixed 11 x 11). The curves are computed for one octant and
kept per radius (a width change reuses them); the touched tiles of all of them come from one
vectorised pass and the other seven octants' masks from whole-block flips and quarter turns of
boolean windows; a move found by symmetry builds its curve only when a plan reads it. Build times
(bench ``directional_cpython``): Directional-24 about 15 ms, Directional-48 about 35 ms.

``MapWindows`` keeps, per map version and P, each tile's window of blocked tiles as the same kind
of integer (off the map counts as blocked), built lazily from per-row integers; a child is legal
when ``mask & window == 0``: one operation. Tables are cached per ``UnitKind`` (module level,
a few kinds kept); windows per map version on the map.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from ..collision.sweep_cells import swept_cells_arrays
from ..geometry.primitives import Arc, Path, Pose
from ..maps.tilemap import TileMap
from .lattice import (
    HEADINGS,
    Move,
    UnitKind,
    best_curve,
    dir_table,
    heading_angle,
    mapped,
    mirror_key,
    move_of,
    rotate_key,
    rotor,
)

Key = tuple[int, int, int, int]  # (start heading, dx, dy, end heading)
_KEEP = 8  # unit kinds whose tables are kept


def centre_cells(path: Path, penalty: float) -> dict[tuple[int, int], float]:
    """Centreline length of ``path`` inside each tile, reversed stretches times ``penalty``:
    cut at every grid line the segment crosses (exact crossings, no sampling)."""
    out: dict[tuple[int, int], float] = {}
    for seg in path.segments:
        if seg.length <= 0.0:
            continue
        f = penalty if seg.gear < 0 else 1.0
        if isinstance(seg, Arc):
            cx, cy = seg.center
            R, a0, da = seg.radius, math.atan2(seg.y - seg.center[1], seg.x - seg.center[0]), seg.sweep
            cuts = {0.0, 1.0}
            for c, trig in ((cx, math.cos), (cy, math.sin)):
                for n in range(math.floor(c - R), math.ceil(c + R) + 1):
                    v = (n - c) / R
                    if -1.0 <= v <= 1.0:
                        base = math.acos(v) if trig is math.cos else math.asin(v)
                        roots = (base, -base) if trig is math.cos else (base, math.pi - base)
                        for a in roots:
                            u = ((a - a0) % (2 * math.pi)) / da if da > 0 else ((a0 - a) % (2 * math.pi)) / -da
                            if 0.0 < u < 1.0:
                                cuts.add(u)
            us = sorted(cuts)
            for u0, u1 in zip(us, us[1:]):
                a = a0 + 0.5 * (u0 + u1) * da
                cell = (math.floor(cx + R * math.cos(a)), math.floor(cy + R * math.sin(a)))
                out[cell] = out.get(cell, 0.0) + (u1 - u0) * seg.length * f
        else:
            e = seg.end_pose()
            ax, ay, dx, dy = seg.x, seg.y, e.x - seg.x, e.y - seg.y
            cuts = {0.0, 1.0}
            for p, d in ((ax, dx), (ay, dy)):
                if d != 0.0:
                    lo, hi = sorted((p, p + d))
                    for n in range(math.ceil(lo), math.floor(hi) + 1):
                        u = (n - p) / d
                        if 0.0 < u < 1.0:
                            cuts.add(u)
            us = sorted(cuts)
            for u0, u1 in zip(us, us[1:]):
                m = 0.5 * (u0 + u1)
                cell = (math.floor(ax + m * dx), math.floor(ay + m * dy))
                out[cell] = out.get(cell, 0.0) + (u1 - u0) * seg.length * f
    return out


class Entry:
    """One move of the table: its cost before terrain, the heading change it makes (radians),
    the bitmask of the tiles the body touches on it, and its curve (``move``, relative to the
    parent tile's centre). A move found by symmetry keeps the move it is the image of and the
    point map, and builds its own curve only when asked (a plan reads a few; the search none)."""

    __slots__ = ("cost", "turn", "mask", "_move", "_origin", "_fx")

    def __init__(self, cost: float, turn: float, move: Move | None = None, origin: Entry | None = None,
                 fx: object = None) -> None:
        self.cost, self.turn, self.mask = cost, turn, 0
        self._move, self._origin, self._fx = move, origin, fx

    @property
    def move(self) -> Move:
        if self._move is None:
            assert self._origin is not None
            self._move = mapped(self._origin.move, self._fx)
        return self._move

    def image(self, fx: object) -> Entry:
        """This move's image under a symmetry of the grid (same cost and turn)."""
        return Entry(self.cost, self.turn, origin=self, fx=fx)


#: One offset's 8 children as the specialised loop reads them: (union mask, intersection mask,
#: (node step, cost) pairs, (node step, cost, mask) triples).
Group = tuple[int, int, tuple[tuple[int, float], ...], tuple[tuple[int, float, int], ...]]


@dataclass
class MotionTable:
    """Every move of a unit kind, its window and per-heading child arrays (see the module)."""

    kind: UnitKind
    entries: dict[Key, Entry]
    reach: int  # P: the window is (2P + 1) tiles square
    build_ms: float
    computed: int  # moves computed with curves (the rest by symmetry)
    _bound: dict[object, list] = field(default_factory=dict)
    _weights: dict[Key, list[tuple[int, float]]] = field(default_factory=dict)

    @property
    def size(self) -> int:
        return 2 * self.reach + 1

    def bit(self, cell: tuple[int, int]) -> int:
        return (cell[1] + self.reach) * self.size + cell[0] + self.reach

    def cells(self, key: Key) -> set[tuple[int, int]]:
        """The tiles (relative to the parent tile) a move's mask marks."""
        m, k, p = self.entries[key].mask, self.size, self.reach
        return {(b % k - p, b // k - p) for b in range(k * k) if m >> b & 1}

    def children(self, map_width: int) -> list[list[tuple[int, int, list[tuple[int, float, int, int]]]]]:
        """Per start heading, groups per offset: (union mask, intersection mask, [(node step,
        cost, mask, end heading)]) for a map ``map_width`` tiles wide (node = tile * 8 + heading)."""
        bound = self._bound.get(map_width)
        if bound is None:
            bound = []
            offsets = dir_table(self.kind.neighbourhood.value)
            for h in range(HEADINGS):
                groups = []
                for dx, dy in offsets:
                    items = []
                    for e in range(HEADINGS):
                        ent = self.entries[(h, dx, dy, e)]
                        items.append(((dy * map_width + dx) * HEADINGS + e - h, ent.cost, ent.mask, e))
                    union = inter = items[0][2]
                    for it in items[1:]:
                        union |= it[2]
                        inter &= it[2]
                    groups.append((union, inter, items))
                bound.append(groups)
            self._bound[map_width] = bound
        return bound

    def bulk(self, map_width: int, scale: float, turn_penalty: float = 0.0) -> list[tuple[Group, ...]]:
        """Per start heading, the children as the specialised search loop reads them, one
        ``Group`` per offset: each cost is ``step_cost(cost, turn, scale, turn_penalty)``
        (``scale``: the map's uniform terrain cost), node steps for a map ``map_width`` tiles
        wide. Cached per arguments."""
        key = ("bulk", map_width, scale, turn_penalty)
        found = self._bound.get(key)
        if found is None:
            found = []
            offsets = dir_table(self.kind.neighbourhood.value)
            for h, groups in enumerate(self.children(map_width)):
                out: list[Group] = []
                for (dx, dy), (union, inter, items) in zip(offsets, groups):
                    plain = tuple((d, step_cost(cost, self.entries[(h, dx, dy, e)].turn, scale, turn_penalty))
                                  for d, cost, _m, e in items)
                    out.append((union, inter, plain, tuple((d, c, it[2]) for (d, c), it in zip(plain, items))))
                found.append(tuple(out))
            self._bound[key] = found
        return found

    def weights_by_bit(self, key: Key) -> list[tuple[int, float]]:
        """A move's centreline weights as (window bit, weighted length) pairs (reversed
        stretches times the reverse penalty), computed from its curve when first asked."""
        found = self._weights.get(key)
        if found is None:
            kind = self.kind
            penalty = kind.reverse_penalty if kind.can_reverse else 1.0
            cells = centre_cells(self.entries[key].move.path(0.5, 0.5), penalty)
            found = self._weights[key] = [(self.bit(c), w) for c, w in cells.items()]
        return found


def step_cost(cost: float, turn: float, scale: float, turn_penalty: float) -> float:
    """A move's cost on uniform terrain: its length cost times the terrain cost, plus
    ``turn_penalty`` per radian of heading change (only when the penalty is on, so without one
    the cost is exactly ``cost * scale``)."""
    return cost * scale + turn_penalty * turn if turn_penalty else cost * scale


_CURVES: dict[tuple[float, int, bool, float], list[tuple[Key, Path]]] = {}


def computed_curves(kind: UnitKind) -> list[tuple[Key, Path]]:
    """The curves a table computes (east and south-east start headings, one of each mirror
    pair), cached per radius, neighbourhood and reversing: a width change reuses them."""
    ck = (kind.radius, kind.neighbourhood.value, kind.can_reverse, kind.reverse_penalty)
    found = _CURVES.get(ck)
    if found is None:
        seen: set[Key] = set()
        found = []
        for h in (0, 1):
            for dx, dy in dir_table(kind.neighbourhood.value):
                for e in range(HEADINGS):
                    key = (h, dx, dy, e)
                    if key not in seen and mirror_key(*key)[0] not in seen:
                        seen.add(key)
                        found.append((key, best_curve(Pose(0.5, 0.5, heading_angle(h)),
                                                      Pose(dx + 0.5, dy + 0.5, heading_angle(e)), kind)))
        if len(_CURVES) >= _KEEP:
            _CURVES.pop(next(iter(_CURVES)))
        _CURVES[ck] = found
    return found


def build_table(kind: UnitKind) -> MotionTable:
    """Compute the table: east and south-east by curves (half of them: the mirror gives the
    rest), the other six start headings by quarter turns; the touched tiles of all computed
    curves in one vectorised exact pass, then every mask from them by the same symmetries,
    applied to whole blocks of K x K boolean windows (a mirror is a flip or a transpose, a
    quarter turn ``rot90``)."""
    t0 = time.perf_counter()
    curves = computed_curves(kind)
    owner, ti, tj = swept_cells_arrays([c for _k, c in curves], kind.width)
    reach = int(max(np.abs(ti).max(), np.abs(tj).max()))
    size = 2 * reach + 1
    grids = np.zeros((len(curves), size, size), dtype=bool)
    grids[owner, tj + reach, ti + reach] = True
    entries: dict[Key, Entry] = {}
    blocks: list[tuple[list[Key], np.ndarray]] = []
    for h in (0, 1):
        keys: list[Key] = []
        rows: list[np.ndarray] = []
        for n, (key, path) in enumerate(curves):
            if key[0] != h:
                continue
            ent = entries[key] = Entry(0.0, 0.0, move_of(path, kind.reverse_penalty, 0.5, 0.5))
            ent.cost, ent.turn = ent.move.cost, ent.move.turn
            keys.append(key)
            rows.append(grids[n])
            mkey, fx = mirror_key(*key)
            if mkey not in entries:
                entries[mkey] = ent.image(fx)
                keys.append(mkey)
                rows.append(grids[n][::-1, :] if h == 0 else grids[n].T)
        blocks.append((keys, np.stack(rows)))
    rot = rotor()
    for h in range(2, HEADINGS):
        keys, block = blocks[h - 2]
        new_keys = [rotate_key(*k) for k in keys]
        for k, nk in zip(keys, new_keys):
            entries[nk] = entries[k].image(rot)
        blocks.append((new_keys, np.rot90(block, k=-1, axes=(1, 2))))
    for keys, block in blocks:
        packed = np.packbits(block.reshape(len(keys), size * size), axis=1, bitorder="little")
        for key, row in zip(keys, packed):
            entries[key].mask = int.from_bytes(row.tobytes(), "little")
    table = MotionTable(kind, entries, reach, 0.0, len(curves))
    table.build_ms = (time.perf_counter() - t0) * 1000.0
    return table


_TABLES: dict[UnitKind, MotionTable] = {}


def table_for(kind: UnitKind) -> MotionTable:
    """The table of a unit kind, built on first use and kept (a few kinds at a time)."""
    table = _TABLES.get(kind)
    if table is None:
        if len(_TABLES) >= _KEEP:
            _TABLES.pop(next(iter(_TABLES)))
        table = _TABLES[kind] = build_table(kind)
    return table


def forget_tables() -> None:
    """Drop every kept table and curve set (the next build is cold: what a bench measures)."""
    _TABLES.clear()
    _CURVES.clear()


class MapWindows:
    """Per map version and window reach P: each tile's K x K window of blocked tiles as an
    integer (bit (j * K + i) for the tile at offset (i - P, j - P)), built when first asked."""

    def __init__(self, tilemap: TileMap, reach: int) -> None:
        self.reach = p = reach
        self.size = k = 2 * p + 1
        self.width, self.height = tilemap.width, tilemap.height
        padded = np.pad(tilemap.blocked, p, constant_values=True)
        packed = np.packbits(padded, axis=1, bitorder="little")  # bit x of row y: tile (x - P, y - P)
        self._rows = [int.from_bytes(row.tobytes(), "little") for row in packed]
        self._low = (1 << k) - 1
        self._wins: list[int | None] = [None] * (self.width * self.height)
        costs = np.pad(tilemap.cost_grid, p, constant_values=np.inf)
        finite = tilemap.cost_grid[np.isfinite(tilemap.cost_grid)]
        self.uniform: float | None = float(finite[0]) if finite.size and np.all(finite == finite[0]) else None
        self._costs = costs

    def window(self, tile: int) -> int:
        w = self._wins[tile]
        if w is None:
            y, x = divmod(tile, self.width)
            rows, low, k = self._rows, self._low, self.size
            w = 0
            for j in range(k):
                w |= ((rows[y + j] >> x) & low) << (j * k)
            self._wins[tile] = w
        return w

    def costs(self, tile: int) -> list[float]:
        """The window's terrain costs, row-major (inf off the map and on blocked tiles)."""
        y, x = divmod(tile, self.width)
        k = self.size
        return self._costs[y:y + k, x:x + k].ravel().tolist()


def windows_for(tilemap: TileMap, reach: int) -> MapWindows:
    return tilemap.cached(f"directional:windows:{reach}", lambda: MapWindows(tilemap, reach))
