"""The hosted demo's time to ready: a first visit (nothing cached) against a second one (the
service worker answers from its cache) and an offline one, with the site served from a sub-path,
with and without the cross-origin isolation headers. Writes bench/results/hosted.md.

    python bench/hosted.py [--runs N] [--out FILE.md]

Time to ready is the page's clock (ms after navigation) when the status line first says
"ready", recorded in the page by an init script. Each run is a fresh browser context.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402  (the repo's build script)

PREFIX = "/arcstar/demo/"
READY_RECORDER = """
window.__readyAt = null;
document.addEventListener('DOMContentLoaded', () => {
  const box = document.querySelector('[data-testid="status"]');
  const seen = () => {
    if (window.__readyAt === null && box.dataset.state === 'ready') window.__readyAt = performance.now();
  };
  new MutationObserver(seen).observe(box, {attributes: true});
  seen();
});
"""
TIMEOUT_MS = 180_000


def ready_ms(page) -> float:
    """Wait for the recorded time to ready; returns it."""
    page.wait_for_function("() => window.__readyAt !== null", timeout=TIMEOUT_MS)
    return float(page.evaluate("window.__readyAt"))


def measure(browser, url: str) -> dict[str, float]:
    """One fresh context: first visit, second (service worker), offline reload; ms each, and the
    bytes the server sent during the first and the second visit (the page's, its workers' and
    the service worker's requests; what the service worker answered itself is not counted)."""
    context = browser.new_context()
    context.add_init_script(READY_RECORDER)
    page = context.new_page()
    sent = [0]

    def count(response) -> None:
        if not response.from_service_worker and response.status == 200:
            sent[0] += int(response.headers.get("content-length", "0"))

    context.on("response", count)
    try:
        page.goto(url)
        first = ready_ms(page)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=TIMEOUT_MS)
        # the worker's cache is filled (install waits for every file) once it controls the page
        first_bytes, sent[0] = sent[0], 0
        page.reload()
        second = ready_ms(page)
        second_bytes = sent[0]
        context.set_offline(True)
        page.reload()
        offline = ready_ms(page)
        return {"first": first, "second": second, "offline": offline,
                "first_mb": first_bytes / 1e6, "second_mb": second_bytes / 1e6}
    finally:
        context.set_offline(False)
        context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "hosted.md"))
    parser.add_argument("--no-build", action="store_true", help="measure dist/ as it is")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    site = build.DIST if args.no_build else build.build_site(quiet=True)
    manifest = json.loads((site / "manifest.json").read_text())
    exe = os.environ.get("ARCSTAR_CHROMIUM") or build.find_chromium()
    results: dict[str, list[dict[str, float]]] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(headless=True, args=list(build.CHROMIUM_ARGS),
                                     **({"executable_path": exe} if exe else {}))
        try:
            for isolated in (True, False):
                label = "COOP/COEP sent" if isolated else "no COOP/COEP (as GitHub Pages)"
                server, url = build.start_server(site, isolated=isolated, prefix=PREFIX)
                try:
                    for k in range(args.runs):
                        row = measure(browser, url)
                        results.setdefault(label, []).append(row)
                        print(f"{label} run {k + 1}/{args.runs}: " +
                              ", ".join(f"{name} {value:.0f}" for name, value in row.items()), file=sys.stderr)
                finally:
                    server.shutdown()
                    server.server_close()
        finally:
            browser.close()

    lines = ["# Hosted demo: time to ready, first visit against second", "",
             f"Measured {time.strftime('%Y-%m-%d %H:%M')} on {platform.machine()}, {os.cpu_count()} cores "
             f"(shared with other work), headless Chromium, build {manifest['build']}; the site served from "
             f"the sub-path {PREFIX} by build.py's server on 127.0.0.1. Time to ready: ms after navigation "
             "until the status line says ready (page clock). Each run is a fresh context: a first visit, "
             "a reload once the service worker controls the page (its cache answers), and a reload with "
             "the network off.", "",
             "| serving | runs | first visit, median ms | second visit, median ms | offline, median ms "
             "| second / first | MB sent by the server, first visit / second |",
             "|---|---|---|---|---|---|---|"]
    for label, rows in results.items():
        med = {name: statistics.median(r[name] for r in rows) for name in ("first", "second", "offline")}
        lines.append(f"| {label} | {len(rows)} | {med['first']:.0f} (min {min(r['first'] for r in rows):.0f}) | "
                     f"{med['second']:.0f} (min {min(r['second'] for r in rows):.0f}) | {med['offline']:.0f} | "
                     f"{med['second'] / med['first']:.2f} | {statistics.median(r['first_mb'] for r in rows):.1f} / "
                     f"{statistics.median(r['second_mb'] for r in rows):.2f} |")
    lines += ["", "Over the loopback the network costs next to nothing, so time to ready is the boot's CPU "
              "work (compiling Pyodide, loading numpy and arcstar) on both visits, and the run-to-run noise of "
              "a shared 2-core machine is larger than any difference. What the service worker saves is the "
              "download: the MB column, which over a real connection is seconds (38 MB at 50 Mbit/s is about "
              "6 s), and the second visit works with no network at all. The first visit's MB count the site "
              "twice: the page's own downloads and the service worker's install, whose revalidating requests "
              "found nothing in the headless context's HTTP cache (a browser profile with a disk cache would "
              "get 304s for most of them).", ""]
    Path(args.out).write_text("\n".join(lines))
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
