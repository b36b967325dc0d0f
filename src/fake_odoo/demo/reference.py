"""Reference data of the demo database: groups, company, users, countries, currencies,
units, journals, accounts, taxes, payment terms, warehouse, locations, CRM stages and the
installed modules (the captured Odoo 19 server's ids where they show in its answers)."""

from __future__ import annotations

from typing import Any

from fake_odoo.demo.common import create_at
from fake_odoo.models.res_company import sms_confirmation_field
from fake_odoo.models.res_groups import group_naming, groups_field

ADMIN_API_KEY = "0a1f6b3e9c2d4e5f8a7b6c5d4e3f2a1b0c9d8e7f"
DEMO_API_KEY = "5d3c2b1a0f9e8d7c6b5a49382716f5e4d3c2b1a0"

#: (xml id, category, name, implied) of the application groups; "Sales/Administrator" is
#: spelled as Odoo 19 prints it in its ACL errors.
APP_GROUPS = (
    ("sales_team.group_sale_salesman", "Sales", "User: Own Documents Only", ("base.group_user",)),
    (
        "sales_team.group_sale_salesman_all_leads",
        "Sales",
        "User: All Documents",
        ("sales_team.group_sale_salesman",),
    ),
    (
        "sales_team.group_sale_manager",
        "",
        "Sales/Administrator",
        ("sales_team.group_sale_salesman_all_leads",),
    ),
    ("stock.group_stock_user", "Inventory", "User", ("base.group_user",)),
    ("stock.group_stock_manager", "Inventory", "Administrator", ("stock.group_stock_user",)),
    ("account.group_account_invoice", "Invoicing", "Billing", ("base.group_user",)),
    (
        "account.group_account_manager",
        "Invoicing",
        "Billing Administrator",
        ("account.group_account_invoice",),
    ),
    ("product.group_product_manager", "", "Product Manager", ()),
    ("uom.group_uom", "", "Manage Multiple Units of Measure", ()),
)
ADMIN_GROUPS = (
    "base.group_system",
    "base.group_partner_manager",
    "base.group_multi_company",
    "base.group_allow_export",
    "base.group_no_one",
    "sales_team.group_sale_manager",
    "stock.group_stock_manager",
    "account.group_account_manager",
    "product.group_product_manager",
    "uom.group_uom",
)
DEMO_GROUPS = (
    "base.group_user",
    "base.group_partner_manager",
    "base.group_multi_company",
    "base.group_allow_export",
    "sales_team.group_sale_salesman",
    "stock.group_stock_user",
)
#: Odoo 17's demo user is also Invoicing / Billing: it may create payments and read every
#: invoice (odoo17/flow_demo_user_permissions.json steps 21, 36; err_callkw_demo_create_payment)
DEMO_GROUPS_17 = (*DEMO_GROUPS, "account.group_account_invoice")
#: (id, name, ISO code, phone code, currency code) of the countries the data uses
COUNTRIES = (
    (10, "Argentina", "AR", 54, "ARS"),
    (20, "Belgium", "BE", 32, "EUR"),
    (68, "Spain", "ES", 34, "EUR"),
    (75, "France", "FR", 33, "EUR"),
    (139, "Montenegro", "ME", 382, "EUR"),
    (156, "Mexico", "MX", 52, "MXN"),
    (203, "San Marino", "SM", 378, "EUR"),
    (233, "United States", "US", 1, "USD"),
    (234, "Uruguay", "UY", 598, "USD"),
)
CURRENCIES = (
    (1, "USD", "$", "before"),
    (125, "EUR", "€", "after"),
    (3, "ARS", "$", "before"),
    (33, "MXN", "$", "before"),
)
#: (name, shortdesc, application, version) of the installed modules
MODULES = (
    ("base", "Base", False, "1.3"),
    ("web", "Web", False, "1.0"),
    ("mail", "Discuss", True, "1.19"),
    ("contacts", "Contacts", True, "1.0"),
    ("product", "Products & Pricelists", False, "1.2"),
    ("uom", "Units of measure", False, "1.0"),
    ("sales_team", "Sales Teams", False, "1.1"),
    ("sale", "Sales", False, "1.2"),
    ("sale_management", "Sales", True, "1.0"),
    ("stock", "Inventory", True, "1.1"),
    ("sale_stock", "Sales and Warehouse Management", False, "1.0"),
    ("stock_sms", "Stock - SMS", False, "1.0"),
    ("account", "Invoicing", True, "1.4"),
    ("sale_crm", "Opportunity to Quotation", False, "1.0"),
    ("crm", "CRM", True, "1.9"),
    ("calendar", "Calendar", True, "1.1"),
    ("portal", "Customer Portal", False, "1.0"),
    ("payment", "Payment Engine", False, "2.0"),
    ("analytic", "Analytic Accounting", False, "1.2"),
    ("utm", "UTM Trackers", False, "1.1"),
    ("sms", "SMS gateway", False, "2.5"),
    ("phone_validation", "Phone Numbers Validation", False, "2.1"),
    ("account_edi_ubl_cii", "Import/Export electronic invoices with UBL/CII", False, "1.0"),
    ("resource", "Resource", False, "1.1"),
    ("base_setup", "Initial Setup Tools", False, "1.0"),
    ("digest", "KPI Digests", False, "1.1"),
)


def build_groups(env: Any) -> None:
    groups = env["res.groups"]
    for xmlid, app_category, app_name, implied in APP_GROUPS:
        category, name = group_naming(env.major, xmlid, app_category, app_name)
        group = groups.create(
            {
                "name": name,
                "category_name": category or False,
                "implied_ids": [(6, 0, [env.ref(i).id for i in implied])],
            }
        )
        env.db.set_xmlid(xmlid, "res.groups", group.id)


