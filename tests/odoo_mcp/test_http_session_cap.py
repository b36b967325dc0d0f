"""REQ-HTTP-16 (issue 37): the session cap, its middleware alone, in process, on a fake clock.

At the cap, an idle session of the caller makes room for the new one (ended through the app
behind the cap with a DELETE, as its client would); only when none qualifies is the request
refused, with Retry-After. Without authentication the sessions share one capped pool."""

from __future__ import annotations

import itertools
import json
from typing import Any

import anyio
import anyio.lowlevel
import pytest

from fake_clock import FakeClock
from mcp_servers import fake_config
from odoo_mcp.adapter.http.app import build_http_app
from odoo_mcp.adapter.http.early import EarlyMethods
from odoo_mcp.adapter.http.sessions import (
    MAX_SESSIONS_UNAUTHENTICATED,
    RECLAIM_AFTER,
    SessionCap,
)
from odoo_mcp.adapter.server import build_server
from odoo_mcp.callers import Caller, acting_as
from odoo_mcp.connection import ConnectionManager

pytestmark = pytest.mark.anyio

_ids = itertools.count()


class _App:
    """The SDK's transport as the cap sees it: a request without a session opens one, a
    DELETE ends one (200, or 404 when it is not open), a GET holds its session until
    ``release`` is set; every request is kept."""

    def __init__(self) -> None:
        self.open: set[str] = set()
        self.requests: list[tuple[str, str | None]] = []
        self.release = anyio.Event()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await anyio.lowlevel.checkpoint()  # as the SDK would: racing requests interleave
        headers = dict(scope["headers"])
        session = headers.get(b"mcp-session-id", b"").decode() or None
        self.requests.append((scope["method"], session))
        answer: list[tuple[bytes, bytes]] = []
        status = 200
        if session is None:
            session = f"s{next(_ids)}"
            self.open.add(session)
            answer = [(b"mcp-session-id", session.encode())]
        elif session not in self.open:
            status = 404
        elif scope["method"] == "DELETE":
            self.open.discard(session)
        await send({"type": "http.response.start", "status": status, "headers": answer})
        if scope["method"] == "GET":
            await self.release.wait()
        await send({"type": "http.response.body", "body": b""})


async def _request(
    cap: SessionCap,
    uid: int | None,
    session: str | None = None,
    method: str = "POST",
    version: str | None = None,
) -> tuple[int, dict[bytes, bytes], str | None]:
    """One request through ``cap`` as ``uid`` (None: no caller, authentication off): the
    status, the response headers (and ``b"body"``: the body), the session the answer names
    (or the one requested)."""
    sent: list[dict[str, Any]] = []
    headers = [(b"host", b"127.0.0.1:8000")]
    if session is not None:
        headers.append((b"mcp-session-id", session.encode()))
    if version is not None:
        headers.append((b"mcp-protocol-version", version.encode()))

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "method": method, "path": "/mcp", "headers": headers}
    caller = None
    if uid is not None:
        caller = Caller(ConnectionManager(fake_config().connection_settings()), uid)
    with acting_as(caller):
        await cap(scope, receive, send)
    answered = dict(sent[0]["headers"])
    answered[b"body"] = b"".join(m.get("body", b"") for m in sent[1:])
    named = answered.get(b"mcp-session-id")
    return int(sent[0]["status"]), answered, named.decode() if named else session


async def test_at_the_cap_the_refusal_says_when_to_retry() -> None:
    """Issue 37 (a): the 429 carries Retry-After, the seconds until the oldest idle session
    may make room, and its message says so."""
    clock, app = FakeClock(), _App()
    cap = SessionCap(app, mcp_path="/mcp", max_sessions=2, clock=clock)
    await _request(cap, 7)
    clock.now += 20
    await _request(cap, 7)
    clock.now += 5  # the oldest has been idle 25 s: it may make room in 35
    status, headers, _ = await _request(cap, 7)
    assert status == 429
    assert int(headers[b"retry-after"]) == RECLAIM_AFTER - 25
    message = json.loads(headers[b"body"])["error"]["message"]
    assert "retry in 35 s" in message and "Retry-After" in message and "DELETE" in message


