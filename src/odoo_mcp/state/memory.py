"""Issue 19 / decision 37: the shared state of a single process, in its memory.

The default (``state_url`` empty). The rate-limit buckets are SPEC-11 §7's (REQ-11-19..21),
moved here unchanged from ``safety.ratelimit``: a token bucket of ``burst`` refilled at
``calls_per_minute / 60`` per second, sliding windows of one minute and one hour and optional
one-minute windows per kind; a refused call consumes nothing. The refusal memory, the failed
authentications per address (decision 29) and the session owners (REQ-HTTP-14) moved from the
HTTP authentication middleware. Every map is bounded.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from odoo_mcp.safety.ratelimit import (
    CallKind,
    RateLimitedError,
    RateLimits,
    limit_names,
    retry_after,
)
from odoo_mcp.state.protocol import RATE_EXPIRY, FailureLimits, Refusal

__all__ = ["MAX_BOUND_SESSIONS", "MAX_FAILING_ADDRESSES", "MAX_REFUSED", "MemoryState"]

Clock = Callable[[], float]
_MINUTE = 60.0
_HOUR = 3600.0
#: Sessions remembered with their owner; the SDK caps sessions too (and ends idle ones).
MAX_BOUND_SESSIONS: Final = 10_000
#: Refused token digests remembered at once; the oldest goes first.
MAX_REFUSED: Final = 10_000
#: Client addresses whose failures are remembered; the least recently failing one goes first.
MAX_FAILING_ADDRESSES: Final = 10_000


@dataclass(slots=True)
class _Session:
    tokens: float
    refilled_at: float
    calls: deque[float] = field(default_factory=deque)  # every call of the last hour
    kinds: dict[str, deque[float]] = field(default_factory=dict)  # last minute, per kind


def _window_wait(stamps: deque[float], limit: int, span: float, now: float) -> float:
    """Seconds until a window of ``span`` holding ``stamps`` admits one more call."""
    recent = [t for t in stamps if t > now - span]
    if len(recent) < limit:
        return 0.0
    if limit <= 0:
        return span
    return recent[len(recent) - limit] + span - now


class _Buckets:
    """REQ-11-20: limits are per MCP session (per client)."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._sessions: dict[str, _Session] = {}
        self._lock = threading.Lock()
        self._swept_at = clock()

    def check(self, session_id: str, kind: CallKind, limits: RateLimits) -> None:
        """REQ-11-20: admit and count one call, or raise RATE_LIMITED with retry_after."""
        with self._lock:
            now = self._clock()
            self._forget_idle(now)
            session = self._session(session_id, now, limits)
            self._refill(session, now, limits)
            wait, limit = self._wait(session, kind, now, limits)
            if wait > 0:
                raise RateLimitedError(retry_after(wait), limit)
            session.tokens -= 1.0
            session.calls.append(now)
            session.kinds.setdefault(kind, deque()).append(now)

    def forget(self, session_id: str) -> None:
        with self._lock:
            self._sessions.pop(session_id, None)

    def _session(self, session_id: str, now: float, limits: RateLimits) -> _Session:
        session = self._sessions.get(session_id)
        if session is None:
            session = _Session(tokens=float(limits.burst), refilled_at=now)
            self._sessions[session_id] = session
        return session

    def _refill(self, session: _Session, now: float, limits: RateLimits) -> None:
        rate = limits.calls_per_minute / _MINUTE
        elapsed = max(0.0, now - session.refilled_at)
        session.tokens = min(float(limits.burst), session.tokens + elapsed * rate)
        session.refilled_at = now
        while session.calls and session.calls[0] <= now - _HOUR:
            session.calls.popleft()
        for stamps in session.kinds.values():
            while stamps and stamps[0] <= now - _MINUTE:
                stamps.popleft()

    def _wait(
        self, session: _Session, kind: CallKind, now: float, limits: RateLimits
    ) -> tuple[float, str]:
        rate = limits.calls_per_minute / _MINUTE
        bucket = 0.0 if session.tokens >= 1.0 else (1.0 - session.tokens) / rate if rate else _HOUR
        waits = [
            bucket,
            _window_wait(session.calls, limits.calls_per_minute, _MINUTE, now),
            _window_wait(session.calls, limits.calls_per_hour, _HOUR, now),
        ]
        kind_limit = limits.per_kind(kind)
        if kind_limit is not None:
            waits.append(_window_wait(session.kinds.get(kind, deque()), kind_limit, _MINUTE, now))
        return max(zip(waits, limit_names(limits, kind), strict=True), key=lambda item: item[0])

    def _forget_idle(self, now: float) -> None:
        if now - self._swept_at < _MINUTE:
            return
        self._swept_at = now
        idle = [
            sid
            for sid, s in self._sessions.items()
            if (s.calls[-1] if s.calls else s.refilled_at) <= now - RATE_EXPIRY
        ]
        for sid in idle:
            del self._sessions[sid]


