"""REQ-HTTP-14 / REQ-11-20: a session ended by DELETE leaves nothing behind in the state."""

from __future__ import annotations

from typing import Any

import pytest

from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import FakeOdooTransport
from mcp_servers import fake_config
from odoo_mcp.adapter.http.auth import BearerAuth, CallerConnections
from odoo_mcp.connection import ConnectionManager
from odoo_mcp.connection.settings import ConnectionSettings
from odoo_mcp.safety import RateLimitedError, RateLimits
from odoo_mcp.state import MemoryState

pytestmark = pytest.mark.anyio

LIMITS = RateLimits(enabled=True, calls_per_minute=60, burst=2)


async def _ok(scope: Any, receive: Any, send: Any) -> None:
    """The MCP app: every request answered 200 on the session it names."""
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b""})


async def _delete(auth: BearerAuth, session: str) -> None:
    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        assert message["type"] != "http.response.start" or message["status"] == 200, message

    headers = [
        (b"authorization", f"Bearer {ADMIN_API_KEY}".encode()),
        (b"mcp-session-id", session.encode()),
    ]
    scope = {"type": "http", "method": "DELETE", "path": "/mcp", "headers": headers,
             "client": ("127.0.0.1", 5000)}  # fmt: skip
    await auth(scope, receive, send)


async def test_a_deleted_session_loses_its_owner_and_its_rate_counters() -> None:
    fake = FakeOdoo("19.0")

    def connect(settings: ConnectionSettings) -> ConnectionManager:
        return ConnectionManager(settings, transport=FakeOdooTransport(app=fake.app))

    state = MemoryState()
    callers = CallerConnections(fake_config().connection_settings(), connect=connect, state=state)
    auth = BearerAuth(_ok, callers, mcp_path="/mcp")
    await state.bind_owner("s1", 2)
    for _ in range(2):
        await state.admit("s1", "read", LIMITS)
    with pytest.raises(RateLimitedError):
        await state.admit("s1", "read", LIMITS)
    try:
        await _delete(auth, "s1")
    finally:
        await callers.close()
    assert await state.owner("s1") is None
    await state.admit("s1", "read", LIMITS)  # a new bucket: the burst is whole again
