"""Sales orders: imitates Odoo's ``sale.order`` (modules sale, sale_stock, sale_management);
``crm.team``, ``product.pricelist`` and ``quotation.document`` live in ``sale_team``.

State machine as captured on Odoo 19: draft -> sent -> sale, cancel, back to draft, with
``locked`` as a boolean from 17; Odoo 14-16 have a ``done`` ("Locked") state instead.
Confirming creates the outgoing delivery (see ``stock_picking``), amounts come from the
lines (``sale_line``), the actions live in ``sale_actions``, and salesmen see only their
own or unassigned orders.
"""

from __future__ import annotations

from typing import Any

from fake_odoo.models.common import add_days, next_number, selection_by_version, vals_batch
from fake_odoo.models.sale_actions import SaleOrderActions
from fake_odoo.models.sale_invoice_wizard import SaleOrderInvoicing
from fake_odoo.models.sale_line import INVOICE_STATUS
from fake_odoo.orm import api, fields
from fake_odoo.orm.exceptions import UserError
from fake_odoo.orm.model import Rule

STATES_NEW = [
    ("draft", "Quotation"),
    ("sent", "Quotation Sent"),
    ("sale", "Sales Order"),
    ("cancel", "Cancelled"),
]
STATES_OLD = [
    ("draft", "Quotation"),
    ("sent", "Quotation Sent"),
    ("sale", "Sales Order"),
    ("done", "Locked"),
    ("cancel", "Cancelled"),
]
DELIVERY_STATUS = [
    ("pending", "Not Delivered"),
    ("started", "Started"),
    ("partial", "Partially Delivered"),
    ("full", "Fully Delivered"),
]
# no "started" on Odoo 17 (odoo17/meta_fields_get_sale_order.json)
DELIVERY_STATUS_17 = [s for s in DELIVERY_STATUS if s[0] != "started"]
SALESMAN = "sales_team.group_sale_salesman"
SALESMAN_ALL = "sales_team.group_sale_salesman_all_leads"
SALE_ACCESS = {SALESMAN: "rwc", "sales_team.group_sale_manager": "rwcu"}


COMPANY_DOMAIN = (
    "(company_id and ['|', ('company_id', '=', False), ('company_id', 'parent_of', [company_id])]"
    " or ['|', ('company_id', '=', False), ('company_id', 'parent_of', '')]) + ([])"
)


def own_documents(env: Any) -> list[Any]:
    return ["|", ("user_id", "=", env.uid), ("user_id", "=", False)]


SALE_RULES = [
    Rule(groups=(SALESMAN,), perms="rwcu", domain=own_documents, name="Personal Orders"),
    Rule(groups=(SALESMAN_ALL,), perms="rwcu", domain=None, name="All Orders"),
]


def order_states(model: Any) -> list[tuple[str, str]]:
    return STATES_NEW if model.env.major >= 17 else STATES_OLD


