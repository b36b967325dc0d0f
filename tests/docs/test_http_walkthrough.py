"""Issue 29: the curl walkthrough of docs/http.md works as written, against a real server.

The ``bash`` block after the walkthrough's marker runs with ``URL`` and ``KEY`` pointing at
``odoo-mcp serve --transport http --http-auth on`` on a fake Odoo: the session is opened, a
tool answers in it, ``DELETE`` ends it and the ended session is a 404.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import serve_fake_odoo
from http_servers import serve_http

pytestmark = pytest.mark.wire

DOC = Path(__file__).resolve().parents[2] / "docs" / "http.md"
MARKER = "<!-- tests/docs/test_http_walkthrough.py runs this block"


def walkthrough() -> str:
    text = DOC.read_text(encoding="utf-8")
    after = text[text.index(MARKER) :]
    found = re.search(r"```bash\n(.*?)```", after, re.S)
    assert found, "no bash block after the marker"
    return found.group(1)


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with serve_fake_odoo(fake=FakeOdoo("19.0")) as fake:
        assert fake.url is not None
        yield from serve_http(fake.url, "--http-auth", "on")


def test_the_curl_walkthrough_works_as_written(base: str) -> None:
    script = walkthrough().replace(
        "URL=http://127.0.0.1:8080/mcp KEY=your-odoo-api-key",
        f"URL={base}/mcp KEY={ADMIN_API_KEY}",
    )
    assert script != walkthrough(), "the block no longer sets URL and KEY as the test expects"
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert '"id":2' in out and "Acme Corporation" in out, out  # the tool answered
    assert out.rstrip().splitlines()[-2:] == ["200", "404"], out  # DELETE, then gone
