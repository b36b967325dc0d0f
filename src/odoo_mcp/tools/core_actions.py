"""SPEC-04 §3.8: what an Odoo action dictionary means, told so that an LLM can act on it.

Button methods often answer an ``ir.actions.*`` dictionary instead of True (FLOWS §3.2): a
wizard to fill in (``target: "new"``: backorder, SMS, invoicing, payment, lead conversion), a
record or list to open, a URL, a report. The summary keeps the keys a client needs to go on
(``name``, ``res_model``, ``res_id``, ``context``) and says in one sentence what to do next:
a wizard has to be created (or already exists, when the action carries ``res_id``) and its
confirming method called **with the action's context**, or the wizard silently does nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from pydantic import BaseModel, Field

from odoo_mcp.tools.core_common import DomainItem

__all__ = ["WIZARD_METHODS", "ActionSummary", "is_action", "summarize_action"]

#: Confirming methods of wizards the captures show (FLOWS §2); the rest are named generically.
WIZARD_METHODS: Final[Mapping[str, tuple[str, ...]]] = {
    "stock.backorder.confirmation": ("process", "process_cancel_backorder"),
    "confirm.stock.sms": ("send_sms", "dont_send_sms"),
    "sale.advance.payment.inv": ("create_invoices",),
    "account.payment.register": ("action_create_payments",),
    "crm.lead2opportunity.partner": ("action_apply",),
}


class ActionSummary(BaseModel):
    """REQ-04-27: an action dictionary reduced to what the next call needs, plus a summary."""

    type: str
    name: str | None = Field(default=None, exclude_if=lambda value: value is None)
    res_model: str | None = Field(default=None, exclude_if=lambda value: value is None)
    res_id: int | None = Field(default=None, exclude_if=lambda value: value is None)
    view_mode: str | None = Field(default=None, exclude_if=lambda value: value is None)
    target: str | None = Field(default=None, exclude_if=lambda value: value is None)
    domain: list[DomainItem] | None = Field(default=None, exclude_if=lambda value: value is None)
    context: dict[str, Any] | None = Field(default=None, exclude_if=lambda value: value is None)
    url: str | None = Field(default=None, exclude_if=lambda value: value is None)
    report_name: str | None = Field(default=None, exclude_if=lambda value: value is None)
    tag: str | None = Field(default=None, exclude_if=lambda value: value is None)
    summary: str


def is_action(value: object) -> bool:
    """REQ-04-27: a dictionary with an ``ir.actions.*`` type is an action, not a value."""
    return isinstance(value, Mapping) and str(value.get("type", "")).startswith("ir.actions.")


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _record_id(value: object) -> int | None:
    # Odoo sends res_id false (or 0) for "no record yet".
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return None


def _first_view(view_mode: str | None) -> str:
    return (view_mode or "form").split(",")[0].strip() or "form"


def _wizard_summary(title: str, model: str, res_id: int | None) -> str:
    methods = WIZARD_METHODS.get(model)
    method = " or ".join(f"'{name}'" for name in methods) if methods else "its confirm button"
    if res_id is None:
        first = (
            f"No wizard record exists yet: create one with odoo_core_create on '{model}' "
            "(values {} are usually enough, defaults fill the rest) passing this action's "
            "context, then call"
        )
        target = "the new id"
    else:
        first = f"The wizard record {res_id} already exists: call"
        target = f"[{res_id}]"
    return (
        f"Opens the wizard {title}({model}): the operation is not finished. {first} "
        f"{method} on it with odoo_core_execute (args [{target}]) and the same context; "
        "without the context the wizard does nothing."
    )


def _window_summary(model: str, view: str, res_id: int | None, domain: object) -> str:
    if res_id is not None:
        return f"Opens {model} {view} view for record {res_id}"
    if isinstance(domain, list) and domain:
        return f"Opens {model} {view} view of the records matching domain {domain}"
    return f"Opens {model} {view} view"


def summarize_action(action: Mapping[str, Any]) -> ActionSummary:
    """REQ-04-27: name, res_model, res_id, context and a sentence on what to do next."""
    kind = str(action.get("type"))
    name = _text(action.get("name"))
    model = _text(action.get("res_model"))
    res_id = _record_id(action.get("res_id"))
    view_mode = _text(action.get("view_mode"))
    target = _text(action.get("target"))
    raw_context = action.get("context")
    context = dict(raw_context) if isinstance(raw_context, Mapping) else None
    raw_domain = action.get("domain")
    domain = raw_domain if isinstance(raw_domain, list) else None
    if kind == "ir.actions.act_window" and model:
        view = _first_view(view_mode)
        if target == "new":
            title = f"'{name}' " if name else ""
            summary = _wizard_summary(title, model, res_id)
        else:
            summary = _window_summary(model, view, res_id, domain)
    elif kind == "ir.actions.act_url":
        summary = f"Opens the URL {action.get('url')}"
    elif kind == "ir.actions.report":
        summary = f"Prints the report {action.get('report_name')}"
    elif kind == "ir.actions.act_window_close":
        summary = "Closes the dialog: the operation is finished"
    elif kind == "ir.actions.client":
        summary = f"Runs the web client action '{action.get('tag')}' (nothing to do over RPC)"
    else:
        summary = f"Returns an action of type {kind}"
    return ActionSummary(
        type=kind,
        name=name,
        res_model=model,
        res_id=res_id,
        view_mode=view_mode,
        target=target,
        domain=domain,
        context=context,
        url=_text(action.get("url")),
        report_name=_text(action.get("report_name")),
        tag=_text(action.get("tag")),
        summary=summary,
    )
