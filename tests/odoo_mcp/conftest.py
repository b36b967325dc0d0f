"""Shared fixtures for the odoo_mcp tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from fakeredis import FakeServer
from fakeredis.aioredis import FakeRedis

from fake_clock import FakeClock
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import IN_PROCESS_URL, FakeOdooTransport
from odoo_mcp.connection import ConnectionManager, ConnectionSettings
from odoo_mcp.state import MemoryState, SharedState
from odoo_mcp.state.redis_store import RedisState


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


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=["memory", "redis"])
async def shared_state(
    request: pytest.FixtureRequest, clock: FakeClock
) -> AsyncIterator[SharedState]:
    """Issue 19: each shared-state case runs on the in-process store and on Redis (fakeredis
    with Lua), both on ``clock``: the Redis one gets it as the rate-limit script's time."""
    if request.param == "memory":
        yield MemoryState(clock=clock)
        return
    client = FakeRedis(server=FakeServer(), decode_responses=True)
    state = RedisState(client, "redis://fake", clock=lambda: round(clock.now * 1000))
    yield state
    await state.close()
