"""Helpers shared by the business models (sequences, vals lists, dates).

``ir.sequence`` is not modelled: document numbers (S00001, WH/OUT/00001) come from
counters kept in the Database's sequence table under a key of their own, so they are
rolled back with a failed call and never reused afterwards, like PostgreSQL sequences.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any


def vals_batch(vals_list: Any) -> list[dict[str, Any]]:
    """``create``'s argument as a list of fresh dicts (Odoo accepts one dict or a list)."""
    if isinstance(vals_list, dict):
        return [dict(vals_list)]
    return [dict(vals) for vals in vals_list]


def next_number(env: Any, code: str) -> int:
    """The next value of the named document sequence."""
    number: int = env.db.next_id(f"ir.sequence:{code}")
    return number


def to_date(value: Any) -> date:
    """A stored date or datetime string as a date."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return datetime.strptime(str(value)[:10], "%Y-%m-%d").date()


def add_days(value: Any, days: int) -> str:
    return (to_date(value) + timedelta(days=days)).strftime("%Y-%m-%d")


def m2o_id(value: Any) -> Any:
    """The id of a many2one value given as a recordset, an id or False."""
    if hasattr(value, "_ids"):
        return value.id or False
    return value or False


def pop_related(model: Any, vals: dict[str, Any]) -> dict[str, Any]:
    """Remove from ``vals`` the writable related fields (``related=..., readonly=False``)
    and return them, for ``write_related`` once the records exist."""
    fields = model._fields
    names = [
        name
        for name in vals
        if name in fields and fields[name].related is not None and not fields[name].readonly
    ]
    return {name: vals.pop(name) for name in names}


def write_related(records: Any, values: dict[str, Any]) -> None:
    """Write related values through their path, as Odoo's related inverse does: the
    user's ``res.users.tz`` lands on its partner, a variant's ``name`` on its template."""
    for name, value in values.items():
        *path, last = records._fields[name].related.split(".")
        for record in records:
            target = record
            for step in path:
                target = target[step]
            if target:
                target.write({last: value})


def selection_by_version(
    old: list[tuple[str, str]], new: list[tuple[str, str]], last_old: int = 17
) -> Callable[[Any], list[tuple[str, str]]]:
    """A selection callable serving ``old`` up to Odoo ``last_old``, ``new`` after it."""

    def selection(model: Any) -> list[tuple[str, str]]:
        return old if model.env.major <= last_old else new

    return selection
