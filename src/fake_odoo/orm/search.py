"""``search`` and ordering, imitating ``BaseModel._search`` and ``_order_to_sql``.

The ``order`` string is validated with Odoo's own regular expression
(``UserError 'Invalid "order" specified (...)'``), unknown fields raise
``ValueError "Invalid field 'x' on model 'y'"``.  Sorting follows PostgreSQL:
ASC puts empty values last, DESC first; a many2one sorts by the comodel's
``_order``; text compares case-insensitively (as the en_US collation mostly does).
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from functools import cmp_to_key
from typing import TYPE_CHECKING, Any

from fake_odoo.orm import access
from fake_odoo.orm import domain as D
from fake_odoo.orm.domain_eval import check_legacy, evaluate
from fake_odoo.orm.exceptions import UserError

if TYPE_CHECKING:
    from fake_odoo.orm.model import BaseModel

# odoo.tools.sql / models.py regex_order
REGEX_ORDER = re.compile(
    r"^(\s*([a-z0-9:_]+|\"[a-z0-9:_]+\")(\.id)?(\s+(desc|asc))?"
    r"(\s+(nulls first|nulls last))?\s*(,|$))+(?<!,)$",
    re.IGNORECASE,
)

OrderTerm = tuple[str, bool, bool]  # field name, descending, nulls first
#: sort keys of many2one targets computed during one sort: (comodel, id, depth) -> key
Memo = dict[tuple[str, Any, int], Any]


#: parsed orders by (model class, ``Database.fields_key``, order, _order): sorting a many2one
#: parses its comodel's order once per row, and every one2many read sorts its ids
_PARSED: dict[tuple[type, Hashable, str | None, str], tuple[OrderTerm, ...]] = {}


def parse_order(model: BaseModel, order: str | None) -> list[OrderTerm]:
    """``"name desc, id"`` -> [("name", True, True), ("id", False, False)]."""
    key = (type(model), model.env.db.fields_key, order, model._order)
    cached = _PARSED.get(key)
    if cached is None:
        cached = _PARSED[key] = tuple(_parse_order(model, order))
    return list(cached)


def _parse_order(model: BaseModel, order: str | None) -> list[OrderTerm]:
    spec = order or model._order or "id"
    if not REGEX_ORDER.match(spec):
        raise UserError(
            f'Invalid "order" specified ({spec}). A valid "order" specification is a '
            "comma-separated list of valid field names (optionally followed by asc/desc "
            "for the direction)"
        )
    terms: list[OrderTerm] = []
    for part in spec.split(","):
        words = part.strip().split()
        fname = words[0].strip('"')
        if fname.endswith(".id"):
            fname = fname[:-3]
        desc = len(words) > 1 and words[1].lower() == "desc"
        nulls_first = desc
        lowered = [w.lower() for w in words]
        if "nulls" in lowered:
            nulls_first = lowered[lowered.index("nulls") + 1] == "first"
        field = model._fields.get(fname.split(":")[0])
        if field is None or (not field.store and field.related is None and fname != "id"):
            if field is not None and model._order and fname in model._order:
                continue  # a non-stored field in a declared _order: Odoo skips it too
            raise ValueError(f"Invalid field {fname!r} on model {model._name!r}")
        terms.append((fname, desc, nulls_first))
    return terms


def _sort_value(
    model: BaseModel, fname: str, raw: Any, depth: int, memo: Memo | None = None
) -> Any:
    field = model._fields[fname]
    if memo is None:
        memo = {}
    if raw is None or raw is False or (field.type in ("char", "text", "html") and raw == ""):
        return None
    if field.type == "many2one" and depth < 3:
        comodel = model.env[field.comodel_name]  # type: ignore[attr-defined]
        key = (comodel._name, raw, depth)
        if key in memo:  # many rows sorted together often point at the same record
            return memo[key]
        row = model.env.db.row(comodel._name, raw)
        value = None
        if row is not None:
            value = _key_tuple(comodel, row, parse_order(comodel, None), depth + 1, memo)
        memo[key] = value
        return value
    if isinstance(raw, str):
        return (raw.casefold(), raw)
    return raw


def _row_value(model: BaseModel, row: dict[str, Any], fname: str) -> Any:
    """The raw value of ``fname`` in ``row``, following the path of a related field."""
    if fname == "id":
        return row["id"]
    related = model._fields[fname].related
    if related is None:
        return row.get(fname, False)
    *path, last = related.split(".")
    for name in path:
        target = _row_value(model, row, name)
        model = model.env[model._fields[name].comodel_name]  # type: ignore[attr-defined]
        found = model.env.db.row(model._name, target) if target else None
        if found is None:
            return False
        row = found
    return _row_value(model, row, last)


def _key_tuple(
    model: BaseModel, row: dict[str, Any], terms: list[OrderTerm], depth: int, memo: Memo
) -> Any:
    return tuple(
        (_sort_value(model, f, _row_value(model, row, f), depth, memo), d, n) for f, d, n in terms
    )


def _compare(a: Any, b: Any) -> int:
    for (va, desc, nulls_first), (vb, _, _) in zip(a, b, strict=True):
        if va == vb:
            continue
        if va is None or vb is None:
            first_is_null = va is None
            return (-1 if first_is_null else 1) * (1 if nulls_first else -1)
        if isinstance(va, tuple) and va and isinstance(va[0], tuple):
            result = _compare(va, vb)  # a many2one: the comodel's own order terms
        else:
            try:
                result = -1 if va < vb else (1 if va > vb else 0)
            except TypeError:
                result = -1 if str(va) < str(vb) else 1
        if result:
            return -result if desc else result
    return 0


def order_ids(model: BaseModel, ids: list[int], order: str | None) -> list[int]:
    """``ids`` sorted by ``order`` (default the model's ``_order``), ties by id."""
    terms = parse_order(model, order)
    if not any(term[0] == "id" for term in terms):
        terms = [*terms, ("id", False, False)]
    rows = model.env.db.rows(model._name)
    if len(ids) < 2:
        return [i for i in ids if i in rows]  # nothing to sort (a one2many of one line...)
    memo: Memo = {}
    keyed: list[tuple[Any, int]] = [
        (_key_tuple(model, rows[i], terms, 0, memo), i) for i in ids if i in rows
    ]

    def compare(x: tuple[Any, int], y: tuple[Any, int]) -> int:
        return _compare(x[0], y[0])

    keyed.sort(key=cmp_to_key(compare))
    return [i for _, i in keyed]


def active_domain(model: BaseModel, domain: list[Any]) -> list[Any]:
    """Add ``('active', '=', True)`` as Odoo does unless told otherwise."""
    if (
        "active" in model._fields
        and model.env.context.get("active_test", True)
        and not D.mentions_field(domain, "active")
    ):
        return [*domain, ("active", "=", True)]
    return domain


def search_ids(
    model: BaseModel,
    domain: Any = None,
    offset: int = 0,
    limit: int | None = None,
    order: str | None = None,
    *,
    ordered: bool = True,
) -> list[int]:
    """The ids a user may see matching ``domain``, ordered and paged."""
    access.check_acl(model, "read")
    domain = list(domain or [])
    if D.legacy_expression(model.env.major):
        check_legacy(model, domain)
    node = D.parse(active_domain(model, domain))
    terms_check = parse_order(model, order) if ordered else None
    rule = access.rule_node(model, "read")
    if rule is not None:
        node = D.and_([node, rule])
    found = evaluate(model, node)
    ids = order_ids(model, list(found), order) if terms_check is not None else sorted(found)
    offset = int(offset or 0)
    ids = ids[offset:]
    if limit is not None and limit is not False:
        ids = ids[: int(limit)]
    return ids
