"""Edge arguments through a real MCP client, on a fake Odoo 19.0 over JSON-2 (the protocol
``auto`` picks there): the cases the property of test_random_arguments.py found or aims at,
written out: each was a bug once (a JSON-RPC error code 0, -32603, or worse, a path that
reached another model than the one the safety checks saw).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from e2e_checks import error_payload, payload, rpc_error_data
from mcp import Client, MCPError
from mcp.types import INVALID_PARAMS

from fake_odoo.handle import FakeOdoo
from mcp_servers import fake_server

pytestmark = pytest.mark.anyio


@dataclass(frozen=True)
class Full:
    client: Client
    fake: FakeOdoo


@pytest.fixture(scope="module")
async def full() -> AsyncIterator[Full]:
    """Full mode on a fake of its own (the bugs below write where they should not)."""
    fake = FakeOdoo("19.0")
    async with Client(fake_server(fake, mode="full"), mode="legacy") as client:
        yield Full(client, fake)


async def _answer(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A SPEC-10 error, as a tool result or as JSON-RPC -32602: either is a fair refusal."""
    try:
        result = await client.call_tool(tool, arguments)
    except MCPError as exc:
        return rpc_error_data(exc, INVALID_PARAMS)
    return error_payload(result)


async def test_huge_integers_over_json2(full: Full) -> None:
    """Integers beyond 32 and 64 bits pass JSON-2: no record has such an id."""
    for value in (2**31, 2**63, 10**30):
        read = await full.client.call_tool(
            "odoo_core_read", {"model": "res.partner", "ids": [value]}
        )
        assert payload(read) == {"records": [], "missing_ids": [value]}
        found = await full.client.call_tool(
            "odoo_core_search_read",
            {"model": "res.partner", "domain": [["id", "in", [value]]], "offset": value},
        )
        assert payload(found)["records"] == []


async def test_non_ascii_model_name_is_model_not_found(full: Full) -> None:
    refused = error_payload(await full.client.call_tool("odoo_core_count", {"model": "中.é"}))
    assert refused["code"] == "MODEL_NOT_FOUND"


@pytest.mark.parametrize(
    "domain", [[["name", "=", {"a": 1}]], ["&", "|"], [[["name", "=", "x"]]], [42]]
)
async def test_malformed_domains_are_invalid_domain(full: Full, domain: list[Any]) -> None:
    """REQ-04a-13/14: refused before any Odoo call, with a corrected example."""
    full.fake.reset_calls()
    refused = error_payload(
        await full.client.call_tool("odoo_core_count", {"model": "res.partner", "domain": domain})
    )
    assert (refused["category"], refused["code"]) == ("validation", "INVALID_DOMAIN")
    assert full.fake.call_counts(service="object") == 0


@pytest.mark.parametrize("tool", ["odoo_core_count", "odoo_core_search_read"])
async def test_domain_as_a_string_is_invalid_domain(full: Full, tool: str) -> None:
    refused = await _answer(
        full.client, tool, {"model": "res.partner", "domain": "[('name', '=', 'x')]"}
    )
    assert refused["code"] in ("INVALID_DOMAIN", "INVALID_PARAMS")


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("odoo_core_count", {"model": "res.partner\n"}),
        ("odoo_core_count", {"model": "\x1f"}),
        ("odoo_core_execute", {"model": "res.partner", "method": "search_count\x00"}),
    ],
)
async def test_control_characters_in_url_parts_are_refused(
    full: Full, tool: str, arguments: dict[str, Any]
) -> None:
    await _answer(full.client, tool, arguments)


async def test_dot_segments_cannot_reach_a_write_protected_model(full: Full) -> None:
    full.fake.reset_calls()
    before = full.fake.read("res.users", [6], ["name"])
    try:
        await _answer(
            full.client,
            "odoo_core_write",
            {"model": "res.partner/../res.users", "ids": [6], "values": {"name": "pwned"}},
        )
    finally:
        after = full.fake.read("res.users", [6], ["name"])
        full.fake.edit("res.users", 6, {"name": before[0]["name"]})
    assert after == before
    assert full.fake.call_counts(model="res.users", method="write") == 0


async def test_dot_segments_cannot_reach_a_blocked_model(full: Full) -> None:
    blocked = error_payload(
        await full.client.call_tool("odoo_core_search_read", {"model": "ir.config_parameter"})
    )
    assert blocked["code"] == "MODEL_BLOCKED"  # the plain name is refused...
    full.fake.reset_calls()
    await _answer(
        full.client,
        "odoo_core_search_read",
        {"model": "res.partner/../ir.config_parameter", "fields": ["key", "value"]},
    )  # ...and so must be the same model behind dot segments
    assert full.fake.call_counts(model="ir.config_parameter") == 0


@pytest.mark.parametrize("protocol", ["xmlrpc", "jsonrpc"])
async def test_malformed_names_are_refused_on_every_protocol(protocol: str) -> None:
    """REQ-11-07: the name check sits below every tool, whatever the protocol."""
    fake = FakeOdoo("19.0")
    async with Client(
        fake_server(fake, mode="full", odoo_protocol=protocol), mode="legacy"
    ) as client:
        fake.reset_calls()
        refused = await _answer(
            client, "odoo_core_search_read", {"model": "res.partner/../ir.config_parameter"}
        )
        assert refused["code"] == "MODEL_NOT_FOUND"
        refused = await _answer(
            client, "odoo_core_execute", {"model": "res.partner", "method": "search_count()"}
        )
        assert refused["code"] == "METHOD_NOT_FOUND"
        assert fake.call_counts(service="object") == 0


async def test_integers_beyond_32_bits_over_xmlrpc_are_a_validation_error() -> None:
    """XML-RPC cannot carry them: refused with the reason instead of -32603, nothing sent."""
    fake = FakeOdoo("19.0")
    async with Client(fake_server(fake, odoo_protocol="xmlrpc"), mode="legacy") as client:
        await client.call_tool("odoo_core_count", {"model": "res.partner"})  # logged in
        fake.reset_calls()
        refused = await _answer(client, "odoo_core_read", {"model": "res.partner", "ids": [2**31]})
        assert (refused["category"], refused["code"]) == ("validation", "INVALID_ARGUMENT")
        assert "32 bits" in refused["message"]
        assert fake.call_counts(method="read") == 0
        # the largest id XML-RPC carries is a plain missing record
        read = await client.call_tool(
            "odoo_core_read", {"model": "res.partner", "ids": [2**31 - 1]}
        )
        assert payload(read) == {"records": [], "missing_ids": [2**31 - 1]}
