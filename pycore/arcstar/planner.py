"""The front door: ``plan(map, start, goal, **options)`` and its resumable form ``PlanJob``.

The planner checks its input (a clear ``ValueError`` for anything malformed), picks and runs the
search, and returns a ``PlanResult``. Tiles are (x, y) with x right and y down.
"""

from __future__ import annotations

import math
import time
import weakref
from dataclasses import dataclass, field, fields

from .art import to_fixed_angles
from .clearance import move_masks_for, passable_for
from .collision import blocked_stretches, path_clear
from .geometry import Path
from .grid import GridGraph, GridOptions, graph_for
from .heuristics import HEURISTICS, admissible
from .hierarchical import DEFAULT_CLUSTER, HierarchicalAStar, check_cluster_size
from .jps import JPS, JPSPlus, prepare
from .openlists import OPEN_LISTS
from .regions import regions
from .search import BUDGET, CANCELLED, FOUND, NO_PATH, RUNNING, STOP_RULES, AStar, Trace, path_length
from .tilemap import TileMap
from .turning import TURN_METHODS, realize

METHODS = ("astar", "dijkstra", "jps", "jpsplus", "hpa")
UNREACHABLE = "unreachable"
POINT_ONLY = ("jps", "jpsplus", "hpa")  # methods with their own pruning that assume a point unit
METHOD_LIMITS = {  # what each method accepts beyond the defaults (the lab greys out the rest)
    "astar": {"open_lists": list(OPEN_LISTS), "turn_penalty": True, "width": True, "terrain": True,
              "neighbours": [4, 8], "heuristic": True},
    "dijkstra": {"open_lists": list(OPEN_LISTS), "turn_penalty": True, "width": True, "terrain": True,
                 "neighbours": [4, 8], "heuristic": False},
    "jps": {"open_lists": ["heap"], "turn_penalty": False, "width": False, "terrain": False,
            "neighbours": [8], "diagonal": ["both"], "heuristic": True,
            "note": "uniform terrain only; elsewhere the planner uses astar and says so"},
    "hpa": {"open_lists": ["heap"], "turn_penalty": False, "width": False, "terrain": True,
            "neighbours": [4, 8], "heuristic": False,
            "note": "octile A* on two levels; paths at most 40% longer than optimal"},
}
METHOD_LIMITS["jpsplus"] = {**METHOD_LIMITS["jps"]}


