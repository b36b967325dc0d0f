"""SPEC-04 §3.8 REQ-04-27: summaries of the actions the captured Odoo 19 returned (FLOWS §2).

The backorder and SMS wizards are exercised end to end in ``test_core_execute``; here the other
shapes: a record to open, a list with a domain, and the non-window action types.
"""

from __future__ import annotations

from typing import Any

import pytest

from odoo_mcp.tools.core_actions import is_action, summarize_action


def test_payment_action_opens_the_record() -> None:
    action = {
        "name": "Payments",
        "type": "ir.actions.act_window",
        "res_model": "account.payment",
        "context": {"create": False},
        "view_mode": "form",
        "res_id": 7,
    }
    summary = summarize_action(action)
    assert summary.summary == "Opens account.payment form view for record 7"
    assert summary.model_dump(exclude={"summary"}) == {
        "type": "ir.actions.act_window",
        "name": "Payments",
        "res_model": "account.payment",
        "res_id": 7,
        "view_mode": "form",
        "context": {"create": False},
    }


def test_lead_conversion_keeps_its_domain() -> None:
    action = {
        "name": "Lead or Opportunity",
        "view_mode": "form",
        "res_model": "crm.lead",
        "domain": [["type", "=", "opportunity"]],
        "res_id": False,
        "view_id": False,
        "type": "ir.actions.act_window",
        "context": {"default_type": "opportunity"},
    }
    summary = summarize_action(action)
    assert summary.res_id is None and summary.domain == [["type", "=", "opportunity"]]
    assert summary.summary.startswith("Opens crm.lead form view of the records matching")


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ({"type": "ir.actions.act_url", "url": "/web/x"}, "Opens the URL /web/x"),
        ({"type": "ir.actions.report", "report_name": "sale.report"}, "Prints the report"),
        ({"type": "ir.actions.act_window_close"}, "Closes the dialog"),
        ({"type": "ir.actions.client", "tag": "reload"}, "Runs the web client action"),
    ],
)
def test_other_action_types_are_summarized(action: dict[str, Any], expected: str) -> None:
    assert is_action(action)
    assert summarize_action(action).summary.startswith(expected)


def test_plain_dicts_are_values_not_actions() -> None:
    assert not is_action({"type": "contact", "name": "x"})
    assert not is_action([{"type": "ir.actions.act_window"}])
