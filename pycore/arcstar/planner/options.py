"""A plan's options, in the parts they belong to: the method, the search, the unit, the costs
and the turning stage.

``PlanOptions.from_dict`` takes the flat form the worker protocol, the CLI and ``plan(**options)``
use (``{"method": "astar", "width": 1.5, "turning": "tighter", ...}``) and splits it; every part
checks its own fields and names the bad one (``BadInput.field``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any

from ..collision.unit import Unit
from ..maps.costs import CostProfile
from ..outcomes import BadInput
from ..search.graph import Graph
from ..search.options import SearchOptions
from ..turning.options import TurningOptions
from .registry import METHODS, MethodSpec

SEARCH_FIELDS = tuple(f.name for f in fields(SearchOptions))
UNIT_FIELDS = ("width", "radius", "can_reverse")
TURNING_FIELDS = {"turning": "method", "art": "art", "max_recalcs": "max_recalcs"}
COST_FIELDS = ("terrain_costs",)
_KNOWN: dict[tuple[tuple[str, type, object, float], ...], PlanOptions] = {}
_KNOWN_KEEP = 64  # option sets remembered (a game uses a handful)
_PLAIN = (str, int, float, bool, type(None))
PRESET_FIELDS = ("people",)
FLAT_FIELDS = ("method", *SEARCH_FIELDS, *UNIT_FIELDS, *TURNING_FIELDS, *COST_FIELDS, *PRESET_FIELDS)
#: The people option (Pinter: "set a very tight turning radius and do a Directional search while
#: penalizing significantly for turns"), for units that slow down to turn tighter instead of
#: keeping one radius. Radius: half a tile, so a person turns round within its own tile. Turn
#: penalty: 0.5 cost units (tiles of ground) per radian, about the distance a walker going 1 tile
#: per second loses while its heading swings at 1 rad/s at half speed (walking turns run at 1-2
#: rad/s and roughly halve the speed): a right-angle turn costs about 0.8 tiles, so a detour
#: shorter than that is taken to avoid it, and a tight turn still wins over a long way round.
#: Given values of radius or turn_penalty win over these.
PEOPLE_RADIUS = 0.5
PEOPLE_TURN_PENALTY = 0.5
PEOPLE_METHODS = ("directional24", "directional48")


@dataclass(frozen=True)
class PlanOptions:
    """Everything that shapes a plan; the defaults are Lester's A* for a point unit.

    method: a name in ``registry.METHODS`` ("astar", "dijkstra", "jps", "jpsplus", "hpa").
    search: ``SearchOptions``; unit: ``Unit`` (width, turning radius, reversing); costs:
    ``CostProfile`` (per-query terrain costs and influence); turning: ``TurningOptions``.
    With a turning method and no width the unit is 1 tile wide.
    """

    method: str = "astar"
    search: SearchOptions = field(default_factory=SearchOptions)
    unit: Unit = field(default_factory=Unit)
    costs: CostProfile = field(default_factory=CostProfile)
    turning: TurningOptions = field(default_factory=TurningOptions)

    def __post_init__(self) -> None:
        if not isinstance(self.method, str) or self.method not in METHODS:
            raise BadInput(f"method must be one of {', '.join(METHODS)}, got {self.method!r}", "method")
        for name, kind in (("search", SearchOptions), ("unit", Unit), ("costs", CostProfile),
                           ("turning", TurningOptions)):
            if not isinstance(getattr(self, name), kind):
                raise BadInput(f"{name} must be a {kind.__name__}", name)
        self.spec.check(self.search, self.unit.width, self.turning.method)

    @property
    def spec(self) -> MethodSpec:
        return METHODS[self.method]

    @property
    def unit_width(self) -> float | None:
        """The width the search plans for: the unit's, or 1 tile when turning needs one."""
        if self.unit.width is None and self.turning.method is not None:
            return 1.0
        return None if self.unit.width is None else float(self.unit.width)

    def heuristic_on(self, graph: Graph) -> str:
        """The heuristic asked for, else the method's default where the graph offers it, else
        the graph's own default ("none" for Dijkstra)."""
        if self.method == "dijkstra":
            return "none"
        if self.search.heuristic is not None:
            return self.search.heuristic
        default = self.spec.default_heuristic
        return default if default in graph.heuristics else graph.default_heuristic

    @classmethod
    def from_dict(cls, raw: Any) -> PlanOptions:
        """Options from the flat JSON-like form; unknown keys are an error, not ignored.
        ``people: true`` (directional24/48) fills in ``PEOPLE_RADIUS`` and
        ``PEOPLE_TURN_PENALTY`` where radius and turn_penalty are not given.

        Remembered when every value is a plain str, number, bool or None: a game plans with a
        few option sets over and over, and each is then checked once (the options are frozen,
        so one object serves every plan that asks for them)."""
        if not isinstance(raw, dict):
            return cls._parse(raw)
        key = tuple((k, v.__class__, v, math.copysign(1.0, v) if isinstance(v, float) else 1.0)
                    for k, v in raw.items())
        if not all(k[1] in _PLAIN for k in key):
            return cls._parse(raw)
        known = _KNOWN.get(key)
        if known is None:
            known = cls._parse(raw)
            if len(_KNOWN) >= _KNOWN_KEEP:
                _KNOWN.clear()
            _KNOWN[key] = known
        return known

    @classmethod
    def _parse(cls, raw: Any) -> PlanOptions:
        if not isinstance(raw, dict):
            raise BadInput(f"options must be an object, got {type(raw).__name__}", "options")
        unknown = sorted(str(k) for k in set(raw) - set(FLAT_FIELDS))
        if unknown:
            raise BadInput(f"unknown option(s): {', '.join(unknown)} (known: {', '.join(sorted(FLAT_FIELDS))})",
                           f"options.{unknown[0]}")
        people = raw.get("people", False)
        if not isinstance(people, bool):
            raise BadInput(f"people must be true or false, got {people!r}", "people")
        if people:
            if raw.get("method") not in PEOPLE_METHODS:
                raise BadInput(f"people plans with {' or '.join(PEOPLE_METHODS)} (a tight radius with a turn "
                               f"penalty), not {raw.get('method', 'astar')}", "people")
            raw = {"radius": PEOPLE_RADIUS, "turn_penalty": PEOPLE_TURN_PENALTY, **raw}
        costs = raw.get("terrain_costs", ())
        if not isinstance(costs, (list, tuple)):
            raise BadInput("terrain_costs must be a list of [code, cost] pairs", "terrain_costs")
        return cls(method=raw.get("method", "astar"),
                   search=SearchOptions(**{k: raw[k] for k in SEARCH_FIELDS if k in raw}),
                   unit=Unit(**{k: raw[k] for k in UNIT_FIELDS if k in raw}),
                   costs=CostProfile(tuple(tuple(p) if isinstance(p, list) else p for p in costs)),
                   turning=TurningOptions(**{v: raw[k] for k, v in TURNING_FIELDS.items() if k in raw}))

    def to_dict(self) -> dict[str, Any]:
        """The flat form (what ``from_dict`` reads), defaults included; no influence array."""
        out: dict[str, Any] = {"method": self.method}
        out.update((k, getattr(self.search, k)) for k in SEARCH_FIELDS)
        out.update((k, getattr(self.unit, k)) for k in UNIT_FIELDS)
        out.update((k, getattr(self.turning, v)) for k, v in TURNING_FIELDS.items())
        out["terrain_costs"] = [list(p) for p in self.costs.terrain]
        return out