def build_company(env: Any) -> None:
    uninstalled = env.db.uninstalled
    for rid, name, symbol, position in CURRENCIES:
        create_at(
            env,
            "res.currency",
            rid,
            {
                "name": name,
                "symbol": symbol,
                "position": position,
                "active": name in ("USD", "EUR"),
            },
        )
    currency = {row["name"]: rid for rid, row in env.db.rows("res.currency").items()}
    for rid, name, code, phone, cur in COUNTRIES:
        create_at(
            env,
            "res.country",
            rid,
            {"name": name, "code": code, "phone_code": phone, "currency_id": currency[cur]},
        )
    env["res.country.state"].create({"name": "California", "code": "CA", "country_id": 233})
    partner = create_at(
        env,
        "res.partner",
        1,
        {
            "name": "YourCompany",
            "is_company": True,
            "street": "250 Executive Park Blvd, Suite 3400",
            "city": "San Francisco",
            "zip": "94134",
            "country_id": 233,
            "state_id": 1,
            "email": "info@yourcompany.com",
            "phone": "+1 555-555-5556",
            "website": "http://www.example.com",
        },
    )
    company = create_at(
        env,
        "res.company",
        1,
        {
            "name": "YourCompany",
            "partner_id": partner.id,
            "currency_id": 1,
            "country_id": 233,
            "street": "250 Executive Park Blvd, Suite 3400",
            "city": "San Francisco",
            "zip": "94134",
            "email": "info@yourcompany.com",
            "phone": "+1 555-555-5556",
            # stock_sms's default, where it is installed
            **({sms_confirmation_field(env.major): True} if "stock_sms" not in uninstalled else {}),
        },
    )
    env.db.set_xmlid("base.main_company", "res.company", company.id)
    env.db.set_xmlid("base.main_partner", "res.partner", partner.id)
    bot = create_at(
        env, "res.partner", 2, {"name": "OdooBot", "active": False, "email": "odoobot@example.com"}
    )
    env.db.update("res.users", 1, {"partner_id": bot.id, "company_id": 1, "company_ids": [1]})


def _user(env: Any, uid: int, pid: int, vals: dict[str, Any], groups: tuple[str, ...]) -> Any:
    partner = create_at(
        env,
        "res.partner",
        pid,
        {
            "name": vals["name"],
            "parent_id": 1 if vals.get("active", True) else False,
            "email": vals.get("email"),
            "active": vals.get("active", True),
            "tz": "Europe/Brussels",
        },
    )
    gids = [env.ref(g).id for g in groups]
    user = create_at(
        env,
        "res.users",
        uid,
        {
            **vals,
            "partner_id": partner.id,
            "company_id": 1,
            "tz": "Europe/Brussels",
            groups_field(env): [(6, 0, gids)],
        },
    )
    return user


def demo_uid(major: int) -> int:
    """Marc Demo's uid: 6 on Odoo 17 and earlier, 5 from 18 on (the captures of 17 and 19)."""
    return 6 if major <= 17 else 5


def build_users(env: Any) -> None:
    admin = _user(
        env,
        2,
        3,
        {
            "name": "Mitchell Admin",
            "login": "admin",
            "password": "admin",
            "email": "admin@yourcompany.example.com",
        },
        ("base.group_user", *ADMIN_GROUPS),
    )
    _user(
        env,
        3,
        4,
        {"name": "Default User Template", "login": "default", "active": False},
        ("base.group_user",),
    )
    _user(
        env,
        4,
        5,
        {"name": "Public user", "login": "public", "active": False},
        ("base.group_public",),
    )
    if env.major <= 17:
        # Odoo 17's demo data holds one more (inactive) user before Marc Demo: demo is uid 6
        # there (batch 4 captures), 5 from 18 on; its partner takes the free id 8
        _user(
            env,
            5,
            8,
            {"name": "Portal User Template", "login": "portaltemplate", "active": False},
            ("base.group_portal",),
        )
    uid = demo_uid(env.major)
    demo = _user(
        env,
        uid,
        6,
        {
            "name": "Marc Demo",
            "login": "demo",
            "password": "demo",
            "email": "mark.brown23@example.com",
        },
        DEMO_GROUPS_17 if env.major == 17 else DEMO_GROUPS,
    )
    _user(
        env,
        uid + 1,
        7,
        {
            "name": "Joel Willis",
            "login": "portal",
            "password": "portal",
            "email": "joel.willis63@example.com",
        },
        ("base.group_portal",),
    )
    env.db.set_xmlid("base.user_admin", "res.users", admin.id)
    env.db.set_xmlid("base.user_demo", "res.users", demo.id)
    keys = env["res.users.apikeys"]
    keys.create({"name": "MCP", "scope": "rpc", "key": ADMIN_API_KEY, "user_id": admin.id})
    keys.create({"name": "MCP", "scope": "rpc", "key": DEMO_API_KEY, "user_id": demo.id})


def build_modules(env: Any) -> None:
    serie, uninstalled = env.db.version_info["server_serie"], env.db.uninstalled
    for seq, (name, shortdesc, application, version) in enumerate(MODULES):
        env["ir.module.module"].create(
            {
                "name": name,
                "shortdesc": shortdesc,
                "application": application,
                # a module never installed has no installed version
                "latest_version": False if name in uninstalled else f"{serie}.{version}",
                "state": "uninstalled" if name in uninstalled else "installed",
                "sequence": seq,
                "author": "Odoo S.A.",
                "website": "https://www.odoo.com",
            }
        )
