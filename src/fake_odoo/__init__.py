"""A fake Odoo server speaking Odoo's real wire protocols (XML-RPC, JSON-RPC, JSON-2).

``FakeOdoo`` is the handle (database, faults, call log, control API); ``create_app``
builds its ASGI app; ``fake_odoo.testing`` serves it for tests.
"""

from __future__ import annotations

from fake_odoo.app import create_app
from fake_odoo.handle import FakeOdoo
from fake_odoo.orm.database import Database

__all__ = ["Database", "FakeOdoo", "create_app"]
