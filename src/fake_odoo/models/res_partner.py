"""Contacts: imitates Odoo's ``res.partner`` and ``res.partner.category`` (base/contacts).

Companies and people share one model: a person's ``parent_id`` is its company, its
``complete_name``/display name reads "Company, Person", and ``commercial_partner_id`` is
the top company.  The name is not a *required* field but a CHECK constraint on contacts,
which is why a nameless create fails with "The operation cannot be completed: ..." as a
ValidationError rather than the ORM's "Missing required value" message.
"""

from __future__ import annotations

import re
import zoneinfo
from email.utils import getaddresses
from typing import Any

from fake_odoo.models.res_partner_modules import PartnerModuleFields
from fake_odoo.orm import api, fields
from fake_odoo.orm.exceptions import ValidationError
from fake_odoo.orm.model import Model

ADDRESS_TYPES = [
    ("contact", "Contact"),
    ("invoice", "Invoice"),
    ("delivery", "Delivery"),
    ("other", "Other"),
]
# Odoo lists only the installed languages; the demo database has English alone.
LANGS = [("en_US", "English (US)"), ("es_AR", "Spanish (AR) / Español (AR)")]

TZ_HELP = (
    "When printing documents and exporting/importing data, time values are computed according"
    " to this timezone.\nIf the timezone is not set, UTC (Coordinated Universal Time) is used.\n"
    "Anywhere else, time values are computed according to the time offset of your web client."
)


def email_split(text: Any) -> list[str]:
    """The bare addresses in ``text`` (``odoo.tools.mail.email_split``)."""
    if not text or not isinstance(text, str):
        return []
    return [addr for _name, addr in getaddresses([text]) if addr and "@" in addr]


def email_normalize(text: Any) -> Any:
    """``odoo.tools.email_normalize`` (strict): the one address, lowercased, else False."""
    found = email_split(text)
    if len(found) != 1:
        return False
    local, at, domain = found[0].rpartition("@")
    return found[0].lower() if local.isascii() else local + at + domain.lower()


def email_normalize_all(text: Any) -> list[str]:
    """``odoo.tools.email_normalize_all``: every address in ``text``, normalized."""
    return [email_normalize(addr) for addr in email_split(text) if email_normalize(addr)]


def parse_contact_from_email(text: str) -> tuple[str, Any]:
    """``odoo.tools.parse_contact_from_email``: ("Name", "address") from "Name <address>";
    ("", "address") from a bare address; (text, False) without one."""
    text = (text or "").strip()
    found = [(n, a) for n, a in getaddresses([text]) if a and "@" in a]
    if not found:
        return text, False
    display, address = found[0]
    email = email_normalize(address) or address
    if not display and text.lower() != address.lower():
        display = text.replace(f"<{address}>", "").replace(address, "").strip(" \"'<>")
    return display.strip(), email


def formataddr(name: str, address: str) -> str:
    """``odoo.tools.formataddr`` for an ASCII or UTF-8 name: ``"Name" <address>``."""
    escaped = re.sub(r'[\\"]', lambda m: "\\" + m.group(0), name)
    return f'"{escaped}" <{address}>'


def tz_selection(_env: Any = None) -> list[tuple[str, str]]:
    """Every IANA zone, as Odoo's ``_tz_get`` (pytz.all_timezones) lists them."""
    return [(tz, tz) for tz in sorted(zoneinfo.available_timezones()) if "/" in tz or tz == "UTC"]


TIMEZONES = tz_selection()


class ResPartnerCategory(Model):
    _name = "res.partner.category"
    _description = "Partner Tags"
    _order = "name, id"
    _access = {"base.group_user": "r", "base.group_partner_manager": "rwcu"}

    name = fields.Char("Name", required=True, translate=True)
    color = fields.Integer("Color")
    parent_id = fields.Many2one("res.partner.category", "Parent Category", ondelete="cascade")
    child_ids = fields.One2many("res.partner.category", "parent_id", "Child Tags")
    active = fields.Boolean("Active", default=True)