async def test_at_the_cap_the_least_recently_used_idle_session_makes_room() -> None:
    """Issue 37 (b): 32 crashed clients no longer lock their user out for 30 minutes: past
    RECLAIM_AFTER the caller's least recently used idle session is ended (DELETE through the
    app behind the cap) and the new one opens; a session with a request in flight (an open
    GET stream) or used lately is never ended, nor another user's."""
    clock, app = FakeClock(), _App()
    cap = SessionCap(app, mcp_path="/mcp", max_sessions=3, clock=clock)
    oldest = (await _request(cap, 7))[2]
    listening = (await _request(cap, 7))[2]
    other_user = (await _request(cap, 8))[2]
    clock.now += 10
    recent = (await _request(cap, 7))[2]
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(_request, cap, 7, listening, "GET")  # its stream stays open
        await anyio.wait_all_tasks_blocked()
        clock.now += RECLAIM_AFTER  # oldest and listening idle 70 s, recent 60 s
        app.requests.clear()
        status, _, new = await _request(cap, 7)
        assert status == 200 and new is not None
        assert app.requests == [("DELETE", oldest), ("POST", None)]
        assert oldest not in app.open and {listening, other_user, recent} <= app.open
        status, _, newer = await _request(cap, 7)  # recent: idle exactly RECLAIM_AFTER
        assert status == 200 and recent not in app.open and listening in app.open
        status, headers, _ = await _request(cap, 7)  # nothing idle is left
        assert status == 429 and int(headers[b"retry-after"]) == RECLAIM_AFTER
        app.release.set()
    assert (await _request(cap, 7, oldest))[0] == 404  # the SDK no longer has it
    assert other_user in app.open and newer in app.open


async def test_requests_racing_at_the_cap_never_end_the_same_session_twice() -> None:
    """Issue 37 (b): the choice and the count change before the DELETE is awaited."""
    clock, app = FakeClock(), _App()
    cap = SessionCap(app, mcp_path="/mcp", max_sessions=2, clock=clock)
    first, second = (await _request(cap, 7))[2], (await _request(cap, 7))[2]
    clock.now += RECLAIM_AFTER
    statuses: list[int] = []

    async def opening() -> None:
        statuses.append((await _request(cap, 7))[0])

    async with anyio.create_task_group() as tasks:
        for _ in range(3):
            tasks.start_soon(opening)
    assert sorted(statuses) == [200, 200, 429]
    deletes = [session for method, session in app.requests if method == "DELETE"]
    assert set(deletes) == {first, second} and len(deletes) == 2
    assert cap._count(7) == 2


async def test_without_authentication_the_sessions_share_one_capped_pool() -> None:
    """Issue 37 (c): a server without authentication caps its sessions too (2,000 of them
    doubled its memory), all in one pool; a 2026-era request opens none and is let through."""
    clock, app = FakeClock(), _App()
    cap = SessionCap(app, mcp_path="/mcp", clock=clock)
    for _ in range(MAX_SESSIONS_UNAUTHENTICATED):
        assert (await _request(cap, None))[0] == 200
    status, headers, _ = await _request(cap, None)
    assert status == 429 and int(headers[b"retry-after"]) == RECLAIM_AFTER
    assert len(app.open) == MAX_SESSIONS_UNAUTHENTICATED
    assert (await _request(cap, 7))[0] == 200  # an authenticated caller has its own count
    assert (await _request(cap, None, version="2026-07-28"))[0] == 200  # opens no session
    assert (await _request(cap, None, version="2025-06-18"))[0] == 429


def test_the_http_app_caps_sessions_with_authentication_off() -> None:
    """Issue 37 (c): ``build_http_app`` puts the cap in front of the SDK's app whether or not
    authentication is on (it was only there with authentication)."""
    config = fake_config(transport="http")
    assert not config.http_auth_enabled
    connection = ConnectionManager(config.connection_settings())
    app = build_http_app(build_server(config, connection), config, connection)
    mounted = app.routes[-1].app  # type: ignore[attr-defined]
    assert isinstance(mounted, EarlyMethods) and isinstance(mounted.app, SessionCap)
