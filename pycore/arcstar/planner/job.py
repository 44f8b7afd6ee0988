"""The front door: ``plan(map, start, goal, **options)`` and its resumable form ``PlanJob``.

A plan runs in stages, each in bounded slices: the search, then (with a turning method) the
turning stage, whose re-searches count against the same budget. ``PlanJob.step(budget)`` does
about ``budget`` units of work (one unit: one node expanded) and returns; ``cancel()`` works in
any stage. Bad input raises ``outcomes.BadInput`` (a ``ValueError``) naming the field.
"""

from __future__ import annotations

import time
from dataclasses import replace
from enum import StrEnum
from typing import Any

from ..collision.swept import blocked_stretches, path_clear
from ..maps.hexmap import HexMap
from ..maps.tilemap import TileMap
from ..maps.waypoints import WaypointMap
from ..outcomes import BadInput, Status
from ..search.engine import Trace
from ..turning.art import to_fixed_angles
from ..turning.methods import Realized, Work, realize_steps
from .directional import DirectionalRun
from .hybrid import HybridRun
from .options import PlanOptions
from .registry import Optimality, Query
from .result import PlanResult
from .sites import GridSite, Heading, HexSite, Site, WaypointSite, one_heading

MESSAGES = {Status.FOUND: "", Status.NO_PATH: "no path: the goal cannot be reached from the start",
            Status.UNREACHABLE: "unreachable: the goal is on another island than the start (no search needed)",
            Status.CANCELLED: "cancelled"}


class Stage(StrEnum):
    SEARCH = "search"
    TURNING = "turning"
    DONE = "done"


class _Unreachable:
    """The search that was not needed: the goal lies on another island."""

    status, expanded, ms, cost, path, path_nodes, open_count = Status.UNREACHABLE, 0, 0.0, None, None, None, 0

    def __init__(self) -> None:
        self.trace = Trace()

    def step(self, budget: int = 1) -> Status:
        return self.status

    def cancel(self) -> None:
        pass


def site_for(tilemap: Any, options: PlanOptions) -> Site:
    """The site of a map: a ``TileMap``, a ``HexMap`` or a ``WaypointMap``."""
    if isinstance(tilemap, TileMap):
        return GridSite(tilemap, options)
    if isinstance(tilemap, HexMap):
        return HexSite(tilemap, options)
    if isinstance(tilemap, WaypointMap):
        return WaypointSite(tilemap, options)
    raise BadInput(f"map must be a TileMap, HexMap or WaypointMap, got {type(tilemap).__name__}", "map")


