"""SPEC-06 §4.1 / decision 8: methods, states and transitions of well-known models.

Odoo has no RPC that lists a model's methods or its workflow, so the server carries a static,
version-aware table for the models an LLM drives through buttons. Each method's description
is one sentence an LLM can act on; ``accepts_kwargs`` follows NO_KWARGS_METHODS.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from pydantic import BaseModel, ConfigDict

__all__ = ["WORKFLOWS", "MethodDoc", "Transition", "Workflow", "workflow_for"]


class MethodDoc(BaseModel):
    """REQ-06-07: one callable method of a model."""

    model_config = ConfigDict(frozen=True)

    name: str
    description: str
    accepts_kwargs: bool = False


class Transition(BaseModel):
    """REQ-06-08: the method that moves a record from one state to another."""

    model_config = ConfigDict(frozen=True, populate_by_name=True)

    from_state: str
    to_state: str
    method: str


class Workflow(BaseModel):
    """REQ-06-08: a model's state field, its methods and its transitions."""

    model_config = ConfigDict(frozen=True)

    state_field: str = "state"
    methods: tuple[MethodDoc, ...]
    transitions: tuple[Transition, ...]


def _t(source: str, target: str, method: str) -> Transition:
    return Transition(from_state=source, to_state=target, method=method)


_SALE_METHODS = (
    MethodDoc(name="action_confirm", description="Confirm the quotation into a sales order"),
    MethodDoc(name="action_cancel", description="Cancel the quotation or sales order"),
    MethodDoc(name="action_draft", description="Set a cancelled order back to quotation"),
    MethodDoc(name="action_quotation_sent", description="Mark the quotation as sent"),
)
_SALE_TRANSITIONS = (
    _t("draft", "sent", "action_quotation_sent"),
    _t("draft", "sale", "action_confirm"),
    _t("sent", "sale", "action_confirm"),
    _t("draft", "cancel", "action_cancel"),
    _t("sent", "cancel", "action_cancel"),
    _t("sale", "cancel", "action_cancel"),
    _t("cancel", "draft", "action_draft"),
)
_PURCHASE_METHODS = (
    MethodDoc(
        name="button_confirm",
        description="Confirm the RFQ into a purchase order (To Approve when the company "
        "requires a second approval)",
    ),
    MethodDoc(name="button_approve", description="Approve an order waiting for approval"),
    MethodDoc(name="button_cancel", description="Cancel the RFQ or purchase order"),
    MethodDoc(name="button_draft", description="Set a cancelled order back to RFQ"),
    MethodDoc(name="print_quotation", description="Print the RFQ and mark it as sent"),
)
_PURCHASE_TRANSITIONS = (
    _t("draft", "sent", "print_quotation"),
    _t("draft", "purchase", "button_confirm"),
    _t("sent", "purchase", "button_confirm"),
    _t("draft", "to approve", "button_confirm"),
    _t("sent", "to approve", "button_confirm"),
    _t("to approve", "purchase", "button_approve"),
    _t("draft", "cancel", "button_cancel"),
    _t("sent", "cancel", "button_cancel"),
    _t("to approve", "cancel", "button_cancel"),
    _t("purchase", "cancel", "button_cancel"),
    _t("cancel", "draft", "button_draft"),
)
WORKFLOWS: Final[Mapping[str, Mapping[str, Workflow]]] = {
    "sale.order": {
        # up to 16 a confirmed order could be set to done; from 17 locking is a flag
        "16": Workflow(
            methods=(
                *_SALE_METHODS,
                MethodDoc(name="action_done", description="Lock the sales order (state done)"),
            ),
            transitions=(*_SALE_TRANSITIONS, _t("sale", "done", "action_done")),
        ),
        "17": Workflow(
            methods=(
                *_SALE_METHODS,
                MethodDoc(name="action_lock", description="Lock the confirmed order (a flag)"),
                MethodDoc(name="action_unlock", description="Unlock a locked order"),
            ),
            transitions=_SALE_TRANSITIONS,
        ),
    },
    "account.move": {
        "14": Workflow(
            methods=(
                MethodDoc(name="action_post", description="Post the draft journal entry"),
                MethodDoc(name="button_draft", description="Reset a posted entry to draft"),
                MethodDoc(name="button_cancel", description="Cancel a draft entry"),
            ),
            transitions=(
                _t("draft", "posted", "action_post"),
                _t("posted", "draft", "button_draft"),
                _t("draft", "cancel", "button_cancel"),
                _t("cancel", "draft", "button_draft"),
            ),
        ),
    },
    "stock.picking": {
        "14": Workflow(
            methods=(
                MethodDoc(name="action_confirm", description="Mark the transfer as to do"),
                MethodDoc(name="action_assign", description="Reserve the products"),
                MethodDoc(
                    name="button_validate",
                    description="Validate the transfer (may open a backorder wizard)",
                ),
                MethodDoc(name="action_cancel", description="Cancel the transfer"),
            ),
            transitions=(
                _t("draft", "confirmed", "action_confirm"),
                _t("confirmed", "assigned", "action_assign"),
                _t("assigned", "done", "button_validate"),
                _t("confirmed", "done", "button_validate"),
                _t("draft", "cancel", "action_cancel"),
                _t("confirmed", "cancel", "action_cancel"),
                _t("assigned", "cancel", "action_cancel"),
            ),
        ),
    },
    "purchase.order": {
        # up to 17 a confirmed order is locked into state done; from 18 locking is a flag
        "14": Workflow(
            methods=(
                *_PURCHASE_METHODS,
                MethodDoc(name="button_done", description="Lock the purchase order (state done)"),
                MethodDoc(name="button_unlock", description="Unlock a locked purchase order"),
            ),
            transitions=(
                *_PURCHASE_TRANSITIONS,
                _t("purchase", "done", "button_done"),
                _t("done", "purchase", "button_unlock"),
            ),
        ),
        "18": Workflow(
            methods=(
                *_PURCHASE_METHODS,
                MethodDoc(name="button_lock", description="Lock the purchase order (a flag)"),
                MethodDoc(name="button_unlock", description="Unlock a locked purchase order"),
            ),
            transitions=_PURCHASE_TRANSITIONS,
        ),
    },
    "crm.lead": {
        "14": Workflow(
            state_field="stage_id",
            methods=(
                MethodDoc(name="action_set_won", description="Mark the opportunity as won"),
                MethodDoc(
                    name="action_set_lost",
                    description="Mark the opportunity as lost (lost_reason_id may be given)",
                    accepts_kwargs=True,
                ),
                MethodDoc(name="action_archive", description="Archive the lead"),
                MethodDoc(name="action_unarchive", description="Restore an archived lead"),
            ),
            transitions=(),
        ),
    },
}


def workflow_for(model: str, major: int | None) -> Workflow | None:
    """REQ-06-07/08: the entry of the highest version not above ``major`` (19 when unknown)."""
    versions = WORKFLOWS.get(model)
    if not versions:
        return None
    wanted = major if major is not None else 19
    usable = [int(v) for v in versions if int(v) <= wanted] or [min(int(v) for v in versions)]
    return versions[str(max(usable))]
