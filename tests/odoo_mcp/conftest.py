"""Shared fixtures for the odoo_mcp tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend() -> str:
    # One backend keeps the suite deterministic; the server runs on asyncio in production.
    return "asyncio"
