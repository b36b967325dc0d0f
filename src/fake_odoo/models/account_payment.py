"""Customer payments: imitates Odoo 19's ``account.payment``, the ``account.payment.register``
wizard and ``account.payment.method.line`` (module account).

The wizard is created with ``active_model="account.move"`` and ``active_ids`` in the
context; it proposes the residual amount on the Bank journal ("Manual Payment (Bank)"),
and ``action_create_payments`` creates a payment numbered P<journal code>/<year>/<5 digits>
in state ``paid`` and marks the invoices paid at once, as the captured server did (no
outstanding-account step, so never ``in_payment``).
"""

from __future__ import annotations

from typing import Any

from fake_odoo.models.account import ACCOUNT_MANAGER, INVOICING
from fake_odoo.models.common import next_number, to_date, vals_batch
from fake_odoo.orm import api, fields
from fake_odoo.orm.exceptions import UserError
from fake_odoo.orm.model import Model, TransientModel

NOTHING_TO_PAY = (
    "There's nothing left to pay for the selected journal items, so no payment registration is"
    " necessary. You've got your finances under control like a boss!"
)
# Odoo 17's wording (flow_sale_order_invoice_payment.json, step 29)
NOTHING_TO_PAY_17 = (
    "You can't register a payment because there is nothing left to pay on the selected"
    " journal items."
)
#: Odoo 17's payment states (flow_sale_order_invoice_payment.json, step 31); 18 reworked them
STATES_17 = [("draft", "Draft"), ("posted", "Posted"), ("cancel", "Cancelled")]
STATES_19 = [
    ("draft", "Draft"),
    ("in_process", "In Process"),
    ("paid", "Paid"),
    ("canceled", "Canceled"),
    ("rejected", "Rejected"),
]


#: after 19 (imitated from source, issue 40): ``in_process`` is gone and ``reconciled`` comes
#: after ``paid``, and the payment types read "Send" and "Receive": odoo-dev/odoo
#: addons/account/models/account_payment.py @ 07ecc3e3e4cc763f20fadf696319630d35df00f0
STATES_20 = [
    ("draft", "Draft"),
    ("paid", "Paid"),
    ("reconciled", "Reconciled"),
    ("canceled", "Canceled"),
    ("rejected", "Rejected"),
]


def payment_states(model: Any) -> list[tuple[str, str]]:
    major = model.env.major
    return STATES_17 if major <= 17 else STATES_19 if major <= 19 else STATES_20


def memo_field(major: int) -> str:
    return "ref" if major <= 17 else "memo"


def posted_state(major: int) -> str:
    """A registered payment's state: 17 "posted", 19 "paid" (no outstanding-account step)."""
    return "posted" if major <= 17 else "paid"


PAYMENT_TYPES = [("outbound", "Send Money"), ("inbound", "Receive Money")]
PAYMENT_TYPES_20 = [("outbound", "Send"), ("inbound", "Receive")]


def payment_types(model: Any) -> list[tuple[str, str]]:
    """account.payment's own payment types (the register wizard keeps the older labels)."""
    return PAYMENT_TYPES if model.env.major <= 19 else PAYMENT_TYPES_20


PARTNER_TYPES = [("customer", "Customer"), ("supplier", "Vendor")]
# Odoo 19 grants account.payment to the invoicing group only (the manager inherits it): the
# access error lists that one group (err_json2_demo_create_payment)
_ACCESS = {INVOICING: "rwcu"}


class AccountPaymentMethodLine(Model):
    _name = "account.payment.method.line"
    _description = "Payment Methods"
    _order = "sequence, id"
    _access = {"base.group_user": "r", ACCOUNT_MANAGER: "rwcu"}

    name = fields.Char("Name")
    sequence = fields.Integer("Sequence", default=10)
    payment_type = fields.Selection([("inbound", "Inbound"), ("outbound", "Outbound")], "Type")
    journal_id = fields.Many2one("account.journal", "Journal", ondelete="cascade")

    def _compute_display_name(self) -> Any:
        journal = self.sudo().journal_id
        return f"{self.name} ({journal.name})" if journal else self.name


class AccountPayment(Model):
    _name = "account.payment"
    _description = "Payments"
    _order = "date desc, name desc"
    _access = _ACCESS

    name = fields.Char("Number", copy=False, readonly=True)
    date = fields.Date("Date", required=True, default=lambda env: env.db.now_str()[:10])
    # the label is Odoo 17's "Status" there: orm/fields_get.py's per-version strings
    state = fields.Selection(
        payment_states, "State", required=True, readonly=True, default="draft", copy=False
    )
    amount = fields.Monetary("Amount")
    payment_type = fields.Selection(payment_types, "Payment Type", required=True, default="inbound")
    partner_type = fields.Selection(PARTNER_TYPES, "Partner Type", default="customer")
    partner_id = fields.Many2one("res.partner", "Customer/Vendor", ondelete="restrict")
    journal_id = fields.Many2one("account.journal", "Journal")
    payment_method_line_id = fields.Many2one("account.payment.method.line", "Payment Method")
    currency_id = fields.Many2one("res.currency", "Currency", default=1)
    company_id = fields.Many2one("res.company", "Company", default=1)
    memo = fields.Char("Memo", min_version=18)
    ref = fields.Char("Reference", copy=False, max_version=17)  # 18 renamed it memo
    invoice_ids = fields.Many2many("account.move", "Invoices", copy=False)
    is_reconciled = fields.Boolean("Is Reconciled", readonly=True)
    is_matched = fields.Boolean("Is Matched With a Bank Statement", readonly=True)

    def _compute_display_name(self) -> Any:
        return self.name or "Draft Payment"


