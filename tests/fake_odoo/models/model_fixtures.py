"""Helpers of the business-model tests: a fresh demo database and an RPC-like call.

Plain functions rather than conftest fixtures: the ORM tests import a module named
``conftest`` by name, which a second conftest.py would shadow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fake_odoo.demo import build_database
from fake_odoo.orm.database import Database
from fake_odoo.orm.service import call_kw

Call = Callable[..., Any]


def make_call(db: Database | None = None) -> Call:
    """``call(uid, model, method, *args, **kwargs)`` over a (new) demo database."""
    target = db if db is not None else build_database()

    def run(uid: int, model: str, method: str, *args: Any, **kwargs: Any) -> Any:
        return call_kw(target, uid, model, method, list(args), kwargs)

    return run
