"""The REQ matrix page in a real browser: build the site, open the page in headless Chromium,
take a screenshot and check the DOM after its script ran.

    python bench/matrix_screenshot.py [--site-dir DIR --no-build] [--screenshot PATH]
        [--requirement-screenshot PATH]

Checks: the screenshots (the matrix, and REQ-04-05's section on its document's page, at
1400x900) are PNGs of the window's size and not blank; the DOM has the summary per document,
coloured status cells, code links pinned to a commit, links to the requirement pages and the
three filters; ``?status=untested`` (read by docs/javascripts/matrix.js) leaves only the
untested rows shown; laid out at 1400 px, no matrix table is wider than its box, every box
scrolls sideways (``overflow-x: auto``: in a narrower window a wide table scrolls, never
clipped) and ends inside the window, no cell's content overflows its cell, every Summary
cell is inside the window (issue 29: the column was clipped; with mutation results the
SPEC-04, SPEC-06 and SPEC-10 tables were again), each summary row's document name stands
apart from its count (``SPEC-03-07`` ran into it), neither the matrix nor REQ-04-05's page
is wider than the window, and the configuration reference breaks no setting name. Without
a Chromium it says so and exits 0 (``tox -e docs`` runs it; that env is manual).
"""

from __future__ import annotations

import argparse
import html
import json
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
WIDTH, HEIGHT = 1400, 900
#: a code link pinned to a commit (``tox -e docs`` builds from a git checkout) or to the ref
#: ``ODOO_MCP_REPO_REF`` names: anything but the moving ``main``
CODE_LINK = re.compile(r'href="https?://[^"]+/blob/(?!main/)[^/"]+/')
REQUIREMENT_LINK = re.compile(r'href="\.\./requirements/[\w-]+/#REQ-[\w-]+"')
REQUIREMENT = ("SPEC-04", "REQ-04-05")


def find_chromium() -> str | None:
    given = os.environ.get("CHROMIUM")
    if given:
        return given
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


def _browser(chromium: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # --no-sandbox: containers often run as root, where Chromium's sandbox refuses to start
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--no-first-run", f"--user-data-dir={profile}", f"--window-size={WIDTH},{HEIGHT}",
               *args]  # fmt: skip
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
    if len(data) < 50_000:  # a blank 1400x900 page compresses to a few kB
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
    if len(CODE_LINK.findall(dom)) < 100:
        problems.append(f"{len(CODE_LINK.findall(dom))} code links pinned to a commit")
    if len(REQUIREMENT_LINK.findall(dom)) < 100:
        problems.append(f"{len(REQUIREMENT_LINK.findall(dom))} links to requirement pages")
    if "blob/main/" in dom:
        problems.append("a link to blob/main: not pinned to the build's commit")
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


#: a page framed at the window's size: Chromium's --screenshot ignores a URL's #anchor, an
#: iframe scrolls to it; --allow-file-access-from-files lets the frame's script measure it
_FRAME = """<!doctype html><html><body style="margin:0;overflow:hidden">
<iframe src="{url}" style="border:0;width:{width}px;height:{height}px"></iframe>
<pre id="layout"></pre><script>
window.addEventListener("load", function () {{
  var doc = document.querySelector("iframe").contentDocument;
  // the content column: what is wider than it overflows the page beside the navigation
  var content = doc.querySelector(".md-content") || doc.documentElement;
  var out = {{viewport: doc.documentElement.clientWidth, boxes: [], summaries: [], names: [],
    content: [content.scrollWidth, content.clientWidth], cells: [], labels: []}};
  doc.querySelectorAll(".req-scroll, .req-summary-box").forEach(function (box) {{
    var name = box.parentElement.dataset.document || "summary";
    out.boxes.push([name, box.scrollWidth, box.clientWidth,
      getComputedStyle(box).overflowX, Math.round(box.getBoundingClientRect().right)]);
  }});
  // a cell whose content is wider than the cell: it spills over its neighbour or is cut
  doc.querySelectorAll("table.req-matrix td, table.req-summary th, table.req-summary td")
    .forEach(function (cell) {{
      if (cell.scrollWidth > cell.clientWidth + 1) {{
        var row = cell.parentElement;
        out.cells.push([row.id || row.dataset.document || "", cell.className,
          cell.scrollWidth, cell.clientWidth]);
      }}
    }});
  // a summary row's document name and its total: the gap between their texts
  doc.querySelectorAll("tr.req-summary-doc, tr.req-summary-total").forEach(function (row) {{
    var name = row.querySelector("th"), count = name && name.nextElementSibling;
    if (!count) return;
    var text = function (node) {{
      var range = doc.createRange(); range.selectNodeContents(node);
      return range.getBoundingClientRect();
    }};
    out.labels.push([row.dataset.document, Math.round(text(count).left - text(name).right)]);
  }});
  doc.querySelectorAll("td.req-col-summary").forEach(function (cell) {{
    var r = cell.getBoundingClientRect();
    out.summaries.push([cell.parentElement.id, Math.round(r.right), Math.round(r.width)]);
  }});
  doc.querySelectorAll(".config-reference td:nth-child(-n+3) code").forEach(function (code) {{
    out.names.push([code.textContent, code.getClientRects().length]);
  }});
  document.getElementById("layout").textContent = JSON.stringify(out);
}});
</script></body></html>"""


