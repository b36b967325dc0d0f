"""REQ-HTTP-13..16, 18: per-caller Bearer API keys on the HTTP transport, as a real process.

One server, authentication on, two Odoo users (admin and demo) calling it at the same time:
each runs as itself, Odoo's access rights apply per caller, a session belongs to its user.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from fake_odoo.demo import ADMIN_API_KEY, ADMIN_UID, DEMO_API_KEY, DEMO_UID
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import serve_fake_odoo
from http_servers import ACCEPT, serve_http

pytestmark = [pytest.mark.anyio, pytest.mark.wire]

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOdoo]:
    with serve_fake_odoo("19.0") as served:
        yield served


@pytest.fixture(scope="module")
def audit_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("audit") / "audit.log"


@pytest.fixture(scope="module")
def base(fake: FakeOdoo, audit_file: Path) -> Iterator[str]:
    assert fake.url is not None
    yield from serve_http(
        fake.url, "--http-auth", "on", "--mode", "full",
        ODOO_MCP_AUDIT="true", ODOO_MCP_AUDIT_READS="true", ODOO_MCP_AUDIT_FILE=str(audit_file),
    )  # fmt: skip


@asynccontextmanager
async def client_as(base: str, token: str, mode: str = "legacy") -> AsyncIterator[Client]:
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http:
        transport = streamable_http_client(f"{base}/mcp", http_client=http)
        async with Client(transport, mode=mode) as client:  # type: ignore[arg-type]
            yield client


def _payload(result: Any) -> dict[str, Any]:
    data = json.loads(result.content[0].text)
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize(
    "authorization",
    [None, "Basic YWRtaW46YWRtaW4=", "Bearer", "Bearer not-a-key", "Bearer demo:not-a-key"],
)
def test_no_valid_token_is_401_and_no_odoo_call(
    base: str, fake: FakeOdoo, authorization: str | None
) -> None:
    """REQ-HTTP-13: 401 with a Bearer challenge; Odoo never sees a data call."""
    headers = dict(ACCEPT)
    if authorization is not None:
        headers["Authorization"] = authorization
    fake.reset_calls()
    answer = httpx2.post(f"{base}/mcp", json=INIT, headers=headers)
    assert answer.status_code == 401
    assert answer.headers["www-authenticate"].startswith("Bearer ")
    assert answer.json()["error"] in ("invalid_token", "invalid_request")
    assert "mcp-session-id" not in answer.headers
    # checking a key costs at most its own context_get (JSON-2's "who am I"), no data call
    data_calls = [
        c for c in fake.calls if c.model and (c.model, c.method) != ("res.users", "context_get")
    ]
    assert data_calls == []


def test_health_stays_open(base: str) -> None:
    """REQ-HTTP-19: no token needed for the health check."""
    answer = httpx2.get(f"{base}/health")
    assert answer.status_code == 200 and answer.json()["auth"] == "bearer"


async def test_each_caller_acts_as_its_own_odoo_user_at_the_same_time(base: str) -> None:
    """REQ-HTTP-15/16: the demo user is refused what the admin may do, through the same
    server, at the same time; each sees its own record rules."""
    results: dict[str, list[dict[str, Any]]] = {"admin": [], "demo": []}

    async def run(who: str, token: str) -> None:
        async with client_as(base, token) as client:
            for _ in range(5):
                payments = await client.call_tool(
                    "odoo_core_search_read", {"model": "account.payment", "fields": ["name"]}
                )
                orders = await client.call_tool("odoo_core_count", {"model": "sale.order"})
                results[who].append(
                    {"payments_error": payments.is_error, "orders": _payload(orders)["count"]}
                )

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(run, "admin", ADMIN_API_KEY)
        tasks.start_soon(run, "demo", f"demo:{DEMO_API_KEY}")
    assert results["admin"] == [{"payments_error": False, "orders": 39}] * 5
    assert results["demo"] == [{"payments_error": True, "orders": 17}] * 5


async def test_resources_and_prompts_run_as_the_caller(base: str) -> None:
    """REQ-HTTP-15: not only tools: odoo://system/info names the caller."""
    async with client_as(base, DEMO_API_KEY) as client:
        info = json.loads((await client.read_resource("odoo://system/info")).contents[0].text)  # type: ignore[union-attr]
    assert info["user"]["uid"] == DEMO_UID


def test_a_session_belongs_to_its_user(base: str) -> None:
    """REQ-HTTP-14: another user's token on the session is refused; the owner goes on."""
    admin = {**ACCEPT, "Authorization": f"Bearer {ADMIN_API_KEY}"}
    demo = {**ACCEPT, "Authorization": f"Bearer {DEMO_API_KEY}"}
    with httpx2.Client(base_url=base) as http:
        started = http.post("/mcp", json=INIT, headers=admin)
        assert started.status_code == 200
        session = {"mcp-session-id": started.headers["mcp-session-id"]}
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert http.post("/mcp", json=note, headers={**admin, **session}).status_code == 202
        stolen = http.post("/mcp", json=LIST, headers={**demo, **session})
        assert stolen.status_code == 403
        assert "another Odoo user" in stolen.json()["error_description"]
        assert http.post("/mcp", json=LIST, headers={**admin, **session}).status_code == 200
        assert http.delete("/mcp", headers={**admin, **session}).status_code == 200


async def test_audit_records_carry_the_callers_uid(base: str, audit_file: Path) -> None:
    """REQ-HTTP-16 (issue 6): audit records name the Odoo user each call ran as."""
    for token in (ADMIN_API_KEY, DEMO_API_KEY):
        async with client_as(base, token) as client:
            await client.call_tool("odoo_core_count", {"model": "res.partner"})
    records = [json.loads(line) for line in audit_file.read_text().splitlines() if line]
    counted = [r for r in records if r.get("tool") == "odoo_core_count"]
    assert {r["odoo_uid"] for r in counted} >= {ADMIN_UID, DEMO_UID}
    sessions = {r["odoo_uid"]: r["session_id"] for r in counted}
    assert sessions[ADMIN_UID] != sessions[DEMO_UID]


