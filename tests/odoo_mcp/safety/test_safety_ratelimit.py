"""SPEC-11 §7: per-session rate limits with a fake clock, on the in-process state and on Redis
(issue 19: the same cases, the ``shared_state`` fixture)."""

from __future__ import annotations

import pytest

from fake_clock import FakeClock
from odoo_mcp.safety import RateLimitedError, RateLimits, SafetyError
from odoo_mcp.state import MemoryState, RateLimiter, SharedState

pytestmark = pytest.mark.anyio


def limiter(state: SharedState, **changes: object) -> RateLimiter:
    settings: dict[str, object] = {"enabled": True, **changes}
    return RateLimiter(RateLimits(**settings), state)  # type: ignore[arg-type]


async def test_a_disabled_limiter_admits_everything(shared_state: SharedState) -> None:
    off = RateLimiter(RateLimits(enabled=False, burst=1), shared_state)
    for _ in range(100):
        await off.check("s")


async def test_the_burst_admits_that_many_calls_at_once(shared_state: SharedState) -> None:
    rl = limiter(shared_state, burst=10, calls_per_minute=60)
    for _ in range(10):
        await rl.check("s")
    with pytest.raises(RateLimitedError) as caught:
        await rl.check("s")
    assert caught.value.retry_after == 1
    assert caught.value.code == "RATE_LIMITED"


async def test_the_error_is_a_retryable_rate_limit_error(shared_state: SharedState) -> None:
    rl = limiter(shared_state, burst=1)
    await rl.check("s")
    with pytest.raises(SafetyError) as caught:
        await rl.check("s")
    error = caught.value
    assert (error.category, error.retry) == ("rate_limit", True)
    assert error.details["retry_after"] == 1


async def test_tokens_refill_at_the_per_minute_rate(
    shared_state: SharedState, clock: FakeClock
) -> None:
    rl = limiter(shared_state, burst=2, calls_per_minute=30)  # one token every 2 s
    await rl.check("s")
    await rl.check("s")
    with pytest.raises(RateLimitedError) as caught:
        await rl.check("s")
    assert caught.value.retry_after == 2
    clock.now += 2
    await rl.check("s")


async def test_the_minute_window_caps_calls_beyond_the_refill(
    shared_state: SharedState, clock: FakeClock
) -> None:
    rl = limiter(shared_state, burst=60, calls_per_minute=60)
    for _ in range(60):
        await rl.check("s")
        clock.now += 0.5  # refill gives tokens back, the window does not
    with pytest.raises(RateLimitedError) as caught:
        await rl.check("s")
    assert caught.value.details["limit"] == "60 calls per minute"
    assert caught.value.retry_after == 30


async def test_the_hour_window_applies(shared_state: SharedState, clock: FakeClock) -> None:
    rl = limiter(shared_state, burst=5, calls_per_minute=600, calls_per_hour=20)
    for _ in range(20):
        await rl.check("s")
        clock.now += 1
    with pytest.raises(RateLimitedError) as caught:
        await rl.check("s")
    assert caught.value.details["limit"] == "20 calls per hour"
    assert caught.value.retry_after == 3600 - 20
    clock.now += 3600
    await rl.check("s")


async def test_sessions_are_limited_separately(shared_state: SharedState) -> None:
    rl = limiter(shared_state, burst=1)
    await rl.check("a")
    await rl.check("b")
    with pytest.raises(RateLimitedError):
        await rl.check("a")


async def test_reads_and_writes_have_their_own_minute_limits(shared_state: SharedState) -> None:
    rl = limiter(shared_state, burst=100, calls_per_minute=100, write_calls_per_minute=2)
    await rl.check("s", "write")
    await rl.check("s", "write")
    with pytest.raises(RateLimitedError) as caught:
        await rl.check("s", "write")
    assert caught.value.details["limit"] == "2 writes per minute"
    await rl.check("s", "read")


async def test_a_refused_call_consumes_nothing(shared_state: SharedState, clock: FakeClock) -> None:
    rl = limiter(shared_state, burst=1, calls_per_minute=60)
    await rl.check("s")
    for _ in range(5):
        with pytest.raises(RateLimitedError):
            await rl.check("s")
    clock.now += 1
    await rl.check("s")


async def test_forgetting_a_session_resets_it(shared_state: SharedState) -> None:
    rl = limiter(shared_state, burst=1)
    await rl.check("a")
    await rl.forget("a")
    await rl.check("a")


async def test_idle_sessions_are_dropped_from_memory(clock: FakeClock) -> None:
    state = MemoryState(clock=clock)
    rl = limiter(state, burst=1)
    await rl.check("a")
    clock.now += 7200
    await rl.check("b")
    assert set(state._buckets._sessions) == {"b"}
