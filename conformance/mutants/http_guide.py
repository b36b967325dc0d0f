"""Mutants of http_guide, the MCP HTTP session guide (see registry.py).

Most defects sit in one ASGI layer put around the reference's HTTP app (``_outer``): it sees
each request before the reference does and can rewrite its answer, as a faulty proxy or a
faulty endpoint would. The others patch one seam of ``odoo_mcp.adapter.http`` or the callers.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from _sabotage import patch_everywhere
from registry import mutant

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]
#: the layer: (the reference's app, scope, the request's body, replaying receive, send)
Layer = Callable[[App, Scope, bytes, Receive, Send], Awaitable[None]]


def _outer(layer: Layer) -> None:
    """Put ``layer`` around the app ``build_http_app`` returns (every HTTP request)."""
    from odoo_mcp.adapter.http import app as http_app

    original = http_app.build_http_app

    def build(*args: Any, **kwargs: Any) -> Any:
        inner: App = original(*args, **kwargs)

        async def app(scope: Scope, receive: Receive, send: Send) -> None:
            if scope.get("type") != "http":
                await inner(scope, receive, send)
                return
            body = bytearray()
            while True:
                message = await receive()
                body += message.get("body", b"")
                if message["type"] != "http.request" or not message.get("more_body"):
                    break
            sent = False

            async def replay() -> dict[str, Any]:
                nonlocal sent
                if not sent:
                    sent = True
                    return {"type": "http.request", "body": bytes(body), "more_body": False}
                return await receive()

            await layer(inner, scope, bytes(body), replay, send)

        return app

    patch_everywhere(original, build)


def _rpc(body: bytes) -> dict[str, Any]:
    try:
        message = json.loads(body or b"null")
    except ValueError:
        return {}
    return message if isinstance(message, dict) else {}


def _session(scope: Scope) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == b"mcp-session-id":
            return bytes(value).decode("latin-1")
    return None


async def _reply(send: Send, status: int, body: dict[str, Any] | None) -> None:
    data = json.dumps(body).encode() if body is not None else b""
    headers = [(b"content-type", b"application/json")] if body is not None else []
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


def _issued(sessions: dict[str, float], send: Send) -> Send:
    """A send that records the session ids the answers hand out (and when)."""

    async def recording(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            for key, value in message.get("headers", ()):
                if key.lower() == b"mcp-session-id":
                    sessions[bytes(value).decode("latin-1")] = time.monotonic()
        await send(message)

    return recording


@mutant(
    transport="http",
    kills=["REQ-HTTP-01"],
    seed="HTTP guide, Architecture overview: 'The MCP server implements a stateful JSON-RPC "
    "2.0 server'",
)
def http_answers_jsonrpc_1() -> None:
    """The answers the endpoint gives itself, before the MCP transport (ping without a
    session, unknown methods), say "jsonrpc": "1.0"."""
    from odoo_mcp.adapter.http import early

    original = early.answer

    async def answer(send: Send, status: int, body: dict[str, Any] | None) -> None:
        await original(send, status, {**body, "jsonrpc": "1.0"} if body else body)

    patch_everywhere(original, answer)


@mutant(
    transport="http",
    kills=["REQ-HTTP-02"],
    seed="HTTP guide, Request flow: 'Controller->>Client: Return capabilities + session-id'",
)
def http_initialize_without_session_id() -> None:
    """The answer to initialize carries no Mcp-Session-Id header."""

    async def layer(app: App, scope: Scope, body: bytes, receive: Receive, send: Send) -> None:
        async def strip(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", ()) if h[0] != b"mcp-session-id"]
                message = {**message, "headers": headers}
            await send(message)

        await app(scope, receive, strip if _rpc(body).get("method") == "initialize" else send)

    _outer(layer)


@mutant(
    transport="http",
    kills=["REQ-HTTP-03"],
    seed="HTTP guide, Session state machine: 'initialized --> [*]: DELETE /mcp'",
)
def http_delete_keeps_session() -> None:
    """DELETE on the endpoint is answered 200 but the session lives on."""

    async def layer(app: App, scope: Scope, body: bytes, receive: Receive, send: Send) -> None:
        if scope.get("method") == "DELETE":
            await _reply(send, 200, None)
            return
        await app(scope, receive, send)

    _outer(layer)


@mutant(
    transport="http",
    kills=["REQ-HTTP-04"],
    seed="HTTP guide, Session state machine: 'not_initialized: Methods: initialize, ping'",
)
def http_ping_needs_session() -> None:
    """A ping without a session id is refused 400 like any other session-less request."""

    async def layer(app: App, scope: Scope, body: bytes, receive: Receive, send: Send) -> None:
        if _rpc(body).get("method") == "ping" and _session(scope) is None:
            error = {"code": -32600, "message": "Bad Request: Missing session ID"}
            await _reply(send, 400, {"jsonrpc": "2.0", "id": "server-error", "error": error})
            return
        await app(scope, receive, send)

    _outer(layer)


@mutant(
    transport="http",
    kills=["REQ-HTTP-05"],
    seed="HTTP guide, Concurrent request handling: '`initializing` state allows all methods "
    "to handle Claude Desktop's parallel discovery requests'",
)
def http_initializing_refuses_discovery() -> None:
    """Until notifications/initialized, a session accepts only ping (400 for the rest)."""
    ready: set[str] = set()

    async def layer(app: App, scope: Scope, body: bytes, receive: Receive, send: Send) -> None:
        session, method = _session(scope), _rpc(body).get("method")
        if session is not None and method == "notifications/initialized":
            ready.add(session)
        elif session is not None and session not in ready and method not in (None, "ping"):
            error = {"code": -32600, "message": "Session not initialized"}
            await _reply(send, 400, {"jsonrpc": "2.0", "id": None, "error": error})
            return
        await app(scope, receive, send)

    _outer(layer)


@mutant(
    transport="http",
    kills=["REQ-HTTP-06"],
    seed="HTTP guide, Request flow: 'POST /mcp (notifications/initialized) ... "
    "Controller->>Client: 202 Accepted'",
)
def http_notification_answered_200() -> None:
    """A notification is answered 200 with an empty JSON object, not 202 without a body."""

    async def layer(app: App, scope: Scope, body: bytes, receive: Receive, send: Send) -> None:
        async def rewrite(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start" and message["status"] == 202:
                await send({**message, "status": 200})
                await send({"type": "http.response.body", "body": b"{}"})
                return
            if message["type"] == "http.response.body" and rewritten:
                return
            await send(message)

        rewritten = str(_rpc(body).get("method", "")).startswith("notifications/")
        await app(scope, receive, rewrite if rewritten else send)

    _outer(layer)


@mutant(
    transport="http",
    kills=["REQ-HTTP-07"],
    seed="HTTP guide, Error handling: 'Proper HTTP status codes (200 for JSON-RPC, 400/404 "
    "for transport errors)'",
)
def http_rpc_error_as_400() -> None:
    """On a live session, a JSON-RPC error (unknown method) travels with HTTP status 400."""
    sessions: dict[str, float] = {}

    async def layer(app: App, scope: Scope, body: bytes, receive: Receive, send: Send) -> None:
        message = _rpc(body)
        if _session(scope) in sessions and str(message.get("method", "")).startswith("no/"):
            error = {"code": -32601, "message": f"Method not found: {message['method']}"}
            await _reply(send, 400, {"jsonrpc": "2.0", "id": message.get("id"), "error": error})
            return
        await app(scope, receive, _issued(sessions, send))

    _outer(layer)


@mutant(
    transport="http",
    kills=["REQ-HTTP-08"],
    seed="HTTP guide, Error handling: 'Proper HTTP status codes (200 for JSON-RPC, 400/404 "
    "for transport errors)'",
    select="REQ-HTTP-08 and not REQ-HTTP-03",
)
def http_unknown_session_400() -> None:
    """An unknown session id is answered 400 instead of 404."""

    async def layer(app: App, scope: Scope, body: bytes, receive: Receive, send: Send) -> None:
        async def rewrite(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start" and message["status"] == 404:
                message = {**message, "status": 400}
            await send(message)

        await app(scope, receive, rewrite)

    _outer(layer)


@mutant(
    transport="http",
    kills=["REQ-HTTP-09"],
    seed="HTTP guide, Error handling: 'Early method validation prevents unnecessary session "
    "lookups'",
    select="REQ-HTTP-09 and not REQ-HTTP-07",
)
def http_session_before_method() -> None:
    """The session id is looked up before the method: an unknown session is 404 whatever the
    method."""
    sessions: dict[str, float] = {}

    async def layer(app: App, scope: Scope, body: bytes, receive: Receive, send: Send) -> None:
        session = _session(scope)
        if session is not None and session not in sessions and scope.get("method") == "POST":
            error = {"code": -32600, "message": "Session not found"}
            await _reply(send, 404, {"jsonrpc": "2.0", "id": "server-error", "error": error})
            return
        await app(scope, receive, _issued(sessions, send))

    _outer(layer)


@mutant(
    transport="http",
    kills=["REQ-HTTP-10"],
    seed="HTTP guide, Configuration: 'Protocol Version: Auto-negotiation with MCP 2025-06-18 "
    "support'",
)
def http_unknown_version_refused() -> None:
    """initialize asking for a protocol version the server does not know is refused with a
    JSON-RPC error instead of being answered with a version the server supports."""
    known = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}

    async def layer(app: App, scope: Scope, body: bytes, receive: Receive, send: Send) -> None:
        message = _rpc(body)
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        version = (params or {}).get("protocolVersion")
        if message.get("method") == "initialize" and version not in known:
            error = {"code": -32602, "message": f"Unsupported protocol version: {version}"}
            await _reply(send, 200, {"jsonrpc": "2.0", "id": message.get("id"), "error": error})
            return
        await app(scope, receive, send)

    _outer(layer)


def _build_with(**changes: Any) -> None:
    """Build the HTTP app from a configuration with ``changes`` (one setting ignored)."""
    from odoo_mcp.adapter.http import app as http_app

    original = http_app.build_http_app

    def build(server: Any, config: Any, *args: Any, **kwargs: Any) -> Any:
        return original(server, config.model_copy(update=changes), *args, **kwargs)

    patch_everywhere(original, build)


@mutant(
    transport="http",
    kills=["REQ-HTTP-11"],
    seed="HTTP guide, Configuration: 'Mode: Stateful (recommended) vs Stateless'",
)
def http_stateless_ignored() -> None:
    """The stateless setting is ignored: the server keeps stateful sessions."""
    _build_with(stateless_http=False)


@mutant(
    transport="http",
    kills=["REQ-HTTP-21"],
    seed="HTTP guide, Configuration: 'Mode: Stateful (recommended) vs Stateless'",
)
def http_stateless_by_default() -> None:
    """The server is stateless unless told otherwise (no Mcp-Session-Id by default)."""
    _build_with(stateless_http=True)


@mutant(
    transport="http",
    kills=["REQ-HTTP-12"],
    seed="HTTP guide, Configuration: 'External URL: Override for Docker/container environments'",
)
def http_public_url_ignored() -> None:
    """The public URL is not taken as the server's own: requests naming its host are refused."""
    from odoo_mcp.adapter.http import app as http_app

    original = http_app.transport_security

    def security(config: Any) -> Any:
        return original(config.model_copy(update={"public_url": None}))

    patch_everywhere(original, security)


