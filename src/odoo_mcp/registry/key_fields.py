"""Decision 10: the key fields of a record (REQ-06-10), which SPEC-07 leaves undefined."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from odoo_mcp.registry.fields import FieldInfo

__all__ = ["KEY_FIELDS", "BlockedFieldCheck", "key_fields"]

#: decision 10: per-model default fields for well-known models (filtered by what exists)
KEY_FIELDS: Final[Mapping[str, tuple[str, ...]]] = {
    "res.partner": (
        "id",
        "name",
        "display_name",
        "is_company",
        "parent_id",
        "email",
        "phone",
        "street",
        "city",
        "zip",
        "country_id",
        "vat",
        "company_id",
        "active",
    ),
    "sale.order": (
        "id",
        "name",
        "partner_id",
        "date_order",
        "state",
        "user_id",
        "amount_untaxed",
        "amount_tax",
        "amount_total",
        "currency_id",
        "invoice_status",
        "company_id",
    ),
    "sale.order.line": (
        "id",
        "order_id",
        "product_id",
        "name",
        "product_uom_qty",
        "price_unit",
        "price_subtotal",
        "price_total",
        "qty_delivered",
        "qty_invoiced",
    ),
    "account.move": (
        "id",
        "name",
        "partner_id",
        "move_type",
        "state",
        "invoice_date",
        "invoice_date_due",
        "amount_untaxed",
        "amount_tax",
        "amount_total",
        "amount_residual",
        "currency_id",
        "payment_state",
    ),
    "stock.picking": (
        "id",
        "name",
        "partner_id",
        "picking_type_id",
        "state",
        "scheduled_date",
        "date_done",
        "origin",
        "location_id",
        "location_dest_id",
    ),
    "product.product": (
        "id",
        "name",
        "default_code",
        "barcode",
        "list_price",
        "standard_price",
        "type",
        "categ_id",
        "uom_id",
        "active",
    ),
    "crm.lead": (
        "id",
        "name",
        "partner_id",
        "email_from",
        "phone",
        "stage_id",
        "user_id",
        "team_id",
        "expected_revenue",
        "probability",
        "type",
        "active",
    ),
}

BlockedFieldCheck = Callable[[str, str], bool]
"""``is_field_blocked(model, field)``: supplied by the safety layer (decision 11)."""


def key_fields(
    model: str,
    fields: Mapping[str, FieldInfo],
    is_field_blocked: BlockedFieldCheck | None = None,
) -> list[str]:
    """REQ-06-10: decision 10: a well-known model's list, else stored non-binary non-x2many."""

    def allowed(name: str) -> bool:
        return is_field_blocked is None or not is_field_blocked(model, name)

    preset = KEY_FIELDS.get(model)
    if preset is not None:
        return [name for name in preset if name in fields and allowed(name)]
    return [
        name
        for name, info in fields.items()
        if info.store and info.type != "binary" and not info.is_x2many and allowed(name)
    ]
