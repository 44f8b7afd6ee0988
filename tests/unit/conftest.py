"""Shared fixtures for the core's unit tests (CPython and Pyodide alike)."""

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
CORE = HERE.parents[1] / "pycore"
if CORE.is_dir() and str(CORE) not in sys.path:
    sys.path.insert(0, str(CORE))


def benchmarks_dir() -> Path | None:
    """The shared Moving AI benchmark folder (beside the repo), or ARCSTAR_BENCHMARKS."""
    env = os.environ.get("ARCSTAR_BENCHMARKS")
    candidates = [Path(env)] if env else []
    candidates.append(HERE.parents[2] / "shared" / "benchmarks" / "movingai")
    for c in candidates:
        if (c / "maps").is_dir():
            return c
    return None