def test_the_token_is_not_logged_nor_echoed(base: str, fake: FakeOdoo) -> None:
    """A refused key never comes back in the answer."""
    answer = httpx2.post(
        f"{base}/mcp", json=INIT, headers={**ACCEPT, "Authorization": "Bearer s3cr3t-k3y"}
    )
    assert answer.status_code == 401 and "s3cr3t" not in answer.text
    assert "s3cr3t" not in answer.headers["www-authenticate"]


def test_a_public_host_serves_with_authentication_on(fake: FakeOdoo) -> None:
    """REQ-HTTP-18: auth is on by default off loopback; DNS-rebinding protection stays on."""
    assert fake.url is not None
    for public in serve_http(
        fake.url, "--host", "0.0.0.0", "--public-url", "https://mcp.example.com/mcp"
    ):
        health = httpx2.get(f"{public}/health").json()
        assert health["auth"] == "bearer" and health["endpoint"] == "https://mcp.example.com/mcp"
        assert httpx2.post(f"{public}/mcp", json=INIT, headers=ACCEPT).status_code == 401
        token = {**ACCEPT, "Authorization": f"Bearer {ADMIN_API_KEY}"}
        assert httpx2.post(f"{public}/mcp", json=INIT, headers=token).status_code == 200
        proxied = {**token, "Host": "mcp.example.com"}
        assert httpx2.post(f"{public}/mcp", json=INIT, headers=proxied).status_code == 200
        rebound = {**token, "Host": "evil.example.net"}
        assert httpx2.post(f"{public}/mcp", json=INIT, headers=rebound).status_code == 421


def test_stateless_callers_have_their_own_rate_limits(fake: FakeOdoo) -> None:
    """REQ-HTTP-16, REQ-11-20: without sessions, each authenticated user is its own bucket."""
    assert fake.url is not None
    params = {"name": "odoo_core_count", "arguments": {"model": "res.partner"}}
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}
    limits = {"ODOO_MCP_RATE_LIMIT": "true", "ODOO_MCP_RATE_LIMIT_RPM": "2",
              "ODOO_MCP_RATE_LIMIT_BURST": "2"}  # fmt: skip
    for stateless in serve_http(fake.url, "--http-auth", "on", "--stateless", **limits):

        def count(token: str, base: str = stateless) -> bool:
            headers = {**ACCEPT, "Authorization": f"Bearer {token}"}
            answer = httpx2.post(f"{base}/mcp", json=call, headers=headers)
            assert answer.status_code == 200, answer.text
            return '"isError":true' not in answer.text.replace(" ", "")

        assert [count(ADMIN_API_KEY) for _ in range(3)] == [True, True, False]
        assert count(DEMO_API_KEY)  # demo's bucket is untouched by admin's calls


async def test_the_2026_protocol_era_acts_as_the_caller_too(base: str) -> None:
    """REQ-HTTP-10/15: a client of the SDK's 2026-07-28 era (server/discover) is served and
    runs as its own Odoo user."""
    async with client_as(base, f"demo:{DEMO_API_KEY}", mode="auto") as client:
        assert client.protocol_version == "2026-07-28"
        counted = await client.call_tool("odoo_core_count", {"model": "sale.order"})
    assert _payload(counted)["count"] == 17


def test_refused_tokens_from_one_address_stop_reaching_odoo(fake: FakeOdoo) -> None:
    """Issue 13 / decision 29: past ten refused tokens a minute, 429 with Retry-After, and
    Odoo is not asked; a token already known keeps working (a server of its own: the limit
    is per address, and every test here calls from 127.0.0.1)."""
    assert fake.url is not None
    for own in serve_http(fake.url, "--http-auth", "on"):
        assert httpx2.post(f"{own}/mcp", json=INIT, headers={
            **ACCEPT, "Authorization": f"Bearer {ADMIN_API_KEY}"}).status_code == 200  # fmt: skip
        fake.reset_calls()
        statuses = []
        for attempt in range(30):
            headers = {**ACCEPT, "Authorization": f"Bearer wrong-key-{attempt}"}
            answer = httpx2.post(f"{own}/mcp", json=INIT, headers=headers)
            statuses.append(answer.status_code)
        assert statuses == [401] * 10 + [429] * 20
        assert 1 <= int(answer.headers["retry-after"]) <= 60
        assert answer.json()["error"] == "too_many_failed_authentications"
        authentications = len(fake.calls)
        assert authentications <= 10 * 2  # probe and authentication, ten times at most
        known = {**ACCEPT, "Authorization": f"Bearer {ADMIN_API_KEY}"}
        assert httpx2.post(f"{own}/mcp", json=INIT, headers=known).status_code == 200


@pytest.mark.parametrize("token", ["not-a-valid-key-0000000000000000", "demo:not-a-valid-key-00"])
def test_a_refused_key_says_so_once(base: str, token: str) -> None:
    """Issue 29: the 401's description names the refusal once, without Odoo's own words
    repeating it ("Odoo refused the API key: Access Denied" style doubling)."""
    answer = httpx2.post(
        f"{base}/mcp", json=INIT, headers={**ACCEPT, "Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 401
    description = answer.json()["error_description"]
    lowered = description.lower()
    for word in ("refused", "denied", "invalid"):
        assert lowered.count(word) <= 1, description
    assert description in answer.headers["www-authenticate"]
