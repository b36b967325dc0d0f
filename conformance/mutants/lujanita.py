"""Mutants of lujanita, the storefront contracts (see registry.py).

Each wraps one contract tool's handler (``_around``): it may change the request the reference
handler gets, or the response model it gives back (``model_copy``: the wire shape stays
camelCase, the value is the defect's). A defect in a value's type also gives the tool an open
output schema (``loose``): a server that sends such values does not advertise the contract's
schema, and without this the kit's MCP client would refuse the answer before any check.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from _sabotage import patch_everywhere
from pydantic import BaseModel, ConfigDict
from registry import mutant

Handler = Callable[[Any, Any], Awaitable[Any]]


class _Open(BaseModel):
    """An output schema that constrains nothing."""

    model_config = ConfigDict(extra="allow")


def _around(
    name: str,
    before: Callable[[Any], Any] = lambda params: params,
    after: Callable[[Any, Any], Any] = lambda params, result: result,
    *,
    loose: bool = False,
) -> None:
    """Run ``name``'s handler on ``before(params)`` and answer ``after(params, result)``."""
    from odoo_mcp.toolsets import all_tools

    spec = next(spec for spec in all_tools() if spec.name == name)
    handler: Handler = spec.handler

    async def broken(ctx: Any, params: Any) -> Any:
        return after(params, await handler(ctx, before(params)))

    object.__setattr__(spec, "handler", broken)
    if loose:
        object.__setattr__(spec, "result_model", _Open)


def _lines(result: Any, **changes: Any) -> Any:
    lines = [line.model_copy(update=changes) for line in result.lines or []]
    return result.model_copy(update={"lines": lines or result.lines})


@mutant(
    kills=["REQ-LUJ-01"],
    seed="Lujanita contracts, orders.get: 'includeLines?: boolean'",
    select="REQ-LUJ-01 and not REQ-LUJ-02",
)
def orders_lines_always() -> None:
    """orders.get ignores includeLines and always answers the lines."""
    _around("orders.get", before=lambda p: p.model_copy(update={"include_lines": True}))


@mutant(
    kills=["REQ-LUJ-02"],
    seed="Lujanita contracts, OrdersGetResponse: 'createdAt: string; // ISO 8601'",
)
def orders_created_at_odoo_format() -> None:
    """orders.get answers createdAt in Odoo's format ("2025-11-29 10:30:00"), not ISO 8601."""
    _around(
        "orders.get",
        after=lambda p, r: r.model_copy(update={"created_at": r.created_at[:19].replace("T", " ")}),
        loose=True,
    )


@mutant(
    kills=["REQ-LUJ-03"],
    seed="Lujanita contracts, OrderLine: '@NotBlank String productId'",
)
def orders_line_product_id_integer() -> None:
    """orders.get answers each line's productId as Odoo's integer id, not a string."""
    _around("orders.get", after=lambda p, r: _lines(r, product_id=7), loose=True)


@mutant(
    kills=["REQ-LUJ-04"],
    seed="Lujanita contracts, OrdersGetResponse: \"status: 'draft' | 'confirmed' | 'done' | "
    "'cancel'\"",
    select="REQ-LUJ-04 and not REQ-LUJ-02",
)
def orders_status_quotation() -> None:
    """orders.get answers a draft order's status as "quotation"."""
    _around(
        "orders.get",
        after=lambda p, r: (
            r.model_copy(update={"status": "quotation"}) if r.status == "draft" else r
        ),
        loose=True,
    )


@mutant(
    kills=["REQ-LUJ-05"],
    seed="Lujanita contracts, customers.search: 'Busca clientes por nombre, email o teléfono.'",
)
def customers_phone_not_searched() -> None:
    """customers.search finds nobody by phone number."""
    phone = re.compile(r"^[\d\s+()-]+$")
    _around(
        "customers.search",
        after=lambda p, r: (
            r.model_copy(update={"customers": [], "total_count": 0}) if phone.match(p.query) else r
        ),
    )


@mutant(
    kills=["REQ-LUJ-06"],
    seed="Lujanita contracts, Customer: 'customerId: string;'",
)
def customers_id_integer() -> None:
    """customers.search answers customerId as an integer."""

    def after(params: Any, result: Any) -> Any:
        customers = [
            c.model_copy(update={"customer_id": int(c.customer_id)}) for c in result.customers
        ]
        return result.model_copy(update={"customers": customers})

    _around("customers.search", after=after, loose=True)


