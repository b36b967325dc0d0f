"""SPEC-11 §3 / SPEC-04 §3.8: which argument of which method names which fields.

``odoo_core_execute`` takes any public method with any arguments. For the ORM methods it knows,
this table says what each positional slot and keyword carries (a domain, a field list, an order,
groupby or aggregate specs, a specification, export paths, values, plain data); the slots of a
record method start after the ids. Every argument the table does not declare, and every
argument of a method it does not know, is read by ``field_refs.conservative_refs``: each
identifier in it counts as a field name. So a new method, a new argument form or another Odoo
version is refused when it names a blocked field, instead of passing unseen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Final, Literal

from odoo_mcp.connection.versions import VersionLike, parameters
from odoo_mcp.field_refs import (
    FieldRef,
    aggregate_refs,
    conservative_refs,
    context_refs,
    domain_refs,
    export_refs,
    field_list_refs,
    groupby_refs,
    order_refs,
    specification_refs,
    value_refs,
)

__all__ = ["METHOD_ARGUMENTS", "NAME_SEARCH_METHODS", "call_refs"]

Reader = Callable[[object, str], Iterator[FieldRef]]


def _data(value: object, where: str) -> Iterator[FieldRef]:
    """Plain data (ids, texts, numbers, operation names): no field reference."""
    return iter(())


def _having(value: object, where: str) -> Iterator[FieldRef]:
    """A ``having`` domain: its paths are aggregate specs."""
    for ref in domain_refs(value, where):
        yield from aggregate_refs(".".join(ref.path), where)


_D, _F, _O = domain_refs, field_list_refs, order_refs
#: per method: whether it is a model method (no ids first), and its parameters in order, each
#: with the reader of what it carries (Odoo 19's names; 17's ``args`` for name_search too)
METHOD_ARGUMENTS: Final[Mapping[str, tuple[bool, tuple[tuple[str, Reader], ...]]]] = {
    "search": (True, (("domain", _D), ("offset", _data), ("limit", _data), ("order", _O))),
    "search_count": (True, (("domain", _D), ("limit", _data))),
    "search_read": (
        True,
        (("domain", _D), ("fields", _F), ("offset", _data), ("limit", _data), ("order", _O)),
    ),
    "search_fetch": (
        True,
        (("domain", _D), ("field_names", _F), ("offset", _data), ("limit", _data), ("order", _O)),
    ),
    "read": (False, (("fields", _F), ("load", _data))),
    "fetch": (False, (("field_names", _F),)),
    "read_group": (
        True,
        (
            ("domain", _D),
            ("fields", aggregate_refs),
            ("groupby", groupby_refs),
            ("offset", _data),
            ("limit", _data),
            ("orderby", _O),
            ("lazy", _data),
        ),
    ),
    # Odoo 20's read_group: the formatted_read_group signature (versions.ODOO20); the
    # caller passes no version, so a read_group call is read under both (``READ_GROUP_20``)
    "formatted_read_group": (
        True,
        (
            ("domain", _D),
            ("groupby", groupby_refs),
            ("aggregates", aggregate_refs),
            ("having", _having),
            ("offset", _data),
            ("limit", _data),
            ("order", _O),
        ),
    ),
    "web_read_group": (
        True,
        (
            ("domain", _D),
            ("groupby", groupby_refs),
            ("aggregates", aggregate_refs),
            ("limit", _data),
            ("offset", _data),
            ("order", _O),
        ),
    ),
    "web_search_read": (
        True,
        (
            ("domain", _D),
            ("specification", specification_refs),
            ("offset", _data),
            ("limit", _data),
            ("order", _O),
            ("count_limit", _data),
        ),
    ),
    "web_read": (False, (("specification", specification_refs),)),
    "export_data": (False, (("fields_to_export", export_refs),)),
    "load": (True, (("fields", export_refs), ("data", _data))),
    "name_search": (
        True,
        (
            ("name", _data),
            ("domain", _D),
            ("operator", _data),
            ("limit", _data),
            ("args", _D),
        ),
    ),
    "name_create": (True, (("name", _data),)),
    "name_get": (False, ()),
    "fields_get": (True, (("allfields", _F), ("attributes", _data))),
    "default_get": (True, (("fields_list", _F), ("fields", _F))),
    "copy": (False, (("default", value_refs),)),
    "copy_data": (False, (("default", value_refs),)),
    "create": (True, (("vals_list", value_refs),)),
    "write": (False, (("vals", value_refs),)),
    "onchange": (
        False,
        (("values", value_refs), ("field_names", _F), ("fields_spec", specification_refs)),
    ),
    "check_access_rights": (True, (("operation", _data), ("raise_exception", _data))),
    "check_access_rule": (False, (("operation", _data),)),
    "check_access": (False, (("operation", _data),)),
    "has_access": (False, (("operation", _data),)),
    "check_field_access_rights": (True, (("operation", _data), ("field_names", _F))),
    "get_field_translations": (False, (("field_name", _F), ("langs", _data))),
    "update_field_translations": (
        False,
        (("field_name", _F), ("translations", _data), ("source_lang", _data)),
    ),
    "exists": (False, ()),
    "unlink": (False, ()),
    "toggle_active": (False, ()),
    "action_archive": (False, ()),
    "action_unarchive": (False, ()),
    "get_metadata": (False, ()),
    "message_post": (
        False,
        (
            ("body", _data),
            ("subject", _data),
            ("message_type", _data),
            ("subtype_xmlid", _data),
            ("partner_ids", _data),
            ("attachment_ids", _data),
            ("body_is_html", _data),
        ),
    ),
}
#: Odoo 20's ``read_group(domain, groupby, aggregates, having, offset, limit, order)``: read
#: as ``formatted_read_group``, looked up at each call (one table, one owner: a reader
#: replaced there is replaced for both)
READ_GROUP_20: Final = "formatted_read_group"
#: REQ-11-14: methods that run the model's own name search on their text
NAME_SEARCH_METHODS: Final = frozenset({"name_search"})


def _ids_reader(value: object, where: str) -> Iterator[FieldRef]:
    """The ids of a record method: a list of ints, or an int; anything else is read
    conservatively."""
    if isinstance(value, int) or (
        isinstance(value, list | tuple) and all(isinstance(v, int) for v in value)
    ):
        return iter(())
    return conservative_refs(value, where)


def _action_like(method: str) -> bool:
    # action_*/button_* take the ids and nothing else that names a field
    return method.startswith(("action_", "button_"))


def call_refs(
    method: str,
    args: Sequence[object],
    kwargs: Mapping[str, object],
    *,
    version: VersionLike | Literal["unknown"] = "unknown",
) -> Iterator[FieldRef]:
    """REQ-11-14: every field reference an execute call makes, read per declared argument;
    an undeclared argument (or method) is read conservatively (fails closed).

    ``read_group`` changed signature on 20 (``fields``/``lazy`` gone, ``aggregates``/
    ``having`` added): read under the version's signature when ``version`` is given, under
    both (every reference either names) when it is not."""
    if method == "read_group":
        if version == "unknown":
            yield from _call_refs("read_group", args, kwargs, METHOD_ARGUMENTS["read_group"])
            new_form = METHOD_ARGUMENTS[READ_GROUP_20]
            yield from _call_refs("read_group", args, kwargs, new_form, context=False)
            return
        new = parameters("read_group", version)[1] == "groupby"
        declared = METHOD_ARGUMENTS[READ_GROUP_20 if new else "read_group"]
        yield from _call_refs(method, args, kwargs, declared)
        return
    yield from _call_refs(method, args, kwargs, METHOD_ARGUMENTS.get(method))


def _call_refs(
    method: str,
    args: Sequence[object],
    kwargs: Mapping[str, object],
    declared: tuple[bool, tuple[tuple[str, Reader], ...]] | None,
    *,
    context: bool = True,
) -> Iterator[FieldRef]:
    """``call_refs`` under one declaration (None: undeclared, read conservatively)."""
    if declared is None and _action_like(method):
        declared = (False, ())
    inline = kwargs.get("context")  # the tool's own ``context`` is the dispatcher's to check
    if context and isinstance(inline, Mapping):
        yield from context_refs(inline, "kwargs.context")
    if declared is None:
        for index, arg in enumerate(args):
            yield from conservative_refs(arg, f"args[{index}]")
        for key, value in kwargs.items():
            if key != "context":
                yield from conservative_refs(value, f"kwargs.{key}")
        return
    is_model_method, params = declared
    readers = dict(params)
    positional: list[tuple[str, Reader]] = [] if is_model_method else [("ids", _ids_reader)]
    positional += [p for p in params if p[0] != "args" or method != "name_search"]
    for index, arg in enumerate(args):
        name, reader = positional[index] if index < len(positional) else ("", conservative_refs)
        yield from reader(arg, f"args[{index}]" + (f" ({name})" if name else ""))
    for key, value in kwargs.items():
        if key == "context":
            continue
        reader = readers.get(key, conservative_refs)
        yield from reader(value, f"kwargs.{key}")
