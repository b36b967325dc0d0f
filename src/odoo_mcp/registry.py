"""SPEC-07: the live field-metadata cache (one ``fields_get`` per model per connection).

Only the dynamic part of SPEC-07 that the core tools need: ``FieldInfo`` per field, cached per
model for one connection, refreshed only on request or when Odoo disagrees with it (REQ-07-12),
never on a timer; key fields per decision 10. Listing readable models (REQ-04-34) lives in
``odoo_mcp.model_listing``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any, Final, Protocol

from pydantic import BaseModel, ConfigDict

from odoo_mcp.connection import OdooCalls

__all__ = [
    "FIELDS_GET_ATTRIBUTES",
    "KEY_FIELDS",
    "RELATIONAL_TYPES",
    "X2MANY_TYPES",
    "BlockedFieldCheck",
    "FieldInfo",
    "FieldSource",
    "ModelRegistry",
    "key_fields",
]

#: REQ-07-10 attributes plus searchable/sortable (domain and ``order`` checks use them)
FIELDS_GET_ATTRIBUTES: Final = (
    "string", "type", "required", "readonly", "store", "relation", "selection", "help",
    "searchable", "sortable",
)  # fmt: skip
RELATIONAL_TYPES: Final = frozenset({"many2one", "one2many", "many2many"})
X2MANY_TYPES: Final = frozenset({"one2many", "many2many"})

#: decision 10: per-model default fields for well-known models (filtered by what exists)
KEY_FIELDS: Final[Mapping[str, tuple[str, ...]]] = {
    "res.partner": (
        "id", "name", "display_name", "is_company", "parent_id", "email", "phone", "street",
        "city", "zip", "country_id", "vat", "company_id", "active",
    ),
    "sale.order": (
        "id", "name", "partner_id", "date_order", "state", "user_id", "amount_untaxed",
        "amount_tax", "amount_total", "currency_id", "invoice_status", "company_id",
    ),
    "sale.order.line": (
        "id", "order_id", "product_id", "name", "product_uom_qty", "price_unit",
        "price_subtotal", "price_total", "qty_delivered", "qty_invoiced",
    ),
    "account.move": (
        "id", "name", "partner_id", "move_type", "state", "invoice_date", "invoice_date_due",
        "amount_untaxed", "amount_tax", "amount_total", "amount_residual", "currency_id",
        "payment_state",
    ),
    "stock.picking": (
        "id", "name", "partner_id", "picking_type_id", "state", "scheduled_date", "date_done",
        "origin", "location_id", "location_dest_id",
    ),
    "product.product": (
        "id", "name", "default_code", "barcode", "list_price", "standard_price", "type",
        "categ_id", "uom_id", "active",
    ),
    "crm.lead": (
        "id", "name", "partner_id", "email_from", "phone", "stage_id", "user_id", "team_id",
        "expected_revenue", "probability", "type", "active",
    ),
}  # fmt: skip

BlockedFieldCheck = Callable[[str, str], bool]
"""``is_field_blocked(model, field)``: supplied by the safety layer (decision 11)."""


class FieldInfo(BaseModel):
    """REQ-07-01: one field as ``fields_get`` describes it (the attributes the tools use)."""

    model_config = ConfigDict(frozen=True)

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

    @classmethod
    def from_odoo(cls, name: str, raw: Mapping[str, Any]) -> FieldInfo:
        """REQ-07-10: build from one ``fields_get`` entry; Odoo's False means "not set"."""
        selection = raw.get("selection")
        pairs = None
        if isinstance(selection, list):
            # A dynamic selection can come back as a list of lists; keep only (value, label).
            pairs = tuple((str(p[0]), str(p[1])) for p in selection if len(p) >= 2)
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


class FieldSource(Protocol):
    """What domain/order validation needs: the fields of a model (``ModelRegistry`` or a stub)."""

    async def get_fields(self, model: str) -> Mapping[str, FieldInfo]: ...


class ModelRegistry:
    """REQ-07-12: ``fields_get`` cached per model for one connection (one registry each).

    Concurrent first requests for a model share one ``fields_get`` round trip. The cache is
    dropped per model by ``invalidate`` (e.g. when Odoo answers "Invalid field" for a field the
    cache knows) or entirely by ``clear`` (reconnect to another database).

    Entries are kept per Odoo user (the connection's ``uid``): over HTTP one connection object
    routes each call to its caller's Odoo user (REQ-HTTP-15), and ``fields_get`` answers
    depend on the user's groups.
    """

    def __init__(self, connection: OdooCalls) -> None:
        self._connection = connection
        self._fields: dict[tuple[object, str], dict[str, FieldInfo]] = {}
        self._locks: dict[tuple[object, str], asyncio.Lock] = {}

    def _key(self, model: str) -> tuple[object, str]:
        return getattr(self._connection, "uid", None), model

    async def get_fields(self, model: str) -> Mapping[str, FieldInfo]:
        """REQ-07-10: the model's fields; at most one ``fields_get`` per model until refreshed."""
        key = self._key(model)
        cached = self._fields.get(key)
        if cached is not None:
            return cached
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            cached = self._fields.get(key)
            if cached is None:
                raw = await self._connection.fields_get(model, FIELDS_GET_ATTRIBUTES)
                cached = {
                    name: FieldInfo.from_odoo(name, spec)
                    for name, spec in raw.items()
                    if isinstance(spec, Mapping)
                }
                self._fields[key] = cached
        return cached

    async def get_field(self, model: str, name: str) -> FieldInfo | None:
        """REQ-07-16: one field of a model, or None when the model has no such field."""
        return (await self.get_fields(model)).get(name)

    def cached(self, model: str) -> Mapping[str, FieldInfo] | None:
        """REQ-07-12: the cached fields without any round trip (None when not loaded)."""
        return self._fields.get(self._key(model))

    def invalidate(self, model: str) -> None:
        """REQ-07-12: forget one model; the next use fetches ``fields_get`` again."""
        for key in [key for key in self._fields if key[1] == model]:
            del self._fields[key]

    def clear(self) -> None:
        """REQ-07-12: forget everything (explicit refresh, or a connection to another db)."""
        self._fields.clear()

    async def refresh_if_unknown(self, model: str, name: str) -> FieldInfo | None:
        """REQ-07-12: a field missing from the cache may be new in Odoo: refetch once."""
        found = await self.get_field(model, name)
        if found is None:
            self.invalidate(model)
            found = await self.get_field(model, name)
        return found

    async def key_fields(
        self, model: str, is_field_blocked: BlockedFieldCheck | None = None
    ) -> list[str]:
        """REQ-06-10: key fields of a record, chosen as decision 10 says."""
        return key_fields(model, await self.get_fields(model), is_field_blocked)


def key_fields(
    model: str,
    fields: Mapping[str, FieldInfo],
    is_field_blocked: BlockedFieldCheck | None = None,
) -> list[str]:
    """REQ-06-10: decision 10: a well-known model's list, else stored non-binary non-x2many."""

    def allowed(name: str) -> bool:
        return is_field_blocked is None or not is_field_blocked(model, name)

    preset = KEY_FIELDS.get(model)
    if preset is not None:
        return [name for name in preset if name in fields and allowed(name)]
    return [
        name
        for name, info in fields.items()
        if info.store and info.type != "binary" and not info.is_x2many and allowed(name)
    ]
