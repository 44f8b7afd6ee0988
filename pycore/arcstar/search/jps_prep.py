"""What Jump Point Search and JPS+ (``jps``) derive from a graph, and the rules they share.

``check_graph`` refuses a grid JPS is not exact on (``jps`` gives the conditions) and
``prepare`` builds, once per graph (so per map version) and cached on it, the ``Prep``: the
passability bytes in both layouts, the uniform step costs and the octile factors; for JPS+ also
the jump-distance tables (``jump_tables``, computed by ``jump_tables.compute_tables``), the
forced-neighbour bits and the successor plans read from them. The successor rules: every node
but the start is entered by a straight move (arrival codes ``ARRIVE_E`` .. ``ARRIVE_N``), its
forced neighbours pick the directions to jump in (``PLANS``), and the start tries all eight,
those toward the goal first (``START_ORDERS``). ``interpolate`` fills in the tiles between
consecutive jump points.
"""

from __future__ import annotations

import time
from array import array
from itertools import repeat

import numpy as np

from .grid import GridGraph
from .jump_tables import compute_tables, forced_bits, padded_free

__all__ = ["ARRIVE_E", "ARRIVE_N", "ARRIVE_S", "ARRIVE_START", "ARRIVE_W", "PLANS", "START_ORDERS", "Prep",
           "check_graph", "interpolate", "interpolate_tiles", "jps_unsuitable", "jump_tables", "octile_constants",
           "prepare"]

_REQUIREMENT = "JPS needs uniform costs, 8 neighbours and no corner cutting (diagonal policy 'both')"


class Prep:
    """What JPS and JPS+ derive once per graph: passability in both layouts, step costs, tables."""

    __slots__ = ("P", "T", "stride", "tstride", "straight", "diagonal", "tables", "plans", "forced", "table_ms",
                 "octile")

    def __init__(self, graph: GridGraph, straight: float, diagonal: float) -> None:
        self.P = graph.passable
        self.stride = graph.stride
        self.tstride = graph.height + 2
        free = padded_free(graph.passable, graph.height, graph.width)
        self.T = np.ascontiguousarray(free.T).astype(np.uint8).tobytes()  # column-major copy
        self.straight, self.diagonal = straight, diagonal
        self.tables: tuple | None = None
        self.plans: tuple | None = None
        self.forced: bytes | None = None
        self.table_ms = 0.0
        self.octile = octile_constants(graph, 1.0)  # the estimate's factors at weight 1


def check_graph(graph: GridGraph) -> tuple[float, float]:
    """The uniform (straight, diagonal) step costs of ``graph``; ValueError if JPS cannot run on it."""
    if not isinstance(graph, GridGraph):
        raise ValueError(f"JPS needs a GridGraph, got {type(graph).__name__}")
    opts = graph.options
    if opts.neighbours != 8:
        raise ValueError(f"{_REQUIREMENT}; this graph has {opts.neighbours} neighbours")
    if opts.diagonal != "both":
        raise ValueError(f"{_REQUIREMENT}; this graph's diagonal policy is {opts.diagonal!r} "
                         "(corner cutting rules other than no corner cutting)")
    free = np.frombuffer(graph.passable, dtype=np.uint8) != 0
    if not free.any():
        raise ValueError("the map has no open tile")
    sc = np.asarray(graph.straight_cost, dtype=np.float64)[free]
    dc = np.asarray(graph.diagonal_cost, dtype=np.float64)[free]
    su, du = opts.units
    terrain = (dc - sc) / (du - su)  # the per-tile terrain multiplier; the influence cancels out
    penalty = sc - terrain * su
    t_lo, t_hi = float(terrain.min()), float(terrain.max())
    if t_hi - t_lo > 1e-9 * t_hi:
        raise ValueError(f"{_REQUIREMENT}; open tiles have different terrain costs ({t_lo:g} to {t_hi:g}): "
                         "use A* on non-uniform costs")
    if float(np.abs(penalty).max()) > 1e-9 * t_hi * su:
        raise ValueError(f"{_REQUIREMENT}; the map has an influence layer (per-tile penalties): "
                         "use A* with influence")
    return float(sc[0]), float(dc[0])


