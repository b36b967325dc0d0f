"""Accounting reference data and journal items: imitates Odoo's ``account.account``,
``account.tax``, ``account.journal``, ``account.payment.term`` and ``account.move.line``
(module account).

The fake keeps only the product lines of an invoice (no receivable/tax balancing lines),
so ``line_ids`` and ``invoice_line_ids`` hold the same records.
"""

from __future__ import annotations

from typing import Any

from fake_odoo.models.common import selection_by_version, vals_batch
from fake_odoo.orm import api, fields
from fake_odoo.orm.exceptions import UserError
from fake_odoo.orm.model import Model, Rule

INVOICING = "account.group_account_invoice"
ACCOUNT_MANAGER = "account.group_account_manager"
SALESMAN = "sales_team.group_sale_salesman"
POSTED_DELETE = (
    "You can't delete a posted journal item. Don’t play games with your accounting records;"
    " reset the journal entry to draft before deleting it."
)
# Due-date offsets of the demo payment terms (Odoo models them as term lines).
TERM_DAYS = {
    "Immediate Payment": 0,
    "15 Days": 15,
    "21 Days": 21,
    "30 Days": 30,
    "45 Days": 45,
    "End of Following Month": 45,
    "2 Months": 60,
}
ACCOUNT_TYPES = [
    ("asset_receivable", "Receivable"),
    ("asset_cash", "Bank and Cash"),
    ("asset_current", "Current Assets"),
    ("liability_payable", "Payable"),
    ("liability_current", "Current Liabilities"),
    ("equity", "Equity"),
    ("income", "Income"),
    ("income_other", "Other Income"),
    ("expense", "Expenses"),
    ("off_balance", "Off-Balance Sheet"),
]
_REFERENCE_ACCESS = {"base.group_user": "r", INVOICING: "r", ACCOUNT_MANAGER: "rwcu"}


LINE_DISPLAY_TYPES = [
    ("product", "Product"),
    ("cogs", "Cost of Goods Sold"),
    ("tax", "Tax"),
    ("discount", "Discount"),
    ("rounding", "Rounding"),
    ("payment_term", "Payment Term"),
    ("line_section", "Section"),
    ("line_subsection", "Subsection"),
    ("line_note", "Note"),
    ("epd", "Early Payment Discount"),
    ("non_deductible_product_total", "Non Deductible Products Total"),
    ("non_deductible_product", "Non Deductible Products"),
    ("non_deductible_tax", "Non Deductible Tax"),
]
#: Odoo 17 has no subsections nor non-deductible lines (odoo17/meta_fields_get_account_move_line)
LINE_DISPLAY_TYPES_17 = [
    t for t in LINE_DISPLAY_TYPES if t[0] != "line_subsection" and "non_deductible" not in t[0]
]


class AccountAccount(Model):
    _name = "account.account"
    _description = "Account"
    _order = "code, id"
    _access = _REFERENCE_ACCESS

    name = fields.Char("Account Name", required=True, translate=True)
    code = fields.Char("Code", size=64)
    account_type = fields.Selection(ACCOUNT_TYPES, "Type", required=True)
    reconcile = fields.Boolean("Allow Reconciliation")
    active = fields.Boolean("Active", default=True)


class AccountTax(Model):
    _name = "account.tax"
    _description = "Tax"
    _order = "sequence,id"
    _access = _REFERENCE_ACCESS

    name = fields.Char("Tax Name", required=True, translate=True)
    amount_type = fields.Selection(
        [
            ("group", "Group of Taxes"),
            ("fixed", "Fixed"),
            ("percent", "Percentage"),
            ("division", "Percentage Tax Included"),
        ],
        "Tax Computation",
        required=True,
        default="percent",
    )
    amount = fields.Float("Amount", required=True, digits=(16, 4), default=0.0)
    type_tax_use = fields.Selection(
        [("sale", "Sales"), ("purchase", "Purchases"), ("none", "None")],
        "Tax Type",
        required=True,
        default="sale",
    )
    sequence = fields.Integer("Sequence", default=1)
    active = fields.Boolean("Active", default=True)
    company_id = fields.Many2one("res.company", "Company", required=True, default=1)


class AccountJournal(Model):
    _name = "account.journal"
    _description = "Journal"
    _order = "sequence, type, code"
    _access = _REFERENCE_ACCESS

    name = fields.Char("Journal Name", required=True, translate=True)
    code = fields.Char("Short Code", size=5, required=True)
    type = fields.Selection(
        [
            ("sale", "Sales"),
            ("purchase", "Purchase"),
            ("cash", "Cash"),
            ("bank", "Bank"),
            ("credit", "Credit Card"),
            ("general", "Miscellaneous"),
        ],
        "Type",
        required=True,
    )
    sequence = fields.Integer("Sequence", default=10)
    active = fields.Boolean("Active", default=True)
    company_id = fields.Many2one("res.company", "Company", required=True, default=1)
    default_account_id = fields.Many2one("account.account", "Default Account")


class AccountPaymentTerm(Model):
    _name = "account.payment.term"
    _description = "Payment Terms"
    _order = "sequence, id"
    _access = _REFERENCE_ACCESS

    name = fields.Char("Payment Terms", required=True, translate=True)
    active = fields.Boolean("Active", default=True)
    sequence = fields.Integer("Sequence", default=10)
    note = fields.Html("Description on the Invoice", translate=True)

    def due_days(self) -> int:
        return TERM_DAYS.get(self.name or "", 0)


def _own_move_lines(env: Any) -> list[Any]:
    return ["|", ("move_id.invoice_user_id", "=", env.uid), ("move_id.invoice_user_id", "=", False)]


