"""SPEC-07: one field as the registry knows it, and the ``fields_get`` attributes it asks for."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from pydantic import BaseModel, ConfigDict

__all__ = [
    "FIELDS_GET_ATTRIBUTES",
    "REGISTRY_ATTRIBUTES",
    "RELATIONAL_TYPES",
    "X2MANY_TYPES",
    "FieldInfo",
]

#: REQ-07-10 attributes plus searchable/sortable (domain and ``order`` checks use them): the
#: attributes odoo_core_fields_get can answer from the cache
FIELDS_GET_ATTRIBUTES: Final = (
    "string",
    "type",
    "required",
    "readonly",
    "store",
    "relation",
    "selection",
    "help",
    "searchable",
    "sortable",
)
#: what the registry requests: the above plus ``depends`` (REQ-07-01), which Odoo 19's
#: ``Field.get_description`` sends for every field. Odoo sends no ``default``, ``groups`` or
#: ``compute`` attribute: those come only from a static registry file.
REGISTRY_ATTRIBUTES: Final = (*FIELDS_GET_ATTRIBUTES, "depends")
RELATIONAL_TYPES: Final = frozenset({"many2one", "one2many", "many2many"})
X2MANY_TYPES: Final = frozenset({"one2many", "many2many"})


class FieldInfo(BaseModel):
    """REQ-07-01: one field as ``fields_get`` (or a static registry file) describes it.

    ``default``, ``groups`` and ``compute`` are None when unknown: live Odoo does not report
    them. ``compute`` is True when Odoo lists dependencies (only computed and related fields
    have any); a computed field without dependencies stays None.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)  # built on first use (issue 41)

    name: str
    type: str
    string: str = ""
    relation: str | None = None
    required: bool = False
    readonly: bool = False
    store: bool = True
    searchable: bool = True
    sortable: bool = True
    selection: tuple[tuple[str, str], ...] | None = None
    help: str | None = None
    depends: tuple[str, ...] = ()
    compute: bool | None = None
    default: str | int | float | bool | None = None
    groups: str | None = None

    @classmethod
    def from_odoo(cls, name: str, raw: Mapping[str, Any]) -> FieldInfo:
        """REQ-07-10: build from one ``fields_get`` entry; Odoo's False means "not set"."""
        selection = raw.get("selection")
        pairs = None
        if isinstance(selection, list):
            # A dynamic selection can come back as a list of lists; keep only (value, label).
            pairs = tuple((str(p[0]), str(p[1])) for p in selection if len(p) >= 2)
        depends = raw.get("depends")
        depends = tuple(str(d) for d in depends) if isinstance(depends, list | tuple) else ()
        return cls(
            name=name,
            type=str(raw.get("type") or "char"),
            string=str(raw.get("string") or ""),
            relation=raw.get("relation") or None,
            required=bool(raw.get("required")),
            readonly=bool(raw.get("readonly")),
            store=bool(raw.get("store", True)),
            searchable=bool(raw.get("searchable", True)),
            sortable=bool(raw.get("sortable", True)),
            selection=pairs,
            help=raw.get("help") or None,
            depends=depends,
            compute=True if depends else None,
        )

    @property
    def label(self) -> str:
        """REQ-07-01: the human label (``string`` in Odoo)."""
        return self.string or self.name

    @property
    def is_relational(self) -> bool:
        """REQ-04a-06: a dotted path may go through this field."""
        return self.type in RELATIONAL_TYPES and bool(self.relation)

    @property
    def is_x2many(self) -> bool:
        """REQ-04-35: one2many/many2many values are lists of ids."""
        return self.type in X2MANY_TYPES
