"""REQ-HTTP-03 / REQ-HTTP-16: how many sessions one caller keeps open, and for how long.

Issue 26: the SDK's session manager caps the sessions of the whole server (10,000 by default)
but not one caller's, so one token could hold thousands of idle sessions. This ASGI middleware
(behind the Bearer check, so it knows the caller) counts each Odoo user's open sessions and
refuses a new one past ``MAX_SESSIONS_PER_CALLER`` with 429 and a JSON-RPC error that says to
DELETE old ones. The SDK's own idle timeout closes a session nobody uses; the count lets a
session go on the same timeout, on a DELETE, and when the SDK answers 404 for it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from mcp.server.streamable_http_manager import DEFAULT_SESSION_IDLE_TIMEOUT
from mcp.types import INVALID_REQUEST

from odoo_mcp.adapter.http.auth import ASGIApp, Message, Receive, Scope, Send
from odoo_mcp.adapter.http.early import answer, rpc_error
from odoo_mcp.callers import current_caller

__all__ = ["MAX_SESSIONS_PER_CALLER", "SESSION_IDLE_TIMEOUT", "SessionCap"]

#: Open sessions one Odoo user may hold at once (a client needs one, a few with retries).
MAX_SESSIONS_PER_CALLER: Final = 32
#: Seconds without a request after which the SDK closes a session (its default, set explicitly:
#: the cap below counts sessions with the same timeout).
SESSION_IDLE_TIMEOUT: Final[float] = DEFAULT_SESSION_IDLE_TIMEOUT


@dataclass
class _Open:
    """A session the count knows: when its last request ended, how many are in flight."""

    last_seen: float
    in_flight: int = 0


def _header(headers: Iterable[tuple[bytes, bytes]] | None, name: bytes) -> str | None:
    for key, value in headers or ():
        if bytes(key).lower() == name:
            return bytes(value).decode("latin-1")
    return None


class SessionCap:
    """REQ-HTTP-16: at most ``max_sessions`` open sessions per authenticated caller."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        mcp_path: str,
        max_sessions: int = MAX_SESSIONS_PER_CALLER,
        idle_timeout: float = SESSION_IDLE_TIMEOUT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.mcp_path = mcp_path.rstrip("/") or "/"
        self.max_sessions = max_sessions
        self.idle_timeout = idle_timeout
        self._clock = clock
        #: uid -> its open sessions (this process's: the SDK's sessions live here too)
        self._sessions: dict[int, dict[str, _Open]] = {}
        #: uid -> its requests without a session in flight (each may open one)
        self._opening: dict[int, int] = {}

    def _count(self, uid: int) -> int:
        """The caller's open sessions, the idle ones (closed by the SDK) forgotten first."""
        sessions = self._sessions.get(uid, {})
        now = self._clock()
        for session, seen in list(sessions.items()):
            if seen.in_flight == 0 and now - seen.last_seen >= self.idle_timeout:
                del sessions[session]
        if not sessions:
            self._sessions.pop(uid, None)
        return len(sessions) + self._opening.get(uid, 0)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """REQ-HTTP-16: a request that may open a session is refused past the caller's cap;
        a request on a session keeps it counted while it runs and restarts its idle clock."""
        caller = current_caller()
        path = str(scope.get("path", "")).rstrip("/") or "/"
        if scope.get("type") != "http" or path != self.mcp_path or caller is None:
            await self.app(scope, receive, send)
            return
        uid = caller.uid
        if uid is None:  # never admitted by BearerAuth; nothing to count it by
            await self.app(scope, receive, send)
            return
        session = _header(scope.get("headers"), b"mcp-session-id")
        if session is None:
            if scope.get("method") != "POST":  # the transport refuses it: opens nothing
                await self.app(scope, receive, send)
                return
            await self._opening_request(uid, scope, receive, send)
            return
        seen = self._sessions.get(uid, {}).get(session)
        if seen is None:  # not one this process opened for the caller: the SDK answers
            await self.app(scope, receive, send)
            return
        seen.in_flight += 1

        async def watch(message: Message) -> None:
            if message.get("type") == "http.response.start":
                status = int(message.get("status", 0))
                ended = scope.get("method") == "DELETE" and status < 300
                if ended or status == 404:  # ended now, or already gone (idle, crashed)
                    self._sessions.get(uid, {}).pop(session, None)
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            seen.in_flight -= 1
            seen.last_seen = self._clock()

    async def _opening_request(self, uid: int, scope: Scope, receive: Receive, send: Send) -> None:
        """A request without a session (an initialize opens one): refused at the cap, else
        counted while it runs, and its session from the moment the answer names it."""
        if self._count(uid) >= self.max_sessions:
            message = (
                f"Too many open sessions for this Odoo user ({self.max_sessions}): end the "
                "ones no longer used with DELETE on this endpoint (their Mcp-Session-Id), "
                f"or wait for them to idle out ({int(self.idle_timeout)} s without a request)"
            )
            await answer(send, 429, rpc_error(INVALID_REQUEST, message))
            return
        self._opening[uid] = self._opening.get(uid, 0) + 1
        opened: _Open | None = None

        async def watch(message: Message) -> None:
            nonlocal opened
            if message.get("type") == "http.response.start" and opened is None:
                session = _header(message.get("headers"), b"mcp-session-id")
                if session is not None and int(message.get("status", 0)) < 400:
                    # open from now (its answer's stream is still in flight), and no longer
                    # opening: counted once, not twice while the stream lasts
                    opened = _Open(self._clock(), in_flight=1)
                    self._sessions.setdefault(uid, {})[session] = opened
                    self._opened(uid)
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            if opened is None:
                self._opened(uid)  # it opened nothing: no longer opening either
            else:
                opened.in_flight -= 1
                opened.last_seen = self._clock()

    def _opened(self, uid: int) -> None:
        """One request of ``uid`` is no longer opening a session."""
        left = self._opening[uid] - 1
        if left:
            self._opening[uid] = left
        else:
            del self._opening[uid]