class SaleOrder(SaleOrderInvoicing, SaleOrderActions):
    _name = "sale.order"
    _description = "Sales Order"
    _order = "date_order desc, id desc"
    _access = SALE_ACCESS
    _rules = SALE_RULES
    _sql_constraints = [
        ("name_uniq", "unique(name, company_id)", "Order Reference must be unique!")
    ]

    name = fields.Char("Order Reference", required=True, default="New", copy=False)
    origin = fields.Char(
        "Source Document",
        help="Reference of the document that generated this sales order request",
    )
    client_order_ref = fields.Char("Customer Reference", copy=False)
    reference = fields.Char(
        "Payment Ref.", copy=False, help="The payment communication of this sale order."
    )
    state = fields.Selection(order_states, "Status", readonly=True, default="draft", copy=False)
    locked = fields.Boolean(
        "Locked",
        default=False,
        copy=False,
        min_version=17,
        help="Locked orders cannot be modified.",
    )
    date_order = fields.Datetime(
        "Order Date",
        required=True,
        copy=False,
        default=lambda env: env.db.now_str(),
        help="Creation date of draft/sent orders,\nConfirmation date of confirmed orders.",
    )
    validity_date = fields.Date(
        "Expiration",
        copy=False,
        help="Validity of the order, after that you will not able to sign & pay the quotation.",
    )
    commitment_date = fields.Datetime(
        "Delivery Date",
        copy=False,
        help="This is the delivery date promised to the customer. If set, the delivery order"
        " will be scheduled based on this date rather than product lead times.",
    )
    effective_date = fields.Datetime(
        "Effective Date",
        copy=False,
        readonly=True,
        help="Completion date of the first delivery order.",
    )
    # Odoo computes these (precompute), so default_get does not list them: see create().
    require_signature = fields.Boolean(
        "Online signature",
        help="Request a online signature from the customer to confirm the order.",
    )
    require_payment = fields.Boolean(
        "Online payment", help="Request a online payment from the customer to confirm the order."
    )
    partner_id = fields.Many2one(
        "res.partner", "Customer", required=True, change_default=True, domain=COMPANY_DOMAIN
    )
    partner_invoice_id = fields.Many2one("res.partner", "Invoice Address", required=True)
    partner_shipping_id = fields.Many2one("res.partner", "Delivery Address", required=True)
    user_id = fields.Many2one("res.users", "Salesperson")
    team_id = fields.Many2one("crm.team", "Sales Team")
    company_id = fields.Many2one("res.company", "Company", required=True, default=1)
    currency_id = fields.Many2one(
        "res.currency", "Currency", compute="_compute_currency", store=True
    )
    pricelist_id = fields.Many2one(
        "product.pricelist",
        "Pricelist",
        help="If you change the pricelist, only newly added lines will be affected.",
    )
    payment_term_id = fields.Many2one("account.payment.term", "Payment Terms")
    warehouse_id = fields.Many2one("stock.warehouse", "Warehouse")
    opportunity_id = fields.Many2one("crm.lead", "Opportunity")
    picking_policy = fields.Selection(
        [("direct", "As soon as possible"), ("one", "When all products are ready")],
        "Shipping Policy",
        required=True,
        default="direct",
        help="If you deliver all products at once, the delivery order will be scheduled based on"
        " the greatest product lead time. Otherwise, it will be based on the shortest.",
    )
    note = fields.Html("Terms and conditions")
    order_line = fields.One2many("sale.order.line", "order_id", "Order Lines", copy=True)
    amount_untaxed = fields.Monetary("Untaxed Amount", compute="_compute_untaxed", store=True)
    amount_tax = fields.Monetary("Taxes", compute="_compute_tax", store=True)
    amount_total = fields.Monetary(
        "Total",
        compute="_compute_total",
        store=True,
        depends=["order_line.price_subtotal", "currency_id", "company_id", "payment_term_id"],
    )
    amount_invoiced = fields.Monetary(
        "Already invoiced", compute="_compute_amount_invoiced", store=False
    )
    amount_to_invoice = fields.Monetary(
        "Un-invoiced Balance", compute="_compute_amount_to_invoice", store=False
    )
    invoice_status = fields.Selection(
        INVOICE_STATUS, "Invoice Status", compute="_compute_invoice_status", store=True
    )
    invoice_ids = fields.Many2many(
        "account.move",
        "Invoices",
        compute="_compute_invoice_ids",
        store=False,
        search="_search_invoice_ids",
    )
    invoice_count = fields.Integer("Invoice Count", compute="_compute_invoice_count", store=False)
    picking_ids = fields.One2many("stock.picking", "sale_id", "Transfers")
    delivery_count = fields.Integer(
        "Delivery Orders", compute="_compute_delivery_count", store=False
    )
    delivery_status = fields.Selection(
        selection_by_version(DELIVERY_STATUS_17, DELIVERY_STATUS),
        "Delivery Status",
        compute="_compute_delivery_status",
        store=True,
        min_version=17,
        help="Blue: Not Delivered/Started\n            Orange: Partially Delivered\n"
        "            Green: Fully Delivered",
    )
    type_name = fields.Char("Type Name", compute="_compute_type_name", store=False)
    access_url = fields.Char(
        "Portal Access URL", compute="_compute_access_url", store=False, help="Customer Portal URL"
    )
    quotation_document_ids = fields.Many2many(
        "quotation.document", "Headers/Footers", default=lambda env: [], min_version=19
    )
    create_date = fields.Datetime("Creation Date", readonly=True)

    # -- computes ---------------------------------------------------------------------------
    def _lines(self) -> Any:
        return self.sudo().order_line

    def _compute_currency(self) -> Any:
        return self.sudo().company_id.currency_id.id or 1

    def _compute_untaxed(self) -> Any:
        return round(sum(line.price_subtotal for line in self._lines()), 2)

    def _compute_tax(self) -> Any:
        return round(sum(line.price_tax for line in self._lines()), 2)

    def _compute_total(self) -> Any:
        return round(sum(line.price_total for line in self._lines()), 2)

    def _compute_invoice_status(self) -> Any:
        if self.state not in ("sale", "done"):
            return "no"
        statuses = [line.invoice_status for line in self._lines() if not line.display_type]
        if any(s == "to invoice" for s in statuses):
            return "to invoice"
        if statuses and all(s == "invoiced" for s in statuses):
            return "invoiced"
        if statuses and all(s in ("invoiced", "upselling") for s in statuses):
            return "upselling"
        return "no"

    def _compute_invoice_ids(self) -> Any:
        moves: list[int] = []
        for line in self._lines():
            for move_id in line.invoice_lines.mapped("move_id").ids:
                if move_id not in moves:
                    moves.append(move_id)
        return moves

    def _search_invoice_ids(self, operator: str, value: Any) -> list[Any]:
        moves = self.env["account.move"].sudo().search([("id", operator, value)])
        aml = self.env["account.move.line"].sudo().search([("move_id", "in", moves.ids)])
        lines = aml.mapped("sale_line_ids")
        return [("id", "in", lines.mapped("order_id").ids)]

    def _posted_invoices(self) -> Any:
        return self.sudo().invoice_ids.filtered(lambda m: m.state == "posted")

    def _compute_amount_invoiced(self) -> Any:
        total = 0.0
        for move in self._posted_invoices():
            sign = -1 if move.move_type == "out_refund" else 1
            total += sign * move.amount_total
        return round(total, 2)

    def _compute_amount_to_invoice(self) -> Any:
        state: Any = self.state
        if state not in ("sale", "done"):
            return 0.0
        return round(max(0.0, self._compute_total() - self._compute_amount_invoiced()), 2)

    def _compute_access_url(self) -> Any:
        return f"/my/orders/{self.id}"

    def _compute_invoice_count(self) -> Any:
        return len(self.sudo().invoice_ids)

    def _compute_delivery_count(self) -> Any:
        return len(self.sudo().picking_ids)

    def _compute_delivery_status(self) -> Any:
        pickings = self.sudo().picking_ids
        if not pickings or all(p.state == "cancel" for p in pickings):
            return False
        if all(p.state in ("done", "cancel") for p in pickings):
            return "full"
        if any(p.state == "done" for p in pickings):
            return "partial"
        return "pending"

    def _compute_type_name(self) -> Any:
        return "Quotation" if self.state in ("draft", "sent", "cancel") else "Sales Order"

    # -- CRUD ---------------------------------------------------------------------------------
    @api.model
    def create(self, vals_list: Any) -> Any:
        batch = vals_batch(vals_list)
        now = self.env.db.now_str()
        for vals in batch:
            if vals.get("name", "New") in ("New", False, None):
                vals["name"] = f"S{next_number(self.env, 'sale.order'):05d}"
            partner_id = vals.get("partner_id") or self.env.context.get("default_partner_id")
            if partner_id and self.env["res.partner"].sudo().browse(partner_id).exists():
                addresses = (
                    self.env["res.partner"]
                    .sudo()
                    .browse(partner_id)
                    .address_get(["invoice", "delivery"])
                )
                vals.setdefault("partner_invoice_id", addresses["invoice"])
                vals.setdefault("partner_shipping_id", addresses["delivery"])
                partner = self.env["res.partner"].sudo().browse(partner_id).commercial_partner_id
                if "property_payment_term_id" in partner._fields:
                    vals.setdefault("payment_term_id", partner.property_payment_term_id.id)
            vals.setdefault("user_id", self.env.context.get("default_user_id", self.env.uid))
            vals.setdefault("require_signature", True)
            if "warehouse_id" in self._fields:  # sale_stock installed
                vals.setdefault("warehouse_id", 1)
            if "validity_date" not in vals:
                vals["validity_date"] = add_days(vals.get("date_order") or now, 30)
            if "team_id" not in vals and self.env.ref("sales_team.team_sales_department", False):
                vals["team_id"] = self.env.ref("sales_team.team_sales_department").id
        return super().create(batch)

    def write(self, vals: dict[str, Any]) -> Any:
        if "pricelist_id" in vals and any(o.state == "sale" for o in self.sudo()):
            raise UserError("You cannot change the pricelist of a confirmed order !")
        if vals.get("partner_id") and not {"partner_invoice_id", "partner_shipping_id"} & set(vals):
            addresses = (
                self.env["res.partner"]
                .sudo()
                .browse(vals["partner_id"])
                .address_get(["invoice", "delivery"])
            )
            vals = dict(
                vals,
                partner_invoice_id=addresses["invoice"],
                partner_shipping_id=addresses["delivery"],
            )
        return super().write(vals)

    @api.ondelete(at_uninstall=False)
    def _unlink_except_draft_or_cancel(self) -> None:
        for order in self.sudo():
            if order.state not in ("draft", "cancel"):
                raise UserError(
                    "You can not delete a sent quotation or a confirmed sales order."
                    " You must first cancel it."
                )
