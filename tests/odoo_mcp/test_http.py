"""The streamable HTTP transport: ``odoo-mcp serve --transport http`` as a real process."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx2
import pytest
from mcp import Client
from mcp.types import JSONRPCResponse

from fake_odoo.testing import serve_fake_odoo
from http_servers import ACCEPT, serve_http
from odoo_mcp.adapter import wire

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


def test_json_response_mode_answers_one_json_body(fake_url: str) -> None:
    """Issue 30: --json-response answers a POST with application/json, not an SSE stream."""
    for base in serve_http(fake_url, "--json-response", "--stateless"):
        listed = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        answer = httpx2.post(f"{base}/mcp", json=listed, headers=ACCEPT)
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("application/json")
        assert "odoo_core_search_read" in {
            tool["name"] for tool in answer.json()["result"]["tools"]
        }


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


def test_a_state_change_is_seen_at_once_even_by_concurrent_requests(http_base: str) -> None:
    """REQ-HTTP-20: discovery sent together right after initialize, and requests racing
    notifications/initialized, are all served (in either state, never refused)."""
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
    started = httpx2.post(f"{http_base}/mcp", json=init, headers=ACCEPT)
    headers = {**ACCEPT, "mcp-session-id": started.headers["mcp-session-id"],
               "mcp-protocol-version": "2025-06-18"}  # fmt: skip

    def post(body: dict[str, object]) -> httpx2.Response:
        return httpx2.post(f"{http_base}/mcp", json=body, headers=headers, timeout=30)

    def request(number: int, method: str) -> dict[str, object]:
        return {"jsonrpc": "2.0", "id": number, "method": method, "params": {}}

    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    discovery = [request(n, m) for n, m in enumerate(("tools/list", "prompts/list", "ping"), 2)]
    racing = [note, *(request(n, "tools/list") for n in range(10, 14))]
    with ThreadPoolExecutor(max_workers=5) as pool:
        first = list(pool.map(post, discovery))
        second = list(pool.map(post, racing))
    assert [a.status_code for a in first] == [200, 200, 200], [a.text for a in first]
    assert [a.status_code for a in second] == [202, 200, 200, 200, 200]
    assert all("odoo_core_search_read" in a.text for a in second[1:])


def test_the_public_url_is_the_advertised_endpoint(fake_url: str) -> None:
    """REQ-HTTP-12 (decision 33): with public_url set, the server gives it as its endpoint."""
    for base in serve_http(fake_url, "--public-url", "https://mcp.example.com/mcp"):
        answer = httpx2.get(f"{base}/health").json()
        assert answer["endpoint"] == "https://mcp.example.com/mcp"


def test_a_server_on_all_interfaces_authenticates_by_default(fake_url: str) -> None:
    """REQ-HTTP-18 (decision 33): started on 0.0.0.0 with no http_auth setting, the server
    refuses a request without a token (loopback, above, stays open)."""
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
    for base in serve_http(fake_url, "--host", "0.0.0.0"):
        assert httpx2.get(f"{base}/health").json()["auth"] == "bearer"
        answer = httpx2.post(f"{base}/mcp", json=init, headers=ACCEPT)
        assert answer.status_code == 401
        assert answer.headers["www-authenticate"].lower().startswith("bearer")


@pytest.mark.parametrize("flags", [(), ("--json-response",)], ids=["sse", "json"])
def test_a_long_tool_answer_is_the_sdks_bytes_over_http(
    fake_url: str, flags: tuple[str, ...]
) -> None:
    """Issue 41 (adapter.wire): a long answer, serialized once, is over HTTP (an SSE event or
    one JSON body) exactly what the SDK writes for its values, its text block the JSON of its
    structured content."""
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "odoo_core_search_read",
        "arguments": {"model": "res.partner", "fields": ["*"], "limit": 20}}}  # fmt: skip
    for base in serve_http(fake_url, *flags):
        with httpx2.Client(base_url=base, headers=ACCEPT) as http:
            started = http.post("/mcp", json=init)
            headers = {"mcp-session-id": started.headers["mcp-session-id"],
                       "mcp-protocol-version": "2025-06-18"}  # fmt: skip
            http.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                      headers=headers)  # fmt: skip
            answer = http.post("/mcp", json=call, headers=headers)
        assert answer.status_code == 200
        if flags:
            line = answer.text
        else:
            [line] = [row[6:] for row in answer.text.splitlines() if row.startswith("data: ")]
        sdk_way = JSONRPCResponse.model_validate_json(line)
        assert sdk_way.model_dump_json(by_alias=True, exclude_unset=True) == line
        text = sdk_way.result["content"][0]["text"]
        assert len(text) >= wire.KEEP_FROM  # long enough to take the short way
        assert json.loads(text) == sdk_way.result["structuredContent"]
