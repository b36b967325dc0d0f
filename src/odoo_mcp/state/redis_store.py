"""Issue 19 / decision 37: the shared state in Redis, for several replicas (``redis.asyncio``).

Every key is under ``odoo-mcp:`` and expires, so idle keys vanish by themselves. A rate-limit
check is one Lua script: read, decide and count happen atomically in Redis, on Redis's own
``TIME`` (the replicas' clocks do not matter). Token digests are stored, never tokens. Any
Redis failure is logged once at error level and raised as ``StateUnavailable``: the callers
refuse (fail closed) instead of admitting unchecked.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Final

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from odoo_mcp.safety.ratelimit import (
    CallKind,
    RateLimitedError,
    RateLimits,
    limit_names,
    retry_after,
)
from odoo_mcp.state.protocol import (
    OWNER_EXPIRY,
    RATE_EXPIRY,
    FailureLimits,
    Refusal,
    StateUnavailable,
)
from odoo_mcp.state.url import redacted

__all__ = ["PREFIX", "RedisState"]

logger = logging.getLogger("odoo_mcp.state")

PREFIX: Final = "odoo-mcp:"
#: milliseconds since the epoch, or None for Redis's own TIME
Clock = Callable[[], int | None]

# REQ-11-20 in one atomic step. Times are integer milliseconds (exact in Lua's doubles and in
# its number-to-string conversion). KEYS: bucket hash, calls of the hour, calls of the kind.
# ARGV: burst, per minute, per hour, kind limit (-1: none), expiry ms, now ms ('' = TIME).
# Returns {1} when admitted, else {0, wait ms as a string, index of the limit (1-based)}.
_ADMIT: Final = """
local now
if ARGV[6] ~= '' then now = tonumber(ARGV[6]) else
  local t = redis.call('TIME'); now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local burst, rpm, rph = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local kind_limit, ttl = tonumber(ARGV[4]), tonumber(ARGV[5])
local rate = rpm / 60000
local tokens = tonumber(redis.call('HGET', KEYS[1], 'tokens') or burst)
local at = tonumber(redis.call('HGET', KEYS[1], 'at') or now)
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 3600000)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - 60000)
local function window_wait(key, limit, span)
  local count = redis.call('ZCOUNT', key, '(' .. (now - span), '+inf')
  if count < limit then return 0 end
  if limit <= 0 then return span end
  local first = redis.call('ZRANGEBYSCORE', key, '(' .. (now - span), '+inf',
    'WITHSCORES', 'LIMIT', count - limit, 1)
  return tonumber(first[2]) + span - now
end
local best, which = 0, 1
if tokens < 1 then
  if rate > 0 then best = (1 - tokens) / rate else best = 3600000 end
end
local function consider(wait, index)
  if wait > best then best, which = wait, index end
end
consider(window_wait(KEYS[2], rpm, 60000), 2)
consider(window_wait(KEYS[2], rph, 3600000), 3)
if kind_limit >= 0 then consider(window_wait(KEYS[3], kind_limit, 60000), 4) end
if best > 0 then return {0, tostring(best), which} end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens - 1), 'at', now)
-- members must be unique: a count taken after trimming can repeat one added in the same ms
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
redis.call('ZADD', KEYS[2], now, now .. ':' .. seq)
redis.call('ZADD', KEYS[3], now, now .. ':' .. seq)
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ttl) end
return {1}
"""

# Decision 29: a sliding window of failures per address. KEYS: the address's sorted set and
# its member counter.
# ARGV: max failures, window ms. Returns 0 (counted) or the ms to wait (nothing counted).
_BEGIN: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local max, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= max then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(first[2]) + window - now)
end
-- unique members: ZCARD after trimming can repeat one added in the same millisecond
local seq = redis.call('INCR', KEYS[2])
redis.call('ZADD', KEYS[1], now, now .. ':' .. seq)
redis.call('PEXPIRE', KEYS[1], window)
redis.call('PEXPIRE', KEYS[2], window)
return 0
"""

# REQ-HTTP-14: an unverified owner ('') gives way to the first verified one. KEYS: the
# session's key; ARGV: the uid ('' when unverified), expiry ms.
_BIND: Final = """
local current = redis.call('GET', KEYS[1])
if not current or current == '' then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1
"""


def _ms(seconds: float) -> int:
    return int(seconds * 1000)


