"""Invoices: imitates Odoo's ``account.move`` (module account, sale's invoice links).

Draft -> posted -> cancel with Odoo 19's captured behaviour: ``action_post`` returns False
and numbers the entry INV/<year>/<5 digits> (the highest posted number of the prefix plus
one, so a deleted draft's number is reused), ``button_draft``/``button_cancel`` return
None, posted entries refuse edits of their protected fields and deletion.
"""

from __future__ import annotations

from typing import Any

from fake_odoo.models.account import ACCOUNT_MANAGER, INVOICING, POSTED_DELETE, SALESMAN
from fake_odoo.models.common import add_days, to_date, vals_batch
from fake_odoo.orm import api, fields
from fake_odoo.orm.access import has_group
from fake_odoo.orm.exceptions import AccessError, UserError
from fake_odoo.orm.model import Model, Rule

MOVE_TYPES = [
    ("entry", "Journal Entry"),
    ("out_invoice", "Customer Invoice"),
    ("out_refund", "Customer Credit Note"),
    ("in_invoice", "Vendor Bill"),
    ("in_refund", "Vendor Credit Note"),
    ("out_receipt", "Sales Receipt"),
    ("in_receipt", "Purchase Receipt"),
]
PAYMENT_STATES = [
    ("not_paid", "Not Paid"),
    ("in_payment", "In Payment"),
    ("paid", "Paid"),
    ("partial", "Partially Paid"),
    ("reversed", "Reversed"),
    ("blocked", "Blocked"),
    ("invoicing_legacy", "Invoicing App Legacy"),
]
PREFIXES = {
    "out_invoice": "INV",
    "out_refund": "RINV",
    "in_invoice": "BILL",
    "in_refund": "RBILL",
    "out_receipt": "INV",
    "in_receipt": "BILL",
    "entry": "MISC",
}
DRAFT_NAMES = {
    "out_invoice": "Draft Invoice",
    "out_refund": "Draft Credit Note",
    "in_invoice": "Draft Bill",
    "in_refund": "Draft Vendor Credit Note",
}
# Fields a posted entry keeps (Odoo: the fields not flagged readonly on posted moves).
PROTECTED = (
    "invoice_line_ids",
    "line_ids",
    "partner_id",
    "journal_id",
    "currency_id",
    "move_type",
    "date",
    "invoice_date",
    "company_id",
)
#: Odoo 17's refusals of ``_post``, raised one at a time (flow_account_move_invoice.json)
NO_PARTNER_17 = {
    "sale": (
        "The field 'Customer' is required, please complete it to validate the Customer Invoice."
    ),
    "purchase": ("The field 'Vendor' is required, please complete it to validate the Vendor Bill."),
}
NO_LINE_17 = "You need to add a line before posting."
NO_CUSTOMER = (
    "The 'Customer' field is required to validate the invoice.\nYou probably don't want to"
    " explain to your auditor that you invoiced an invisible man :)"
)


def payment_states(model: Any) -> list[tuple[str, str]]:
    """Odoo 17 has no "blocked" payment state (flow_account_move_invoice.json, step 34)."""
    if model.env.major <= 17:
        return [state for state in PAYMENT_STATES if state[0] != "blocked"]
    return PAYMENT_STATES


def posted_moves_editable(major: int) -> bool:
    """Odoo 17 lets a posted invoice's lines and partner be written (flow_account_move_invoice
    steps 7-8); 19 refuses its protected fields until reset to draft."""
    return major <= 17


def _own_invoices(env: Any) -> list[Any]:
    return ["|", ("invoice_user_id", "=", env.uid), ("invoice_user_id", "=", False)]


def _document_kind(move_type: Any) -> str | None:
    if move_type in ("out_invoice", "out_refund", "out_receipt"):
        return "sale"
    if move_type in ("in_invoice", "in_refund", "in_receipt"):
        return "purchase"
    return None


