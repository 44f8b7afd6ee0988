"""What the turning stage does with a found tile path: the turning part of a plan's options."""

from __future__ import annotations

from dataclasses import dataclass

from ..outcomes import BadInput
from .art import ART_DIRECTIONS
from .methods import TURN_METHODS


@dataclass(frozen=True)
class TurningOptions:
    """method: None (the tile path only) or one of ``TURN_METHODS``: "smooth" (Pinter's
    Listing 1), "ignore" (curves, walls not checked: ``legal`` says the truth), "recalculate",
    "tighter" (slows before tight turns) or "backup" (three-point turns).
    art: None, 8 or 16: redraw the curved path in fixed-angle segments (Figures 14-15).
    max_recalcs: the re-searches "recalculate" may run (20: enough for every map we tried,
    few enough that a hopeless query ends in well under a second)."""

    method: str | None = None
    art: int | None = None
    max_recalcs: int = 20

    def __post_init__(self) -> None:
        if self.method is not None and self.method not in TURN_METHODS:
            raise BadInput(f"turning must be one of {', '.join(TURN_METHODS)} or null, got {self.method!r}",
                           "turning")
        if self.art is not None and (isinstance(self.art, bool) or self.art not in ART_DIRECTIONS):
            raise BadInput(f"art must be 8, 16 or null, got {self.art!r}", "art")
        if self.art is not None and self.method is None:
            raise BadInput("art redraws a curved path: give a turning method too", "art")
        m = self.max_recalcs
        if isinstance(m, bool) or not isinstance(m, int) or not 0 <= m <= 1000:
            raise BadInput(f"max_recalcs must be an integer from 0 to 1000, got {m!r}", "max_recalcs")
