"""SPEC-11 §7: per-session rate limits with a fake clock."""

from __future__ import annotations

import pytest

from odoo_mcp.safety import RateLimitedError, RateLimiter, RateLimits, SafetyError


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def limiter(clock: FakeClock, **changes: object) -> RateLimiter:
    settings: dict[str, object] = {"enabled": True, **changes}
    return RateLimiter(RateLimits(**settings), clock=clock)  # type: ignore[arg-type]


def test_a_disabled_limiter_admits_everything() -> None:
    clock = FakeClock()
    off = RateLimiter(RateLimits(enabled=False, burst=1), clock=clock)
    for _ in range(100):
        off.check("s")


def test_the_burst_admits_that_many_calls_at_once() -> None:
    clock = FakeClock()
    rl = limiter(clock, burst=10, calls_per_minute=60)
    for _ in range(10):
        rl.check("s")
    with pytest.raises(RateLimitedError) as caught:
        rl.check("s")
    assert caught.value.retry_after == 1
    assert caught.value.code == "RATE_LIMITED"


def test_the_error_is_a_retryable_rate_limit_error() -> None:
    clock = FakeClock()
    rl = limiter(clock, burst=1)
    rl.check("s")
    with pytest.raises(SafetyError) as caught:
        rl.check("s")
    error = caught.value
    assert (error.category, error.retry) == ("rate_limit", True)
    assert error.details["retry_after"] == 1


def test_tokens_refill_at_the_per_minute_rate() -> None:
    clock = FakeClock()
    rl = limiter(clock, burst=2, calls_per_minute=30)  # one token every 2 s
    rl.check("s")
    rl.check("s")
    with pytest.raises(RateLimitedError) as caught:
        rl.check("s")
    assert caught.value.retry_after == 2
    clock.now += 2
    rl.check("s")


def test_the_minute_window_caps_calls_beyond_the_refill() -> None:
    clock = FakeClock()
    rl = limiter(clock, burst=60, calls_per_minute=60)
    for _ in range(60):
        rl.check("s")
        clock.now += 0.5  # refill gives tokens back, the window does not
    with pytest.raises(RateLimitedError) as caught:
        rl.check("s")
    assert caught.value.details["limit"] == "60 calls per minute"
    assert caught.value.retry_after == 30


def test_the_hour_window_applies() -> None:
    clock = FakeClock()
    rl = limiter(clock, burst=5, calls_per_minute=600, calls_per_hour=20)
    for _ in range(20):
        rl.check("s")
        clock.now += 1
    with pytest.raises(RateLimitedError) as caught:
        rl.check("s")
    assert caught.value.details["limit"] == "20 calls per hour"
    assert caught.value.retry_after == 3600 - 20
    clock.now += 3600
    rl.check("s")


def test_sessions_are_limited_separately() -> None:
    clock = FakeClock()
    rl = limiter(clock, burst=1)
    rl.check("a")
    rl.check("b")
    with pytest.raises(RateLimitedError):
        rl.check("a")


def test_reads_and_writes_have_their_own_minute_limits() -> None:
    clock = FakeClock()
    rl = limiter(clock, burst=100, calls_per_minute=100, write_calls_per_minute=2)
    rl.check("s", "write")
    rl.check("s", "write")
    with pytest.raises(RateLimitedError) as caught:
        rl.check("s", "write")
    assert caught.value.details["limit"] == "2 writes per minute"
    rl.check("s", "read")


def test_a_refused_call_consumes_nothing() -> None:
    clock = FakeClock()
    rl = limiter(clock, burst=1, calls_per_minute=60)
    rl.check("s")
    for _ in range(5):
        with pytest.raises(RateLimitedError):
            rl.check("s")
    clock.now += 1
    rl.check("s")


def test_forgetting_a_session_resets_it_and_idle_sessions_are_dropped() -> None:
    clock = FakeClock()
    rl = limiter(clock, burst=1)
    rl.check("a")
    rl.forget("a")
    rl.check("a")
    clock.now += 7200
    rl.check("b")
    assert set(rl._sessions) == {"b"}
