"""Fault injection: what a flaky network, proxy or server does to an Odoo client.

Not part of Odoo: an ASGI middleware in front of the fake's routes (never in front of
the ``/__fake__/`` control API).  Each fault targets an optional protocol
(``xmlrpc``, ``jsonrpc``, ``web``, ``json2``, ``http``) and/or path prefix and is either
one-shot (``count``) or persistent until cleared.  Kinds and what the client sees:

- ``latency``: the request is served after ``seconds`` (combines with the others);
- ``refuse``: the connection is aborted (TCP RST) before the request is handled;
- ``drop``: the request IS handled (changes are committed), then the connection is
  aborted without a response;
- ``http_status``: an nginx-like HTML error page with ``status`` (500/502/503);
- ``rate_limit``: 429 with ``Retry-After: <retry_after>``;
- ``malformed``: HTTP 200 with a truncated body of the protocol's content type;
- ``expire_sessions``: every web session is dropped, so the request gets error 100.
- ``odoo_error``: the object call ``method`` on ``model`` (either may be omitted: any)
  raises the exception class named ``exception`` (a dotted name as Odoo reports it:
  ``odoo.exceptions.ValidationError``, ``psycopg2.errors.UniqueViolation``,
  ``builtins.ValueError``, or any other) with ``message``, before the ORM runs.  Each
  protocol renders it as real Odoo renders that class (XML-RPC fault code and traceback
  ending ``module.Class: message``, JSON-RPC ``error.data``, JSON-2 status and body): see
  ``fake_odoo.wire``.  A psycopg2 error is raised bare, as an Odoo that does not turn it
  into a ValidationError would send it.

A timeout is ``latency`` longer than the client's timeout; an XML-RPC ``ProtocolError``
is any ``http_status`` on the ``xmlrpc`` protocol.

In served mode the socket is aborted through the transport the server puts in the
scope (see ``fake_odoo.server``); in process (no socket) ``FakeConnectionError`` is
raised instead, which ``fake_odoo.testing`` maps to httpx2's transport errors.
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["KINDS", "FakeConnectionError", "Fault", "FaultBook", "FaultMiddleware", "protocol_of"]

KINDS = (
    "latency", "refuse", "drop", "http_status", "rate_limit", "malformed", "expire_sessions",
    "odoo_error",
)  # fmt: skip
TRANSPORT_KEY = "fake_odoo.transport"
#: the path of the request being served (None outside one: control calls never fault)
REQUEST_PATH: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "fake_odoo_request_path", default=None
)
_ids = itertools.count(1)

_REASONS = {
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Temporarily Unavailable",
    504: "Gateway Time-out",
}


class FakeConnectionError(ConnectionError):
    """In-process stand-in for a refused or dropped connection (``kind`` says which)."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"fake-odoo injected fault: {kind}")
        self.kind = kind


def protocol_of(path: str) -> str:
    """The protocol a path belongs to, as used by fault targets and the call log."""
    if path.startswith("/xmlrpc"):
        return "xmlrpc"
    if path.startswith("/jsonrpc"):
        return "jsonrpc"
    if path.startswith("/json/2"):
        return "json2"
    if path.startswith("/web/"):
        return "web"
    return "http"


