"""The "Create invoice" wizard: imitates Odoo 19's ``sale.advance.payment.inv`` (module sale).

Created with ``active_model``/``active_ids`` in the context, it invoices what the orders'
lines have to invoice (ordered or delivered quantities by invoice policy; down payments
are not imitated) and returns Odoo's "Invoices" act_window on the new draft.  As captured,
that action's context carries ``default_invoice_payment_term_id: None`` when the order has
no payment terms, which XML-RPC then fails to marshal (after the invoice is created).
"""

from __future__ import annotations

from typing import Any

from fake_odoo.models.common import vals_batch
from fake_odoo.orm import api, fields
from fake_odoo.orm.exceptions import UserError
from fake_odoo.orm.model import TransientModel

NOTHING_TO_INVOICE = (
    "Cannot create an invoice. No items are available to invoice.\n\n"
    "To resolve this issue, please ensure that:\n"
    "   \u2022 The products have been delivered before attempting to invoice them.\n"
    "   \u2022 The invoicing policy of the product is configured correctly.\n\n"
    "If you want to invoice based on ordered quantities instead:\n"
    "   \u2022 For consumable or storable products, open the product, go to the 'General"
    " Information' tab and change the 'Invoicing Policy' from 'Delivered Quantities' to"
    " 'Ordered Quantities'.\n"
    "   \u2022 For services (and other products), change the 'Invoicing Policy' to"
    " 'Prepaid/Fixed Price'.\n"
)
INVOICE_ACTION: dict[str, Any] = {  # account.action_move_out_invoice_type on the captured server
    "id": 268,
    "display_name": "Invoices",
    "name": "Invoices",
    "type": "ir.actions.act_window",
    "xml_id": "account.action_move_out_invoice_type",
    "path": "invoicing",
    "help": '<p class="o_view_nocontent_smiling_face">\n                Create a customer invoice\n'
    "              </p><p>\n                Create invoices, register payments and keep track of"
    " the discussions with your customers.\n              </p>\n            ",
    "binding_model_id": False,
    "binding_type": "action",
    "binding_view_types": "list,form",
    "view_id": [759, "account.out.invoice.list"],
    "domain": "[('move_type', 'in', ['out_invoice', 'out_refund', 'out_receipt'])]",
    "res_model": "account.move",
    "target": "current",
    "view_mode": "list,kanban,form,activity",
    "mobile_view_mode": "kanban",
    "views": [[765, "form"], [759, "list"], [False, "kanban"], [False, "activity"]],
    "limit": 80,
    "group_ids": [],
    "search_view_id": [768, "account.invoice.select"],
    "embedded_action_ids": [],
    "filter": False,
    "cache": True,
}

#: the same action on the captured Odoo 17 (flow_sale_order_invoice_payment.json, step 34):
#: "tree" views, ``groups_id``, no ``path``/``cache``/``embedded_action_ids``
INVOICE_ACTION_17: dict[str, Any] = {
    "id": 261,
    "name": "Invoices",
    "type": "ir.actions.act_window",
    "xml_id": "account.action_move_out_invoice_type",
    "help": INVOICE_ACTION["help"],
    "binding_model_id": False,
    "binding_type": "action",
    "binding_view_types": "list,form",
    "display_name": "Invoices",
    "view_id": [694, "account.out.invoice.tree"],
    "domain": "[('move_type', '=', 'out_invoice')]",
    "res_model": "account.move",
    "target": "current",
    "view_mode": "tree,kanban,form,activity",
    "mobile_view_mode": "kanban",
    "views": [[701, "form"], [694, "tree"], [False, "kanban"], [False, "activity"]],
    "limit": 80,
    "groups_id": [],
    "search_view_id": [704, "account.invoice.select"],
    "filter": False,
}


def _active_orders(env: Any) -> list[int]:
    context = env.context
    if context.get("active_model") != "sale.order":
        return []
    return list(
        context.get("active_ids") or ([context["active_id"]] if "active_id" in context else [])
    )


