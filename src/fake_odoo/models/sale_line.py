"""Sales order lines: imitates Odoo's ``sale.order.line`` (sale, sale_stock).

Prices default from the product (list price, no pricelist rules), the subtotal is
``price_unit * qty * (1 - discount/100)`` and taxes are simple percentages.  Delivered and
invoiced quantities are stored computes that the stock moves and invoice lines refresh.
Odoo 19 renamed ``product_uom`` to ``product_uom_id`` and ``tax_id`` to ``tax_ids``: both
spellings are declared with version bounds.
"""

from __future__ import annotations

from typing import Any

from fake_odoo.models.common import selection_by_version, vals_batch
from fake_odoo.orm import api, fields
from fake_odoo.orm.model import Model, Rule

INVOICE_STATUS = [
    ("upselling", "Upselling Opportunity"),
    ("invoiced", "Fully Invoiced"),
    ("to invoice", "To Invoice"),
    ("no", "Nothing to Invoice"),
]
LINE_STATES = [
    ("draft", "Quotation"),
    ("sent", "Quotation Sent"),
    ("sale", "Sales Order"),
    ("done", "Locked"),
    ("cancel", "Cancelled"),
]


def _line_states(model: Any) -> list[tuple[str, str]]:
    return [s for s in LINE_STATES if s[0] != "done" or model.env.major <= 16]


def _own_lines(env: Any) -> list[Any]:
    return ["|", ("order_id.user_id", "=", env.uid), ("order_id.user_id", "=", False)]


DISPLAY_TYPES = [
    ("line_section", "Section"),
    ("line_subsection", "Subsection"),
    ("line_note", "Note"),
]
# no subsections on Odoo 17 (odoo17/meta_fields_get_sale_order_line.json)
DISPLAY_TYPES_17 = [t for t in DISPLAY_TYPES if t[0] != "line_subsection"]


