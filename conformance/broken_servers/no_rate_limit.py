"""Defect: the rate limiter never refuses a call (SPEC-11 rate limiting)."""

from _sabotage import serve

from odoo_mcp.safety.ratelimit import RateLimiter

RateLimiter.check = lambda self, session_id, kind="read": None  # type: ignore[method-assign]
serve()
