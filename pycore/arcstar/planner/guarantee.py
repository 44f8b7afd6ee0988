"""What a set of plan options guarantees: a least-cost path, a path legal for the unit, and
the same in words (what the lab shows beside its settings)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..directional.heuristic import TABLE_REACH
from ..search.graph import Graph
from ..search.heuristics import admissible as grid_admissible
from .options import PlanOptions
from .registry import Optimality


@dataclass(frozen=True)
class Guarantee:
    """What a set of options promises: a least-cost path (optimal), a path legal for the unit
    (legal: None when no turning stage checks it), and the same in words."""

    optimal: bool
    legal: bool | None
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"optimal": self.optimal, "legal": self.legal, "text": self.text}


def guarantee(options: PlanOptions, graph: Graph | None = None) -> Guarantee:
    """What ``options`` guarantee (on ``graph`` when given; a square grid otherwise): the same
    verdict a plan with them reports as ``optimal``, and why in words."""
    spec, s = options.spec, options.search
    heuristic = options.heuristic_on(graph) if graph is not None else (
        "none" if options.method == "dijkstra" else s.heuristic or spec.default_heuristic or "octile")

    def admissible(weight: float) -> bool:
        return graph.admissible(heuristic, weight) if graph is not None else grid_admissible(heuristic, s.grid, weight)

    if spec.directional:
        return _directional(options)
    optimal = spec.optimal(s, admissible(s.weight))
    if spec.optimality is Optimality.ALWAYS or (spec.optimality is Optimality.ADMISSIBLE and heuristic == "none"):
        text = "Dijkstra: no heuristic (H = 0), so it spreads out evenly; always a least-cost path, but it " \
               "expands the most tiles."
    elif spec.optimality is Optimality.NONE:
        text = f"{spec.summary} Fast and legal for the unit, but not least-cost."
    elif spec.optimality is Optimality.BOUNDED:
        text = f"{spec.summary} Paths at most {spec.bound:g} x the least cost."
    elif admissible(1.0):
        text = (f"{spec.label} with the {heuristic} heuristic never overestimates here: it always finds a "
                "least-cost path.")
    else:
        text = (f"{heuristic.capitalize()} with diagonals overestimates: fast, but {spec.label} may not find the "
                "shortest path (Lester's choice).")
    if options.method != "dijkstra" and s.weight > 1:
        text += f" Weight {s.weight:g}: fewer expansions; the cost found is at most {s.weight:g} x the least."
    if s.stop == "reached":
        text += " Stopping when the goal is first reached (not closed) may miss the shortest path."
    if s.turn_penalty > 0:
        text += " A turn penalty trades cost for fewer turns: not least-cost."
    legal: bool | None = None
    t = options.turning.method
    if t is not None:
        legal = False  # the basic methods patch an A* path and may fail: each result says if it is legal
        text += (" The turning stage checks the unit's body exactly; every result says whether its path is legal."
                 if t != "ignore" else " Turns ignore walls: the result says where the body would overlap one.")
    return Guarantee(optimal, legal, text)


def _directional(options: PlanOptions) -> Guarantee:
    """Directional-8/24/48 and the hybrid: every move is a curve the unit can drive, checked
    exactly, so a path is legal by construction; Directional-N is least-cost over its lattice
    (with weight 1, the "closed" stop rule and its own heuristic), the hybrid is not."""
    spec, s = options.spec, options.search
    legal_words = "every move is a curve the unit can drive, checked exactly against the walls: legal by construction."
    if spec.optimality is Optimality.NONE:
        return Guarantee(False, True, f"{spec.summary} Fast and legal for the unit, but not least-cost.")
    optimal = s.weight <= 1.0 and s.stop == "closed"
    text = f"{spec.label}: (tile, heading) states; {legal_words}"
    if optimal:
        text += (f" Least cost over the lattice's moves within {TABLE_REACH} tiles of the goal; across a larger map "
                 "nearly so (each result says whether it is sure).")
    if s.weight > 1:
        text += f" Weight {s.weight:g}: fewer expansions; the cost found is at most {s.weight:g} x the least."
    if s.stop == "reached":
        text += " Stopping when the goal is first reached (not closed) may miss the least-cost path."
    if s.turn_penalty > 0:
        text += " Turns cost extra (turn_penalty per radian): the least cost counts them."
    return Guarantee(optimal, True, text)
