"""The deterministic demo database of the fake Odoo.

``build_database`` returns a Database with what the captured Odoo 19 demo server holds
(company, admin and demo users with fixed API keys, Odoo's demo contacts and products at
their ids) plus the customers and catalogue of the "Tienda Lujanita" storefront, sales
orders in every state with their deliveries and invoices, and CRM leads.  Dates are laid
out from a fixed epoch, so two builds are equal; ``scale=N`` multiplies the storefront
customers, products, orders and leads.  ``dataset="empty"`` stops after the users;
``twin-a`` and ``twin-b`` are the demo data differing only in blocked data (``twins``).
"""

from __future__ import annotations

from collections.abc import Iterable

from fake_odoo.demo.catalog import build_partners, build_products
from fake_odoo.demo.common import DEMO_EPOCH
from fake_odoo.demo.documents import build_leads, build_orders
from fake_odoo.demo.reference import (
    ADMIN_API_KEY,
    DEMO_API_KEY,
    build_company,
    build_groups,
    build_modules,
    build_users,
    demo_uid,
)
from fake_odoo.demo.setup import build_setup
from fake_odoo.models.ir_model import describe_access
from fake_odoo.orm.database import Database

ADMIN_UID = 2
DEMO_UID = demo_uid(19)  # Odoo 19's; ``demo_uid(major)`` for another version
DATASETS = ("demo", "empty", "twin-a", "twin-b")

__all__ = [
    "ADMIN_API_KEY",
    "ADMIN_UID",
    "DATASETS",
    "DEMO_API_KEY",
    "DEMO_UID",
    "build_database",
    "demo_uid",
]


def build_database(
    name: str = "demo",
    version: str = "19.0",
    dataset: str = "demo",
    scale: int = 1,
    without: Iterable[str] = (),
) -> Database:
    """A fresh database of ``version`` filled with ``dataset`` (``scale`` >= 1).

    ``without`` names modules left uninstalled (with those depending on them, see
    ``fake_odoo.orm.modules``): their models, fields and demo records are absent.
    """
    if dataset not in DATASETS:
        raise ValueError(f"Unknown dataset {dataset!r}: expected one of {', '.join(DATASETS)}")
    if scale < 1:
        raise ValueError("scale must be at least 1")
    db = Database(name=name, version=version, without=without)
    db.set_clock(DEMO_EPOCH)
    try:
        with db.transaction():
            env = db.env(su=True)
            # The superuser row was stamped by Database() with the wall clock: re-date it.
            epoch = db.now_str()
            db.update("res.users", 1, {"create_date": epoch, "write_date": epoch})
            build_groups(env)
            build_company(env)
            build_users(env)
            env["res.users"].search([("active", "in", [True, False])])._add_implied_groups()
            describe_access(env)
            build_modules(env)
            if dataset != "empty":
                build_setup(env)
                customers = build_partners(env, scale)
                products = build_products(env, scale)
                build_orders(env, customers, products, scale)
                build_leads(env, scale)
    finally:
        db.set_clock(None)
    if dataset.startswith("twin-"):  # the demo data, then what only a blocklist hides
        from fake_odoo.demo.twins import apply_twin

        apply_twin(db, dataset.removeprefix("twin-"))
    return db
