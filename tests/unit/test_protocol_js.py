"""The JS side of the protocol test: ``node --test tests/js/`` (ajv against the same schema).

Node validates what web/engine.js builds and what this Python's service answers (it runs
``protocol_samples`` with this interpreter). Skipped only when node is not installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 600


@pytest.mark.no_pyodide
def test_node_validates_the_js_side_against_the_schema():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed, so the JS side of the protocol cannot be checked here")
    if not (ROOT / "node_modules" / "ajv" / "package.json").is_file():
        pytest.fail("node_modules/ajv is missing: run `npm ci` (python build.py test does)")
    env = {**os.environ, "ARCSTAR_PYTHON": sys.executable}
    proc = subprocess.run([node, "--test", "tests/js/"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT_S)
    if proc.returncode != 0:
        pytest.fail(f"node --test tests/js/ failed (exit {proc.returncode}):\n"
                    f"{proc.stdout[-6000:]}{proc.stderr[-3000:]}")
    assert "# fail 0" in proc.stdout and "# pass 0" not in proc.stdout, proc.stdout[-3000:]
