"""Issue 19 / decision 37: the state shared by the server's replicas (rate limits, refused
tokens, failed authentications, session owners): in memory by default, in Redis when
``state_url`` is set. ``open_state`` picks one; Redis is imported only then (an extra)."""

from __future__ import annotations

from odoo_mcp.state.limiter import RateLimiter
from odoo_mcp.state.memory import MemoryState
from odoo_mcp.state.protocol import FailureLimits, Refusal, SharedState, StateUnavailable
from odoo_mcp.state.url import redacted

__all__ = [
    "FailureLimits",
    "MemoryState",
    "RateLimiter",
    "Refusal",
    "SharedState",
    "StateUnavailable",
    "open_state",
    "redacted",
]


def open_state(url: str) -> SharedState:
    """Decision 37: the in-process state for an empty ``state_url``, else Redis's (the URL is
    checked by the configuration: a redis://, rediss:// or unix:// URL, redis installed)."""
    if not url:
        return MemoryState()
    from odoo_mcp.state.redis_store import RedisState  # the optional extra, only when used

    return RedisState.from_url(url)
