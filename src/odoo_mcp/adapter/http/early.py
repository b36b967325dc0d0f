"""REQ-HTTP-04 / REQ-HTTP-09: what the HTTP session guide answers before any session work.

The guide's state machine allows ``initialize`` and ``ping`` before a session exists, and its
error handling checks the method name "before unnecessary session lookups". The SDK's
streamable HTTP transport (mcp 2.3) does neither: it refuses a ``ping`` without a session
(400) and looks an unknown session up before it sees an unknown method (404). This ASGI
middleware sits in front of it (behind the Bearer check, decision 29) and answers those two
cases itself; every other request reaches the SDK unchanged.
"""

from __future__ import annotations

import json
import typing
from typing import Any, Final

from mcp.types import METHOD_NOT_FOUND, ClientNotification, ClientRequest

from odoo_mcp.adapter.http.auth import ASGIApp, Message, Receive, Scope, Send

__all__ = ["KNOWN_METHODS", "EarlyMethods"]


def _methods(union: Any) -> frozenset[str]:
    names: set[str] = set()
    for member in typing.get_args(union):
        field = getattr(member, "model_fields", {}).get("method")
        if field is not None:
            names.update(typing.get_args(field.annotation))
    return frozenset(names)


#: every method a client may send, from the SDK's own message types
KNOWN_METHODS: Final = _methods(ClientRequest) | _methods(ClientNotification)


async def _answer(send: Send, status: int, body: dict[str, Any] | None) -> None:
    content = json.dumps(body).encode() if body is not None else b""
    headers = [(b"content-length", str(len(content)).encode())]
    if body is not None:
        headers.append((b"content-type", b"application/json"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": content})


class EarlyMethods:
    """REQ-HTTP-04/09: ``ping`` without a session is answered; an unknown method is -32601
    whatever the session header says, before the transport looks the session up."""

    def __init__(self, app: ASGIApp, *, mcp_path: str) -> None:
        self.app = app
        self.mcp_path = mcp_path.rstrip("/") or "/"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", "")).rstrip("/") or "/"
        if scope.get("type") != "http" or scope.get("method") != "POST" or path != self.mcp_path:
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        if await self._answered(scope, body, send):
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _answered(self, scope: Scope, body: bytes, send: Send) -> bool:
        try:
            request = json.loads(body)
        except ValueError:
            return False  # the transport answers a parse error
        if not isinstance(request, dict) or request.get("jsonrpc") != "2.0":
            return False
        method = request.get("method")
        if not isinstance(method, str):
            return False  # a response from the client
        is_request = "id" in request
        if method not in KNOWN_METHODS:
            if not is_request:
                await _answer(send, 202, None)  # a notification gets no answer
                return True
            error = {"code": METHOD_NOT_FOUND, "message": f"Method not found: {method}"}
            await _answer(send, 200, {"jsonrpc": "2.0", "id": request["id"], "error": error})
            return True
        has_session = any(key.lower() == b"mcp-session-id" for key, _ in scope.get("headers", ()))
        if method == "ping" and is_request and not has_session:
            await _answer(send, 200, {"jsonrpc": "2.0", "id": request["id"], "result": {}})
            return True
        return False
