"""What every benchmark section shares: where things are, the run context, tables, a static server.

A section is a function ``section(ctx) -> SectionResult``; ``bench/run.py`` runs the ones asked
for and writes their tables to markdown and JSON. Timings are measured and printed here, never
asserted anywhere.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
# The folder holding the arcstar package that is measured: run.py points it at a snapshot of
# PYCORE_SOURCE (this tree's pycore/, or --pycore) taken when the run starts.
PYCORE = ROOT / "pycore"
PYCORE_SOURCE = ROOT / "pycore"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (the repo's entry point: cache, hashes, server, Chromium)


def data_dir() -> Path | None:
    """The Moving AI benchmark folder: $ARCSTAR_BENCHMARKS, else shared/ beside the repo."""
    return build.benchmarks_source()


cache_dir = build.cache_dir  # the download cache shared with build.py
sha256_of = build.sha256_of


class BenchError(Exception):
    """A section cannot run here; the message says why and what to do."""


def pinned_wheel(file_name: str, spec: str, sha256: str, log) -> Path:
    """A pure-Python wheel from the cache (``bench-wheels/``), downloaded with pip when missing.

    The file must have the pinned sha256; a cached copy that does not is deleted and fetched again.
    """
    folder = cache_dir() / "bench-wheels"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file_name
    if path.is_file():
        if sha256_of(path) == sha256:
            return path
        log(f"cached {file_name} has the wrong sha256; fetching it again")
        path.unlink()
    tmp = folder / f".download-{os.getpid()}"
    tmp.mkdir(exist_ok=True)
    try:
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--python-version",
            "3.12",
            "--implementation",
            "py",
            "--abi",
            "none",
            "--platform",
            "any",
            "-d",
            str(tmp),
            spec,
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        got = tmp / file_name
        if proc.returncode != 0 or not got.is_file():
            raise BenchError(f"could not download {spec} with pip: {proc.stderr.strip()[-300:]}")
        if sha256_of(got) != sha256:
            raise BenchError(f"downloaded {file_name} has sha256 {sha256_of(got)}, expected {sha256}")
        got.replace(path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return path


# --- the run -------------------------------------------------------------------------------------


@dataclass
class Context:
    """What a section gets: the command line's choices and a logger."""

    quick: bool = False
    maps: list[str] | None = None  # None: the section's default
    per_map: int | None = None
    seed: int = 1
    methods: list[str] | None = None
    verbose: bool = True
    old_pycore: Path | None = None  # engine_compare: the old core's folder (--old-pycore)
    old_commit: str | None = None  # or the commit to take it from (--old-commit)
    started: float = field(default_factory=time.perf_counter)

    def log(self, message: str) -> None:
        if self.verbose:
            print(
                f"[{time.perf_counter() - self.started:7.1f} s] {message}",
                file=sys.stderr,
                flush=True,
            )


@dataclass
class Table:
    caption: str
    headers: list[str]
    rows: list[list[object]]

    def markdown(self) -> str:
        def cell(v: object) -> str:
            return "" if v is None else str(v).replace("|", "\\|")

        lines = [
            f"**{self.caption}**",
            "",
            "| " + " | ".join(self.headers) + " |",
            "|" + "|".join("---" for _ in self.headers) + "|",
        ]
        lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in self.rows]
        return "\n".join(lines)


@dataclass
class SectionResult:
    name: str
    title: str
    status: str = "ok"  # ok | skipped | failed
    tables: list[Table] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    data: dict = field(default_factory=dict)
    seconds: float = 0.0
    wrong_answers: int = 0  # arcstar answers that failed a check (cost or path)

    def markdown(self) -> str:
        parts = [f"## {self.title} (`{self.name}`)", ""]
        if self.status != "ok":
            parts += [f"**{self.status}**", ""]
        for t in self.tables:
            parts += [t.markdown(), ""]
        if self.notes:
            parts += [f"- {n}" for n in self.notes] + [""]
        parts.append(f"_section time: {self.seconds:.0f} s_")
        return "\n".join(parts)


def fmt_ms(v: float | None) -> str:
    if v is None:
        return "-"
    if v >= 100:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}"
    if v >= 1:
        return f"{v:.2f}"
    return f"{v:.3f}"


def fmt_num(v: float | None) -> str:
    if v is None:
        return "-"
    return f"{v:.0f}" if abs(v - round(v)) < 1e-9 or v >= 100 else f"{v:.1f}"


def fmt_ratio(v: float | None) -> str:
    if v is None:
        return "-"
    return f"{v:.1f}x" if v >= 10 else f"{v:.2f}x"


# --- a static server for the browser sections ----------------------------------------------------

def serve(directory: Path) -> tuple[object, str]:
    """Serve ``directory`` on 127.0.0.1, cross-origin isolated (build.py's server), without the
    lab's CSP header: the benchmark page loads a peer library not written for it."""
    return build.start_server(directory, csp=False)


def find_chromium() -> str | None:
    """$ARCSTAR_CHROMIUM, else Playwright's own, else chromium on PATH (build.py's rule)."""
    return build.find_chromium()
