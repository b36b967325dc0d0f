"""What Odoo's ``base`` module gives every database: the framework models, gathered.

The classes live by concept in ``res_groups``, ``res_users`` (users, API keys, credential
checks), ``ir_config``, ``ir_model`` and ``bootstrap`` (the records every database starts
with).  ``FRAMEWORK_MODELS`` is what ``Database(models=[...])`` serves besides the explicit
list (``ir.model.access`` is left out of it: only the full registry describes its ACLs).
"""

from __future__ import annotations

from fake_odoo.models.ir_config import IrConfigParameter
from fake_odoo.models.ir_model import IrModel, IrModelFields
from fake_odoo.models.res_groups import ResGroups
from fake_odoo.models.res_users import ResUsers, ResUsersApikeys
from fake_odoo.orm.model import Model

FRAMEWORK_MODELS: tuple[type[Model], ...] = (
    ResGroups,
    ResUsers,
    ResUsersApikeys,
    IrConfigParameter,
    IrModel,
    IrModelFields,
)
