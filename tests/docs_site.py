"""The docs site built as ``tox -e docs`` builds it, for the tests that read its pages."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build_site(site: Path, *, unset: tuple[str, ...] = (), **settings: str) -> Path:
    """``mkdocs build --strict`` into ``site`` with these environment settings (the docs
    hooks' ``ODOO_MCP_*`` inputs) and without the ``unset`` ones; the reports not given point
    at files that do not exist, so that a developer's own runs never leak into the pages
    under test."""
    work = site.parent
    env = {
        **os.environ,
        "ODOO_MCP_KIT_HTTP_REPORT": str(work / "no-http-run.json"),
        "ODOO_MCP_UNIT_RESULTS": str(work / "no-unit-results.json"),
        "NO_MKDOCS_2_WARNING": "1",
        **settings,
    }
    for name in unset:
        env.pop(name, None)
    completed = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    return site
