"""Issue 13: a name search must not be an oracle on a blocked field (REQ-11-14, decision 11).

Odoo 19's res.partner name search also matches ``email``, ``ref``, ``vat`` and
``company_registry``; with ``email`` blocked, a name search for "@example" (or a condition on
``display_name``, which runs the same search) would tell which partners hold such an address.
Through a real MCP client on a fake Odoo 19.0 over JSON-2.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from e2e_checks import error_payload, payload
from mcp import Client

from fake_odoo.handle import FakeOdoo
from mcp_servers import fake_server

pytestmark = pytest.mark.anyio

#: a text only e-mail addresses of the demo partners hold, not their names
EMAIL_ONLY = "@example.com"


@pytest.fixture(scope="module")
def fake() -> FakeOdoo:
    return FakeOdoo("19.0")


@pytest.fixture(scope="module")
async def blocked(fake: FakeOdoo) -> AsyncIterator[Client]:
    server = fake_server(fake, field_blocklist="email", enabled_toolsets="core,contracts")
    async with Client(server, mode="legacy") as client:
        yield client


async def _refused(client: Client, fake: FakeOdoo, tool: str, arguments: dict[str, Any]) -> None:
    fake.reset_calls()
    answer = error_payload(await client.call_tool(tool, arguments))
    assert (answer["category"], answer["code"]) == ("access", "FIELD_BLOCKED"), answer
    # refused before any data reaches Odoo (a path is checked against field metadata)
    assert [c for c in fake.calls if c.model and c.method != "fields_get"] == []


def test_the_demo_data_would_leak_without_the_check(fake: FakeOdoo) -> None:
    """The premise: Odoo's name search matches the e-mail text, the names do not hold it."""
    matches = fake.call("res.partner", "name_search", EMAIL_ONLY, limit=100)
    assert matches
    named = fake.call("res.partner", "search", [["name", "ilike", EMAIL_ONLY]])
    assert named == []


async def test_name_search_through_execute_is_refused(blocked: Client, fake: FakeOdoo) -> None:
    by_position = {"model": "res.partner", "method": "name_search", "args": [EMAIL_ONLY]}
    await _refused(blocked, fake, "odoo_core_execute", by_position)
    by_name = {"model": "res.partner", "method": "name_search", "kwargs": {"name": EMAIL_ONLY}}
    await _refused(blocked, fake, "odoo_core_execute", by_name)


async def test_a_display_name_condition_is_refused_on_every_path(
    blocked: Client, fake: FakeOdoo
) -> None:
    condition = [["display_name", "ilike", EMAIL_ONLY]]
    await _refused(blocked, fake, "odoo_core_search_read",
                   {"model": "res.partner", "domain": condition})  # fmt: skip
    await _refused(blocked, fake, "odoo_core_count", {"model": "res.partner", "domain": condition})
    await _refused(blocked, fake, "odoo_core_search_read",
                   {"model": "sale.order",
                    "domain": [["partner_id.display_name", "ilike", EMAIL_ONLY]]})  # fmt: skip
    await _refused(blocked, fake, "odoo_core_execute",
                   {"model": "res.partner", "method": "search", "args": [condition]})  # fmt: skip


async def test_other_models_and_fields_still_search(blocked: Client) -> None:
    orders = {"model": "sale.order", "domain": [["display_name", "ilike", "S000"]], "limit": 1}
    assert payload(await blocked.call_tool("odoo_core_search_read", orders))["count"] == 1
    names = {"model": "res.partner", "domain": [["name", "ilike", "Acme"]], "fields": ["name"]}
    assert payload(await blocked.call_tool("odoo_core_search_read", names))["records"]


async def test_the_customer_search_contract_neither_matches_nor_reads_a_blocked_field(
    blocked: Client, fake: FakeOdoo
) -> None:
    answer = payload(await blocked.call_tool("customers.search", {"query": EMAIL_ONLY}))
    assert answer["customers"] == [] and answer["totalCount"] == 0
    acme = payload(await blocked.call_tool("customers.search", {"query": "Acme"}))
    assert acme["customers"] and all(c["email"] == "" for c in acme["customers"])


async def test_without_a_blocked_field_the_name_search_runs(fake: FakeOdoo) -> None:
    async with Client(fake_server(fake), mode="legacy") as client:
        search = {"model": "res.partner", "method": "name_search", "args": [EMAIL_ONLY]}
        found = payload(await client.call_tool("odoo_core_execute", search))
    assert found["result"]
