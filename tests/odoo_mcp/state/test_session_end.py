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


class _CountingState(MemoryState):
    """The memory state, counting the owner writes."""

    def __init__(self) -> None:
        super().__init__()
        self.binds: list[tuple[str, int | None]] = []

    async def bind_owner(self, session: str, uid: int | None) -> None:
        self.binds.append((session, uid))
        await super().bind_owner(session, uid)


async def _request(auth: BearerAuth, session: str | None, answered: str) -> int:
    """One POST on ``session`` (None: a new one) answered with ``answered`` as its session."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        headers = [(b"mcp-session-id", answered.encode())]
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
    scope = {"type": "http", "method": "POST", "path": "/mcp", "headers": headers,
             "client": ("127.0.0.1", 5000)}  # fmt: skip
    await BearerAuth(app, auth.callers, mcp_path="/mcp")(scope, receive, send)
    return statuses[0]


async def test_a_session_is_bound_once_and_not_at_every_request() -> None:
    """REQ-HTTP-14, issue 17: the response that creates a session binds it to its caller; the
    requests on it that follow read the owner (renewing it) and write nothing more; an
    unverified owner still gives way to the first verified caller."""
    fake = FakeOdoo("19.0")

    def connect(settings: ConnectionSettings) -> ConnectionManager:
        return ConnectionManager(settings, transport=FakeOdooTransport(app=fake.app))

    state = _CountingState()
    callers = CallerConnections(fake_config().connection_settings(), connect=connect, state=state)
    auth = BearerAuth(_ok, callers, mcp_path="/mcp")
    try:
        assert await _request(auth, None, "s1") == 200
        admin = await state.owner("s1")
        assert admin is not None and state.binds == [("s1", admin)]
        for _ in range(3):
            assert await _request(auth, "s1", "s1") == 200
        assert state.binds == [("s1", admin)]
        await state.bind_owner("s2", None)  # created while Odoo could not check the token
        assert await _request(auth, "s2", "s2") == 200
        assert await state.owner("s2") == admin
    finally:
        await callers.close()
