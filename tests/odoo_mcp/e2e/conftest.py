"""Fixtures of the end-to-end tests: one event loop per module, so that a fake Odoo, its MCP
server and a connected client can be built once per module (or per parameter) and shared."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    # module scope (the odoo_mcp conftest's is per test): async fixtures may then be
    # module-scoped, e.g. one client per (version, protocol) combination
    return "asyncio"
