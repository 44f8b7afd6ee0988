"""The lab's palette stays readable with colour-vision deficiencies: ``node --test
tests/js/palette.test.mjs`` simulates protanopia and deuteranopia (Machado 2009) on the colours
of web/view/colors.js and checks that the key pairs (water and the closed list, swamp and the open
list, start and goal, ...) differ by a CIEDE2000 threshold. Skipped only when node is missing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120


@pytest.mark.no_pyodide
def test_the_palette_keeps_key_pairs_apart_for_colour_blind_eyes():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed, so the palette cannot be checked here")
    proc = subprocess.run([node, "--test", "tests/js/palette.test.mjs"], cwd=ROOT, capture_output=True, text=True,
                          timeout=TIMEOUT_S)
    assert proc.returncode == 0, f"{proc.stdout[-4000:]}{proc.stderr[-2000:]}"
    assert "# fail 0" in proc.stdout and "# pass 0" not in proc.stdout, proc.stdout[-2000:]
