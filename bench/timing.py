"""Per-call timing for the benchmark modules (dependency-free, so it also runs in Pyodide)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_us(fn: Callable[[], object], calls: int, repeats: int) -> float:
    """Median over ``repeats`` of the mean microseconds per call of ``calls`` calls of ``fn``."""
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - t0) / calls)
    return statistics.median(samples) * 1e6
