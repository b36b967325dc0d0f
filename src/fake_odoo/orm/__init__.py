"""The in-memory ORM of the fake Odoo server (models, domains, access, dispatch).

Public entry points::

    from fake_odoo.orm import api, fields
    from fake_odoo.orm.model import Model, TransientModel, Rule
    from fake_odoo.orm.database import Database, Environment
    from fake_odoo.orm.service import call_kw, is_model_method
"""

from fake_odoo.orm import api, fields

__all__ = ["api", "fields"]
