"""Issue 26, item 6: what a hostile client sends the HTTP transport, in process.

The whole app (Bearer auth, the early middleware, the SDK's transport) on an in-process fake
Odoo, except where a middleware alone is asked (the body limit: how much of a body is read).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx2
import pytest
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE
from mcp.types import INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR

from fake_odoo.demo import ADMIN_API_KEY, DEMO_API_KEY
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import FakeOdooTransport
from mcp_servers import fake_config
from odoo_mcp.adapter.http.app import build_http_app
from odoo_mcp.adapter.http.auth import CallerConnections
from odoo_mcp.adapter.http.early import EarlyMethods
from odoo_mcp.adapter.http.sessions import MAX_SESSIONS_PER_CALLER, SESSION_IDLE_TIMEOUT, SessionCap
from odoo_mcp.adapter.server import build_server
from odoo_mcp.callers import Caller, acting_as
from odoo_mcp.connection import ConnectionManager
from odoo_mcp.connection.settings import ConnectionSettings

pytestmark = pytest.mark.anyio

ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
SAFETY = {"jsonrpc": "2.0", "id": 2, "method": "resources/read",
          "params": {"uri": "odoo://config/safety"}}  # fmt: skip


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def fake() -> FakeOdoo:
    return FakeOdoo("19.0")


@asynccontextmanager
async def served(fake: FakeOdoo, **settings: object) -> AsyncIterator[httpx2.AsyncClient]:
    """The HTTP app with authentication on, its lifespan entered, and a client to it."""
    config = fake_config(transport="http", http_auth="on", **settings)
    connection = ConnectionManager(
        config.connection_settings(), transport=FakeOdooTransport(app=fake.app)
    )

    def connect(settings: ConnectionSettings) -> ConnectionManager:
        return ConnectionManager(settings, transport=FakeOdooTransport(app=fake.app))

    callers = CallerConnections(config.connection_settings(), connect=connect)
    app = build_http_app(build_server(config, connection), config, connection, callers=callers)
    async with app.router.lifespan_context(app):
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(
            transport=transport, base_url="http://127.0.0.1:8000"
        ) as http:
            yield http
    await connection.close()


def _bearer(token: str) -> dict[str, str]:
    return {**ACCEPT, "Authorization": f"Bearer {token}"}


# -- 1. a token Odoo has not verified is never admitted ------------------------------------------


async def test_unverified_token_gets_503_while_odoo_is_down(fake: FakeOdoo) -> None:
    """REQ-HTTP-13: with Odoo unreachable, a token nobody verified reads nothing: 503 with
    Retry-After and a JSON body saying why, neither at initialize nor on a resource read."""
    async with served(fake) as http:
        fake.inject_fault("refuse")
        for body in (INIT, SAFETY):
            answer = await http.post("/mcp", json=body, headers=_bearer("any-token-at-all"))
            assert answer.status_code == 503, answer.text
            assert int(answer.headers["retry-after"]) > 0
            assert answer.json()["error"] == "temporarily_unavailable"
            assert "Odoo cannot be reached" in answer.json()["error_description"]
            assert "mcp-session-id" not in answer.headers


async def test_a_token_verified_before_odoo_went_down_keeps_working(fake: FakeOdoo) -> None:
    """REQ-HTTP-13: the cached, verified caller is not asked to re-verify."""
    async with served(fake) as http:
        started = await http.post("/mcp", json=INIT, headers=_bearer(ADMIN_API_KEY))
        assert started.status_code == 200
        fake.inject_fault("refuse")
        again = await http.post("/mcp", json=INIT, headers=_bearer(ADMIN_API_KEY))
        assert again.status_code == 200 and "mcp-session-id" in again.headers
        unknown = await http.post("/mcp", json=INIT, headers=_bearer(DEMO_API_KEY))
        assert unknown.status_code == 503


# -- 2. the body limit holds before any parsing --------------------------------------------------


async def _run_early(
    chunks: Iterator[bytes], headers: list[tuple[bytes, bytes]] | None = None
) -> tuple[int, dict[str, Any], int, bool]:
    """EarlyMethods alone, fed ``chunks`` one receive at a time: the status, the JSON body,
    how many chunks it pulled, and whether the app behind it was reached."""
    pulled = 0
    reached = False
    sent: list[dict[str, Any]] = []

    async def app(_scope: Any, _receive: Any, _send: Any) -> None:
        nonlocal reached
        reached = True

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        chunk = next(chunks, None)
        if chunk is None:
            return {"type": "http.request", "body": b"", "more_body": False}
        pulled += 1
        return {"type": "http.request", "body": chunk, "more_body": True}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/mcp", "headers": headers or []}
    await EarlyMethods(app, mcp_path="/mcp")(scope, receive, send)
    status = sent[0]["status"] if sent else 0
    body = json.loads(b"".join(m.get("body", b"") for m in sent[1:]) or b"null")
    return status, body, pulled, reached


CHUNK = 65536
#: chunks of a body three times the limit (bounded: a middleware that reads it all must end)
OVERSIZE_CHUNKS = 3 * DEFAULT_MAX_REQUEST_BODY_SIZE // CHUNK


def _oversize_ping() -> Iterator[bytes]:
    yield b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"pad": "'
    for _ in range(OVERSIZE_CHUNKS):
        yield b"x" * CHUNK
    yield b'"}}'


async def test_the_early_middleware_refuses_an_oversize_body_without_reading_it_all() -> None:
    """REQ-HTTP-08: past the SDK's own limit, 413 with a JSON-RPC error; the reading stops
    there, long before the body's end."""
    status, body, pulled, reached = await _run_early(_oversize_ping())
    assert status == 413 and not reached
    assert body["jsonrpc"] == "2.0" and body["id"] is None
    assert body["error"]["code"] == INVALID_REQUEST and "too large" in body["error"]["message"]
    assert pulled * CHUNK <= DEFAULT_MAX_REQUEST_BODY_SIZE + 2 * CHUNK


