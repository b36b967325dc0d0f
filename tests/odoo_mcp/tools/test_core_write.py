"""SPEC-04 §3.3-3.5: create, write and unlink against the fake Odoo 16, 17 and 19.

Each handler runs on a ServerContext over the version's default protocol. The fake's call log
proves what reached Odoo: nothing when a safety check refuses, exactly one call otherwise
(once ``write`` has the model's field metadata cached). Records are made fresh per test
because the fakes are shared by the module.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic import ValidationError
from read_tools_env import tool_context

from fake_odoo.demo import DEMO_UID
from fake_odoo.handle import FakeOdoo
from odoo_mcp.connection import OdooRpcError
from odoo_mcp.context import ServerContext
from odoo_mcp.errors import ToolError
from odoo_mcp.safety import Mode, SafetyError, SafetyPolicy
from odoo_mcp.tools.core_write import (
    ALLOW_READONLY_KEY,
    TOOLS,
    CreateInput,
    UnlinkInput,
    WriteInput,
    create,
    unlink,
    write,
)

pytestmark = pytest.mark.anyio

FULL = SafetyPolicy(mode=Mode.FULL)
_NAME = "Write Tool Test"


@pytest.fixture
async def full(fake: FakeOdoo) -> AsyncIterator[ServerContext]:
    async with tool_context(fake, policy=FULL) as context:
        yield context


def _partner(fake: FakeOdoo, name: str = _NAME) -> int:
    return fake.create("res.partner", {"name": name})


def _name(fake: FakeOdoo, partner_id: int) -> Any:
    return fake.read("res.partner", [partner_id], ["name"])[0]["name"]


# -- round trips -----------------------------------------------------------------------------


async def test_create_returns_the_new_id_in_one_call(full: ServerContext, fake: FakeOdoo) -> None:
    """One create call once the model's metadata is cached (the first create of a model also
    costs its fields_get, for the many2one check)."""
    await full.registry.get_fields("res.partner")
    fake.reset_calls()
    params = CreateInput(model="res.partner", values={"name": "Created By Tool"})
    result = await create(full, params)
    assert result.model_dump() == {
        "id": result.id,
        "model": "res.partner",
        "message": f"Created res.partner record with ID {result.id}",
    }
    assert fake.call_counts() == 1
    assert fake.call_counts(model="res.partner", method="create") == 1
    assert _name(fake, result.id) == "Created By Tool"


async def test_create_with_x2many_commands(full: ServerContext, fake: FakeOdoo) -> None:
    line = fake.read("sale.order.line", [1], ["product_id", "order_id"])[0]
    partner = fake.read("sale.order", [line["order_id"][0]], ["partner_id"])[0]["partner_id"]
    values = {
        "partner_id": partner[0],
        "order_line": [[0, 0, {"product_id": line["product_id"][0], "product_uom_qty": 2}]],
    }
    result = await create(full, CreateInput(model="sale.order", values=values))
    order = fake.read("sale.order", [result.id], ["state", "order_line"])[0]
    assert order["state"] == "draft" and len(order["order_line"]) == 1
    assert fake.call_counts(method="create") == 1


async def test_write_updates_in_one_call_once_cached(full: ServerContext, fake: FakeOdoo) -> None:
    first, second = _partner(fake), _partner(fake)
    params = WriteInput(model="res.partner", ids=[first, second, first], values={"phone": "W1"})
    result = await write(full, params)
    assert result.model_dump() == {
        "success": True,
        "model": "res.partner",
        "ids": [first, second],
        "message": "Updated 2 res.partner record(s)",
    }
    assert fake.call_counts(method="fields_get") == 1  # the first write loads the metadata
    fake.reset_calls()
    await write(full, WriteInput(model="res.partner", ids=[first], values={"name": "W2"}))
    assert fake.call_counts() == 1
    assert fake.call_counts(model="res.partner", method="write") == 1
    rows = fake.read("res.partner", [first, second], ["name", "phone"])
    assert [(row["name"], row["phone"]) for row in rows] == [("W2", "W1"), (_NAME, "W1")]


async def test_write_renames_several_partners(full: ServerContext, fake: FakeOdoo) -> None:
    first, second = _partner(fake), _partner(fake)
    await write(full, WriteInput(model="res.partner", ids=[first, second], values={"name": "R"}))
    assert (_name(fake, first), _name(fake, second)) == ("R", "R")


async def test_unlink_deletes_in_one_call(full: ServerContext, fake: FakeOdoo) -> None:
    first, second = _partner(fake), _partner(fake)
    result = await unlink(full, UnlinkInput(model="res.partner", ids=[first, second]))
    assert result.model_dump() == {
        "success": True,
        "model": "res.partner",
        "deleted_ids": [first, second],
        "message": "Deleted 2 res.partner record(s)",
    }
    assert fake.call_counts() == 1
    assert fake.call_counts(model="res.partner", method="unlink") == 1
    assert fake.read("res.partner", [first, second], ["name"]) == []


# -- Odoo's refusals propagate ------------------------------------------------------------------


def _assert_missing(error: OdooRpcError) -> None:
    # XML-RPC fault 2 names only the UserError family; the other protocols name MissingError.
    assert "does not exist or has been deleted" in error.message
    family = "UserError" if error.protocol == "xmlrpc" else "MissingError"
    assert error.error_class == f"odoo.exceptions.{family}"


async def test_write_on_a_missing_id_raises_missing_error(full: ServerContext) -> None:
    params = WriteInput(model="res.partner", ids=[999_999], values={"name": "ghost"})
    with pytest.raises(OdooRpcError) as caught:
        await write(full, params)
    _assert_missing(caught.value)


async def test_unlink_on_a_missing_id_raises_missing_error(full: ServerContext) -> None:
    with pytest.raises(OdooRpcError) as caught:
        await unlink(full, UnlinkInput(model="res.partner", ids=[999_999]))
    _assert_missing(caught.value)


async def test_demo_user_cannot_unlink_a_sale_order(fake: FakeOdoo) -> None:
    partner = _partner(fake, "Demo's customer")
    order = fake.create("sale.order", {"partner_id": partner, "user_id": DEMO_UID})
    async with tool_context(fake, login="demo", policy=FULL) as demo:
        with pytest.raises(OdooRpcError) as caught:
            await unlink(demo, UnlinkInput(model="sale.order", ids=[order]))
    assert "AccessError" in (caught.value.error_class or "")
    assert "not allowed to delete" in caught.value.message
    assert fake.read("sale.order", [order], ["id"]) == [{"id": order}]


# -- safety: refused before any Odoo call --------------------------------------------------------


async def test_readonly_mode_refuses_every_write_tool(ctx: ServerContext, fake: FakeOdoo) -> None:
    calls = [
        create(ctx, CreateInput(model="res.partner", values={"name": "x"})),
        write(ctx, WriteInput(model="res.partner", ids=[1], values={"name": "x"})),
        unlink(ctx, UnlinkInput(model="res.partner", ids=[1])),
    ]
    for call in calls:
        with pytest.raises(SafetyError) as caught:
            await call
        assert caught.value.code == "MODE_VIOLATION"
        assert "not allowed in readonly mode" in caught.value.message
    assert fake.call_counts() == 0


async def test_restricted_mode_follows_the_write_allowlist(fake: FakeOdoo) -> None:
    policy = SafetyPolicy(mode=Mode.RESTRICTED, write_allowlist=["res.partner"])
    async with tool_context(fake, policy=policy) as restricted:
        created = await create(restricted, CreateInput(model="res.partner", values={"name": "R"}))
        assert fake.call_counts(method="create") == 1
        fake.reset_calls()
        with pytest.raises(SafetyError, match="restricted mode"):
            await create(restricted, CreateInput(model="crm.lead", values={"name": "x"}))
        with pytest.raises(SafetyError, match="Delete not allowed in restricted mode"):
            await unlink(restricted, UnlinkInput(model="res.partner", ids=[created.id]))
    assert fake.call_counts() == 0


async def test_res_users_is_refused_even_in_full_mode(full: ServerContext, fake: FakeOdoo) -> None:
    calls = [
        create(full, CreateInput(model="res.users", values={"login": "x", "name": "x"})),
        write(full, WriteInput(model="res.users", ids=[DEMO_UID], values={"tz": "UTC"})),
        unlink(full, UnlinkInput(model="res.users", ids=[DEMO_UID])),
    ]
    for call in calls:
        with pytest.raises(SafetyError) as caught:
            await call
        assert caught.value.code == "MODEL_BLOCKED"
    assert fake.call_counts() == 0


async def test_blocked_fields_in_values_are_refused(full: ServerContext, fake: FakeOdoo) -> None:
    nested = {"name": "x", "child_ids": [[0, 0, {"name": "y", "signature": "<p>z</p>"}]]}
    calls = [
        create(full, CreateInput(model="res.partner", values={"name": "x", "api_key": "k"})),
        create(full, CreateInput(model="res.partner", values=nested)),
        write(full, WriteInput(model="res.partner", ids=[1], values={"password": "p"})),
    ]
    for call in calls:
        with pytest.raises(SafetyError) as caught:
            await call
        assert caught.value.code == "FIELD_BLOCKED"
    assert fake.call_counts() == 0


async def test_write_refuses_readonly_fields(full: ServerContext, fake: FakeOdoo) -> None:
    await full.registry.get_fields("sale.order")
    fake.reset_calls()
    params = WriteInput(model="sale.order", ids=[1], values={"state": "sale", "note": "n"})
    with pytest.raises(ToolError) as caught:
        await write(full, params)
    assert caught.value.details == {"model": "sale.order", "fields": ["state"]}
    assert ALLOW_READONLY_KEY in (caught.value.suggestion or "")
    assert fake.call_counts() == 0


async def test_context_switch_allows_readonly_fields(full: ServerContext, fake: FakeOdoo) -> None:
    partner = _partner(fake)
    order = fake.create("sale.order", {"partner_id": partner})
    context = {ALLOW_READONLY_KEY: True, "lang": "en_US"}
    params = WriteInput(model="sale.order", ids=[order], values={"state": "sent"}, context=context)
    await write(full, params)
    assert fake.read("sale.order", [order], ["state"])[0]["state"] == "sent"


# -- input models = the spec's inputSchemas ------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "required", "properties"),
    [
        (CreateInput, ["model", "values"], {"model", "values", "context"}),
        (WriteInput, ["model", "ids", "values"], {"model", "ids", "values", "context"}),
        (UnlinkInput, ["model", "ids"], {"model", "ids", "context"}),
    ],
)
def test_input_schemas_match_the_spec(
    model: type[CreateInput], required: list[str], properties: set[str]
) -> None:
    schema = model.model_json_schema()
    assert schema["required"] == required
    assert set(schema["properties"]) == properties
    assert schema["additionalProperties"] is False


def test_id_bounds_follow_the_spec() -> None:
    assert WriteInput.model_json_schema()["properties"]["ids"]["maxItems"] == 100
    assert UnlinkInput.model_json_schema()["properties"]["ids"]["maxItems"] == 50
    with pytest.raises(ValidationError):
        UnlinkInput(model="res.partner", ids=list(range(1, 52)))
    with pytest.raises(ValidationError):
        WriteInput(model="res.partner", ids=[], values={})
    with pytest.raises(ValidationError):
        CreateInput.model_validate({"model": "res.partner", "values": {}, "extra": 1})


def test_tools_are_exported_with_write_kind() -> None:
    names = [(spec.name, spec.kind) for spec in TOOLS]
    assert names == [
        ("odoo_core_create", "write"),
        ("odoo_core_write", "write"),
        ("odoo_core_unlink", "write"),
    ]


@pytest.mark.parametrize("value", ["France", "75", [75, "France"], True, 0, -3])
async def test_a_many2one_takes_a_record_id_only(
    full: ServerContext, fake: FakeOdoo, value: object
) -> None:
    """Odoo would store any of these as "no country" without a word: refused before."""
    before = fake.read("res.partner", [9], ["country_id"])[0]["country_id"]
    fake.reset_calls()
    for call in (
        create(full, CreateInput(model="res.partner", values={"name": "x", "country_id": value})),
        write(full, WriteInput(model="res.partner", ids=[9], values={"country_id": value})),
    ):
        with pytest.raises(ToolError) as refused:
            await call
        assert refused.value.code == "WRONG_VALUE"
        assert refused.value.details is not None
        assert refused.value.details["relation"] == "res.country"
    assert fake.call_counts(method="create") == fake.call_counts(method="write") == 0
    assert fake.read("res.partner", [9], ["country_id"])[0]["country_id"] == before


async def test_a_many2one_can_be_emptied_or_set_by_id(full: ServerContext, fake: FakeOdoo) -> None:
    await write(full, WriteInput(model="res.partner", ids=[9], values={"country_id": False}))
    assert fake.read("res.partner", [9], ["country_id"])[0]["country_id"] is False
    france = fake.call("res.country", "search", [("code", "=", "FR")])[0]
    await write(full, WriteInput(model="res.partner", ids=[9], values={"country_id": france}))
    assert fake.read("res.partner", [9], ["country_id"])[0]["country_id"][0] == france
