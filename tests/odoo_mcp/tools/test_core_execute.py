"""SPEC-04 §3.8: odoo_core_execute against the fake Odoo 16, 17 and 19.

Sale order buttons return True or None (None is XML-RPC's marshal fault on 16, a bare null on
JSON-RPC 17 and JSON-2 19: a success either way, decision 15); button_validate on a short
picking returns the backorder wizard, which the action summary explains well enough to finish
the validation with the tools alone. Refusals happen before any Odoo call.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic import ValidationError
from read_tools_env import tool_context

from fake_odoo.handle import FakeOdoo
from odoo_mcp.connection import OdooRpcError
from odoo_mcp.context import ServerContext
from odoo_mcp.safety import Mode, SafetyError, SafetyPolicy
from odoo_mcp.tools.core_execute import (
    NO_KWARGS_METHODS,
    NULL_FROM_XMLRPC_NOTE,
    NULL_NOTE,
    TOOLS,
    ExecuteInput,
    ExecuteResult,
    execute,
)
from odoo_mcp.tools.core_write import CreateInput, create

pytestmark = pytest.mark.anyio

FULL = SafetyPolicy(mode=Mode.FULL)


@pytest.fixture
async def full(fake: FakeOdoo) -> AsyncIterator[ServerContext]:
    async with tool_context(fake, policy=FULL) as context:
        yield context


def _run(model: str, method: str, *args: Any, **values: Any) -> ExecuteInput:
    return ExecuteInput.model_validate(
        {"model": model, "method": method, "args": list(args)} | values
    )


def _draft_order(fake: FakeOdoo, qty: float = 5.0) -> int:
    """A fresh quotation for one storable product in stock (copied from demo order 1)."""
    line = fake.read("sale.order.line", [1], ["product_id", "order_id"])[0]
    partner = fake.read("sale.order", [line["order_id"][0]], ["partner_id"])[0]["partner_id"]
    product = line["product_id"][0]
    vals = {"product_id": product, "product_uom_qty": qty}
    return fake.create("sale.order", {"partner_id": partner[0], "order_line": [(0, 0, vals)]})


def _state(fake: FakeOdoo, model: str, record_id: int) -> Any:
    return fake.read(model, [record_id], ["state"])[0]["state"]


# -- values -------------------------------------------------------------------------------------


async def test_action_confirm_returns_true_in_one_call(full: ServerContext, fake: FakeOdoo) -> None:
    order = _draft_order(fake)
    result = await execute(full, _run("sale.order", "action_confirm", [order]))
    assert result.model_dump() == {"result_type": "value", "result": True}
    assert fake.call_counts() == 1
    assert fake.call_counts(model="sale.order", method="action_confirm") == 1
    assert _state(fake, "sale.order", order) == "sale"


async def test_none_result_is_a_success_with_a_note(full: ServerContext, fake: FakeOdoo) -> None:
    order = _draft_order(fake)
    result = await execute(full, _run("sale.order", "action_quotation_sent", [order]))
    assert result.model_dump() == {"result_type": "value", "result": None, "note": result.note}
    xmlrpc = fake.version == "16.0"  # each version's default protocol: 16 xmlrpc, 17+ not
    assert result.note == (NULL_FROM_XMLRPC_NOTE if xmlrpc else NULL_NOTE)
    assert _state(fake, "sale.order", order) == "sent"
    assert fake.call_counts() == 1


async def test_kwargs_of_no_kwargs_methods_are_stripped(
    full: ServerContext, fake: FakeOdoo
) -> None:
    order = _draft_order(fake)
    params = _run("sale.order", "action_confirm", [order], kwargs={"force": True})
    result = await execute(full, params)
    assert result.result is True
    assert result.warnings and "force ignored" in result.warnings[0]
    assert "action_confirm" in NO_KWARGS_METHODS and len(NO_KWARGS_METHODS) == 25


async def test_an_inline_context_kwarg_is_kept(full: ServerContext, fake: FakeOdoo) -> None:
    params = _run("res.partner", "search_count", [], kwargs={"context": {"active_test": False}})
    result = await execute(full, params)
    everyone = fake.call("res.partner", "search_count", [], context={"active_test": False})
    assert (result.result, result.warnings) == (everyone, None)


async def test_kwargs_pass_through_for_other_methods(full: ServerContext) -> None:
    kwargs = {"fields": ["is_company"], "groupby": ["is_company"], "lazy": False}
    result = await execute(full, _run("res.partner", "read_group", [], kwargs=kwargs))
    assert result.warnings is None and isinstance(result.result, list)
    assert all("__count" in group for group in result.result)


# -- actions (REQ-04-27) -------------------------------------------------------------------------


async def _short_picking(full: ServerContext, fake: FakeOdoo) -> int:
    order = _draft_order(fake, qty=5)
    await execute(full, _run("sale.order", "action_confirm", [order]))
    picking = fake.read("sale.order", [order], ["picking_ids"])[0]["picking_ids"][-1]
    move = fake.read("stock.picking", [picking], ["move_ids"])[0]["move_ids"][0]
    done_field = "quantity_done" if fake.version == "16.0" else "quantity"
    fake.edit("stock.move", move, {done_field: 2})
    return int(picking)


async def test_backorder_wizard_comes_back_summarized(full: ServerContext, fake: FakeOdoo) -> None:
    picking = await _short_picking(full, fake)
    fake.reset_calls()
    result = await execute(full, _run("stock.picking", "button_validate", [picking]))
    assert result.result_type == "action" and result.action is not None
    action = result.action
    assert (action.type, action.name) == ("ir.actions.act_window", "Create Backorder?")
    assert (action.res_model, action.res_id, action.target) == (
        "stock.backorder.confirmation",
        None,
        "new",
    )
    assert action.context is not None
    assert action.context["button_validate_picking_ids"] == [picking]
    assert "odoo_core_create" in action.summary and "'process'" in action.summary
    assert "result" not in result.model_dump()
    assert fake.call_counts() == 1


async def test_following_the_summary_finishes_the_backorder(
    full: ServerContext, fake: FakeOdoo
) -> None:
    picking = await _short_picking(full, fake)
    first = await execute(full, _run("stock.picking", "button_validate", [picking]))
    assert first.action is not None and first.action.res_model is not None
    context = first.action.context
    wizard = await create(
        full, CreateInput(model=first.action.res_model, values={}, context=context)
    )
    done = await execute(
        full, _run(first.action.res_model, "process", [wizard.id], context=context)
    )
    if done.action is not None:
        # The company's first delivery also asks about SMS (stock_sms): follow that summary too.
        sms = done.action
        assert (sms.res_model, sms.target) == ("confirm.stock.sms", "new") and sms.res_id
        assert "'dont_send_sms'" in sms.summary
        params = _run(sms.res_model, "dont_send_sms", [sms.res_id], context=sms.context)
        done = await execute(full, params)
    assert done.model_dump() == {"result_type": "value", "result": True}
    assert _state(fake, "stock.picking", picking) == "done"
    backorders = fake.call("stock.picking", "search", [["backorder_id", "=", picking]])
    assert len(backorders) == 1


# -- Odoo's refusals propagate -------------------------------------------------------------------


async def test_demo_user_cannot_confirm_admins_order(fake: FakeOdoo) -> None:
    order = _draft_order(fake)
    fake.edit("sale.order", order, {"user_id": 2})
    async with tool_context(fake, login="demo", policy=FULL) as demo:
        with pytest.raises(OdooRpcError) as caught:
            await execute(demo, _run("sale.order", "action_confirm", [order]))
    assert "AccessError" in (caught.value.error_class or "")
    assert _state(fake, "sale.order", order) == "draft"


# -- safety: refused before any Odoo call --------------------------------------------------------


async def test_readonly_mode_accepts_only_read_methods(ctx: ServerContext, fake: FakeOdoo) -> None:
    with pytest.raises(SafetyError) as caught:
        await execute(ctx, _run("sale.order", "action_confirm", [1]))
    assert caught.value.code == "MODE_VIOLATION"
    assert fake.call_counts() == 0
    result = await execute(ctx, _run("sale.order", "search_count", [["state", "=", "draft"]]))
    assert isinstance(result.result, int)
    # the call, after the one fields_get that resolves its field references (cached after)
    assert fake.call_counts() - fake.call_counts(method="fields_get") == 1


@pytest.mark.parametrize(
    ("method", "code"),
    [("_create_invoices", "METHOD_BLOCKED"), ("sudo", "METHOD_BLOCKED")],
)
async def test_private_and_blocked_methods_are_refused(
    full: ServerContext, fake: FakeOdoo, method: str, code: str
) -> None:
    with pytest.raises(SafetyError) as caught:
        await execute(full, _run("sale.order", method, [1]))
    assert caught.value.code == code
    assert fake.call_counts() == 0


async def test_restricted_mode_needs_the_write_allowlist(fake: FakeOdoo) -> None:
    policy = SafetyPolicy(mode=Mode.RESTRICTED, write_allowlist=["crm.lead"])
    async with tool_context(fake, policy=policy) as restricted:
        with pytest.raises(SafetyError, match="restricted mode"):
            await execute(restricted, _run("sale.order", "action_confirm", [1]))
        assert fake.call_counts() == 0
        result = await execute(restricted, _run("sale.order", "search", [["id", "=", 1]]))
    assert result.result == [1]


async def test_res_users_changes_are_refused_in_full_mode(
    full: ServerContext, fake: FakeOdoo
) -> None:
    for method, args in [("write", [[5], {"tz": "UTC"}]), ("action_reset_password", [[5]])]:
        with pytest.raises(SafetyError) as caught:
            await execute(full, _run("res.users", method, *args))
        assert caught.value.code == "MODEL_BLOCKED"
    assert fake.call_counts() == 0


async def test_blocked_fields_in_arguments_are_refused(full: ServerContext, fake: FakeOdoo) -> None:
    calls = [
        _run("res.partner", "write", [1], {"signature": "x"}),
        _run("res.partner", "read", [1], ["name", "password"]),
        _run("res.partner", "search", [["api_key", "=", "secret"]]),
        _run("res.partner", "search_read", [], kwargs={"fields": ["totp_secret"]}),
    ]
    for params in calls:
        with pytest.raises(SafetyError) as caught:
            await execute(full, params)
        assert caught.value.code == "FIELD_BLOCKED"
    assert fake.call_counts() == 0


async def test_blocked_fields_are_dropped_from_results(full: ServerContext) -> None:
    result = await execute(full, _run("res.users", "read", [2]))
    assert result.result and "signature" not in result.result[0]
    assert "login" in result.result[0]


# -- the tool's contract -------------------------------------------------------------------------


async def test_records_read_through_execute_are_normalized(ctx: ServerContext) -> None:
    """REQ-04-35/37: 'All tool responses MUST normalize', execute's records too."""
    fields = ["country_id", "write_date", "street2", "parent_id"]
    for method, args in (("read", [[9], fields]), ("search_read", [[["id", "=", 9]], fields])):
        result = await execute(ctx, _run("res.partner", method, *args))
        assert isinstance(result.result, list)
        (row,) = result.result
        assert row["country_id"] == {"id": 233, "name": "United States"}
        assert row["write_date"].endswith("Z") and "T" in row["write_date"]
        assert (row["street2"], row["parent_id"]) == ("", None)


