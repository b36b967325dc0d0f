"""REQ-LUJ-14/15: the contracts' JSON Schemas, generated from the models, with a version.

Semantic versioning: a change to a required field or a type is a major bump, an optional
field or a new operation a minor one; a deprecated operation stays for two releases.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import BaseModel

from odoo_mcp.contracts import models as m

__all__ = ["CONTRACT_VERSION", "OPERATIONS", "contract_schemas"]

CONTRACT_VERSION: Final = "1.0.0"
OPERATIONS: Final[dict[str, tuple[type[BaseModel], type[BaseModel]]]] = {
    "orders.get": (m.OrdersGetRequest, m.OrdersGetResponse),
    "customers.search": (m.CustomersSearchRequest, m.CustomersSearchResponse),
    "products.list": (m.ProductsListRequest, m.ProductsListResponse),
    "deliveries.track": (m.DeliveriesTrackRequest, m.DeliveriesTrackResponse),
}


def _schema(model: type[BaseModel], operation: str, kind: str) -> dict[str, Any]:
    schema = model.model_json_schema(by_alias=True, mode="serialization")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://odoo-mcp.dev/contracts/{CONTRACT_VERSION}/{operation}.{kind}.json",
        "x-contract-version": CONTRACT_VERSION,
        **schema,
    }


def contract_schemas() -> dict[str, dict[str, dict[str, Any]]]:
    """REQ-LUJ-15: operation -> {"request": schema, "response": schema}."""
    return {
        operation: {
            "request": _schema(request, operation, "request"),
            "response": _schema(response, operation, "response"),
        }
        for operation, (request, response) in OPERATIONS.items()
    }
