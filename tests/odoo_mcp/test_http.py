"""The streamable HTTP transport: ``odoo-mcp serve --transport http`` as a real process."""

from __future__ import annotations

from collections.abc import Iterator

import httpx2
import pytest
from mcp import Client

from fake_odoo.testing import serve_fake_odoo
from http_servers import ACCEPT, serve_http

pytestmark = [pytest.mark.anyio, pytest.mark.wire]


@pytest.fixture(scope="module")
def fake_url() -> Iterator[str]:
    with serve_fake_odoo("19.0") as fake:
        assert fake.url is not None
        yield fake.url


@pytest.fixture(scope="module")
def http_base(fake_url: str) -> Iterator[str]:
    yield from serve_http(fake_url)


def test_health_answers_without_authentication(http_base: str) -> None:
    answer = httpx2.get(f"{http_base}/health").json()
    assert answer == {
        "status": "ok", "odoo": "ready", "odoo_version": "19.0", "endpoint": "/mcp", "auth": "none"
    }  # fmt: skip


async def test_a_client_works_over_http(http_base: str) -> None:
    async with Client(f"{http_base}/mcp", mode="legacy") as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        result = await client.call_tool(
            "odoo_core_search_read", {"model": "res.partner", "limit": 3}
        )
    assert "odoo_core_search_read" in names and "odoo_core_create" not in names
    assert not result.is_error and result.structured_content["count"] == 3  # type: ignore[index]


def test_sessions_are_created_and_ended(http_base: str) -> None:
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
    with httpx2.Client(base_url=http_base, headers=ACCEPT) as http:
        started = http.post("/mcp", json=init)
        session = started.headers["mcp-session-id"]
        assert started.status_code == 200 and "2025-06-18" in started.text
        headers = {"mcp-session-id": session, "mcp-protocol-version": "2025-06-18"}
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert http.post("/mcp", json=note, headers=headers).status_code == 202
        listed = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
        assert http.post("/mcp", json=listed, headers=headers).status_code == 200
        assert http.post("/mcp", json=listed).status_code == 400  # no session id
        assert http.delete("/mcp", headers=headers).status_code == 200
        assert http.post("/mcp", json=listed, headers=headers).status_code == 404


def test_stateless_mode_needs_no_session(fake_url: str) -> None:
    for base in serve_http(fake_url, "--stateless"):
        listed = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        answer = httpx2.post(f"{base}/mcp", json=listed, headers=ACCEPT)
        assert answer.status_code == 200 and "odoo_core_search_read" in answer.text
        assert "mcp-session-id" not in answer.headers


def test_ping_before_initialize_and_unknown_methods_before_session_work(http_base: str) -> None:
    """REQ-HTTP-04: before initialize, initialize and ping are accepted; REQ-HTTP-09: the
    method is checked before the session is looked up (the SDK alone says 400 and 404)."""
    with httpx2.Client(base_url=http_base, headers=ACCEPT) as http:
        ping = http.post("/mcp", json={"jsonrpc": "2.0", "id": 7, "method": "ping"})
        assert ping.status_code == 200
        assert ping.json() == {"jsonrpc": "2.0", "id": 7, "result": {}}
        listed = http.post("/mcp", json={"jsonrpc": "2.0", "id": 8, "method": "tools/list"})
        assert listed.status_code == 400  # any other method still needs a session
        unknown = {"jsonrpc": "2.0", "id": 9, "method": "no/such_method"}
        for headers in ({}, {"mcp-session-id": "no-such-session"}):
            answer = http.post("/mcp", json=unknown, headers=headers)
            assert answer.status_code == 200
            assert answer.json()["id"] == 9 and answer.json()["error"]["code"] == -32601
        note = {"jsonrpc": "2.0", "method": "notifications/no_such_thing"}
        assert http.post("/mcp", json=note).status_code == 202
