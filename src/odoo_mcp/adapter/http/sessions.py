"""REQ-HTTP-03 / REQ-HTTP-16: how many sessions one caller keeps open, and for how long.

Issue 26: the SDK's session manager caps the sessions of the whole server (10,000 by default)
but not one caller's, so one token could hold thousands of idle sessions. This ASGI middleware
(behind the Bearer check, so it knows the caller) counts each Odoo user's open sessions, at
most ``MAX_SESSIONS_PER_CALLER``. The SDK's own idle timeout closes a session nobody uses; the
count lets a session go on the same timeout, on a DELETE, and when the SDK answers 404 for it.

Issue 37:

* At the cap, a new session first takes the place of the caller's least recently used one
  that has no request in flight (an open GET stream is one) and has had none for
  ``RECLAIM_AFTER`` seconds: that session is ended through the SDK, as if its client had sent
  DELETE, so its subscriptions end with it. Crashed clients (sessions opened, then never used
  nor deleted) no longer lock their user out until the SDK's 30-minute idle timeout. Only when
  no session qualifies is the request refused: 429, a JSON-RPC error saying to DELETE old
  sessions, and ``Retry-After`` (the seconds until the next session qualifies; the whole
  ``RECLAIM_AFTER`` when every session is busy).
* Without authentication there is no caller to count by: every session is in one shared
  pool, at most ``MAX_SESSIONS_UNAUTHENTICATED`` (2,000 sessions took the server from 75 to
  151 MB; 256 is more than a loopback server's clients need, and bounds that to a few MB).
* A request of the 2026-07-28 era (its ``MCP-Protocol-Version`` is not a handshake version)
  never opens a session: it is not counted, nor refused, nor allowed to end a session.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from mcp.server.streamable_http_manager import DEFAULT_SESSION_IDLE_TIMEOUT
from mcp.types import INVALID_REQUEST
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from odoo_mcp.adapter.http.auth import ASGIApp, Message, Receive, Scope, Send
from odoo_mcp.adapter.http.early import answer, rpc_error
from odoo_mcp.callers import current_caller

__all__ = [
    "MAX_SESSIONS_PER_CALLER",
    "MAX_SESSIONS_UNAUTHENTICATED",
    "RECLAIM_AFTER",
    "SESSION_IDLE_TIMEOUT",
    "SessionCap",
]

logger = logging.getLogger(__name__)

#: Open sessions one Odoo user may hold at once (a client needs one, a few with retries).
MAX_SESSIONS_PER_CALLER: Final = 32
#: Open sessions of a server without authentication, all callers together (issue 37).
MAX_SESSIONS_UNAUTHENTICATED: Final = 256
#: Seconds without a request after which the SDK closes a session (its default, set explicitly:
#: the cap below counts sessions with the same timeout).
SESSION_IDLE_TIMEOUT: Final[float] = DEFAULT_SESSION_IDLE_TIMEOUT
#: Seconds a session must have been idle (nothing in flight) before a new session of the same
#: caller may end it at the cap (issue 37). A live client either holds its GET stream open
#: (never idle) or sends its requests within seconds of each other, initialize included; a
#: minute leaves a slow handshake or a model thinking between calls alone, and is the longest
#: a user whose clients crashed waits.
RECLAIM_AFTER: Final[float] = 60.0

#: whose sessions are counted together: an Odoo uid, or None: the shared pool (no auth)
_Pool = int | None


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
    """REQ-HTTP-16: at most ``max_sessions`` open sessions per authenticated caller, and at
    most ``max_shared`` in all for requests without a caller (authentication off)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        mcp_path: str,
        max_sessions: int = MAX_SESSIONS_PER_CALLER,
        max_shared: int = MAX_SESSIONS_UNAUTHENTICATED,
        idle_timeout: float = SESSION_IDLE_TIMEOUT,
        reclaim_after: float = RECLAIM_AFTER,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.mcp_path = mcp_path.rstrip("/") or "/"
        self.max_sessions = max_sessions
        self.max_shared = max_shared
        self.idle_timeout = idle_timeout
        self.reclaim_after = reclaim_after
        self._clock = clock
        #: pool -> its open sessions (this process's: the SDK's sessions live here too)
        self._sessions: dict[_Pool, dict[str, _Open]] = {}
        #: pool -> its requests without a session in flight (each may open one)
        self._opening: dict[_Pool, int] = {}

    def _count(self, pool: _Pool) -> int:
        """The pool's open sessions, the idle ones (closed by the SDK) forgotten first."""
        sessions = self._sessions.get(pool, {})
        now = self._clock()
        for session, seen in list(sessions.items()):
            if seen.in_flight == 0 and now - seen.last_seen >= self.idle_timeout:
                del sessions[session]
        if not sessions:
            self._sessions.pop(pool, None)
        return len(sessions) + self._opening.get(pool, 0)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """REQ-HTTP-16: a request that may open a session is refused past its caller's cap
        (unless an idle session of the caller makes room); a request on a session keeps it
        counted while it runs and restarts its idle clock."""
        path = str(scope.get("path", "")).rstrip("/") or "/"
        if scope.get("type") != "http" or path != self.mcp_path:
            await self.app(scope, receive, send)
            return
        caller = current_caller()
        if caller is not None and caller.uid is None:
            # never admitted by BearerAuth; nothing to count it by
            await self.app(scope, receive, send)
            return
        pool = None if caller is None else caller.uid
        session = _header(scope.get("headers"), b"mcp-session-id")
        if session is None:
            if scope.get("method") != "POST" or not self._may_open(scope):
                await self.app(scope, receive, send)  # opens nothing
                return
            await self._opening_request(pool, scope, receive, send)
            return
        seen = self._sessions.get(pool, {}).get(session)
        if seen is None:  # not one this process opened for the caller: the SDK answers
            await self.app(scope, receive, send)
            return
        seen.in_flight += 1

        async def watch(message: Message) -> None:
            if message.get("type") == "http.response.start":
                status = int(message.get("status", 0))
                ended = scope.get("method") == "DELETE" and status < 300
                if ended or status == 404:  # ended now, or already gone (idle, crashed)
                    self._sessions.get(pool, {}).pop(session, None)
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            seen.in_flight -= 1
            seen.last_seen = self._clock()

    @staticmethod
    def _may_open(scope: Scope) -> bool:
        """REQ-HTTP-16: whether the SDK may open a session for this request: the 2026-07-28
        era (a protocol version header that is not a handshake version) never does."""
        version = _header(scope.get("headers"), b"mcp-protocol-version")
        return version is None or version in HANDSHAKE_PROTOCOL_VERSIONS

    async def _opening_request(
        self, pool: _Pool, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """A request without a session (an initialize opens one): at the cap, it takes the
        place of an idle session of the caller, or is refused; else it is counted while it
        runs, and its session from the moment the answer names it."""
        limit = self.max_sessions if pool is not None else self.max_shared
        if self._count(pool) >= limit:
            if not await self._make_room(pool, scope):
                await self._refuse(pool, limit, send)
                return
        else:
            self._opening[pool] = self._opening.get(pool, 0) + 1
        opened: _Open | None = None

        async def watch(message: Message) -> None:
            nonlocal opened
            if message.get("type") == "http.response.start" and opened is None:
                session = _header(message.get("headers"), b"mcp-session-id")
                if session is not None and int(message.get("status", 0)) < 400:
                    # open from now (its answer's stream is still in flight), and no longer
                    # opening: counted once, not twice while the stream lasts
                    opened = _Open(self._clock(), in_flight=1)
                    self._sessions.setdefault(pool, {})[session] = opened
                    self._opened(pool)
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            if opened is None:
                self._opened(pool)  # it opened nothing: no longer opening either
            else:
                opened.in_flight -= 1
                opened.last_seen = self._clock()

    async def _make_room(self, pool: _Pool, scope: Scope) -> bool:
        """REQ-HTTP-16 (issue 37): end the pool's least recently used session that has
        nothing in flight and has been idle for ``reclaim_after``; True when one ended, and
        this request is then counted as opening (in the room it left).

        The choice, and the count, change before the first await: two requests racing at the
        cap never end the same session, nor both take one room."""
        sessions = self._sessions.get(pool, {})
        now = self._clock()
        idle = [
            (seen.last_seen, session)
            for session, seen in sessions.items()
            if seen.in_flight == 0 and now - seen.last_seen >= self.reclaim_after
        ]
        if not idle:
            return False
        _, victim = min(idle)
        seen = sessions.pop(victim)
        self._opening[pool] = self._opening.get(pool, 0) + 1
        try:
            status = await self._end_session(victim, scope)
        except BaseException:
            self._opened(pool)
            raise
        if status < 300 or status == 404:  # ended now, or the SDK had ended it already
            logger.info(
                "ended a session idle for %.0f s to open a new one at the cap (uid %s)",
                now - seen.last_seen,
                pool,
            )
            return True
        # still open (the SDK refused the DELETE): counted again, and no room was made
        self._sessions.setdefault(pool, {})[victim] = seen
        self._opened(pool)
        return False

    async def _end_session(self, session: str, scope: Scope) -> int:
        """REQ-HTTP-03: end ``session`` through the SDK as its client would, with a DELETE
        (the SDK then closes its connection: its subscriptions end too); the status the SDK
        answered.

        The request keeps the opening request's scope and its Host and Origin headers (the
        SDK's DNS-rebinding check reads them) and names no protocol version (a handshake-era
        request, which is what owns a session)."""
        kept = [
            (bytes(key), bytes(value))
            for key, value in scope.get("headers") or ()
            if bytes(key).lower() in (b"host", b"origin")
        ]
        headers = [*kept, (b"mcp-session-id", session.encode("latin-1"))]
        delete = {**scope, "method": "DELETE", "headers": headers, "query_string": b""}
        statuses: list[int] = []
        received = False

        async def receive() -> Message:
            nonlocal received
            if received:
                return {"type": "http.disconnect"}
            received = True
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: Message) -> None:
            if message.get("type") == "http.response.start":
                statuses.append(int(message.get("status", 0)))

        await self.app(delete, receive, send)
        return statuses[0] if statuses else 500

    async def _refuse(self, pool: _Pool, limit: int, send: Send) -> None:
        """REQ-HTTP-16: 429, with the seconds until a session may make room (Retry-After)."""
        retry = self._retry_after(pool)
        whose = "this Odoo user" if pool is not None else "this server"
        message = (
            f"Too many open sessions for {whose} ({limit}): end the ones no longer used with "
            "DELETE on this endpoint (their Mcp-Session-Id), or retry in "
            f"{retry} s (Retry-After), when an idle one can make room; sessions also idle out "
            f"after {int(self.idle_timeout)} s without a request"
        )
        retry_after = [(b"retry-after", str(retry).encode())]
        await answer(send, 429, rpc_error(INVALID_REQUEST, message), retry_after)

    def _retry_after(self, pool: _Pool) -> int:
        """REQ-HTTP-16: whole seconds until the pool's next session has been idle for
        ``reclaim_after``; ``reclaim_after`` when every session is busy (an ending request
        restarts the clock), at least 1."""
        now = self._clock()
        waits = [
            self.reclaim_after - (now - seen.last_seen)
            for seen in self._sessions.get(pool, {}).values()
            if seen.in_flight == 0
        ]
        wait = min(waits) if waits else self.reclaim_after
        return max(1, math.ceil(min(wait, self.reclaim_after)))

    def _opened(self, pool: _Pool) -> None:
        """One request of ``pool`` is no longer opening a session."""
        left = self._opening[pool] - 1
        if left:
            self._opening[pool] = left
        else:
            del self._opening[pool]
