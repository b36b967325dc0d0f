"""SPEC-02 / L2-02b: positional ``execute_kw`` arguments -> JSON-2 named parameters.

JSON-2 (Odoo 19, decision 6) takes named parameters only: ``ids`` for the records and each
method parameter by name. The generic ``execute_kw(model, method, args, kwargs)`` speaks the
positional convention of XML-RPC, where a record method's first positional argument is its ids.

The names come from Odoo 19's declared signatures (``signatures_odoo19``: the model's own
methods, then ``BaseModel``'s), the table the fake Odoo binds its JSON-2 bodies to. For what
that capture lacks (methods private in 19, or added by a module it did not inspect), the
version table (``versions.py``) gives the names at JSON-2's first version, 19.0, and whether
the method takes ids (``@api.model`` ones do not):

==========================  =======  =====================================================
method                      ids?     positional args, in order
==========================  =======  =====================================================
search_read                 no       domain, fields, offset, limit, order
search                      no       domain, offset, limit, order
search_count                no       domain, limit
read                        yes      fields, load
write                       yes      vals
create                      no       vals_list
unlink                      yes      -
copy                        yes      default
fields_get                  no       allfields, attributes
name_search                 no       name, domain (``args`` up to 18.0), operator, limit
name_create                 no       name
read_group                  no       domain, fields, groupby, offset, limit, orderby, lazy
formatted_read_group        no       domain, groupby, aggregates, having, offset, limit, order
default_get                 no       fields (``fields_list`` up to 18)
check_access_rights         no       operation, raise_exception
has_access                  yes      operation
check_access_rule           yes      operation
context_get                 no       - (res.users; in neither capture)
action_*, button_*          yes      - (further arguments must be passed by name)
anything else               yes if the first positional argument is an id or a list of ids
==========================  =======  =====================================================

(``search_fetch``, ``exists`` and ``check_access`` are in the version table too but private
in 19: JSON-2 refuses them whatever the body.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from odoo_mcp.connection.base import OdooValue
from odoo_mcp.connection.errors import OdooConfigurationError
from odoo_mcp.connection.signatures_odoo19 import BASE, MODELS
from odoo_mcp.connection.versions import JSON2_SINCE, METHODS, exists, parameters

__all__ = ["JSON2_PARAMS", "declared_params", "to_named_params"]

# (takes ids, positional parameter names after the ids): the version table at 19.0, plus
# res.users.context_get, which neither capture inspected
JSON2_PARAMS: Final[Mapping[str, tuple[bool, tuple[str, ...]]]] = {
    **{
        method: (not entry.model_method, parameters(method, JSON2_SINCE))
        for method, entry in METHODS.items()
        if exists(method, JSON2_SINCE)
    },
    "context_get": (False, ()),
}

_RECORD_METHOD_PREFIXES = ("action_", "button_")


def _is_ids(value: OdooValue) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, list | tuple) and all(
        isinstance(item, int) and not isinstance(item, bool) for item in value
    )


def _as_ids(value: OdooValue) -> list[int]:
    return [value] if isinstance(value, int) else list(value)


def declared_params(model: str, method: str) -> tuple[bool, tuple[str, ...]] | None:
    """(takes ids, positional parameter names) of ``model.method`` as Odoo 19 declares it."""
    own = MODELS.get(model, {})
    entry = own[method] if method in own else BASE.get(method)
    if entry is None:
        return JSON2_PARAMS.get(method)
    return not entry.startswith("@"), tuple(entry.removeprefix("@").split())


def to_named_params(
    model: str, method: str, args: Sequence[OdooValue], kwargs: Mapping[str, OdooValue]
) -> dict[str, OdooValue]:
    """REQ-02b-09: map ``execute_kw`` positional args to JSON-2's named body (decision 6)."""
    body: dict[str, OdooValue] = {}
    positional = list(args)
    known = declared_params(model, method)
    if known is not None:
        takes_ids, names = known
    else:
        # Public record methods (action_confirm, button_validate) take ids first; for any other
        # method an id list in first position can only be ids, as in Odoo's own call_kw.
        takes_ids = method.startswith(_RECORD_METHOD_PREFIXES) or (
            bool(positional) and _is_ids(positional[0])
        )
        names = ()
    if takes_ids and positional:
        ids = positional.pop(0)
        if not _is_ids(ids):
            raise OdooConfigurationError(
                f"{model}.{method}: the first argument must be record ids, got {ids!r}"
            )
        body["ids"] = _as_ids(ids)
    if len(positional) > len(names):
        extra = positional[len(names) :]
        raise OdooConfigurationError(
            f"{model}.{method}: JSON-2 takes named parameters only; pass {extra!r} as keyword "
            f"arguments (known positional names: {list(names) or 'none'})"
        )
    for name, value in zip(names, positional, strict=False):
        if name in kwargs:
            raise OdooConfigurationError(f"{model}.{method}: {name!r} given twice")
        body[name] = value
    for name, value in kwargs.items():
        if name == "context":
            continue  # the adapter merges and sends the context itself
        body[name] = value
    return body
