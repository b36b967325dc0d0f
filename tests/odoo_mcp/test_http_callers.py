"""REQ-HTTP-13/15: the token -> Odoo connection map behind the HTTP transport's Bearer auth."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from fake_odoo.demo import ADMIN_API_KEY, ADMIN_UID, DEMO_API_KEY, DEMO_UID, demo_uid
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import FakeOdooTransport
from mcp_servers import fake_config
from odoo_mcp.adapter.http.auth import CallerConnections, CallerRefused, FailedAuthentications
from odoo_mcp.callers import Caller
from odoo_mcp.connection import ConnectionManager
from odoo_mcp.connection.settings import ConnectionSettings
from odoo_mcp.state import MemoryState

pytestmark = pytest.mark.anyio


def _callers(fake: FakeOdoo, **options: Any) -> tuple[CallerConnections, list[ConnectionManager]]:
    made: list[ConnectionManager] = []

    def connect(settings: ConnectionSettings) -> ConnectionManager:
        made.append(ConnectionManager(settings, transport=FakeOdooTransport(app=fake.app)))
        return made[-1]

    settings = fake_config().connection_settings()
    return CallerConnections(settings, connect=connect, **options), made


async def test_one_authentication_per_token_even_when_requests_race() -> None:
    callers, made = _callers(FakeOdoo("19.0"))
    found: list[Caller] = []
    async with anyio.create_task_group() as tasks:
        for _ in range(10):
            tasks.start_soon(lambda: _append(found, callers, ADMIN_API_KEY))
    assert {caller.uid for caller in found} == {ADMIN_UID} and len(made) == 1
    demo = await callers.resolve(f"demo:{DEMO_API_KEY}")
    assert demo.uid == DEMO_UID and demo.connection is not found[0].connection
    await callers.close()


async def _append(found: list[Caller], callers: CallerConnections, token: str) -> None:
    found.append(await callers.resolve(token))


async def test_refused_tokens_are_not_kept() -> None:
    callers, made = _callers(FakeOdoo("19.0"))
    for attempt in range(3):
        with pytest.raises(CallerRefused) as refused:
            await callers.resolve(f"wrong-key-{attempt}")
        assert refused.value.status == 401 and "wrong-key" not in refused.value.description
    assert callers._callers == {} and callers._locks == {}  # nothing grows with bad tokens
    assert all(not manager.is_ready for manager in made)


async def test_the_least_recently_used_caller_is_closed_beyond_the_cap() -> None:
    callers, made = _callers(FakeOdoo("19.0"), max_callers=1)
    admin = await callers.resolve(ADMIN_API_KEY)
    await callers.resolve(DEMO_API_KEY)
    assert not admin.connection.is_ready  # closed when demo took its place
    again = await callers.resolve(ADMIN_API_KEY)
    assert again.uid == ADMIN_UID and again.connection is not admin.connection
    assert len(made) == 3
    await callers.close()


async def test_a_refused_token_is_refused_again_without_asking_odoo() -> None:
    now = [0.0]
    callers, made = _callers(FakeOdoo("19.0"), state=MemoryState(clock=lambda: now[0]))
    for _ in range(3):
        with pytest.raises(CallerRefused):
            await callers.resolve("revoked-key")
    assert len(made) == 1  # Odoo was asked once
    now[0] += 61  # the memory fades: Odoo is asked again
    with pytest.raises(CallerRefused):
        await callers.resolve("revoked-key")
    assert len(made) == 2


async def test_failed_authentications_are_limited_per_client_address() -> None:
    """Issue 13: a thousand wrong tokens from one address cost Odoo ten authentications."""
    now = [0.0]
    fake = FakeOdoo("19.0")
    callers, made = _callers(fake, state=MemoryState(clock=lambda: now[0]))
    known = await callers.resolve(ADMIN_API_KEY, "10.0.0.1")
    fake.reset_calls()
    statuses = []
    for attempt in range(1000):
        with pytest.raises(CallerRefused) as refused:
            await callers.resolve(f"guess-{attempt}", "10.0.0.1")
        statuses.append(refused.value.status)
    assert statuses.count(401) == 10 and statuses.count(429) == 990
    assert len(made) == 1 + 10  # the admin's connection, then ten refused attempts
    assert len(fake.calls) <= 10 * 2  # each attempt: at most a probe and an authentication
    assert refused.value.retry_after == 60 and "guess" not in refused.value.description
    # the address's known token still works; another address is not limited
    assert (await callers.resolve(ADMIN_API_KEY, "10.0.0.1")) is known
    assert (await callers.resolve(f"demo:{DEMO_API_KEY}", "10.0.0.2")).uid == DEMO_UID
    with pytest.raises(CallerRefused) as refused:
        await callers.resolve("guess-again", "10.0.0.1")
    assert refused.value.status == 429
    now[0] += 61  # the window slides: Odoo is asked again
    with pytest.raises(CallerRefused) as refused:
        await callers.resolve("guess-later", "10.0.0.1")
    assert refused.value.status == 401
    await callers.close()


async def test_the_memory_of_failing_addresses_is_bounded() -> None:
    state = MemoryState(max_addresses=100)
    failures = FailedAuthentications(state, max_failures=2)
    for number in range(5000):
        await failures.begin(f"10.1.{number // 256}.{number % 256}")
    assert len(state._failures) == 100
    await failures.begin("10.9.9.9")
    await failures.succeeded("10.9.9.9")  # an accepted token leaves nothing behind
    assert "10.9.9.9" not in state._failures


@pytest.mark.req("REQ-HTTP-13", "REQ-HTTP-15")
@pytest.mark.parametrize(
    ("version", "token"), [("19.0", DEMO_API_KEY), ("17.0", f"demo:{DEMO_API_KEY}")]
)
async def test_a_new_caller_costs_one_odoo_call_and_no_new_pool(version: str, token: str) -> None:
    # the server negotiated once (version probe, login, edition); a caller only logs in
    fake = FakeOdoo(version)
    settings = fake_config().connection_settings()
    server = ConnectionManager(settings, transport=FakeOdooTransport(app=fake.app))
    await server.connect()
    callers = CallerConnections(settings, endpoint=server.endpoint)
    fake.reset_calls()
    caller = await callers.resolve(token)
    assert caller.uid == demo_uid(fake.db.major)
    assert len(fake.calls) == 1, fake.calls
    assert caller.connection.endpoint is server.endpoint  # the server's pool, not a new one
    assert caller.connection.odoo_version == server.odoo_version
    await caller.connection.call("res.partner", "search_count", [[]])
    assert len(fake.calls) == 2  # the caller's own call, nothing more
    await callers.close()
    assert server.is_ready  # closing callers leaves the server's pool open
    await server.call("res.partner", "search_count", [[]])
    await server.close()


async def test_a_caller_renewing_the_pool_leaves_the_others_working() -> None:
    fake = FakeOdoo("19.0")
    settings = fake_config().connection_settings()
    server = ConnectionManager(settings, transport=FakeOdooTransport(app=fake.app))
    await server.connect()
    first = server.endpoint.client
    renewed = await server.endpoint.renew(first)
    assert renewed is not first and await server.endpoint.renew(first) is renewed  # once
    await server.call("res.partner", "search_count", [[]])  # still on the retired client
    await server.close()
