"""Issue 26, item 8: malformed input is refused with a proper error, never -32603 or code 0.

A fuzzer found four ways in: operators that are lists or objects inside a domain, odd
resource URIs, JSON-RPC requests whose id is not a string or an integer, and resources or
prompts asked for while Odoo is down.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import Client

from fake_odoo.handle import FakeOdoo
from mcp_servers import fake_server
from odoo_mcp.domain import DomainError, parse_domain

pytestmark = pytest.mark.anyio

#: leaves whose operator (or the operator of the leaf inside 'any') is a list or an object
UNHASHABLE_OPERATORS: list[list[Any]] = [
    [["name", ["="], "x"]],
    [["name", {"a": 1}, "x"]],
    [["child_ids", "any", [["name", ["="], "x"]]]],
    [["child_ids", "not any", [["name", {"a": 1}, "x"]]]],
    ["|", ["child_ids", "any", [["name", [], "x"]]], ["id", "=", 1]],
]


@pytest.mark.parametrize("domain", UNHASHABLE_OPERATORS)
def test_an_operator_that_is_a_list_or_an_object_is_an_invalid_domain(
    domain: list[Any],
) -> None:
    with pytest.raises(DomainError) as caught:
        parse_domain(domain)
    assert caught.value.code == "INVALID_DOMAIN"
    assert "unsupported operator" in caught.value.message
    parse_domain(caught.value.example)  # the correction is itself a valid domain


@pytest.mark.parametrize("tool", ["odoo_core_search_read", "odoo_core_count"])
@pytest.mark.parametrize("domain", UNHASHABLE_OPERATORS)
async def test_the_search_tools_answer_a_list_operator_with_the_invalid_domain_tool_error(
    tool: str, domain: list[Any]
) -> None:
    async with Client(fake_server(FakeOdoo("19.0")), mode="legacy") as client:
        result = await client.call_tool(tool, {"model": "res.partner", "domain": domain})
    assert result.is_error
    payload = json.loads(result.content[0].text)  # type: ignore[union-attr]
    assert (payload["code"], payload["category"]) == ("INVALID_DOMAIN", "validation")


def _nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    "domain",
    [[["name", "=", _nested(3000)]], [["name", _nested(3000), 1]], _nested(3000)],
    ids=["value", "operator", "domain"],
)
def test_a_domain_nested_thousands_deep_is_an_invalid_domain(domain: list[Any]) -> None:
    with pytest.raises(DomainError) as caught:
        parse_domain(domain)
    assert caught.value.code == "INVALID_DOMAIN"
