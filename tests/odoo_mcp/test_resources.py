"""SPEC-06 resources: URI parsing, the workflow table, and the reader on the fake Odoo 19."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
from mcp import Client

from fake_odoo.handle import FakeOdoo
from mcp_servers import fake_config, fake_connection, fake_server
from odoo_mcp.errors import ToolError
from odoo_mcp.formatting import FormatOptions
from odoo_mcp.registry import ModelRegistry
from odoo_mcp.resources.reader import ResourceContext, read_resource
from odoo_mcp.resources.uris import InvalidResourceUri, parse_uri
from odoo_mcp.resources.workflows import workflow_for
from odoo_mcp.safety import SafetyError, SafetyPolicy
from odoo_mcp.tools.context import ToolContext

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("uri", "kind", "model", "extra"),
    [
        ("odoo://system/info", "system_info", None, {}),
        ("odoo://config/safety", "config_safety", None, {}),
        ("odoo://model/sale.order/states", "model_states", "sale.order", {}),
        ("odoo://record/res.partner/7", "record", "res.partner", {"record_id": 7}),
        ("odoo://record/res.partner", "listing", "res.partner", {"limit": 20}),
        ("odoo://record/res.partner?limit=500", "listing", "res.partner", {"limit": 100}),
        (
            "odoo://record/sale.order?domain=%5B%5B%22state%22%2C%22%3D%22%2C%22draft%22%5D%5D",
            "listing", "sale.order", {"domain": (["state", "=", "draft"],)},
        ),
    ],
)  # fmt: skip
def test_uris_parse(uri: str, kind: str, model: str | None, extra: dict[str, object]) -> None:
    ref = parse_uri(uri)
    assert (ref.kind, ref.model) == (kind, model)
    for key, value in extra.items():
        assert getattr(ref, key) == value


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        ("http://system/info", "odoo:// scheme"),
        ("odoo://system/secrets", "unknown resource"),
        ("odoo://record/res.partner/abc", "positive integer"),
        ("odoo://record/Res Partner/1", "not a model name"),
        ("odoo://record/res.partner?domain=[oops", "not JSON"),
        ("odoo://record/res.partner?domain=%7B%7D", "JSON list"),
        ("odoo://record/res.partner?limit=0", "at least 1"),
        ("odoo://record/res.partner?order=name", "unknown parameter"),
    ],
)
def test_bad_uris_say_why(uri: str, message: str) -> None:
    with pytest.raises(InvalidResourceUri, match=message):
        parse_uri(uri)


def test_workflow_table_follows_the_version() -> None:
    old, new = workflow_for("sale.order", 16), workflow_for("sale.order", 19)
    assert old is not None and new is not None
    assert any(t.to_state == "done" for t in old.transitions)
    assert not any(t.to_state == "done" for t in new.transitions)
    assert workflow_for("res.partner", 19) is None


@pytest.fixture(scope="module")
def fake() -> FakeOdoo:
    return FakeOdoo("19.0")


@pytest.fixture
async def rc(fake: FakeOdoo) -> AsyncIterator[ResourceContext]:
    connection = fake_connection(fake_config(), fake)
    await connection.connect()
    tools = ToolContext(
        odoo=connection,
        registry=ModelRegistry(connection),
        policy=SafetyPolicy(field_blocklist=["phone"]),
        formatting=FormatOptions(),
        tool_names=("odoo_core_search_read",),
    )
    yield ResourceContext(tools, "0.1.0")
    await connection.close()


async def test_record_resource_costs_one_read_once_metadata_is_cached(
    rc: ResourceContext, fake: FakeOdoo
) -> None:
    await read_resource(rc, "odoo://model/res.partner/fields")
    fake.reset_calls()
    data = await read_resource(rc, "odoo://record/res.partner/9")
    assert data["record"]["name"] == "Acme Corporation" and "phone" not in data["record"]
    assert fake.call_counts() == 1


async def test_refusals_are_errors(rc: ResourceContext, fake: FakeOdoo) -> None:
    with pytest.raises(SafetyError):
        await read_resource(rc, "odoo://record/ir.cron/1")
    with pytest.raises(ToolError) as caught:
        await read_resource(rc, "odoo://record/res.partner/987654")
    assert caught.value.code == "NOT_FOUND"


async def test_system_toolsets_names_the_connection_in_the_served_server() -> None:
    """REQ-06-04 / REQ-03-19 (issue 14): the served server routes calls per caller; its
    toolsets resource and tool still give the Odoo URL (it was always "")."""
    async with Client(fake_server(FakeOdoo("19.0")), mode="legacy") as client:
        resource = await client.read_resource("odoo://system/toolsets")
        text = resource.contents[0].text  # type: ignore[union-attr]
        tool = await client.call_tool("odoo_core_list_toolsets", {})
    assert json.loads(text)["connection"] == "http://fake-odoo.test"
    assert tool.structured_content is not None
    assert tool.structured_content["connection"] == "http://fake-odoo.test"


async def test_system_info_gives_the_users_name_not_the_login() -> None:
    """REQ-06-02 (issue 14): "user": {"uid": 2, "name": "Mitchell Admin"}, read once."""
    fake = FakeOdoo("19.0")
    async with Client(fake_server(fake), mode="legacy") as client:
        first = await client.read_resource("odoo://system/info")
        fake.reset_calls()
        again = await client.read_resource("odoo://system/info")
    user = json.loads(first.contents[0].text)["user"]  # type: ignore[union-attr]
    assert user == {"uid": 2, "name": "Mitchell Admin"}
    assert json.loads(again.contents[0].text)["user"] == user  # type: ignore[union-attr]
    assert fake.call_counts(model="res.users") == 0  # the name is read once


async def test_system_info_falls_back_to_the_login_where_res_users_is_blocked() -> None:
    fake = FakeOdoo("19.0")
    async with Client(fake_server(fake, model_blocklist="res.users"), mode="legacy") as client:
        info = await client.read_resource("odoo://system/info")
    assert json.loads(info.contents[0].text)["user"]["name"] == "admin"  # type: ignore[union-attr]
    assert fake.call_counts(model="res.users", method="read") == 0
