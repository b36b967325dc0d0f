"""Sales order and delivery state machines, with the captured Odoo 19 messages."""

from __future__ import annotations

import re

import pytest
from model_fixtures import Call, make_call

from fake_odoo.orm.exceptions import UserError

LARGE_CABINET, DESK_ORGANIZER = 3, 6  # product.product ids in the demo data


def _order(call: Call, product: int = LARGE_CABINET, qty: float = 2) -> int:
    line = {"product_id": product, "product_uom_qty": qty}
    order: int = call(2, "sale.order", "create", {"partner_id": 10, "order_line": [[0, 0, line]]})
    return order


def test_order_lifecycle() -> None:
    call = make_call()
    so = _order(call)
    row = call(2, "sale.order", "read", [so], ["state", "amount_total", "validity_date"])[0]
    assert row["state"] == "draft" and row["amount_total"] == 640.0
    assert call(2, "sale.order", "action_confirm", [so]) is True
    assert (
        call(2, "sale.order", "read", [so], ["delivery_status"])[0]["delivery_status"] == "pending"
    )
    with pytest.raises(UserError, match=re.escape("You can not delete a sent quotation")):
        call(2, "sale.order", "unlink", [so])
    assert call(2, "sale.order", "action_lock", [so]) is None
    with pytest.raises(
        UserError, match=re.escape("You cannot cancel a locked order. Please unlock it first.")
    ):
        call(2, "sale.order", "action_cancel", [so])
    call(2, "sale.order", "action_unlock", [so])
    assert call(2, "sale.order", "action_cancel", [so]) is True
    with pytest.raises(
        UserError, match=re.escape("Some orders are not in a state requiring confirmation.")
    ):
        call(2, "sale.order", "action_confirm", [so])
    assert call(2, "sale.order", "action_draft", [so]) is True
    assert call(2, "sale.order", "action_quotation_sent", [so]) is None
    with pytest.raises(
        UserError, match=re.escape("Only draft orders can be marked as sent directly.")
    ):
        call(2, "sale.order", "action_quotation_sent", [so])
    call(2, "sale.order", "action_confirm", [so])
    pickings = call(2, "sale.order", "read", [so], ["picking_ids"])[0]["picking_ids"]
    states = {r["state"] for r in call(2, "stock.picking", "read", pickings, ["state"])}
    assert states == {"cancel", "assigned"}


def _sms_warning_answered(call: Call) -> None:
    """stock_sms's one-time wizard already answered (it shows on the first delivery only)."""
    call(2, "res.company", "write", [1], {"has_received_warning_stock_sms": True})


def test_backorder_wizard() -> None:
    call = make_call()
    _sms_warning_answered(call)
    so = _order(call, qty=5)
    call(2, "sale.order", "action_confirm", [so])
    [pk] = call(2, "sale.order", "read", [so], ["picking_ids"])[0]["picking_ids"]
    [move] = call(2, "stock.picking", "read", [pk], ["move_ids"])[0]["move_ids"]
    call(2, "stock.move", "write", [move], {"quantity": 2})
    assert call(2, "stock.move", "read", [move], ["state"])[0]["state"] == "partially_available"
    action = call(2, "stock.picking", "button_validate", [pk])
    assert action["res_model"] == "stock.backorder.confirmation"
    assert action["context"]["default_pick_ids"] == [[4, pk]]
    ctx = action["context"]
    wizard = call(2, "stock.backorder.confirmation", "create", {}, context=ctx)
    assert call(2, "stock.backorder.confirmation", "process", [wizard], context=ctx) is True
    assert call(2, "stock.picking", "read", [pk], ["state"])[0]["state"] == "done"
    [back] = call(2, "stock.picking", "search_read", [("backorder_id", "=", pk)], ["state"])
    assert back["state"] == "assigned"
    assert (
        call(2, "sale.order", "read", [so], ["delivery_status"])[0]["delivery_status"] == "partial"
    )


def test_no_stock_validation() -> None:
    call = make_call()
    so = _order(call, product=DESK_ORGANIZER)
    call(2, "sale.order", "action_confirm", [so])
    [pk] = call(2, "sale.order", "read", [so], ["picking_ids"])[0]["picking_ids"]
    assert call(2, "stock.picking", "read", [pk], ["state"])[0]["state"] == "confirmed"
    with pytest.raises(UserError, match=re.escape("Transfer trouble alert!")):
        call(2, "stock.picking", "button_validate", [pk])
    assert call(2, "stock.picking", "action_cancel", [pk]) is True
    with pytest.raises(UserError, match=re.escape("Nothing to check the availability for.")):
        call(2, "stock.picking", "action_assign", [pk])


def test_full_validation_lowers_stock() -> None:
    call = make_call()
    before = call(2, "product.product", "read", [LARGE_CABINET], ["qty_available"])[0]
    so = _order(call)
    call(2, "sale.order", "action_confirm", [so])
    [pk] = call(2, "sale.order", "read", [so], ["picking_ids"])[0]["picking_ids"]
    # The company's first delivery to a partner with a phone asks about SMS (stock_sms).
    action = call(2, "stock.picking", "button_validate", [pk])
    assert action["res_model"] == "confirm.stock.sms" and action["res_id"]
    ctx = action["context"]
    assert ctx == {"button_validate_picking_ids": [pk]}
    assert call(2, "confirm.stock.sms", "dont_send_sms", [action["res_id"]], context=ctx) is True
    flags = ["has_received_warning_stock_sms", "stock_text_confirmation"]
    assert call(2, "res.company", "read", [1], flags)[0] == {
        "id": 1,
        "has_received_warning_stock_sms": True,
        "stock_text_confirmation": False,
    }
    after = call(2, "product.product", "read", [LARGE_CABINET], ["qty_available"])[0]
    assert after["qty_available"] == before["qty_available"] - 2
    with pytest.raises(
        UserError, match=re.escape("You cannot cancel a stock move that has been set")
    ):
        call(2, "stock.picking", "action_cancel", [pk])
