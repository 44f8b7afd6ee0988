"""The built wheel holds every subpackage of the core and the protocol's schema (checked in the
wheel, not the source tree: a package missing from the build config would only show here)."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.no_pyodide

ROOT = Path(__file__).resolve().parents[2]


def test_the_wheel_holds_every_subpackage_and_the_schema(tmp_path):
    sys.path.insert(0, str(ROOT))
    import build
    wheel = build.build_arcstar_wheel(tmp_path, quiet=True)
    names = set(zipfile.ZipFile(wheel).namelist())
    core = ROOT / "pycore"
    sources = {p.relative_to(core).as_posix() for p in (core / "arcstar").rglob("*.py") if "__pycache__" not in p.parts}
    packages = {p.parent.relative_to(core).as_posix() for p in (core / "arcstar").rglob("__init__.py")}
    assert len(packages) >= 8  # the root and one per layer
    assert sources <= names, sorted(sources - names)
    assert {f"{p}/__init__.py" for p in packages} <= names
    assert "arcstar/service/protocol.schema.json" in names
