"""REQ-LUJ-01..12: the contract's request and response models, camelCase on the wire.

Ids are strings (order reference, product default code, customer id), amounts decimals that
travel as JSON numbers, dates ISO 8601 with ``Z``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer
from pydantic.alias_generators import to_camel

__all__ = [
    "Customer",
    "CustomersSearchRequest",
    "CustomersSearchResponse",
    "DeliveriesTrackRequest",
    "DeliveriesTrackResponse",
    "Money",
    "OrderLine",
    "OrdersGetRequest",
    "OrdersGetResponse",
    "Product",
    "ProductsListRequest",
    "ProductsListResponse",
    "TrackingEvent",
]

#: REQ-LUJ-02/08: a decimal amount, sent as a JSON number (two decimals)
Money = Annotated[
    Decimal,
    PlainSerializer(lambda value: float(round(value, 2)), return_type=float, when_used="json"),
]
#: REQ-LUJ-02/10: an ISO 8601 UTC timestamp such as 2025-11-29T10:30:00Z
Timestamp = Annotated[str, Field(pattern=r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")]


def _absent_not_null(schema: dict[str, Any], model: type[BaseModel]) -> None:
    """REQ-LUJ-15: an optional field is typed as the wire sends it.

    The contract's ``phone?: string`` is a string or absent, never ``null``: a field left out
    when empty (``exclude_if``) has the schema of its value alone, with no ``null`` default.
    """
    properties = schema.get("properties", {})
    for name, field in model.model_fields.items():
        prop = properties.get(field.alias or name)
        if prop is None or field.exclude_if is None:
            continue
        prop.pop("default", None)
        options = prop.pop("anyOf", None)
        if options is not None:
            kept = [option for option in options if option != {"type": "null"}]
            prop.update(kept[0] if len(kept) == 1 else {"anyOf": kept})


class ContractModel(BaseModel):
    """camelCase names on the wire, unknown request keys refused."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        json_schema_extra=_absent_not_null,
    )


class OrdersGetRequest(ContractModel):
    """REQ-LUJ-01: an order by its reference."""

    order_id: str = Field(min_length=1, description="Sale order reference, e.g. SO001")
    include_lines: bool = Field(default=False, description="Include the order lines")


class OrderLine(ContractModel):
    """REQ-LUJ-03: one line of an order."""

    product_id: str
    product_name: str
    #: the contract's TypeScript says number, its Java record Integer: a whole quantity is an
    #: integer, a fractional one (2.5 kg) is sent as it is, never truncated
    quantity: int | float
    price: Money


class OrdersGetResponse(ContractModel):
    """REQ-LUJ-02/04: an order."""

    order_id: str
    status: Literal["draft", "confirmed", "done", "cancel"]
    customer_name: str
    total_amount: Money
    created_at: Timestamp
    lines: list[OrderLine] | None = Field(default=None, exclude_if=lambda value: value is None)


class CustomersSearchRequest(ContractModel):
    """REQ-LUJ-05: customers by name, email or phone."""

    query: str = Field(min_length=1, description="Text found in the name, email or phone")
    limit: int = Field(default=10, ge=1, le=100, description="At most this many customers")


class Customer(ContractModel):
    """REQ-LUJ-06: one customer."""

    customer_id: str
    name: str
    email: str
    phone: str | None = Field(default=None, exclude_if=lambda value: value is None)


class CustomersSearchResponse(ContractModel):
    """REQ-LUJ-06: the matching customers and how many match in all."""

    customers: list[Customer]
    total_count: int


class ProductsListRequest(ContractModel):
    """REQ-LUJ-07: a page of the catalogue."""

    category_id: str | None = Field(default=None, description="Product category id")
    available: bool | None = Field(default=None, description="Only products in stock (true)")
    limit: int = Field(default=20, ge=1, le=100)
    offset: int = Field(default=0, ge=0)


class Product(ContractModel):
    """REQ-LUJ-08: one product."""

    product_id: str
    name: str
    description: str | None = Field(default=None, exclude_if=lambda value: value is None)
    price: Money
    stock: float
    category_id: str


class ProductsListResponse(ContractModel):
    """REQ-LUJ-08: the page and the total number of matches."""

    products: list[Product]
    total_count: int


class DeliveriesTrackRequest(ContractModel):
    """REQ-LUJ-09: a delivery by its reference."""

    delivery_id: str = Field(min_length=1, description="Delivery reference, e.g. WH/OUT/00021")


class TrackingEvent(ContractModel):
    """REQ-LUJ-12: one event of a delivery's history."""

    timestamp: Timestamp
    status: str
    location: str | None = Field(default=None, exclude_if=lambda value: value is None)
    notes: str | None = Field(default=None, exclude_if=lambda value: value is None)


class DeliveriesTrackResponse(ContractModel):
    """REQ-LUJ-10/11: a delivery's status and history."""

    delivery_id: str
    order_id: str
    status: Literal["pending", "in_transit", "delivered", "failed"]
    estimated_delivery: Timestamp | None = Field(
        default=None, exclude_if=lambda value: value is None
    )
    actual_delivery: Timestamp | None = Field(default=None, exclude_if=lambda value: value is None)
    tracking_events: list[TrackingEvent]
