"""Shared fixtures for the odoo_mcp tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import IN_PROCESS_URL, FakeOdooTransport
from odoo_mcp.connection import ConnectionManager, ConnectionSettings


@pytest.fixture
def anyio_backend() -> str:
    # One backend keeps the suite deterministic; the server runs on asyncio in production.
    return "asyncio"


async def _no_sleep(delay: float) -> None:
    """No backoff in these tests."""


@pytest.fixture
async def manager(fake_odoo: FakeOdoo) -> AsyncIterator[ConnectionManager]:
    """A connection to the in-process fake as admin, its call log cleared."""
    settings = ConnectionSettings.model_validate(
        {"url": IN_PROCESS_URL, "database": "demo", "username": "admin", "password": "admin"}
    )
    async with ConnectionManager(
        settings, transport=FakeOdooTransport(app=fake_odoo.app), sleep=_no_sleep
    ) as connection:
        fake_odoo.reset_calls()
        yield connection
