"""REQ-06-02 / REQ-06-15: ``odoo://system/info`` while Odoo is unreachable mid-session.

The server is the one ``odoo-mcp serve`` builds (``build_server`` over a real connection),
read by an MCP client; the in-process fake Odoo 19.0 then refuses every connection (the
"refuse" fault: a TCP reset before any request is handled, as a stopped Odoo). The resource
keeps the seed's shape with the values last known (a string version, the protocol, an integer
uid and the user's name) and tells the outage in ``state``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from mcp import Client
from mcp.types import TextResourceContents

from fake_odoo.demo import ADMIN_UID
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import FakeOdooTransport
from mcp_servers import fake_config
from odoo_mcp.adapter.server import build_server
from odoo_mcp.connection import ConnectionManager

pytestmark = pytest.mark.anyio

PROTOCOLS = ("json2", "jsonrpc", "xmlrpc")


@pytest.fixture
def fake() -> FakeOdoo:
    return FakeOdoo("19.0")


@pytest.fixture(params=PROTOCOLS)
async def client(fake: FakeOdoo, request: pytest.FixtureRequest) -> AsyncIterator[Client]:
    config = fake_config(odoo_protocol=request.param, mode="full")
    connection = ConnectionManager(
        config.connection_settings(),
        transport=FakeOdooTransport(app=fake.app),
        backoff=(0.0, 0.0),
    )
    async with Client(build_server(config, connection), mode="legacy") as mcp_client:
        mcp_client.protocol = request.param  # type: ignore[attr-defined]
        yield mcp_client


async def _info(client: Client) -> dict[str, Any]:
    contents = (await client.read_resource("odoo://system/info")).contents[0]
    assert isinstance(contents, TextResourceContents)
    data: dict[str, Any] = json.loads(contents.text)
    return data


async def _lose_odoo(client: Client, fake: FakeOdoo) -> None:
    """Odoo goes away: the next call fails after its reconnection attempts."""
    fake.inject_fault("refuse")
    failed = await client.call_tool("odoo_core_count", {"model": "res.partner"})
    assert failed.is_error


async def test_outage_keeps_the_last_known_values(client: Client, fake: FakeOdoo) -> None:
    """REQ-06-02: during the outage the version, protocol, uid and user name are the ones
    the connection had; ``state`` says the connection is in error."""
    before = await _info(client)
    assert before["state"] == "ready"
    await _lose_odoo(client, fake)
    during = await _info(client)
    assert during["state"] == "error"
    assert during["server_version"] == "19.0"
    assert during["protocol"] == client.protocol  # type: ignore[attr-defined]
    assert during["user"] == {"uid": ADMIN_UID, "name": "Mitchell Admin"}
    for key in ("server_edition", "database", "url", "mcp_server_version"):
        assert during[key] == before[key]


async def test_outage_before_any_read_of_the_resource(client: Client, fake: FakeOdoo) -> None:
    """REQ-06-02: the seed's types hold even when system/info is first read during the
    outage (the case of a subscriber woken by the connection change)."""
    counted = await client.call_tool("odoo_core_count", {"model": "res.partner"})
    assert not counted.is_error
    await _lose_odoo(client, fake)
    during = await _info(client)
    assert during["state"] == "error"
    assert isinstance(during["server_version"], str) and during["server_version"] == "19.0"
    assert during["protocol"] == client.protocol  # type: ignore[attr-defined]
    assert during["user"]["uid"] == ADMIN_UID
    assert isinstance(during["user"]["name"], str) and during["user"]["name"]


async def test_recovery_reports_ready_again(client: Client, fake: FakeOdoo) -> None:
    """REQ-06-15: once Odoo answers again, the next call reconnects and the state is ready."""
    await _lose_odoo(client, fake)
    fake.clear_faults()
    counted = await client.call_tool("odoo_core_count", {"model": "res.partner"})
    assert not counted.is_error
    after = await _info(client)
    assert after["state"] == "ready"
    assert after["user"] == {"uid": ADMIN_UID, "name": "Mitchell Admin"}
