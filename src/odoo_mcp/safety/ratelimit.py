"""SPEC-11 §7: per-session rate limiting (REQ-11-19..21).

Each MCP session gets its own counters: a token bucket for bursts (``burst`` tokens refilled at
``calls_per_minute / 60`` per second), sliding windows of one minute and one hour, and, when
configured, separate one-minute windows for reads and writes. A call passes only when every
limit admits it; a refused call consumes nothing. ``retry_after`` is the whole number of
seconds after which the same call would pass, at least 1.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from odoo_mcp.safety.blocklists import SafetyError

__all__ = ["CallKind", "RateLimitedError", "RateLimiter", "RateLimits"]

CallKind = Literal["read", "write"]
Clock = Callable[[], float]
_MINUTE = 60.0
_HOUR = 3600.0
#: sessions idle this long lose their counters (every window is empty by then)
_IDLE_FORGET = _HOUR


@dataclass(frozen=True, slots=True)
class RateLimits:
    """REQ-11-19: the limiter's settings; REQ-11-21: optional read/write per-minute limits."""

    enabled: bool = False
    calls_per_minute: int = 60
    calls_per_hour: int = 1000
    burst: int = 10
    read_calls_per_minute: int | None = None
    write_calls_per_minute: int | None = None


class RateLimitedError(SafetyError):
    """REQ-11-20: RATE_LIMITED, category rate_limit, retry true, with ``retry_after`` (s)."""

    category = "rate_limit"
    retry = True

    def __init__(self, retry_after: int, limit: str) -> None:
        super().__init__(
            "RATE_LIMITED",
            f"Too many requests: {limit} exceeded for this session",
            f"Wait {retry_after} seconds before calling again.",
            {"retry_after": retry_after, "limit": limit},
        )
        self.retry_after = retry_after


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


class RateLimiter:
    """REQ-11-20: limits are per MCP session (per client)."""

    def __init__(self, limits: RateLimits, clock: Clock = time.monotonic) -> None:
        self.limits = limits
        self._clock = clock
        self._sessions: dict[str, _Session] = {}
        self._lock = threading.Lock()
        self._swept_at = clock()

    def check(self, session_id: str, kind: CallKind = "read") -> None:
        """REQ-11-20: admit and count one call, or raise RATE_LIMITED with retry_after."""
        if not self.limits.enabled:
            return
        with self._lock:
            now = self._clock()
            self._forget_idle(now)
            session = self._session(session_id, now)
            self._refill(session, now)
            wait, limit = self._wait(session, kind, now)
            if wait > 0:
                raise RateLimitedError(max(1, math.ceil(wait - 1e-9)), limit)
            session.tokens -= 1.0
            session.calls.append(now)
            session.kinds.setdefault(kind, deque()).append(now)

    def forget(self, session_id: str) -> None:
        """REQ-11-20: a closed session's counters go with it."""
        with self._lock:
            self._sessions.pop(session_id, None)

    def _session(self, session_id: str, now: float) -> _Session:
        session = self._sessions.get(session_id)
        if session is None:
            session = _Session(tokens=float(self.limits.burst), refilled_at=now)
            self._sessions[session_id] = session
        return session

    def _refill(self, session: _Session, now: float) -> None:
        rate = self.limits.calls_per_minute / _MINUTE
        elapsed = max(0.0, now - session.refilled_at)
        session.tokens = min(float(self.limits.burst), session.tokens + elapsed * rate)
        session.refilled_at = now
        while session.calls and session.calls[0] <= now - _HOUR:
            session.calls.popleft()
        for stamps in session.kinds.values():
            while stamps and stamps[0] <= now - _MINUTE:
                stamps.popleft()

    def _wait(self, session: _Session, kind: CallKind, now: float) -> tuple[float, str]:
        limits = self.limits
        rate = limits.calls_per_minute / _MINUTE
        bucket = 0.0 if session.tokens >= 1.0 else (1.0 - session.tokens) / rate if rate else _HOUR
        per_kind = {"read": limits.read_calls_per_minute, "write": limits.write_calls_per_minute}
        candidates = [
            (bucket, f"burst of {limits.burst} calls"),
            (
                _window_wait(session.calls, limits.calls_per_minute, _MINUTE, now),
                f"{limits.calls_per_minute} calls per minute",
            ),
            (
                _window_wait(session.calls, limits.calls_per_hour, _HOUR, now),
                f"{limits.calls_per_hour} calls per hour",
            ),
        ]
        kind_limit = per_kind[kind]
        if kind_limit is not None:
            stamps = session.kinds.get(kind, deque())
            candidates.append(
                (_window_wait(stamps, kind_limit, _MINUTE, now), f"{kind_limit} {kind}s per minute")
            )
        return max(candidates, key=lambda item: item[0])

    def _forget_idle(self, now: float) -> None:
        if now - self._swept_at < _MINUTE:
            return
        self._swept_at = now
        idle = [
            sid
            for sid, s in self._sessions.items()
            if (s.calls[-1] if s.calls else s.refilled_at) <= now - _IDLE_FORGET
        ]
        for sid in idle:
            del self._sessions[sid]