@dataclass
class Fault:
    """One injected fault.  ``count=None`` means persistent until ``clear``."""

    kind: str
    protocol: str | None = None
    path: str | None = None
    count: int | None = None
    seconds: float = 0.0
    status: int = 502
    retry_after: int = 1
    body: str | None = None
    #: odoo_error: the call it targets (None: any) and the exception it raises
    model: str | None = None
    method: str | None = None
    exception: str = "odoo.exceptions.UserError"
    message: str = ""
    id: int = field(default_factory=lambda: next(_ids))

    def matches(self, path: str) -> bool:
        if self.protocol is not None and protocol_of(path) != self.protocol:
            return False
        return self.path is None or path.startswith(self.path)

    def matches_call(self, path: str, model: str, method: str) -> bool:
        return self.matches(path) and self.model in (None, model) and self.method in (None, method)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class FaultBook:
    """The active faults; ``take`` consumes the ones a request triggers."""

    def __init__(self) -> None:
        self._faults: list[Fault] = []
        self._lock = threading.Lock()

    def add(self, fault: Fault) -> Fault:
        if fault.kind not in KINDS:
            raise ValueError(f"unknown fault kind {fault.kind!r}; expected one of {KINDS}")
        with self._lock:
            self._faults.append(fault)
        return fault

    def clear(self) -> None:
        with self._lock:
            self._faults.clear()

    def active(self) -> list[Fault]:
        with self._lock:
            return list(self._faults)

    def take(self, path: str) -> list[Fault]:
        """The faults for this request: all latency/expiry ones, plus the first other one."""
        taken: list[Fault] = []
        terminal = False
        with self._lock:
            for fault in list(self._faults):
                if fault.kind == "odoo_error" or not fault.matches(path):
                    continue
                if fault.kind not in ("latency", "expire_sessions"):
                    if terminal:
                        continue
                    terminal = True
                taken.append(fault)
                if fault.count is not None:
                    fault.count -= 1
                    if fault.count <= 0:
                        self._faults.remove(fault)
        return taken

    def take_call(self, model: str, method: str) -> Fault | None:
        """The first ``odoo_error`` fault for this object call within a served request."""
        path = REQUEST_PATH.get()
        if path is None:
            return None
        with self._lock:
            for fault in self._faults:
                if fault.kind == "odoo_error" and fault.matches_call(path, model, method):
                    if fault.count is not None:
                        fault.count -= 1
                        if fault.count <= 0:
                            self._faults.remove(fault)
                    return fault
        return None


def _proxy_page(status: int) -> bytes:
    title = f"{status} {_REASONS.get(status, 'Error')}"
    return (
        f"<html>\r\n<head><title>{title}</title></head>\r\n<body>\r\n"
        f"<center><h1>{title}</h1></center>\r\n<hr><center>nginx</center>\r\n"
        "</body>\r\n</html>\r\n"
    ).encode()


def _garbage(path: str) -> tuple[bytes, str]:
    if protocol_of(path) == "xmlrpc":
        return (
            b'<?xml version="1.0"?>\n<methodResponse>\n<params>\n<param>\n<value><str',
            "text/xml; charset=utf-8",
        )
    return b'{"jsonrpc": "2.0", "id": 1, "resu', "application/json; charset=utf-8"


async def _send_simple(
    send: Send, status: int, body: bytes, headers: list[tuple[str, str]]
) -> None:
    raw = [(k.encode(), v.encode()) for k, v in headers]  # nginx capitalises names
    raw.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


async def _abort(scope: Scope, kind: str) -> None:
    transport = scope.get(TRANSPORT_KEY)
    if transport is None:
        raise FakeConnectionError(kind)
    transport.abort()
    # let the server notice the disconnection before the app returns (no 500 is attempted)
    for _ in range(3):
        await asyncio.sleep(0)


class FaultMiddleware:
    """ASGI middleware applying the faults of a ``FaultBook``."""

    def __init__(self, app: ASGIApp, book: FaultBook, expire_sessions: Callable[[], None]) -> None:
        self.app = app
        self.book = book
        self.expire_sessions = expire_sessions

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or path.startswith("/__fake__"):
            await self.app(scope, receive, send)
            return
        REQUEST_PATH.set(path)  # read by FakeOdoo.call_kw for odoo_error faults
        terminal: Fault | None = None
        for fault in self.book.take(path):
            if fault.kind == "latency":
                await asyncio.sleep(fault.seconds)
            elif fault.kind == "expire_sessions":
                self.expire_sessions()
            else:
                terminal = fault
        if terminal is None:
            await self.app(scope, receive, send)
        elif terminal.kind == "refuse":
            await _abort(scope, "refuse")
        elif terminal.kind == "drop":

            async def swallow(message: Message) -> None:
                return None

            await self.app(scope, receive, swallow)
            await _abort(scope, "drop")
        elif terminal.kind in ("http_status", "rate_limit"):
            status = 429 if terminal.kind == "rate_limit" else terminal.status
            headers = [("Content-Type", "text/html"), ("Server", "nginx")]
            if status == 429:
                headers.append(("Retry-After", str(terminal.retry_after)))
            body = terminal.body.encode() if terminal.body is not None else _proxy_page(status)
            await _send_simple(send, status, body, headers)
        else:  # malformed
            body, content_type = _garbage(path)
            if terminal.body is not None:
                body = terminal.body.encode()
            await _send_simple(send, 200, body, [("Content-Type", content_type)])