class SaleAdvancePaymentInv(TransientModel):
    _name = "sale.advance.payment.inv"
    _description = "Sales Advance Payment Invoice"
    _access = {"sales_team.group_sale_salesman": "rwcu"}

    advance_payment_method = fields.Selection(
        [
            ("delivered", "Regular invoice"),
            ("percentage", "Down payment (percentage)"),
            ("fixed", "Down payment (fixed amount)"),
        ],
        "Create Invoice",
        required=True,
        default="delivered",
        help="A standard invoice is issued with all the order lines ready for invoicing,"
        "according to their invoicing policy (based on ordered or delivered quantity).",
    )
    count = fields.Integer("Order Count", compute="_compute_count", store=False)
    sale_order_ids = fields.Many2many(
        "sale.order", "Sale Order", default=lambda env: _active_orders(env)
    )
    has_down_payments = fields.Boolean(
        "Has down payments", compute="_compute_has_down_payments", store=False
    )
    deduct_down_payments = fields.Boolean("Deduct down payments", default=True)
    amount = fields.Float(
        "Down Payment", help="The percentage of amount to be invoiced in advance."
    )
    fixed_amount = fields.Monetary(
        "Down Payment Amount (Fixed)", help="The fixed amount to be invoiced in advance."
    )
    currency_id = fields.Many2one("res.currency", "Currency", compute="_compute_currency")
    company_id = fields.Many2one("res.company", "Company", compute="_compute_company")
    amount_invoiced = fields.Monetary(
        "Already invoiced",
        compute="_compute_amount_invoiced",
        store=False,
        help="Only confirmed down payments are considered.",
    )
    display_draft_invoice_warning = fields.Boolean(
        "Display Draft Invoice Warning", compute="_compute_draft_warning", store=False
    )
    consolidated_billing = fields.Boolean(
        "Consolidated Billing",
        default=True,
        help="Create one invoice for all orders related to same customer, same invoicing address"
        " and same delivery address.",
    )

    def _orders(self) -> Any:
        return self.sudo()["sale_order_ids"]

    def _first_order(self) -> Any:
        orders = self._orders()
        return orders.browse(orders.ids[:1])

    def _compute_count(self) -> Any:
        return len(self._orders())

    def _compute_has_down_payments(self) -> Any:
        return False

    def _compute_currency(self) -> Any:
        return self._first_order().currency_id.id or 1

    def _compute_company(self) -> Any:
        return self._first_order().company_id.id or 1

    def _compute_amount_invoiced(self) -> Any:
        return 0.0

    def _compute_draft_warning(self) -> Any:
        drafts = self._orders().mapped("invoice_ids")
        return any(move.state == "draft" for move in drafts)

    @api.model
    def create(self, vals_list: Any) -> Any:
        batch = vals_batch(vals_list)
        for vals in batch:
            if not vals.get("sale_order_ids"):
                vals["sale_order_ids"] = [(6, 0, _active_orders(self.env))]
        return super().create(batch)

    def create_invoices(self) -> Any:
        orders: Any = self["sale_order_ids"]
        if not orders:
            orders = self.env["sale.order"].browse(_active_orders(self.env))
        invoices = orders._create_invoices()
        action = INVOICE_ACTION_17 if self.env.major <= 17 else INVOICE_ACTION
        if len(invoices) != 1:
            return {**action, "domain": [("id", "in", invoices.ids)]}
        order = orders.sudo().browse(orders.ids[:1])
        context = {
            "default_move_type": "out_invoice",
            "default_partner_id": order.partner_id.id,
            "default_partner_shipping_id": order.partner_shipping_id.id,
            "default_invoice_payment_term_id": order.payment_term_id.id or None,
        }
        if self.env.major <= 17:  # 17 also names the origin (flow_sale_order_invoice_payment)
            context["default_invoice_origin"] = order.name
        return {**action, "context": context, "res_id": invoices.id}


class SaleOrderInvoicing:
    """Mixin of ``sale.order``: ``_create_invoices`` (private over RPC, as in Odoo)."""

    def _create_invoices(self: Any) -> Any:
        moves = self.env["account.move"]
        for order in self.sudo():
            lines = [
                line
                for line in order.order_line
                if not line.display_type and line.qty_to_invoice > 0
            ]
            if not lines:
                continue
            commands = [
                (
                    0,
                    0,
                    {
                        "product_id": line.product_id.id,
                        "name": line.name,
                        "quantity": line.qty_to_invoice,
                        "price_unit": line.price_unit,
                        "discount": line.discount or 0.0,
                        "tax_ids": [(6, 0, line._taxes().ids)],
                        "sale_line_ids": [(6, 0, [line.id])],
                    },
                )
                for line in lines
            ]
            moves |= moves.sudo().create(
                {
                    "move_type": "out_invoice",
                    "partner_id": order.partner_invoice_id.id,
                    "invoice_origin": order.name,
                    "ref": order.name,
                    "invoice_user_id": order.user_id.id,
                    "invoice_payment_term_id": order.payment_term_id.id,
                    "journal_id": 1,
                    "invoice_line_ids": commands,
                }
            )
        if not moves:
            raise UserError(NOTHING_TO_INVOICE)
        return moves
