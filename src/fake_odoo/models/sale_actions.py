"""The buttons of a sales order, imitating ``sale.order``'s action_* methods (sale,
sale_stock).  Return values are Odoo's: True for confirm/cancel/draft, None for
lock/unlock/mark-as-sent (which XML-RPC then fails to marshal, as the real server does).
"""

from __future__ import annotations

from typing import Any

from fake_odoo.models.product import is_storable
from fake_odoo.models.sale_cancel_wizard import cancel_wizard_action
from fake_odoo.orm.exceptions import UserError
from fake_odoo.orm.model import Model


class SaleOrderActions(Model):
    """Mixin of ``sale.order`` (no ``_name``): its state-changing methods."""

    def _is_locked(self) -> bool:
        if self.env.major >= 17:
            return bool(self.locked)
        return bool(self.state == "done")

    def action_quotation_sent(self) -> None:
        if any(order.state != "draft" for order in self.sudo()):
            raise UserError("Only draft orders can be marked as sent directly.")
        self.write({"state": "sent"})

    def action_confirm(self) -> bool:
        if any(order.state not in ("draft", "sent") for order in self):
            if self.env.major <= 17:  # 17 names every order (flow_three_wire_forms_sale_order)
                names = ", ".join(str(o.display_name) for o in self.sudo())
                raise UserError(
                    f"The following orders are not in a state requiring confirmation: {names}"
                )
            raise UserError("Some orders are not in a state requiring confirmation.")
        self.write({"state": "sale", "date_order": self.env.db.now_str()})
        for order in self:
            order.sudo()._create_delivery()
            order.sudo().order_line._recompute()
        self.sudo()._recompute()
        return True

    def _create_delivery(self) -> Any:
        """One outgoing picking with a move per goods line (sale_stock's procurement)."""
        if "picking_ids" not in self._fields:  # no sale_stock: confirming delivers nothing
            return None
        lines = [
            line
            for line in self.order_line
            if line.product_id and line.product_id.type != "service" and not line.display_type
        ]
        if not lines:
            return self.env["stock.picking"]
        picking_type = self.env["stock.picking.type"].search([("code", "=", "outgoing")], limit=1)
        moves = []
        for line in lines:
            moves.append(
                (
                    0,
                    0,
                    {
                        "product_id": line.product_id.id,
                        "product_uom_qty": line.product_uom_qty,
                        "sale_line_id": line.id,
                        "origin": self.name,
                        "partner_id": self.partner_shipping_id.id,
                    },
                )
            )
        picking = self.env["stock.picking"].create(
            {
                "picking_type_id": picking_type.id,
                "partner_id": self.partner_shipping_id.id,
                "origin": self.name,
                "sale_id": self.id,
                "move_type": self.picking_policy,
                "move_ids": moves,
            }
        )
        picking.action_confirm()
        if any(is_storable(line.product_id) for line in lines) or True:
            picking.action_assign()
        return picking

    def action_cancel(self) -> Any:
        if any(order._is_locked() for order in self.sudo()):
            raise UserError("You cannot cancel a locked order. Please unlock it first.")
        if self._show_cancel_wizard():
            return cancel_wizard_action(self)
        return self._action_cancel()

    def _show_cancel_wizard(self) -> bool:
        """Odoo <= 17 asks through ``sale.order.cancel`` before cancelling an order past draft,
        unless ``disable_cancel_warning`` (flow_sale_order_cancel_wizard.json); 19 never."""
        if self.env.major > 17 or self.env.context.get("disable_cancel_warning"):
            return False
        return any(order.state != "draft" for order in self.sudo())

    def _action_cancel(self) -> bool:
        for order in self.sudo():
            if "picking_ids" in order._fields:  # sale_stock cancels the open deliveries
                pickings = order.picking_ids
                open_pickings = pickings.filtered(lambda p: p.state not in ("done", "cancel"))
                if open_pickings:
                    open_pickings.action_cancel()
            drafts = order.sudo().invoice_ids.filtered(lambda m: m.state == "draft")
            if drafts:
                drafts.button_cancel()
        self.write({"state": "cancel"})
        self.sudo().order_line._recompute()
        self.sudo()._recompute()
        return True

    def action_draft(self) -> bool:
        orders = self.filtered(lambda o: o.state in ("cancel", "sent"))
        if orders:
            orders.write({"state": "draft"})
            orders.sudo().order_line._recompute()
            orders.sudo()._recompute()
        return True

    def action_lock(self) -> None:
        if self.env.major >= 17:
            self.write({"locked": True})
        else:
            self.write({"state": "done"})

    def action_unlock(self) -> None:
        if self.env.major >= 17:
            self.write({"locked": False})
        else:
            self.filtered(lambda o: o.state == "done").write({"state": "sale"})

    def action_done(self) -> bool:
        # Odoo 17 replaced the "done" state by the locked flag and dropped this button.
        if self.env.major >= 17:
            raise AttributeError("The method 'sale.order.action_done' does not exist")
        self.write({"state": "done"})
        return True
