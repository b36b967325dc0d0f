"""SPEC-11 §7 / issue 19: the rate limiter the tool dispatcher asks, on the shared state."""

from __future__ import annotations

from odoo_mcp.safety.ratelimit import CallKind, RateLimits
from odoo_mcp.state.protocol import SharedState

__all__ = ["RateLimiter"]


class RateLimiter:
    """REQ-11-20: limits are per MCP session (per client), counted in the shared state."""

    def __init__(self, limits: RateLimits, state: SharedState) -> None:
        self.limits = limits
        self.state = state

    async def check(self, session_id: str, kind: CallKind = "read") -> None:
        """REQ-11-20: admit and count one call, or raise RATE_LIMITED with retry_after;
        ``StateUnavailable`` when the state cannot be asked (never admitted unchecked)."""
        if self.limits.enabled:
            await self.state.admit(session_id, kind, self.limits)

    async def forget(self, session_id: str) -> None:
        """REQ-11-20: a closed session's counters go with it."""
        await self.state.forget(session_id)
