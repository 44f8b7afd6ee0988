"""The hybrid as a plan() method, with the fallbacks of Pinter's "Path Failure and Timeslicing".

``HybridRun`` is what a ``PlanJob`` steps for ``method="hybrid"``:

1. Fail fast on the region table of the unit's width (``collision.clearance.regions_for``): a
   goal no motion of this body can reach is ``unreachable`` with no search, wide units included.
2. The hybrid's six steps (``directional.hybrid.HybridSearch``), sliced.
3. When they fail (the 4-neighbour A*, the 12-tile rule or the Directional-8 patch) the goal is
   still reachable as far as the region table knows, so the plan starts again from scratch with
   the slower, methodical Directional-24 (``DirectionalRun``) on the expansions left.

``method`` says which method produced the path ("hybrid" or "directional24"), ``note`` why it
changed; the unit and the start and goal conventions are the directional methods' (width 1 tile
unless given; the start faces its heading, default east; the goal heading snapped to 8).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..directional.hybrid import HybridSearch, Stage
from ..directional.lattice import Neighbourhood, UnitKind
from ..maps.tilemap import TileMap
from ..outcomes import Status
from .directional import DirectionalRun, joined
from .options import PlanOptions

FALLBACK = "directional24"
_WHY = {Stage.ASTAR: "its 4-neighbour A* found no path", Stage.SPAN: "its failure points were more than 12 tiles apart",
        Stage.PATCH: "its Directional-8 patch found no path", Stage.FORWARD: "the start heading is not the goal's"}


class HybridRun:
    """The hybrid plan's search stage: ``step``/``cancel`` like every search, then ``segments``,
    ``path``, ``length`` and ``method`` (the method that produced the path)."""

    def __init__(self, tilemap: TileMap, start: tuple[int, int], start_heading: float | None,
                 goal: tuple[int, int], goal_heading: float | None, options: PlanOptions) -> None:
        unit = options.unit
        self.tilemap, self.options = tilemap, options
        self.start, self.start_heading, self.goal, self.goal_heading = start, start_heading, goal, goal_heading
        self.kind = UnitKind(1.0 if unit.width is None else unit.width, unit.radius, Neighbourhood.D8,
                             unit.can_reverse)
        self.method, self.note, self.trace = "hybrid", "", None
        self.segments: Any = None
        self.path: list[tuple[int, int]] | None = None
        self.length, self.expanded, self.ms = 0.0, 0, 0.0
        self.cost: float | None = None
        self.hybrid: HybridSearch | None = None
        if not joined(tilemap, self.kind.width, start, goal):  # no motion of this body joins them: no search
            self.search: Any = None
            self.status = Status.UNREACHABLE
            return
        s = options.search
        self.hybrid = self.search = HybridSearch(tilemap, start, 0.0 if start_heading is None else start_heading,
                                                 goal, goal_heading, self.kind, s.max_expansions, s.weight)
        self.status = Status.RUNNING

    @property
    def open_count(self) -> int:
        return int(getattr(self.search, "open_count", 0) or 0)

    def step(self, budget: int = 1) -> Status:
        if self.search is None or self.status != Status.RUNNING:
            return self.status
        status = self.search.step(budget)
        if status == Status.NO_PATH and self.search is self.hybrid:
            self._fall_back()
        self._sync()
        return self.status

    def cancel(self) -> None:
        if self.search is not None:
            self.search.cancel()
            self._sync()

    def _fall_back(self) -> None:
        """The fast method failed but the goal is reachable: Directional-24 from scratch."""
        hybrid = self.hybrid
        assert hybrid is not None
        limit = self.options.search.max_expansions
        left = None if limit is None else max(limit - hybrid.expanded, 1)
        options = replace(self.options, method=FALLBACK, search=replace(self.options.search, max_expansions=left))
        why = _WHY.get(hybrid.failed or Stage.ASTAR, "it failed")
        self.note = f"the hybrid failed ({why}): planned with {FALLBACK} instead"
        self.method = FALLBACK
        self.search = DirectionalRun(self.tilemap, self.start, self.start_heading, self.goal, self.goal_heading,
                                     options)

    def _sync(self) -> None:
        s, h = self.search, self.hybrid
        assert h is not None
        self.status = s.status
        extra = 0 if s is h else h.expanded
        self.expanded, self.ms = s.expanded + extra, s.ms + (0.0 if s is h else h.ms)
        self.cost = s.cost
        if s.status == Status.FOUND and self.segments is None:
            self.segments, self.path, self.length = s.segments, s.path, s.length