class RedisState:
    """Issue 19: ``SharedState`` in Redis (REQ-11-20, decision 29, REQ-HTTP-14).

    ``clock`` is for tests only: it passes the time into the rate-limit script so that the
    same cases as the in-process store (refill, windows sliding) run without sleeping; in
    production it is None and Redis's TIME is the one clock of every replica.
    """

    def __init__(
        self, client: aioredis.Redis, url: str = "redis", *, clock: Clock | None = None
    ) -> None:
        self._client = client
        self._url = redacted(url)
        self._clock = clock
        self._admit = client.register_script(_ADMIT)
        self._begin = client.register_script(_BEGIN)
        self._bind = client.register_script(_BIND)

    @classmethod
    def from_url(cls, url: str) -> RedisState:
        """Decision 37: a client for ``state_url``; short timeouts so that a Redis that does not
        answer fails the request instead of hanging it."""
        client = aioredis.Redis.from_url(
            url, socket_connect_timeout=2.0, socket_timeout=2.0, decode_responses=True
        )
        return cls(client, url)

    @asynccontextmanager
    async def _reaching(self, what: str) -> AsyncIterator[None]:
        """Decision 37: a Redis failure is logged once, without secrets, and fails closed."""
        try:
            yield
        except (RedisError, OSError) as exc:
            logger.error("shared state at %s unreachable (%s): %s", self._url, what, exc)
            raise StateUnavailable(str(exc)) from None

    async def ping(self) -> None:
        """Decision 37: at start-up, the store must answer (the CLI says so in one line: no
        log line besides it)."""
        try:
            await self._client.ping()
        except (RedisError, OSError) as exc:
            raise StateUnavailable(str(exc)) from None

    async def admit(self, key: str, kind: CallKind, limits: RateLimits) -> None:
        """REQ-11-20: the Lua script admits and counts, or tells the wait and the limit."""
        base = f"{PREFIX}rl:{{{key}}}"
        kind_limit = limits.per_kind(kind)
        now = self._clock() if self._clock is not None else None
        args = [
            limits.burst,
            limits.calls_per_minute,
            limits.calls_per_hour,
            -1 if kind_limit is None else kind_limit,
            _ms(RATE_EXPIRY),
            "" if now is None else now,
        ]
        async with self._reaching("rate limit"):
            answer = await self._admit(
                keys=[f"{base}:bucket", f"{base}:calls", f"{base}:{kind}"], args=args
            )
        if int(answer[0]) != 1:
            name = limit_names(limits, kind)[int(answer[2]) - 1]
            raise RateLimitedError(retry_after(float(answer[1]) / 1000.0), name)

    async def forget(self, key: str) -> None:
        """REQ-11-20: a closed session's counters go with it."""
        base = f"{PREFIX}rl:{{{key}}}"
        async with self._reaching("rate limit"):
            await self._client.delete(*(f"{base}:{part}" for part in _RATE_PARTS))

    async def remember_refusal(self, digest: str, refusal: Refusal, seconds: float) -> None:
        """Decision 29: the refusal under the token's digest, expiring after ``seconds``."""
        value = json.dumps([refusal.status, refusal.error, refusal.description])
        async with self._reaching("refused tokens"):
            await self._client.set(f"{PREFIX}refused:{digest}", value, px=_ms(seconds))

    async def recall_refusal(self, digest: str) -> Refusal | None:
        """Decision 29: the refusal of a token digest, while its key lives."""
        async with self._reaching("refused tokens"):
            value = await self._client.get(f"{PREFIX}refused:{digest}")
        if value is None:
            return None
        status, error, description = json.loads(value)
        return Refusal(int(status), str(error), str(description))

    async def begin_authentication(self, address: str, limits: FailureLimits) -> int | None:
        """Decision 29: the window script counts the attempt or tells the wait."""
        if limits.max_failures <= 0:
            return None
        async with self._reaching("failed authentications"):
            wait = await self._begin(
                keys=[f"{PREFIX}auth:{address}", f"{PREFIX}auth-seq:{address}"],
                args=[limits.max_failures, _ms(limits.window)],
            )
        return retry_after(int(wait) / 1000.0) if int(wait) > 0 else None

    async def authentication_succeeded(self, address: str) -> None:
        """Decision 29: the attempt counted last is taken back."""
        async with self._reaching("failed authentications"):
            await self._client.zpopmax(f"{PREFIX}auth:{address}")

    async def bind_owner(self, session: str, uid: int | None) -> None:
        """REQ-HTTP-14: set when unowned or unverified, in one script."""
        value = "" if uid is None else str(uid)
        async with self._reaching("session owners"):
            await self._bind(keys=[_owner_key(session)], args=[value, _ms(OWNER_EXPIRY)])

    async def owner(self, session: str) -> int | None:
        """REQ-HTTP-14: the owner, its expiry renewed: a session in use keeps its owner."""
        async with self._reaching("session owners"):
            value = await self._client.getex(_owner_key(session), px=_ms(OWNER_EXPIRY))
        return int(value) if value else None

    async def forget_owner(self, session: str) -> None:
        """REQ-HTTP-14: a deleted session has no owner."""
        async with self._reaching("session owners"):
            await self._client.delete(_owner_key(session))

    async def close(self) -> None:
        """Release the connection pool (server shutdown)."""
        await self._client.aclose()


_RATE_PARTS: Final = ("bucket", "calls", "read", "write")


def _owner_key(session: str) -> str:
    return f"{PREFIX}owner:{session}"
