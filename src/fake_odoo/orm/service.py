"""``call_kw``: dispatch of one RPC call, imitating ``odoo.service.model``.

The wire layers (XML-RPC ``execute_kw``, JSON-RPC, JSON-2) all end here.
Errors as Odoo raises them: unknown model -> UserError "Object x doesn't
exist"; a private method -> AccessError "Private methods (such as 'm.x')
cannot be called remotely." (17: "(such as x)"); unknown method ->
AttributeError "The method 'm.x' does not exist" (17: "The method 'x' does not
exist on the model 'm'").  Which methods a version has: ``METHOD_VERSIONS``.
Record methods take their ids as ``args[0]``; ``@api.model`` methods take none.
Each call is a transaction, and a database constraint error becomes the
ValidationError Odoo's ``retrying`` turns it into.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from fake_odoo.orm import access, crud
from fake_odoo.orm.api import is_model_method as _is_api_model
from fake_odoo.orm.api import is_private
from fake_odoo.orm.database import Database, Environment
from fake_odoo.orm.exceptions import (
    AccessError,
    ForeignKeyViolation,
    IntegrityError,
    UniqueViolation,
    UserError,
    ValidationError,
)
from fake_odoo.orm.methods import COPY_SINGLETON_UNTIL, METHOD_VERSIONS, Versions
from fake_odoo.orm.model import BaseModel

#: recordset plumbing that real Odoo refuses over RPC like a private method
NOT_REMOTE = frozenset(
    {
        "browse",
        "sudo",
        "with_user",
        "with_context",
        "with_env",
        "ensure_one",
        "filtered",
        "mapped",
        "sorted",
        "fields_for",
        "model_label",
        "check_access",
    }
)
#: generic methods doing their own existence/access checks
SELF_CHECKED = frozenset(
    {
        "read",
        "write",
        "unlink",
        "copy",
        "copy_data",
        "exists",
        "has_access",
        "name_get",
        "check_access_rights",
        "fields_get",
    }
)


def resolve(db: Database, model: str, method: str) -> Any:
    """The function implementing ``model.method`` over RPC, with Odoo's refusals."""
    cls = db.registry.get(model)
    if cls is None:
        raise UserError(f"Object {model} doesn't exist")
    if method.startswith("_"):
        raise private_method_error(db, model, method)
    versions = METHOD_VERSIONS.get(method, Versions())
    if not versions.exists_in(db.major):
        raise unknown_method_error(db, model, method)
    if method in NOT_REMOTE:
        raise private_method_error(db, model, method)
    func = getattr(cls, method, None)
    if func is None or isinstance(func, property) or not callable(func):
        raise unknown_method_error(db, model, method)
    if is_private(func):
        raise private_method_error(db, model, method)
    return versions.shim_for(db.major) or func


def private_method_error(db: Database, model: str, method: str) -> AccessError:
    # 17 names the bare method (err_xmlrpc_private_method, err_callkw_private_method)
    name = method if db.major <= 17 else f"'{model}.{method}'"
    return AccessError(f"Private methods (such as {name}) cannot be called remotely.")


def unknown_method_error(db: Database, model: str, method: str) -> AttributeError:
    if db.major <= 17:  # err_xmlrpc_unknown_method, err_callkw_unknown_method
        return AttributeError(f"The method '{method}' does not exist on the model '{model}'")
    return AttributeError(f"The method '{model}.{method}' does not exist")


def is_model_method(db: Database, model: str, method: str) -> bool:
    """Whether ``model.method`` is an ``@api.model`` method (takes no ids)."""
    try:
        return _is_api_model(resolve(db, model, method))
    except (UserError, AttributeError):
        return False