class ResPartner(PartnerModuleFields):
    _name = "res.partner"
    _description = "Contact"
    _order = "complete_name ASC, id DESC"
    _rec_name = "complete_name"
    _rec_names_search = ["complete_name", "email", "ref", "vat", "company_registry"]
    _recursion_error = "You cannot create recursive Partner hierarchies."
    # base.group_user reads and writes contacts; creation/deletion needs "Contact Creation"
    # (base.group_partner_manager), which Odoo gives every internal user of the demo.
    _access = {
        "base.group_user": "rw",
        "base.group_partner_manager": "rwcu",
        "base.group_portal": "r",
        "base.group_public": "r",
    }

    name = fields.Char("Name")
    complete_name = fields.Char("Complete Name", compute="_compute_complete_name", store=True)
    parent_id = fields.Many2one("res.partner", "Related Company")
    parent_name = fields.Char("Parent name", related="parent_id.name")
    child_ids = fields.One2many("res.partner", "parent_id", "Contact")
    commercial_partner_id = fields.Many2one(
        "res.partner", "Commercial Entity", compute="_compute_commercial_partner", store=True
    )
    commercial_company_name = fields.Char(
        "Company Name Entity", compute="_compute_commercial_company_name", store=True
    )
    company_name = fields.Char("Company Name")
    ref = fields.Char("Reference")
    lang = fields.Selection(
        LANGS,
        "Language",
        default="en_US",
        help="All the emails and documents sent to this contact will be translated in this"
        " language.",
    )
    tz = fields.Selection(
        TIMEZONES, "Timezone", help=TZ_HELP, default=lambda env: env.context.get("tz", False)
    )
    property_payment_term_id = fields.Many2one(
        "account.payment.term",
        "Customer Payment Terms",
    )
    user_id = fields.Many2one(
        "res.users", "Salesperson", help="The internal user in charge of this contact."
    )
    user_ids = fields.One2many("res.users", "partner_id", "Users")
    vat = fields.Char(
        "Tax ID",
        help="The Tax Identification Number. Values here will be validated based on the country"
        " format. You can use '/' to indicate that the partner is not subject to tax.",
    )
    company_registry = fields.Char(
        "Company ID",
        help="The registry number of the company. Use it if it is different from the Tax ID."
        " It must be unique across all partners of a same country",
    )
    website = fields.Char("Website Link")
    comment = fields.Html("Notes")
    # image.mixin's main image (real Odoo also keeps resized copies: not imitated)
    image_1920 = fields.Binary("Image")
    category_id = fields.Many2many("res.partner.category", "Tags")
    active = fields.Boolean("Active", default=True)
    employee = fields.Boolean("Employee", help="Check this box if this contact is an Employee.")
    function = fields.Char("Job Position")
    type = fields.Selection(ADDRESS_TYPES, "Address Type", default="contact")
    street = fields.Char("Street")
    street2 = fields.Char("Street2")
    zip = fields.Char("Zip")
    city = fields.Char("City")
    state_id = fields.Many2one("res.country.state", "State", ondelete="restrict")
    country_id = fields.Many2one("res.country", "Country", ondelete="restrict")
    country_code = fields.Char(
        "Country Code",
        related="country_id.code",
        help="The ISO country code in two chars. \nYou can use this field for quick search.",
    )
    email = fields.Char("Email")
    email_normalized = fields.Char(
        "Normalized Email",
        compute="_compute_email_normalized",
        depends=["email"],
        store=True,
        help="This field is used to search on email address as the primary email field can"
        " contain more than strictly an email address.",
    )
    email_formatted = fields.Char(
        "Formatted Email",
        compute="_compute_email_formatted",
        depends=["name", "email"],
        store=False,
        help='Format email address "Name <email@domain>"',
    )
    phone = fields.Char("Phone")
    mobile = fields.Char("Mobile", max_version=17)  # merged into phone in Odoo 18
    is_company = fields.Boolean(
        "Is a Company",
        default=False,
        help="Check if the contact is a company, otherwise it is a person",
    )
    company_type = fields.Selection(
        [("person", "Person"), ("company", "Company")],
        "Company Type",
        compute="_compute_company_type",
        store=False,
        readonly=False,  # its inverse sets is_company (see create/write)
    )
    company_id = fields.Many2one("res.company", "Company")
    color = fields.Integer("Color Index")
    customer_rank = fields.Integer("Customer Rank", default=0, copy=False)
    supplier_rank = fields.Integer("Supplier Rank", default=0, copy=False)
    barcode = fields.Char("Barcode", copy=False, help="Use a barcode to identify this contact.")
    credit_limit = fields.Float("Credit Limit", help="Credit limit specific to this partner.")
    sale_order_ids = fields.One2many("sale.order", "partner_id", "Sales Order")
    invoice_ids = fields.One2many("account.move", "partner_id", "Invoices", readonly=True)
    opportunity_ids = fields.One2many("crm.lead", "partner_id", "Opportunities")

    # -- computes (each called on one record) -------------------------------------------------
    def _compute_complete_name(self) -> Any:
        name = self.name or ""
        if not name and self.type != "contact":
            name = dict(ADDRESS_TYPES)[self.type or "other"] + " Address"
        if self.parent_id and not self.is_company:
            company = self.parent_id.sudo()
            head = company.commercial_company_name or company.name
            return f"{head}, {name}" if head else name
        return name or False

    def _compute_commercial_partner(self) -> Any:
        partner = self.sudo()
        seen: set[int] = set()
        while not partner.is_company and partner.parent_id and partner.id not in seen:
            seen.add(partner.id)
            partner = partner.parent_id
        return partner.id

    def _compute_commercial_company_name(self) -> Any:
        commercial = self.sudo().commercial_partner_id
        if commercial.is_company:
            return commercial.name or False
        return self.company_name or False

    def _compute_email_normalized(self) -> Any:
        return email_normalize(self.email)

    def _compute_email_formatted(self) -> Any:
        if not self.email:
            return False
        found = email_normalize_all(self.email)
        return formataddr(self.name or "False", ",".join(found) if found else self.email)

    def _compute_company_type(self) -> Any:
        return "company" if self.is_company else "person"

    def _compute_display_name(self) -> Any:
        return self.complete_name or self.name or False

    @api.model
    def create(self, vals_list: Any) -> Any:
        batch = [vals_list] if isinstance(vals_list, dict) else list(vals_list)
        batch = [self._with_inverses(vals) for vals in batch]
        context = self.env.context
        for vals in batch:
            kind = vals.get("type", context.get("default_type", "contact"))
            if not vals.get("name", context.get("default_name")) and kind == "contact":
                raise ValidationError("The operation cannot be completed: Contacts require a name")
            if vals.get("company_type") and "is_company" not in vals:
                vals["is_company"] = vals.pop("company_type") == "company"
        records = super().create(batch)
        return records

    @api.model
    def name_create(self, name: str) -> Any:
        """Odoo's res.partner override (odoo/odoo ``odoo/addons/base/models/res_partner.py``
        @ 4461f0772241): "Name <email>" gives the name and the email, a bare address is
        both; ``force_email`` in the context refuses a name without an address; a
        ``default_type`` that is not an address type is dropped from the context."""
        context = dict(self.env.context)
        if context.get("default_type") and context["default_type"] not in dict(ADDRESS_TYPES):
            context.pop("default_type")
        partners = self.with_context(context)
        contact_name, email = parse_contact_from_email(name)
        if context.get("force_email") and not email:
            raise ValidationError("Couldn't create contact without email address!")
        values: dict[str, Any] = {"name": contact_name or email}
        if email:
            values["email"] = email
        partner = partners.create(values)
        return [partner.id, partner.display_name]

    def copy_data(self, default: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """ " (copy)" after the name unless ``default`` names the copy (odoo/odoo
        ``odoo/addons/base/models/res_partner.py`` @ 4461f0772241, copy in batch)."""
        default = dict(default or {})
        vals_list: list[dict[str, Any]] = super().copy_data(default)
        if default.get("name"):
            return vals_list
        return [
            dict(vals, name=f"{partner.name} (copy)")
            for partner, vals in zip(self, vals_list, strict=True)
        ]

    def write(self, vals: dict[str, Any]) -> Any:
        vals = self._with_inverses(vals)
        if vals.get("company_type") and "is_company" not in vals:
            vals = dict(vals, is_company=vals["company_type"] == "company")
            vals.pop("company_type")
        if "name" in vals and not vals["name"]:
            kind = vals.get("type")
            if any((kind or rec.type) == "contact" for rec in self.sudo()):
                raise ValidationError("The operation cannot be completed: Contacts require a name")
        result = super().write(vals)
        # A company's new name or structure shows in the stored names of its contacts.
        if {"name", "parent_id", "is_company", "company_name"} & set(vals):
            self._recompute_descendants()
        return result

    def _recompute_descendants(self) -> None:
        todo = self.sudo().with_context(active_test=False)
        seen: set[int] = set()
        while todo:
            todo._recompute()
            seen.update(todo.ids)
            todo = todo.mapped("child_ids").filtered(lambda p: p.id not in seen)

    def address_get(self, adr_pref: list[str] | None = None) -> dict[str, int]:
        """The first contact of each requested type among the commercial entity's family."""
        wanted = set(adr_pref or []) | {"contact"}
        family = self.sudo().commercial_partner_id.with_context(active_test=False)
        found: dict[str, int] = {}
        for partner in [family, *family.child_ids]:
            if partner.type in wanted and partner.type not in found:
                found[partner.type] = partner.id
        fallback = found.get("contact", self.id)
        return {kind: found.get(kind, fallback) for kind in wanted}