class MemoryState:
    """Issue 19: ``SharedState`` in this process's memory, bounded (REQ-11-20, decision 29,
    REQ-HTTP-14)."""

    def __init__(
        self,
        *,
        clock: Clock = time.monotonic,
        max_addresses: int = MAX_FAILING_ADDRESSES,
        max_refused: int = MAX_REFUSED,
        max_sessions: int = MAX_BOUND_SESSIONS,
    ) -> None:
        self._clock = clock
        self._buckets = _Buckets(clock)
        self._max_addresses = max_addresses
        self._max_refused = max_refused
        self._max_sessions = max_sessions
        #: digest -> (when it may be asked again, the refusal)
        self._refused: OrderedDict[str, tuple[float, Refusal]] = OrderedDict()
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()
        #: Mcp-Session-Id -> the uid of the user whose request created the session
        self._owners: OrderedDict[str, int | None] = OrderedDict()

    async def ping(self) -> None:
        """Decision 37: memory is always there."""

    async def admit(self, key: str, kind: CallKind, limits: RateLimits) -> None:
        """REQ-11-20: admit and count one call, or raise RATE_LIMITED with retry_after."""
        self._buckets.check(key, kind, limits)

    async def forget(self, key: str) -> None:
        """REQ-11-20: a closed session's counters go with it."""
        self._buckets.forget(key)

    async def remember_refusal(self, digest: str, refusal: Refusal, seconds: float) -> None:
        """Decision 29: refused again for ``seconds`` without asking Odoo."""
        self._refused[digest] = (self._clock() + seconds, refusal)
        self._refused.move_to_end(digest)
        while len(self._refused) > self._max_refused:
            self._refused.popitem(last=False)

    async def recall_refusal(self, digest: str) -> Refusal | None:
        """Decision 29: a token Odoo refused a moment ago is refused again."""
        remembered = self._refused.get(digest)
        if remembered is None:
            return None
        until, refusal = remembered
        if self._clock() < until:
            return refusal
        del self._refused[digest]
        return None

    async def begin_authentication(self, address: str, limits: FailureLimits) -> int | None:
        """Decision 29: a sliding window of failures per address; concurrent attempts count
        as failed until they succeed, so they cannot overrun the limit."""
        if limits.max_failures <= 0:
            return None
        now = self._clock()
        times = self._failures.setdefault(address, deque(maxlen=limits.max_failures))
        while times and times[0] <= now - limits.window:
            times.popleft()
        if len(times) >= limits.max_failures:
            return retry_after(times[0] + limits.window - now)
        times.append(now)
        self._failures.move_to_end(address)
        while len(self._failures) > self._max_addresses:
            self._failures.popitem(last=False)
        return None

    async def authentication_succeeded(self, address: str) -> None:
        """Decision 29: an accepted token leaves nothing behind."""
        times = self._failures.get(address)
        if times:
            times.pop()
            if not times:
                del self._failures[address]

    async def bind_owner(self, session: str, uid: int | None) -> None:
        """REQ-HTTP-14: an unverified owner (None) gives way to the first verified user."""
        if self._owners.get(session) is None:
            self._owners[session] = uid
        while len(self._owners) > self._max_sessions:
            self._owners.popitem(last=False)

    async def owner(self, session: str) -> int | None:
        """REQ-HTTP-14: the session's verified owner, if any."""
        return self._owners.get(session)

    async def forget_owner(self, session: str) -> None:
        """REQ-HTTP-14: a deleted session has no owner."""
        self._owners.pop(session, None)

    async def close(self) -> None:
        """Nothing to release."""
