"""Issue 19 / decision 37: the shared state's behaviour, the same cases on the in-process store
and on Redis (fakeredis with Lua); the rate-limit cases are in safety/test_safety_ratelimit.py."""

from __future__ import annotations

import pytest
from fakeredis import FakeServer
from fakeredis.aioredis import FakeRedis

from fake_clock import FakeClock
from odoo_mcp.safety import RateLimitedError, RateLimits
from odoo_mcp.state import FailureLimits, MemoryState, Refusal, SharedState
from odoo_mcp.state.redis_store import RedisState

pytestmark = pytest.mark.anyio

REFUSED = Refusal(401, "invalid_token", "Odoo refused the API key: wrong")
LIMITS = RateLimits(enabled=True, burst=2, calls_per_minute=60)


def _replica(server: FakeServer) -> RedisState:
    return RedisState(FakeRedis(server=server, decode_responses=True), "redis://fake")


async def test_a_refused_token_is_recalled_by_its_digest(shared_state: SharedState) -> None:
    await shared_state.remember_refusal("digest-1", REFUSED, 60.0)
    assert await shared_state.recall_refusal("digest-1") == REFUSED
    assert await shared_state.recall_refusal("digest-2") is None


async def test_the_memory_of_a_refusal_fades(clock: FakeClock) -> None:
    state = MemoryState(clock=clock)
    await state.remember_refusal("digest-1", REFUSED, 60.0)
    clock.now += 61
    assert await state.recall_refusal("digest-1") is None


async def test_failed_authentications_are_limited_per_address(shared_state: SharedState) -> None:
    limits = FailureLimits(max_failures=3, window=60.0)
    for _ in range(3):
        assert await shared_state.begin_authentication("10.0.0.1", limits) is None
    wait = await shared_state.begin_authentication("10.0.0.1", limits)
    assert wait is not None and 1 <= wait <= 60
    assert await shared_state.begin_authentication("10.0.0.2", limits) is None  # its own
    await shared_state.authentication_succeeded("10.0.0.1")  # one attempt was accepted
    assert await shared_state.begin_authentication("10.0.0.1", limits) is None
    assert await shared_state.begin_authentication("10.0.0.1", limits) is not None


async def test_no_failure_limit_admits_every_authentication(shared_state: SharedState) -> None:
    for _ in range(5):
        assert await shared_state.begin_authentication("a", FailureLimits(0, 60.0)) is None


async def test_an_unverified_owner_gives_way_to_the_first_verified_user(
    shared_state: SharedState,
) -> None:
    await shared_state.bind_owner("session-1", None)
    assert await shared_state.owner("session-1") is None
    await shared_state.bind_owner("session-1", 7)
    await shared_state.bind_owner("session-1", 8)  # a verified owner stays
    assert await shared_state.owner("session-1") == 7
    await shared_state.forget_owner("session-1")
    assert await shared_state.owner("session-1") is None
    assert await shared_state.owner("never-seen") is None


async def test_two_replicas_share_one_rate_limit_on_redis_time() -> None:
    server = FakeServer()
    first, second = _replica(server), _replica(server)  # no clock: Redis's own TIME
    await first.admit("s", "read", LIMITS)
    await second.admit("s", "read", LIMITS)
    with pytest.raises(RateLimitedError) as caught:
        await first.admit("s", "read", LIMITS)
    assert caught.value.retry_after == 1
    assert caught.value.details["limit"] == "burst of 2 calls"
    await second.admit("other", "read", LIMITS)  # another session has its own bucket


async def test_two_replicas_share_refusals_failures_and_owners() -> None:
    server = FakeServer()
    first, second = _replica(server), _replica(server)
    await first.remember_refusal("digest", REFUSED, 60.0)
    assert await second.recall_refusal("digest") == REFUSED
    await first.bind_owner("session", 7)
    assert await second.owner("session") == 7
    limits = FailureLimits(max_failures=1, window=60.0)
    assert await first.begin_authentication("10.0.0.1", limits) is None
    assert await second.begin_authentication("10.0.0.1", limits) == 60


async def test_redis_keys_are_prefixed_hold_no_token_and_expire() -> None:
    server = FakeServer()
    state = _replica(server)
    client = FakeRedis(server=server, decode_responses=True)
    await state.admit("s", "write", LIMITS)
    await state.remember_refusal("abc123", REFUSED, 60.0)
    await state.begin_authentication("10.0.0.1", FailureLimits(3, 60.0))
    await state.bind_owner("session", 7)
    keys = sorted(await client.keys("*"))
    assert keys == [
        "odoo-mcp:auth-seq:10.0.0.1",
        "odoo-mcp:auth:10.0.0.1",
        "odoo-mcp:owner:session",
        "odoo-mcp:refused:abc123",
        "odoo-mcp:rl:{s}:bucket",
        "odoo-mcp:rl:{s}:calls",
        "odoo-mcp:rl:{s}:write",
    ]
    expiries = {key: await client.pttl(key) for key in keys}
    assert all(0 < ms <= 3_600_000 for ms in expiries.values()), expiries
    assert 0 < expiries["odoo-mcp:refused:abc123"] <= 60_000
    assert 0 < expiries["odoo-mcp:auth:10.0.0.1"] <= 60_000
    await state.forget("s")
    assert not [key for key in await client.keys("odoo-mcp:rl:*")]
