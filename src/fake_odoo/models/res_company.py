"""Companies and reference data: imitates Odoo's ``res.company``, ``res.currency``,
``res.country`` and ``res.country.state`` (module base).

Every internal user may read these; only "Access Rights" (base.group_erp_manager) may
change a company, and only "Settings" (base.group_system) the reference tables, which is
what makes the demo user's write on res.company fail with the captured AccessError.
"""

from __future__ import annotations

from typing import Any

from fake_odoo.models.common import pop_related, vals_batch, write_related
from fake_odoo.orm import api, fields
from fake_odoo.orm.model import Model

_READ_ALL = {"": "r", "base.group_system": "rwcu"}
_MONTH_NAMES = (
    "January February March April May June July August September October November December"
)
MONTHS = [(str(i), name) for i, name in enumerate(_MONTH_NAMES.split(), start=1)]


class ResCurrency(Model):
    _name = "res.currency"
    _description = "Currency"
    _order = "active desc, name"
    _access = _READ_ALL
    _sql_constraints = [("unique_name", "unique (name)", "The currency code must be unique!")]

    name = fields.Char("Currency", required=True, size=3, help="Currency Code (ISO 4217)")
    full_name = fields.Char("Name")
    symbol = fields.Char(
        "Symbol", required=True, help="Currency sign, to be used when printing amounts."
    )
    rate = fields.Float("Current Rate", default=1.0, store=False, compute="_compute_rate")
    rounding = fields.Float("Rounding Factor", default=0.01)
    decimal_places = fields.Integer(
        "Decimal Places", compute="_compute_decimal_places", store=False
    )
    position = fields.Selection(
        [("after", "After Amount"), ("before", "Before Amount")],
        "Symbol Position",
        default="after",
    )
    active = fields.Boolean("Active", default=True)
    currency_unit_label = fields.Char("Currency Unit")
    currency_subunit_label = fields.Char("Currency Subunit")

    def _compute_rate(self) -> Any:
        return 1.0  # the fake keeps every currency at par: no rate table

    def _compute_decimal_places(self) -> Any:
        rounding = self.rounding or 0.01
        places = 0
        while rounding < 1 and places < 6:
            rounding *= 10
            places += 1
        return places


class ResCountry(Model):
    _name = "res.country"
    _description = "Country"
    _order = "name, id"
    _access = _READ_ALL
    _sql_constraints = [
        ("name_uniq", "unique (name)", "The name of the country must be unique!"),
        ("code_uniq", "unique (code)", "The code of the country must be unique!"),
    ]

    name = fields.Char("Country Name", required=True, translate=True)
    code = fields.Char(
        "Country Code",
        size=2,
        required=True,
        help="The ISO country code in two chars. \nYou can use this field for quick search.",
    )
    currency_id = fields.Many2one("res.currency", "Currency")
    phone_code = fields.Integer("Country Calling Code")
    state_ids = fields.One2many("res.country.state", "country_id", "States")
    state_required = fields.Boolean("State Required", default=False)
    zip_required = fields.Boolean("Zip Required", default=True)
    vat_label = fields.Char(
        "Vat Label", translate=True, help="Use this field if you want to change vat label."
    )
    name_position = fields.Selection(
        [("before", "Before Address"), ("after", "After Address")],
        "Customer Name Position",
        default="before",
        help="Determines where the customer/company name should be placed, i.e. after or before"
        " the address.",
    )


class ResCountryState(Model):
    _name = "res.country.state"
    _description = "Country state"
    _order = "code, id"
    _access = _READ_ALL

    country_id = fields.Many2one("res.country", "Country", required=True)
    name = fields.Char("State Name", required=True)
    code = fields.Char("State Code", required=True, help="The state code.")

    def _compute_display_name(self) -> Any:
        # Odoo shows the country code after the state: "California (US)".
        return f"{self.name} ({self.sudo().country_id.code})"


ADDRESS_FIELDS = ("street", "street2", "zip", "city", "state_id", "country_id")


def _address(fname: str) -> Any:
    """The compute of a company address field: its partner's value."""

    def compute(company: Any) -> Any:
        return company.sudo().partner_id[fname]

    return compute