@dataclass(frozen=True)
class PlanOptions:
    """Everything that shapes a plan; the defaults are Lester's A*.

    method: "astar"; "dijkstra" (A* with no heuristic); "jps" and "jpsplus" (Jump Point Search,
        and with precomputed jump distances: uniform terrain, 8 neighbours, diagonal "both"
        only, optimal with the octile heuristic); "hpa" (hierarchical: clusters of
        ``cluster_size`` tiles, octile A* at both levels, at most 40% longer than optimal).
    neighbours, diagonal, costs: see ``grid.GridOptions`` (8, "both", "lester" = 10/14).
    heuristic: see ``heuristics``; None means the method's own default: "manhattan" (x 10, as in
        Lester's article) for astar, "octile" for jps and jpsplus.
    weight: heuristic multiplier (weighted A*); stop: "closed" (default) or "reached".
    max_expansions: the search's total budget (it ends "budget_exhausted" past it).
    trace: record what the lab draws (open/closed sets, g/h/f, parents).
    open_list: "heap" (default) or "unsorted" (Pinter's fixed-matrix list).
    turn_penalty: cost added per change of direction (smoother, not guaranteed least-cost).
    turning: None (the tile path only) or one of ``turning.TURN_METHODS``: "smooth" (Listing 1),
        "ignore" (curves, walls not checked: ``legal`` says the truth), "recalculate",
        "tighter" (slows before tight turns) or "backup" (three-point turns); the result then
        holds ``segments`` (lines and arcs) and ``legal``. Start and goal may carry a heading:
        [x, y, heading] (radians, 0 = +x, pi/2 = +y). Needs a width (1 tile if none is given).
    radius: the unit's turning radius in tiles; can_reverse: it may back up (Reeds-Shepp).
    art: None, 8 or 16: redraw the path in fixed-angle segments (Pinter's Figures 14-15).
    width: the unit's diameter in tiles (a disc), or None for a point. With a width, a tile
        is usable where the unit fits centred on it, and a step is allowed only when the disc
        swept along it touches no wall (``clearance``); diagonal must be "both" or "never".
    """

    method: str = "astar"
    neighbours: int = 8
    diagonal: str = "both"
    costs: str = "lester"
    heuristic: str | None = None
    weight: float = 1.0
    stop: str = "closed"
    max_expansions: int | None = None
    trace: bool = False
    open_list: str = "heap"
    turn_penalty: float = 0.0
    width: float | None = None
    cluster_size: int = DEFAULT_CLUSTER
    turning: str | None = None
    radius: float = 1.0
    can_reverse: bool = False
    art: int | None = None

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, got {self.method!r}")
        if self.heuristic is not None and self.heuristic not in HEURISTICS:
            raise ValueError(f"heuristic must be one of {', '.join(HEURISTICS)}, got {self.heuristic!r}")
        if self.stop not in STOP_RULES:
            raise ValueError(f"stop must be one of {', '.join(STOP_RULES)}, got {self.stop!r}")
        w = self.weight
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w) or w < 0:
            raise ValueError(f"weight must be a finite number >= 0, got {w!r}")
        m = self.max_expansions
        if m is not None and (isinstance(m, bool) or not isinstance(m, int) or m < 1):
            raise ValueError(f"max_expansions must be a positive integer or null, got {m!r}")
        if self.open_list not in OPEN_LISTS:
            raise ValueError(f"open_list must be one of {', '.join(OPEN_LISTS)}, got {self.open_list!r}")
        t = self.turn_penalty
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t) or t < 0:
            raise ValueError(f"turn_penalty must be a finite number >= 0, got {t!r}")
        if self.width is not None:
            w = self.width
            if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w) or w <= 0:
                raise ValueError(f"width must be a positive number of tiles, got {w!r}")
            if self.diagonal not in ("both", "never"):
                raise ValueError("with a width, diagonal must be 'both' or 'never': the swept-disc test decides "
                                 "the rest")
        check_cluster_size(self.cluster_size)
        if self.turning is not None:
            if self.turning not in TURN_METHODS:
                raise ValueError(f"turning must be one of {', '.join(TURN_METHODS)} or null, got {self.turning!r}")
            r = self.radius
            if isinstance(r, bool) or not isinstance(r, (int, float)) or not math.isfinite(r) or r <= 0:
                raise ValueError(f"radius must be a positive number of tiles, got {r!r}")
        if not isinstance(self.can_reverse, bool):
            raise ValueError(f"can_reverse must be true or false, got {self.can_reverse!r}")
        if self.art is not None and (self.art not in (8, 16) or isinstance(self.art, bool)):
            raise ValueError(f"art must be 8, 16 or null, got {self.art!r}")
        if self.art is not None and self.turning is None:
            raise ValueError("art redraws a curved path: give a turning method too")
        if self.method in POINT_ONLY and self.unit_width is not None:
            raise ValueError(f"{self.method} plans for a point unit: use astar or dijkstra for a unit width "
                             "or a turning method")
        if self.method in POINT_ONLY and (self.open_list != "heap" or self.turn_penalty):
            raise ValueError(f"{self.method} keeps its own open list and charges no turns: open_list must be "
                             "'heap' and turn_penalty 0")
        if not isinstance(self.trace, bool):
            raise ValueError(f"trace must be true or false, got {self.trace!r}")
        _ = self.grid  # builds GridOptions, which validates neighbours, diagonal and costs

    @property
    def effective_heuristic(self) -> str:
        """The heuristic the search uses (the method's default when none was asked for)."""
        if self.method == "dijkstra":
            return "none"
        if self.heuristic is not None:
            return self.heuristic
        return "manhattan" if self.method == "astar" else "octile"

    @property
    def unit_width(self) -> float | None:
        """The width the search plans for: the given one, or 1 tile when turning needs one."""
        return 1.0 if self.width is None and self.turning is not None else self.width

    @property
    def grid(self) -> GridOptions:
        return GridOptions(self.neighbours, self.diagonal, self.costs)

    @classmethod
    def from_dict(cls, raw: dict) -> PlanOptions:
        """Options from a JSON-like dict; unknown keys are an error, not silently ignored."""
        if not isinstance(raw, dict):
            raise ValueError(f"options must be an object, got {type(raw).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        return cls(**raw)


@dataclass
class PlanResult:
    """The outcome of a plan.

    status: "found", "no_path", "budget_exhausted" or "cancelled".
    path: tiles (x, y) from start to goal; cost in the cost model's units (10/14 for Lester's);
    length: geometric length in tiles; optimal: whether the method guarantees the least cost.
    With a turning method: segments (lines and arcs), legal (the exact swept-disc verdict),
    turns, waypoints, speed_limits ((from, to, factor) along the path) and blocked (stretches
    (from, to) of distance along the path where the body overlaps a wall; empty when legal).
    """

    status: str
    path: list[tuple[int, int]] = field(default_factory=list)
    cost: float | None = None
    length: float = 0.0
    expanded: int = 0
    ms: float = 0.0
    optimal: bool = False
    message: str = ""
    method: str = ""
    trace: object | None = None
    segments: Path | None = None
    legal: bool | None = None
    turns: int = 0
    waypoints: list = field(default_factory=list)
    speed_limits: list = field(default_factory=list)
    blocked: list = field(default_factory=list)

    def to_json(self) -> dict:
        """A JSON-safe dict (no trace; the service adds what the lab needs)."""
        return {"status": self.status, "path": [list(p) for p in self.path], "cost": self.cost,
                "length": self.length, "expanded": self.expanded, "ms": round(self.ms, 3),
                "optimal": self.optimal, "message": self.message, "method": self.method,
                **({} if self.segments is None else {
                    "segments": self.segments.to_json()["segments"], "legal": self.legal, "turns": self.turns,
                    "segments_length": self.segments.length,
                    "waypoints": [list(p) for p in self.waypoints],
                    "speed_limits": [list(v) for v in self.speed_limits],
                    "blocked": [list(v) for v in self.blocked]})}


def unit_graph(tilemap: TileMap, options: PlanOptions) -> GridGraph:
    """The graph a unit of ``options.width`` walks (cached per map version and width)."""
    graph = graph_for(tilemap, options.grid)
    if options.unit_width is None:
        return graph
    width = float(options.unit_width)
    return tilemap.cached(f"graph:{options.grid}:width={width!r}", lambda: graph.restricted(
        move_masks_for(tilemap, width), passable_for(tilemap, width)))


def split_heading(point: object, role: str) -> tuple[object, float | None]:
    """[x, y] or [x, y, heading]: the tile part, and the heading (radians) or None."""
    if isinstance(point, (str, bytes)) or not hasattr(point, "__len__") or len(point) not in (2, 3):
        raise ValueError(f"{role} must be [x, y] or [x, y, heading], got {point!r}")
    if len(point) == 2:
        return point, None
    heading = point[2]
    if isinstance(heading, bool) or not isinstance(heading, (int, float)) or not math.isfinite(heading):
        raise ValueError(f"{role} heading must be a finite number of radians, got {heading!r}")
    return (point[0], point[1]), float(heading)


def check_tile(tilemap: TileMap, point: object, role: str, width: float | None = None) -> tuple[int, int]:
    """A start or goal must be two integers naming an open tile on the map (where a unit of
    ``width`` fits)."""
    if isinstance(point, (str, bytes)) or not hasattr(point, "__len__") or len(point) != 2:
        raise ValueError(f"{role} must be a pair of integers [x, y], got {point!r}")
    out = []
    for v in point:
        if isinstance(v, bool) or not isinstance(v, int):
            if isinstance(v, float) and math.isfinite(v) and v == int(v):
                v = int(v)
            elif type(v).__module__ == "numpy" and float(v) == int(v):
                v = int(v)
            else:
                raise ValueError(f"{role} must be a pair of integers [x, y], got {point!r}")
        out.append(v)
    x, y = out
    if not tilemap.in_bounds(x, y):
        raise ValueError(f"{role} ({x}, {y}) is off the {tilemap.width}x{tilemap.height} map")
    if tilemap.blocked[y, x]:
        raise ValueError(f"{role} ({x}, {y}) is on a blocked tile")
    if width is not None and not passable_for(tilemap, width)[y, x]:
        raise ValueError(f"{role} ({x}, {y}) is too close to a wall for a unit {width:g} tiles wide")
    return x, y


class PlanJob:
    """A plan in progress: ``step(budget)`` advances it, ``result()`` reads it once done.

    ``goal`` is one tile, or with ``targets=True`` a list of tiles: the plan then goes to the
    nearest of them (Lester's resource gatherer).
    """

    def __init__(self, tilemap: TileMap, start: object, goal: object, options: PlanOptions | None = None,
                 targets: bool = False) -> None:
        if not isinstance(tilemap, TileMap):
            raise ValueError(f"map must be a TileMap, got {type(tilemap).__name__}")
        self.options = options = options or PlanOptions()
        self.tilemap = tilemap
        start, self.start_heading = split_heading(start, "start")
        self.start = check_tile(tilemap, start, "start", options.unit_width)
        if targets:
            if isinstance(goal, (str, bytes)) or not hasattr(goal, "__iter__"):
                raise ValueError(f"targets must be a list of tiles [[x, y], ...], got {goal!r}")
            self.goals = [check_tile(tilemap, t, "target", options.unit_width) for t in goal]
            self.goal_heading = None
            if not self.goals:
                raise ValueError("targets must hold at least one tile")
        else:
            goal, self.goal_heading = split_heading(goal, "goal")
            self.goals = [check_tile(tilemap, goal, "goal", options.unit_width)]
        self.graph = unit_graph(tilemap, options)
        start_node, goal_nodes = self.graph.node(*self.start), [self.graph.node(*t) for t in self.goals]
        heuristic = options.effective_heuristic
        self.method, self.note = options.method, ""
        self.optimal = (options.stop == "closed" and not options.turn_penalty
                        and admissible(heuristic, self.graph, options.weight))
        if not self._reachable(tilemap, options):
            self.search = _Unreachable()
            return
        if options.method == "hpa":
            self.search = HierarchicalAStar(tilemap, self.graph, start_node, goal_nodes,
                                            cluster_size=options.cluster_size,
                                            max_expansions=options.max_expansions, trace=options.trace)
            return
        kwargs = dict(heuristic=heuristic, weight=options.weight, stop=options.stop,
                      max_expansions=options.max_expansions, trace=options.trace,
                      open_list=options.open_list, turn_penalty=options.turn_penalty)
        engine = {"jps": JPS, "jpsplus": JPSPlus}.get(options.method, AStar)
        if engine is not AStar:
            reason = jps_unsuitable(self.graph, goal_nodes)
            if reason:  # the fast method does not apply here: the methodical one does, and we say so
                engine, self.method = AStar, "astar"
                self.note = f"{options.method} {reason}: planned with astar instead"
        self.search = engine(self.graph, start_node, goal_nodes, **kwargs)

    def _reachable(self, tilemap: TileMap, options: PlanOptions) -> bool:
        """Islands fail fast: no target on the start's island means no search at all. (For a
        unit width the islands of the width are not kept yet: the search decides.)"""
        if options.unit_width is not None:
            return True
        labels = regions(tilemap, options.diagonal, options.neighbours)
        home = labels[self.start[1], self.start[0]]
        return any(labels[y, x] == home for x, y in self.goals)

    @property
    def done(self) -> bool:
        return self.search.status != RUNNING

    def step(self, budget: int = 1024) -> str:
        return self.search.step(budget)

    def cancel(self) -> None:
        self.search.cancel()

    def result(self) -> PlanResult:
        s = self.search
        if s.status == RUNNING:
            raise RuntimeError("the plan is still running: step it to the end first")
        messages = {FOUND: "", NO_PATH: "no path: the goal cannot be reached from the start",
                    UNREACHABLE: "unreachable: the goal is on another island than the start (no search needed)",
                    BUDGET: f"gave up after {s.expanded} expansions (max_expansions)",
                    CANCELLED: "cancelled"}
        path = s.path or []
        optimal = getattr(s, "exact", self.optimal) if self.options.method == "hpa" else self.optimal
        result = PlanResult(status=s.status, path=path, cost=s.cost, length=path_length(path),
                            expanded=s.expanded, ms=s.ms, optimal=optimal and s.status == FOUND,
                            message="; ".join(m for m in (messages[s.status], self.note) if m),
                            method=self.method, trace=s.trace)
        if self.options.turning is not None and s.status == FOUND:
            self._realize(result)
        return result

    def _realize(self, result: PlanResult) -> None:
        """Add the drivable path (lines and arcs) of the turning method to a found result."""
        o = self.options
        t0 = time.perf_counter()
        done = realize(self.tilemap, result.path, self.start_heading, self.goal_heading, o.unit_width, o.radius,
                       o.turning, can_reverse=o.can_reverse,
                       search_options={"neighbours": o.neighbours, "diagonal": o.diagonal, "costs": o.costs})
        path, legal = done.path, done.legal
        if o.art is not None:
            path = to_fixed_angles(path, o.art)
            legal = path_clear(self.tilemap, path, o.unit_width)
        result.segments, result.legal, result.turns = path, legal, done.turns
        result.blocked = [] if legal else blocked_stretches(self.tilemap, path, o.unit_width)
        result.waypoints, result.speed_limits = done.waypoints, done.speed_limits
        result.ms += (time.perf_counter() - t0) * 1000.0
        if not legal:
            why = done.message if not done.legal else f"the {o.art}-direction art path clips a wall"
            result.message = "; ".join(m for m in (result.message, f"not legal for this unit: {why}") if m)


_JPS_REASONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def jps_unsuitable(graph: GridGraph, goals: list[int]) -> str:
    """Why JPS cannot plan on this graph ("" when it can): it needs uniform costs, 8 neighbours,
    no corner cutting and a single goal. Checked once per graph (the check reads the whole map)."""
    if len(set(goals)) > 1:
        return "takes one goal"
    if graph not in _JPS_REASONS:
        try:
            prepare(graph)
            _JPS_REASONS[graph] = ""
        except ValueError as e:
            _JPS_REASONS[graph] = f"does not apply ({e})"
    return _JPS_REASONS[graph]


class _Unreachable:
    """The search that was not needed: the goal lies on another island."""

    status, expanded, ms, cost, path, open_count = UNREACHABLE, 0, 0.0, None, None, 0

    def __init__(self) -> None:
        self.trace = Trace()

    def step(self, budget: int = 1) -> str:
        return self.status

    def cancel(self) -> None:
        pass


def _run(job: PlanJob) -> PlanResult:
    while job.step(8192) == RUNNING:
        pass
    return job.result()


def plan(tilemap: TileMap, start: object, goal: object, **options: object) -> PlanResult:
    """Find a path from ``start`` to ``goal`` on ``tilemap``; options as in ``PlanOptions``."""
    return _run(PlanJob(tilemap, start, goal, PlanOptions.from_dict(options)))


def nearest(tilemap: TileMap, start: object, targets: object, **options: object) -> PlanResult:
    """A path to whichever of ``targets`` is cheapest to reach (Dijkstra unless told otherwise)."""
    options.setdefault("method", "dijkstra")
    return _run(PlanJob(tilemap, start, targets, PlanOptions.from_dict(options), targets=True))
