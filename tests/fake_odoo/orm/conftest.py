"""Fixtures of the ORM tests: a small database with two users and a few records."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from orm_testdb import ADMIN, Call, make_db

from fake_odoo.orm.database import Database, Environment

# tests/ holds the shared Hypothesis strategies (tests/strategies.py); the test folders
# are not packages (pytest's rootless layout), so make that module importable here.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


@pytest.fixture
def db() -> Database:
    return make_db()


@pytest.fixture
def env(db: Database) -> Environment:
    return db.env(ADMIN)


@pytest.fixture
def su(db: Database) -> Environment:
    return db.env(su=True)


@pytest.fixture
def partners(su: Environment) -> dict[str, Any]:
    """A company with two contacts, another company, an archived partner."""
    us = su["res.country"].create({"name": "United States", "code": "US"})
    be = su["res.country"].create({"name": "Belgium", "code": "BE"})
    tag_a = su["test.tag"].create({"name": "Vip"})
    tag_b = su["test.tag"].create({"name": "Prospect"})
    azure = su["res.partner"].create(
        {
            "name": "Azure Interior",
            "is_company": True,
            "country_id": us.id,
            "email": "info@azure.example.com",
            "category_id": [tag_a.id],
        }
    )
    brandon = su["res.partner"].create(
        {
            "name": "Brandon Freeman",
            "parent_id": azure.id,
            "email": "brandon@azure.example.com",
            "country_id": us.id,
        }
    )
    colleen = su["res.partner"].create(
        {"name": "Colleen Diaz", "parent_id": azure.id, "category_id": [tag_a.id, tag_b.id]}
    )
    gemini = su["res.partner"].create(
        {"name": "Gemini Furniture", "is_company": True, "country_id": be.id, "color": 3}
    )
    archived = su["res.partner"].create({"name": "Archived probe", "active": False})
    return {
        "us": us,
        "be": be,
        "azure": azure,
        "brandon": brandon,
        "colleen": colleen,
        "gemini": gemini,
        "archived": archived,
        "vip": tag_a,
        "prospect": tag_b,
    }


@pytest.fixture
def call(db: Database) -> Call:
    """``call(uid, model, method, *args, **kwargs)`` through service.call_kw."""
    from fake_odoo.orm.service import call_kw

    def run(uid: int, model: str, method: str, *args: Any, **kwargs: Any) -> Any:
        return call_kw(db, uid, model, method, list(args), kwargs)

    return run
