"""SPEC-04 §3.7, §3.9-3.10: fields_get, name_get and default_get on the fake Odoo.

Run at 16.0, 17.0 and 19.0 over each version's default protocol; the call log shows the
round trips (name_get is ``name_get`` up to 16 and a ``read`` of display_name from 17).
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from fake_odoo.handle import FakeOdoo
from odoo_mcp.context import ServerContext
from odoo_mcp.safety import SafetyError
from odoo_mcp.tools.core_meta import (
    TOOLS,
    DefaultGetInput,
    FieldsGetInput,
    NameGetInput,
    default_get,
    fields_get,
    name_get,
)

pytestmark = pytest.mark.anyio


# -- odoo_core_fields_get --------------------------------------------------------------------


async def test_fields_get_summarizes_for_an_llm(ctx: ServerContext) -> None:
    result = await fields_get(ctx, FieldsGetInput(model="sale.order"))
    assert result.field_count == len(result.fields) > 10
    partner = result.fields["partner_id"]
    assert (partner["label"], partner["type"], partner["relation"]) == (
        "Customer",
        "many2one",
        "res.partner",
    )
    assert "string" not in partner and set(partner) >= {"required", "readonly"}
    state = result.fields["state"]
    assert ["draft", "Quotation"] in state["selection"] and "relation" not in state
    assert all(set(f) <= {"label", "type", "required", "readonly", "help", "selection",
                          "relation"} for f in result.fields.values())  # fmt: skip


async def test_fields_get_comes_from_the_cache(ctx: ServerContext, fake: FakeOdoo) -> None:
    await fields_get(ctx, FieldsGetInput(model="res.partner"))
    assert fake.call_counts() == fake.call_counts(method="fields_get") == 1
    again = await fields_get(ctx, FieldsGetInput(model="res.partner", attributes=["type"]))
    assert fake.call_counts() == 1
    assert again.fields["name"] == {"type": "char"}


async def test_fields_get_star_asks_odoo_for_every_attribute(
    ctx: ServerContext, fake: FakeOdoo
) -> None:
    result = await fields_get(ctx, FieldsGetInput(model="res.partner", attributes=["*"]))
    assert fake.call_counts(method="fields_get") == 1
    name = result.fields["name"]
    assert name["label"] and name["type"] == "char" and "string" not in name
    assert len(name) > 4


async def test_blocked_fields_are_absent_from_fields_get(ctx: ServerContext) -> None:
    users = await fields_get(ctx, FieldsGetInput(model="res.users"))
    assert "login" in users.fields and "password" not in users.fields
    every = await fields_get(ctx, FieldsGetInput(model="res.users", attributes=["*"]))
    assert "password" not in every.fields
    assert every.field_count == len(every.fields)


async def test_fields_get_of_a_blocked_model_is_refused(ctx: ServerContext, fake: FakeOdoo) -> None:
    with pytest.raises(SafetyError):
        await fields_get(ctx, FieldsGetInput(model="ir.config_parameter"))
    assert fake.call_counts() == 0


# -- odoo_core_name_get ----------------------------------------------------------------------


async def test_name_get_in_one_round_trip(ctx: ServerContext, fake: FakeOdoo) -> None:
    result = await name_get(ctx, NameGetInput(model="res.partner", ids=[1, 999999, 1]))
    assert result.model_dump() == {
        "model": "res.partner",
        "names": [{"id": 1, "name": "YourCompany"}],
    }
    assert fake.call_counts() == 1
    method = "name_get" if fake.version == "16.0" else "read"
    assert fake.call_counts(model="res.partner", method=method) == 1


async def test_name_get_bounds_and_blocks(ctx: ServerContext, fake: FakeOdoo) -> None:
    with pytest.raises(ValidationError):
        NameGetInput(model="res.partner", ids=list(range(1, 202)))
    with pytest.raises(ValidationError):
        NameGetInput.model_validate({"model": "res.partner", "ids": [1], "context": {}})
    with pytest.raises(SafetyError):
        await name_get(ctx, NameGetInput(model="ir.cron", ids=[1]))
    assert fake.call_counts() == 0


# -- odoo_core_default_get -------------------------------------------------------------------


async def test_default_get_gives_normalized_defaults(ctx: ServerContext, fake: FakeOdoo) -> None:
    wanted = ["state", "company_id", "date_order"]
    result = await default_get(ctx, DefaultGetInput(model="sale.order", fields=wanted))
    assert result.defaults["state"] == "draft" and result.defaults["company_id"] == 1
    assert result.defaults["date_order"].endswith("Z")
    fake.reset_calls()
    await default_get(ctx, DefaultGetInput(model="sale.order", fields=wanted))
    assert fake.call_counts() == fake.call_counts(method="default_get") == 1


async def test_default_get_of_every_field(ctx: ServerContext) -> None:
    result = await default_get(ctx, DefaultGetInput(model="sale.order"))
    assert result.model == "sale.order" and result.defaults["state"] == "draft"


async def test_default_get_of_a_blocked_field_is_refused(
    ctx: ServerContext, fake: FakeOdoo
) -> None:
    with pytest.raises(SafetyError):
        await default_get(ctx, DefaultGetInput(model="res.users", fields=["password"]))
    assert fake.call_counts() == 0


def test_input_schemas_carry_the_spec_bounds() -> None:
    attributes = FieldsGetInput.model_json_schema()["properties"]["attributes"]
    assert attributes["default"] == [
        "string", "type", "required", "readonly", "help", "selection", "relation",
    ]  # fmt: skip
    ids = NameGetInput.model_json_schema()["properties"]["ids"]
    assert (ids["minItems"], ids["maxItems"]) == (1, 200)
    assert DefaultGetInput.model_json_schema()["properties"]["fields"]["default"] == []


def test_meta_tools_are_read_tools() -> None:
    assert [tool.name for tool in TOOLS] == [
        "odoo_core_fields_get",
        "odoo_core_name_get",
        "odoo_core_default_get",
    ]
    assert all(tool.kind == "read" for tool in TOOLS)
