"""What a plan returns: a typed status, the path, and how it was got."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..geometry.primitives import Path
from ..outcomes import Status


@dataclass
class PlanResult:
    """The outcome of a plan (a partial result too: Detour's model).

    status: a ``Status``: found, not_legal (a path was found and curved, but the unit's body
        overlaps a wall on it: ``blocked`` says where, the message why; the path is kept, as
        Pinter's "ignore blockers" method wants), no_path, unreachable (another island: no search
        ran), budget_exhausted, cancelled.
    path: tiles (x, y) from start to goal on a square grid, axial (q, r) cells on a hex grid,
        node ids on a waypoint graph; cost in the graph's units (10/14 for Lester's squares);
        length: geometric length (tiles, hex steps, or along the waypoints' edges).
    optimal: whether the method guarantees the least cost for this query.
    stage: where the plan ended: "search" or "turning" (a budget or a cancel can end either).
    With a turning method: segments (lines and arcs), legal (the exact swept-disc verdict),
    turns, waypoints, speed_limits ((from, to, factor) along the path), blocked (stretches
    (from, to) along the path where the body overlaps a wall; empty when legal) and searches
    (A* runs behind the result, the first included). stages: what the hybrid's steps found
    (``HybridSearch.stages()``: the A* tiles, the Smoothing48 passes with their failure points,
    the patch's ends), for drawing; None for every other method.
    """

    status: Status
    path: list[Any] = field(default_factory=list)
    cost: float | None = None
    length: float = 0.0
    expanded: int = 0
    ms: float = 0.0
    optimal: bool = False
    message: str = ""
    method: str = ""
    trace: object | None = None
    stage: str = "search"
    segments: Path | None = None
    legal: bool | None = None
    turns: int = 0
    waypoints: list = field(default_factory=list)
    speed_limits: list = field(default_factory=list)
    blocked: list = field(default_factory=list)
    searches: int = 1
    stages: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe dict (no trace; the service adds what the lab needs)."""
        out: dict[str, Any] = {
            "status": self.status.value, "path": [list(p) if isinstance(p, tuple) else p for p in self.path],
            "cost": self.cost, "length": self.length, "expanded": self.expanded, "ms": round(self.ms, 3),
            "optimal": self.optimal, "message": self.message, "method": self.method, "stage": self.stage}
        if self.stages is not None:
            out["stages"] = self.stages
        if self.segments is not None:
            out.update({"segments": self.segments.to_json()["segments"], "legal": self.legal, "turns": self.turns,
                        "segments_length": self.segments.length,
                        "waypoints": [list(p) for p in self.waypoints],
                        "speed_limits": [list(v) for v in self.speed_limits],
                        "blocked": [list(v) for v in self.blocked], "searches": self.searches})
        return out
