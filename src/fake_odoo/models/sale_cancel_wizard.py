"""Odoo 17's ``sale.order.cancel`` (module sale): the "Cancel Sales Order" wizard.

On 17 ``sale.order.action_cancel`` on an order past draft returns this wizard's action
instead of cancelling (flow_sale_order_cancel_wizard.json); its ``action_cancel`` cancels
the order with ``disable_cancel_warning``.  Odoo 19 has neither the wizard nor the detour.
The mail-composer fields are kept for ``fields_get``; no mail is ever sent.
"""

from __future__ import annotations

from typing import Any

from fake_odoo.orm import fields
from fake_odoo.orm.model import TransientModel

CANCEL_VIEW_ID = 1159  # sale.sale_order_cancel_view_form on the captured 17 server
CANCEL_TEMPLATE_ID = 20  # sale.mail_template_sale_cancellation on the captured 17 server
SALESMAN = "sales_team.group_sale_salesman"


def cancel_wizard_action(order: Any) -> dict[str, Any]:
    """The act_window 17's ``action_cancel`` returns for one order past draft."""
    order.ensure_one()
    type_name = order.sudo().type_name
    return {
        "name": f"Cancel {type_name}",
        "view_mode": "form",
        "res_model": "sale.order.cancel",
        "view_id": CANCEL_VIEW_ID,
        "type": "ir.actions.act_window",
        "context": {
            "default_template_id": CANCEL_TEMPLATE_ID,
            "default_order_id": order.id,
            "mark_so_as_canceled": True,
            "default_email_layout_xmlid": (
                "mail.mail_notification_layout_with_responsible_signature"
            ),
            "model_description": type_name,
        },
        "target": "new",
    }


class SaleOrderCancel(TransientModel):
    _name = "sale.order.cancel"
    _description = "Sales Order Cancel"
    _access = {SALESMAN: "rwcu"}
    _max_version = 17

    lang = fields.Char("Language", compute="_compute_lang", store=False, readonly=False)
    render_model = fields.Char("Rendering Model", compute="_compute_render_model", store=False)
    subject = fields.Char("Subject", compute="_compute_subject", store=False, readonly=False)
    body = fields.Html("Contents", compute="_compute_body", store=False, readonly=False)
    body_has_template_value = fields.Boolean(
        "Body content is the same as the template",
        compute="_compute_body_has_template_value",
        store=False,
    )
    template_id = fields.Many2one("mail.template", "Mail Template")
    is_mail_template_editor = fields.Boolean("Is Editor", compute="_compute_editor", store=False)
    can_edit_body = fields.Boolean("Can Edit Body", compute="_compute_editor", store=False)
    author_id = fields.Many2one("res.partner", "Author", default=lambda env: env.user.partner_id.id)
    recipient_ids = fields.Many2many(
        "res.partner",
        string="Recipients",
        compute="_compute_recipient_ids",
        store=False,
        readonly=False,
    )
    order_id = fields.Many2one("sale.order", "Sale Order", required=True, ondelete="cascade")
    display_invoice_alert = fields.Boolean(
        "Invoice Alert", compute="_compute_display_invoice_alert", store=False
    )
    display_delivery_alert = fields.Boolean(
        "Delivery Alert", compute="_compute_display_delivery_alert", store=False
    )

    def _cancelled_order(self) -> Any:
        return self.sudo().order_id

    def _compute_lang(self) -> Any:
        return self._cancelled_order().partner_id.lang or False

    def _compute_render_model(self) -> Any:
        return "sale.order"

    def _compute_subject(self) -> Any:
        order = self._cancelled_order()
        if not order:
            return False
        # the template's subject: "{company} {type name} Cancelled (Ref {name})"
        return f"{order.company_id.name} {order.type_name} Cancelled (Ref {order.name or 'n/a'})"

    def _compute_body(self) -> Any:
        return False

    def _compute_body_has_template_value(self) -> Any:
        return False

    def _compute_editor(self) -> Any:
        return True

    def _compute_recipient_ids(self) -> Any:
        return self._cancelled_order().partner_id.ids

    def _compute_display_invoice_alert(self) -> Any:
        return bool(self._cancelled_order().invoice_ids.filtered(lambda m: m.state == "draft"))

    def _compute_display_delivery_alert(self) -> Any:
        order = self._cancelled_order()
        if "picking_ids" not in order._fields:
            return False
        return bool(order.picking_ids.filtered(lambda p: p.state == "done"))

    def action_cancel(self) -> Any:
        return self.order_id.with_context(disable_cancel_warning=True).action_cancel()

    def action_send_mail_and_cancel(self) -> Any:
        self.ensure_one()  # no mail leaves the fake: cancelling is what a client can observe
        return self.action_cancel()
