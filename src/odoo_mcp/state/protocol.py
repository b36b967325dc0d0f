"""Issue 19 / decision 37: the state the server's replicas share, as one typed protocol.

Rate-limit counters (REQ-11-20), the memory of refused tokens and the failed authentications
per client address (decision 29), and which Odoo user owns which MCP session (REQ-HTTP-14).
One process keeps them in memory (``MemoryState``); several replicas behind a load balancer
keep them in Redis (``RedisState``) so that a limit is the same whichever replica answers.
Subscriptions are not here: they stay with the replica that holds the session's stream.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Protocol

from odoo_mcp.safety.ratelimit import CallKind, RateLimits

__all__ = [
    "OWNER_EXPIRY",
    "RATE_EXPIRY",
    "FailureLimits",
    "Refusal",
    "SharedState",
    "StateUnavailable",
]

#: Seconds an idle session's counters live: the longest window, after which all are empty.
RATE_EXPIRY: Final = 3600.0
#: Seconds a session's owner is kept after the session was last used. Our code sets no SDK
#: session idle timeout (the SDK's own default is 30 min), so an hour outlives every session.
OWNER_EXPIRY: Final = 3600.0


class StateUnavailable(Exception):
    """REQ-10-02: the shared state cannot be reached, in SPEC-10 shape.

    A ``connection`` error with ``retry`` true: the failure is the server's link to a backing
    store, transient like an unreachable Odoo, and no limit was exceeded (not ``rate_limit``).
    """

    code = "CONNECTION_ERROR"
    category = "connection"
    retry = True

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.message = "The server's shared state cannot be reached: the call was not run"
        self.suggestion = "Retry in a few seconds; if it persists, tell the server's operator."
        self.details: dict[str, object] = {"retry_after": 5}


@dataclass(frozen=True, slots=True)
class Refusal:
    """Decision 29: what a refused token is answered again (never the token itself)."""

    status: int
    error: str
    description: str


@dataclass(frozen=True, slots=True)
class FailureLimits:
    """Decision 29: failed authentications a client address may cost Odoo per window."""

    max_failures: int
    window: float


class SharedState(Protocol):
    """Issue 19: what the server asks of its shared state; every call may raise
    ``StateUnavailable`` (never admit when the state cannot be asked)."""

    async def ping(self) -> None:
        """Decision 37: reach the store (at start-up), or raise ``StateUnavailable``."""

    async def admit(self, key: str, kind: CallKind, limits: RateLimits) -> None:
        """REQ-11-20: admit and count one call of ``key``, or raise ``RateLimitedError``."""

    async def forget(self, key: str) -> None:
        """REQ-11-20: a closed session's counters go with it."""

    async def remember_refusal(self, digest: str, refusal: Refusal, seconds: float) -> None:
        """Decision 29: a refused token (by digest) is refused again for ``seconds``."""

    async def recall_refusal(self, digest: str) -> Refusal | None:
        """Decision 29: the refusal remembered for a token digest, if still fresh."""

    async def begin_authentication(self, address: str, limits: FailureLimits) -> int | None:
        """Decision 29: count an authentication from ``address`` as failed until it succeeds;
        the seconds to wait (nothing counted) when the address is over its limit, else None."""

    async def authentication_succeeded(self, address: str) -> None:
        """Decision 29: the authentication begun from ``address`` did not fail."""

    async def bind_owner(self, session: str, uid: int | None) -> None:
        """REQ-HTTP-14: ``session`` belongs to ``uid``; an unverified owner (None) gives way to
        the first verified user, a verified one stays."""

    async def owner(self, session: str) -> int | None:
        """REQ-HTTP-14: the verified owner of ``session``, None when unknown or unverified."""

    async def forget_owner(self, session: str) -> None:
        """REQ-HTTP-14: a deleted session has no owner any more."""

    async def close(self) -> None:
        """Release the store's connections (server shutdown)."""