@mutant(
    kills=["REQ-LUJ-07"],
    seed="Lujanita contracts, ProductsListRequest: 'available?: boolean;'",
)
def products_available_ignored() -> None:
    """products.list ignores available: products out of stock are listed too."""
    _around("products.list", before=lambda p: p.model_copy(update={"available": None}))


@mutant(
    kills=["REQ-LUJ-07"],
    seed="Lujanita contracts, ProductsListRequest: 'categoryId?: string;'",
)
def products_category_ignored() -> None:
    """products.list ignores categoryId: every category is listed."""
    _around("products.list", before=lambda p: p.model_copy(update={"category_id": None}))


@mutant(
    kills=["REQ-LUJ-07"],
    seed="Lujanita contracts, ProductsListRequest: 'offset?: number;'",
)
def products_offset_ignored() -> None:
    """products.list ignores offset: every page is the first."""
    _around("products.list", before=lambda p: p.model_copy(update={"offset": 0}))


@mutant(
    kills=["REQ-LUJ-08"],
    seed="Lujanita contracts, ProductsListResponse: 'totalCount: number;'",
    select="REQ-LUJ-08 and not reference",
)
def products_total_is_page() -> None:
    """products.list answers totalCount as the size of the page, not the count of matches."""
    _around(
        "products.list",
        after=lambda p, r: r.model_copy(update={"total_count": len(r.products)}),
    )


@mutant(
    kills=["REQ-LUJ-09"],
    seed="Lujanita contracts, DeliveriesTrackRequest: 'deliveryId: string;'",
)
def deliveries_id_numeric_only() -> None:
    """deliveries.track takes only a numeric id: a picking reference is not found."""
    _around(
        "deliveries.track",
        before=lambda p: (
            p.model_copy(update={"delivery_id": "0"}) if not p.delivery_id.isdigit() else p
        ),
    )


@mutant(
    kills=["REQ-LUJ-10"],
    seed="Lujanita contracts, DeliveriesTrackResponse: 'actualDelivery?: string;' (ISO 8601, "
    "as the contract's every date)",
)
def deliveries_actual_odoo_format() -> None:
    """deliveries.track answers actualDelivery in Odoo's format ("2025-11-29 10:30:00")."""

    def after(params: Any, result: Any) -> Any:
        if not result.actual_delivery:
            return result
        odoo = result.actual_delivery[:19].replace("T", " ")
        return result.model_copy(update={"actual_delivery": odoo})

    _around("deliveries.track", after=after, loose=True)


@mutant(
    kills=["REQ-LUJ-11"],
    seed="Lujanita contracts, DeliveriesTrackResponse: \"status: 'pending' | 'in_transit' | "
    "'delivered' | 'failed'\"",
)
def deliveries_status_odoo_state() -> None:
    """deliveries.track answers a delivered picking's Odoo state ("done") as its status."""
    _around(
        "deliveries.track",
        after=lambda p, r: (
            r.model_copy(update={"status": "done"}) if r.status == "delivered" else r
        ),
        loose=True,
    )


@mutant(
    kills=["REQ-LUJ-12"],
    seed="Lujanita contracts, DeliveriesTrackResponse: 'trackingEvents: TrackingEvent[];'",
)
def deliveries_no_events() -> None:
    """deliveries.track answers no tracking events, even for a delivered picking."""
    _around("deliveries.track", after=lambda p, r: r.model_copy(update={"tracking_events": []}))


@mutant(
    kills=["REQ-LUJ-13"],
    seed="Lujanita contracts, Errores de Odoo: '`TIMEOUT` | Odoo no respondió a tiempo'",
)
def contracts_timeout_as_internal() -> None:
    """An Odoo that does not answer in time is the contract's INTERNAL_ERROR, not TIMEOUT."""
    from odoo_mcp.contracts import tools

    original = tools.contract_code

    def code(response: Any) -> str:
        found = original(response)
        return "INTERNAL_ERROR" if found == "TIMEOUT" else found

    patch_everywhere(original, code)


@mutant(
    kills=["REQ-LUJ-15"],
    seed="Lujanita contracts, OrderLine: '@NotNull Integer quantity'",
)
def orders_quantity_fractional() -> None:
    """orders.get answers a line's quantity as a fractional number (2.5)."""
    _around("orders.get", after=lambda p, r: _lines(r, quantity=2.5))