class ResCompany(Model):
    _name = "res.company"
    _description = "Companies"
    _order = "sequence, name"
    _access = {"": "r", "base.group_erp_manager": "rwcu"}
    _sql_constraints = [("name_uniq", "unique (name)", "The company name must be unique!")]

    name = fields.Char("Company Name", required=True)
    sequence = fields.Integer(
        "Sequence", default=10, help="Used to order Companies in the company switcher"
    )
    parent_id = fields.Many2one("res.company", "Parent Company")
    child_ids = fields.One2many("res.company", "parent_id", "Branches")
    partner_id = fields.Many2one("res.partner", "Partner", required=True)
    currency_id = fields.Many2one("res.currency", "Currency", required=True, default=1)
    user_ids = fields.Many2many("res.users", "Accepted Users")
    # The address is the partner's (Odoo's _compute_address / _inverse_<field>): not
    # stored, not searchable, written through by create/write.
    street = fields.Char("Street", compute=_address("street"), store=False, readonly=False)
    street2 = fields.Char("Street2", compute=_address("street2"), store=False, readonly=False)
    zip = fields.Char("Zip", compute=_address("zip"), store=False, readonly=False)
    city = fields.Char("City", compute=_address("city"), store=False, readonly=False)
    state_id = fields.Many2one(
        "res.country.state",
        "Fed. State",
        compute=_address("state_id"),
        store=False,
        readonly=False,
    )
    country_id = fields.Many2one(
        "res.country", "Country", compute=_address("country_id"), store=False, readonly=False
    )
    email = fields.Char("Email")
    phone = fields.Char("Phone")
    website = fields.Char("Website Link", related="partner_id.website", readonly=False)
    vat = fields.Char(
        "Tax ID",
        related="partner_id.vat",
        readonly=False,
        help="The Tax Identification Number. Values here will be validated based on the country"
        " format. You can use '/' to indicate that the partner is not subject to tax.",
    )
    company_registry = fields.Char(
        "Company ID",
        related="partner_id.company_registry",
        readonly=False,
        help="The registry number of the company. Use it if it is different from the Tax ID."
        " It must be unique across all partners of a same country",
    )
    report_header = fields.Html(
        "Company Tagline",
        help="Company tagline, which is included in a printed document's header or footer"
        " (depending on the selected layout).",
    )
    report_footer = fields.Html(
        "Report Footer", help="Footer text displayed at the bottom of all reports."
    )
    active = fields.Boolean("Active", default=True)
    quotation_validity_days = fields.Integer(
        "Default Quotation Validity",
        default=30,
        help="Days between quotation proposal and expiration. 0 days means automatic expiration"
        " is disabled",
    )
    security_lead = fields.Float(
        "Sales Safety Days",
        required=True,
        default=0.0,
        help="Margin of error for dates promised to customers. Products will be scheduled for"
        " procurement and delivery that many days earlier than the actual promised date, to"
        " cope with unexpected delays in the supply chain.",
    )
    fiscalyear_last_day = fields.Integer("Fiscalyear Last Day", required=True, default=31)
    fiscalyear_last_month = fields.Selection(
        MONTHS,
        "Fiscalyear Last Month",
        required=True,
        default="12",
    )
    has_received_warning_stock_sms = fields.Boolean("Has Received Warning Stock Sms")
    stock_text_confirmation = fields.Boolean("Stock Text Confirmation", min_version=18)
    # Odoo 17's stock_sms flag, renamed stock_text_confirmation later: reading the new name
    # faults on 17 (odoo17/flow_stock_picking_validate.json step 1, meta_fields_get_res_company)
    stock_move_sms_validation = fields.Boolean("SMS Confirmation", default=True, max_version=17)

    @api.model
    def create(self, vals_list: Any) -> Any:
        batch = vals_batch(vals_list)
        partner_values = [_pop_partner_values(self, vals) for vals in batch]
        companies = super().create(batch)
        for company, values in zip(companies, partner_values, strict=True):
            company._write_partner(values)
        return companies

    def write(self, vals: dict[str, Any]) -> Any:
        vals = dict(vals)
        values = _pop_partner_values(self, vals)
        result = super().write(vals)  # checks the access even when vals is empty
        self._write_partner(values)
        return result

    def _write_partner(self, values: dict[str, Any]) -> None:
        address = {k: v for k, v in values.items() if k in ADDRESS_FIELDS}
        if address:
            self.sudo().partner_id.write(address)
        write_related(self, {k: v for k, v in values.items() if k not in ADDRESS_FIELDS})


def _pop_partner_values(company: Any, vals: dict[str, Any]) -> dict[str, Any]:
    """The values of ``vals`` that belong to the company's partner (removed from vals)."""
    values = pop_related(company, vals)
    values.update({k: vals.pop(k) for k in ADDRESS_FIELDS if k in vals})
    return values


def sms_confirmation_field(major: int) -> str:
    """The company flag by which stock_sms texts customers on delivery, by version."""
    return "stock_move_sms_validation" if major <= 17 else "stock_text_confirmation"
