"""REQ-HTTP-04 / REQ-HTTP-09: what the HTTP session guide answers before any session work.

The guide's state machine allows ``initialize`` and ``ping`` before a session exists, and its
error handling checks the method name "before unnecessary session lookups". The SDK's
streamable HTTP transport (mcp 2.3) does neither: it refuses a ``ping`` without a session
(400) and looks an unknown session up before it sees an unknown method (404). This ASGI
middleware sits in front of it (behind the Bearer check, decision 29) and answers those two
cases itself; every other request reaches the SDK unchanged.

Issue 26: it reads the body before the SDK does, so it applies the SDK's body limit itself
(413 once the limit is passed, the rest never read) and answers a body nested too deeply to
parse as the parse error it is (400), instead of failing with a 500.

Issue 37: a request whose params are not an object is answered -32602 with its id (the SDK
answered 400, without the id).
"""

from __future__ import annotations

import json
import typing
from typing import Any, Final

from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE
from mcp.types import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    ClientNotification,
    ClientRequest,
)

from odoo_mcp.adapter.http.auth import ASGIApp, Message, Receive, Scope, Send

__all__ = ["KNOWN_METHODS", "EarlyMethods", "answer", "rpc_error"]


def _methods(union: Any) -> frozenset[str]:
    names: set[str] = set()
    for member in typing.get_args(union):
        field = getattr(member, "model_fields", {}).get("method")
        if field is not None:
            names.update(typing.get_args(field.annotation))
    return frozenset(names)


#: every method a client may send, from the SDK's own message types
KNOWN_METHODS: Final = _methods(ClientRequest) | _methods(ClientNotification)


def rpc_error(code: int, message: str) -> dict[str, Any]:
    """A JSON-RPC error answering no request id (the request was not read)."""
    return {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}


def _not_json(constant: str) -> Any:
    """NaN and Infinity: Python reads them, JSON has no such values (nor may an answer)."""
    raise ValueError(f"{constant} is not JSON")


def _valid_id(value: object) -> bool:
    """A JSON-RPC id is a string or an integer (a bool is not one)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _valid_params(value: object) -> bool:
    """MCP params are an object; null is taken as absent, as the SDK takes it."""
    return value is None or isinstance(value, dict)


def _declared_length(scope: Scope) -> int | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the server refuses it before the app is called
    return None


async def answer(
    send: Send,
    status: int,
    body: dict[str, Any] | None,
    extra_headers: list[tuple[bytes, bytes]] | None = None,
) -> None:
    """A complete response: ``body`` as JSON, or none (202), with ``extra_headers``."""
    content = json.dumps(body).encode() if body is not None else b""
    headers = [(b"content-length", str(len(content)).encode()), *(extra_headers or ())]
    if body is not None:
        headers.append((b"content-type", b"application/json"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": content})


class EarlyMethods:
    """REQ-HTTP-04/09: ``ping`` without a session is answered; an unknown method is -32601
    whatever the session header says, before the transport looks the session up."""

    def __init__(
        self, app: ASGIApp, *, mcp_path: str, max_body_size: int = DEFAULT_MAX_REQUEST_BODY_SIZE
    ) -> None:
        self.app = app
        self.mcp_path = mcp_path.rstrip("/") or "/"
        #: the SDK's limit (its default unless the app is built with another)
        self.max_body_size = max_body_size

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", "")).rstrip("/") or "/"
        if scope.get("type") != "http" or scope.get("method") != "POST" or path != self.mcp_path:
            await self.app(scope, receive, send)
            return
        body = await self._read_body(scope, receive, send)
        if body is None:
            return
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

    async def _read_body(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """REQ-HTTP-08: the body, or None when answered (413 past the limit, declared or
        reached: the rest is not read) or when the client went away."""
        too_large = rpc_error(
            INVALID_REQUEST, f"Request body too large: the limit is {self.max_body_size} bytes"
        )
        declared = _declared_length(scope)
        if declared is not None and declared > self.max_body_size:
            await answer(send, 413, too_large)
            return None
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return None
            body += message.get("body", b"")
            if len(body) > self.max_body_size:
                await answer(send, 413, too_large)
                return None
            if not message.get("more_body"):
                return bytes(body)

    async def _answered(self, scope: Scope, body: bytes, send: Send) -> bool:
        try:
            request = json.loads(body, parse_constant=_not_json)
        except RecursionError:  # valid JSON perhaps, but deeper than anything a client sends
            await answer(
                send, 400, rpc_error(PARSE_ERROR, "Parse error: the JSON nests too deeply")
            )
            return True
        except ValueError:
            return False  # the transport answers a parse error
        if not isinstance(request, dict) or request.get("jsonrpc") != "2.0":
            return False
        method = request.get("method")
        if not isinstance(method, str):
            return False  # a response from the client
        is_request = "id" in request
        if is_request and not _valid_id(request["id"]):
            return False  # the transport refuses it (400): an answer cannot echo such an id
        if method not in KNOWN_METHODS:
            if not is_request:
                await answer(send, 202, None)  # a notification gets no answer
                return True
            error = {"code": METHOD_NOT_FOUND, "message": f"Method not found: {method}"}
            await answer(send, 200, {"jsonrpc": "2.0", "id": request["id"], "error": error})
            return True
        if "params" in request and not _valid_params(request["params"]):
            await self._bad_params(send, request, method)
            return True
        has_session = any(key.lower() == b"mcp-session-id" for key, _ in scope.get("headers", ()))
        if method == "ping" and is_request and not has_session:
            await answer(send, 200, {"jsonrpc": "2.0", "id": request["id"], "result": {}})
            return True
        return False

    @staticmethod
    async def _bad_params(send: Send, request: dict[str, Any], method: str) -> None:
        """REQ-HTTP-07 (issue 37): params that are not an object are invalid params (-32602),
        answered with the request's id and 200 like every other JSON-RPC error; the SDK
        answered 400 with no id and its validator's text (and a session-less ping, success).
        A notification has no id to answer: 400, as the transport refuses a bad message."""
        message = f"Invalid params: the params of {method} must be an object"
        if "id" not in request:
            await answer(send, 400, rpc_error(INVALID_PARAMS, message))
            return
        error = {"code": INVALID_PARAMS, "message": message}
        await answer(send, 200, {"jsonrpc": "2.0", "id": request["id"], "error": error})
