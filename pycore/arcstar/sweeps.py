"""Scenario sweeps: every problem of Moving AI ``.map``/``.scen`` pairs, run serially or in
parallel on Dask (a local cluster of processes, or a scheduler's workers on other machines).

Both ways cut the problems into the same chunks and run each chunk with the same function
(``run_chunk``), so a Dask sweep gives the same rows as a serial one (only ``ms``, a measured
time, differs). Dask is an optional extra (``pip install arcstar[dask]``): it is imported only
when a sweep asks for it, so the core imports and runs without it (in Pyodide too).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from .maps.mapio import load_text, parse_scen, read_text_file
from .maps.tilemap import TileMap
from .outcomes import BadInput
from .planner import plan

#: Problems per task: big enough that a task outweighs its scheduling, small enough to balance.
CHUNK = 64
#: Workers of the local cluster that ``run_dask`` starts when given no scheduler.
LOCAL_WORKERS = 2
#: The most processes a local cluster may start (more is a typo, not a wish).
MAX_LOCAL_WORKERS = 64
#: How long to wait for a scheduler to answer, seconds.
CONNECT_TIMEOUT_S = 20
INSTALL_HINT = "pip install 'arcstar[dask]' (it installs dask and distributed)"


class ScenRow(TypedDict):
    """One problem's result: its id in the file, the file's optimum, what the search found."""

    id: int
    optimal: float
    cost: float | None
    expanded: int
    ms: float


class SweepError(RuntimeError):
    """A Dask sweep that could not run or finish (the cluster, not the input, is at fault)."""


@dataclass(frozen=True)
class Pair:
    """A map file and a scenario file on it, read and checked (the texts travel to the workers)."""

    map_path: str
    scen_path: str
    map_text: str
    scen_text: str
    count: int  # problems to run (the first ``count`` of the file)

    @property
    def two_decimals(self) -> bool:
        """Version 1.0 files give optima to two decimals only (the check allows for that)."""
        return self.scen_text.lower().startswith("version 1.0")


@dataclass(frozen=True)
class FileResult:
    """The rows of one pair, in the file's order, and those whose cost is not the optimum."""

    map_path: str
    scen_path: str
    rows: list[ScenRow]
    wrong: list[ScenRow]


def read_pairs(paths: Sequence[str], first: int | None = None) -> list[Pair]:
    """MAP SCEN [MAP SCEN ...] read and checked here, before any work is sent anywhere."""
    if not paths or len(paths) % 2:
        raise BadInput(f"give map and scenario files in pairs (MAP SCEN [MAP SCEN ...]), got {len(paths)} "
                       "file(s)", "files")
    if first is not None and first < 1:
        raise BadInput("--first must be a positive integer", "first")
    pairs = []
    for map_path, scen_path in zip(paths[::2], paths[1::2], strict=True):
        map_text = read_text_file(map_path)
        scen_text = read_text_file(scen_path, "scenario file")
        count = len(parse_scen(scen_text, load_text(map_text).map))  # raises BadInput naming the fault
        pairs.append(Pair(map_path, scen_path, map_text, scen_text, count if first is None else min(first, count)))
    return pairs


@functools.lru_cache(maxsize=4)
def _problems(map_text: str, scen_text: str) -> tuple[TileMap, list[Any]]:
    """The map and the scenario's problems, parsed once per process (a worker runs many chunks)."""
    tilemap = load_text(map_text).map
    return tilemap, parse_scen(scen_text, tilemap)


def run_chunk(map_text: str, scen_text: str, lo: int, hi: int, algorithm: str) -> list[ScenRow]:
    """Problems ``lo`` to ``hi - 1`` of a scenario under the benchmark's rules (8 neighbours, no
    corner cutting, octile costs and heuristic). A module-level function: Dask pickles it by name."""
    tilemap, scens = _problems(map_text, scen_text)
    rows: list[ScenRow] = []
    for s in scens[lo:hi]:
        r = plan(tilemap, s.start, s.goal, method=algorithm, costs="octile", heuristic="octile")
        rows.append({"id": s.id, "optimal": s.optimal, "cost": r.cost, "expanded": r.expanded,
                     "ms": round(r.ms, 3)})
    return rows


def chunks(pair: Pair) -> list[tuple[int, int]]:
    """The [lo, hi) ranges a pair's problems are cut into."""
    return [(lo, min(lo + CHUNK, pair.count)) for lo in range(0, pair.count, CHUNK)]


def not_optimal(pair: Pair, rows: list[ScenRow]) -> list[ScenRow]:
    """The rows whose cost is missing or differs from the file's optimum (beyond its rounding)."""
    return [row for row in rows if row["cost"] is None or abs(row["cost"] - row["optimal"])
            > max(1e-6 * row["optimal"], 0.005 if pair.two_decimals else 5e-6 * row["optimal"])]


def _result(pair: Pair, parts: list[list[ScenRow]]) -> FileResult:
    rows = [row for part in parts for row in part]
    return FileResult(pair.map_path, pair.scen_path, rows, not_optimal(pair, rows))


def run_serial(pairs: Sequence[Pair], algorithm: str) -> list[FileResult]:
    """Every pair's problems, here, one chunk after another."""
    return [_result(p, [run_chunk(p.map_text, p.scen_text, lo, hi, algorithm) for lo, hi in chunks(p)])
            for p in pairs]


def _client(scheduler: str | None, workers: int, timeout: float) -> tuple[Any, Any]:
    """(client, cluster or None): a client of the scheduler at ``scheduler`` (waiting at most
    ``timeout`` seconds for it), or of a local cluster of ``workers`` processes started here."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise BadInput(f"sweeps on Dask need dask and distributed, which are not installed: {INSTALL_HINT}",
                       "dask") from None
    if scheduler is not None:
        if not 0 < timeout <= 3600:  # NaN fails too
            raise BadInput(f"--timeout must be between 0 and 3600 seconds, got {timeout}", "timeout")
        try:
            return Client(scheduler, timeout=timeout), None
        except (OSError, ValueError, TypeError) as e:  # unreachable, refused, a malformed address
            raise BadInput(f"cannot reach the Dask scheduler at {scheduler!r}: {e}", "scheduler") from None
    if not 1 <= workers <= MAX_LOCAL_WORKERS:
        raise BadInput(f"--workers must be 1 to {MAX_LOCAL_WORKERS}, got {workers}", "workers")
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           dashboard_address=None)
    return Client(cluster), cluster


def run_dask(pairs: Sequence[Pair], algorithm: str, scheduler: str | None = None,
             workers: int = LOCAL_WORKERS, timeout: float = CONNECT_TIMEOUT_S) -> list[FileResult]:
    """Every pair's problems on Dask, one task per chunk; the same rows as ``run_serial``.

    The files' texts are read here and scattered once each, so the workers need arcstar (and
    numpy) but not the files."""
    client, cluster = _client(scheduler, workers, timeout)
    try:
        futures = []
        for p in pairs:
            map_text, scen_text = client.scatter([p.map_text, p.scen_text])
            futures.append([client.submit(run_chunk, map_text, scen_text, lo, hi, algorithm, pure=False)
                            for lo, hi in chunks(p)])
        try:
            parts = client.gather(futures)
        except Exception as e:  # a worker died or lacks arcstar: say so, not a traceback
            raise SweepError(f"the Dask sweep failed on a worker: {type(e).__name__}: {e}") from e
        return [_result(p, part) for p, part in zip(pairs, parts, strict=True)]
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
