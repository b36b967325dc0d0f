"""REQ-02-21 (issue 37) through ``odoo-mcp serve --transport http --http-auth on``: each caller's
own Odoo connection (built by the HTTP layer, not the one the tests of the tools use) never
sends a change twice either, as a real process on a fake Odoo behind ``FaultProxy``."""

from __future__ import annotations

from collections.abc import Iterator

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from fake_odoo.demo import DEMO_API_KEY
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import serve_fake_odoo
from fault_proxy import FAULTS, FaultProxy, object_call
from http_servers import serve_http
from mcp_servers import error_body

pytestmark = [pytest.mark.anyio, pytest.mark.wire]


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOdoo]:
    with serve_fake_odoo("19.0") as served:
        yield served


@pytest.fixture(scope="module")
def proxy(fake: FakeOdoo) -> Iterator[FaultProxy]:
    assert fake.url is not None
    with FaultProxy(fake.url) as proxied:
        yield proxied


@pytest.fixture(scope="module")
def base(proxy: FaultProxy) -> Iterator[str]:
    yield from serve_http(proxy.url, "--http-auth", "on", ODOO_MCP_MODE="full")


@pytest.mark.req("REQ-02-21")
@pytest.mark.parametrize("fault", [f for f in FAULTS if f.name in ("http_503", "http_429")])
async def test_a_callers_create_answered_503_or_429_is_not_sent_again(
    base: str, proxy: FaultProxy, fake: FakeOdoo, fault: object
) -> None:
    """REQ-02-21: Odoo holds one record, and the caller is told it may have been applied."""
    name = f"Created behind a proxy ({getattr(fault, 'name', '')})"
    proxy.arm(object_call("res.partner", "create"), fault)  # type: ignore[arg-type]
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {DEMO_API_KEY}"}) as http:
        transport = streamable_http_client(f"{base}/mcp", http_client=http)
        async with Client(transport, mode="legacy") as client:  # type: ignore[arg-type]
            result = await client.call_tool(
                "odoo_core_create", {"model": "res.partner", "values": {"name": name}}
            )
    error = error_body(result)
    assert error["details"]["sent_again"] is False, error
    assert fake.call("res.partner", "search_count", [["name", "=", name]]) == 1