def prepare(graph: GridGraph) -> Prep:
    """Check ``graph`` and return its cached JPS data (built once per graph, i.e. per map version)."""
    if not isinstance(graph, GridGraph):
        raise ValueError(f"JPS needs a GridGraph, got {type(graph).__name__}")
    prep = graph.jps  # kept on the graph: a Prep, or why JPS cannot run on it
    if prep is None:
        try:
            straight, diagonal = check_graph(graph)
        except ValueError as e:
            graph.jps = str(e)
            raise
        prep = graph.jps = Prep(graph, straight, diagonal)
    elif isinstance(prep, str):
        raise ValueError(prep)
    return prep


def jump_tables(graph: GridGraph) -> tuple:
    """The 8 JPS+ jump-distance tables of ``graph`` (``array('h')`` per direction, indexed by node
    id, order ``jump_tables.DIRECTIONS``), built with numpy on first use and cached per graph."""
    prep = prepare(graph)
    if prep.tables is None:
        t0 = time.perf_counter()
        free = padded_free(graph.passable, graph.height, graph.width)
        tabs = compute_tables(free)
        if max(graph.width, graph.height) >= 32767:  # pragma: no cover - TileMap caps sizes far below
            raise ValueError("map too large for 16-bit jump tables")
        prep.tables = tuple(array("h", t.astype(np.int16).tobytes()) for t in tabs)
        prep.plans = _plus_plans(prep.tables, prep.stride)
        prep.forced = forced_bits(free).tobytes()
        prep.table_ms = (time.perf_counter() - t0) * 1000.0
    return prep.tables



def jps_unsuitable(graph: GridGraph, goals: list[int]) -> str:
    """Why JPS cannot plan on this graph ("" when it can): it needs uniform costs, 8 neighbours,
    no corner cutting and a single goal. Checked once per graph (the check reads the whole map)."""
    if len(goals) > 1 and len(set(goals)) > 1:
        return "takes one goal"
    prep = graph.jps
    if type(prep) is Prep:
        return ""
    try:
        prepare(graph)
    except ValueError as e:
        return f"does not apply ({e})"
    return ""


_ALL8 = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))  # the start's directions


def _start_orders() -> tuple:
    """The start's 8 directions, by the goal's side ((sign dx + 1) * 3 + sign dy + 1): those
    toward the goal first, so a goal in plain sight ends the expansion before the others run."""
    orders = []
    for sx in (-1, 0, 1):
        for sy in (-1, 0, 1):
            first = [d for d in ((sx, sy), (sx, 0), (0, sy)) if d != (0, 0) and d in _ALL8]
            orders.append(tuple(dict.fromkeys(first + list(_ALL8))))
    return tuple(orders)


START_ORDERS = _start_orders()

# Arrival codes kept with each open-list entry: how the node was entered, which decides its
# successors. Every node but the start is entered by a straight move (possibly after a diagonal
# leg: intermediate jump points on diagonals never go on the open list), so four codes suffice.
ARRIVE_E, ARRIVE_W, ARRIVE_S, ARRIVE_N, ARRIVE_START = 0, 1, 2, 3, 4
_ARRIVAL_MOVE = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _plans() -> tuple:
    """plans[arrival][forced bits] -> the directions (dx, dy) to jump in: straight on, and for
    each forced side (bit 1: toward -y for a horizontal move, -x for a vertical one; bit 2: the
    other side) the perpendicular step and the diagonal between it and straight on."""
    plans = []
    for dx, dy in _ARRIVAL_MOVE:
        by_bits = []
        for bits in range(4):
            dirs = [(dx, dy)]
            for bit, side in ((1, -1), (2, 1)):
                if bits & bit:
                    dirs += [(0, side), (dx, side)] if dx else [(side, 0), (side, dy)]
            by_bits.append(tuple(dirs))
        plans.append(tuple(by_bits))
    return tuple(plans)


