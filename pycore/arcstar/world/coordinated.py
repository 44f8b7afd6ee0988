"""Cooperative avoidance: windowed cooperative A* (Silver 2005) plans every unit in space and
time, and the units drive those plans in their own time without ever sharing a tile.

Planning: ``search.cooperative.CooperativePlanner`` on the map's open tiles, 4 neighbours (a
diagonal step would sweep a body over the two tiles beside it), without rotations (rings of
units each stepping into the tile the next one leaves), from each unit's tile to its goal's tile; units with
nothing to do are agents whose goal is where they stand, so they step aside for a passing unit
and come back. The whole run is planned at once, when orders change (moving units first brake
to a halt, so every plan starts from standing units), and again if units end short of their
goals (at most ``MAX_ROUNDS`` times without progress).

Driving (an action dependency graph, after Hoenig et al. 2019): each unit follows its tiles'
centres as a polyline (pivoting at corners, so turning radii are not kept: the price of the
guarantee) and may drive past a tile's centre into the next tile only when every other unit
planned to be on that tile earlier has reached the centre of the tile after it. A unit waits
only for units planned to be there earlier, or for one leaving the tile in the same tick, and
such same-tick chains never close into a ring (no rotations), so nobody waits in a circle; bodies
up to a tile wide never touch (units in tiles that are not the same are at least a tile apart, centre to centre, on
4-neighbour moves).

Limits: units wider than a tile are planned as if a tile wide (``spacing`` still keeps their
bodies apart); the nearest of several targets is the nearest as the crow flies; two units on one
tile cannot both be planned: the later one stands still, with its status saying why.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..geometry.primitives import Pose
from ..outcomes import BadInput, Status
from ..planner import PlanResult
from ..search.cooperative import CooperativePlanner
from .avoidance import Avoider, Tile
from .orders import Order, OrderKind, Point, Route, route_from, tile_of

if TYPE_CHECKING:
    from .state import Host as World
    from .state import UnitState

#: WHCA*'s window (ticks), and the longest plan (ticks) per round.
WINDOW, MAX_TICKS = 16, 4000
#: Planning rounds in a row that may leave units short of their goals with nobody closer.
MAX_ROUNDS = 3


@dataclass
class Schedule:
    """One unit's plan: the tiles it visits in order with the tick it enters each, the tile it
    was given as its goal (``want``, or a free one near it when another unit has that one, or
    its own when it has no order); ``progress``
    the last visit whose centre it reached. Its route starts at visit ``start``, whose centre
    is ``lead`` tiles from where the unit stood, so visit k's centre is ``lead + k - start``
    along it."""

    visits: list[tuple[Tile, int]]
    goal: Tile
    want: Tile | None
    lead: float = 0.0
    start: int = 0
    progress: int = 0


class Cooperative(Avoider):
    """Windowed cooperative A*, driven by tile order (module notes)."""

    name = "cooperative"
    standoff = False  # the plan orders who goes first; bodies need only their margin

    def __init__(self) -> None:
        super().__init__()
        self.dirty = True
        self.plans: dict[str, Schedule] = {}
        self.by_tile: dict[Tile, list[tuple[int, str, int]]] = {}
        self.rounds = 0
        self.left: float = math.inf

    def changed(self, world: World) -> None:
        self.dirty = True

    def held(self, world: World, u: UnitState, by: UnitState | None, now: float) -> None:
        """Held units wait: the plan orders who goes first."""

    def may_start(self, world: World, u: UnitState, now: float) -> bool:
        return not self.dirty

    # -- planning ------------------------------------------------------------------------------
    def _want(self, u: UnitState) -> Tile | None:
        """The tile ``u``'s current or next order takes it to (None: it has none)."""
        order = u.order if u.order is not None else (u.queue[0] if u.queue else None)
        if order is None or order.kind is OrderKind.STOP:
            return None
        if order.kind is OrderKind.PATROL:
            p = order.points[u.leg % len(order.points)] if u.order is not None else order.points[0]
        elif order.kind is OrderKind.NEAREST:
            p = min(order.points, key=lambda q: math.hypot(q[0] - u.x, q[1] - u.y))
        else:
            p = order.points[0]
        return tile_of(p[0], p[1])

    def before(self, world: World, now: float) -> None:
        if not self.dirty:
            for u in world.units:
                want = self._want(u)
                plan = self.plans.get(u.spec.id)
                if u.mover is None and want is not None and (
                        plan is None or plan.want != want or (plan.visits[-1][0] != plan.goal and u.detour is None)):
                    self.dirty = True
                    break
        if not self.dirty:
            return
        moving = [u for u in world.units if u.mover is not None]
        for u in moving:
            u.mover.brake()  # type: ignore[union-attr]
        if not moving:
            self._plan(world)

    def _plan(self, world: World) -> None:
        self.dirty = False
        self.plans.clear()
        self.by_tile.clear()
        units, agents, wants, taken = [], [], [], set()
        goals: set[Tile] = set()
        for u in world.units:
            start = tile_of(u.x, u.y)
            if start in taken:
                u.status = "cooperative: shares its tile with another unit"
                continue
            taken.add(start)
            units.append(u)
        starts = {tile_of(u.x, u.y) for u in units}
        for u in units:
            start = tile_of(u.x, u.y)
            want = self._want(u)
            wants.append(want)
            goal = start if want is None else want
            if goal in goals:
                goal = self._free_near(world, goal, goals | (starts - {start}))
            goals.add(goal)
            agents.append((start, goal))
        if not units:
            return
        try:
            planner = CooperativePlanner(world.map, agents, WINDOW, neighbours=4, rotations=False)
        except BadInput as e:  # a goal out of reach: plan the rest, that one stays
            i = int(e.field.split("[")[1].split("]")[0]) if e.field.startswith("agents[") else -1
            if i < 0:
                raise
            units[i].status = f"no route: {e}"
            units[i].order = None
            units[i].queue.clear()
            self.dirty = True
            return
        history = planner.solve(MAX_TICKS)
        left = sum(h[-1] != g for h, (_, g) in zip(history, agents, strict=True))
        self.rounds = 0 if left < self.left or left == 0 else self.rounds + 1
        self.left = left if left else math.inf
        for u, (_start, goal), want, tiles in zip(units, agents, wants, history, strict=True):
            visits: list[tuple[Tile, int]] = [(tiles[0], 0)]
            for t, tile in enumerate(tiles):
                if tile != visits[-1][0]:
                    visits.append((tile, t))
            end = visits[-1][0]
            self.plans[u.spec.id] = Schedule(visits, goal, want)
            for k, (tile, t) in enumerate(visits):
                self.by_tile.setdefault(tile, []).append((t, u.spec.id, k))
            if self._want(u) is None and len(visits) > 1:  # idle, but asked to step aside
                u.queue.append(Order(OrderKind.MOVE, ((u.x, u.y, u.heading),)))
            if end != goal and self.rounds >= MAX_ROUNDS:
                u.status = "cooperative: stuck (no plan reaches the goal)"
        if self.rounds >= MAX_ROUNDS:
            self.rounds = 0
            for u in units:
                plan = self.plans[u.spec.id]
                if plan.want is not None and plan.visits[-1][0] != plan.goal:
                    u.order = None
                    u.queue.clear()

    @staticmethod
    def _free_near(world: World, tile: Tile, avoid: set[Tile]) -> Tile:
        """The open tile nearest ``tile`` (4-neighbour moves) that is not in ``avoid``."""
        ok = ~world.map.blocked
        h, w = ok.shape
        seen, queue = {tile}, deque([tile])
        while queue:
            x, y = queue.popleft()
            if (x, y) not in avoid:
                return x, y
            for n in ((x + 1, y), (x, y + 1), (x - 1, y), (x, y - 1)):
                if 0 <= n[0] < w and 0 <= n[1] < h and ok[n[1], n[0]] and n not in seen:
                    seen.add(n)
                    queue.append(n)
        return tile

    # -- driving -------------------------------------------------------------------------------
    def route(self, world: World, u: UnitState, goals: tuple[Point, ...]) -> Route | None:
        plan = self.plans.get(u.spec.id)
        if plan is None:
            return Route(None, message="cooperative: not planned")
        plan.start = plan.progress
        tiles = [t for t, _ in plan.visits[plan.start:]]
        end = tiles[-1]
        goal: Point | None = next((g for g in goals if tile_of(g[0], g[1]) == end), None)
        if goal is None:
            goal = (end[0] + 0.5, end[1] + 0.5, None)
            if end != plan.goal:  # the plan stops short of the goal: drive there, then plan again
                u.detour = goal
        plan.lead = math.hypot(tiles[0][0] + 0.5 - u.x, tiles[0][1] + 0.5 - u.y)
        if len(tiles) == 1:
            tiles = []
        return route_from(PlanResult(Status.FOUND, path=tiles), Pose(u.x, u.y, u.heading), goal)

    def room(self, world: World, u: UnitState) -> float:
        plan = self.plans.get(u.spec.id)
        m = u.mover
        if plan is None or m is None:
            return math.inf
        k = plan.progress
        while k + 1 < len(plan.visits) and m.s >= plan.lead + (k + 1 - plan.start) - 1e-6:
            k += 1
        plan.progress = k
        c = k
        while c + 1 < len(plan.visits) and self._cleared(u.spec.id, plan.visits[c + 1]):
            c += 1
        if c + 1 >= len(plan.visits):
            return math.inf
        return max(0.0, plan.lead + (c - plan.start) - m.s)

    def _cleared(self, uid: str, visit: tuple[Tile, int]) -> bool:
        """Whether every unit planned on ``visit``'s tile before it has reached the centre of
        the tile after it."""
        tile, tick = visit
        for t, vid, k in self.by_tile.get(tile, ()):
            if t < tick and vid != uid and self.plans[vid].progress <= k:
                return False
        return True
