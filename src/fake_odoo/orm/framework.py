"""What the ORM needs from the models above it, handed in rather than imported.

A Database serves the framework models (users, groups, ``ir.model``, ...) besides the
business ones, creates the records every database starts with, and checks logins against
its users and API keys.  Those models live in ``fake_odoo.models``, which imports the ORM:
the ORM importing them back would tie the two layers into a loop.  So the models package
describes them in a ``Framework`` and hands it in, either to one Database
(``Database(framework=...)``) or once for all (``install``, which importing ``fake_odoo``
does with ``fake_odoo.models.base.FRAMEWORK``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fake_odoo.orm.database import Environment
    from fake_odoo.orm.fields import Field
    from fake_odoo.orm.model import BaseModel

__all__ = ["Framework", "install", "installed"]


@dataclass(frozen=True)
class Framework:
    """The framework models and the three hooks a Database calls (all given a sudo env)."""

    #: served by every Database besides an explicit ``models`` list
    models: tuple[type[BaseModel], ...]
    #: creates what every database has (groups, superuser, ``ir.model`` rows) at build time
    bootstrap: Callable[[Environment], None]
    #: (env, login, password or API key) -> the uid, else None
    check_credentials: Callable[[Environment, str, str], int | None]
    #: (env, API key) -> the uid owning it, else None
    check_api_key: Callable[[Environment, str], int | None]
    #: (model, field, description) -> the description this database's version gives (the
    #: models' facts of other versions: 17's labels and flags); None: as the ORM describes
    describe_field: Callable[[BaseModel, Field, dict[str, Any]], dict[str, Any]] | None = None


_installed: list[Framework] = []


def install(framework: Framework) -> None:
    """Make ``framework`` what a Database built without ``framework=`` uses."""
    _installed[:] = [framework]


def installed() -> Framework:
    """The installed Framework; refuses when nothing installed one (fake_odoo not imported)."""
    if not _installed:
        raise RuntimeError(
            "no Framework installed: import fake_odoo (it installs fake_odoo.models.base's)"
            " or pass Database(framework=...)"
        )
    return _installed[0]