class AccountMoveLine(Model):
    _name = "account.move.line"
    _description = "Journal Item"
    _order = "date desc, move_name desc, id"
    _access = {SALESMAN: "r", INVOICING: "rwcu", ACCOUNT_MANAGER: "rwcu"}
    _rules = [
        Rule(groups=(SALESMAN,), domain=_own_move_lines),
        Rule(groups=("sales_team.group_sale_salesman_all_leads", INVOICING), domain=None),
    ]

    move_id = fields.Many2one(
        "account.move", "Journal Entry", required=True, readonly=True, ondelete="cascade"
    )
    move_name = fields.Char("Number", compute="_compute_move_name", store=True)
    date = fields.Date("Date", compute="_compute_date", store=True)
    parent_state = fields.Selection(
        [("draft", "Draft"), ("posted", "Posted"), ("cancel", "Cancelled")],
        "Status",
        compute="_compute_parent_state",
        store=True,
    )
    sequence = fields.Integer("Sequence", default=10)
    name = fields.Char("Label")
    display_type = fields.Selection(
        selection_by_version(LINE_DISPLAY_TYPES_17, LINE_DISPLAY_TYPES),
        "Display Type",
        required=True,
        default="product",
    )
    product_id = fields.Many2one("product.product", "Product", ondelete="restrict")
    product_uom_id = fields.Many2one("uom.uom", "Unit", default=1)
    quantity = fields.Float(
        "Quantity",
        default=1.0,
        help="The optional quantity expressed by this line, eg: number of product sold. The"
        " quantity is not a legal requirement but is very useful for some reports.",
    )
    price_unit = fields.Float("Unit Price")
    discount = fields.Float("Discount (%)", default=0.0)
    tax_ids = fields.Many2many("account.tax", "Taxes")
    price_subtotal = fields.Monetary("Subtotal", compute="_compute_subtotal", store=True)
    price_total = fields.Monetary("Total", compute="_compute_total", store=True)
    account_id = fields.Many2one("account.account", "Account")
    partner_id = fields.Many2one("res.partner", "Partner")
    currency_id = fields.Many2one("res.currency", "Currency", required=True, default=1)
    company_id = fields.Many2one("res.company", "Company", default=1, readonly=True)
    debit = fields.Monetary("Debit", compute="_compute_debit", store=True, readonly=False)
    credit = fields.Monetary("Credit", compute="_compute_credit", store=True, readonly=False)
    balance = fields.Monetary("Balance", compute="_compute_balance", store=True, readonly=False)
    sale_line_ids = fields.Many2many(
        "sale.order.line", "Sales Order Lines", copy=False, readonly=True
    )

    def _subtotal(self) -> float:
        gross: float = self.price_unit * self.quantity * (1 - (self.discount or 0.0) / 100.0)
        return round(gross, 2)

    def _total(self) -> float:
        rate: float = sum(t.amount for t in self.sudo().tax_ids if t.amount_type == "percent")
        return round(self._subtotal() * (1 + rate / 100.0), 2)

    def _sign(self) -> int:
        # Customer invoices credit income; refunds and bills go the other way.
        return (
            -1
            if self.sudo().move_id.move_type in ("out_invoice", "in_refund", "out_receipt")
            else 1
        )

    def _compute_subtotal(self) -> Any:
        return self._subtotal()

    def _compute_total(self) -> Any:
        return self._total()

    def _compute_balance(self) -> Any:
        return self._sign() * self._subtotal()

    def _compute_debit(self) -> Any:
        return max(self._sign() * self._subtotal(), 0.0)

    def _compute_credit(self) -> Any:
        return max(-self._sign() * self._subtotal(), 0.0)

    def _compute_move_name(self) -> Any:
        return self.sudo().move_id.name or False

    def _compute_date(self) -> Any:
        return self.sudo().move_id.date or False

    def _compute_parent_state(self) -> Any:
        return self.sudo().move_id.state or False

    def _compute_display_name(self) -> Any:
        move = self.sudo().move_id.display_name or ""
        return f"{move} {self.name}" if self.name else move

    @api.model
    def create(self, vals_list: Any) -> Any:
        batch = vals_batch(vals_list)
        for vals in batch:
            product = self.env["product.product"].sudo().browse(vals.get("product_id") or [])
            if product:
                vals.setdefault("name", product.display_name)
                vals.setdefault("price_unit", product.list_price)
                vals.setdefault("product_uom_id", product.uom_id.id)
            if "account_id" not in vals:
                income = self.env.ref("account.income_account", raise_if_not_found=False)
                vals["account_id"] = income.id if income else False
        lines = super().create(batch)
        lines._refresh_parents()
        return lines

    def write(self, vals: dict[str, Any]) -> Any:
        result = super().write(vals)
        self._refresh_parents()
        return result

    def unlink(self) -> Any:
        if any(line.move_id.state == "posted" for line in self.sudo()):
            raise UserError(POSTED_DELETE)
        moves, sale_lines = self.sudo().mapped("move_id"), self.sudo().mapped("sale_line_ids")
        result = super().unlink()
        moves.exists()._recompute()
        sale_lines.exists()._recompute()
        sale_lines.exists().mapped("order_id")._recompute()
        return result

    def _refresh_parents(self) -> None:
        lines = self.sudo().exists()
        lines.mapped("move_id")._recompute()
        sale_lines = lines.mapped("sale_line_ids")
        if sale_lines:
            sale_lines._recompute()
            sale_lines.mapped("order_id")._recompute()
