"""Operational reference data: units, categories, warehouse and locations, journals,
accounts, taxes, payment terms, sales team, pricelist and the CRM pipeline stages."""

from __future__ import annotations

from typing import Any

from fake_odoo.demo.common import create_at

ACCOUNTS = (
    (5, "121000", "Account Receivable", "asset_receivable"),
    (15, "211000", "Account Payable", "liability_payable"),
    (26, "400000", "Product Sales", "income"),
    (27, "600000", "Expenses", "expense"),
    (30, "101401", "Bank", "asset_cash"),
)
TERMS = (
    "Immediate Payment",
    "15 Days",
    "21 Days",
    "30 Days",
    "45 Days",
    "End of Following Month",
    "2 Months",
)
STAGES = (("New", 1, False), ("Qualified", 2, False), ("Proposition", 3, False), ("Won", 70, True))
LOST_REASONS = ("Too expensive", "We don't have people/skills", "Not enough stock")


def build_setup(env: Any) -> None:
    db = env.db
    env["uom.uom"].create(
        [
            {"name": "Units"},
            {"name": "Dozens", "relative_factor": 12.0},
            {"name": "kg"},
            {"name": "Hours"},
        ]
    )
    all_categ = env["product.category"].create({"name": "All"})
    db.set_xmlid("product.product_category_all", "product.category", all_categ.id)
    for rid, code, name, kind in ACCOUNTS:
        create_at(
            env,
            "account.account",
            rid,
            {
                "name": name,
                "code": code,
                "account_type": kind,
                "reconcile": kind.startswith(("asset_r", "liab")),
            },
        )
    db.set_xmlid("account.income_account", "account.account", 26)
    env["account.journal"].create(
        [
            {"name": "Sales", "code": "INV", "type": "sale", "default_account_id": 26},
            {"name": "Purchases", "code": "BILL", "type": "purchase", "default_account_id": 27},
            {"name": "Miscellaneous Operations", "code": "MISC", "type": "general"},
            {"name": "Exchange Difference", "code": "EXCH", "type": "general"},
            {"name": "Cash Basis Taxes", "code": "CABA", "type": "general"},
            {"name": "Bank", "code": "BNK1", "type": "bank", "default_account_id": 30},
            {"name": "Cash", "code": "CSH1", "type": "cash"},
        ]
    )
    bank = env["account.journal"].search([("code", "=", "BNK1")], limit=1)
    env["account.payment.method.line"].create(
        [
            {"name": "Manual Payment", "journal_id": bank.id, "payment_type": "inbound"},
            {"name": "Manual Payment", "journal_id": bank.id, "payment_type": "outbound"},
        ]
    )
    env["account.tax"].create(
        [
            {"name": "15%", "amount": 15.0, "type_tax_use": "sale"},
            {"name": "15% (purchase)", "amount": 15.0, "type_tax_use": "purchase"},
        ]
    )
    env["account.payment.term"].create([{"name": n, "sequence": i} for i, n in enumerate(TERMS)])
    demo = env.ref("base.user_demo").id
    team = env["crm.team"].create(
        {"name": "Sales", "user_id": 2, "member_ids": [(6, 0, [2, demo])]}
    )
    db.set_xmlid("sales_team.team_sales_department", "crm.team", team.id)
    env["product.pricelist"].create({"name": "Default", "currency_id": 1})
    for name, seq, won in STAGES:
        env["crm.stage"].create({"name": name, "sequence": seq, "is_won": won})
    env["crm.lost.reason"].create([{"name": n} for n in LOST_REASONS])
    if "stock.location" in env:  # the stock module is installed
        _build_stock(env)


def _build_stock(env: Any) -> None:
    loc = env["stock.location"]
    vendors = create_at(env, "stock.location", 1, {"name": "Vendors", "usage": "supplier"})
    customers = create_at(env, "stock.location", 2, {"name": "Customers", "usage": "customer"})
    create_at(env, "stock.location", 3, {"name": "Virtual Locations", "usage": "view"})
    view = create_at(env, "stock.location", 4, {"name": "WH", "usage": "view"})
    stock = create_at(
        env, "stock.location", 5, {"name": "Stock", "usage": "internal", "location_id": view.id}
    )
    loc.create({"name": "Inventory adjustment", "usage": "inventory", "location_id": 3})
    warehouse = env["stock.warehouse"].create(
        {
            "name": "YourCompany",
            "code": "WH",
            "partner_id": 1,
            "view_location_id": view.id,
            "lot_stock_id": stock.id,
        }
    )
    loc.browse([view.id, stock.id]).write({"warehouse_id": warehouse.id})
    types = env["stock.picking.type"]
    receipts = types.create(
        {
            "name": "Receipts",
            "code": "incoming",
            "sequence_code": "IN",
            "warehouse_id": warehouse.id,
            "default_location_src_id": vendors.id,
            "default_location_dest_id": stock.id,
            "sequence": 1,
        }
    )
    delivery = types.create(
        {
            "name": "Delivery Orders",
            "code": "outgoing",
            "sequence_code": "OUT",
            "warehouse_id": warehouse.id,
            "default_location_src_id": stock.id,
            "default_location_dest_id": customers.id,
            "sequence": 2,
        }
    )
    env.db.set_xmlid("stock.picking_type_in", "stock.picking.type", receipts.id)
    env.db.set_xmlid("stock.picking_type_out", "stock.picking.type", delivery.id)
    env.db.set_xmlid("stock.stock_location_stock", "stock.location", stock.id)
    env.db.set_xmlid("stock.stock_location_customers", "stock.location", customers.id)
