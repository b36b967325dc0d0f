"""Evaluating a domain against the records of a model, as Odoo's SQL would.

Semantics follow Odoo 17-19: ``('f', '=', False)`` matches empty values,
negative operators (``!=``, ``not in``, ``not ilike``...) are the complement of
their positive form (so they match empty values too), dotted paths become
``any`` on the relation (``not any`` of the positive condition for a negative
operator on an x2many), a string compared with a relational field is a name
search on the comodel, and ``child_of``/``parent_of`` walk ``_parent_name``.
Errors carry Odoo's texts (``Invalid field res.partner.x in condition (...)``).
Every node is evaluated even when no candidate is left, so a bad domain
always raises, as in Odoo where the whole domain is compiled first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from fake_odoo.orm import domain as D
from fake_odoo.orm.fields import Field

if TYPE_CHECKING:
    from fake_odoo.orm.model import BaseModel

X2MANY = ("one2many", "many2many")
NUMERIC = ("integer", "float", "monetary")


def evaluate(model: BaseModel, domain: Any, ids: Iterable[int] | None = None) -> set[int]:
    """The ids among ``ids`` (default: all records) matching ``domain`` (list or tree)."""
    node = domain if isinstance(domain, tuple) else D.parse(domain)
    candidates = set(model.env.db.rows(model._name) if ids is None else ids)
    return _Evaluator(model).run(node, candidates)


def filter_ids(model: BaseModel, domain: Any, ids: Iterable[int]) -> list[int]:
    """``ids`` matching ``domain``, in their given order."""
    ids = list(ids)
    keep = evaluate(model, domain, ids)
    return [i for i in ids if i in keep]


def is_empty(ftype: str, value: Any) -> bool:
    if value is None or value is False:
        return True
    if ftype in X2MANY:
        return not value
    if ftype in ("char", "text", "html", "selection"):
        return bool(value == "")
    return ftype in NUMERIC and bool(value == 0)


@lru_cache(maxsize=512)
def like_regex(pattern: str, wrap: bool, insensitive: bool) -> re.Pattern[str]:
    """SQL LIKE pattern -> regex (``%`` any run, ``_`` one char, backslash escapes)."""
    out: list[str] = []
    chars = iter(pattern)
    for char in chars:
        if char == "\\":
            out.append(re.escape(next(chars, "\\")))
        elif char == "%":
            out.append(".*")
        elif char == "_":
            out.append(".")
        else:
            out.append(re.escape(char))
    body = "".join(out)
    if wrap:
        body = f".*{body}.*"
    return re.compile(body, re.DOTALL | (re.IGNORECASE if insensitive else 0))


def _norm(ftype: str, value: Any) -> Any:
    """Make a domain value comparable with a raw stored value of that field type."""
    if hasattr(value, "strftime"):
        fmt = "%Y-%m-%d %H:%M:%S" if ftype == "datetime" else "%Y-%m-%d"
        return value.strftime(fmt)
    if ftype == "datetime" and isinstance(value, str) and len(value) == 10:
        return value + " 00:00:00"
    if hasattr(value, "_ids"):  # a recordset given in a Python-side domain
        return value.id
    return value


def _equal(ftype: str, stored: Any, value: Any) -> bool:
    if value is False or value is None:
        return is_empty(ftype, stored)
    if ftype == "boolean":
        return bool(stored) == bool(value)
    return bool(stored == _norm(ftype, value))


def match_value(ftype: str, stored: Any, operator: str, value: Any) -> bool:
    """Whether one raw (non-x2many) stored value satisfies ``operator value``."""
    if operator == "=?":
        if value is None or value is False:
            return True
        operator = "="
    positive = D.NEGATIVE_OPERATORS.get(operator)
    if positive is not None:
        return not match_value(ftype, stored, positive, value)
    if operator == "=":
        return _equal(ftype, stored, value)
    if operator == "in":
        values = value if isinstance(value, (list, tuple, set, frozenset)) else [value]
        return any(_equal(ftype, stored, v) for v in values)
    if operator in ("<", ">", "<=", ">="):
        if value is None or value is False or (stored is None or stored is False):
            return False
        value = _norm(ftype, value)
        try:
            if operator == "<":
                return bool(stored < value)
            if operator == ">":
                return bool(stored > value)
            if operator == "<=":
                return bool(stored <= value)
            return bool(stored >= value)
        except TypeError:
            return False
    # like family
    if value is None or value is False:
        return is_empty(ftype, stored)
    if stored is None or stored is False:
        return False
    regex = like_regex(str(value), operator in ("like", "ilike"), operator in ("ilike", "=ilike"))
    return regex.fullmatch(str(stored)) is not None


class _Evaluator:
    def __init__(self, model: BaseModel) -> None:
        self.model = model
        self.env = model.env
        self.db = model.env.db

    def run(self, node: D.Node, candidates: set[int]) -> set[int]:
        kind = node[0]
        if kind == "true":
            return set(candidates)
        if kind == "false":
            return set()
        if kind == "not":
            return candidates - self.run(node[1], candidates)
        if kind == "and":
            result = set(candidates)
            for child in node[1]:
                result = self.run(child, result)
            return result
        if kind == "or":
            found: set[int] = set()
            for child in node[1]:
                found |= self.run(child, candidates)
            return found
        return self.leaf(node[1], node[2], node[3], candidates)

    def _error(self, template: str, *args: Any, cond: tuple[Any, Any, Any]) -> ValueError:
        return ValueError(template % args + " in condition " + D.condition_repr(*cond))

    def _sub(self, comodel: str, active_test: bool) -> BaseModel:
        sub: BaseModel = self.env[comodel].with_context(active_test=active_test)
        return sub

    def leaf(self, fexpr: Any, operator: Any, value: Any, candidates: set[int]) -> set[int]:
        model = self.model
        cond = (fexpr, operator, value)
        if not isinstance(operator, str) or operator not in D.operators(self.env.major):
            raise self._error("Invalid operator", cond=cond)
        if not isinstance(fexpr, str):
            raise self._error("Invalid field %s.%s", model._name, fexpr, cond=cond)
        fname, _, rest = fexpr.partition(".")
        field = model._fields.get(fname)
        if field is None:
            raise self._error("Invalid field %s.%s", model._name, fname, cond=cond)
        if rest:
            if not field.relational:
                raise self._error("Invalid field %s.%s", model._name, fexpr, cond=cond)
            positive = D.NEGATIVE_OPERATORS.get(operator)
            if field.type in X2MANY and positive is not None:
                return self.leaf(fname, "not any", [[rest, positive, value]], candidates)
            return self.leaf(fname, "any", [[rest, operator, value]], candidates)
        if operator in ("child_of", "parent_of"):
            return self._hierarchy(field, operator, value, candidates)
        if operator in ("any", "not any"):
            return self._any(field, operator, value, candidates, cond)
        if fname == "display_name" and not field.store and model._rec_names_search:
            return self._rec_names(operator, value, candidates)
        if field.relational and _is_name(value) and operator not in ("=?",):
            return self._name_condition(field, operator, value, candidates)
        if not field.store and field.search and field.type != "one2many":
            sub = getattr(model, field.search)(operator, value)
            return evaluate(model, sub, candidates)
        return self._scan(field, operator, value, candidates)

    def _values(self, field: Field, candidates: set[int]) -> Iterable[tuple[int, Any]]:
        rows = self.db.rows(self.model._name)
        fname = field.name
        if fname == "id":
            return ((i, i) for i in candidates if i in rows)
        if field.type == "one2many":
            index = self.db.o2m_index(field.comodel_name, field.inverse_name)  # type: ignore[attr-defined]
            return ((i, index.get(i, [])) for i in candidates if i in rows)
        if not field.store:
            records = self.model.browse(sorted(i for i in candidates if i in rows))
            return ((rec.id, rec._raw(fname)) for rec in records)
        return ((i, rows[i].get(fname, False)) for i in candidates if i in rows)

    def _scan(self, field: Field, operator: str, value: Any, candidates: set[int]) -> set[int]:
        ftype = field.type
        if ftype in X2MANY:
            positive = D.NEGATIVE_OPERATORS.get(operator)
            if positive is not None:
                return candidates - self._scan(field, positive, value, candidates)
            return {
                i for i, v in self._values(field, candidates) if _x2many_match(v, operator, value)
            }
        return {
            i for i, v in self._values(field, candidates) if match_value(ftype, v, operator, value)
        }

    def _any(
        self, field: Field, operator: str, value: Any, candidates: set[int], cond: tuple[Any, ...]
    ) -> set[int]:
        if not field.relational:
            raise self._error("Invalid field %s.%s", self.model._name, field.name, cond=cond)
        comodel_name: str = field.comodel_name  # type: ignore[attr-defined]
        # many2one paths ignore archived-ness of the target, x2many honour active_test
        active_test = field.type != "many2one" and self.env.context.get("active_test", True)
        sub = self._sub(comodel_name, bool(active_test))
        node = value if isinstance(value, tuple) else D.parse(value)
        if "active" in sub._fields and active_test:
            node = D.and_([node, ("leaf", "active", "=", True)])
        matching = _Evaluator(sub).run(node, set(self.db.rows(comodel_name)))
        found = {i for i, v in self._values(field, candidates) if _touches(v, matching)}
        return found if operator == "any" else candidates - found

    def _name_condition(
        self, field: Field, operator: str, value: Any, candidates: set[int]
    ) -> set[int]:
        positive = D.NEGATIVE_OPERATORS.get(operator, operator)
        if positive == "=" and isinstance(value, str):
            sub_op, sub_value = "=", value
        elif positive == "in":
            names = value if isinstance(value, list) else [value]
            found = set()
            for name in names:
                found |= self._name_condition(field, "=", name, candidates)
            return found if operator == "in" else candidates - found
        else:
            sub_op, sub_value = positive, value
        comodel_name: str = field.comodel_name  # type: ignore[attr-defined]
        sub = self._sub(comodel_name, False)
        matching = _Evaluator(sub).leaf(
            "display_name", sub_op, sub_value, set(self.db.rows(comodel_name))
        )
        found = {i for i, v in self._values(field, candidates) if _touches(v, matching)}
        return found if positive == operator else candidates - found

    def _rec_names(self, operator: str, value: Any, candidates: set[int]) -> set[int]:
        positive = D.NEGATIVE_OPERATORS.get(operator)
        if positive is not None:
            return candidates - self._rec_names(positive, value, candidates)
        found: set[int] = set()
        for fname in self.model._rec_names_search or []:
            found |= self.leaf(fname, operator, value, candidates)
        return found

    def _hierarchy(self, field: Field, operator: str, value: Any, candidates: set[int]) -> set[int]:
        model = self.model
        comodel_name = model._name if field.name == "id" else getattr(field, "comodel_name", "")
        comodel = self._sub(comodel_name, False)
        parent = comodel._parent_name
        ids = self._to_ids(comodel, value)
        if parent not in comodel._fields:
            raise self._error(
                "Invalid field %s.%s",
                comodel_name,
                parent,
                cond=(parent, "in", _OrderedSet(ids)),
            )
        rows = self.db.rows(comodel_name)
        if operator == "child_of":
            children: dict[int, list[int]] = {}
            for rid, row in rows.items():
                if row.get(parent):
                    children.setdefault(row[parent], []).append(rid)
            result, todo = set(ids), list(ids)
            while todo:
                for child in children.get(todo.pop(), []):
                    if child not in result:
                        result.add(child)
                        todo.append(child)
        else:
            result = set()
            for rid in ids:
                while rid and rid not in result and rid in rows:
                    result.add(rid)
                    rid = rows[rid].get(parent) or 0
        return self._scan(field, "in", sorted(result), candidates) if result else set()

    def _to_ids(self, comodel: BaseModel, value: Any) -> list[int]:
        values = value if isinstance(value, list) else [value]
        ids: list[int] = []
        for item in values:
            if isinstance(item, str):
                rec_name = comodel._rec_name_field() or "display_name"
                found = evaluate(comodel, [(rec_name, "ilike", item)])
                ids.extend(sorted(found))
            elif item and isinstance(item, int):
                ids.append(item)
        return list(dict.fromkeys(ids))


class _OrderedSet(list[int]):
    """Prints as Odoo's ``OrderedSet([1, 2])`` inside error messages."""

    def __repr__(self) -> str:
        return f"OrderedSet({list(self)!r})"


def _is_name(value: Any) -> bool:
    if isinstance(value, str):
        return True
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def _touches(stored: Any, matching: set[int]) -> bool:
    if isinstance(stored, list):
        return any(i in matching for i in stored)
    return bool(stored) and stored in matching


def _x2many_match(stored: list[int], operator: str, value: Any) -> bool:
    if operator == "=?":
        if value is None or value is False:
            return True
        operator = "="
    if operator in ("=", "in"):
        values = value if isinstance(value, (list, tuple, set)) else [value]
        if any(v is False or v is None for v in values) and not stored:
            return True
        return any(_norm("many2many", v) in stored for v in values)
    return False
