"""Issue 37: what a connection to the HTTP transport may hold, and whose address it is.

uvicorn alone held 3,000 idle connections and 750 slowloris sockets (a request head sent one
byte at a time) for as long as their clients liked: its keep-alive timeout starts only after
a first response, and it has no timeout on reading a request head. It also believed
``X-Forwarded-For`` from 127.0.0.1 unless told otherwise (``FORWARDED_ALLOW_IPS``), so a
client on the same host, or behind a proxy there, chose the address the failed-authentication
limit counts. :class:`BoundedH11Protocol` is uvicorn's own h11 protocol with a head timeout and
RFC 9112's rule for a request framed twice; :func:`trusted_proxies` is the only source of
proxy trust.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from typing import Any, Final

import h11
from h11._connection import DEFAULT_MAX_INCOMPLETE_EVENT_SIZE  # as uvicorn reads it
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

__all__ = [
    "BODY_TIMEOUT",
    "HEAD_TIMEOUT",
    "KEEP_ALIVE_TIMEOUT",
    "MAX_CONNECTIONS",
    "STATE_PING_TIMEOUT",
    "BoundedH11Protocol",
    "trusted_proxies",
]

logger = logging.getLogger("odoo_mcp.http")

#: Seconds a request head may take to arrive, from the connection's opening or the first byte
#: of a later request (HAProxy's ``timeout http-request`` of docs/fleet.md is the same 10 s).
HEAD_TIMEOUT: float = 10.0
#: Seconds a request body may take to arrive once its head is in, not counting the time the
#: server itself stops reading (its buffer full while the app has not read it yet): a 4 MiB
#: body (the SDK's limit) needs 0.6 Mbit/s, and a body sent a byte at a time is bounded.
BODY_TIMEOUT: float = 60.0
#: Seconds an idle keep-alive connection is kept after its last response.
KEEP_ALIVE_TIMEOUT: int = 5
#: Connections and requests at once; past it a new request is answered 503 (uvicorn's
#: ``limit_concurrency``). Generous: SSE streams each hold one for as long as they last.
MAX_CONNECTIONS: int = 1000
#: Seconds ``GET /health`` waits for the shared state's ping (Redis's socket timeout is 2 s).
STATE_PING_TIMEOUT: float = 1.0

_TIMED_OUT: Final = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
)


class _StrictConnection(h11.Connection):
    """h11 with RFC 9112 §6.1's rule: a request with both ``Transfer-Encoding`` and
    ``Content-Length`` is refused (h11 reads it as chunked and keeps the connection, which
    lets a request be smuggled past a proxy that trusts the length)."""

    def next_event(self) -> Any:
        event = super().next_event()
        if isinstance(event, h11.Request):
            names = {name.lower() for name, _ in event.headers}
            if b"transfer-encoding" in names and b"content-length" in names:
                # uvicorn answers a RemoteProtocolError 400 with Connection: close, then closes
                raise h11.RemoteProtocolError("both Transfer-Encoding and Content-Length")
        return event


class BoundedH11Protocol(H11Protocol):
    """REQ-HTTP-01, REQ-HTTP-08 (issue 37): uvicorn's h11 protocol, with a request head due
    within ``HEAD_TIMEOUT`` seconds (else 408 and the connection closed; a connection that
    sent nothing is closed silently), its body within ``BODY_TIMEOUT`` seconds of the head
    while the server reads (else 408 unless a response has started, and closed) and a
    twice-framed request answered 400 and closed.

    Given to uvicorn explicitly (``http=``): ``"auto"`` would pick httptools when it is
    installed, and these rules would then not hold."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        size = config.h11_max_incomplete_event_size
        self.conn = _StrictConnection(h11.SERVER, size or DEFAULT_MAX_INCOMPLETE_EVENT_SIZE)
        self._head_timeout = HEAD_TIMEOUT  # read now: a test may set the module's value
        self._body_timeout = BODY_TIMEOUT
        self._head_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        # uvicorn's keep-alive timer starts after a first response: nothing bounds a
        # connection that never sends a whole request, but this
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch_head()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch_head()  # a pipelined request may be waiting, partly read

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._body_done()
        super().connection_lost(exc)

    def _watch_head(self) -> None:
        """The timer runs while a request head is incomplete: from the opening (``_arm`` in
        ``connection_made``) or the first byte of a later one, never restarted by more bytes.
        Then the body's runs until the body is in."""
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            self._disarm()  # the head is in (or the connection is going)
        elif self.conn.trailing_data[0] and self._head_timer is None:
            self._arm()
        if self.conn.their_state is h11.SEND_BODY and not self.transport.is_closing():
            if self._body_timer is None:
                self._body_timer = self.loop.call_later(self._body_timeout, self._body_expired)
        else:
            self._body_done()

    def _body_done(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _body_expired(self) -> None:
        self._body_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.SEND_BODY:
            return
        if self.flow.read_paused:  # the server stopped reading, not the client: wait on
            self._body_timer = self.loop.call_later(self._body_timeout, self._body_expired)
            return
        cycle = self.cycle
        if cycle is None or not cycle.response_started:
            self.transport.write(_TIMED_OUT)
            if cycle is not None:
                cycle.response_started = cycle.response_complete = True  # the app's goes nowhere
        self.transport.close()

    def _arm(self) -> None:
        self._head_timer = self.loop.call_later(self._head_timeout, self._head_expired)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_expired(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        if self.conn.trailing_data[0]:  # part of a head came: say why it ends
            self.transport.write(_TIMED_OUT)
        self.transport.close()


def trusted_proxies(configured: Sequence[str], environ: Mapping[str, str]) -> list[str]:
    """REQ-HTTP-13 (issue 37, decision 29): the addresses whose ``X-Forwarded-For`` uvicorn
    believes: the configured ones (``trusted_proxies``), never ``FORWARDED_ALLOW_IPS``, which
    uvicorn reads when it is given none and which would let a client choose the address its
    failed authentications are counted under."""
    if environ.get("FORWARDED_ALLOW_IPS", "").strip():
        logger.warning(
            "FORWARDED_ALLOW_IPS is ignored: forwarded headers are believed only from "
            "ODOO_MCP_TRUSTED_PROXIES (%s)",
            ", ".join(configured) or "none",
        )
    return list(configured)