def framed(
    chromium: str, profile: Path, url: str, *, shot: Path | None = None
) -> dict[str, object]:
    """Open ``url`` in a frame of the window's size: its screenshot (with ``shot``) and the
    layout the frame's script measured (matrix boxes, Summary cells, setting names)."""
    page = profile / "frame.html"
    page.write_text(_FRAME.format(url=url, width=WIDTH, height=HEIGHT))
    flags = ["--allow-file-access-from-files", "--virtual-time-budget=5000"]
    if shot is not None:
        _browser(chromium, profile, *flags, f"--screenshot={shot}", page.as_uri())
    dom = _browser(chromium, profile, *flags, "--dump-dom", page.as_uri()).stdout
    found = re.search(r'<pre id="layout">(.*?)</pre>', dom, re.DOTALL)
    layout = json.loads(html.unescape(found.group(1))) if found and found.group(1) else {}
    return layout if isinstance(layout, dict) else {}


#: the least gap (px) between a summary row's document name and its count
LABEL_GAP = 4


def check_page(layout: dict[str, object], name: str) -> list[str]:
    """Nothing wider than the page's content column (a long message, a wide table outside
    a scrolling box): it would overflow the page or be cut."""
    content = layout.get("content")
    if not isinstance(content, list) or len(content) != 2:
        return [f"{name}: the frame's script measured nothing"]
    wide, box = content
    if wide > box + 1:
        return [f"{name}: {wide} px of content in its {box} px column (overflows the page)"]
    return []


def check_layout(layout: dict[str, object]) -> list[str]:
    """At 1400 px: no matrix table wider than its box; every box scrolls sideways (a wider
    table, in a narrower window, scrolls rather than being clipped) and ends inside the
    window; no cell's content wider than its cell; every Summary cell inside the window and
    wide enough to read; each summary row's name apart from its count."""
    if not layout.get("boxes"):
        return ["layout: the frame's script measured nothing"]
    viewport = int(layout["viewport"])  # type: ignore[call-overload]
    problems = []
    for doc, wide, box, overflow, right in layout["boxes"]:  # type: ignore[attr-defined]
        if wide > box + 1:
            problems.append(f"{doc}: table {wide} px in a {box} px box (a column is out of sight)")
        if overflow not in ("auto", "scroll"):
            problems.append(f"{doc}: its box does not scroll (overflow-x: {overflow}): clipped")
        if right > viewport + 1:
            problems.append(f"{doc}: its box ends at {right} px in a {viewport} px window")
    problems += [
        f"{where or '?'}: a {cls or 'cell'} holds {wide} px in {box} px (spills or is clipped)"
        for where, cls, wide, box in layout.get("cells") or []  # type: ignore[attr-defined]
    ][:10]
    labels = layout.get("labels")
    if not labels:
        problems.append("summary: no document name measured against its count")
    problems += [
        f"summary: {doc!r} is {gap} px from its count (runs into it)"
        for doc, gap in labels or []  # type: ignore[attr-defined]
        if gap < LABEL_GAP
    ]
    problems += check_page(layout, "matrix")
    problems += [
        f"{req}: Summary cell ends at {right} px ({width} px wide) in a {viewport} px window"
        for req, right, width in layout["summaries"]  # type: ignore[attr-defined]
        if right > viewport or width < 150
    ][:5]
    return problems


def check_names(layout: dict[str, object]) -> list[str]:
    """The configuration reference: setting names, variables and flags on one line each."""
    names = layout.get("names") or []
    if not names:
        return ["configuration reference: no setting name measured"]
    return [f"{name!r} broken over {lines} lines" for name, lines in names if lines > 1][:5]  # type: ignore[attr-defined]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site-dir", default="/tmp/site-matrix", help="where the site is built")
    parser.add_argument("--no-build", action="store_true", help="use the site already built")
    parser.add_argument("--screenshot", default="/tmp/matrix.png")
    parser.add_argument("--requirement-screenshot", default=None,
                        help="REQ-04-05's section (default: beside --screenshot)")  # fmt: skip
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
    document, req_id = REQUIREMENT
    requirement = site / "conformance" / "requirements" / document / "index.html"
    req_shot = Path(args.requirement_screenshot or shot.with_name(f"{req_id}.png"))
    req_shot.unlink(missing_ok=True)
    configuration = site / "reference" / "configuration" / "index.html"
    with tempfile.TemporaryDirectory() as profile:
        print(f"phase: {Path(chromium).name} --screenshot {shot} ({WIDTH}x{HEIGHT})", flush=True)
        started = time.perf_counter()
        layout = framed(chromium, Path(profile), url, shot=shot)
        print(f"phase: {req_id} on its page: {req_shot}", flush=True)
        req_layout = framed(
            chromium, Path(profile), f"{requirement.resolve().as_uri()}#{req_id}", shot=req_shot
        )
        names = framed(chromium, Path(profile), configuration.resolve().as_uri())
        print(f"phase: --dump-dom {url} and ?status=untested", flush=True)
        dom = _browser(chromium, Path(profile), "--dump-dom", url).stdout
        filtered = _browser(chromium, Path(profile), "--dump-dom", f"{url}?status=untested").stdout
        req_dom = requirement.read_text()
        elapsed = time.perf_counter() - started
    problems = check_png(shot) + check_png(req_shot) + check_dom(dom) + check_filtered(filtered)
    problems += check_layout(layout) + check_page(req_layout, document) + check_names(names)
    if f'<h2 id="{req_id}">' not in req_dom:
        problems.append(f"no #{req_id} section on {requirement}")
    for problem in problems:
        print(f"FAIL: {problem}")
    if not problems:
        shown = sum("hidden" not in row for row in rows(filtered))
        print(f"matrix page OK in {elapsed:.1f} s: {shot} ({shot.stat().st_size} bytes), "
              f"{req_shot} ({req_shot.stat().st_size} bytes), {len(rows(dom))} rows, "
              f"{len(CODE_LINK.findall(dom))} code links at a commit, "
              f"{len(layout['boxes'])} tables within their box, "  # type: ignore[arg-type]
              f"?status=untested shows {shown}")  # fmt: skip
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
