"""Defect: the rate limiter never refuses a call (SPEC-11 rate limiting)."""

from _sabotage import serve

from odoo_mcp.state import RateLimiter


async def _admit_everything(self: RateLimiter, session_id: str, kind: str = "read") -> None:
    return None


RateLimiter.check = _admit_everything  # type: ignore[method-assign,assignment]
serve()
