"""Issue 26, item 8: malformed input is refused with a proper error, never -32603 or code 0.

A fuzzer found four ways in: operators that are lists or objects inside a domain, odd
resource URIs, JSON-RPC requests whose id is not a string or an integer, and resources or
prompts asked for while Odoo is down.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from mcp import Client, MCPError
from mcp.types import INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST

from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import FakeOdooTransport
from mcp_servers import fake_config, fake_server
from odoo_mcp.adapter.errors import ODOO_UNAVAILABLE
from odoo_mcp.adapter.server import build_server
from odoo_mcp.adapter.stdio import invalid_id
from odoo_mcp.connection import ConnectionManager
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


# -- stdio requests whose id is not a string or an integer (JSON-RPC 2.0 §5) ------------------


def _demo_command() -> tuple[str, list[str]]:
    script = Path(sys.executable).parent / "odoo-mcp"
    if script.exists():
        return str(script), ["demo"]
    return sys.executable, ["-m", "odoo_mcp", "demo"]


async def test_a_stdio_request_whose_id_is_not_a_string_or_an_integer_gets_invalid_request() -> (
    None
):
    """An id that is an object, an array, a float, a boolean or null makes the request
    invalid: it is answered -32600 with a null id (it was parsed as a notification and left
    unanswered). A notification still gets no answer, and the session goes on."""
    command, args = _demo_command()
    env = {name: os.environ.get(name, "") for name in ("PATH", "HOME", "PYTHONPATH")}
    process = await asyncio.create_subprocess_exec(
        command, *args, env=env, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None

    async def send(message: dict[str, Any]) -> None:
        assert process.stdin is not None
        process.stdin.write(json.dumps(message).encode() + b"\n")
        await process.stdin.drain()

    async def answer() -> dict[str, Any]:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), timeout=20)
        data: dict[str, Any] = json.loads(line)
        return data

    try:
        await send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}})  # fmt: skip
        assert (await answer())["id"] == 1
        await send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        for bad_id in ({"a": 1}, [1], 1.5, True, None):
            await send({"jsonrpc": "2.0", "id": bad_id, "method": "ping"})
            refused = await answer()
            assert refused["id"] is None, (bad_id, refused)
            assert refused["error"]["code"] == INVALID_REQUEST, (bad_id, refused)
            assert "id" in refused["error"]["message"]
        await send({"jsonrpc": "2.0", "id": 7, "method": "ping"})
        assert await answer() == {"jsonrpc": "2.0", "id": 7, "result": {}}
    finally:
        process.kill()
        await process.wait()


@pytest.mark.parametrize(
    "message",
    [
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "id": -12, "method": "ping"},
        {"jsonrpc": "2.0", "id": "a", "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"id": [1], "x": 1.5}},
        {"jsonrpc": "2.0", "id": {"a": 1}, "result": {}},  # a response: the SDK's parser's
    ],
)
def test_a_valid_id_a_notification_or_an_id_deeper_in_the_params_is_left_to_the_sdk(
    message: dict[str, Any],
) -> None:
    assert invalid_id(json.dumps(message)) is None


@pytest.mark.parametrize(
    ("request_id", "kind"),
    [({"a": 1}, "object"), ([1], "array"), (1.0, "fraction"), (False, "boolean"), (None, "null")],
)
def test_a_request_id_that_is_not_a_string_or_an_integer_is_named_in_the_refusal(
    request_id: object, kind: str
) -> None:
    line = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ping"})
    reason = invalid_id(line)
    assert reason is not None and kind in reason


# -- resources and prompts while Odoo is down (REQ-06-23, REQ-10-15) --------------------------


async def _no_sleep(delay: float) -> None:
    """No reconnection backoff in these tests."""


@pytest.fixture
async def odoo_down() -> AsyncIterator[Client]:
    """A client of the server on the fake, which refuses every connection once connected."""
    fake = FakeOdoo("19.0")
    config = fake_config()
    connection = ConnectionManager(
        config.connection_settings(), transport=FakeOdooTransport(app=fake.app), sleep=_no_sleep
    )
    async with Client(build_server(config, connection), mode="legacy") as client:
        fake.inject_fault("refuse")
        yield client


def _assert_odoo_unavailable(error: MCPError) -> None:
    assert error.code == ODOO_UNAVAILABLE != INTERNAL_ERROR
    assert isinstance(error.data, dict)
    assert error.data["category"] == "connection"
    assert error.data["code"] in ("CONNECTION_REFUSED", "CONNECTION_ERROR")
    assert error.data["retry"] is True
    assert error.message == error.data["message"]


@pytest.mark.parametrize(
    "uri",
    [
        "odoo://record/res.partner/1",
        "odoo://record/res.partner",
        "odoo://model/res.partner/fields",
        "odoo://system/modules",
    ],
)
async def test_reading_a_resource_while_odoo_is_down_is_a_connection_error_not_an_internal_one(
    odoo_down: Client, uri: str
) -> None:
    with pytest.raises(MCPError) as caught:
        await odoo_down.read_resource(uri)
    _assert_odoo_unavailable(caught.value)


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("odoo_model_guide", {"model_name": "res.partner"}),
        ("odoo_create_record", {"model_name": "res.partner"}),
        ("odoo_search_help", {"model_name": "res.partner", "query": "acme"}),
    ],
)
async def test_a_prompt_while_odoo_is_down_is_a_connection_error_not_an_internal_one(
    odoo_down: Client, name: str, arguments: dict[str, str]
) -> None:
    with pytest.raises(MCPError) as caught:
        await odoo_down.get_prompt(name, arguments)
    _assert_odoo_unavailable(caught.value)


async def test_execute_with_a_leaf_whose_operator_is_a_list_is_no_internal_error() -> None:
    args = {"model": "res.partner", "method": "search", "args": [[["name", ["="], "x"]]]}
    async with Client(fake_server(FakeOdoo("19.0"), mode="full"), mode="legacy") as client:
        result = await client.call_tool("odoo_core_execute", args)
    assert result.is_error
