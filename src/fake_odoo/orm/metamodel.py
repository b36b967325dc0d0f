"""Model declaration machinery: record rules, the field-collecting metaclass, the registry.

Imitates what ``odoo.models.MetaModel`` and ``odoo.modules.registry`` do for the fake: a
model class's ``fields.*`` attributes are collected into ``_declared_fields`` (with the
automatic ones), and every registered class is kept by ``_name`` in ``REGISTRY``.
Re-exported by ``orm.model``, where models import them from.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fake_odoo.orm import fields as F
from fake_odoo.orm.modules import model_hidden

if TYPE_CHECKING:
    from fake_odoo.orm.database import Environment
    from fake_odoo.orm.model import BaseModel

#: every model class declared with ``_register = True`` (the default), by ``_name``;
#: a later class with the same ``_name`` (typically a subclass) replaces the earlier one.
REGISTRY: dict[str, type[BaseModel]] = {}


@dataclass(frozen=True)
class Rule:
    """A record rule (``ir.rule``): for users in ``groups`` (empty = everyone), the
    operations in ``perms`` (letters of "rwcu") are limited to records matching ``domain``
    (a list, or a callable taking the Environment; None means all records)."""

    groups: tuple[str, ...] = ()
    perms: str = "rwcu"
    domain: Callable[[Environment], list[Any]] | list[Any] | None = None
    name: str = ""


def _head_fields() -> dict[str, F.Field]:
    return {
        "id": F.Integer("ID", readonly=True, aggregator=None),
        "display_name": F.Char("Display Name", compute="_compute_display_name", store=False),
    }


def _tail_fields() -> dict[str, F.Field]:
    return {
        "create_uid": F.Many2one("res.users", "Created by", readonly=True),
        "create_date": F.Datetime("Created on", readonly=True),
        "write_uid": F.Many2one("res.users", "Last Updated by", readonly=True),
        "write_date": F.Datetime("Last Updated on", readonly=True),
    }


class MetaModel(type):
    """Collects field declarations into ``_declared_fields`` (with the automatic ones)."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> MetaModel:
        own = {key: value for key, value in namespace.items() if isinstance(value, F.Field)}
        for key in own:
            del namespace[key]
        namespace["_own_fields"] = own
        cls = super().__new__(mcs, name, bases, namespace)
        model_name: str = getattr(cls, "_name", "")
        if not model_name:
            return cls
        merged: dict[str, F.Field] = {}
        for klass in reversed(cls.__mro__):
            merged.update(klass.__dict__.get("_own_fields", {}))
        head, tail = _head_fields(), _tail_fields()
        ordered = {**head, **{k: v for k, v in merged.items() if k not in head and k not in tail}}
        ordered.update({k: merged.get(k, v) for k, v in tail.items()})
        if "display_name" in merged:
            ordered["display_name"] = merged["display_name"]
        declared: dict[str, F.Field] = {}
        for fname, field in ordered.items():
            field = copy.copy(field)
            field.name, field.model_name = fname, model_name
            if fname == "state" and not field.copy_explicit:
                field.copy = False  # Odoo resets a ``state`` on copy unless told otherwise
            declared[fname] = field
        cls._declared_fields = declared  # type: ignore[attr-defined]
        cls._fields_cache = {}  # type: ignore[attr-defined]
        if namespace.get("_register", True):
            REGISTRY[model_name] = cls  # type: ignore[assignment]
        return cls


def build_registry(
    major: int,
    models: Iterable[type[BaseModel]] | None = None,
    uninstalled: frozenset[str] = frozenset(),
    framework_models: Iterable[type[BaseModel]] = (),
) -> dict[str, type[BaseModel]]:
    """The models a database of this major version serves.

    ``models=None`` means every registered model (``fake_odoo`` imports ``fake_odoo.models``,
    which registers them, before any Database is built); an explicit list is served together
    with ``framework_models`` (a Database passes its Framework's, see ``orm.framework``).
    The models of ``uninstalled`` modules are left out (see ``fake_odoo.orm.modules``).
    """
    if models is None:
        classes: list[type[BaseModel]] = list(REGISTRY.values())
    else:
        classes = [*framework_models, *models]
    registry: dict[str, type[BaseModel]] = {}
    for cls in classes:
        if cls._min_version is not None and major < cls._min_version:
            continue
        if cls._max_version is not None and major > cls._max_version:
            continue
        if uninstalled and model_hidden(cls._name, uninstalled):
            continue
        registry[cls._name] = cls
    return registry
