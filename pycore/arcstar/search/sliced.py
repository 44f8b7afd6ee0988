"""Work done a slice at a time, as generators: each yields the work it has done since it last
yielded (in its own units: search expansions, tiles swept, configurations) and returns its
result, so a caller can stop after a budget of work and go on later (a game tick's worth), and
the same work gives the same result however it is sliced."""

from __future__ import annotations

from collections.abc import Generator
from typing import TypeVar

T = TypeVar("T")

#: Work that yields the units of work done since it last yielded and returns a ``T``.
Sliced = Generator[int, None, T]


def run_to_end(work: Sliced[T]) -> T:
    """Do all of ``work`` at once and return its result."""
    while True:
        try:
            next(work)
        except StopIteration as done:
            return done.value
