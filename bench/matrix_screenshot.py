"""The REQ matrix page in a real browser: build the site, open the page in headless Chromium,
take a screenshot and check the DOM after its script ran.

    python bench/matrix_screenshot.py [--site-dir DIR --no-build] [--screenshot PATH]

Checks: the screenshot is a PNG of the window's size and not blank; the DOM has the summary
per document, coloured status cells, links to the repository's lines and the three filters;
``?status=untested`` (read by docs/javascripts/matrix.js) leaves only the untested rows shown.
Without a Chromium it says so and exits 0 (``tox -e docs`` runs it; that env is manual).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
WIDTH, HEIGHT = 1400, 2000
REPO_LINK = "https://github.com/odoo-mcp/odoo-mcp/blob/main/"


def find_chromium() -> str | None:
    given = os.environ.get("CHROMIUM")
    if given:
        return given
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


def _browser(chromium: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # --no-sandbox: containers often run as root, where Chromium's sandbox refuses to start
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               f"--user-data-dir={profile}", f"--window-size={WIDTH},{HEIGHT}", *args]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def check_png(path: Path) -> list[str]:
    """A PNG of the window's size, big enough not to be a blank page."""
    if not path.is_file():
        return [f"no screenshot at {path}"]
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return [f"{path} is not a PNG"]
    width, height = struct.unpack(">II", data[16:24])
    problems = [] if (width, height) == (WIDTH, HEIGHT) else [f"size {width}x{height}"]
    if len(data) < 50_000:  # a blank 1400x2000 page compresses to a few kB
        problems.append(f"only {len(data)} bytes: a blank page?")
    return problems


def check_dom(dom: str) -> list[str]:
    """What the page must show once matrix.js ran."""
    problems = []
    summary = re.findall(r'<tr class="req-summary-(?:doc|total)" data-document="([^"]+)"', dom)
    if "all" not in summary or len(summary) < 3:
        problems.append(f"summary rows: {summary}")
    for status in ("passing", "untested", "excluded"):
        if f'class="req-status req-status-{status}"' not in dom:
            problems.append(f"no {status} status cell")
    if dom.count(f'href="{REPO_LINK}') < 100:
        problems.append(f"{dom.count(REPO_LINK)} repository links")
    for name in ("document", "status", "source"):
        if f'<select data-filter="{name}">' not in dom:
            problems.append(f"no {name} filter")
    return problems


def rows(dom: str) -> list[str]:
    return re.findall(r'<tr class="req-row"[^>]*>', dom)


def check_filtered(dom: str) -> list[str]:
    """``?status=untested``: every untested row shown, every other one hidden."""
    shown = [row for row in rows(dom) if "hidden" not in row]
    wrong = [row for row in shown if 'data-status="untested"' not in row]
    untested = [row for row in rows(dom) if 'data-status="untested"' in row]
    if not untested or len(shown) != len(untested) or wrong:
        return [f"filter: {len(shown)} shown, {len(untested)} untested, {len(wrong)} wrong"]
    return []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site-dir", default="/tmp/site-matrix", help="where the site is built")
    parser.add_argument("--no-build", action="store_true", help="use the site already built")
    parser.add_argument("--screenshot", default="/tmp/matrix.png")
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        print("chromium not found: screenshot check skipped")
        return 0
    site = Path(args.site_dir)
    if not args.no_build:
        print(f"phase: mkdocs build --strict -d {site}", flush=True)
        build = [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)]
        subprocess.run(build, cwd=ROOT, check=True)
    page = site / "conformance" / "matrix" / "index.html"
    url = page.resolve().as_uri()
    shot = Path(args.screenshot)
    shot.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        print(f"phase: {Path(chromium).name} --screenshot {shot} ({WIDTH}x{HEIGHT})", flush=True)
        started = time.perf_counter()
        _browser(chromium, Path(profile), f"--screenshot={shot}", url)
        print(f"phase: --dump-dom {url} and ?status=untested", flush=True)
        dom = _browser(chromium, Path(profile), "--dump-dom", url).stdout
        filtered = _browser(chromium, Path(profile), "--dump-dom", f"{url}?status=untested").stdout
        elapsed = time.perf_counter() - started
    problems = check_png(shot) + check_dom(dom) + check_filtered(filtered)
    for problem in problems:
        print(f"FAIL: {problem}")
    if not problems:
        shown = sum("hidden" not in row for row in rows(filtered))
        print(f"matrix page OK in {elapsed:.1f} s: {shot} ({shot.stat().st_size} bytes), "
              f"{len(rows(dom))} rows, {dom.count(REPO_LINK)} repository links, "
              f"?status=untested shows {shown}")  # fmt: skip
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