async def test_values_that_are_no_records_are_left_alone(ctx: ServerContext) -> None:
    result = await execute(ctx, _run("res.partner", "name_search", "Acme Corp"))
    assert isinstance(result.result, list) and result.result[0] == [9, "Acme Corporation"]
    result = await execute(ctx, _run("res.partner", "default_get", ["type"]))
    assert result.result == {"type": "contact"}


def test_input_schema_matches_the_spec() -> None:
    schema = ExecuteInput.model_json_schema()
    assert schema["required"] == ["model", "method"]
    assert set(schema["properties"]) == {"model", "method", "args", "kwargs", "context"}
    assert schema["properties"]["args"]["default"] == []
    assert schema["properties"]["kwargs"]["default"] == {}
    assert schema["additionalProperties"] is False


def test_output_schema_keeps_its_properties() -> None:
    schema = ExecuteResult.model_json_schema(mode="serialization")
    assert {"result_type", "action", "result", "note", "warnings"} <= set(schema["properties"])
    assert TOOLS[0].name == "odoo_core_execute" and TOOLS[0].result_model is ExecuteResult


def test_unknown_arguments_are_refused() -> None:
    with pytest.raises(ValidationError):
        ExecuteInput.model_validate({"model": "sale.order", "method": "x", "ids": [1]})


