"""Fixtures for the browser lab's end-to-end tests (pytest-playwright, headless Chromium).

The site is built once per session with ``build.build_site()`` and served by
``build.start_server()`` (cross-origin isolated). Booting Pyodide in the page's
worker takes seconds, so the tests of a module share one page (``lab``), opened
from the session's ``browser`` and already past ``window.arcstar.ready``.

The build copies the Moving AI benchmark maps into ``dist/benchmarks/`` when they are
beside the repo (or in ``$ARCSTAR_BENCHMARKS``); without them the benchmark tests are
skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402  (the repo's build script, found via ROOT above)

CHROMIUM_ARGS = list(build.CHROMIUM_ARGS)
VIEWPORT = {"width": 1280, "height": 860}
BOOT_TIMEOUT_MS = 120_000  # cold Pyodide boot is ~5 s here; CI machines can be slower

# Runs in the page before its own scripts: records what the status line said (to check the
# loading progress was shown) and any uncaught error.
RECORDER = """
window.__statusLog = [];
window.__errors = [];
addEventListener('error', (e) => window.__errors.push(String(e.message || e)));
addEventListener('unhandledrejection',
  (e) => window.__errors.push('unhandled rejection: ' + String(e.reason)));
document.addEventListener('DOMContentLoaded', () => {
  const box = document.querySelector('[data-testid="status"]');
  if (!box) return;
  const note = () =>
    window.__statusLog.push({state: box.dataset.state, text: box.textContent.trim()});
  note();
  new MutationObserver(note).observe(
    box, {subtree: true, childList: true, characterData: true, attributes: true});
});
"""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "e2e: end-to-end test of the browser lab (Playwright, headless Chromium)"
    )


@pytest.fixture(scope="session")
def site_dir() -> Path:
    """dist/, built once per session."""
    return build.build_site(quiet=True)


@pytest.fixture(scope="session")
def served_dir(site_dir: Path) -> Path:
    """The folder served to the browser: dist/ as built."""
    return site_dir


@pytest.fixture(scope="session")
def has_benchmarks(served_dir: Path) -> bool:
    index = served_dir / "benchmarks" / "index.json"
    return index.is_file() and bool(json.loads(index.read_text()))


@pytest.fixture(scope="session")
def site_url(served_dir: Path) -> str:
    """dist/ served (cross-origin isolated); the URL of the site root."""
    server, url = build.start_server(served_dir)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Chromium from $ARCSTAR_CHROMIUM or build.find_chromium(), else Playwright's own."""
    args = {**browser_type_launch_args, "args": CHROMIUM_ARGS}
    executable = os.environ.get("ARCSTAR_CHROMIUM") or build.find_chromium()
    if executable:
        args["executable_path"] = executable
    return args


def open_lab(browser, site_url: str, *, wait_ready: bool = True, viewport: dict | None = None):
    """A new page (in its own context) showing the lab; returns (context, page)."""
    # bypass_csp: Playwright runs a string predicate (wait_for_function) with eval, which the page's
    # Content Security Policy refuses; test_hosted.py opens its pages with the policy in force.
    context = browser.new_context(viewport=viewport or VIEWPORT, bypass_csp=True)
    context.add_init_script(RECORDER)
    page = context.new_page()
    page.page_errors = []
    page.on("pageerror", lambda exc: page.page_errors.append(str(exc)))
    page.goto(site_url)
    page.wait_for_function("window.arcstar !== undefined")
    if wait_ready:
        page.evaluate(
            "() => { window.arcstar.ready.then(() => { window.__ready = true; },"
            " (e) => { window.__bootError = String(e && e.message || e); }); }"
        )
        page.wait_for_function("window.__ready || window.__bootError", timeout=BOOT_TIMEOUT_MS)
        boot_error = page.evaluate("window.__bootError || null")
        assert boot_error is None, f"the engine failed to boot: {boot_error}"
    return context, page


@pytest.fixture(scope="session")
def lab_factory(browser, site_url):
    """open_lab(wait_ready=..., viewport=..., url=...) -> (context, page): a fresh page."""

    def factory(*, wait_ready: bool = True, viewport: dict | None = None, url: str | None = None):
        return open_lab(browser, url or site_url, wait_ready=wait_ready, viewport=viewport)

    return factory


@pytest.fixture
def broken_site_url(site_dir: Path, tmp_path: Path) -> str:
    """The site with a manifest.json naming an arcstar wheel that is not there."""
    for entry in site_dir.iterdir():
        if entry.name != "manifest.json":
            (tmp_path / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    manifest = json.loads((site_dir / "manifest.json").read_text())
    manifest["arcstar_wheel"] = "wheels/arcstar-0.0.0-py3-none-any.whl"
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    server, url = build.start_server(tmp_path)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def lab(browser, site_url):
    """One lab page per test module, with the engine ready."""
    context, page = open_lab(browser, site_url)
    yield page
    errors = page.page_errors + page.evaluate("window.__errors")
    context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


@pytest.fixture(scope="session")
def save_screen(tmp_path_factory: pytest.TempPathFactory):
    """save_screen(page, name) -> Path: a screenshot in a temp folder (never in the repo),
    also copied to $ARCSTAR_SCREENS (default: arcstar-screens in the system temp folder)
    for a person to look at."""
    folder = tmp_path_factory.mktemp("screens")
    share = Path(os.environ.get("ARCSTAR_SCREENS") or Path(tempfile.gettempdir()) / "arcstar-screens")

    def save(page, name: str) -> Path:
        path = folder / f"{name}.png"
        page.screenshot(path=str(path))
        try:
            share.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, share / path.name)
        except OSError:
            pass  # the copy is a convenience; the test does not depend on it
        return path

    return save