async def test_a_declared_oversize_body_is_refused_before_reading_any_of_it() -> None:
    length = str(DEFAULT_MAX_REQUEST_BODY_SIZE + 1).encode()
    status, body, pulled, _ = await _run_early(_oversize_ping(), [(b"content-length", length)])
    assert status == 413 and pulled == 0 and body["error"]["code"] == INVALID_REQUEST


# -- 3. open sessions per caller are capped ------------------------------------------------------


async def test_a_caller_past_its_session_cap_is_told_to_delete_old_sessions(fake: FakeOdoo) -> None:
    """REQ-HTTP-16: each Odoo user keeps at most MAX_SESSIONS_PER_CALLER sessions open; the
    one over is 429 with a JSON-RPC error naming DELETE; another user is not affected, and
    a DELETE makes room."""
    async with served(fake) as http:
        admin = _bearer(ADMIN_API_KEY)
        opened = []
        for _ in range(MAX_SESSIONS_PER_CALLER):
            started = await http.post("/mcp", json=INIT, headers=admin)
            assert started.status_code == 200
            opened.append(started.headers["mcp-session-id"])
        over = await http.post("/mcp", json=INIT, headers=admin)
        assert over.status_code == 429 and "mcp-session-id" not in over.headers
        error = over.json()
        assert error["jsonrpc"] == "2.0" and error["error"]["code"] == INVALID_REQUEST
        assert "DELETE" in error["error"]["message"]
        demo = await http.post("/mcp", json=INIT, headers=_bearer(DEMO_API_KEY))
        assert demo.status_code == 200
        ended = await http.delete("/mcp", headers={**admin, "mcp-session-id": opened[0]})
        assert ended.status_code == 200
        assert (await http.post("/mcp", json=INIT, headers=admin)).status_code == 200


def test_sessions_idle_out_after_the_sdk_idle_timeout(fake: FakeOdoo) -> None:
    """REQ-HTTP-03: the SDK closes a session idle for SESSION_IDLE_TIMEOUT; the cap counts
    with the same timeout."""
    config = fake_config(transport="http", http_auth="on")
    connection = ConnectionManager(config.connection_settings())
    server = build_server(config, connection)
    build_http_app(server, config, connection)
    assert server.session_manager.session_idle_timeout == SESSION_IDLE_TIMEOUT


_session_ids = itertools.count()


async def _open(
    cap: SessionCap, uid: int, session: str | None, method: str = "POST", status: int = 200
) -> tuple[int, str | None]:
    """One request through ``cap`` as ``uid``, answered ``status`` by the app behind it, which
    opens a new session when the request names none: the status seen, the session opened."""
    sent: list[dict[str, Any]] = []
    headers = [] if session is None else [(b"mcp-session-id", session.encode())]
    opened = None if session is not None else f"s{next(_session_ids)}"

    async def app(_scope: Any, _receive: Any, send: Any) -> None:
        answer = [] if opened is None else [(b"mcp-session-id", opened.encode())]
        await send({"type": "http.response.start", "status": status, "headers": answer})
        await send({"type": "http.response.body", "body": b""})

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    cap.app = app
    scope = {"type": "http", "method": method, "path": "/mcp", "headers": headers}
    with acting_as(Caller(ConnectionManager(fake_config().connection_settings()), uid)):
        await cap(scope, receive, send)
    return int(sent[0]["status"]), opened


async def test_an_idle_session_stops_counting_against_the_cap() -> None:
    """REQ-HTTP-16: a session idle past the timeout is closed by the SDK, so the cap stops
    counting it; one in use keeps counting."""
    now = [0.0]
    cap = SessionCap(_never, mcp_path="/mcp", max_sessions=2, idle_timeout=60, clock=lambda: now[0])
    first = (await _open(cap, 7, None))[1]
    assert (await _open(cap, 7, None))[0] == 200
    assert (await _open(cap, 7, None))[0] == 429
    assert (await _open(cap, 8, None))[0] == 200  # another caller
    now[0] += 30
    assert (await _open(cap, 7, first))[0] == 200  # in use: its idle clock starts again
    now[0] += 31  # the second idle for 61 s, the first for 31 s
    assert (await _open(cap, 7, None))[0] == 200
    assert (await _open(cap, 7, None))[0] == 429


