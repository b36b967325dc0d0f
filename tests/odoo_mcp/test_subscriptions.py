"""SPEC-06 §5: subscriptions through a real MCP client, polling write_date on the fake Odoo."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp import Client, MCPError
from mcp.types import ResourceUpdatedNotification

from fake_odoo.demo import ADMIN_UID, DEMO_UID
from fake_odoo.handle import FakeOdoo
from mcp_servers import fake_config, fake_connection, fake_server
from odoo_mcp.callers import Caller, CallerRouter, acting_as
from odoo_mcp.connection import ConnectionManager, OdooError
from odoo_mcp.resources.subscriptions import (
    MAX_SUBSCRIPTIONS,
    SubscriptionManager,
    SubscriptionRefused,
)
from odoo_mcp.safety import SafetyPolicy

pytestmark = pytest.mark.anyio


def _server(fake: FakeOdoo, interval: float) -> Any:
    return fake_server(fake, subscription_poll_interval=interval)


@pytest.mark.filterwarnings("ignore::mcp.MCPDeprecationWarning")  # legacy-era subscribe
async def test_an_outside_edit_is_notified_and_nothing_else() -> None:
    fake = FakeOdoo("19.0")
    updates: list[str] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, ResourceUpdatedNotification):
            updates.append(str(message.params.uri))

    async with Client(_server(fake, 0.2), mode="legacy", message_handler=on_message) as client:
        assert client.server_capabilities.resources.subscribe  # type: ignore[union-attr]
        await client.subscribe_resource("odoo://record/res.partner/9")
        await client.subscribe_resource("odoo://record/res.partner/10")
        await anyio.sleep(0.7)  # rounds without a change: no notification
        assert updates == []
        await anyio.sleep(1.1)  # write_date has a one-second resolution
        fake.edit("res.partner", 9, {"function": "Changed outside"})
        with anyio.fail_after(3):
            while not updates:
                await anyio.sleep(0.05)
        assert updates == ["odoo://record/res.partner/9"]
        await client.unsubscribe_resource("odoo://record/res.partner/9")
        await anyio.sleep(1.1)
        fake.edit("res.partner", 9, {"function": "Again"})
        await anyio.sleep(0.7)
        assert updates == ["odoo://record/res.partner/9"]  # unsubscribed: nothing new
        with pytest.raises(MCPError):
            await client.subscribe_resource("odoo://model/res.partner/fields")


async def test_a_round_costs_one_call_per_model_and_fifty_is_the_limit() -> None:
    fake = FakeOdoo("19.0", scale=5)
    connection = fake_connection(fake_config(), fake)
    await connection.connect()
    manager = SubscriptionManager(connection, SafetyPolicy())

    class _Session:
        async def send_resource_updated(self, uri: str) -> None:
            pass

    partners = fake.call("res.partner", "search", [], limit=30)
    orders = fake.call("sale.order", "search", [], limit=15)
    products = fake.call("product.product", "search", [], limit=5)
    uris = [f"odoo://record/res.partner/{i}" for i in partners]
    uris += [f"odoo://record/sale.order/{i}" for i in orders]
    uris += [f"odoo://record/product.product/{i}" for i in products]
    assert len(uris) == MAX_SUBSCRIPTIONS
    for uri in uris:
        await manager.subscribe("client", _Session(), uri)
    with pytest.raises(SubscriptionRefused, match="at most 50"):
        await manager.subscribe("client", _Session(), "odoo://record/res.partner/1")
    fake.reset_calls()
    assert await manager.poll_round() == []
    assert fake.call_counts() == 3  # one search_read per model, for 50 subscriptions
    await connection.close()


async def test_a_2026_era_listen_stream_is_notified_too() -> None:
    fake = FakeOdoo("19.0")
    uri = "odoo://record/res.partner/11"
    async with (
        Client(_server(fake, 0.2)) as client,  # mode auto: the 2026-07-28 era
        client.listen(resource_subscriptions=[uri]) as stream,
    ):
        await anyio.sleep(1.1)
        fake.edit("res.partner", 11, {"function": "Changed for a listener"})
        with anyio.fail_after(3):
            async for event in stream:
                assert str(event.uri) == uri  # type: ignore[attr-defined]
                break


async def test_a_closed_session_loses_its_subscriptions() -> None:
    fake = FakeOdoo("19.0")
    connection = fake_connection(fake_config(), fake)
    await connection.connect()
    manager = SubscriptionManager(connection, SafetyPolicy())

    class _Closed:
        async def send_resource_updated(self, uri: str) -> None:
            raise MCPError(-32000, "Connection closed", None)

    await manager.subscribe("gone", _Closed(), "odoo://record/res.partner/9")
    await anyio.sleep(1.1)
    fake.edit("res.partner", 9, {"function": "After the client left"})
    assert await manager.poll_round() == ["odoo://record/res.partner/9"]
    assert manager.clients == {}
    await connection.close()


async def test_system_info_is_notified_when_the_connection_state_changes() -> None:
    """REQ-06-15: odoo://system/info subscribers hear about a broken, then a recovered,
    connection, found by the poll round itself; a round without a change notifies nothing."""
    fake = FakeOdoo("19.0")
    config = fake_config(reconnect_max_attempts=1, reconnect_backoff_base=0.01)
    connection = fake_connection(config, fake)
    await connection.connect()
    manager = SubscriptionManager(connection, SafetyPolicy())
    heard: list[str] = []

    class _Session:
        async def send_resource_updated(self, uri: str) -> None:
            heard.append(uri)

    await manager.subscribe("client", _Session(), "odoo://system/info")
    fake.reset_calls()
    assert await manager.poll_round() == []
    assert fake.call_counts() == 1  # the round's own probe of the connection
    fake.inject_fault("refuse")  # no tool runs: the round finds it out by itself
    assert await manager.poll_round() == ["odoo://system/info"]
    assert await manager.poll_round() == []
    fake.clear_faults()
    assert await manager.poll_round() == ["odoo://system/info"]
    assert heard == ["odoo://system/info", "odoo://system/info"]
    # a record subscription on a model Odoo cannot answer for does not stop the round
    await manager.subscribe("client", _Session(), "odoo://record/res.partner/9")
    fake.inject_fault("refuse")
    assert await manager.poll_round() == ["odoo://system/info"]
    fake.clear_faults()
    await connection.close()


# -- issue 26: a subscription runs as its subscriber ------------------------------------------
# crm.lead's "Personal Leads" rule: the demo user (a plain salesman) reads its own leads and
# unassigned ones only; lead 8 is demo's, lead 9 the admin's.
DEMO_LEAD, ADMIN_LEAD = 8, 9


class _Heard:
    """A handshake-era session that keeps what it is told."""

    def __init__(self) -> None:
        self.heard: list[str] = []

    async def send_resource_updated(self, uri: str) -> None:
        self.heard.append(uri)


async def _two_users(
    fake: FakeOdoo,
) -> tuple[SubscriptionManager, Caller, Caller, list[ConnectionManager]]:
    """The manager as the server builds it (a router on the admin's own connection), and two
    callers with their own connections: the admin and the demo user."""
    own = fake_connection(fake_config(), fake)
    admin = fake_connection(fake_config(), fake)
    demo = fake_connection(fake_config(login="demo"), fake)
    for connection in (own, admin, demo):
        await connection.connect()
    manager = SubscriptionManager(CallerRouter(own), SafetyPolicy())
    return manager, Caller(admin, ADMIN_UID), Caller(demo, DEMO_UID), [own, admin, demo]


def _lead(record_id: int) -> str:
    return f"odoo://record/crm.lead/{record_id}"


async def test_a_caller_who_cannot_read_a_record_cannot_subscribe_to_it() -> None:
    """Issue 26: the subscribe check reads as the subscriber, even when another subscriber
    already read the record (the old code then skipped the read)."""
    fake = FakeOdoo("19.0")
    manager, admin, demo, connections = await _two_users(fake)
    with acting_as(admin):
        await manager.subscribe("admin", _Heard(), _lead(ADMIN_LEAD))
    with acting_as(demo), pytest.raises(OdooError) as refused:
        await manager.subscribe("demo", _Heard(), _lead(ADMIN_LEAD))
    assert "top-secret" in str(refused.value)
    assert set(manager.clients) == {"admin"}  # no subscription recorded for demo
    for connection in connections:
        await connection.close()


async def test_a_change_reaches_only_the_subscribers_who_can_still_read_it() -> None:
    """Issue 26: both users are told of a change to a record both can read; once the record
    is no longer demo's, a change reaches the admin only."""
    fake = FakeOdoo("19.0")
    manager, admin, demo, connections = await _two_users(fake)
    to_admin, to_demo = _Heard(), _Heard()
    with acting_as(admin):
        await manager.subscribe("admin", to_admin, _lead(DEMO_LEAD))
    with acting_as(demo):
        await manager.subscribe("demo", to_demo, _lead(DEMO_LEAD))
    fake.set_clock("2031-01-01 10:00:00")  # write_date has a one-second resolution
    fake.edit("crm.lead", DEMO_LEAD, {"description": "Both see this"})
    assert await manager.poll_round() == [_lead(DEMO_LEAD)]
    assert to_admin.heard == to_demo.heard == [_lead(DEMO_LEAD)]
    fake.set_clock("2031-01-01 10:00:05")
    fake.edit("crm.lead", DEMO_LEAD, {"user_id": ADMIN_UID})  # demo may no longer read it
    await manager.poll_round()
    fake.set_clock("2031-01-01 10:00:10")
    fake.edit("crm.lead", DEMO_LEAD, {"description": "Only the admin sees this"})
    assert await manager.poll_round() == [_lead(DEMO_LEAD)]
    assert to_admin.heard == [_lead(DEMO_LEAD)] * 3
    assert to_demo.heard == [_lead(DEMO_LEAD)]  # nothing after it stopped being demo's
    for connection in connections:
        await connection.close()


async def test_the_poll_round_reads_as_the_subscriber() -> None:
    """Issue 26: the round's search_read goes out on the subscriber's own connection, not on
    the server's: a change to a record the subscriber can no longer read is not told."""
    fake = FakeOdoo("19.0")
    manager, _admin, demo, connections = await _two_users(fake)
    own, _, demo_connection = connections
    sent: dict[str, list[tuple[str, str]]] = {"own": [], "demo": []}
    for name, connection in (("own", own), ("demo", demo_connection)):
        original = connection.call

        async def spy(
            model: str, method: str, *args: Any, _o: Any = original, _n: str = name, **kwargs: Any
        ) -> Any:
            sent[_n].append((model, method))
            return await _o(model, method, *args, **kwargs)

        connection.call = spy  # type: ignore[method-assign]
    to_demo = _Heard()
    with acting_as(demo):
        await manager.subscribe("demo", to_demo, _lead(DEMO_LEAD))
    sent["own"].clear()
    sent["demo"].clear()
    assert await manager.poll_round() == []
    assert sent == {"own": [], "demo": [("crm.lead", "search_read")]}
    fake.set_clock("2031-01-01 10:00:00")
    fake.edit("crm.lead", DEMO_LEAD, {"user_id": ADMIN_UID, "description": "Not demo's"})
    assert await manager.poll_round() == []
    assert to_demo.heard == []
    for connection in connections:
        await connection.close()


@pytest.mark.filterwarnings("ignore::mcp.MCPDeprecationWarning")  # legacy-era subscribe
async def test_a_refused_subscription_carries_the_spec10_error() -> None:
    """Decision 27: the 51st subscription and a URI that cannot be subscribed to are -32602
    with the SPEC-10 error object as data, like every other resource refusal."""
    fake = FakeOdoo("19.0", scale=5)
    async with Client(_server(fake, 60), mode="legacy") as client:
        partners = fake.call("res.partner", "search", [], limit=MAX_SUBSCRIPTIONS)
        for record_id in partners:
            await client.subscribe_resource(f"odoo://record/res.partner/{record_id}")
        for uri in ("odoo://record/sale.order/1", "odoo://model/res.partner/fields"):
            with pytest.raises(MCPError) as refused:
                await client.subscribe_resource(uri)
            assert refused.value.error.code == -32602
            data = refused.value.error.data
            assert isinstance(data, dict), data
            assert data["category"] == "validation"
            assert data["message"] and data["suggestion"]
