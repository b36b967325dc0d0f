"""What Odoo's ``base`` module gives every database: the framework models, gathered.

The classes live by concept in ``res_groups``, ``res_users`` (users, API keys, credential
checks), ``ir_config``, ``ir_model`` and ``bootstrap`` (the records every database starts
with).  ``FRAMEWORK_MODELS`` is what ``Database(models=[...])`` serves besides the explicit
list (``ir.model.access`` is left out of it: only the full registry describes its ACLs);
``FRAMEWORK`` hands them to the ORM with the bootstrap and login hooks (``orm.framework``).
"""

from __future__ import annotations

from fake_odoo.models.bootstrap import bootstrap
from fake_odoo.models.field_descriptions_odoo17 import describe_odoo17
from fake_odoo.models.ir_config import IrConfigParameter
from fake_odoo.models.ir_model import IrModel, IrModelFields
from fake_odoo.models.res_groups import ResGroups
from fake_odoo.models.res_users import ResUsers, ResUsersApikeys, check_api_key, check_credentials
from fake_odoo.orm.framework import Framework
from fake_odoo.orm.model import Model

FRAMEWORK_MODELS: tuple[type[Model], ...] = (
    ResGroups,
    ResUsers,
    ResUsersApikeys,
    IrConfigParameter,
    IrModel,
    IrModelFields,
)

FRAMEWORK = Framework(
    models=FRAMEWORK_MODELS,
    bootstrap=bootstrap,
    check_credentials=check_credentials,
    check_api_key=check_api_key,
    describe_field=describe_odoo17,
)
