"""SPEC-11 §3 (REQ-11-12/14): every way Odoo names a field, read in one place.

Odoo names fields in many spellings: domain leaves (dotted paths, ``any`` sub-domains, string
values on relational fields that make Odoo run the comodel's name search), ``order`` strings,
``read_group`` groupby specs (``f``, ``f:month``) and aggregate specs (``f:sum``,
``alias:agg(f)``), ``web_read`` specifications, export paths (``a/b``), field lists and
context keys (``group_by``, ``order``, ``default_<f>``, ``show_email``). This module turns each
of them into :class:`FieldRef` values; it knows no policy and makes no Odoo call. The safety
policy (``SafetyPolicy.check_references``) resolves the paths against the registry and refuses
a reference to a blocked field, and ``safety.execute_args`` says which argument of which method
carries which kind. A string nobody declared is read by :func:`conservative_refs`, which takes
every identifier in it for a field name: a channel nobody thought of fails closed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Final, Literal

__all__ = [
    "CONTEXT_DISPLAY_FIELDS",
    "CONTEXT_FIELD_PREFIXES",
    "FieldRef",
    "RefKind",
    "aggregate_refs",
    "conservative_refs",
    "context_refs",
    "domain_refs",
    "export_refs",
    "field_list_refs",
    "groupby_refs",
    "order_refs",
    "specification_refs",
    "value_refs",
]

RefKind = Literal[
    "domain",
    "fields",
    "order",
    "groupby",
    "aggregate",
    "specification",
    "export",
    "values",
    "context",
    "unknown",
]

#: context keys that make Odoo render a record's name with more fields (``display_name`` and
#: every many2one value then carry them): res.partner's name rendering options
CONTEXT_DISPLAY_FIELDS: Final[Mapping[str, tuple[str, ...]]] = {
    "show_email": ("email",),
    "show_vat": ("vat",),
    "show_address": ("street", "street2", "zip", "city", "state_id", "country_id"),
    "show_address_only": ("street", "street2", "zip", "city", "state_id", "country_id"),
    "formatted_display_name": ("email", "vat", "street", "city"),
}
#: context keys whose value is a groupby spec or an order string
_CONTEXT_GROUPBY: Final = frozenset({"group_by", "group_by_no_leaf"})
_CONTEXT_ORDER: Final = frozenset({"order", "orderby", "default_order"})
#: context key prefixes followed by a field name: default values (a write) and search filters
CONTEXT_FIELD_PREFIXES: Final = ("search_default_", "default_")
#: the identifiers inside any string (letters, digits, underscores; dots join path segments)
_IDENTIFIER: Final = re.compile(r"[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*")
#: ``name``, ``name:func``, ``alias:func(field)``, each part possibly dotted
_SPEC: Final = re.compile(
    r"^\s*\"?(?P<name>[\w.]+)\"?\s*(?::\s*(?P<func>\w+)\s*(?:\(\s*(?P<arg>[\w.]*)\s*\))?)?\s*$"
)
_SUBDOMAIN_OPERATORS: Final = frozenset({"any", "not any", "any!", "not any!"})


@dataclass(frozen=True, slots=True)
class FieldRef:
    """REQ-11-14: one field reference: its path from the call's model, the kind of argument
    it was found in and where (``args[2]``, ``kwargs.groupby``), and whether its condition
    makes Odoo run a name search on the field's comodel (a string value on a relational
    field, or any condition on ``display_name``)."""

    path: tuple[str, ...]
    kind: RefKind
    where: str
    searches_names: bool = False

    @property
    def dotted(self) -> str:
        """The path as Odoo writes it in a domain."""
        return ".".join(self.path)


_SEPARATORS: Final = re.compile(r"[./]")
#: what ``_split`` would change in a name: separators, quotes, blanks at either end
_PLAIN: Final = re.compile(r"[^\s./\"](?:[^./\"]*[^\s./\"])?")


def _split(text: str) -> tuple[str, ...]:
    if _PLAIN.fullmatch(text):  # one plain name (a field list's): itself (issue 41)
        return (text,)
    return tuple(part for part in _SEPARATORS.split(text.strip().strip('"')) if part)


def _has_text(value: object) -> bool:
    """A condition value that Odoo resolves by name (a string, or a list holding one)."""
    if isinstance(value, str):
        return True
    return isinstance(value, list | tuple) and any(isinstance(item, str) for item in value)


def _is_leaf(item: object) -> bool:
    return isinstance(item, list | tuple) and len(item) == 3 and isinstance(item[0], str)


def domain_refs(domain: object, where: str, prefix: tuple[str, ...] = ()) -> Iterator[FieldRef]:
    """REQ-11-14: the paths a domain filters on, ``any`` sub-domains included (their paths
    continue the leaf's), whatever the operator's case or validity; a leaf whose value Odoo
    resolves by name (a string on a relational field) is marked ``searches_names``."""
    if not isinstance(domain, list | tuple):
        return
    pending: list[tuple[object, tuple[str, ...]]] = [(domain, prefix)]
    while pending:  # a loop, not recursion: a hostile domain may nest deeper than the stack
        items, base = pending.pop()
        if not isinstance(items, list | tuple):
            continue
        for item in items:
            if _is_leaf(item):
                assert isinstance(item, list | tuple)
                path = base + _split(item[0])
                operator = item[1].strip().lower() if isinstance(item[1], str) else ""
                value = item[2]
                if operator in _SUBDOMAIN_OPERATORS:
                    yield FieldRef(path, "domain", where)
                    pending.append((value, path))
                    continue
                # display_name is searched through the model's name search whatever the
                # value (``= False`` is a condition on every name-search field too)
                names = _has_text(value) or (bool(path) and path[-1] == "display_name")
                yield FieldRef(path, "domain", where, searches_names=names)
                if isinstance(value, list | tuple) and any(_is_leaf(v) for v in value):
                    pending.append((value, path))  # a sub-domain under another operator
            elif isinstance(item, list | tuple):
                pending.append((item, base))  # nested lists: read them as domains too


def _spec_parts(text: str) -> tuple[str, str | None, str | None] | None:
    match = _SPEC.match(text)
    if match is None:
        return None
    return match["name"], match["func"], match["arg"]


def groupby_refs(value: object, where: str, prefix: tuple[str, ...] = ()) -> Iterator[FieldRef]:
    """REQ-11-14: ``read_group`` groupby specs (``f``, ``f:month``, ``a.b``), one or a list."""
    for text in value if isinstance(value, list | tuple) else [value]:
        yield from _spec_refs(text, "groupby", where, prefix)


def aggregate_refs(value: object, where: str, prefix: tuple[str, ...] = ()) -> Iterator[FieldRef]:
    """REQ-11-14: aggregate specs (``f``, ``f:sum``, ``alias:array_agg(f)``, ``__count``); an
    alias is taken for a field name too (Odoo reads ``f:agg`` that way)."""
    for text in value if isinstance(value, list | tuple) else [value]:
        yield from _spec_refs(text, "aggregate", where, prefix)


def _spec_refs(
    text: object, kind: RefKind, where: str, prefix: tuple[str, ...]
) -> Iterator[FieldRef]:
    if not isinstance(text, str):
        yield from conservative_refs(text, where)
        return
    parts = _spec_parts(text)
    if parts is None:  # not a spec Odoo reads: every identifier in it counts
        yield from conservative_refs(text, where)
        return
    name, _func, arg = parts
    yield FieldRef(prefix + _split(name), kind, where)
    if arg:
        yield FieldRef(prefix + _split(arg), kind, where)


def order_refs(value: object, where: str, prefix: tuple[str, ...] = ()) -> Iterator[FieldRef]:
    """REQ-11-14: an order string: comma-separated terms, each a field (or an aggregate spec
    in read_group's ``orderby``) followed by a direction."""
    if not isinstance(value, str):
        yield from conservative_refs(value, where)
        return
    for term in value.split(","):
        words = term.split()
        if not words:
            continue
        yield from _spec_refs(words[0], "order", where, prefix)
        for extra in words[1:]:
            if extra.lower() not in ("asc", "desc", "nulls", "first", "last"):
                yield from conservative_refs(extra, where)


def field_list_refs(value: object, where: str, prefix: tuple[str, ...] = ()) -> Iterator[FieldRef]:
    """REQ-11-14: a list of field names (or one name), dotted or slashed paths included."""
    for item in value if isinstance(value, list | tuple) else [value]:
        if isinstance(item, str):
            yield FieldRef(prefix + _split(item), "fields", where)
        elif item is not None and not isinstance(item, bool | int | float):
            yield from conservative_refs(item, where)


def export_refs(value: object, where: str) -> Iterator[FieldRef]:
    """REQ-11-14: export paths (``partner_id/email``, ``partner_id/.id``)."""
    for item in value if isinstance(value, list | tuple) else [value]:
        if isinstance(item, str):
            path = tuple(p for p in _split(item) if p not in ("id", ".id"))
            if path:
                yield FieldRef(path, "export", where)
        else:
            yield from conservative_refs(item, where)


def specification_refs(
    value: object, where: str, prefix: tuple[str, ...] = ()
) -> Iterator[FieldRef]:
    """REQ-11-14: a ``web_read`` / ``web_search_read`` / ``onchange`` specification: keys are
    fields, a nested ``fields`` continues the path, ``order`` and ``context`` are read as such."""
    if not isinstance(value, Mapping):
        yield from conservative_refs(value, where)
        return
    for key, sub in value.items():
        if not isinstance(key, str):
            continue
        path = prefix + _split(key)
        yield FieldRef(path, "specification", where)
        if not isinstance(sub, Mapping):
            continue
        for option, item in sub.items():
            if option == "fields":
                yield from specification_refs(item, where, path)
            elif option == "order":
                yield from order_refs(item, where, path)
            elif option == "context":
                yield from context_refs(item, where)
            elif option == "domain":
                yield from domain_refs(item, where, path)
            elif option not in ("limit", "offset"):
                yield from conservative_refs(item, where)


def value_refs(value: object, where: str) -> Iterator[FieldRef]:
    """REQ-11-14: create/write values: the keys are fields, x2many commands nest more values;
    the values themselves are data."""
    for values in value if isinstance(value, list | tuple) else [value]:
        if not isinstance(values, Mapping):
            continue
        for key, item in values.items():
            if isinstance(key, str):
                yield FieldRef(_split(key), "values", where)
            if isinstance(item, list | tuple):
                for command in item:
                    if isinstance(command, list | tuple) and len(command) == 3:
                        yield from value_refs(command[2], where)


def context_refs(value: object, where: str) -> Iterator[FieldRef]:
    """REQ-11-14: context keys that carry field names: ``group_by``, ``order``,
    ``default_<f>`` and ``search_default_<f>``, and the name-rendering options that add
    fields to every record name (``show_email``)."""
    if not isinstance(value, Mapping):
        return
    for key, item in value.items():
        if not isinstance(key, str):
            continue
        if key in _CONTEXT_GROUPBY:
            yield from groupby_refs(item, f"{where}.{key}")
        elif key in _CONTEXT_ORDER:
            yield from order_refs(item, f"{where}.{key}")
        elif key in CONTEXT_DISPLAY_FIELDS and item:
            for name in CONTEXT_DISPLAY_FIELDS[key]:
                yield FieldRef((name,), "context", f"{where}.{key}")
        else:
            for start in CONTEXT_FIELD_PREFIXES:
                if key.startswith(start) and len(key) > len(start):
                    yield FieldRef(_split(key[len(start) :]), "context", f"{where}.{key}")
                    break


def conservative_refs(value: object, where: str) -> Iterator[FieldRef]:
    """REQ-11-14: an argument nobody declared: every key and every identifier in every string
    is taken for a field name, and any domain leaf in it is read as a domain leaf."""
    pending: list[object] = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            for token in _IDENTIFIER.findall(item):
                yield FieldRef(_split(token), "unknown", where)
        elif isinstance(item, Mapping):
            for key, sub in item.items():
                pending.append(key)
                pending.append(sub)
        elif isinstance(item, list | tuple):
            if _is_leaf(item):
                yield from domain_refs([item], where)
                pending.append(item[2])
            else:
                pending.extend(item)
