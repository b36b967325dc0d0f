"""A fake Odoo server speaking Odoo's real wire protocols (XML-RPC, JSON-RPC, JSON-2).

``FakeOdoo`` is the handle (database, faults, call log, control API); ``create_app``
builds its ASGI app; ``fake_odoo.testing`` serves it for tests.

Importing the package wires its layers, once: the ORM (``fake_odoo.orm``) imports nothing
above it, so the framework models and hooks of ``fake_odoo.models`` are installed here as
what every ``Database`` uses.  Any import of a ``fake_odoo.*`` module runs this first.
"""

from __future__ import annotations

from fake_odoo.app import create_app
from fake_odoo.handle import FakeOdoo
from fake_odoo.models.base import FRAMEWORK
from fake_odoo.orm import framework
from fake_odoo.orm.database import Database

framework.install(FRAMEWORK)

__all__ = ["Database", "FakeOdoo", "create_app"]
