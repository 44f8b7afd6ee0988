"""The share link's codec (web/io/linkcodec.js) under Node.js: ``node --test
tests/js/linkcodec.test.mjs`` checks that a link's data is standard raw deflate in base64url, that
texts read back exactly, and that damaged, hostile and oversized links (a decompression bomb
included) are refused with their own codes. Skipped only when node is missing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120


@pytest.mark.no_pyodide
def test_the_share_link_codec_reads_back_what_it_writes_and_refuses_damage():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed, so the link codec cannot be checked here")
    proc = subprocess.run([node, "--test", "tests/js/linkcodec.test.mjs"], cwd=ROOT, capture_output=True, text=True,
                          timeout=TIMEOUT_S)
    assert proc.returncode == 0, f"{proc.stdout[-4000:]}{proc.stderr[-2000:]}"
    assert "# fail 0" in proc.stdout and "# pass 0" not in proc.stdout, proc.stdout[-2000:]
