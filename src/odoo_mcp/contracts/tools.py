"""REQ-LUJ-16: the four contract operations as MCP tools, read-only, at most 2 Odoo calls each.

They go through the same dispatcher as every tool (safety checks first, rate limit, audit) and
answer in the contract's shapes. Their errors keep the SPEC-10 structure with the contract's
codes (REQ-LUJ-13).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from decimal import Decimal
from functools import wraps
from typing import Any, Final, TypeVar

from pydantic import BaseModel

from odoo_mcp.connection import OdooError
from odoo_mcp.context import ServerContext
from odoo_mcp.contracts.mapping import contract_code, delivery_status, order_status, utc
from odoo_mcp.contracts.models import (
    Customer,
    CustomersSearchRequest,
    CustomersSearchResponse,
    DeliveriesTrackRequest,
    DeliveriesTrackResponse,
    OrderLine,
    OrdersGetRequest,
    OrdersGetResponse,
    Product,
    ProductsListRequest,
    ProductsListResponse,
    TrackingEvent,
)
from odoo_mcp.contracts.schemas import contract_version
from odoo_mcp.errors import ToolError, classify
from odoo_mcp.errors.categories import ErrorCategory
from odoo_mcp.safety import Operation, SafetyError
from odoo_mcp.safety.annotations import READS
from odoo_mcp.tools.spec import ToolSpec

__all__ = ["CONTRACT_TOOL_NAMES", "TOOLS"]

P = TypeVar("P", bound=BaseModel)
R = TypeVar("R", bound=BaseModel)
_CODE = re.compile(r"^\[(?P<code>[^\]]+)\]\s*(?P<name>.*)$")


def _contract_errors(
    handler: Callable[[ServerContext, P], Awaitable[R]],
) -> Callable[[ServerContext, P], Awaitable[R]]:
    """REQ-LUJ-13: Odoo and safety errors re-coded for the contract, SPEC-10 shape kept."""

    @wraps(handler)
    async def run(ctx: ServerContext, params: P) -> R:
        try:
            return await handler(ctx, params)
        except (OdooError, SafetyError, ToolError) as exc:
            response = classify(exc, model=None, method=handler.__name__)
            raise ToolError(
                contract_code(response),
                response.message,
                category=response.category,
                suggestion=response.suggestion,
                details=response.details,
                retry=response.retry,
                retry_after=response.retry_after,
            ) from exc

    return run


def _not_found(what: str) -> ToolError:
    return ToolError(
        "NOT_FOUND",
        f"{what} does not exist",
        category=ErrorCategory.NOT_FOUND,
        suggestion="Check the reference; customers.search and products.list find existing ones.",
    )


def _quantity(value: Any) -> int | float:
    """REQ-LUJ-03: a whole quantity as an integer, a fractional one as it is (not truncated)."""
    number = float(value or 0)
    return int(number) if number.is_integer() else number


def _product_ref(value: Any) -> tuple[str, str]:
    """REQ-LUJ-03: (productId, productName) from a many2one: Odoo shows '[CODE] Name'."""
    if not isinstance(value, list) or len(value) != 2:
        return "", ""
    match = _CODE.match(str(value[1]))
    if match:
        return match["code"], match["name"]
    return str(value[0]), str(value[1])


@_contract_errors
async def orders_get(ctx: ServerContext, params: OrdersGetRequest) -> OrdersGetResponse:
    """REQ-LUJ-01/02/04: one search_read of the order, a second for its lines if asked."""
    ctx.policy.check_operation(Operation.READ, "sale.order")
    version = ctx.odoo.odoo_version
    major = version.major if version else None
    fields = ["name", "state", "partner_id", "amount_total", "create_date"]
    fields += ["locked"] if major is None or major >= 17 else []
    rows = await ctx.odoo.search_read(
        "sale.order", [["name", "=", params.order_id]], fields, limit=1
    )
    if not rows:
        raise _not_found(f"Order {params.order_id}")
    order = rows[0]
    lines: list[OrderLine] | None = None
    if params.include_lines:
        ctx.policy.check_operation(Operation.READ, "sale.order.line")
        line_rows = await ctx.odoo.search_read(
            "sale.order.line",
            [["order_id", "=", order["id"]], ["display_type", "=", False]],
            ["product_id", "product_uom_qty", "price_unit"],
            order="sequence, id",
        )
        lines = []
        for line in line_rows:
            code, name = _product_ref(line.get("product_id"))
            lines.append(
                OrderLine(
                    product_id=code,
                    product_name=name,
                    quantity=_quantity(line.get("product_uom_qty")),
                    price=Decimal(str(line.get("price_unit") or 0)),
                )
            )
    created = utc(order.get("create_date"))
    if created is None:  # REQ-LUJ-02: createdAt is required and never made up
        raise ToolError(
            "INTERNAL_ERROR",
            f"Odoo sent order {params.order_id} without its creation date",
            category=ErrorCategory.UNKNOWN,
        )
    partner = order.get("partner_id")
    return OrdersGetResponse(
        order_id=order["name"],
        status=order_status(str(order["state"]), bool(order.get("locked")), major),
        customer_name=str(partner[1]) if isinstance(partner, list) else "",
        total_amount=Decimal(str(order.get("amount_total") or 0)),
        created_at=created,
        lines=lines,
    )


@_contract_errors
async def customers_search(
    ctx: ServerContext, params: CustomersSearchRequest
) -> CustomersSearchResponse:
    """REQ-LUJ-05/06: customers whose name, email or phone is ilike the query; the page and
    the total count."""
    ctx.policy.check_operation(Operation.READ, "res.partner")
    query = params.query.strip()
    # REQ-11-14: a field the safety settings block is neither matched on nor read (matching
    # on it would tell which customers hold the text); it comes back empty
    searched = [
        name
        for name in ("name", "email", "phone")
        if not ctx.policy.is_field_blocked("res.partner", name)
    ]
    if not searched:
        return CustomersSearchResponse(customers=[], total_count=0)
    # customers: partners with a customer rank (sale and account give it), not every contact
    domain: list[Any] = ["&", ["customer_rank", ">", 0]]
    domain += ["|"] * (len(searched) - 1) + [[f, "ilike", query] for f in searched]
    rows = await ctx.odoo.search_read(
        "res.partner", domain, searched, limit=params.limit, order="name, id"
    )
    total = len(rows)
    if total >= params.limit:
        total = int(await ctx.odoo.search_count("res.partner", domain))
    customers = [
        Customer(
            customer_id=str(row["id"]),
            name=str(row.get("name") or ""),
            email=str(row.get("email") or ""),
            phone=str(row["phone"]) if row.get("phone") else None,
        )
        for row in rows
    ]
    return CustomersSearchResponse(customers=customers, total_count=total)


@_contract_errors
async def products_list(ctx: ServerContext, params: ProductsListRequest) -> ProductsListResponse:
    """REQ-LUJ-07/08: category and availability filters, limit/offset, the total count."""
    ctx.policy.check_operation(Operation.READ, "product.product")
    domain: list[Any] = [["sale_ok", "=", True]]
    if params.category_id is not None:
        if not params.category_id.isdigit():
            raise ToolError(
                "INVALID_PARAMS",
                f"categoryId '{params.category_id}' is not a category id (digits)",
                suggestion="Use the categoryId of a product from products.list.",
            )
        domain.append(["categ_id", "child_of", int(params.category_id)])
    if params.available:
        domain.append(["qty_available", ">", 0])
    fields = ["default_code", "name", "description_sale", "lst_price", "qty_available", "categ_id"]
    rows = await ctx.odoo.search_read(
        "product.product",
        domain,
        fields,
        offset=params.offset,
        limit=params.limit,
        order="default_code, id",
    )
    total = int(await ctx.odoo.search_count("product.product", domain))
    products = [
        Product(
            product_id=str(row.get("default_code") or row["id"]),
            name=str(row.get("name") or ""),
            description=str(row["description_sale"]) if row.get("description_sale") else None,
            price=Decimal(str(row.get("lst_price") or 0)),
            stock=float(row.get("qty_available") or 0),
            category_id=str(row["categ_id"][0]) if isinstance(row.get("categ_id"), list) else "",
        )
        for row in rows
    ]
    return ProductsListResponse(products=products, total_count=total)


@_contract_errors
async def deliveries_track(
    ctx: ServerContext, params: DeliveriesTrackRequest
) -> DeliveriesTrackResponse:
    """REQ-LUJ-09..12: one search_read; events only from what Odoo recorded: the creation,
    the validation (``date_done``) and, for a cancelled delivery, its last change. A planned
    date (``scheduled_date``) is no event; it is the estimated delivery."""
    ctx.policy.check_operation(Operation.READ, "stock.picking")
    fields = [
        "name",
        "origin",
        "state",
        "create_date",
        "write_date",
        "scheduled_date",
        "date_deadline",
        "date_done",
        "sale_id",
        "location_dest_id",
    ]
    rows = await ctx.odoo.search_read(
        "stock.picking", [["name", "=", params.delivery_id]], fields, limit=1
    )
    if not rows:
        raise _not_found(f"Delivery {params.delivery_id}")
    pick = rows[0]
    sale = pick.get("sale_id")
    order_ref = str(sale[1]) if isinstance(sale, list) else str(pick.get("origin") or "")
    if not order_ref:  # the contract's orderId is required: a transfer of no order is not one
        raise _not_found(f"Delivery {params.delivery_id} of an order")
    status = delivery_status(str(pick["state"]))
    destination = pick.get("location_dest_id")
    where = str(destination[1]) if isinstance(destination, list) else None
    events: list[TrackingEvent] = []
    if created := utc(pick.get("create_date")):
        events.append(
            TrackingEvent(timestamp=created, status="pending", notes="Delivery order created")
        )
    done = utc(pick.get("date_done"))
    if status == "delivered" and done:
        events.append(
            TrackingEvent(timestamp=done, status="delivered", location=where, notes="Delivered")
        )
    cancelled = utc(pick.get("write_date"))
    if status == "failed" and cancelled:
        events.append(
            TrackingEvent(timestamp=cancelled, status="failed", notes="Delivery cancelled")
        )
    scheduled = utc(pick.get("scheduled_date"))
    return DeliveriesTrackResponse(
        delivery_id=pick["name"],
        order_id=order_ref,
        status=status,
        estimated_delivery=utc(pick.get("date_deadline")) or scheduled,
        actual_delivery=done if status == "delivered" else None,
        tracking_events=events,
    )


def _contract(
    name: str,
    title: str,
    description: str,
    input_model: type[BaseModel],
    result_model: type[BaseModel],
    handler: Any,
) -> ToolSpec[Any, Any]:
    """REQ-LUJ-14: a contract operation; its listing shows the contract's version (decision
    31): in ``_meta`` as ``contractVersion`` and at the end of the description.

    REQ-LUJ-13: a request that fails the contract's schema gets the contract's INVALID_PARAMS.
    """
    version = contract_version(name)
    return ToolSpec(
        name=name,
        title=title,
        description=f"{description} Contract version {version}.",
        input_model=input_model,
        result_model=result_model,
        handler=handler,
        hints=READS,  # REQ-LUJ-16: the storefront operations only read
        schema_errors_as_results=True,
        answer_keys_are_fields=False,
        meta={"contractVersion": version},
    )


TOOLS: Final[tuple[ToolSpec[Any, Any], ...]] = (
    _contract(
        "orders.get",
        "Get an order",
        "A sale order by its reference (orderId, e.g. S00035): status "
        "(draft/confirmed/done/cancel), customer, total, creation date, and the lines "
        "when includeLines is true.",
        OrdersGetRequest,
        OrdersGetResponse,
        orders_get,
    ),
    _contract(
        "customers.search",
        "Search customers",
        "Customers whose name, email or phone contains the query, with the total "
        "number of matches.",
        CustomersSearchRequest,
        CustomersSearchResponse,
        customers_search,
    ),
    _contract(
        "products.list",
        "List products",
        "A page (limit/offset) of the catalogue, optionally one category (categoryId) "
        "and only what is in stock (available), with the total count.",
        ProductsListRequest,
        ProductsListResponse,
        products_list,
    ),
    _contract(
        "deliveries.track",
        "Track a delivery",
        "A delivery by its reference (deliveryId, e.g. WH/OUT/00019): status "
        "(pending/in_transit/delivered/failed), order, dates and tracking events.",
        DeliveriesTrackRequest,
        DeliveriesTrackResponse,
        deliveries_track,
    ),
)
CONTRACT_TOOL_NAMES: Final = frozenset(spec.name for spec in TOOLS)
