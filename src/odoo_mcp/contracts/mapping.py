"""REQ-LUJ-04/11/13: Odoo states to contract statuses, SPEC-10 errors to contract codes."""

from __future__ import annotations

from typing import Final, Literal

from odoo_mcp.errors import ErrorResponse
from odoo_mcp.errors.categories import ErrorCategory

__all__ = ["CONTRACT_CODES", "contract_code", "delivery_status", "order_status", "utc"]

OrderStatus = Literal["draft", "confirmed", "done", "cancel"]
DeliveryStatus = Literal["pending", "in_transit", "delivered", "failed"]


def order_status(state: str, locked: bool, major: int | None) -> OrderStatus:
    """REQ-LUJ-04: sale.order state -> draft/confirmed/done/cancel.

    Quotations (draft, sent) are draft; a confirmed order is confirmed, or done once locked
    (Odoo 17+ locks with a flag; up to 16 the state itself is ``done``); cancel is cancel.
    """
    if state in ("draft", "sent"):
        return "draft"
    if state == "cancel":
        return "cancel"
    if state == "done" or (state == "sale" and locked and (major is None or major >= 17)):
        return "done"
    return "confirmed"


def delivery_status(state: str) -> DeliveryStatus:
    """REQ-LUJ-11: stock.picking state -> pending/in_transit/delivered/failed.

    Not yet ready (draft, waiting, confirmed) is pending; ready to ship (assigned) is in
    transit; done is delivered; cancelled is failed.
    """
    statuses: dict[str, DeliveryStatus] = {
        "assigned": "in_transit",
        "done": "delivered",
        "cancel": "failed",
    }
    return statuses.get(state, "pending")


#: REQ-LUJ-13: SPEC-10 category -> contract error code
CONTRACT_CODES: Final[dict[ErrorCategory, str]] = {
    ErrorCategory.NOT_FOUND: "NOT_FOUND",
    ErrorCategory.VALIDATION: "INVALID_PARAMS",
    ErrorCategory.ACCESS: "UNAUTHORIZED",
}


def contract_code(response: ErrorResponse) -> str:
    """REQ-LUJ-13: the contract's code for a classified error (TIMEOUT kept from SPEC-10)."""
    if response.code == "TIMEOUT":
        return "TIMEOUT"
    return CONTRACT_CODES.get(response.category, "INTERNAL_ERROR")


def utc(value: object) -> str | None:
    """REQ-LUJ-02/10: Odoo's 'YYYY-MM-DD HH:MM:SS' (UTC) as ISO 8601 with Z."""
    if not isinstance(value, str) or not value:
        return None
    return value.replace(" ", "T") + ("Z" if len(value) > 10 else "T00:00:00Z")
