"""The small models around sales orders: ``crm.team`` (sales_team), a bare
``product.pricelist`` and ``quotation.document`` (sale_pdf_quote_builder's headers/footers,
the comodel of ``sale.order.quotation_document_ids``).
"""

from __future__ import annotations

from fake_odoo.orm import fields
from fake_odoo.orm.model import Model


class CrmTeam(Model):
    _name = "crm.team"
    _description = "Sales Team"
    _order = "sequence ASC, create_date DESC, id DESC"
    _access = {"base.group_user": "r", "sales_team.group_sale_manager": "rwcu"}

    name = fields.Char("Sales Team", required=True, translate=True)
    sequence = fields.Integer("Sequence", default=10)
    active = fields.Boolean("Active", default=True)
    company_id = fields.Many2one("res.company", "Company")
    user_id = fields.Many2one("res.users", "Team Leader")
    member_ids = fields.Many2many("res.users", "Salespersons")


class ProductPricelist(Model):
    _name = "product.pricelist"
    _description = "Pricelist"
    _order = "sequence, id, name"
    _access = {"base.group_user": "r", "sales_team.group_sale_manager": "rwcu"}

    name = fields.Char("Pricelist Name", required=True, translate=True)
    active = fields.Boolean("Active", default=True)
    sequence = fields.Integer("Sequence", default=16)
    currency_id = fields.Many2one("res.currency", "Currency", required=True, default=1)
    company_id = fields.Many2one("res.company", "Company")


class QuotationDocument(Model):
    _name = "quotation.document"
    _description = "Quotation's Headers & Footers"
    _order = "sequence, id"
    _min_version = 19
    _access = {"base.group_user": "r", "sales_team.group_sale_manager": "rwcu"}

    name = fields.Char("Name")
    sequence = fields.Integer("Sequence", default=10)
    active = fields.Boolean("Active", default=True)
    document_type = fields.Selection(
        [("header", "Header"), ("footer", "Footer")], "Document Type", default="header"
    )