class AccountMove(Model):
    _name = "account.move"
    _description = "Journal Entry"
    _order = "date desc, name desc, invoice_date desc, id desc"
    _access = {SALESMAN: "r", INVOICING: "rwcu", ACCOUNT_MANAGER: "rwcu"}
    _rules = [
        Rule(groups=(SALESMAN,), domain=_own_invoices, name="Personal Invoices"),
        Rule(groups=("sales_team.group_sale_salesman_all_leads", INVOICING), domain=None),
    ]

    name = fields.Char("Number", copy=False)
    move_type = fields.Selection(MOVE_TYPES, "Type", required=True, readonly=True, default="entry")
    state = fields.Selection(
        [("draft", "Draft"), ("posted", "Posted"), ("cancel", "Cancelled")],
        "Status",
        required=True,
        readonly=True,
        default="draft",
        copy=False,
    )
    # date, journal, company and currency are computed in Odoo (precompute): default_get
    # leaves them out and create() fills them.
    date = fields.Date("Date", required=True, copy=False)
    invoice_date = fields.Date("Invoice/Bill Date", copy=False)
    invoice_date_due = fields.Date("Due Date", copy=False)
    journal_id = fields.Many2one("account.journal", "Journal", required=True)
    company_id = fields.Many2one("res.company", "Company")
    currency_id = fields.Many2one("res.currency", "Currency", required=True)
    partner_id = fields.Many2one("res.partner", "Partner", ondelete="restrict")
    commercial_partner_id = fields.Many2one(
        "res.partner", "Commercial Entity", compute="_compute_commercial", store=True
    )
    ref = fields.Char("Reference", copy=False)
    narration = fields.Html("Terms and Conditions")
    payment_reference = fields.Char(
        "Payment Reference", copy=False, help="The payment reference to set on journal items."
    )
    invoice_origin = fields.Char(
        "Origin", copy=False, readonly=True, help="The document(s) that generated the invoice."
    )
    auto_post = fields.Selection(
        [
            ("no", "No"),
            ("at_date", "At Date"),
            ("monthly", "Monthly"),
            ("quarterly", "Quarterly"),
            ("yearly", "Yearly"),
        ],
        "Auto-post",
        required=True,
        default="no",
        copy=False,
        help="Specify whether this entry is posted automatically on its accounting date, and any"
        " similar recurring invoices.",
    )
    invoice_user_id = fields.Many2one("res.users", "Salesperson", default=lambda env: env.uid)
    invoice_payment_term_id = fields.Many2one("account.payment.term", "Payment Terms")
    posted_before = fields.Boolean("Posted Before", copy=False)
    line_ids = fields.One2many("account.move.line", "move_id", "Journal Items", copy=True)
    invoice_line_ids = fields.One2many("account.move.line", "move_id", "Invoice lines")
    amount_untaxed = fields.Monetary("Untaxed Amount", compute="_compute_untaxed", store=True)
    amount_tax = fields.Monetary("Tax", compute="_compute_tax", store=True)
    amount_total = fields.Monetary("Total", compute="_compute_total", store=True)
    amount_residual = fields.Monetary("Amount Due", compute="_compute_residual", store=True)
    payment_state = fields.Selection(
        payment_states, "Payment Status", readonly=True, default="not_paid", copy=False
    )
    matched_payment_ids = fields.Many2many(
        "account.payment", "Matched Payments", copy=False, min_version=18
    )

    def _lines(self) -> Any:
        return self.sudo().line_ids.filtered(lambda line: line.display_type == "product")

    def _compute_commercial(self) -> Any:
        return self.sudo().partner_id.commercial_partner_id.id or False

    def _compute_untaxed(self) -> Any:
        return round(sum(line.price_subtotal for line in self._lines()), 2)

    def _compute_tax(self) -> Any:
        return round(sum(line.price_total - line.price_subtotal for line in self._lines()), 2)

    def _compute_total(self) -> Any:
        return round(sum(line.price_total for line in self._lines()), 2)

    def _compute_residual(self) -> Any:
        if self.payment_state in ("paid", "in_payment", "reversed"):
            return 0.0
        return self._compute_total()

    def _compute_display_name(self) -> Any:
        if self.name and self.name != "/":
            return self.name
        return DRAFT_NAMES.get(self.move_type or "", "Draft Entry")

    # -- CRUD ---------------------------------------------------------------------------------
    @api.model
    def create(self, vals_list: Any) -> Any:
        batch = vals_batch(vals_list)
        context = self.env.context
        today = self.env.db.now_str()[:10]
        for vals in batch:
            for fname, value in (("journal_id", 1), ("company_id", 1), ("currency_id", 1)):
                vals.setdefault(fname, context.get(f"default_{fname}", value))
            vals.setdefault("date", context.get("default_date", today))
            # Both one2many fields carry the same lines here: merge their commands.
            if "invoice_line_ids" in vals and "line_ids" not in vals:
                vals["line_ids"] = vals.pop("invoice_line_ids")
            partner = self.env["res.partner"].sudo().browse(vals.get("partner_id") or [])
            if partner:
                term = vals.get("invoice_payment_term_id")
                date = vals.get("invoice_date") or vals.get("date") or self.env.db.now_str()
                days = self.env["account.payment.term"].sudo().browse(term or []).due_days()
                vals.setdefault("invoice_date_due", add_days(date, days if term else 0))
        return super().create(batch)

    def write(self, vals: dict[str, Any]) -> Any:
        posted = [f for f in vals if f in PROTECTED]
        if (
            posted
            and not posted_moves_editable(self.env.major)
            and any(move.state == "posted" for move in self.sudo())
        ):
            raise UserError(
                "You cannot modify the following readonly fields on a posted move: "
                + ", ".join(posted)
            )
        return super().write(vals)

    @api.ondelete(at_uninstall=False)
    def _unlink_forbid_parts_of_chain(self) -> None:
        if any(move.state == "posted" for move in self.sudo()):
            raise UserError(POSTED_DELETE)

    # -- actions ------------------------------------------------------------------------------
    def action_post(self) -> bool:
        if not self.env.su and not has_group(self.env, INVOICING):
            raise AccessError("You don't have the access rights to post an invoice.")
        if self.env.major <= 17:
            self._check_postable_17()
        errors: list[str] = []
        for move in self.sudo():
            if move.state != "draft":
                errors.append(f"The entry {move.name} (id {move.id}) must be in draft.")
            if not move.line_ids:
                errors.append("Even magicians can't post nothing!")
            if move.move_type != "entry" and not move.partner_id:
                errors.append(NO_CUSTOMER)
        if errors:
            raise UserError("\n".join(errors))
        today = self.env.db.now_str()[:10]
        for move in self.sudo():
            vals: dict[str, Any] = {"state": "posted", "posted_before": True}
            invoice_date = move.invoice_date or today
            if move.move_type != "entry":
                vals["invoice_date"] = invoice_date
                vals["date"] = invoice_date
                if not move.invoice_date_due or move.invoice_date_due < invoice_date:
                    vals["invoice_date_due"] = invoice_date
            if not move.name or move.name == "/":
                vals["name"] = move._next_name(invoice_date)
            super(AccountMove, move).write(vals)
            move.line_ids._recompute()
            move._refresh_sales()
        return False

    def _check_postable_17(self) -> None:
        """Odoo 17's ``_post`` checks: the invoices' partners first, then each move's state
        and lines, raising the first failure alone (19 merges them all)."""
        for move in self.sudo():
            kind = _document_kind(move.move_type)
            if kind and not move.partner_id:
                raise UserError(NO_PARTNER_17[kind])
        for move in self.sudo():
            if move.state != "draft":
                raise UserError(f"The entry {move.name} (id {move.id}) must be in draft.")
            if not move.line_ids:
                raise UserError(NO_LINE_17)

    def _next_name(self, on_date: Any) -> str:
        prefix = f"{PREFIXES.get(self.move_type or 'entry', 'MISC')}/{to_date(on_date).year}/"
        numbers = [
            int(str(row["name"])[len(prefix) :])
            for row in self.env.db.rows("account.move").values()
            if isinstance(row.get("name"), str)
            and row["name"].startswith(prefix)
            and row["name"][len(prefix) :].isdigit()
        ]
        return f"{prefix}{max(numbers, default=0) + 1:05d}"

    def button_draft(self) -> None:
        if any(move.state not in ("posted", "cancel") for move in self.sudo()):
            raise UserError("Only posted/cancelled journal entries can be reset to draft.")
        self._set_state("draft")

    def button_cancel(self) -> None:
        self._set_state("cancel")

    def _set_state(self, state: str) -> None:
        for move in self:
            super(AccountMove, move).write({"state": state})
            move.sudo().line_ids._recompute()
            move.sudo()._refresh_sales()

    def _refresh_sales(self) -> None:
        sale_lines = self.sudo().line_ids.mapped("sale_line_ids")
        if sale_lines:
            sale_lines._recompute()
            sale_lines.mapped("order_id")._recompute()
