"""The method registry: every planning method, what builds it, what it accepts, what it
guarantees. The one place the planner, the CLI, the service's ``info`` and the lab read.

A method is built over a graph (squares, hexes, waypoints). Where a fast method does not apply
(JPS on weighted terrain, say) the planner plans with the methodical one and says so; where an
option makes no sense for a method (a unit width for a point-only search) it is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

from ..outcomes import BadInput
from ..search.engine import AStar
from ..search.graph import Graph
from ..search.grid import GridGraph
from ..search.hierarchical import HierarchicalAStar
from ..search.jps import JPS, JPSPlus
from ..search.jps_prep import jps_unsuitable
from ..search.openlists import OPEN_LISTS
from ..search.options import SearchOptions


class Optimality(StrEnum):
    """What a method promises about the cost of the path it finds."""

    ALWAYS = "always"           # least cost whatever the heuristic (Dijkstra)
    ADMISSIBLE = "admissible"   # least cost with an admissible heuristic, stop "closed", no turn penalty
    BOUNDED = "bounded"         # within a stated factor of the least cost (hierarchical)
    NONE = "none"               # no promise about cost: a fast, informal method (the hybrid)


@dataclass(frozen=True)
class Query:
    """One search to build: the graph and its node ids, the options, and the map (for methods
    that read it: the hierarchical search's clusters)."""

    graph: Graph
    start: int
    goals: list[int]
    method: str
    search: SearchOptions
    heuristic: str
    tilemap: Any = None


@dataclass(frozen=True)
class Built:
    """A search ready to step, the method that actually runs, and why it differs if it does."""

    search: Any
    method: str
    note: str = ""


@dataclass(frozen=True)
class MethodSpec:
    """A planning method.

    graphs: the graph kinds it runs on ("grid", "hex", "waypoint"). point_only: it plans for a
    point unit (no width, no turning stage). open_lists / turn_penalty / terrain / heuristic:
    whether the choice is open to the user. neighbours, diagonal: the grid rules it applies to
    (elsewhere the planner falls back to A* and says so). bound: the cost factor for BOUNDED.
    """

    name: str
    label: str
    summary: str
    build: Callable[[Query], Built]
    optimality: Optimality
    graphs: tuple[str, ...] = ("grid",)
    point_only: bool = False
    open_lists: tuple[str, ...] = OPEN_LISTS
    turn_penalty: bool = True
    terrain: bool = True
    heuristic: bool = True
    default_heuristic: str | None = None
    neighbours: tuple[int, ...] = (4, 8)
    diagonal: tuple[str, ...] | None = None
    bound: float | None = None
    note: str = ""
    directional: bool = False

    def check(self, s: SearchOptions, width: float | None, turning: str | None) -> None:
        """Refuse what this method cannot do, naming the option."""
        if self.point_only and (width is not None or turning is not None):
            field_name = "width" if width is not None else "turning"
            raise BadInput(f"{self.name} plans for a point unit: use astar or dijkstra for a unit width "
                           "or a turning method", field_name)
        if s.open_list not in self.open_lists:
            raise BadInput(f"{self.name} keeps its own open list: open_list must be "
                           f"{' or '.join(repr(o) for o in self.open_lists)}", "open_list")
        if s.turn_penalty and not self.turn_penalty:
            raise BadInput(f"{self.name} charges no turns: turn_penalty must be 0", "turn_penalty")
        if self.directional and turning is not None:
            raise BadInput(f"{self.name} plans legal curves itself: no turning method", "turning")

    def optimal(self, search: SearchOptions, admissible: bool) -> bool:
        """Whether a plan with these search options is guaranteed least-cost, given whether its
        heuristic (at its weight) is admissible on the graph."""
        if self.optimality is Optimality.ALWAYS:
            return True
        return self.optimality is Optimality.ADMISSIBLE and admissible and search.stop == "closed" \
            and not search.turn_penalty

    def to_json(self) -> dict[str, Any]:
        """What the lab greys out and explains (the service's ``info.limits``)."""
        out: dict[str, Any] = {"label": self.label, "summary": self.summary, "graphs": list(self.graphs),
                               "open_lists": list(self.open_lists), "turn_penalty": self.turn_penalty,
                               "width": not self.point_only, "terrain": self.terrain,
                               "neighbours": list(self.neighbours), "heuristic": self.heuristic,
                               "optimal": self.optimality.value, "directional": self.directional}
        if self.diagonal is not None:
            out["diagonal"] = list(self.diagonal)
        if self.bound is not None:
            out["bound"] = self.bound
        if self.note:
            out["note"] = self.note
        return out


def _engine_kwargs(q: Query) -> dict[str, Any]:
    s = q.search
    return {"heuristic": q.heuristic, "weight": s.weight, "stop": s.stop,
            "max_expansions": s.max_expansions, "trace": s.trace, "open_list": s.open_list,
            "turn_penalty": s.turn_penalty}


def _astar(q: Query) -> Built:
    return Built(AStar(q.graph, q.start, q.goals, **_engine_kwargs(q)), q.method)


def _jump(engine: type) -> Callable[[Query], Built]:
    def build(q: Query) -> Built:
        reason = "plans on square grids only" if not isinstance(q.graph, GridGraph) \
            else jps_unsuitable(q.graph, q.goals)
        if reason:  # the fast method does not apply here: the methodical one does, and we say so
            return Built(AStar(q.graph, q.start, q.goals, **_engine_kwargs(q)), "astar",
                         f"{q.method} {reason}: planned with astar instead")
        return Built(engine(q.graph, q.start, q.goals, **_engine_kwargs(q)), q.method)
    return build


def _planned_by_job(q: Query) -> Built:  # pragma: no cover - the job builds directional runs itself
    raise NotImplementedError("directional methods are built by PlanJob")


def _hpa(q: Query) -> Built:
    s = q.search
    graph = cast(GridGraph, q.graph)  # hpa runs on square grids only (its spec's graphs; the engine checks)
    return Built(HierarchicalAStar(q.tilemap, graph, q.start, q.goals, cluster_size=s.cluster_size,
                                   max_expansions=s.max_expansions, trace=s.trace), "hpa")


_JUMP = {"point_only": True, "open_lists": ("heap",), "turn_penalty": False, "terrain": False,
         "neighbours": (8,), "diagonal": ("both",), "default_heuristic": "octile",
         "note": "uniform terrain only; elsewhere the planner uses astar and says so"}

METHODS: dict[str, MethodSpec] = {spec.name: spec for spec in (
    MethodSpec("astar", "A*", "A*: best-first on G + H; optimal with an admissible heuristic.", _astar,
               Optimality.ADMISSIBLE, graphs=("grid", "hex", "waypoint"), default_heuristic="manhattan"),
    MethodSpec("dijkstra", "Dijkstra", "Dijkstra: A* with H = 0; always least-cost, expands the most.", _astar,
               Optimality.ALWAYS, graphs=("grid", "hex", "waypoint"), heuristic=False),
    MethodSpec("jps", "JPS", "Jump Point Search: A* that jumps over symmetric paths on uniform grids.",
               _jump(JPS), Optimality.ADMISSIBLE, **_JUMP),  # type: ignore[arg-type]
    MethodSpec("jpsplus", "JPS+", "JPS+: Jump Point Search with precomputed jump distances.",
               _jump(JPSPlus), Optimality.ADMISSIBLE, **_JUMP),  # type: ignore[arg-type]
    MethodSpec("hpa", "HPA*", "HPA*: plans over clusters and their entrances, then refines.", _hpa,
               Optimality.BOUNDED, point_only=True, open_lists=("heap",), turn_penalty=False,
               heuristic=False, bound=1.4, note="octile A* on two levels; paths at most 40% longer than optimal"),
    *(MethodSpec(f"directional{n}", f"Directional-{n}",
                 f"Pinter's Directional A*: (tile, heading) states, curves to the tiles {reach} away, "
                 "legal for the unit's width and turning radius by construction.", _planned_by_job,
                 Optimality.ADMISSIBLE, open_lists=("heap",), turn_penalty=n != 8, neighbours=(8,),
                 default_heuristic="directional", directional=True,
                 note="least cost over the lattice's moves; the start faces its heading (default east)"
                      + ("; turn_penalty: cost per radian turned" if n != 8 else ""))
      for n, reach in ((8, 1), (24, 2), (48, 3))),
    MethodSpec("hybrid", "Hybrid", "Pinter's hybrid: 4-neighbour A*, Smoothing48 both ways, Directional-8 between "
               "the failure points, simple smoothing; Directional-24 when that fails.", _planned_by_job,
               Optimality.NONE, open_lists=("heap",), turn_penalty=False, neighbours=(4,),
               default_heuristic="directional", directional=True,
               note="legal for the unit's width and turning radius; fast, not least-cost; the result's method "
                    "says whether the hybrid or its Directional-24 fallback made the path"),
)}
