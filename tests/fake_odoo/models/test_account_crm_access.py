"""Invoices, CRM and the demo user's rights, with the captured Odoo 19 messages."""

from __future__ import annotations

import re

import pytest
from model_fixtures import make_call

from fake_odoo.orm.exceptions import AccessError, UserError


def test_invoice_lifecycle() -> None:
    call = make_call()
    line = {"product_id": 3, "quantity": 2, "price_unit": 300.0}
    inv = call(
        2,
        "account.move",
        "create",
        {"move_type": "out_invoice", "partner_id": 15, "invoice_line_ids": [[0, 0, line]]},
    )
    assert (
        call(2, "account.move", "read", [inv], ["display_name"])[0]["display_name"]
        == "Draft Invoice"
    )
    assert call(2, "account.move", "action_post", [inv]) is False
    row = call(2, "account.move", "read", [inv], ["name", "state", "amount_total"])[0]
    assert row["name"].startswith("INV/2026/") and row["amount_total"] == 600.0
    with pytest.raises(UserError, match=re.escape("readonly fields on a posted move: partner_id")):
        call(2, "account.move", "write", [inv], {"partner_id": 10})
    with pytest.raises(UserError, match=re.escape("Don’t play games")):
        call(2, "account.move", "unlink", [inv])
    with pytest.raises(UserError, match=r"must be in draft\."):
        call(2, "account.move", "action_post", [inv])
    assert call(2, "account.move", "button_draft", [inv]) is None
    with pytest.raises(UserError, match=re.escape("Only posted/cancelled journal entries")):
        call(2, "account.move", "button_draft", [inv])
    empty = call(2, "account.move", "create", {"move_type": "out_invoice", "partner_id": 15})
    with pytest.raises(UserError, match=re.escape("Even magicians can't post nothing!")):
        call(2, "account.move", "action_post", [empty])


def test_lead_won_lost() -> None:
    call = make_call()
    lead = call(2, "crm.lead", "create", {"name": "Probe", "type": "opportunity", "partner_id": 15})
    assert call(2, "crm.lead", "action_set_lost", [lead], lost_reason_id=1) is None
    assert call(2, "crm.lead", "search_count", [("id", "=", lead)]) == 0
    call(2, "crm.lead", "action_unarchive", [lead])
    assert call(2, "crm.lead", "action_set_won", [lead]) is True
    row = call(2, "crm.lead", "read", [lead], ["stage_id", "probability", "won_status"])[0]
    assert (
        row["stage_id"][1] == "Won" and row["probability"] == 100.0 and row["won_status"] == "won"
    )
    with pytest.raises(UserError, match=re.escape("A lead in a Won stage cannot be lost.")):
        call(2, "crm.lead", "action_set_lost", [lead], lost_reason_id=1)


def test_demo_user_rights() -> None:
    call = make_call()
    assert call(2, "sale.order", "search_count", []) == 39
    assert call(5, "sale.order", "search_count", []) == 17
    rights = [
        call(5, "sale.order", "check_access_rights", op, raise_exception=False)
        for op in ("read", "write", "create", "unlink")
    ]
    assert rights == [True, True, True, False]
    admin_order = call(2, "sale.order", "search", [("user_id", "=", 2)], limit=1)
    with pytest.raises(AccessError, match=re.escape("top-secret records")):
        call(5, "sale.order", "read", admin_order, ["name"])
    with pytest.raises(AccessError, match=r"modify 'Companies' \(res.company\)"):
        call(5, "res.company", "write", [1], {"phone": "1"})
    with pytest.raises(AccessError, match=re.escape("Role / Administrator")):
        call(5, "ir.config_parameter", "search", [])
    with pytest.raises(AccessError, match=re.escape("post an invoice")):
        call(5, "account.move", "action_post", call(5, "account.move", "search", [], limit=1))


def test_unlink_checks_rights_before_business_rules() -> None:
    # Odoo's @api.ondelete rules run after the ACL: the demo user, who may not delete orders,
    # hears about the rights, the administrator about the order's state.
    call = make_call()
    order = call(5, "sale.order", "create", {"partner_id": 15, "user_id": 5})
    assert call(5, "sale.order", "action_confirm", [order]) is True
    with pytest.raises(AccessError, match="not allowed to delete 'Sales Order'"):
        call(5, "sale.order", "unlink", [order])
    with pytest.raises(UserError, match="You can not delete a sent quotation") as refused:
        call(2, "sale.order", "unlink", [order])
    assert not isinstance(refused.value, AccessError)
    assert call(2, "sale.order", "search_count", [["id", "=", order]]) == 1
