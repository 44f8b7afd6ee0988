"""How a search walks and what it may spend: the search part of a plan's options.

Defaults are Lester's A*: 8 neighbours without corner cutting, 10/14 step costs, the graph's
own heuristic choice left to the method, stop when the goal is closed, no budget, a binary heap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..outcomes import BadInput, shown
from .abstract_graph import DEFAULT_CLUSTER, check_cluster_size
from .engine import STOP_RULES
from .grid import COST_MODELS, DIAGONAL_POLICIES, GridOptions
from .openlists import OPEN_LISTS


def check_number(value: object, name: str, low: float = 0.0, strict: bool = False) -> float:
    """A finite real number >= ``low`` (> ``low`` when ``strict``); ``BadInput`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or value < low or (strict and value == low):
        bound = f"> {low:g}" if strict else f">= {low:g}"
        raise BadInput(f"{name} must be a finite number {bound}, got {shown(value)}", name)
    return float(value)


@dataclass(frozen=True)
class SearchOptions:
    """The search's settings.

    neighbours: 4 or 8. diagonal: "never", "both" (no corner cutting; the default), "either",
        "always". costs: "lester" (10 straight, 14 diagonal) or "octile" (1, sqrt 2). These three
        apply to square grids (``grid.GridOptions``); hex and waypoint graphs have their own steps.
    heuristic: a name the graph offers, or None for the method's default.
    weight: heuristic multiplier (>= 0; above 1 is weighted A*: faster, at most ``weight`` times
        the least cost). stop: "closed" (optimal) or "reached" (Lester's faster rule).
    max_expansions: the total budget in expanded nodes, the turning stage's re-searches
        included (None: no limit); past it the plan ends ``budget_exhausted``.
    trace: record what the lab draws. open_list: "heap" or "unsorted" (Pinter's matrix list).
    turn_penalty: cost per change of direction (square grids; smoother, not least-cost).
    cluster_size: the hierarchical method's cluster side, in tiles.
    """

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
    cluster_size: int = DEFAULT_CLUSTER

    def __post_init__(self) -> None:
        if isinstance(self.neighbours, bool) or self.neighbours not in (4, 8):
            raise BadInput(f"neighbours must be 4 or 8, got {self.neighbours!r}", "neighbours")
        if self.diagonal not in DIAGONAL_POLICIES:
            raise BadInput(f"diagonal must be one of {', '.join(DIAGONAL_POLICIES)}, got {self.diagonal!r}",
                           "diagonal")
        if self.costs not in COST_MODELS:
            raise BadInput(f"costs must be one of {', '.join(COST_MODELS)}, got {self.costs!r}", "costs")
        if self.heuristic is not None and not isinstance(self.heuristic, str):
            raise BadInput(f"heuristic must be a name or null, got {self.heuristic!r}", "heuristic")
        check_number(self.weight, "weight")
        if self.stop not in STOP_RULES:
            raise BadInput(f"stop must be one of {', '.join(STOP_RULES)}, got {self.stop!r}", "stop")
        m = self.max_expansions
        if m is not None and (isinstance(m, bool) or not isinstance(m, int) or m < 1):
            raise BadInput(f"max_expansions must be a positive integer or null, got {m!r}", "max_expansions")
        if not isinstance(self.trace, bool):
            raise BadInput(f"trace must be true or false, got {self.trace!r}", "trace")
        if self.open_list not in OPEN_LISTS:
            raise BadInput(f"open_list must be one of {', '.join(OPEN_LISTS)}, got {self.open_list!r}",
                           "open_list")
        check_number(self.turn_penalty, "turn_penalty")
        try:
            check_cluster_size(self.cluster_size)
        except ValueError as e:
            raise BadInput(str(e), "cluster_size") from None

    @property
    def grid(self) -> GridOptions:
        """How a square grid is walked."""
        return GridOptions(self.neighbours, self.diagonal, self.costs)