PLANS = _plans()


def octile_constants(graph: GridGraph, weight: float) -> tuple[float, float]:
    """The two factors of ``heuristics.make_heuristic``'s octile estimate, for inlining it in
    the hot loop: h = max * a + min * b (the tests check both agree exactly)."""
    straight, diagonal = graph.options.units
    scale = weight * graph.min_cost
    return straight * scale, (diagonal - straight) * scale


def _plus_plans(tables: tuple, s: int) -> tuple:
    """JPS+ successor plans: per arrival code (E, W, S, N) and forced bits, and for the start per
    goal side (as ``START_ORDERS``), the records of the directions to jump in, each holding the
    tables it reads."""
    tE, tW, tS, tN, tSE, tSW, tNE, tNW = tables
    straight = {(1, 0): tE, (-1, 0): tW, (0, 1): tS, (0, -1): tN}
    diagonal = {(1, 1): tSE, (-1, 1): tSW, (1, -1): tNE, (-1, -1): tNW}

    def record(dx: int, dy: int) -> tuple:
        if dy == 0:
            return (0, straight[(dx, 0)], dx, ARRIVE_E if dx > 0 else ARRIVE_W)
        if dx == 0:
            return (1, straight[(0, dy)], dy, dy * s, ARRIVE_S if dy > 0 else ARRIVE_N)
        return (2, diagonal[(dx, dy)], straight[(dx, 0)], straight[(0, dy)], dx, dy, dx + dy * s, dy * s,
                ARRIVE_E if dx > 0 else ARRIVE_W, ARRIVE_S if dy > 0 else ARRIVE_N)

    plans = [tuple(tuple(record(dx, dy) for dx, dy in dirs) for dirs in by_bits) for by_bits in PLANS]
    return tuple(plans) + (tuple(tuple(record(dx, dy) for dx, dy in order) for order in START_ORDERS),)


def interpolate(jumps: list[int], stride: int) -> list[int]:
    """Fill in the nodes between consecutive jump points. Each leg is straight, diagonal, or
    diagonal first and then straight (a jump found from a point on a diagonal ray)."""
    a = jumps[0]
    out = [a]
    ay, ax = divmod(a, stride)
    for b in jumps[1:]:
        by, bx = divmod(b, stride)
        ddx, ddy = bx - ax, by - ay
        adx = ddx if ddx > 0 else -ddx
        ady = ddy if ddy > 0 else -ddy
        if adx and ady:
            d = (1 if ddx > 0 else -1) + (stride if ddy > 0 else -stride)
            a += d * (adx if adx < ady else ady)
            out.extend(range(out[-1] + d, a + (1 if d > 0 else -1), d))
        if adx != ady:
            d = (1 if ddx > 0 else -1) if adx > ady else (stride if ddy > 0 else -stride)
            out.extend(range(a + d, b + (1 if d > 0 else -1), d))
        a, ax, ay = b, bx, by
    return out


def interpolate_tiles(jumps: list[int], stride: int) -> list[tuple[int, int]]:
    """The same path as ``interpolate``, as map tiles (x, y) (built with ranges in C)."""
    ay, ax = divmod(jumps[0], stride)
    ax, ay = ax - 1, ay - 1
    out = [(ax, ay)]
    for b in jumps[1:]:
        by, bx = divmod(b, stride)
        bx, by = bx - 1, by - 1
        dx, dy = (1 if bx > ax else -1), (1 if by > ay else -1)
        adx, ady = (bx - ax) * dx, (by - ay) * dy
        k = adx if adx < ady else ady
        if k:
            out.extend(zip(range(ax + dx, ax + dx * k + dx, dx), range(ay + dy, ay + dy * k + dy, dy)))
            ax, ay = ax + dx * k, ay + dy * k
        if adx > ady:
            out.extend(zip(range(ax + dx, bx + dx, dx), repeat(ay)))
        elif ady > adx:
            out.extend(zip(repeat(ax), range(ay + dy, by + dy, dy)))
        ax, ay = bx, by
    return out
