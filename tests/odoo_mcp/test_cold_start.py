"""Issue 17 (cold start): ``odoo-mcp serve`` imports nothing the first ``tools/list`` does not
need before answering it.

No timing: the server runs under ``python -X importtime``, which writes one stderr line per
module as its import ends (unbuffered), so what stderr holds when the ``tools/list`` answer
arrives is every module imported before it. The modules below are needed only by other
requests or on failure (error classification, resources, prompts) and must not be among them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import odoo_mcp
from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.handle import FakeOdoo
from odoo_mcp.tools.catalogue import CORE_MODULES

#: what the first tools/list must not have imported: the error pattern database (the first
#: Odoo error classified loads it), the resource reader, the prompts, the workflow table and
#: the HTML parser (the first HTML value a tool returns loads it); httpx2's own transport
#: (httpcore2, h11: the Odoo client has its own for a URL without a proxy, issue 41)
DEFERRED = (
    "odoo_mcp.errors.extract",
    "odoo_mcp.errors.patterns",
    "odoo_mcp.errors.patterns_odoo19",
    "odoo_mcp.errors.patterns_odoo17",
    "odoo_mcp.prompts",
    "odoo_mcp.prompts.builder",
    "odoo_mcp.prompts.common",
    "odoo_mcp.prompts.guides",
    "odoo_mcp.prompts.model_guides",
    "odoo_mcp.registry.workflows",
    "odoo_mcp.resources.reader",
    "html.parser",
    # issue 41: the core tools are listed from the catalogue, loaded on their first call
    *CORE_MODULES,
    "odoo_mcp.html_text",
    "httpcore2",
    "h11",
    # issue 41: what only a tool call needs (the core tools' shared models, the domain and
    # order validators), and the static registry file's models when no file is configured
    "odoo_mcp.tools.core_common",
    "odoo_mcp.domain.validation",
    "odoo_mcp.domain.order",
    "odoo_mcp.registry.static",
    "difflib",  # a refusal's "did you mean" only
)
#: what it needs (the check reads the imports it thinks it reads)
NEEDED = (
    "odoo_mcp.adapter.tools",
    "odoo_mcp.tools.catalogue",
    "odoo_mcp.errors.classify",
    "odoo_mcp.connection.http11",
)

_HELLO: list[dict[str, Any]] = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
]  # fmt: skip


def imported_modules(importtime: str) -> set[str]:
    """The modules a ``-X importtime`` trace names."""
    found: set[str] = set()
    for line in importtime.splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            name = line.rsplit("|", 1)[1].strip()
            if name != "imported package":  # the header line
                found.add(name)
    return found


def imports_before_tools_list(fake: FakeOdoo) -> set[str]:
    """Run ``odoo-mcp serve`` (this checkout's) and return what it imported before it
    answered the first tools/list."""
    source = str(Path(odoo_mcp.__file__).resolve().parents[1])  # the code under test
    path = os.pathsep.join(p for p in (source, os.environ.get("PYTHONPATH", "")) if p)
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", ""),
           "PYTHONPATH": path, "ODOO_URL": fake.url, "ODOO_DB": "demo",
           "ODOO_USERNAME": "admin", "ODOO_API_KEY": ADMIN_API_KEY,
           "ODOO_MCP_LOG_LEVEL": "warning", "ODOO_MCP_INTROSPECT": "false"}  # fmt: skip
    with tempfile.TemporaryFile() as stderr, subprocess.Popen(
        [sys.executable, "-X", "importtime", "-m", "odoo_mcp", "serve"],
        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
    ) as process:  # fmt: skip
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in _HELLO))
            process.stdin.flush()
            answers = [json.loads(process.stdout.readline()) for _ in range(2)]
            assert [a.get("id") for a in answers] == [1, 2], answers
            assert answers[1]["result"]["tools"], answers[1]
            written = os.fstat(stderr.fileno()).st_size  # before anything more is imported
            process.stdin.close()
            assert process.wait(timeout=20) == 0
        finally:
            if process.returncode is None:
                process.kill()
                process.wait()
        stderr.seek(0)
        trace = stderr.read(written).decode(errors="replace")
    return imported_modules(trace)


def test_the_first_tools_list_imports_only_what_it_needs(fake_odoo_server: FakeOdoo) -> None:
    """Issue 17: error classification's pattern database, the resource reader, the workflow
    table, the prompts and the HTML parser are not imported before the first tools/list is
    answered; issue 41: nor the core tools, their shared models and the domain validators."""
    imported = imports_before_tools_list(fake_odoo_server)
    assert set(NEEDED) <= imported, sorted(imported)
    assert sorted(set(DEFERRED) & imported) == []
