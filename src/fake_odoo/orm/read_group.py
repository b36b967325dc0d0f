"""``read_group`` and Odoo 19's ``formatted_read_group``.

Shapes as real Odoo 19 returns them: lazy groups carry ``<field>_count`` (and
``__context`` with the remaining groupbys, ``__fold`` for many2one groups
whose comodel has a fold field), non-lazy ``__count``; aggregates are named
after the bare field; ``__domain`` is the user's domain AND the group's
conditions; many2one keys are ``[id, display_name]``; ``field:month`` keys are
labelled "October 2026" with a ``__range``.  Grouping by a non-stored field
raises "Cannot convert sale.order.access_url to SQL because it is not stored" (17: "Cannot
convert field sale.order.access_url to SQL").
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from functools import cmp_to_key
from typing import TYPE_CHECKING, Any

from fake_odoo.orm import domain as D
from fake_odoo.orm import search as S
from fake_odoo.orm.fields import Field

if TYPE_CHECKING:
    from fake_odoo.orm.model import BaseModel

MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def _groupby_spec(model: BaseModel, spec: str) -> tuple[str, Field, str | None]:
    fname, _, granularity = spec.partition(":")
    field = model._fields.get(fname)
    if field is None:
        raise ValueError(f"Invalid field {fname!r} on model {model._name!r}")
    if not field.store:
        if model.env.major <= 17:  # flow_read_group step 12 of the 17 batch
            raise ValueError(f"Cannot convert field {model._name}.{fname} to SQL")
        raise ValueError(f"Cannot convert {model._name}.{fname} to SQL because it is not stored")
    if field.type in ("date", "datetime"):
        return spec, field, granularity or "month"
    return spec, field, None


def _aggregate_spec(model: BaseModel, spec: str) -> tuple[str, str | None, str] | None:
    """``"amount:sum"`` -> ("amount", "amount", "sum"); alias form ``a:sum(f)``."""
    if spec == "__count":
        return "__count", None, "count"
    name, _, func = spec.partition(":")
    fname = name
    if "(" in func:
        func, _, rest = func.partition("(")
        fname = rest.rstrip(")")
    field = model._fields.get(fname)
    if field is None:
        raise ValueError(f"Invalid field {fname!r} on model {model._name!r}")
    func = func or (field.aggregator or "")
    if not func or (not field.store):
        return None
    return name, fname, func


def _period(value: str, granularity: str) -> tuple[date, date, str]:
    day = date.fromisoformat(value[:10])
    if granularity == "day":
        return day, day + timedelta(days=1), day.strftime("%d %b %Y")
    if granularity == "week":
        start = day - timedelta(days=day.weekday())
        return start, start + timedelta(days=7), f"W{day.isocalendar()[1]} {day.isocalendar()[0]}"
    if granularity == "quarter":
        quarter = (day.month - 1) // 3
        start = date(day.year, quarter * 3 + 1, 1)
        end = date(day.year + (quarter == 3), (quarter * 3 + 3) % 12 + 1, 1)
        return start, end, f"Q{quarter + 1} {day.year}"
    if granularity == "year":
        return date(day.year, 1, 1), date(day.year + 1, 1, 1), str(day.year)
    start = date(day.year, day.month, 1)
    end = date(day.year + (day.month == 12), day.month % 12 + 1, 1)
    return start, end, f"{MONTHS[day.month - 1]} {day.year}"


def _aggregate(func: str, values: list[Any]) -> Any:
    present = [v for v in values if v is not None and v is not False]
    if func == "count":
        return len(present)
    if func == "count_distinct":
        return len({repr(v) for v in present})
    if func == "sum":
        total = sum((Decimal(str(v)) for v in present), Decimal(0))
        return float(total) if any(isinstance(v, float) for v in present) else int(total)
    if func == "avg":
        if not present:
            return False
        return float(sum(Decimal(str(v)) for v in present) / len(present))
    if func in ("min", "max"):
        return (min if func == "min" else max)(present) if present else False
    if func == "bool_and":
        return all(values)
    if func == "bool_or":
        return any(values)
    if func == "array_agg":
        return values
    raise ValueError(f"Invalid aggregation function {func!r}.")


class _Grouping:
    """Records of a domain split by groupby specs, with each group's conditions."""

    def __init__(self, model: BaseModel, domain: Any, specs: list[str]) -> None:
        self.model = model
        self.specs = [_groupby_spec(model, spec) for spec in specs]
        ids = S.search_ids(model, domain, ordered=False)
        rows = model.env.db.rows(model._name)
        self.rows = rows
        self.groups: dict[tuple[Any, ...], list[int]] = {}
        for rid in ids:
            for key in self._keys(rows[rid]):
                self.groups.setdefault(key, []).append(rid)

    def _keys(self, row: dict[str, Any]) -> list[tuple[Any, ...]]:
        keys: list[tuple[Any, ...]] = [()]
        for _spec, field, granularity in self.specs:
            raw = row.get(field.name, False)
            if field.type == "many2many":
                options: list[Any] = list(raw) or [False]
            elif granularity and raw:
                options = [_period(raw, granularity)[0].isoformat()]
            else:
                options = [raw if raw not in (None, "") else False]
            keys = [(*k, o) for k in keys for o in options]
        return keys

    def conditions(self, key: tuple[Any, ...]) -> list[list[Any]]:
        conds: list[list[Any]] = []
        for (_spec, field, granularity), value in zip(self.specs, key, strict=True):
            if granularity and value:
                lo, hi = self.range(field, granularity, value)
                conds += [[field.name, ">=", lo], [field.name, "<", hi]]
            else:
                conds.append([field.name, "=", value])
        return conds

    def range(self, field: Field, granularity: str, value: str) -> tuple[str, str]:
        start, end, _label = _period(value, granularity)
        suffix = " 00:00:00" if field.type == "datetime" else ""
        return start.isoformat() + suffix, end.isoformat() + suffix

    def display(self, index: int, value: Any) -> Any:
        _spec, field, granularity = self.specs[index]
        if value is False:
            return False
        if field.type in ("many2one", "many2many"):
            comodel = self.model.env[field.comodel_name].sudo().browse(value)  # type: ignore[attr-defined]
            return [value, comodel.display_name]
        if granularity:
            return _period(value, granularity)[2]
        return value

    def sorted_keys(
        self, order: str | None, aggregates: dict[tuple[Any, ...], dict[str, Any]]
    ) -> list[tuple[Any, ...]]:
        terms: list[tuple[int | str, bool]] = []
        if order:
            for part in order.split(","):
                words = part.split()
                if not words:
                    continue
                name, desc = words[0], len(words) > 1 and words[1].lower() == "desc"
                index = next(
                    (i for i, s in enumerate(self.specs) if s[0] == name or s[1].name == name), None
                )
                terms.append((index if index is not None else name, desc))
        for index in range(len(self.specs)):
            if not any(t[0] == index for t in terms):
                terms.append((index, False))

        def sort_value(key: tuple[Any, ...], term: int | str) -> Any:
            if isinstance(term, int):
                _spec, field, _g = self.specs[term]
                if field.type == "many2many":
                    raw = key[term]
                    comodel = self.model.env[getattr(field, "comodel_name", "")]
                    return S._sort_value(comodel, "id", raw, 0) if raw else None
                if field.type == "boolean":
                    # grouped as COALESCE(field, FALSE): False is a value, before True,
                    # never a null put last (odoo/odoo odoo/models.py 17.0 and
                    # odoo/orm/models.py @ 5f49ea73, _read_group_groupby)
                    return bool(key[term])
                return S._sort_value(self.model, field.name, key[term], 0)
            return aggregates[key].get(term)

        def compare(a: tuple[Any, ...], b: tuple[Any, ...]) -> int:
            left = tuple((sort_value(a, t), d, d) for t, d in terms)
            right = tuple((sort_value(b, t), d, d) for t, d in terms)
            return S._compare(left, right)

        return sorted(self.groups, key=cmp_to_key(compare))


