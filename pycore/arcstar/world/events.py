"""What avoidance and fog did, as events the lab draws as markers."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class EventKind(StrEnum):
    """What avoidance did, for the lab's collision markers: ``replan`` around claimed tiles,
    ``wait`` for another unit to clear, ``yield`` (stop to let another pass), ``backup`` (back
    away to a refuge), ``make_way`` (an idle unit steps aside), ``discover`` (fog: walls seen),
    ``jam`` (units handed to a cooperative plan to untangle them)."""

    REPLAN = "replan"
    WAIT = "wait"
    YIELD = "yield"
    BACKUP = "backup"
    MAKE_WAY = "make_way"
    DISCOVER = "discover"
    JAM = "jam"


@dataclass(frozen=True)
class WorldEvent:
    """Something avoidance or fog did: when (s), which unit, what, and where (tiles)."""

    t: float
    unit: str
    kind: EventKind
    x: float
    y: float
