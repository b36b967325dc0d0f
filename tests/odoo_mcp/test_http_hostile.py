"""Issue 26, item 6: what a hostile client sends the HTTP transport, in process.

The whole app (Bearer auth, the early middleware, the SDK's transport) on an in-process fake
Odoo, except where a middleware alone is asked (the body limit: how much of a body is read).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
import pytest

from fake_odoo.demo import ADMIN_API_KEY, DEMO_API_KEY
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import FakeOdooTransport
from mcp_servers import fake_config
from odoo_mcp.adapter.http.app import build_http_app
from odoo_mcp.adapter.http.auth import CallerConnections
from odoo_mcp.adapter.server import build_server
from odoo_mcp.connection import ConnectionManager
from odoo_mcp.connection.settings import ConnectionSettings

pytestmark = pytest.mark.anyio

ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
SAFETY = {"jsonrpc": "2.0", "id": 2, "method": "resources/read",
          "params": {"uri": "odoo://config/safety"}}  # fmt: skip


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def fake() -> FakeOdoo:
    return FakeOdoo("19.0")


@asynccontextmanager
async def served(fake: FakeOdoo, **settings: object) -> AsyncIterator[httpx2.AsyncClient]:
    """The HTTP app with authentication on, its lifespan entered, and a client to it."""
    config = fake_config(transport="http", http_auth="on", **settings)
    connection = ConnectionManager(
        config.connection_settings(), transport=FakeOdooTransport(app=fake.app)
    )

    def connect(settings: ConnectionSettings) -> ConnectionManager:
        return ConnectionManager(settings, transport=FakeOdooTransport(app=fake.app))

    callers = CallerConnections(config.connection_settings(), connect=connect)
    app = build_http_app(build_server(config, connection), config, connection, callers=callers)
    async with app.router.lifespan_context(app):
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(
            transport=transport, base_url="http://127.0.0.1:8000"
        ) as http:
            yield http
    await connection.close()


def _bearer(token: str) -> dict[str, str]:
    return {**ACCEPT, "Authorization": f"Bearer {token}"}


def _sse_json(answer: httpx2.Response) -> dict[str, Any]:
    """The JSON-RPC message of a response, whether plain JSON or one SSE event."""
    if answer.headers.get("content-type", "").startswith("application/json"):
        data: dict[str, Any] = answer.json()
        return data
    lines = [line[5:] for line in answer.text.splitlines() if line.startswith("data:")]
    data = json.loads(lines[-1])
    return data


# -- 1. a token Odoo has not verified is never admitted ------------------------------------------


async def test_unverified_token_gets_503_while_odoo_is_down(fake: FakeOdoo) -> None:
    """REQ-HTTP-13: with Odoo unreachable, a token nobody verified reads nothing: 503 with
    Retry-After and a JSON body saying why, neither at initialize nor on a resource read."""
    async with served(fake) as http:
        fake.inject_fault("refuse")
        for body in (INIT, SAFETY):
            answer = await http.post("/mcp", json=body, headers=_bearer("any-token-at-all"))
            assert answer.status_code == 503, answer.text
            assert int(answer.headers["retry-after"]) > 0
            assert answer.json()["error"] == "temporarily_unavailable"
            assert "Odoo cannot be reached" in answer.json()["error_description"]
            assert "mcp-session-id" not in answer.headers


async def test_a_token_verified_before_odoo_went_down_keeps_working(fake: FakeOdoo) -> None:
    """REQ-HTTP-13: the cached, verified caller is not asked to re-verify."""
    async with served(fake) as http:
        started = await http.post("/mcp", json=INIT, headers=_bearer(ADMIN_API_KEY))
        assert started.status_code == 200
        fake.inject_fault("refuse")
        again = await http.post("/mcp", json=INIT, headers=_bearer(ADMIN_API_KEY))
        assert again.status_code == 200 and "mcp-session-id" in again.headers
        unknown = await http.post("/mcp", json=INIT, headers=_bearer(DEMO_API_KEY))
        assert unknown.status_code == 503


# -- 4. malformed headers and bodies are 4xx, never 500 ------------------------------------------


async def test_a_non_ascii_bearer_token_is_401_invalid_token(fake: FakeOdoo) -> None:
    """REQ-HTTP-13: the normal refusal, and Odoo is not asked."""
    async with served(fake) as http:
        fake.reset_calls()
        headers = {**ACCEPT, "Authorization": "Bearer caf\xe9-key".encode("latin-1")}
        answer = await http.post("/mcp", json=INIT, headers=headers)  # type: ignore[arg-type]
        assert answer.status_code == 401
        assert answer.json()["error"] == "invalid_token"
        assert answer.headers["www-authenticate"].startswith("Bearer ")
        assert fake.calls == []