def _page(keys: list[Any], offset: int, limit: int | None) -> list[Any]:
    keys = keys[int(offset or 0) :]
    return keys if limit is None or limit is False else keys[: int(limit)]


def _compute_aggregates(
    grouping: _Grouping, specs: list[tuple[str, str | None, str]]
) -> dict[tuple[Any, ...], dict[str, Any]]:
    result: dict[tuple[Any, ...], dict[str, Any]] = {}
    for key, ids in grouping.groups.items():
        values: dict[str, Any] = {"__count": len(ids)}
        for name, fname, func in specs:
            if fname is not None:
                values[name] = _aggregate(func, [grouping.rows[i].get(fname) for i in ids])
        result[key] = values
    return result


def read_group(
    model: BaseModel,
    domain: Any,
    fields: list[str],
    groupby: Any,
    offset: int = 0,
    limit: int | None = None,
    orderby: str | bool = False,
    lazy: bool = True,
) -> list[dict[str, Any]]:
    groupby = [groupby] if isinstance(groupby, str) else list(groupby or [])
    used = groupby[:1] if lazy else groupby
    grouping = _Grouping(model, domain, used)
    specs = [s for s in (_aggregate_spec(model, f) for f in fields or []) if s is not None]
    specs = [s for s in specs if s[0] != "__count" and s[0] not in used]
    aggregates = _compute_aggregates(grouping, specs)
    order = orderby if isinstance(orderby, str) and orderby else None
    keys = _page(grouping.sorted_keys(order, aggregates), offset, limit)
    user_domain = list(domain or [])
    count_key = f"{grouping.specs[0][1].name}_count" if lazy and used else "__count"
    result = []
    for key in keys:
        row: dict[str, Any] = {}
        for index, (spec, _field, _g) in enumerate(grouping.specs):
            row[spec] = grouping.display(index, key[index])
        row[count_key] = aggregates[key]["__count"]
        for name, _fname, _func in specs:
            row[name] = aggregates[key][name]
        if lazy and used:
            field = grouping.specs[0][1]
            if field.type == "many2one":
                comodel = model.env[field.comodel_name]  # type: ignore[attr-defined]
                if model._fold_name in comodel._fields:
                    row["__fold"] = bool(key[0] and comodel.sudo().browse(key[0])[model._fold_name])
        row["__domain"] = D.and_lists(user_domain, *[[c] for c in grouping.conditions(key)])
        ranges = {
            spec: dict(zip(("from", "to"), grouping.range(field, g, value), strict=True))
            for (spec, field, g), value in zip(grouping.specs, key, strict=True)
            if g and value
        }
        if ranges:
            row["__range"] = ranges
        if lazy and len(groupby) > 1:
            row["__context"] = {"group_by": groupby[1:]}
        result.append(row)
    return result


