"""Issue 37, end to end: subscriptions over HTTP with Bearer keys run as their subscriber, and
end with their session, through ``odoo-mcp serve --transport http`` as the console script
wires it (one real server process on a served fake Odoo, shared by this module's tests).

docs/safety.md: a record a caller cannot read is neither subscribed to nor notified."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client
from mcp.types import ResourceUpdatedNotification

from fake_odoo.demo import ADMIN_API_KEY, DEMO_API_KEY
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import serve_fake_odoo
from http_servers import ACCEPT, serve_http

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.wire,
    pytest.mark.filterwarnings("ignore::mcp.MCPDeprecationWarning"),  # legacy-era subscribe
]

#: seconds between two poll rounds of the server under test
POLL = 0.2
#: the demo user may not read journal entries at all; crm.lead 8 is its own lead
SECRET = "odoo://record/account.move/1"
OWN_LEAD = "odoo://record/crm.lead/8"
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOdoo]:
    with serve_fake_odoo("19.0") as served:
        yield served


@pytest.fixture(scope="module")
def base(fake: FakeOdoo) -> Iterator[str]:
    assert fake.url is not None
    yield from serve_http(fake.url, "--http-auth", "on", ODOO_MCP_POLL_INTERVAL=str(POLL))


@asynccontextmanager
async def client_as(base: str, token: str, heard: list[str]) -> AsyncIterator[Client]:
    """A handshake-era client of ``token``'s user; the URIs it is told changed go to
    ``heard``."""

    async def on_message(message: Any) -> None:
        if isinstance(message, ResourceUpdatedNotification):
            heard.append(str(message.params.uri))

    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http:
        transport = streamable_http_client(f"{base}/mcp", http_client=http)
        async with Client(transport, mode="legacy", message_handler=on_message) as client:
            yield client


async def _until(condition: Any, timeout: float = 5.0) -> None:
    with anyio.fail_after(timeout):
        while not condition():
            await anyio.sleep(0.02)


async def test_a_caller_is_neither_subscribed_to_nor_told_of_what_it_cannot_read(
    base: str, fake: FakeOdoo
) -> None:
    """Issue 37: the demo user's subscribe to a journal entry is refused (it could subscribe,
    and was told of the administrator's edits: the subscriptions read as the server's own
    user); its own lead still notifies it. The admin, subscribed to the same entry, is told
    of the edit: the change was there to be seen."""
    to_admin: list[str] = []
    to_demo: list[str] = []
    async with (
        client_as(base, ADMIN_API_KEY, to_admin) as admin,
        client_as(base, DEMO_API_KEY, to_demo) as demo,
    ):
        await admin.subscribe_resource(SECRET)
        with pytest.raises(MCPError) as refused:
            await demo.subscribe_resource(SECRET)
        assert refused.value.error.code == -32001, refused.value.error  # Odoo's access error
        await demo.subscribe_resource(OWN_LEAD)
        fake.set_clock("2031-01-01 10:00:00")  # write_date has a one-second resolution
        try:
            fake.edit("account.move", 1, {"ref": "Edited by the administrator"})
            fake.edit("crm.lead", 8, {"description": "Edited by the administrator"})
        finally:
            fake.set_clock(None)
        await _until(lambda: SECRET in to_admin and OWN_LEAD in to_demo)
        await anyio.sleep(2 * POLL)  # rounds enough for a wrong notification to arrive
    assert to_admin == [SECRET]
    assert to_demo == [OWN_LEAD]


async def test_a_deleted_sessions_subscriptions_are_polled_no_more(
    base: str, fake: FakeOdoo
) -> None:
    """Issue 37: after DELETE /mcp, no poll round asks Odoo anything for the session (10
    such sessions cost 54 Odoo calls per 12 s, forever)."""
    headers = {**ACCEPT, "Authorization": f"Bearer {ADMIN_API_KEY}"}
    subscribe = {"jsonrpc": "2.0", "id": 2, "method": "resources/subscribe",
                 "params": {"uri": "odoo://record/res.partner/9"}}  # fmt: skip
    polls = {"model": "res.partner", "method": "search_read"}
    async with httpx2.AsyncClient(base_url=base, headers=headers) as http:
        started = await http.post("/mcp", json=INIT)
        assert started.status_code == 200, started.text
        session = {"mcp-session-id": started.headers["mcp-session-id"]}
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert (await http.post("/mcp", json=note, headers=session)).status_code == 202
        answered = await http.post("/mcp", json=subscribe, headers=session)
        assert '"result":{}' in answered.text.replace(" ", ""), answered.text
        await _until(lambda: fake.call_counts(**polls) > 0)  # polled while the session lives
        assert (await http.delete("/mcp", headers=session)).status_code == 200
    await anyio.sleep(POLL)  # a round already under way may finish
    fake.reset_calls()
    await anyio.sleep(3 * POLL)
    assert fake.call_counts(**polls) == 0
