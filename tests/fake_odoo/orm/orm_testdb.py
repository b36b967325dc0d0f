"""The small ORM test database shared by the ORM tests (users, groups, a company).

Kept out of conftest.py so tests import it by a unique module name: several conftest.py
files live in this suite and ``from conftest import ...`` would pick whichever loaded last.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from orm_testmodels import MANAGER, SALESMAN, TEST_MODELS

from fake_odoo.orm.database import Database

ADMIN, DEMO = 2, 3


def make_db(version: str = "19.0") -> Database:
    """Superuser, admin (uid 2, all groups) and demo (uid 3, salesman) with a few records."""
    db = Database("test", version, models=TEST_MODELS)
    db.set_clock(datetime(2026, 11, 22, 8, 41, 17))
    env = db.env(su=True)
    groups = env["res.groups"]
    salesman = groups.create({"name": "User: Own Documents Only", "category_name": "Sales"})
    manager = groups.create(
        {"name": "Administrator", "category_name": "Sales", "implied_ids": [(4, salesman.id)]}
    )
    db.set_xmlid(SALESMAN, "res.groups", salesman.id)
    db.set_xmlid(MANAGER, "res.groups", manager.id)
    company = env["res.company"].create({"name": "My Company"})
    gfield = "group_ids" if db.major >= 19 else "groups_id"
    system = env.ref("base.group_system").id
    admin = env["res.users"].create(
        {
            "name": "Mitchell Admin",
            "login": "admin",
            "password": "admin",
            "company_id": company.id,
            gfield: [(6, 0, [system, manager.id])],
            "tz": "Europe/Brussels",
        }
    )
    demo = env["res.users"].create(
        {
            "name": "Marc Demo",
            "login": "demo",
            "password": "demo",
            "company_id": company.id,
            gfield: [(6, 0, [env.ref("base.group_user").id, salesman.id])],
            "tz": "Europe/Brussels",
        }
    )
    assert (admin.id, demo.id) == (ADMIN, DEMO)
    db.set_xmlid("base.user_admin", "res.users", admin.id)
    # keep the users' own partners out of the way of partner searches in the tests
    (admin.partner_id | demo.partner_id).write({"active": False})
    return db


Call = Callable[..., Any]