def formatted_read_group(
    model: BaseModel,
    domain: Any,
    groupby: Any = (),
    aggregates: Any = (),
    having: Any = (),
    offset: int = 0,
    limit: int | None = None,
    order: str | None = None,
) -> list[dict[str, Any]]:
    groupby = list(groupby or [])
    grouping = _Grouping(model, domain, groupby)
    specs = []
    for spec in aggregates or []:
        parsed = _aggregate_spec(model, spec)
        if parsed is None:
            raise ValueError(f"Invalid aggregate {spec!r} on model {model._name!r}")
        specs.append((spec, parsed[1], parsed[2]))
    values = _compute_aggregates(grouping, [s for s in specs if s[0] != "__count"])
    keys = _page(grouping.sorted_keys(order, values), offset, limit)
    result = []
    for key in keys:
        row: dict[str, Any] = {}
        for index, (spec, field, granularity) in enumerate(grouping.specs):
            shown = grouping.display(index, key[index])
            if granularity and key[index]:
                shown = [grouping.range(field, granularity, key[index])[0], shown]
            row[spec] = shown
        row["__extra_domain"] = D.and_lists(*[[c] for c in grouping.conditions(key)])
        for spec, _fname, _func in specs:
            row[spec] = values[key][spec]
        result.append(row)
    return result


def read_group_tuples(
    model: BaseModel,
    domain: Any,
    groupby: Any = (),
    aggregates: Any = (),
    having: Any = (),
    offset: int = 0,
    limit: int | None = None,
    order: str | None = None,
) -> list[list[Any]]:
    """Odoo 20's ``read_group`` (from its source, not a capture): a list of tuples (lists on
    the wire), the groupby values first (a many2one as its id), then the aggregates in the
    order asked; the groups ordered by the groupby terms unless ``order``."""
    groupby = [groupby] if isinstance(groupby, str) else list(groupby or [])
    grouping = _Grouping(model, domain, groupby)
    specs = []
    for spec in aggregates or []:
        parsed = _aggregate_spec(model, spec)
        if parsed is None:
            raise ValueError(f"Invalid aggregate {spec!r} on model {model._name!r}")
        specs.append((spec, parsed[1], parsed[2]))
    values = _compute_aggregates(grouping, [s for s in specs if s[0] != "__count"])
    keys = _page(grouping.sorted_keys(order, values), offset, limit)
    result: list[list[Any]] = []
    for key in keys:
        row: list[Any] = []
        for index, (_spec, _field, granularity) in enumerate(grouping.specs):
            value = key[index]
            row.append(grouping.display(index, value) if granularity else value)
        row.extend(values[key][spec] for spec, _fname, _func in specs)
        result.append(row)
    return result
