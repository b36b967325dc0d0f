"""REQ-04-36 through ``odoo_core_execute``: binary fields only when the caller names them.

The server is the one ``odoo-mcp serve`` builds (``build_server`` over a real connection),
driven by an MCP client, on the in-process fake Odoo 19.0 over each wire protocol. Partner 9
carries an image; ``read`` and ``search_read`` without a field list must neither return nor
fetch it, a ``fields`` keyword (stripped by REQ-04-26) must still restrict the answer, and a
binary field named explicitly comes back as base64.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.types import CallToolResult

from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import FakeOdooTransport
from mcp_servers import fake_config
from odoo_mcp.adapter.server import build_server
from odoo_mcp.connection import ConnectionManager

pytestmark = pytest.mark.anyio

IMAGE = "aGVsbG8="  # base64 of "hello"
PROTOCOLS = ("json2", "jsonrpc", "xmlrpc")


class _Recording(FakeOdooTransport):
    """The fake's transport, keeping every request body (what the server asked Odoo)."""

    def __init__(self, app: Any) -> None:
        super().__init__(app=app)
        self.bodies: list[bytes] = []

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        self.bodies.append(request.content)
        return await super().handle_async_request(request)


@pytest.fixture(scope="module")
def fake() -> FakeOdoo:
    handle = FakeOdoo("19.0")
    handle.edit("res.partner", 9, {"image_1920": IMAGE})
    return handle


@pytest.fixture
def transport(fake: FakeOdoo) -> _Recording:
    return _Recording(fake.app)


@pytest.fixture(params=PROTOCOLS)
async def client(
    fake: FakeOdoo, transport: _Recording, request: pytest.FixtureRequest
) -> AsyncIterator[Client]:
    config = fake_config(odoo_protocol=request.param, mode="full")
    connection = ConnectionManager(config.connection_settings(), transport=transport)
    async with Client(build_server(config, connection), mode="legacy") as mcp_client:
        yield mcp_client


def _payload(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result
    text = result.content[0]
    assert text.type == "text"
    data: dict[str, Any] = json.loads(text.text)
    return data


async def _binary_fields(client: Client) -> set[str]:
    answer = await client.call_tool(
        "odoo_core_fields_get", {"model": "res.partner", "attributes": ["type"]}
    )
    fields = _payload(answer)["fields"]
    return {name for name, info in fields.items() if info.get("type") == "binary"}


async def _execute(client: Client, method: str, args: list[Any], **extra: Any) -> dict[str, Any]:
    arguments = {"model": "res.partner", "method": method, "args": args, **extra}
    return _payload(await client.call_tool("odoo_core_execute", arguments))


@pytest.mark.parametrize(("method", "args"), [("read", [[9]]), ("search_read", [[["id", "=", 9]]])])
async def test_no_binary_field_by_default(
    client: Client, transport: _Recording, method: str, args: list[Any]
) -> None:
    """REQ-04-36: execute read/search_read without a field list returns no binary field,
    and the server does not even fetch them from Odoo (the image never crosses the wire)."""
    binary = await _binary_fields(client)
    assert "image_1920" in binary
    transport.bodies.clear()
    answer = await _execute(client, method, args)
    (record,) = answer["result"]
    assert record["id"] == 9 and record["name"]
    assert binary.isdisjoint(record), sorted(binary & set(record))
    assert len(record) > 10  # still the record's other fields, not only the default three
    assert not any(b"image_1920" in body for body in transport.bodies)


@pytest.mark.parametrize(("method", "args"), [("read", [[9]]), ("search_read", [[["id", "=", 9]]])])
async def test_fields_keyword_is_kept_and_said(
    client: Client, method: str, args: list[Any]
) -> None:
    """REQ-04-26 / REQ-04-36: the ``fields`` keyword is carried over as the positional
    argument Odoo's signature has, not lost with the stripped kwargs; the warning says so."""
    answer = await _execute(client, method, args, kwargs={"fields": ["name", "image_1920"]})
    (record,) = answer["result"]
    assert set(record) == {"id", "name", "image_1920"}
    assert record["image_1920"] == IMAGE
    (warning,) = answer["warnings"]
    assert "fields" in warning and "positional" in warning


async def test_search_read_keywords_become_positional(client: Client) -> None:
    """REQ-04-26: search_read's offset, limit and order keywords are kept too."""
    domain = [["is_company", "=", True]]
    every = await _execute(client, "search_read", [domain, ["name"]], kwargs={"order": "id"})
    ids = [row["id"] for row in every["result"]]
    assert ids == sorted(ids) and len(ids) > 3
    page = await _execute(
        client,
        "search_read",
        [domain],
        kwargs={"fields": ["name"], "offset": 1, "limit": 2, "order": "id desc"},
    )
    assert [row["id"] for row in page["result"]] == sorted(ids, reverse=True)[1:3]
    assert {key for row in page["result"] for key in row} == {"id", "name"}


@pytest.mark.parametrize(
    ("method", "args"),
    [("read", [[9], ["name", "image_1920"]]), ("search_read", [[["id", "=", 9]], ["image_1920"]])],
)
async def test_binary_named_positionally_comes_back(
    client: Client, method: str, args: list[Any]
) -> None:
    """REQ-04-36: a binary field the caller names comes back, as base64."""
    answer = await _execute(client, method, args)
    (record,) = answer["result"]
    assert record["image_1920"] == IMAGE
    assert "image_128" not in record and "warnings" not in answer


async def test_name_search_is_unaffected(client: Client) -> None:
    """name_search is no record read: its pairs come back as Odoo gives them."""
    answer = await _execute(client, "name_search", ["Acme"])
    assert answer["result"] and all(
        isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], int)
        for pair in answer["result"]
    )


async def test_positional_fields_win_over_the_keyword(client: Client) -> None:
    """REQ-04-26: a slot given positionally keeps its value; the keyword is said ignored."""
    answer = await _execute(client, "read", [[9], ["name"]], kwargs={"fields": ["email"]})
    (record,) = answer["result"]
    assert set(record) == {"id", "name"}
    (warning,) = answer["warnings"]
    assert "fields ignored" in warning
