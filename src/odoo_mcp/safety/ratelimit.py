"""SPEC-11 §7: per-session rate limiting (REQ-11-19..21): the limits and the refusal.

Each MCP session gets its own counters: a token bucket for bursts (``burst`` tokens refilled at
``calls_per_minute / 60`` per second), sliding windows of one minute and one hour, and, when
configured, separate one-minute windows for reads and writes. A call passes only when every
limit admits it; a refused call consumes nothing. ``retry_after`` is the whole number of
seconds after which the same call would pass, at least 1. The counters live in the shared
state (``odoo_mcp.state``, issue 19): this process's memory, or Redis for several replicas.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from odoo_mcp.safety.blocklists import SafetyError

__all__ = ["CallKind", "RateLimitedError", "RateLimits", "limit_names", "retry_after"]

CallKind = Literal["read", "write"]


@dataclass(frozen=True, slots=True)
class RateLimits:
    """REQ-11-19: the limiter's settings; REQ-11-21: optional read/write per-minute limits."""

    enabled: bool = False
    calls_per_minute: int = 60
    calls_per_hour: int = 1000
    burst: int = 10
    read_calls_per_minute: int | None = None
    write_calls_per_minute: int | None = None

    def per_kind(self, kind: CallKind) -> int | None:
        """REQ-11-21: the one-minute limit of reads or of writes, if one is set."""
        return self.read_calls_per_minute if kind == "read" else self.write_calls_per_minute


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


def retry_after(wait: float) -> int:
    """REQ-11-20: whole seconds after which the same call would pass, at least 1."""
    return max(1, math.ceil(wait - 1e-9))


def limit_names(limits: RateLimits, kind: CallKind) -> tuple[str, ...]:
    """REQ-11-20: the limits a call is checked against, in order: bucket, minute, hour, and the
    kind's minute when one is set (the first of equal waits names the refusal)."""
    names = [
        f"burst of {limits.burst} calls",
        f"{limits.calls_per_minute} calls per minute",
        f"{limits.calls_per_hour} calls per hour",
    ]
    kind_limit = limits.per_kind(kind)
    if kind_limit is not None:
        names.append(f"{kind_limit} {kind}s per minute")
    return tuple(names)
