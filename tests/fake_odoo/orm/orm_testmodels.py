"""Small models of the ORM tests (not registered globally: ``_register = False``)."""

from __future__ import annotations

from typing import Any

from fake_odoo.orm import api, fields
from fake_odoo.orm.exceptions import ValidationError
from fake_odoo.orm.model import Model, Rule

SALESMAN = "test.group_salesman"
MANAGER = "test.group_manager"


class Company(Model):
    _name = "res.company"
    _description = "Companies"
    _order = "name"
    _register = False
    _access = {"base.group_user": "r", "base.group_erp_manager": "rwcu"}

    name = fields.Char("Company Name", required=True)


class Country(Model):
    _name = "res.country"
    _description = "Country"
    _order = "name"
    _register = False

    name = fields.Char("Country Name", required=True)
    code = fields.Char("Country Code")


class Partner(Model):
    _name = "res.partner"
    _description = "Contact"
    _order = "name, id desc"
    _register = False
    _rec_names_search = ["name", "email"]
    _recursion_error = "You cannot create recursive Partner hierarchies."
    _access = {"base.group_user": "rwcu"}

    name = fields.Char("Name")
    email = fields.Char("Email")
    lang = fields.Selection([("en_US", "English (US)")], "Language", default="en_US")
    tz = fields.Char("Timezone")  # res.users reads its name, email, lang and tz from here
    active = fields.Boolean("Active", default=True)
    is_company = fields.Boolean("Is a Company", default=False)
    type = fields.Selection(
        [("contact", "Contact"), ("invoice", "Invoice Address")], "Address Type", default="contact"
    )
    color = fields.Integer("Color Index")
    parent_id = fields.Many2one("res.partner", "Related Company")
    child_ids = fields.One2many("res.partner", "parent_id", "Contact")
    country_id = fields.Many2one("res.country", "Country", ondelete="restrict")
    company_id = fields.Many2one("res.company", "Company")
    category_id = fields.Many2many("test.tag", string="Tags")
    ref = fields.Char("Reference", copy=False)
    image = fields.Binary("Image")
    since = fields.Date("Since", min_version=17)

    def _compute_display_name(self) -> Any:
        if self.parent_id and not self.is_company:
            return f"{self.parent_id.name}, {self.name}"
        return self.name or False

    @api.constrains("email")
    def _check_email(self) -> None:
        if self.email and "@" not in self.email:
            raise ValidationError("Invalid email")


class Tag(Model):
    _name = "test.tag"
    _description = "Partner Tag"
    _order = "name"
    _register = False
    _sql_constraints = [("name_uniq", "unique (name)", "Tag name already exists !")]

    name = fields.Char("Tag Name", required=True)
    color = fields.Integer("Color")


class Order(Model):
    _name = "test.order"
    _description = "Sales Order"
    _order = "date_order desc, id desc"
    _register = False
    _access = {SALESMAN: "rwc", MANAGER: "rwcu"}
    _rules = [
        Rule(
            groups=(SALESMAN,),
            domain=lambda env: ["|", ("user_id", "=", env.uid), ("user_id", "=", False)],
        ),
        Rule(groups=(MANAGER,), domain=None),
    ]

    name = fields.Char("Order Reference", required=True, default="New", copy=False)
    partner_id = fields.Many2one("res.partner", "Customer", required=True, ondelete="restrict")
    user_id = fields.Many2one("res.users", "Salesperson", default=lambda env: env.uid)
    state = fields.Selection(
        [("draft", "Quotation"), ("sale", "Sales Order"), ("cancel", "Cancelled")],
        "Status",
        readonly=True,
        default="draft",
    )
    date_order = fields.Datetime("Order Date", default=lambda env: env.now())
    order_line = fields.One2many("test.order.line", "order_id", "Order Lines", copy=True)
    amount_total = fields.Monetary("Total", compute="_compute_amount_total", store=True)
    currency_id = fields.Many2one("res.company", "Currency")
    note = fields.Html("Terms and conditions")
    access_url = fields.Char(
        "Portal Access URL", compute="_compute_access_url", store=False, help="Customer Portal URL"
    )

    def _compute_amount_total(self) -> float:
        return sum(line.price_subtotal for line in self.order_line)

    def _compute_access_url(self) -> str:
        return f"/my/orders/{self.id}"

    def action_confirm(self) -> bool:
        from fake_odoo.orm.exceptions import UserError

        for order in self:
            if order.state != "draft":
                raise UserError("Some orders are not in a state requiring confirmation.")
        self.write({"state": "sale"})
        return True

    def action_lock(self) -> None:
        return None


class OrderLine(Model):
    _name = "test.order.line"
    _description = "Sales Order Line"
    _order = "order_id, sequence, id"
    _register = False
    _access = {SALESMAN: "rwcu", MANAGER: "rwcu"}

    order_id = fields.Many2one("test.order", "Order Reference", required=True, ondelete="cascade")
    sequence = fields.Integer("Sequence", default=10)
    name = fields.Text("Description", required=True)
    quantity = fields.Float("Quantity", default=1.0)
    price_unit = fields.Float("Unit Price")
    price_subtotal = fields.Monetary("Subtotal", compute="_compute_subtotal", store=True)

    def _compute_subtotal(self) -> float:
        return float(self.quantity * self.price_unit)

    @api.model
    def create(self, vals_list: Any) -> Any:
        lines = super().create(vals_list)
        lines.mapped("order_id")._recompute()
        return lines

    def write(self, vals: dict[str, Any]) -> bool:
        result = super().write(vals)
        self.mapped("order_id")._recompute()
        return result


TEST_MODELS = (Company, Country, Partner, Tag, Order, OrderLine)