async def test_a_deleted_or_vanished_session_stops_counting_against_the_cap() -> None:
    """REQ-HTTP-03: a DELETE ends a session; a 404 on it says the SDK no longer has it."""
    cap = SessionCap(_never, mcp_path="/mcp", max_sessions=1)
    opened = (await _open(cap, 7, None))[1]
    assert (await _open(cap, 7, None))[0] == 429
    assert (await _open(cap, 7, opened, "DELETE"))[0] == 200
    opened = (await _open(cap, 7, None))[1]
    assert (await _open(cap, 7, None))[0] == 429
    assert (await _open(cap, 7, opened, status=404))[0] == 404
    assert (await _open(cap, 7, None))[0] == 200


async def test_an_initialize_still_streaming_counts_once() -> None:
    """REQ-HTTP-16: an initialize whose answer named its session but is still streaming is one
    session, not two (counted as opening and as open: 25 clients of one user starting at once
    were refused at 32, ``bench/http_load.py``)."""
    cap = SessionCap(_never, mcp_path="/mcp", max_sessions=3)
    streaming = anyio.Event()
    statuses: list[int] = []

    async def app(_scope: Any, _receive: Any, send: Any) -> None:
        name = f"s{next(_session_ids)}".encode()
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"mcp-session-id", name)]})  # fmt: skip
        await streaming.wait()  # the answer's SSE stream is still open
        await send({"type": "http.response.body", "body": b""})

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def initialize() -> None:
        sent: list[dict[str, Any]] = []

        async def send(message: Any) -> None:
            sent.append(message)

        scope = {"type": "http", "method": "POST", "path": "/mcp", "headers": []}
        with acting_as(Caller(ConnectionManager(fake_config().connection_settings()), 7)):
            await cap(scope, receive, send)
        statuses.append(int(sent[0]["status"]))

    cap.app = app
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(initialize)
        tasks.start_soon(initialize)
        await anyio.wait_all_tasks_blocked()  # both answered their session, both streaming
        tasks.start_soon(initialize)  # a third of three may open
        await anyio.wait_all_tasks_blocked()
        tasks.start_soon(initialize)  # a fourth may not
        await anyio.wait_all_tasks_blocked()
        streaming.set()
    assert sorted(statuses) == [200, 200, 200, 429]


async def _never(_scope: Any, _receive: Any, _send: Any) -> None:
    raise AssertionError("replaced by each request")


# -- 4. malformed headers and bodies are 4xx, never 500 ------------------------------------------


async def test_a_non_ascii_bearer_token_is_401_invalid_token(fake: FakeOdoo) -> None:
    """REQ-HTTP-13: the normal refusal, and Odoo is not asked."""
    async with served(fake) as http:
        fake.reset_calls()
        headers = {**ACCEPT, "Authorization": "Bearer caf\xe9-key".encode("latin-1")}
        answer = await http.post("/mcp", json=INIT, headers=headers)  # type: ignore[arg-type]
        assert answer.status_code == 401
        assert answer.json()["error"] == "invalid_token"
        assert answer.headers["www-authenticate"].startswith("Bearer ")
        assert fake.calls == []


@pytest.mark.parametrize(
    "shape", ["[" * 100_000 + "]" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000]
)
async def test_a_deeply_nested_body_is_a_400_parse_error(fake: FakeOdoo, shape: str) -> None:
    """REQ-HTTP-08: a malformed body is a 400 parse error, with or without a session."""
    async with served(fake) as http:
        started = await http.post("/mcp", json=INIT, headers=_bearer(ADMIN_API_KEY))
        session = {"mcp-session-id": started.headers["mcp-session-id"]}
        for headers in (_bearer(ADMIN_API_KEY), {**_bearer(ADMIN_API_KEY), **session}):
            answer = await http.post("/mcp", content=shape.encode(), headers=headers)
            assert answer.status_code == 400, answer.text
            assert answer.json()["error"]["code"] == PARSE_ERROR


@pytest.mark.parametrize(
    "body",
    ['{"jsonrpc": "2.0", "id": NaN, "method": "ping"}',
     '{"jsonrpc": "2.0", "id": [1], "method": "ping"}',
     '{"jsonrpc": "2.0", "id": {}, "method": "no/such/method"}'],
)  # fmt: skip
async def test_an_id_json_rpc_does_not_allow_is_never_echoed_in_an_early_answer(
    fake: FakeOdoo, body: str
) -> None:
    """REQ-HTTP-08: the early answers (ping, unknown method) echo the request's id: one that
    is not a JSON-RPC id (NaN is not even JSON) is the transport's 400 instead."""
    async with served(fake) as http:
        answer = await http.post("/mcp", content=body.encode(), headers=_bearer(ADMIN_API_KEY))
        assert answer.status_code == 400, answer.text
        assert answer.json()["error"]["code"] in (PARSE_ERROR, INVALID_PARAMS, INVALID_REQUEST)
