"""Issue 29: every tool result the server sends is valid for a client that validates it.

A client that checks ``structuredContent`` against the tool's ``outputSchema`` (the MCP
Inspector, any strict client) must accept every success, and must be shown every error: an
error's SPEC-10 object travels as JSON text with ``isError: true`` (SPEC-10's own example),
never as structured content the schema would reject. Each tool is called once to succeed and
in each error class it can meet (not found, validation, access, safety refusal, state, Odoo
down), and each result is validated with ``jsonschema`` as such a client does.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from mcp import Client
from mcp.types import CallToolResult, TextContent

from fake_odoo.handle import FakeOdoo
from mcp_servers import fake_server

pytestmark = pytest.mark.anyio

P = "res.partner"
SUCCESSES: dict[str, dict[str, Any]] = {
    "odoo_core_search_read": {"model": P, "fields": ["name", "parent_id", "write_date"]},
    "odoo_core_read": {"model": P, "ids": [1, 3], "fields": ["name", "category_id"]},
    "odoo_core_count": {"model": P},
    "odoo_core_fields_get": {"model": P, "attributes": ["string", "type"]},
    "odoo_core_name_get": {"model": P, "ids": [1, 3]},
    "odoo_core_default_get": {"model": "sale.order", "fields": ["state", "date_order"]},
    "odoo_core_list_models": {"filter": "sale"},
    "odoo_core_list_toolsets": {},
    "odoo_core_create": {"model": P, "values": {"name": "Schema probe"}},
    "odoo_core_write": {"model": P, "ids": [1], "values": {"comment": "<p>checked</p>"}},
    "odoo_core_unlink": {"model": "crm.lead", "ids": [1]},
    "odoo_core_execute": {"model": P, "method": "search_count", "args": [[]]},
    "orders.get": {"orderId": "S00001", "includeLines": True},
    "customers.search": {"query": "Gómez"},
    "products.list": {"limit": 3},
    "deliveries.track": {"deliveryId": "WH/OUT/00019"},
}
#: (tool, arguments, the SPEC-10 / contract code expected)
ERRORS: list[tuple[str, dict[str, Any], str]] = [
    ("odoo_core_search_read", {"model": "no.such.model"}, "MODEL_NOT_FOUND"),
    ("odoo_core_search_read", {"model": P, "domain": [["nope", "=", 1]]}, "INVALID_DOMAIN"),
    ("odoo_core_read", {"model": P, "ids": [1], "fields": ["nope"]}, "INVALID_FIELD"),
    ("odoo_core_read", {"model": "ir.config_parameter", "ids": [1]}, "MODEL_BLOCKED"),
    ("odoo_core_count", {"model": "res.users.apikeys"}, "MODEL_BLOCKED"),
    ("odoo_core_fields_get", {"model": "no.such.model"}, "MODEL_NOT_FOUND"),
    ("odoo_core_name_get", {"model": "no.such.model", "ids": [1]}, "MODEL_NOT_FOUND"),
    ("odoo_core_default_get", {"model": "no.such.model"}, "MODEL_NOT_FOUND"),
    ("odoo_core_create", {"model": "sale.order", "values": {}}, "MISSING_REQUIRED_FIELD"),
    ("odoo_core_write", {"model": P, "ids": [999999], "values": {"name": "x"}}, "RECORD_NOT_FOUND"),
    ("odoo_core_unlink", {"model": "sale.order", "ids": [4]}, "CANNOT_DELETE_PROCESSED"),
    ("odoo_core_execute", {"model": P, "method": "no_such_method"}, "METHOD_NOT_FOUND"),
    ("odoo_core_execute", {"model": P, "method": "_compute_display_name"}, "METHOD_BLOCKED"),
    ("orders.get", {"orderId": "S99999"}, "NOT_FOUND"),
    ("deliveries.track", {"deliveryId": "WH/OUT/99999"}, "NOT_FOUND"),
]


@pytest.fixture(scope="module")
def fake() -> FakeOdoo:
    return FakeOdoo("19.0")


@pytest.fixture
async def client(fake: FakeOdoo) -> AsyncIterator[Client]:
    # one quick reconnection attempt: an unreachable Odoo is one of the cases
    server = fake_server(fake, mode="full", enabled_toolsets="core,contracts",
                         reconnect_max_attempts=1, reconnect_backoff_base=0.01)  # fmt: skip
    async with Client(server, mode="legacy") as connected:
        yield connected


async def _validators(client: Client) -> dict[str, Draft202012Validator]:
    tools = (await client.list_tools()).tools
    assert {tool.name for tool in tools} == set(SUCCESSES)  # a new tool needs a case here
    return {tool.name: Draft202012Validator(tool.output_schema or {}) for tool in tools}


def _valid_for_a_strict_client(validator: Draft202012Validator, result: CallToolResult) -> None:
    """What the Inspector does: structured content, when sent, must match the outputSchema."""
    if result.structured_content is not None:
        problems = [error.message for error in validator.iter_errors(result.structured_content)]
        assert problems == [], problems[:3]


def _text_json(result: CallToolResult) -> Any:
    texts = [block.text for block in result.content if isinstance(block, TextContent)]
    assert len(texts) == 1, result.content
    return json.loads(texts[0])


async def test_every_success_matches_its_output_schema(client: Client) -> None:
    validators = await _validators(client)
    for tool, arguments in SUCCESSES.items():
        result = await client.call_tool(tool, arguments)
        assert not result.is_error, (tool, result.content)
        assert result.structured_content is not None, tool
        Draft202012Validator.check_schema(validators[tool].schema)
        _valid_for_a_strict_client(validators[tool], result)


@pytest.mark.parametrize(("tool", "arguments", "code"), ERRORS)
async def test_every_error_is_shown_not_rejected(
    client: Client, tool: str, arguments: dict[str, Any], code: str
) -> None:
    validators = await _validators(client)
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    _valid_for_a_strict_client(validators[tool], result)
    assert result.structured_content is None  # not of the schema: it would hide the error
    body = _text_json(result)
    assert body["code"] == code, body
    assert isinstance(body.get("suggestion"), str) and body["suggestion"], body


async def test_an_unreachable_odoo_is_shown_too(client: Client, fake: FakeOdoo) -> None:
    validators = await _validators(client)
    fake.inject_fault(kind="http_status", status=502)
    try:
        result = await client.call_tool("odoo_core_count", {"model": P})
    finally:
        fake.clear_faults()
    assert result.is_error, result.content
    _valid_for_a_strict_client(validators["odoo_core_count"], result)
    assert _text_json(result)["category"] == "connection"
