"""Directional-8/24/48 as plan() methods: the search object a ``PlanJob`` steps.

``DirectionalRun`` runs ``directional.search.DirectionalSearch`` over a ``DirectionalGraph``
and, once it ends, reads the node chain back as one path of lines and arcs. The unit is the
plan's (width, default 1 tile; radius; can_reverse). The start is the start tile's centre facing
the start heading (default east, 0 rad); the goal is the goal tile at any heading, or at the
given heading snapped to the nearest of the lattice's 8, or at any of a set of headings (a list,
each snapped). Islands fail fast on the region table of the unit's width
(``collision.clearance.regions_for``: tiles no motion of this body joins), so a wide unit's
unreachable goal fails fast too, and "unreachable" is never said of a reachable goal.

**Speed and people** (Pinter, "Speed and Other Movement Restrictions"). The search option
``turn_penalty`` is, on Directional-24 and -48, a cost per radian of heading change along each
move's curve, in the map's cost units (a tile of the cheapest terrain costs its length times
that terrain's cost: on ground, 1 per tile), so a penalty p makes each radian turned cost as much
as p tiles of straight travel: the time a vehicle loses slowing for its turns, charged during the
search. Default 0: Pinter's Directional A*, the least length. Directional-8 refuses it (its
one-tile hops make turns the smoothing pass removes later, so charging them misleads the
search, as Pinter says). The cost found is then the least *penalised* cost over the lattice (the
heuristic still never overestimates it). The ``people`` option (``planner.options``) is Pinter's
second remedy for units that slow down to turn tighter: a tight radius with a strong turn
penalty (``PEOPLE_RADIUS``, ``PEOPLE_TURN_PENALTY``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..collision.clearance import regions_for
from ..directional.graph import DirectionalGraph
from ..directional.lattice import Neighbourhood, UnitKind, heading_set
from ..directional.search import DirectionalSearch
from ..geometry.primitives import Path, Pose
from ..maps.tilemap import TileMap
from ..outcomes import Status
from .options import PlanOptions

NEIGHBOURHOODS = {"directional8": Neighbourhood.D8, "directional24": Neighbourhood.D24,
                  "directional48": Neighbourhood.D48}



def joined(tilemap: TileMap, width: float, start: tuple[int, int], goal: tuple[int, int]) -> bool:
    """Whether some motion of a body ``width`` tiles wide can join the two tiles, as far as the
    region table of that width (``collision.clearance.regions_for``) knows: when not, a plan is
    unreachable with no search."""
    labels = regions_for(tilemap, width)
    here = labels[start[1], start[0]]
    return bool(here >= 0 and here == labels[goal[1], goal[0]])

class DirectionalRun:
    """A directional plan's search stage: ``step``/``cancel`` like every search, then
    ``segments`` (the curve), ``path`` (its tiles) and ``length`` (tiles)."""

    def __init__(self, tilemap: TileMap, start: tuple[int, int], start_heading: float | None,
                 goal: tuple[int, int], goal_heading: float | Sequence[float] | None, options: PlanOptions) -> None:
        unit = options.unit
        self.kind = UnitKind(1.0 if unit.width is None else unit.width, unit.radius, NEIGHBOURHOODS[options.method],
                             unit.can_reverse)
        heading = 0.0 if start_heading is None else start_heading
        self.graph = DirectionalGraph(tilemap, self.kind, Pose(start[0] + 0.5, start[1] + 0.5, heading), goal,
                                      heading_set(goal_heading, "goal"), options.search.turn_penalty)
        self.trace = None
        self.segments: Path | None = None
        self.path: list[tuple[int, int]] | None = None
        self.length = 0.0
        self.exact = True
        if not joined(tilemap, self.kind.width, start, goal):  # wide units too: no search at all
            self.search: Any = None
            self.status, self.expanded, self.ms, self.cost = Status.UNREACHABLE, 0, 0.0, None
            return
        s = options.search
        heuristic = "none" if s.heuristic == "none" else "directional"
        #: least cost guaranteed (with weight 1 and the "closed" stop rule): H is consistent here
        self.exact = heuristic == "none" or self.graph.consistent
        self.search = DirectionalSearch(self.graph, heuristic=heuristic, weight=s.weight, stop=s.stop,
                                        max_expansions=s.max_expansions, trace=s.trace)
        self.status, self.expanded, self.ms, self.cost = Status.RUNNING, 0, 0.0, None

    @property
    def open_count(self) -> int:
        return 0 if self.search is None else self.search.open_count

    def fans(self) -> tuple[bytes, bytes] | None:
        """With ``trace``: the states opened and closed so far, one byte per tile with a bit per
        heading (``DirectionalGraph.heading_fans``), for the lab's heading fans; else None.
        (``trace`` stays None: a plan's trace is read per grid node, these nodes are states.)"""
        t = None if self.search is None else self.search.trace
        return None if t is None else self.graph.heading_fans(t.expanded, t.updates)

    @property
    def table_ms(self) -> float:
        return self.graph.table.build_ms

    def step(self, budget: int = 1) -> Status:
        if self.search is None or self.status != Status.RUNNING:
            return self.status
        status = self.search.step(budget)
        self._sync()
        return status

    def cancel(self) -> None:
        if self.search is not None:
            self.search.cancel()
            self._sync()

    def _sync(self) -> None:
        s = self.search
        self.status, self.expanded, self.ms, self.cost = s.status, s.expanded, s.ms, s.cost
        if s.status == Status.FOUND and self.segments is None:
            nodes = s.path_nodes
            self.segments = self.graph.path_of(nodes)
            self.path = self.graph.tiles(nodes)
            self.length = self.segments.length
