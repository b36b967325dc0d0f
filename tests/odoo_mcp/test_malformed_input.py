"""Issue 26, item 8: malformed input is refused with a proper error, never -32603 or code 0.

A fuzzer found four ways in: operators that are lists or objects inside a domain, odd
resource URIs, JSON-RPC requests whose id is not a string or an integer, and resources or
prompts asked for while Odoo is down.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest
from mcp import Client, MCPError
from mcp.types import INVALID_PARAMS

from fake_odoo.handle import FakeOdoo
from mcp_servers import fake_server
from odoo_mcp.domain import DomainError, parse_domain
from odoo_mcp.resources.uris import InvalidResourceUri, parse_uri

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


# -- resources/read with odd URIs (REQ-06-01, REQ-06-23) -------------------------------------

_DEEP_DOMAIN = quote("[" * 5000 + "]" * 5000)
ODD_URIS = {
    "superscript digit": "odoo://record/res.partner/\u00b2",
    "arabic-indic digit": "odoo://record/res.partner/\u0663",
    "5000-digit id": "odoo://record/res.partner/" + "9" * 5000,
    "id beyond Odoo's integers": "odoo://record/res.partner/" + "9" * 20,
    "5000-deep domain": f"odoo://record/res.partner?domain={_DEEP_DOMAIN}",
    "superscript limit": "odoo://record/res.partner?limit=\u00b2",
    "bracketed host": "odoo://[record/res.partner/1",
}


def test_a_5000_digit_limit_is_clamped_to_100_like_any_limit_above_it() -> None:
    assert parse_uri("odoo://record/res.partner?limit=" + "9" * 5000).limit == 100


@pytest.mark.parametrize("uri", list(ODD_URIS.values()), ids=list(ODD_URIS))
def test_an_odd_uri_is_refused_as_an_invalid_resource_uri(uri: str) -> None:
    with pytest.raises(InvalidResourceUri) as caught:
        parse_uri(uri)
    assert "Traceback" not in str(caught.value)


@pytest.mark.parametrize("uri", list(ODD_URIS.values()), ids=list(ODD_URIS))
async def test_reading_an_odd_uri_answers_invalid_params_with_the_spec_10_body(uri: str) -> None:
    async with Client(fake_server(FakeOdoo("19.0")), mode="legacy") as client:
        with pytest.raises(MCPError) as caught:
            await client.read_resource(uri)
    error = caught.value
    assert error.code == INVALID_PARAMS
    assert not any(
        python in error.message
        for python in ("invalid literal", "Exceeds the limit", "recursion", "Error(", "'\\")
    )
    assert len(error.message) < 300  # a sentence quoting the URI's start, not all of it
    assert isinstance(error.data, dict)
    assert (error.data["category"], error.data["code"]) == ("validation", "INVALID_RESOURCE")
