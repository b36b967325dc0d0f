"""The sale module's extension of ``res.partner`` (Odoo's ``_inherit = 'res.partner'`` in
sale/models/res_partner.py), as a subclass that replaces ``ResPartner`` in the registry.

Odoo 17's sale deletes (as superuser) the partner's draft and cancelled orders, by customer,
invoice or delivery address, before deleting the partner, so only a confirmed order still
blocks it with the foreign-key error (flow_unlink_partner_referenced_orders.json); Odoo 19
refuses even for a draft (odoo19/err_xmlrpc_unlink_partner_referenced.json).
"""

from __future__ import annotations

from typing import Any

from fake_odoo.models.res_partner import ResPartner

_ADDRESS_FIELDS = ("partner_id", "partner_invoice_id", "partner_shipping_id")


def deletes_orders_with_partner(major: int) -> bool:
    """Whether deleting a partner first deletes its draft/cancelled orders (Odoo <= 17)."""
    return major <= 17


class ResPartnerSale(ResPartner):
    # no docstring on purpose: ir.model's ``info`` is the model class's own docstring
    _name = "res.partner"

    def unlink(self) -> Any:
        if deletes_orders_with_partner(self.env.major) and "sale.order" in self.env:
            # a confirmed order then still blocks the partner, and the call's transaction
            # rolls these deletions back with it
            refs: list[Any] = ["|", "|"] + [(f, "in", self.ids) for f in _ADDRESS_FIELDS]
            orders = self.env["sale.order"].sudo()
            orders.search([("state", "in", ("draft", "cancel")), *refs]).unlink()
        return super().unlink()