async def test_domain_values_are_not_taken_for_field_names(
    full: ServerContext, fake: FakeOdoo
) -> None:
    # "password" is a blocked field, but here it is the searched text, not a field
    params = _run("res.partner", "search_count", [["name", "ilike", "password"]])
    result = await execute(full, params)
    assert result.result == 0
    # the call itself, and at most the one fields_get that resolves its field references
    assert fake.call_counts(method="search_count") == 1
    assert fake.call_counts() - fake.call_counts(method="fields_get") == 1


async def test_blocked_field_at_the_end_of_a_path_is_refused(
    full: ServerContext, fake: FakeOdoo
) -> None:
    params = _run("res.partner", "search", [["user_ids.password", "=", "x"]])
    with pytest.raises(SafetyError) as caught:
        await execute(full, params)
    assert caught.value.code == "FIELD_BLOCKED"
    assert fake.call_counts() == 0


async def test_name_get_answers_on_every_version(full: ServerContext, fake: FakeOdoo) -> None:
    expected = fake.read("res.partner", [1, 3], ["display_name"])
    result = await execute(full, _run("res.partner", "name_get", [1, 3]))
    assert result.result == [[row["id"], row["display_name"]] for row in expected]
    assert fake.call_counts() == 1
    assert (result.note is not None) == (fake.version != "16.0")
