"""Evaluating a domain against the records of a model, as Odoo's SQL would.

Semantics follow Odoo 17-19: ``('f', '=', False)`` matches empty values,
negative operators (``!=``, ``not in``, ``not ilike``...) are the complement of
their positive form (so they match empty values too), dotted paths become
``any`` on the relation (``not any`` of the positive condition for a negative
operator on an x2many), a string compared with a relational field is a name
search on the comodel, and ``child_of``/``parent_of`` walk ``_parent_name``.
Errors carry Odoo's texts (``Invalid field res.partner.x in condition (...)``; Odoo 17's
``in leaf`` ones and its up-front checks are ``check_legacy``).
Every node is evaluated even when no candidate is left, so a bad domain
always raises, as in Odoo where the whole domain is compiled first.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any

from fake_odoo.orm import domain as D
from fake_odoo.orm.domain_match import X2MANY, is_name, touches, x2many_match
from fake_odoo.orm.domain_match import is_empty as is_empty
from fake_odoo.orm.domain_match import like_regex as like_regex
from fake_odoo.orm.domain_match import match_value as match_value
from fake_odoo.orm.fields import Field

if TYPE_CHECKING:
    from fake_odoo.orm.model import BaseModel

#: candidate ids: a set, or the live key view of a table's rows (see ``evaluate``)
Ids = AbstractSet[int]


def evaluate(model: BaseModel, domain: Any, ids: Iterable[int] | None = None) -> set[int]:
    """The ids among ``ids`` (default: all records) matching ``domain`` (list or tree)."""
    node = domain if isinstance(domain, tuple) else D.parse(domain)
    # All rows as a live key view, not a copy: a search answered from an index (or an
    # ``and`` narrowed by its first condition) then costs no pass over the whole table.
    rows = model.env.db.rows(model._name)
    candidates: Ids = rows.keys() if ids is None else set(ids)
    return _Evaluator(model).run(node, candidates)


def check_legacy(model: BaseModel, domain: list[Any]) -> None:
    """The checks Odoo 17 makes before evaluating a domain, in its order and with its texts.

    ``normalize_domain`` (syntax), then ``_anyfy_leaves`` (each item unpacked as a
    ``(left, operator, right)`` triple with Python's own errors, field names resolved
    along dotted paths and into ``any``), then ``check_leaf`` (operators).
    """
    D.check_syntax(domain)
    _anyfy(model, domain)
    _check_leaves(model, domain)


def _anyfy(model: BaseModel, domain: Any) -> None:
    for item in domain:
        if isinstance(item, str) and item in ("!", "&", "|"):
            continue
        left, operator, right = item = tuple(item)
        if item in ((1, "=", 1), (0, "=", 1)):
            continue
        path = left.split(".", 1)
        field = model._fields.get(path[0])
        if field is None:
            raise ValueError(f"Invalid field {model._name}.{path[0]} in leaf {item}")
        comodel = getattr(field, "comodel_name", None)
        if comodel is None:
            continue
        if len(path) > 1 and field.relational:
            _anyfy(model.env[comodel], [(path[1], operator, right)])
        elif operator in D.HIERARCHY_OPERATORS and isinstance(right, (list, tuple)):
            _anyfy(model.env[comodel], right)


def _check_leaves(model: BaseModel, domain: Any) -> None:
    for item in domain:
        if isinstance(item, str) and item in ("!", "&", "|"):
            continue
        left, operator, right = item
        fname, _, rest = left.partition(".") if isinstance(left, str) else ("", "", "")
        field = model._fields.get(fname)
        comodel = getattr(field, "comodel_name", None)
        if rest and comodel is not None:
            # a dotted path became ``(fname, 'any', [(rest, operator, right)])``: that leaf is
            # valid, the rest is checked by the sub-search
            _check_leaves(model.env[comodel], [(rest, operator, right)])
            continue
        if not D.is_legacy_leaf(item):
            raise ValueError(f"Invalid leaf {tuple(item)}")
        nested = operator in D.HIERARCHY_OPERATORS and isinstance(right, (list, tuple))
        if comodel is not None and nested:
            _check_leaves(model.env[comodel], right)


def filter_ids(model: BaseModel, domain: Any, ids: Iterable[int]) -> list[int]:
    """``ids`` matching ``domain``, in their given order."""
    ids = list(ids)
    keep = evaluate(model, domain, ids)
    return [i for i in ids if i in keep]


class _Evaluator:
    def __init__(self, model: BaseModel) -> None:
        self.model = model
        self.env = model.env
        self.db = model.env.db

    def run(self, node: D.Node, candidates: Ids) -> set[int]:
        kind = node[0]
        if kind == "true":
            return set(candidates)
        if kind == "false":
            return set()
        if kind == "not":
            return _minus(candidates, self.run(node[1], candidates))
        if kind == "and":
            result = candidates
            for child in node[1]:
                result = self.run(child, result)
            return result if isinstance(result, set) else set(result)
        if kind == "or":
            found: set[int] = set()
            for child in node[1]:
                found |= self.run(child, candidates)
            return found
        return self.leaf(node[1], node[2], node[3], candidates)

    def _error(self, template: str, *args: Any, cond: tuple[Any, Any, Any]) -> ValueError:
        leaf = D.condition_repr(*cond)
        if not D.legacy_expression(self.env.major):
            return ValueError(template % args + " in condition " + leaf)
        # 17's expression.py says "leaf" where 19's Domain says "condition"
        if template == "Invalid operator":
            return ValueError("Invalid leaf " + leaf)
        return ValueError(template % args + " in leaf " + leaf)

    def _sub(self, comodel: str, active_test: bool) -> BaseModel:
        sub: BaseModel = self.env[comodel].with_context(active_test=active_test)
        return sub

    def leaf(self, fexpr: Any, operator: Any, value: Any, candidates: Ids) -> set[int]:
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
            # Odoo <= 16 has no ``any`` operator for users, but its dotted paths already meant
            # "some related record matches": call the evaluator directly, not through ``leaf``.
            positive = D.NEGATIVE_OPERATORS.get(operator)
            if field.type in X2MANY and positive is not None:
                return self._any(field, "not any", [[rest, positive, value]], candidates, cond)
            return self._any(field, "any", [[rest, operator, value]], candidates, cond)
        if operator in ("child_of", "parent_of"):
            return self._hierarchy(field, operator, value, candidates)
        if operator in ("any", "not any"):
            return self._any(field, operator, value, candidates, cond)
        if fname == "display_name" and not field.store and model._rec_names_search:
            return self._rec_names(operator, value, candidates)
        if field.relational and is_name(value) and operator not in ("=?",):
            return self._name_condition(field, operator, value, candidates)
        if not field.store and field.search and field.type != "one2many":
            sub = getattr(model, field.search)(operator, value)
            return evaluate(model, sub, candidates)
        return self._scan(field, operator, value, candidates)

    def _values(self, field: Field, candidates: Ids) -> Iterable[tuple[int, Any]]:
        rows = self.db.rows(self.model._name)
        fname = field.name
        if fname == "id":
            return ((i, i) for i in candidates if i in rows)
        if field.type == "one2many":
            index = self.db.o2m_index(field.comodel_name, field.inverse_name)  # type: ignore[attr-defined]
            return ((i, list(index.get(i, ()))) for i in candidates if i in rows)
        if not field.store:
            records = self.model.browse(sorted(i for i in candidates if i in rows))
            return ((rec.id, rec._raw(fname)) for rec in records)
        return ((i, rows[i].get(fname, False)) for i in candidates if i in rows)

    def _scan(self, field: Field, operator: str, value: Any, candidates: Ids) -> set[int]:
        ftype = field.type
        looked_up = self._lookup(field, operator, value, candidates)
        if looked_up is not None:
            return looked_up
        if ftype in X2MANY:
            positive = D.NEGATIVE_OPERATORS.get(operator)
            if positive is not None:
                return _minus(candidates, self._scan(field, positive, value, candidates))
            return {
                i for i, v in self._values(field, candidates) if x2many_match(v, operator, value)
            }
        return {
            i for i, v in self._values(field, candidates) if match_value(ftype, v, operator, value)
        }

    def _lookup(self, field: Field, operator: str, value: Any, candidates: Ids) -> set[int] | None:
        """``relation = id`` / ``relation in ids`` answered from the store's value index.

        Same result as the scan (rows holding one of the ids), without visiting every row;
        None when the condition is not that simple case (empty values, names, records...).
        """
        if operator not in ("=", "in") or not field.store or field.name == "id":
            return None
        if field.type == "many2one":
            kinds: tuple[type, ...] = (list, tuple, set, frozenset) if operator == "in" else ()
        elif field.type == "many2many":
            kinds = (list, tuple, set)  # as ``_x2many_match``: "=" with a list means "in"
        else:
            return None
        values: Any = value if isinstance(value, kinds) else [value]
        if not all(type(v) is int and v for v in values):
            return None  # False/0 match empty values, bools and records normalise: scan
        index = self.db.value_index(self.model._name, field.name)
        found: set[int] = set()
        for v in values:
            found.update(index.get(v, ()))
        return found & candidates if isinstance(candidates, set) else _within(found, candidates)

    def _any(
        self, field: Field, operator: str, value: Any, candidates: Ids, cond: tuple[Any, ...]
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
        matching = _Evaluator(sub).run(node, self.db.rows(comodel_name).keys())
        found = {i for i, v in self._values(field, candidates) if touches(v, matching)}
        return found if operator == "any" else _minus(candidates, found)

    def _name_condition(self, field: Field, operator: str, value: Any, candidates: Ids) -> set[int]:
        positive = D.NEGATIVE_OPERATORS.get(operator, operator)
        if positive == "=" and isinstance(value, str):
            sub_op, sub_value = "=", value
        elif positive == "in":
            names = value if isinstance(value, list) else [value]
            found = set()
            for name in names:
                found |= self._name_condition(field, "=", name, candidates)
            return found if operator == "in" else _minus(candidates, found)
        else:
            sub_op, sub_value = positive, value
        comodel_name: str = field.comodel_name  # type: ignore[attr-defined]
        sub = self._sub(comodel_name, False)
        matching = _Evaluator(sub).leaf(
            "display_name", sub_op, sub_value, self.db.rows(comodel_name).keys()
        )
        found = {i for i, v in self._values(field, candidates) if touches(v, matching)}
        return found if positive == operator else _minus(candidates, found)

    def _rec_names(self, operator: str, value: Any, candidates: Ids) -> set[int]:
        positive = D.NEGATIVE_OPERATORS.get(operator)
        if positive is not None:
            return _minus(candidates, self._rec_names(positive, value, candidates))
        found: set[int] = set()
        for fname in self.model._rec_names_search or []:
            found |= self.leaf(fname, operator, value, candidates)
        return found

    def _hierarchy(self, field: Field, operator: str, value: Any, candidates: Ids) -> set[int]:
        model = self.model
        comodel_name = model._name if field.name == "id" else getattr(field, "comodel_name", "")
        comodel = self._sub(comodel_name, False)
        parent = comodel._parent_name
        ids = self._to_ids(comodel, value)
        if parent not in comodel._fields and D.legacy_expression(self.env.major):
            # 17 reads ``_fields[parent]`` only when some id is given (flow_domain_child_of)
            if ids:
                raise KeyError(parent)
            return set()
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


def _minus(candidates: Ids, found: Ids) -> set[int]:
    if isinstance(candidates, set):
        return candidates - found
    return {i for i in candidates if i not in found}


def _within(found: set[int], candidates: Ids) -> set[int]:
    return {i for i in found if i in candidates}


class _OrderedSet(list[int]):
    """Prints as Odoo's ``OrderedSet([1, 2])`` inside error messages."""

    def __repr__(self) -> str:
        return f"OrderedSet({list(self)!r})"