class PlanJob:
    """A plan in progress: ``step(budget)`` advances it, ``result()`` reads it once done.

    ``goal`` is one point, or with ``targets=True`` a list of points: the plan then goes to the
    nearest of them (Lester's resource gatherer). On a square grid a point is [x, y] or
    [x, y, heading] (radians, 0 = +x, pi/2 = +y) for the turning stage.
    """

    def __init__(self, tilemap: Any, start: object, goal: object, options: PlanOptions | None = None,
                 targets: bool = False) -> None:
        self.options = options = options or PlanOptions()
        if not isinstance(options, PlanOptions):
            raise BadInput(f"options must be PlanOptions, got {type(options).__name__}", "options")
        self.site = site = site_for(tilemap, options)
        self.tilemap = tilemap
        self.graph = site.graph
        start, heading = site.split(start, "start")
        self.start_heading = one_heading(heading, "start")
        self.goal_heading: Heading = None
        start_node = site.node(start, "start")
        if targets:
            if isinstance(goal, (str, bytes)) or not hasattr(goal, "__iter__"):
                raise BadInput(f"targets must be a list of points [[x, y], ...], got {goal!r}", "targets")
            goal_nodes = [site.node(t, f"targets[{k}]") for k, t in enumerate(goal)]
            self.goal_heading = None
            if not goal_nodes:
                raise BadInput("targets must hold at least one point", "targets")
        else:
            goal, self.goal_heading = site.split(goal, "goal")
            goal_nodes = [site.node(goal, "goal")]
        points = site.path([start_node, *goal_nodes])
        self.start, self.goals = points[0], points[1:]
        self.method, self.note = options.method, ""
        self.stage = Stage.SEARCH
        #: the work done so far, in ``step``'s units (a caller sharing a budget counts it)
        self.work = 0
        self._result: PlanResult | None = None
        self._work: Work | None = None
        self._turn_ms = 0.0
        self._pending: PlanResult | None = None
        if options.spec.directional:
            if targets or not isinstance(site, GridSite):
                raise BadInput(f"{options.method} plans on square tile maps to one goal", "method")
            self.heuristic = "directional"
            self.optimal = options.spec.optimality is not Optimality.NONE and options.search.weight <= 1.0 \
                and options.search.stop == "closed"
            if options.method == "hybrid":
                self.search: Any = HybridRun(site.tilemap, self.start, self.start_heading, self.goals[0],
                                             one_heading(self.goal_heading, "goal"), options)
            else:  # the goal may take a set of headings
                self.search = DirectionalRun(site.tilemap, self.start, self.start_heading, self.goals[0],
                                             self.goal_heading, options)
            if self.search.status != Status.RUNNING:
                self._finish_search()
            return
        self.heuristic = heuristic = options.heuristic_on(self.graph)
        if heuristic not in self.graph.heuristics:
            raise BadInput(f"heuristic must be one of {', '.join(self.graph.heuristics)} on this map, "
                           f"got {heuristic!r}", "heuristic")
        spec = options.spec
        if site.kind not in spec.graphs:
            raise BadInput(f"{options.method} plans on {' and '.join(spec.graphs)} maps, not {site.kind}",
                           "method")
        s = options.search
        self.optimal = spec.optimal(s, self.graph.admissible(heuristic, s.weight))
        if not site.reachable(start_node, goal_nodes):
            self.search = _Unreachable()
            self._finish_search()
            return
        built = spec.build(Query(self.graph, start_node, goal_nodes, options.method, options.search, heuristic,
                                 site.tilemap))
        self.search, self.method, self.note = built.search, built.method, built.note

    # -- stepping -----------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self.stage is Stage.DONE

    @property
    def status(self) -> Status:
        return Status.RUNNING if self._result is None else self._result.status

    def step(self, budget: int = 1024) -> Status:
        """Do about ``budget`` units of work (expansions); the status (``running`` until done)."""
        if type(budget) is not int or budget < 1:  # (a bool is not an int here)
            raise BadInput(f"step budget must be a positive integer, got {budget!r}", "budget")
        if self.stage is Stage.SEARCH:
            before = self.search.expanded
            if self.search.step(budget) != Status.RUNNING:
                self._finish_search()
            self.work += self.search.expanded - before
        elif self.stage is Stage.TURNING:
            self.work += self._turn(budget)
        return self.status

    def cancel(self) -> None:
        """Stop for good, in whatever stage; the result then says ``cancelled``."""
        if self.stage is Stage.SEARCH:
            self.search.cancel()
            self._finish_search()
        elif self.stage is Stage.TURNING:
            assert self._work is not None and self._pending is not None
            self._work.close()
            pending = self._pending
            pending.status, pending.stage = Status.CANCELLED, Stage.TURNING.value
            pending.message = "cancelled in the turning stage"
            self._end(pending)

    def result(self) -> PlanResult:
        if self._result is None:
            raise RuntimeError("the plan is still running: step it to the end first")
        return self._result

    # -- stages -------------------------------------------------------------------------------
    def _finish_search(self) -> None:
        s = self.search
        status: Status = s.status
        path, length = self.site.found(s)
        stages = None
        if isinstance(s, HybridRun):  # the hybrid, or the Directional-24 it fell back to
            self.method, self.note = s.method, s.note
            stages = s.hybrid.stages() if s.hybrid is not None else None
        limit = self.options.search.max_expansions
        message = MESSAGES.get(status)
        if message is None:
            message = f"gave up after {s.expanded} expansions (max_expansions {limit})"
        if self.note:
            message = f"{message}; {self.note}" if message else self.note
        optimal = self.optimal
        if self.options.method == "hpa":
            optimal = getattr(s, "exact", optimal)
        elif isinstance(s, DirectionalRun):
            optimal = optimal and s.exact  # the directional heuristic may be inconsistent on a large map
        result = PlanResult(status=status, path=path, cost=s.cost, length=length,
                            expanded=s.expanded, ms=s.ms, optimal=optimal and status == Status.FOUND,
                            message=message, method=self.method, trace=s.trace, stages=stages)
        segments = getattr(s, "segments", None)
        if segments is not None:  # a directional plan: legal only if the independent exact test agrees
            result.segments, result.stage = segments, Stage.SEARCH.value
            width = self.options.unit.width
            result.legal = path_clear(self.site.tilemap, segments, 1.0 if width is None else width)
            result.waypoints = [(seg.x, seg.y) for seg in segments.segments] + [segments.end_pose().xy]
            if not result.legal:
                result.status, result.optimal = Status.NOT_LEGAL, False
                result.message = "not legal for this unit: the exact swept-disc test disagrees (a bug)"
        turning = self.options.turning.method
        if turning is None or status != Status.FOUND:
            self._end(result)
            return
        o = self.options
        left = None if limit is None else limit - s.expanded
        assert o.unit_width is not None
        tilemap = self.site.tilemap
        self._pending = result
        self._work = realize_steps(tilemap, tilemap, path, self.start_heading, one_heading(self.goal_heading, "goal"),
                                   o.unit_width, o.unit.radius, turning, o.turning.max_recalcs, o.unit.can_reverse,
                                   replace(o.search, heuristic=self.heuristic), left)  # re-search as searched
        self.stage = Stage.TURNING

    def _turn(self, budget: int) -> int:
        """Turn for about ``budget`` units of work; the work done."""
        assert self._work is not None
        t0 = time.perf_counter()
        done: Realized | None = None
        work = 0
        try:
            while work < budget:
                work += next(self._work)
        except StopIteration as stop:
            done = stop.value
        finally:
            self._turn_ms += (time.perf_counter() - t0) * 1000.0
        if done is not None:
            self._finish_turning(done)
        return work

    def _finish_turning(self, done: Realized) -> None:
        result, o = self._pending, self.options
        assert result is not None
        width = o.unit_width
        assert width is not None
        tilemap = self.site.tilemap
        t0 = time.perf_counter()
        path, legal = done.path, done.legal
        if o.turning.art is not None:
            path = to_fixed_angles(path, o.turning.art)
            legal = path_clear(tilemap, path, width)
        result.segments, result.legal, result.turns = path, legal, done.turns
        result.blocked = [] if legal else blocked_stretches(tilemap, path, width)
        result.waypoints, result.speed_limits = done.waypoints, done.speed_limits
        result.searches, result.stage = done.searches, Stage.TURNING.value
        result.expanded += done.expanded
        result.ms += self._turn_ms + (time.perf_counter() - t0) * 1000.0
        if done.budget_exhausted:
            result.status = Status.BUDGET_EXHAUSTED
            result.message = "; ".join(m for m in (result.message, "gave up in the turning stage: max_expansions "
                                                   "reached before a legal path was found") if m)
        elif not legal:
            why = done.message if not done.legal else f"the {o.turning.art}-direction art path clips a wall"
            result.message = "; ".join(m for m in (result.message, f"not legal for this unit: {why}") if m)
            result.status, result.optimal = Status.NOT_LEGAL, False
        self._end(result)

    def _end(self, result: PlanResult) -> None:
        self._result = result
        self.stage = Stage.DONE


def run(job: PlanJob) -> PlanResult:
    """Step a job to its end (in slices, as a timesliced caller would) and read its result."""
    while job.step(8192) == Status.RUNNING:
        pass
    return job.result()


def plan(tilemap: Any, start: object, goal: object, **options: object) -> PlanResult:
    """Find a path from ``start`` to ``goal`` on ``tilemap``; options as in ``PlanOptions.from_dict``."""
    return run(PlanJob(tilemap, start, goal, PlanOptions.from_dict(options)))


def nearest(tilemap: Any, start: object, targets: object, **options: object) -> PlanResult:
    """A path to whichever of ``targets`` is cheapest to reach (Dijkstra unless told otherwise)."""
    options.setdefault("method", "dijkstra")
    return run(PlanJob(tilemap, start, targets, PlanOptions.from_dict(options), targets=True))