def call_kw(
    db: Database, uid: int, model: str, method: str, args: list[Any], kwargs: dict[str, Any]
) -> Any:
    """Run ``model.method(*args, **kwargs)`` as user ``uid``; return JSON-able data."""
    kwargs = dict(kwargs or {})
    context = kwargs.pop("context", None) or {}
    args = list(args or [])
    func = resolve(db, model, method)
    with db.lock:
        try:
            with db.transaction():
                env = Environment(db, uid, dict(context))
                records = env[model]
                if _is_api_model(func):
                    result = func(records, *args, **kwargs)
                else:
                    if not args and "ids" not in kwargs and db.major <= 17:
                        # 17's call_kw takes the ids as args[0] of a tuple (batch 4,
                        # flow_three_wire_forms_sale_order step 17); 19 not captured
                        raise IndexError("tuple index out of range")
                    ids = args.pop(0) if args else kwargs.pop("ids", [])
                    records = records.browse(ids or [])
                    if method not in SELF_CHECKED and records:
                        access.check_acl(records, "read")
                        crud.check_existing(records)
                        access.check_rules(records, "read")
                    result = func(records, *args, **kwargs)
                return to_jsonable(db, method, result, args, kwargs)
        except IntegrityError as exc:
            raise as_validation_error(db, exc) from exc


def to_jsonable(
    db: Database, method: str, result: Any, args: list[Any], kwargs: dict[str, Any]
) -> Any:
    """Recordsets -> ids (create(dict) -> int, copy -> list from 18 on, int before; 17's
    copy_data -> its one dict)."""
    if isinstance(result, BaseModel):
        if method == "create":
            given = args[0] if args else kwargs.get("vals_list")
            if isinstance(given, dict):
                return result.id
        if method == "copy" and db.major <= COPY_SINGLETON_UNTIL:
            return result.id
        return list(result.ids)
    if method == "copy_data" and db.major <= COPY_SINGLETON_UNTIL and isinstance(result, list):
        # 17's copy_data is @api.returns(None, lambda value: value[0]): call_kw's downgrade
        # answers the one dict (odoo/odoo odoo/models.py 17.0, odoo/api.py downgrade)
        return plain(result[0]) if result else False
    return plain(result)


def plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return list(value.ids)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [plain(v) for v in value]
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, date):
        return value.strftime("%Y-%m-%d")
    return value


def as_validation_error(db: Database, exc: IntegrityError) -> ValidationError:
    """The ValidationError Odoo's ``retrying`` raises for a constraint violation."""
    text = str(exc)
    match = re.search(r'constraint "([^"]+)"', text)
    constraint = match.group(1) if match else ""
    if isinstance(exc, UniqueViolation):
        for cls in db.registry.values():
            table = cls._name.replace(".", "_")
            for name, _definition, message in cls._sql_constraints:
                if f"{table}_{name}" == constraint:
                    return ValidationError(f"The operation cannot be completed: {message}")
    if isinstance(exc, ForeignKeyViolation):
        table_match = re.search(r'on table "([^"]+)"\n', text)
        table = table_match.group(1) if table_match else ""
        model = next((c for c in db.registry.values() if c._name.replace(".", "_") == table), None)
        if db.major >= 19:
            # Odoo 19 names the referencing model and field (err_*_unlink_partner_referenced)
            fname = constraint.removeprefix(f"{table}_").removesuffix("_fkey")
            field = model.fields_for(db.major, db.uninstalled).get(fname) if model else None
            return ValidationError(
                "The operation cannot be completed: Another model is using the record you are "
                "trying to delete.\n\nThe troublemaker is: "
                f"'{model.model_label() if model else table}' ({model._name if model else table})"
                f"\nThanks to the following constraint: '{field.label if field else fname}' "
                f"({fname})\nHow about archiving the record instead?"
            )
        label = f"{model.model_label()} ({model._name})" if model else table
        return ValidationError(
            "The operation cannot be completed: another model requires the record being "
            f"deleted. If possible, archive it instead.\n\nModel: {label}\n"
            f"Constraint: {constraint}\n"
        )
    return ValidationError(f"The operation cannot be completed: {text}")
