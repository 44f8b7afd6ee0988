"""``DirectionalGraph``: the lattice of (tile, heading) states as a ``search.graph.Graph``.

Node ``tile * 8 + k`` is the unit at the centre of tile ``y * width + x`` facing heading k
(angle k * pi/4; 0 east, 2 south, y down). A start pose on the lattice (a tile centre facing one
of the 8 headings, to 1e-9) is that node; any other start pose is one extra node, ``start_node``
= the last id: its moves are computed in full (curve, exact swept-disc test, terrain cost) as
Pinter says. Every other node's children come from the ``MotionTable``: per offset group one
mask test can drop or pass all 8 end headings, else one ``mask & window`` per child. A move
costs its centreline length in each tile times the tile's terrain cost (reversed stretches
times the reverse penalty), so the whole uniform case is the table's precomputed cost times the
one terrain cost; plus ``turn_penalty`` (cost units, i.e. tiles of the cheapest terrain, per
radian of heading change along the curve) when one is set: Pinter's "charging turns" for the
slowing they need ("Speed and Other Movement Restrictions").

``successors`` is the protocol's generic answer (the engine's generic loop, the tests'
reference); ``directional.search.DirectionalSearch`` reads the same children in bulk.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from ..collision.clearance import passable_for
from ..collision.swept import path_clear
from ..geometry.primitives import Arc, Line, Path, Pose
from ..maps.tilemap import TileMap
from ..outcomes import BadInput
from ..search.graph import check_heuristic
from .heuristic import GoalHeuristic, consistent, dubins_lengths, goal_heuristic
from .lattice import HEADINGS, STEP, UnitKind, best_curve, dir_table, heading_angle, move_of
from .tables import Group, MapWindows, MotionTable, centre_cells, step_cost, table_for, windows_for


class DirectionalGraph:
    """The lattice for one unit kind on one map version, from one start pose to one goal tile
    with a set of allowed headings (indices 0..7)."""

    heuristics = ("directional", "none")
    default_heuristic = "directional"

    def __init__(self, tilemap: TileMap, kind: UnitKind, start: Pose, goal: tuple[int, int],
                 goal_headings: Iterable[int], turn_penalty: float = 0.0) -> None:
        self.tilemap, self.kind = tilemap, kind
        self.width, self.height = w, h = tilemap.width, tilemap.height
        if isinstance(turn_penalty, bool) or not isinstance(turn_penalty, (int, float)) \
                or not math.isfinite(turn_penalty) or turn_penalty < 0:
            raise BadInput(f"turn_penalty must be a finite number >= 0, got {turn_penalty!r}", "turn_penalty")
        self.turn_penalty = float(turn_penalty)
        self.table: MotionTable = table_for(kind)
        self.windows: MapWindows = windows_for(tilemap, self.table.reach)
        self.children = self.table.children(w)
        uniform = self.windows.uniform
        #: per start heading, the children with their costs on this map (uniform terrain only)
        self.bulk: list[tuple[Group, ...]] | None = \
            None if uniform is None else self.table.bulk(w, uniform, self.turn_penalty)
        self.start_pose = start
        self.off_lattice = w * h * HEADINGS  # the node of an off-lattice start pose
        self.start_node = lattice_node(start, w, h)
        if self.start_node < 0:
            self.start_node = self.off_lattice
        self.node_count = self.off_lattice + 1
        self.goal = goal
        self.goal_headings = frozenset(goal_headings)
        if not self.goal_headings:
            raise BadInput("goal headings must name at least one heading", "goal_headings")
        self.goal_nodes = [(goal[1] * w + goal[0]) * HEADINGS + e for e in sorted(self.goal_headings)]
        self._fits = passable_for(tilemap, kind.width).ravel().tolist()
        self._weights: dict[tuple[int, int], list[tuple[int, float]]] = {}
        self._start_moves: dict[int, Path] | None = None
        self._start_list: list[tuple[int, float]] = []
        self._goal_h: GoalHeuristic | None = None

    # -- the protocol --------------------------------------------------------------------------
    def usable(self, node: int) -> bool:
        if node == self.off_lattice:
            return node == self.start_node
        return 0 <= node < self.off_lattice and bool(self._fits[node // HEADINGS])

    def place(self, node: int) -> tuple[float, float]:
        if node == self.off_lattice:
            return self.start_pose.x, self.start_pose.y
        y, x = divmod(node // HEADINGS, self.width)
        return x + 0.5, y + 0.5

    def successors(self, node: int) -> list[tuple[int, float]]:
        if node == self.off_lattice:
            self.start_moves()
            return self._start_list
        tile, h = divmod(node, HEADINGS)
        win = self.windows.window(tile)
        out: list[tuple[int, float]] = []
        add = out.append
        if self.bulk is not None:
            for _union, inter, _plain, masked in self.bulk[h]:
                if inter & win:
                    continue
                for d, cost, mask in masked:
                    if not mask & win:
                        add((node + d, cost))
            return out
        costs = self.windows.costs(tile)
        penalty = self.turn_penalty
        entries, offsets = self.table.entries, dir_table(self.kind.neighbourhood.value)
        for group, (_union, inter, items) in enumerate(self.children[h]):
            if inter & win:
                continue
            for e, (d, _cost, mask, _e) in enumerate(items):
                if not mask & win:
                    cost = math.fsum(costs[b] * wt for b, wt in self._weights_of(h, group, e))
                    if penalty:
                        cost += penalty * entries[(h, *offsets[group], e)].turn
                    add((node + d, cost))
        return out

    def _weights_of(self, h: int, group: int, e: int) -> list[tuple[int, float]]:
        key = (h * 64 + group, e)
        found = self._weights.get(key)
        if found is None:
            dx, dy = dir_table(self.kind.neighbourhood.value)[group]
            found = self._weights[key] = self.table.weights_by_bit((h, dx, dy, e))
        return found

    def heuristic(self, goals: Sequence[int], name: str, weight: float = 1.0) -> Callable[[int], float]:
        check_heuristic(name, self.heuristics)
        if name == "none":
            return lambda node: 0.0
        gh = self.goal_h()
        value, off = gh.value, self.off_lattice
        start_h = gh.start_h(self._start_tile(), self._start_bound()) if self.start_node == off else 0.0

        def h_of(node: int) -> float:
            if node == off:
                return start_h * weight
            return value(node) * weight
        return h_of

    def admissible(self, name: str, weight: float = 1.0) -> bool:
        return name == "none" or weight <= 1.0

    # -- the goal, the start and the path -------------------------------------------------------
    @property
    def consistent(self) -> bool:
        """Whether the directional heuristic is consistent on this map (``heuristic.consistent``)."""
        return consistent(self.tilemap, self.goal, not self.kind.can_reverse)

    def goal_h(self) -> GoalHeuristic:
        if self._goal_h is None:
            self._goal_h = goal_heuristic(self.tilemap, self.goal, self.goal_headings, self.kind.radius,
                                          not self.kind.can_reverse)
        return self._goal_h

    def _start_tile(self) -> int:
        return math.floor(self.start_pose.y) * self.width + math.floor(self.start_pose.x)

    def _start_bound(self) -> float:
        """A lower bound of the start's remaining length: the Dubins length to the goal's
        headings (forward only), else the straight-line distance."""
        p, (gx, gy) = self.start_pose, self.goal
        dx, dy = gx + 0.5 - p.x, gy + 0.5 - p.y
        if self.kind.can_reverse:
            return math.hypot(dx, dy)
        hs = sorted(self.goal_headings)
        n = len(hs)
        lengths = dubins_lengths(np.full(n, dx), np.full(n, dy), np.full(n, p.heading),
                                 np.array([heading_angle(e) for e in hs]), self.kind.radius)
        return float(lengths.min())

    def start_moves(self) -> dict[int, Path]:
        """The start's moves, computed in full: child node -> curve (legal ones only)."""
        if self._start_moves is None:
            moves: dict[int, Path] = {}
            p, w, h = self.start_pose, self.width, self.height
            sx, sy = math.floor(p.x), math.floor(p.y)
            cost_grid = self.tilemap.cost_grid
            penalty = self.kind.reverse_penalty if self.kind.can_reverse else 1.0
            uniform = self.windows.uniform
            for dx, dy in dir_table(self.kind.neighbourhood.value):
                x, y = sx + dx, sy + dy
                if not (0 <= x < w and 0 <= y < h) or not self._fits[y * w + x]:
                    continue
                for e in range(HEADINGS):
                    path = best_curve(p, Pose(x + 0.5, y + 0.5, heading_angle(e)), self.kind)
                    if not path_clear(self.tilemap, path, self.kind.width):
                        continue
                    if uniform is not None:  # the table's rule: the move's cost times the one terrain cost
                        move = move_of(path, self.kind.reverse_penalty)
                        cost = step_cost(move.cost, move.turn, uniform, self.turn_penalty)
                    else:
                        cost = math.fsum(float(cost_grid[cy, cx]) * wt
                                         for (cx, cy), wt in centre_cells(path, penalty).items())
                        if self.turn_penalty:
                            cost += self.turn_penalty * sum(abs(s.sweep) for s in path.segments
                                                            if isinstance(s, Arc))
                    node = (y * w + x) * HEADINGS + e
                    moves[node] = path
                    self._start_list.append((node, cost))
            self._start_moves = moves
        return self._start_moves

    def move_path(self, a: int, b: int) -> Path:
        """The curve of the move from node a to node b (as the search checked it)."""
        if a == self.off_lattice:
            return self.start_moves()[b]
        ta, ha = divmod(a, HEADINGS)
        tb, hb = divmod(b, HEADINGS)
        ya, xa = divmod(ta, self.width)
        yb, xb = divmod(tb, self.width)
        return self.table.entries[(ha, xb - xa, yb - ya, hb)].move.path(xa + 0.5, ya + 0.5)

    def path_of(self, nodes: list[int]) -> Path:
        """The found node chain as one path of lines and arcs."""
        segs = [seg for a, b in zip(nodes, nodes[1:]) for seg in self.move_path(a, b).segments]
        if not segs:
            return Path((Line.from_pose(self.start_pose, 0.0),))
        return Path(tuple(segs))

    def heading_fans(self, expanded: Sequence[int], updates: Sequence[float]) -> tuple[bytes, bytes]:
        """What a trace of a search over this graph says per tile, for drawing heading fans:
        (opened, closed), each one byte per tile, row-major (``y * width + x``), bit k set when
        the state (tile, heading k) was put on the open list (``updates``: the trace's flat
        (node, g, parent) triples) or expanded (``expanded``: node ids). Heading k points at
        k * 45 degrees, 0 east, 2 south (y down). The off-lattice start node is left out."""
        fans = []
        for nodes in (np.asarray(updates[0::3], dtype=np.int64), np.asarray(expanded, dtype=np.int64)):
            nodes = nodes[nodes < self.off_lattice]
            mask = np.zeros(self.width * self.height, dtype=np.uint8)
            np.bitwise_or.at(mask, nodes >> 3, (1 << (nodes & 7)).astype(np.uint8))
            fans.append(mask.tobytes())
        return fans[0], fans[1]

    def tiles(self, nodes: list[int]) -> list[tuple[int, int]]:
        """The tiles of a node chain (the start's own tile first)."""
        out = [(math.floor(self.start_pose.x), math.floor(self.start_pose.y))]
        for n in nodes[1:]:
            y, x = divmod(n // HEADINGS, self.width)
            out.append((x, y))
        return out


def lattice_node(pose: Pose, width: int, height: int) -> int:
    """The lattice node of a pose at a tile centre facing one of the 8 headings (each to
    ``LATTICE_TOL``), else -1."""
    x, y = pose.x - 0.5, pose.y - 0.5
    tx, ty = round(x), round(y)
    k = round(pose.heading / STEP)
    if abs(x - tx) > LATTICE_TOL or abs(y - ty) > LATTICE_TOL or abs(pose.heading - k * STEP) > LATTICE_TOL \
            or not (0 <= tx < width and 0 <= ty < height):
        return -1
    return (ty * width + tx) * HEADINGS + k % HEADINGS


#: How close (tiles, radians) a start pose must be to a lattice state to start from it: far
#: below any tile or heading step, so the table's curve from the state is the curve from the pose.
LATTICE_TOL = 1e-9
