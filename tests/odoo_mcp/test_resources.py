"""SPEC-06 resources: URI parsing, the workflow table, and the reader on the fake Odoo 19."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from importlib.resources import files

import pytest
from jsonschema import Draft202012Validator
from mcp import Client

from fake_odoo.handle import FakeOdoo
from mcp_servers import fake_config, fake_connection, fake_server
from odoo_mcp.context import ServerContext
from odoo_mcp.errors import ToolError
from odoo_mcp.formatting import FormatOptions
from odoo_mcp.registry import ModelRegistry
from odoo_mcp.registry.workflows import workflow_for
from odoo_mcp.resources.reader import read_resource
from odoo_mcp.resources.uris import InvalidResourceUri, parse_uri
from odoo_mcp.safety import SafetyError, SafetyPolicy
from odoo_mcp.toolsets import ToolsetRegistry
from odoo_mcp.toolsets.core import CoreToolset

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
async def rc(fake: FakeOdoo) -> AsyncIterator[ServerContext]:
    connection = fake_connection(fake_config(), fake)
    await connection.connect()
    toolsets = ToolsetRegistry([CoreToolset()])
    await toolsets.discover_and_register(connection)
    yield ServerContext(
        odoo=connection,
        registry=ModelRegistry(connection),
        policy=SafetyPolicy(field_blocklist=["phone"]),
        formatting=FormatOptions(),
        toolsets=toolsets,
        server_version="0.1.0",
    )
    await connection.close()


async def test_record_resource_costs_one_read_once_metadata_is_cached(
    rc: ServerContext, fake: FakeOdoo
) -> None:
    await read_resource(rc, "odoo://model/res.partner/fields")
    fake.reset_calls()
    data = await read_resource(rc, "odoo://record/res.partner/9")
    assert data["record"]["name"] == "Acme Corporation" and "phone" not in data["record"]
    assert fake.call_counts() == 1


async def test_refusals_are_errors(rc: ServerContext, fake: FakeOdoo) -> None:
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


@pytest.mark.req("REQ-02a-12")
@pytest.mark.parametrize(("version", "protocol"), [("16.0", "xmlrpc"), ("19.0", "json2")])
async def test_system_info_shows_the_version_the_connection_detected(
    version: str, protocol: str
) -> None:
    async with Client(fake_server(FakeOdoo(version)), mode="legacy") as client:
        info = json.loads((await client.read_resource("odoo://system/info")).contents[0].text)  # type: ignore[union-attr]
    assert (info["server_version"], info["protocol"]) == (version, protocol)


async def test_system_info_falls_back_to_the_login_where_res_users_is_blocked() -> None:
    fake = FakeOdoo("19.0")
    async with Client(fake_server(fake, model_blocklist="res.users"), mode="legacy") as client:
        info = await client.read_resource("odoo://system/info")
    assert json.loads(info.contents[0].text)["user"]["name"] == "admin"  # type: ignore[union-attr]
    assert fake.call_counts(model="res.users", method="read") == 0


def _kit_schema(name: str) -> dict[str, object]:
    path = files("odoo_mcp_conformance") / "schemas" / "spec06" / f"{name}.json"
    schema: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return schema


async def test_served_resources_match_the_kits_seed_schemas() -> None:
    """REQ-06-02..08: the reference answers fit the shapes the kit takes from the seed;
    REQ-06-14: system/info shows the poll interval (60 s unless configured)."""
    uris = {
        "system_info": "odoo://system/info", "system_modules": "odoo://system/modules",
        "system_toolsets": "odoo://system/toolsets", "config_safety": "odoo://config/safety",
        "model_methods": "odoo://model/sale.order/methods",
        "model_states": "odoo://model/sale.order/states",
    }  # fmt: skip
    async with Client(fake_server(FakeOdoo("19.0")), mode="legacy") as client:
        for name, uri in uris.items():
            answer = await client.read_resource(uri)
            data = json.loads(answer.contents[0].text)  # type: ignore[union-attr]
            Draft202012Validator(_kit_schema(name)).validate(data)
            if name == "system_info":
                assert data["subscription_poll_interval"] == 60
        listed = {str(r.uri): r for r in (await client.list_resources()).resources}
        templates = {
            t.uri_template: t for t in (await client.list_resource_templates()).resource_templates
        }
    info = listed["odoo://system/info"]
    assert (info.name, info.mime_type, info.description) == (
        "Odoo Instance Info", "application/json",
        "Connection details, Odoo version, and server capabilities",
    )  # fmt: skip
    fields = templates["odoo://model/{model_name}/fields"]
    assert (fields.name, fields.description) == (
        "Model Fields",
        "Field definitions for an Odoo model. Example: odoo://model/sale.order/fields",
    )
    record = templates["odoo://record/{model_name}/{record_id}"]
    assert (record.name, record.description) == (
        "Odoo Record", "Read a specific Odoo record by model and ID",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("name", "example"),
    [
        ("system_info", {"server_version": "17.0", "server_edition": "enterprise",
                         "database": "mycompany", "url": "https://mycompany.odoo.com",
                         "protocol": "json2", "user": {"uid": 2, "name": "Admin"},
                         "mcp_server_version": "0.1.0"}),
        ("system_modules", {"modules": [{"name": "sale", "state": "installed",
                                         "shortdesc": "Sales"}], "count": 85}),
        ("config_safety", {"operation_mode": "restricted",
                           "model_allowlist": ["sale.order", "res.partner"],
                           "model_blocklist": [], "rate_limit": {"calls_per_minute": 60}}),
        ("model_methods", {"model": "sale.order", "methods": [
            {"name": "action_confirm", "description": "Confirm", "accepts_kwargs": False}]}),
        ("model_states", {"model": "sale.order", "state_field": "state",
                          "states": [{"value": "draft", "label": "Quotation"}],
                          "transitions": [{"from": "draft", "to": "sale",
                                           "method": "action_confirm"}]}),
    ],
)  # fmt: skip
def test_the_kits_schemas_accept_the_seeds_own_examples(
    name: str, example: dict[str, object]
) -> None:
    """The schemas are written from SPEC-06's examples: each example (abridged lists) fits,
    and dropping any key the seed shows does not."""
    validator = Draft202012Validator(_kit_schema(name))
    validator.validate(example)
    for key in example:
        assert not validator.is_valid({k: v for k, v in example.items() if k != key}), key
