"""End to end through a real MCP client, in process: fake Odoo 16.0, 17.0 and 19.0, over every
protocol each version serves (JSON-2 from 19), selected by configuration as a user would.

The kit's features (features/, run by tests/conformance) cover the behaviour in depth against
Odoo 19 over stdio; these tests pin what differs between versions and protocols.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from mcp import Client, MCPError
from mcp.types import INVALID_PARAMS, METHOD_NOT_FOUND, CallToolResult

from fake_odoo.handle import FakeOdoo
from mcp_servers import fake_server

pytestmark = pytest.mark.anyio

COMBINATIONS = [
    ("16.0", "xmlrpc"),
    ("16.0", "jsonrpc"),
    ("17.0", "xmlrpc"),
    ("17.0", "jsonrpc"),
    ("19.0", "xmlrpc"),
    ("19.0", "jsonrpc"),
    ("19.0", "json2"),
]


@pytest.fixture(scope="module")
def fakes() -> dict[str, FakeOdoo]:
    return {version: FakeOdoo(version) for version in ("16.0", "17.0", "19.0")}


async def _client(
    fake: FakeOdoo, protocol: str, *, login: str = "admin", **settings: object
) -> AsyncIterator[Client]:
    server = fake_server(fake, login=login, odoo_protocol=protocol, **settings)
    async with Client(server, mode="legacy") as client:
        yield client


def _data(result: CallToolResult) -> Any:
    assert result.content and result.content[0].type == "text"
    return json.loads(result.content[0].text)


@pytest.fixture(params=COMBINATIONS, ids=lambda c: f"{c[0]}-{c[1]}")
async def session(
    request: pytest.FixtureRequest, fakes: dict[str, FakeOdoo]
) -> AsyncIterator[tuple[Client, FakeOdoo]]:
    version, protocol = request.param
    fake = fakes[version]
    async for client in _client(fake, protocol, mode="full"):
        yield client, fake
    fake.clear_faults()


async def test_read_tools_answer_the_same_on_every_version_and_protocol(
    session: tuple[Client, FakeOdoo],
) -> None:
    client, fake = session
    names = {tool.name for tool in (await client.list_tools()).tools}
    assert len(names) == 12
    found = _data(
        await client.call_tool(
            "odoo_core_search_read",
            {"model": "res.partner", "domain": [["id", "in", [3, 9]]], "fields": ["parent_id"]},
        )
    )
    assert found["count"] == 2 and found["has_more"] is False
    by_id = {record["id"]: record for record in found["records"]}
    assert by_id[3]["parent_id"] == {"id": 1, "name": "YourCompany"}
    assert by_id[9]["parent_id"] is None
    read = _data(
        await client.call_tool(
            "odoo_core_read", {"model": "res.partner", "ids": [9, 987654], "fields": ["name"]}
        )
    )
    assert read["missing_ids"] == [987654] and read["records"][0]["name"] == "Acme Corporation"
    count = _data(await client.call_tool("odoo_core_count", {"model": "res.partner"}))
    assert count["count"] == fake.call("res.partner", "search_count", [])
    names_result = _data(
        await client.call_tool("odoo_core_name_get", {"model": "res.partner", "ids": [9]})
    )
    assert names_result["names"] == [{"id": 9, "name": "Acme Corporation"}]
    fields = _data(await client.call_tool("odoo_core_fields_get", {"model": "sale.order"}))
    assert fields["fields"]["partner_id"]["relation"] == "res.partner"


async def test_write_round_trip(session: tuple[Client, FakeOdoo]) -> None:
    client, fake = session
    created = _data(
        await client.call_tool(
            "odoo_core_create", {"model": "res.partner", "values": {"name": "E2E Partner"}}
        )
    )
    new_id = created["id"]
    written = _data(
        await client.call_tool(
            "odoo_core_write",
            {"model": "res.partner", "ids": [new_id], "values": {"function": "Tester"}},
        )
    )
    assert written["success"] is True
    assert fake.read("res.partner", [new_id], ["function"])[0]["function"] == "Tester"
    deleted = _data(
        await client.call_tool("odoo_core_unlink", {"model": "res.partner", "ids": [new_id]})
    )
    assert deleted["deleted_ids"] == [new_id]
    assert fake.call("res.partner", "search", [["id", "=", new_id]]) == []


async def test_errors_per_protocol(session: tuple[Client, FakeOdoo]) -> None:
    client, _fake = session
    missing = await client.call_tool(
        "odoo_core_write", {"model": "res.partner", "ids": [987654], "values": {"name": "x"}}
    )
    assert missing.is_error and _data(missing)["category"] == "not_found"
    unknown = await client.call_tool("odoo_core_read", {"model": "no.such", "ids": [1]})
    assert unknown.is_error and _data(unknown)["code"] == "MODEL_NOT_FOUND"
    assert "Traceback" not in unknown.content[0].text  # type: ignore[union-attr]
    with pytest.raises(MCPError) as caught:
        await client.call_tool("odoo_core_nope", {})
    assert caught.value.error.code == METHOD_NOT_FOUND
    with pytest.raises(MCPError) as caught:
        await client.call_tool("odoo_core_search_read", {"model": "res.partner", "limit": "x"})
    assert caught.value.error.code == INVALID_PARAMS


@pytest.mark.parametrize(("version", "protocol"), [("16.0", "xmlrpc"), ("19.0", "json2")])
async def test_demo_user_is_refused_what_admin_may_do(
    fakes: dict[str, FakeOdoo], version: str, protocol: str
) -> None:
    async for client in _client(fakes[version], protocol, login="demo"):
        refused = await client.call_tool(
            "odoo_core_search_read", {"model": "account.payment", "fields": ["name"]}
        )
        assert refused.is_error and _data(refused)["category"] == "access"
        models = _data(await client.call_tool("odoo_core_list_models", {"filter": "account.pay"}))
        assert "account.payment" not in [m["model"] for m in models["models"]]


async def test_one_refusal_gets_one_code_on_every_version_and_protocol(
    session: tuple[Client, FakeOdoo],
) -> None:
    """REQ-10-05 / REQ-10-07 (issue 13): the same Odoo refusal, whichever path carried it."""
    client, fake = session
    partner = fake.create("res.partner", {"name": "E2E Referenced"})
    # a confirmed order: up to 17 a draft one is deleted with its partner (batch 4)
    fake.create("sale.order", {"partner_id": partner, "state": "sale"})
    referenced = await client.call_tool(
        "odoo_core_unlink", {"model": "res.partner", "ids": [partner]}
    )
    assert referenced.is_error
    assert (_data(referenced)["category"], _data(referenced)["code"]) == (
        "constraint",
        "FK_VIOLATION",
    )
    assert fake.call("res.partner", "search", [["id", "=", partner]]) == [partner]
    nameless = await client.call_tool(
        "odoo_core_create", {"model": "res.partner", "values": {"email": "e2e@example.com"}}
    )
    assert nameless.is_error and _data(nameless)["code"] == "VALIDATION_ERROR"
    unknown = await client.call_tool(
        "odoo_core_execute", {"model": "res.partner", "method": "e2e_no_such", "args": [[1]]}
    )
    assert unknown.is_error and _data(unknown)["code"] == "METHOD_NOT_FOUND"
