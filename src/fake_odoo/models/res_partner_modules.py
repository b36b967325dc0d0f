"""The fields the installed modules add to ``res.partner`` that a plain ``read`` returns.

A ``read`` or ``search_read`` without ``fields`` returns every field of the model
(odoo19/ok_json2_search_read_limit_string.json, err_json2_no_db_header.json); these are
the ones of the modules the fake imitates (base's images and addresses, account, sale,
crm, stock, product), described as odoo19/meta_fields_get_res_partner.json describes
them.  Values come from the fake's records, or are the type's empty value where the fake
keeps no such data (bank accounts, e-invoicing).  Fields of modules the fake lacks (mail,
discuss, calendar, sms, payment, peppol, properties) are left out.  Fields the 17.0
capture (odoo17/meta_fields_get_res_partner.json) does not list exist from 18 on.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from fake_odoo.orm import fields
from fake_odoo.orm.model import Model

TRUST = [("good", "Good Debtor"), ("normal", "Normal Debtor"), ("bad", "Bad Debtor")]
SENDING_METHODS = [("manual", "Manual"), ("email", "by Email"), ("snailmail", "by Post")]
EDI_FORMATS = [
    ("facturx", "France (FacturX)"),
    ("ubl_bis3", "EU Standard (Peppol Bis 3.0)"),
    ("xrechnung", "Germany (XRechnung)"),
    ("nlcius", "Netherlands (NLCIUS)"),
    ("ubl_a_nz", "Australia (BIS Billing 3.0 A-NZ)"),
    ("ubl_sg", "Singapore (BIS Billing 3.0 SG)"),
]
AUTOPOST = [
    ("always", "Always"),
    ("ask", "Ask after 3 validations without edits"),
    ("never", "Never"),
]
#: computed fields the client may set, and the stored field their inverse writes
_INVERSES = {
    "property_product_pricelist": "specific_property_product_pricelist",
    "invoice_edi_format": "invoice_edi_format_store",
}
_CUSTOMER_MOVES = ("out_invoice", "out_refund")
_VENDOR_MOVES = ("in_invoice", "in_refund")


def _first(env: Any, model: str, domain: list[Any]) -> Any:
    """The id of the first record matching ``domain``, or False (a module-less database)."""
    if model not in env:
        return False
    found = env[model].sudo().search(domain, limit=1)
    return found.id if found else False


def _image(partner: Any) -> Any:
    # Odoo keeps resized copies; the fake serves the one image it has at every size
    return partner.image_1920 or False


def _image_field(size: int) -> fields.Binary:
    return fields.Binary(
        f"Image {size}", compute=_image, depends=["image_1920"], store=True, readonly=True
    )


def _avatar_field(string: str) -> fields.Binary:
    return fields.Binary(string, compute=_image, store=False)


class PartnerModuleFields(Model):
    """No ``_name``: a field mixin of ``ResPartner``."""

    _register = False

    # -- base ---------------------------------------------------------------------------------
    image_1024 = _image_field(1024)
    image_512 = _image_field(512)
    image_256 = _image_field(256)
    image_128 = _image_field(128)
    avatar_1920 = _avatar_field("Avatar")
    avatar_1024 = _avatar_field("Avatar 1024")
    avatar_512 = _avatar_field("Avatar 512")
    avatar_256 = _avatar_field("Avatar 256")
    avatar_128 = _avatar_field("Avatar 128")
    active_lang_count = fields.Integer(
        "Active Lang Count", compute="_compute_active_lang_count", store=False, aggregator=None
    )
    tz_offset = fields.Char("Timezone offset", compute="_compute_tz_offset", store=False)
    vat_label = fields.Char("Tax ID Label", compute=lambda p: "Tax ID", store=False, min_version=18)
    same_vat_partner_id = fields.Many2one(
        "res.partner", "Partner with same Tax ID", compute="_compute_same_vat", store=False
    )
    same_company_registry_partner_id = fields.Many2one(
        "res.partner",
        "Partner with same Company Registry",
        compute="_compute_same_registry",
        store=False,
    )
    company_registry_label = fields.Char(
        "Company ID Label", compute=lambda p: "Company ID", store=False, min_version=18
    )
    company_registry_placeholder = fields.Char(
        "Company Registry Placeholder", compute=lambda p: False, store=False, min_version=18
    )
    type_address_label = fields.Char(
        "Address Type Description", compute=lambda p: "Address", store=False, min_version=18
    )
    partner_latitude = fields.Float("Geo Latitude", digits=(10, 7), aggregator=None)
    partner_longitude = fields.Float("Geo Longitude", digits=(10, 7), aggregator=None)
    is_public = fields.Boolean("Is Public", compute=lambda p: False, store=False)
    main_user_id = fields.Many2one(
        "res.users",
        "Main User",
        compute="_compute_main_user",
        store=False,
        min_version=18,
        help="There can be several users related to the same partner. When a single user is"
        " needed, this field attempts to find the most appropriate one.",
    )
    partner_share = fields.Boolean(
        "Share Partner",
        compute="_compute_partner_share",
        depends=["user_ids"],
        store=True,
        help="Either customer (not a user), either shared user. Indicated the current partner"
        " is a customer without access or with a limited access created for sharing data.",
    )
    contact_address = fields.Char(
        "Complete Address", compute="_compute_contact_address", store=False
    )
    self = fields.Many2one("res.partner", "Self", compute=lambda p: p.id, store=False)
    contact_address_inline = fields.Char(
        "Inlined Complete Address", compute="_compute_contact_address_inline", store=False
    )
    signup_type = fields.Char("Signup Token Type", copy=False)

    # -- product / sale -----------------------------------------------------------------------
    property_product_pricelist = fields.Many2one(
        "product.pricelist",
        "Pricelist",
        compute="_compute_pricelist",
        store=False,
        readonly=False,
        help="Used for sales to the current partner",
    )
    specific_property_product_pricelist = fields.Many2one(
        "product.pricelist", "Specific Property Product Pricelist", min_version=18
    )
    sale_order_count = fields.Integer(
        "Sale Order Count", compute="_compute_sale_order_count", store=False, aggregator=None
    )
    sale_warn_msg = fields.Text("Message for Sales Order")

    # -- account ------------------------------------------------------------------------------
    fiscal_country_codes = fields.Char(
        "Fiscal Country Codes", compute="_compute_fiscal_codes", store=False
    )
    partner_vat_placeholder = fields.Char(
        "Partner Vat Placeholder", compute=lambda p: False, store=False, min_version=18
    )
    partner_company_registry_placeholder = fields.Char(
        "Partner Company Registry Placeholder", compute=lambda p: False, store=False, min_version=18
    )
    duplicate_bank_partner_ids = fields.Many2many(
        "res.partner", "Duplicate Bank Partner", compute=lambda p: [], store=False, min_version=18
    )
    credit = fields.Monetary(
        "Total Receivable",
        compute="_compute_credit",
        store=False,
        search="_search_credit",
        aggregator=None,
        help="Total amount this customer owes you.",
    )
    credit_to_invoice = fields.Monetary(
        "Credit To Invoice", compute="_compute_credit_to_invoice", store=False, aggregator=None
    )
    use_partner_credit_limit = fields.Boolean(
        "Partner Limit",
        compute=lambda p: bool(p.credit_limit),
        store=False,
        readonly=False,
        help="Set a value greater than 0.0 to activate a credit limit check",
    )
    show_credit_limit = fields.Boolean("Show Credit Limit", compute=lambda p: False, store=False)
    days_sales_outstanding = fields.Float(
        "Days Sales Outstanding (DSO)",
        compute="_compute_days_sales_outstanding",
        store=False,
        aggregator=None,
        help="[(Total Receivable/Total Revenue) * number of days since the first invoice] for"
        " this customer",
    )
    debit = fields.Monetary(
        "Total Payable",
        compute="_compute_debit",
        store=False,
        search="_search_debit",
        aggregator=None,
        help="Total amount you have to pay to this vendor.",
    )
    total_invoiced = fields.Monetary(
        "Total Invoiced", compute="_compute_total_invoiced", store=False, aggregator=None
    )
    currency_id = fields.Many2one(
        "res.currency", "Currency", compute="_compute_currency", store=False
    )
    property_account_payable_id = fields.Many2one(
        "account.account",
        "Account Payable",
        default=lambda env: _first(
            env, "account.account", [("account_type", "=", "liability_payable")]
        ),
    )
    property_account_receivable_id = fields.Many2one(
        "account.account",
        "Account Receivable",
        default=lambda env: _first(
            env, "account.account", [("account_type", "=", "asset_receivable")]
        ),
    )
    property_supplier_payment_term_id = fields.Many2one(
        "account.payment.term", "Vendor Payment Terms"
    )
    ref_company_ids = fields.One2many(
        "res.company", "partner_id", "Companies that refers to partner"
    )
    supplier_invoice_count = fields.Integer(
        "# Vendor Bills",
        compute="_compute_supplier_invoice_count",
        store=False,
        aggregator=None,
        min_version=18,
    )
    account_move_count = fields.Integer(
        "Account Move Count",
        compute="_compute_account_move_count",
        store=False,
        aggregator=None,
        min_version=18,
    )
    bank_account_count = fields.Integer("Bank", compute=lambda p: 0, store=False, aggregator=None)
    trust = fields.Selection(TRUST, "Degree of trust you have in this debtor", default="normal")
    ignore_abnormal_invoice_date = fields.Boolean("Ignore Abnormal Invoice Date", min_version=18)
    ignore_abnormal_invoice_amount = fields.Boolean(
        "Ignore Abnormal Invoice Amount", min_version=18
    )
    invoice_sending_method = fields.Selection(SENDING_METHODS, "Invoice sending", min_version=18)
    invoice_edi_format = fields.Selection(
        EDI_FORMATS,
        "eInvoice format",
        compute=lambda p: p.invoice_edi_format_store or False,
        store=False,
        readonly=False,
        min_version=18,
    )
    invoice_edi_format_store = fields.Char("Invoice Edi Format Store", min_version=18)
    display_invoice_edi_format = fields.Boolean(
        "Display Invoice Edi Format",
        compute=lambda p: True,
        store=False,
        readonly=False,
        min_version=18,
    )
    display_invoice_template_pdf_report_id = fields.Boolean(
        "Display Invoice Template Pdf Report",
        compute=lambda p: False,
        store=False,
        readonly=False,
        min_version=18,
    )
    autopost_bills = fields.Selection(
        AUTOPOST,
        "Auto-post bills",
        required=True,
        default="ask",
        min_version=18,
        help="Automatically post bills for this trusted partner",
    )
    property_outbound_payment_method_line_id = fields.Many2one(
        "account.payment.method.line", "Property Outbound Payment Method Line", min_version=18
    )
    property_inbound_payment_method_line_id = fields.Many2one(
        "account.payment.method.line", "Property Inbound Payment Method Line", min_version=18
    )

    # -- crm / stock --------------------------------------------------------------------------
    opportunity_count = fields.Integer(
        "Opportunity Count", compute="_compute_opportunity_count", store=False, aggregator=None
    )
    property_stock_customer = fields.Many2one(
        "stock.location",
        "Customer Location",
        default=lambda env: _first(env, "stock.location", [("usage", "=", "customer")]),
        help="The stock location used as destination when sending goods to this contact.",
    )
    property_stock_supplier = fields.Many2one(
        "stock.location",
        "Vendor Location",
        default=lambda env: _first(env, "stock.location", [("usage", "=", "supplier")]),
        help="The stock location used as source when receiving goods from this contact.",
    )
    picking_warn_msg = fields.Text("Message for Stock Picking")
    global_location_number = fields.Char("GLN", min_version=18, help="Global Location Number")

    def _with_inverses(self, vals: dict[str, Any]) -> dict[str, Any]:
        """``vals`` with the settable computed fields written to their stored fields."""
        out = dict(vals)
        for computed, stored in _INVERSES.items():
            if computed in out:
                value = out.pop(computed)
                if stored in self._fields:
                    out[stored] = value
        return out

    # -- computes (each called on one record) -------------------------------------------------
    def _compute_pricelist(self) -> Any:
        if "specific_property_product_pricelist" not in self._fields:
            return False
        return self.specific_property_product_pricelist.id or False

    def _compute_active_lang_count(self) -> Any:
        return len(self._fields["lang"].selection)  # type: ignore[attr-defined]

    def _compute_tz_offset(self) -> Any:
        zone = ZoneInfo(self.tz) if self.tz else UTC
        return datetime.now(zone).strftime("%z")

    def _same(self, fname: str) -> Any:
        """Another commercial entity with this partner's value of ``fname`` (a duplicate)."""
        if not self[fname]:
            return False
        commercial = self.sudo().commercial_partner_id.id
        domain = [(fname, "=", self[fname]), ("commercial_partner_id", "!=", commercial)]
        return _first(self.env, "res.partner", domain)

    def _compute_same_vat(self) -> Any:
        return self._same("vat")

    def _compute_same_registry(self) -> Any:
        return self._same("company_registry")

    def _compute_main_user(self) -> Any:
        users = self.sudo().user_ids
        return users[0].id if users else False

    def _compute_partner_share(self) -> Any:
        users = self.sudo().with_context(active_test=False).user_ids
        return all(u.share for u in users)

    def _address_lines(self) -> list[str]:
        """Odoo's default address format, headed by the company's name."""
        partner = self.sudo()
        place = " ".join(
            filter(None, [partner.city or "", partner.state_id.code or "", partner.zip or ""])
        )
        lines = [partner.street or "", partner.street2 or "", place, partner.country_id.name or ""]
        head = partner.commercial_company_name or partner.name or ""
        return [head, *lines] if head else lines

    def _compute_contact_address(self) -> Any:
        return "\n".join(self._address_lines()).strip()

    def _compute_contact_address_inline(self) -> Any:
        return ", ".join(line for line in self._address_lines() if line) or False

    def _family_ids(self) -> list[int]:
        """The partner and its contacts: Odoo counts their documents together."""
        family = self.sudo().with_context(active_test=False)
        return list(family.search([("id", "child_of", self.id)]).ids)

    def _count(self, model: str, domain: list[Any]) -> int:
        if model not in self.env:
            return 0
        return int(self.env[model].sudo().search_count(domain))

    def _compute_sale_order_count(self) -> Any:
        return self._count("sale.order", [("partner_id", "in", self._family_ids())])

    def _compute_opportunity_count(self) -> Any:
        return self._count("crm.lead", [("partner_id", "in", self._family_ids())])

    def _compute_supplier_invoice_count(self) -> Any:
        domain = [("partner_id", "in", self._family_ids()), ("move_type", "in", _VENDOR_MOVES)]
        return self._count("account.move", domain)

    def _compute_account_move_count(self) -> Any:
        kinds = _CUSTOMER_MOVES + _VENDOR_MOVES
        domain = [("partner_id", "in", self._family_ids()), ("move_type", "in", kinds)]
        return self._count("account.move", domain)

    def _posted(self, kinds: tuple[str, ...]) -> Any:
        """The commercial entity's posted moves of these kinds."""
        if "account.move" not in self.env:
            return None
        commercial = self.sudo().commercial_partner_id
        partners = commercial.search([("id", "child_of", commercial.id)]).ids
        return (
            self.env["account.move"]
            .sudo()
            .search(
                [
                    ("partner_id", "in", partners),
                    ("state", "=", "posted"),
                    ("move_type", "in", kinds),
                ]
            )
        )

    def _signed_sum(self, kinds: tuple[str, ...], fname: str) -> float:
        moves = self._posted(kinds)
        if moves is None:
            return 0.0
        sign = {"out_refund": -1.0, "in_refund": -1.0}
        return float(sum(m[fname] * sign.get(m.move_type, 1.0) for m in moves))

    def _compute_credit(self) -> Any:
        return self._signed_sum(_CUSTOMER_MOVES, "amount_residual")

    def _compute_debit(self) -> Any:
        return self._signed_sum(_VENDOR_MOVES, "amount_residual")

    def _compute_total_invoiced(self) -> Any:
        return self._signed_sum(_CUSTOMER_MOVES, "amount_total")

    def _compute_credit_to_invoice(self) -> Any:
        if "sale.order" not in self.env:
            return 0.0
        orders = (
            self.env["sale.order"]
            .sudo()
            .search([("partner_id", "in", self._family_ids()), ("state", "=", "sale")])
        )
        return float(sum(o.amount_to_invoice or 0.0 for o in orders))

    def _compute_days_sales_outstanding(self) -> Any:
        moves = self._posted(_CUSTOMER_MOVES)
        invoiced = self._compute_total_invoiced()
        if not moves or not invoiced:
            return 0.0
        first = min(str(m.invoice_date or m.date) for m in moves)
        today = self.env.db.now_str()[:10]
        days = (datetime.fromisoformat(today) - datetime.fromisoformat(first)).days
        return round(self._compute_credit() / invoiced * days, 2)

    def _compute_currency(self) -> Any:
        company = self.sudo().company_id or self.env.company
        return company.currency_id.id if company else False

    def _compute_fiscal_codes(self) -> Any:
        company = self.env.company
        return (company.sudo().country_id.code or False) if company else False

    def _search_amount(self, fname: str, operator: str, value: Any) -> list[Any]:
        from fake_odoo.orm.domain_match import match_value

        records = self.sudo().with_context(active_test=False).search([])
        return [
            ("id", "in", [r.id for r in records if match_value("float", r[fname], operator, value)])
        ]

    def _search_credit(self, operator: str, value: Any) -> list[Any]:
        return self._search_amount("credit", operator, value)

    def _search_debit(self, operator: str, value: Any) -> list[Any]:
        return self._search_amount("debit", operator, value)
