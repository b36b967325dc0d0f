"""REQ-11-14 (issue 26): the Odoo context any tool takes is checked by the dispatcher for keys
that name a blocked field, before the tool runs (one place for every tool)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import Client

from fake_odoo.handle import FakeOdoo
from mcp_servers import fake_server

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("odoo_core_search_read", {"model": "res.partner", "fields": ["name"], "limit": 2}),
        ("odoo_core_count", {"model": "res.partner"}),
        ("odoo_core_execute", {"model": "res.partner", "method": "search_count", "args": [[]]}),
    ],
)
@pytest.mark.parametrize(
    "context", [{"show_email": True}, {"group_by": "email"}, {"search_default_email": "a"}]
)
async def test_a_context_key_naming_a_blocked_field_is_refused_for_any_tool(
    tool: str, arguments: dict[str, Any], context: dict[str, Any]
) -> None:
    fake = FakeOdoo("19.0")
    server = fake_server(fake, mode="full", field_blocklist="email")
    async with Client(server, mode="legacy") as client:
        fake.reset_calls()
        refused = await client.call_tool(tool, {**arguments, "context": context})
        # nothing but metadata reached Odoo for the refused call
        assert fake.call_counts() == fake.call_counts(method="fields_get")
        allowed = await client.call_tool(tool, {**arguments, "context": {"lang": "en_US"}})
    assert refused.is_error and not allowed.is_error
    body = json.loads(refused.content[0].text)  # type: ignore[union-attr]
    assert body["code"] == "FIELD_BLOCKED"