class SaleOrderLine(Model):
    _name = "sale.order.line"
    _description = "Sales Order Line"
    _order = "order_id, sequence, id"
    _access = {"sales_team.group_sale_salesman": "rwcu", "sales_team.group_sale_manager": "rwcu"}
    _rules = [
        Rule(groups=("sales_team.group_sale_salesman",), domain=_own_lines),
        Rule(groups=("sales_team.group_sale_salesman_all_leads",), domain=None),
    ]

    order_id = fields.Many2one("sale.order", "Order Reference", required=True, ondelete="cascade")
    sequence = fields.Integer("Sequence", default=10)
    name = fields.Text("Description", required=True)
    display_type = fields.Selection(
        selection_by_version(DISPLAY_TYPES_17, DISPLAY_TYPES),
        "Display Type",
        default=False,
    )
    product_id = fields.Many2one("product.product", "Product", ondelete="restrict")
    product_template_id = fields.Many2one(
        "product.template",
        "Product Template",
        compute="_compute_template",
        store=False,
        readonly=False,
        search="_search_product_template_id",
    )
    product_uom_qty = fields.Float("Quantity", required=True, default=1.0)
    # Odoo computes the unit, price, discount and lead time (precompute): default_get leaves
    # them out and create() fills them.
    product_uom_id = fields.Many2one("uom.uom", "Unit", min_version=19)
    product_uom = fields.Many2one("uom.uom", "Unit of Measure", max_version=18)
    price_unit = fields.Float("Unit Price", required=True)
    discount = fields.Float("Discount (%)")
    tax_ids = fields.Many2many("account.tax", "Taxes", min_version=19)
    tax_id = fields.Many2many("account.tax", "Taxes", max_version=18)
    price_subtotal = fields.Monetary("Subtotal", compute="_compute_subtotal", store=True)
    price_tax = fields.Float("Total Tax", compute="_compute_price_tax", store=True)
    price_total = fields.Monetary("Total", compute="_compute_price_total", store=True)
    currency_id = fields.Many2one(
        "res.currency", "Currency", compute="_compute_currency", store=True
    )
    company_id = fields.Many2one("res.company", "Company", compute="_compute_company", store=True)
    order_partner_id = fields.Many2one(
        "res.partner", "Customer", compute="_compute_order_partner", store=True
    )
    salesman_id = fields.Many2one(
        "res.users", "Salesperson", compute="_compute_salesman", store=True
    )
    state = fields.Selection(_line_states, "Order Status", compute="_compute_state", store=True)
    customer_lead = fields.Float(
        "Lead Time",
        required=True,
        help="Number of days between the order confirmation and the shipping of the products"
        " to the customer",
    )
    qty_delivered = fields.Float(
        "Delivery Quantity",
        compute="_compute_qty_delivered",
        store=True,
        readonly=False,
        default=0.0,
    )
    qty_invoiced = fields.Float("Invoiced Quantity", compute="_compute_qty_invoiced", store=True)
    qty_to_invoice = fields.Float(
        "Quantity To Invoice", compute="_compute_qty_to_invoice", store=True
    )
    invoice_status = fields.Selection(
        INVOICE_STATUS, "Invoice Status", compute="_compute_invoice_status", store=True
    )
    invoice_lines = fields.Many2many(
        "account.move.line",
        "Invoice Lines",
        compute="_compute_invoice_lines",
        store=True,
        readonly=False,
        copy=False,
    )
    move_ids = fields.One2many("stock.move", "sale_line_id", "Stock Moves")
    analytic_precision = fields.Integer(
        "Analytic Precision",
        compute="_compute_analytic_precision",
        store=False,
        readonly=False,
        default=2,
        aggregator=None,
    )
    collapse_prices = fields.Boolean("Collapse Prices", default=False, min_version=19)
    collapse_composition = fields.Boolean("Collapse Composition", default=False, min_version=19)
    is_optional = fields.Boolean("Optional Line", default=False, min_version=19)

    # -- computes -----------------------------------------------------------------------------
    def _taxes(self) -> Any:
        return self.tax_ids if self.env.major >= 19 else self.tax_id

    def _compute_template(self) -> Any:
        return self.sudo().product_id.product_tmpl_id.id or False

    def _search_product_template_id(self, operator: str, value: Any) -> list[Any]:
        return [("product_id.product_tmpl_id", operator, value)]

    def _compute_analytic_precision(self) -> Any:
        return 2

    # The ORM computes every stored field of a record from the row as it was before the
    # recompute, so computes depending on other computes start again from the inputs.
    def _subtotal(self) -> float:
        gross: float = self.price_unit * self.product_uom_qty * (1 - (self.discount or 0.0) / 100.0)
        return round(gross, 2)

    def _tax(self) -> float:
        rate: float = sum(t.amount for t in self.sudo()._taxes() if t.amount_type == "percent")
        return round(self._subtotal() * rate / 100.0, 2)

    def _compute_subtotal(self) -> Any:
        return self._subtotal()

    def _compute_price_tax(self) -> Any:
        return self._tax()

    def _compute_price_total(self) -> Any:
        return round(self._subtotal() + self._tax(), 2)

    def _compute_currency(self) -> Any:
        return self.sudo().order_id.currency_id.id or 1

    def _compute_company(self) -> Any:
        return self.sudo().order_id.company_id.id or False

    def _compute_order_partner(self) -> Any:
        return self.sudo().order_id.partner_id.id or False

    def _compute_salesman(self) -> Any:
        return self.sudo().order_id.user_id.id or False

    def _compute_state(self) -> Any:
        return self._state()

    def _state(self) -> str:
        return str(self.sudo().order_id.state or "draft")

    def _delivered(self) -> float:
        if "move_ids" not in self._fields:  # no sale_stock: delivered by hand, none here
            return 0.0
        done = self.sudo().move_ids.filtered(lambda m: m.state == "done")
        return float(sum(m.quantity_delivered() for m in done))

    def _compute_qty_delivered(self) -> Any:
        return self._delivered()

    def _invoice_line_records(self) -> Any:
        aml = self.env["account.move.line"].sudo()
        return aml.search([("sale_line_ids", "in", [self.id])])

    def _compute_invoice_lines(self) -> Any:
        return self._invoice_line_records().ids

    def _compute_qty_invoiced(self) -> Any:
        return self._invoiced()

    def _invoiced(self) -> float:
        total = 0.0
        for aml in self._invoice_line_records():
            move = aml.move_id
            if move.state == "cancel":
                continue
            sign = -1 if move.move_type == "out_refund" else 1
            total += sign * aml.quantity
        return total

    def _to_invoice(self) -> float:
        if self._state() not in ("sale", "done") or self.display_type:
            return 0.0
        product = self.sudo().product_id
        base = self._delivered() if product.invoice_policy == "delivery" else self.product_uom_qty
        return float(base - self._invoiced())

    def _compute_qty_to_invoice(self) -> Any:
        return self._to_invoice()

    def _compute_invoice_status(self) -> Any:
        if self._state() not in ("sale", "done") or self.display_type:
            return "no"
        if self._to_invoice() > 0:
            return "to invoice"
        if self.product_uom_qty and self._invoiced() >= self.product_uom_qty:
            return "invoiced"
        return "no"

    def _compute_display_name(self) -> Any:
        order = self.sudo().order_id
        product = self.sudo().product_id.display_name or self.name or ""
        return f"{order.name} - {product} ({order.partner_id.name})"

    # -- CRUD ---------------------------------------------------------------------------------
    @api.model
    def create(self, vals_list: Any) -> Any:
        batch = vals_batch(vals_list)
        uom_field = "product_uom_id" if self.env.major >= 19 else "product_uom"
        for vals in batch:
            product = self.env["product.product"].sudo().browse(vals.get("product_id") or [])
            if product:
                vals.setdefault("name", product.display_name)
                vals.setdefault("price_unit", product.list_price)
                vals.setdefault(uom_field, product.uom_id.id)
            elif vals.get("display_type"):
                vals.setdefault("name", "")
                vals.setdefault("product_uom_qty", 0.0)
            vals.setdefault("price_unit", 0.0)
            vals.setdefault("discount", 0.0)
            vals.setdefault("customer_lead", 0.0)
            if not vals.get("display_type"):
                vals.setdefault(uom_field, 1)
        lines = super().create(batch)
        lines.mapped("order_id").sudo()._recompute()
        return lines

    def write(self, vals: dict[str, Any]) -> Any:
        result = super().write(vals)
        self.sudo().mapped("order_id")._recompute()
        return result

    def unlink(self) -> Any:
        orders = self.sudo().mapped("order_id")
        result = super().unlink()
        orders.exists()._recompute()
        return result
