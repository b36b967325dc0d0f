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


def _callers(state: MemoryState) -> CallerConnections:
    """Bearer callers checked against a fake Odoo, their session owners kept in ``state``."""
    fake = FakeOdoo("19.0")

    def connect(settings: ConnectionSettings) -> ConnectionManager:
        return ConnectionManager(settings, transport=FakeOdooTransport(app=fake.app))

    return CallerConnections(fake_config().connection_settings(), connect=connect, state=state)


async def _request(
    callers: CallerConnections, method: str, session: str | None, answered: str | None = None
) -> int:
    """One request as admin on ``session`` (None: none named) through ``BearerAuth``, to an MCP
    app answering 200 with ``answered`` as its session header (None: no header); the status."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        headers = [] if answered is None else [(b"mcp-session-id", answered.encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b""})

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    statuses: list[int] = []

    async def send(message: Any) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    headers = [(b"authorization", f"Bearer {ADMIN_API_KEY}".encode())]
    if session is not None:
        headers.append((b"mcp-session-id", session.encode()))
    scope = {"type": "http", "method": method, "path": "/mcp", "headers": headers,
             "client": ("127.0.0.1", 5000)}  # fmt: skip
    await BearerAuth(app, callers, mcp_path="/mcp")(scope, receive, send)
    return statuses[0]


async def test_a_deleted_session_loses_its_owner_and_its_rate_counters() -> None:
    state = MemoryState()
    callers = _callers(state)
    await state.bind_owner("s1", 2)
    for _ in range(2):
        await state.admit("s1", "read", LIMITS)
    with pytest.raises(RateLimitedError):
        await state.admit("s1", "read", LIMITS)
    try:
        assert await _request(callers, "DELETE", "s1") == 200
    finally:
        await callers.close()
    assert await state.owner("s1") is None
    await state.admit("s1", "read", LIMITS)  # a new bucket: the burst is whole again


class _CountingState(MemoryState):
    """The memory state, counting the owner writes."""

    def __init__(self) -> None:
        super().__init__()
        self.binds: list[tuple[str, int | None]] = []

    async def bind_owner(self, session: str, uid: int | None) -> None:
        self.binds.append((session, uid))
        await super().bind_owner(session, uid)


async def test_a_session_is_bound_once_and_not_at_every_request() -> None:
    """REQ-HTTP-14, issue 17: the response that creates a session binds it to its caller; the
    requests on it that follow read the owner (renewing it) and write nothing more; an
    unverified owner still gives way to the first verified caller."""
    state = _CountingState()
    callers = _callers(state)
    try:
        assert await _request(callers, "POST", None, "s1") == 200
        admin = await state.owner("s1")
        assert admin is not None and state.binds == [("s1", admin)]
        for _ in range(3):
            assert await _request(callers, "POST", "s1", "s1") == 200
        assert state.binds == [("s1", admin)]
        await state.bind_owner("s2", None)  # created while Odoo could not check the token
        assert await _request(callers, "POST", "s2", "s2") == 200
        assert await state.owner("s2") == admin
    finally:
        await callers.close()
