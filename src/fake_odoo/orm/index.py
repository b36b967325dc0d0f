"""Value indexes over the record store: for a (model, field), stored value -> row ids.

Reading a one2many asks which rows of the comodel point at a record; a domain like
``('order_id', '=', 7)`` or ``('sale_line_ids', 'in', [3])`` and a UNIQUE check ask which
rows hold a value.  Scanning the whole table for each (or rebuilding an index after every
change) makes large data builds quadratic.  So an index is built once, the first time a
(model, field) pair is asked for, and from then on kept up to date by the Database on every
insert, update, delete and rollback: each change costs O(indexed fields of its model).

Keys are the truthy stored values (a many2many list contributes each of its ids), as
empty values are never looked up.  Only fields with hashable raw values are indexed
(many2one, many2many, char, selection, integer...).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Row = dict[str, Any]
#: value -> ids holding it; a dict used as an insertion-ordered set, so that a removal is
#: O(1) and iteration stays deterministic.
Index = dict[Any, dict[int, None]]


def _keys(value: Any) -> tuple[Any, ...]:
    if isinstance(value, list):
        return tuple(v for v in value if v)
    return (value,) if value else ()


class FieldIndex:
    """Lazily built, incrementally maintained value indexes over a Database store."""

    def __init__(self, store: dict[str, dict[int, Row]]) -> None:
        self._store = store
        self._by_model: dict[str, dict[str, Index]] = {}

    def get(self, model: str, field: str) -> Mapping[Any, dict[int, None]]:
        """The index of ``model.field`` (built on first use, then maintained)."""
        indexes = self._by_model.setdefault(model, {})
        index = indexes.get(field)
        if index is None:
            index = {}
            for rid, row in self._store[model].items():
                for key in _keys(row.get(field)):
                    index.setdefault(key, {})[rid] = None
            indexes[field] = index
        return index

    def replace(self, model: str, rid: int, before: Row | None, after: Row | None) -> None:
        """Row ``rid`` of ``model`` goes from ``before`` to ``after`` (None = absent)."""
        indexes = self._by_model.get(model)
        if not indexes:
            return
        for field, index in indexes.items():
            old = before.get(field) if before is not None else None
            new = after.get(field) if after is not None else None
            if old != new:
                _move(index, rid, old, new)

    def update(self, model: str, rid: int, row: Row, values: Row) -> None:
        """Row ``rid`` (currently ``row``) is about to receive ``values``."""
        indexes = self._by_model.get(model)
        if not indexes:
            return
        for field, index in indexes.items():
            if field in values:
                old, new = row.get(field), values[field]
                if old != new:
                    _move(index, rid, old, new)


def _move(index: Index, rid: int, old: Any, new: Any) -> None:
    old_keys, new_keys = _keys(old), _keys(new)
    keep = new_keys if len(new_keys) < 8 else frozenset(new_keys)  # long many2many lists
    for key in old_keys:
        if key in keep:
            continue
        members = index.get(key)
        if members is not None:
            members.pop(rid, None)
            if not members:
                del index[key]  # so a value no row holds any more reads like a never-seen one
    for key in new_keys:
        index.setdefault(key, {})[rid] = None
