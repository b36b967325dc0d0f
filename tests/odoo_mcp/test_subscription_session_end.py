"""Issue 37: a session's subscriptions end with the session, through the whole HTTP app in
process (the SDK's transport and session manager, on an in-process fake Odoo).

A DELETE, the SDK's idle timeout and the session cap making room all end the session's
subscriptions, so that no poll round asks Odoo anything for a client that is gone."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx2
import pytest

from fake_odoo.handle import FakeOdoo
from mcp_servers import fake_config, fake_connection
from odoo_mcp.adapter import server as server_module
from odoo_mcp.adapter.http import app as app_module
from odoo_mcp.adapter.http.app import build_http_app
from odoo_mcp.adapter.http.sessions import SessionCap
from odoo_mcp.adapter.server import build_server
from odoo_mcp.resources.subscriptions import SubscriptionManager

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.MCPDeprecationWarning")]

ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
PARTNER = "odoo://record/res.partner/9"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def managers(monkeypatch: pytest.MonkeyPatch) -> list[SubscriptionManager]:
    """The subscription managers ``build_server`` makes, as it makes them."""
    made: list[SubscriptionManager] = []

    class Kept(SubscriptionManager):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(server_module, "SubscriptionManager", Kept)
    return made


@asynccontextmanager
async def served(fake: FakeOdoo, wrap: Any = None) -> AsyncIterator[httpx2.AsyncClient]:
    """The HTTP app (authentication off) with its lifespan entered, and a client to it;
    ``wrap(server)`` gives another ASGI app around the SDK's, instead of ``build_http_app``."""
    config = fake_config(transport="http")
    connection = fake_connection(config, fake)
    server = build_server(config, connection)
    app = build_http_app(server, config, connection)
    inner = app if wrap is None else wrap(server)
    async with app.router.lifespan_context(app):
        transport = httpx2.ASGITransport(app=inner)
        async with httpx2.AsyncClient(
            transport=transport, base_url="http://127.0.0.1:8000"
        ) as http:
            yield http
    await connection.close()


async def _subscribed_session(http: httpx2.AsyncClient, uri: str = PARTNER) -> dict[str, str]:
    """A new session (initialized) subscribed to ``uri``: the headers that name it."""
    started = await http.post("/mcp", json=INIT, headers=ACCEPT)
    assert started.status_code == 200, started.text
    session = {**ACCEPT, "mcp-session-id": started.headers["mcp-session-id"]}
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert (await http.post("/mcp", json=note, headers=session)).status_code == 202
    subscribe = {"jsonrpc": "2.0", "id": 2, "method": "resources/subscribe",
                 "params": {"uri": uri}}  # fmt: skip
    answered = await http.post("/mcp", json=subscribe, headers=session)
    assert answered.status_code == 200 and '"result":{}' in answered.text.replace(" ", ""), (
        answered.text
    )
    return session


async def _until(condition: Any, timeout: float = 2.0) -> None:
    """Wait for ``condition()``: the SDK closes a session's connection in its own task."""
    with anyio.fail_after(timeout):
        while not condition():
            await anyio.sleep(0.01)


async def test_a_deleted_session_loses_its_subscriptions_and_costs_odoo_nothing(
    managers: list[SubscriptionManager],
) -> None:
    """Issue 37: after DELETE the session has no subscription, and a poll round asks Odoo
    nothing for it (before the fix, every round polled it until the server stopped)."""
    fake = FakeOdoo("19.0")
    async with served(fake) as http:
        (manager,) = managers
        session = await _subscribed_session(http)
        kept = await _subscribed_session(http, "odoo://record/res.partner/10")
        assert len(manager.clients) == 2
        assert (await http.delete("/mcp", headers=session)).status_code == 200
        await _until(lambda: len(manager.clients) == 1)
        assert manager.clients.keys() == {kept["mcp-session-id"]}
        assert all(mark[2] == 10 for mark in manager.write_dates)  # no baseline left for 9
        assert (await http.delete("/mcp", headers=kept)).status_code == 200
        await _until(lambda: not manager.clients)
        fake.reset_calls()
        assert await manager.poll_round() == []
        assert fake.call_counts() == 0
        assert manager.write_dates == {}


async def test_a_session_the_sdk_idles_out_loses_its_subscriptions(
    managers: list[SubscriptionManager], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 37: the SDK's idle timeout ends the session's subscriptions too, and the SDK
    answers 404 for it afterwards."""
    monkeypatch.setattr(app_module, "SESSION_IDLE_TIMEOUT", 0.2)
    fake = FakeOdoo("19.0")
    async with served(fake) as http:
        (manager,) = managers
        session = await _subscribed_session(http)
        assert len(manager.clients) == 1
        await _until(lambda: not manager.clients)
        assert (await http.post("/mcp", json={"jsonrpc": "2.0", "id": 3, "method": "ping"},
                                headers=session)).status_code == 404  # fmt: skip


async def test_a_session_the_cap_ends_loses_its_subscriptions(
    managers: list[SubscriptionManager],
) -> None:
    """Issue 37: at the cap, the idle session a new one replaces is ended through the SDK (a
    DELETE): its subscriptions end, and the SDK answers 404 for it."""
    now = [1000.0]

    def capped(server: Any) -> Any:
        # the SDK's own app, behind a cap of one session (the shared pool: no auth)
        sdk_app = server.streamable_http_app(streamable_http_path="/mcp")
        return SessionCap(sdk_app, mcp_path="/mcp", max_shared=1, clock=lambda: now[0])

    fake = FakeOdoo("19.0")
    async with served(fake, wrap=capped) as http:
        (manager,) = managers
        old = await _subscribed_session(http)
        refused = await http.post("/mcp", json=INIT, headers=ACCEPT)
        assert refused.status_code == 429  # used a moment ago: not ended
        now[0] += 61
        new = await http.post("/mcp", json=INIT, headers=ACCEPT)
        assert new.status_code == 200, new.text
        await _until(lambda: not manager.clients)
        ping = {"jsonrpc": "2.0", "id": 3, "method": "ping"}
        assert (await http.post("/mcp", json=ping, headers=old)).status_code == 404
        fresh = {**ACCEPT, "mcp-session-id": new.headers["mcp-session-id"]}
        answered = await http.post("/mcp", json=ping, headers=fresh)
        assert answered.status_code == 200 and json.dumps({}) in answered.text