class AccountPaymentRegister(TransientModel):
    _name = "account.payment.register"
    _description = "Pay"
    _access = _ACCESS

    payment_date = fields.Date(
        "Payment Date", required=True, default=lambda env: env.db.now_str()[:10]
    )
    amount = fields.Monetary("Amount", compute="_compute_amount", store=True, readonly=False)
    communication = fields.Char(
        "Memo", compute="_compute_communication", store=True, readonly=False
    )
    group_payment = fields.Boolean("Group Payments", default=True)
    currency_id = fields.Many2one("res.currency", "Currency", readonly=False, default=1)
    journal_id = fields.Many2one("account.journal", "Journal", readonly=False)
    installments_mode = fields.Selection(
        [
            ("next", "Next Installment"),
            ("overdue", "Overdue Amount"),
            ("before_date", "Before Next Payment Date"),
            ("full", "Full Amount"),
        ],
        "Installments Mode",
        default="full",
    )
    line_ids = fields.Many2many("account.move.line", "Journal items", readonly=True)
    payment_type = fields.Selection(PAYMENT_TYPES, "Payment Type", readonly=True)
    partner_type = fields.Selection(PARTNER_TYPES, "Partner Type", readonly=True)
    can_edit_wizard = fields.Boolean("Can Edit Wizard", readonly=True, default=True)
    partner_id = fields.Many2one("res.partner", "Customer/Vendor", readonly=True)
    payment_method_line_id = fields.Many2one(
        "account.payment.method.line", "Payment Method", readonly=False
    )
    payment_difference = fields.Monetary(
        "Payment Difference", compute="_compute_difference", store=False
    )
    payment_difference_handling = fields.Selection(
        [("open", "Keep open"), ("reconcile", "Mark as fully paid")],
        "Payment Difference Handling",
        default="open",
    )

    def _invoices(self) -> Any:
        return self.sudo().line_ids.mapped("move_id")

    def _residual(self) -> float:
        return round(float(sum(m.amount_residual for m in self._invoices())), 2)

    def _compute_amount(self) -> Any:
        return self._residual()

    def _compute_communication(self) -> Any:
        return " ".join(m.name for m in self._invoices() if m.name) or False

    def _compute_difference(self) -> Any:
        amount: Any = self.amount
        return round(self._residual() - (amount or 0.0), 2)

    @api.model
    def create(self, vals_list: Any) -> Any:
        batch = vals_batch(vals_list)
        context = self.env.context
        moves = self.env["account.move"]
        if context.get("active_model") == "account.move":
            moves = moves.browse(context.get("active_ids") or [])
        for vals in batch:
            if "line_ids" in vals or not moves:
                continue
            open_moves = moves.sudo().filtered(
                lambda m: m.state == "posted" and m.amount_residual > 0
            )
            if not open_moves:
                raise UserError(NOTHING_TO_PAY_17 if self.env.major <= 17 else NOTHING_TO_PAY)
            journal = self.env["account.journal"].sudo().search([("type", "=", "bank")], limit=1)
            method = (
                self.env["account.payment.method.line"]
                .sudo()
                .search(
                    [("journal_id", "=", journal.id), ("payment_type", "=", "inbound")], limit=1
                )
            )
            outbound = open_moves[0].move_type in ("in_invoice", "out_refund", "in_receipt")
            vals.update(
                line_ids=[(6, 0, open_moves.mapped("line_ids").ids)],
                partner_id=open_moves[0].partner_id.commercial_partner_id.id,
                payment_type="outbound" if outbound else "inbound",
                partner_type="supplier"
                if open_moves[0].move_type.startswith("in_")
                else "customer",
                currency_id=open_moves[0].currency_id.id,
            )
            vals.setdefault("journal_id", journal.id)
            vals.setdefault("payment_method_line_id", method.id)
        return super().create(batch)

    def action_create_payments(self) -> Any:
        payments = self.env["account.payment"]
        for wizard in self.sudo():
            invoices = wizard._invoices().filtered(lambda m: m.amount_residual > 0)
            journal = wizard.journal_id
            year = to_date(wizard.payment_date).year
            prefix = f"P{journal.code or 'BNK1'}/{year}/"
            payment = payments.sudo().create(
                {
                    "name": f"{prefix}{next_number(wizard.env, prefix):05d}",
                    "date": wizard.payment_date,
                    "state": posted_state(wizard.env.major),
                    "amount": wizard.amount,
                    "payment_type": wizard.payment_type,
                    "partner_type": wizard.partner_type,
                    "partner_id": wizard.partner_id.id,
                    "journal_id": journal.id,
                    "payment_method_line_id": wizard.payment_method_line_id.id,
                    "currency_id": wizard.currency_id.id,
                    memo_field(wizard.env.major): wizard.communication,
                    "invoice_ids": [(6, 0, invoices.ids)],
                    "is_reconciled": True,
                }
            )
            if wizard.amount >= wizard._residual() or wizard.payment_difference_handling == (
                "reconcile"
            ):
                invoices.write({"payment_state": "paid"})
            else:
                invoices.write({"payment_state": "partial"})
            if "matched_payment_ids" in invoices._fields:  # from Odoo 18
                for invoice in invoices:
                    invoice.write({"matched_payment_ids": [(4, payment.id)]})
            invoices._recompute()
            invoices._refresh_sales()
            payments |= payment
        return {
            "name": "Payments",
            "type": "ir.actions.act_window",
            "res_model": "account.payment",
            "context": {"create": False},
            "view_mode": "form",
            "res_id": payments.ids[0] if payments else False,
        }
