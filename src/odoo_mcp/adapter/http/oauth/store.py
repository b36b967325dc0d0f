"""OAuth sign-in: a key/value store with expiry, in this process's memory or in Redis.

The shared-state protocol (``odoo_mcp.state``) has no generic key/value with a time to live,
so the OAuth records (clients, pending sign-ins, codes, grants, tokens) live in this small
store beside it: in memory when ``state_url`` is empty, else in the same Redis (its own
client, keys under ``odoo-mcp:oauth:``), so that every replica accepts every token. ``take``
reads and deletes in one step: codes, refresh tokens and sign-in forms are single use even
when two replicas race. A Redis failure raises ``StateUnavailable`` (fail closed).
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Final, Protocol

from odoo_mcp.state import StateUnavailable, redacted

if TYPE_CHECKING:
    import redis.asyncio as aioredis

__all__ = ["MAX_ENTRIES", "PREFIX", "MemoryStore", "OAuthStore", "RedisStore", "open_store"]

logger = logging.getLogger("odoo_mcp.state")

PREFIX: Final = "odoo-mcp:oauth:"
#: Entries of one kind a process keeps in memory at once; the oldest goes first.
MAX_ENTRIES: Final = 100_000

Clock = Callable[[], float]


class OAuthStore(Protocol):
    """String values under string keys, each with its time to live (seconds)."""

    async def put(self, key: str, value: str, ttl: float) -> None:
        """Set ``key`` for ``ttl`` seconds (replacing any value)."""

    async def get(self, key: str) -> str | None:
        """The value, while it lives."""

    async def take(self, key: str) -> str | None:
        """The value, deleted in the same step: only one caller ever gets it."""

    async def delete(self, key: str) -> None:
        """Forget ``key``."""

    async def close(self) -> None:
        """Release the store's connections."""


class MemoryStore:
    """``OAuthStore`` in this process's memory, on an injectable clock; bounded per kind of
    record (the part of the key before ``:``), so that a flood of registrations or sign-in
    forms evicts old ones of its own kind, never a grant or a token."""

    def __init__(self, *, clock: Clock = time.time, max_entries: int = MAX_ENTRIES) -> None:
        self._clock = clock
        self._max = max_entries
        self._kinds: dict[str, OrderedDict[str, tuple[float, str]]] = {}

    def _of(self, key: str) -> OrderedDict[str, tuple[float, str]]:
        return self._kinds.setdefault(key.partition(":")[0], OrderedDict())

    @property
    def entries(self) -> dict[str, str]:
        """Every value kept, by key (for the tests: what a dump of the store shows)."""
        return {key: value for kind in self._kinds.values() for key, (_, value) in kind.items()}

    async def put(self, key: str, value: str, ttl: float) -> None:
        """Set ``key`` until ``ttl`` seconds from now."""
        values = self._of(key)
        values[key] = (self._clock() + ttl, value)
        values.move_to_end(key)
        while len(values) > self._max:
            values.popitem(last=False)

    async def get(self, key: str) -> str | None:
        """The value, unless it expired."""
        values = self._of(key)
        found = values.get(key)
        if found is None:
            return None
        until, value = found
        if self._clock() >= until:
            del values[key]
            return None
        return value

    async def take(self, key: str) -> str | None:
        """The value, removed (no await in between: atomic in one event loop)."""
        value = await self.get(key)
        self._of(key).pop(key, None)
        return value

    async def delete(self, key: str) -> None:
        """Forget ``key``."""
        self._of(key).pop(key, None)

    async def close(self) -> None:
        """Nothing to release."""


class RedisStore:
    """``OAuthStore`` in Redis: ``SET PX``, ``GET``, ``GETDEL`` (Redis 6.2), ``DEL``."""

    def __init__(self, client: aioredis.Redis, url: str = "redis") -> None:
        self._client = client
        self._url = redacted(url)

    @classmethod
    def from_url(cls, url: str) -> RedisStore:
        """A client for ``state_url``, with the shared state's short timeouts."""
        import redis.asyncio as aioredis  # the optional extra, only when used

        client = aioredis.Redis.from_url(
            url, socket_connect_timeout=2.0, socket_timeout=2.0, decode_responses=True
        )
        return cls(client, url)

    @asynccontextmanager
    async def _reaching(self) -> AsyncIterator[None]:
        from redis.exceptions import RedisError

        try:
            yield
        except (RedisError, OSError) as exc:
            logger.error("shared state at %s unreachable (oauth): %s", self._url, exc)
            raise StateUnavailable(str(exc)) from None

    async def put(self, key: str, value: str, ttl: float) -> None:
        """Set ``key`` with its expiry, in one command."""
        async with self._reaching():
            await self._client.set(PREFIX + key, value, px=max(1, int(ttl * 1000)))

    async def get(self, key: str) -> str | None:
        """The value while its key lives."""
        async with self._reaching():
            value = await self._client.get(PREFIX + key)
        return None if value is None else str(value)

    async def take(self, key: str) -> str | None:
        """``GETDEL``: one replica gets the value, every other one None."""
        async with self._reaching():
            value = await self._client.getdel(PREFIX + key)
        return None if value is None else str(value)

    async def delete(self, key: str) -> None:
        """Forget ``key``."""
        async with self._reaching():
            await self._client.delete(PREFIX + key)

    async def close(self) -> None:
        """Release the connection pool."""
        await self._client.aclose()


def open_store(state_url: str) -> OAuthStore:
    """Memory for an empty ``state_url``, else the same Redis as the shared state."""
    if not state_url:
        return MemoryStore()
    return RedisStore.from_url(state_url)
