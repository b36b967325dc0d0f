"""Recomputing stored computed fields, in dependency order.

Odoo recomputes a stored field after the fields it depends on, so a total reading a stored
subtotal sees the new subtotal.  Here each stored compute runs in that order and its value
is written before the next one runs.  The order follows ``depends`` where declared (a
dependency is another stored compute of the same model named by the first segment of a
path); fields without ``depends``, and a dependency cycle, keep the declaration order.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from fake_odoo.orm import fields as F

if TYPE_CHECKING:
    from fake_odoo.orm.model import BaseModel

#: by (model class, ``Database.fields_key``): the fields differ by version and modules
_ORDER: dict[tuple[type, Hashable], tuple[tuple[str, F.Field], ...]] = {}
_MISSING = object()


def stored_computes(model: BaseModel) -> tuple[tuple[str, F.Field], ...]:
    """The stored computed fields of ``model``, each after the ones it depends on."""
    key = (type(model), model.env.db.fields_key)
    cached = _ORDER.get(key)
    if cached is None:
        declared = {n: f for n, f in model._fields.items() if f.compute is not None and f.store}
        cached = _ORDER[key] = tuple((name, declared[name]) for name in _sort(declared))
    return cached


def _sort(declared: dict[str, F.Field]) -> list[str]:
    """Declaration order, each field moved after the stored computes it depends on."""
    needs = {
        name: {path.split(".")[0] for path in field.depends} & (declared.keys() - {name})
        for name, field in declared.items()
    }
    done: list[str] = []
    pending = list(declared)
    while pending:
        # the first field (in declaration order) whose dependencies are all computed
        ready = next((n for n in pending if needs[n] <= set(done)), pending[0])
        done.append(ready)  # pending[0] when only a cycle is left: declaration order
        pending.remove(ready)
    return done


def recompute(records: BaseModel) -> None:
    """Recompute the stored computed fields of the existing ``records``."""
    computes = stored_computes(records)
    if not computes:
        return
    db, model = records.env.db, records._name
    for rec in records.exists():
        rid = rec._ids[0]
        for name, field in computes:
            value: Any = rec._compute_raw(field)
            row = db.row(model, rid)
            old = _MISSING if row is None else row.get(name, _MISSING)
            # Written one by one, so that a later compute reads this value from the store;
            # skipped when unchanged (same type too: 0 and 0.0 read differently on the wire).
            if type(old) is not type(value) or old != value:
                db.update(model, rid, {name: value})
