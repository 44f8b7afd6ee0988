"""Layer 8, the world: units in motion on a tile map, in fixed ticks, deterministic for a seed.

``UnitSpec`` (and the ``Kind`` presets) says what a unit is, ``Mover`` drives one planned path
with a speed profile, ``Order`` and ``plan_route`` turn orders into routes, ``World`` steps
them all, and ``load_scenario`` / ``run_scenario`` read and run a scenario file (the CLI's
``world`` command). Avoidance (``Avoidance``): ``none``, ``pinter`` and ``claimed`` (``methods``,
over ``spacing`` and ``avoidance``), ``cooperative`` (``coordinated``); fog of war (``fog``).
``presets`` holds the proof scenarios.
"""

from .events import EventKind, WorldEvent
from .motion import Mover
from .orders import Order, OrderKind, Route, plan_route
from .scenario import MAX_CHARS as MAX_SCENARIO_BYTES
from .scenario import Scenario, load_scenario, read_scenario, run_scenario
from .state import UnitState, UnitStatus
from .units import KIND_PRESETS, PLAN_METHODS, Avoidance, Kind, UnitSpec, unit_of_kind
from .world import DT, World

__all__ = ["DT", "KIND_PRESETS", "MAX_SCENARIO_BYTES", "PLAN_METHODS", "Avoidance", "EventKind", "Kind", "Mover",
           "Order", "OrderKind", "Route", "Scenario", "UnitSpec", "UnitState", "UnitStatus", "World", "WorldEvent",
           "load_scenario", "plan_route", "read_scenario", "run_scenario", "unit_of_kind"]
