"""Layer 7, the planner: the one front door, ``plan(map, start, goal, **options)``.

It checks the input (``outcomes.BadInput`` naming the field), picks the method from the
registry, runs the search and then the turning stage in slices (``PlanJob``), and returns a
``PlanResult`` with a typed ``Status``.
"""

from .guarantee import Guarantee, guarantee
from .job import PlanJob, Stage, nearest, plan, run
from .options import FLAT_FIELDS, PlanOptions
from .registry import METHODS, MethodSpec, Optimality
from .result import PlanResult
from .roads import plan_on_road
from .sites import check_tile, split_heading

__all__ = ["FLAT_FIELDS", "METHODS", "Guarantee", "MethodSpec", "Optimality", "PlanJob", "PlanOptions", "PlanResult",
           "Stage", "check_tile", "guarantee", "nearest", "plan", "plan_on_road", "run", "split_heading"]