@mutant(
    transport="http",
    kills=["REQ-HTTP-13"],
    seed="HTTP guide, Authentication flow: '`tools/call` requires Bearer authentication'",
)
def http_call_without_token() -> None:
    """A request without an Authorization header skips authentication and acts as the
    server's own Odoo user."""
    from odoo_mcp.adapter.http.auth import BearerAuth

    original = BearerAuth.__call__

    async def call(self: Any, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers", ()))
        if scope.get("type") == "http" and b"authorization" not in headers:
            await self.app(scope, receive, send)
            return
        await original(self, scope, receive, send)

    BearerAuth.__call__ = call  # type: ignore[method-assign]


@mutant(
    transport="http",
    kills=["REQ-HTTP-15", "REQ-HTTP-16"],
    seed="HTTP guide, Authentication flow: 'Tools execute with authenticated user's Odoo "
    "permissions'",
    select="REQ-HTTP-15",
)
def http_tools_run_as_server_user() -> None:
    """Tools call Odoo through the server's own connection, whoever the caller is."""
    from odoo_mcp.callers import CallerRouter

    CallerRouter.current = property(lambda self: self.own)  # type: ignore[assignment,method-assign]


@mutant(
    transport="http",
    kills=["REQ-HTTP-20"],
    seed="HTTP guide, Concurrent request handling: 'Explicit `session._cr.commit()` ensures "
    "immediate state visibility'",
)
def http_new_session_not_yet_visible() -> None:
    """A session is unknown (404) to requests in the second after its initialize answer, as
    with an uncommitted session row."""
    sessions: dict[str, float] = {}

    async def layer(app: App, scope: Scope, body: bytes, receive: Receive, send: Send) -> None:
        opened = sessions.get(_session(scope) or "")
        if opened is not None and time.monotonic() - opened < 1.0:
            error = {"code": -32600, "message": "Session not found"}
            await _reply(send, 404, {"jsonrpc": "2.0", "id": "server-error", "error": error})
            return
        await app(scope, receive, _issued(sessions, send))

    _outer(layer)
