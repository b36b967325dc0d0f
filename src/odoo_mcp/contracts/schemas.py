"""REQ-LUJ-14/15: the contracts' JSON Schemas, generated from the models, their versions and
their mock payloads.

Semantic versioning, one version per contract (decision 31): a change to a required field or
a type is a major bump, an optional field or a new operation a minor one; a deprecated
operation stays for two releases.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Final

from pydantic import BaseModel

from odoo_mcp.contracts import models as m

__all__ = [
    "CONTRACT_VERSION",
    "CONTRACT_VERSIONS",
    "OPERATIONS",
    "contract_mocks",
    "contract_schemas",
    "contract_version",
]

OPERATIONS: Final[dict[str, tuple[type[BaseModel], type[BaseModel]]]] = {
    "orders.get": (m.OrdersGetRequest, m.OrdersGetResponse),
    "customers.search": (m.CustomersSearchRequest, m.CustomersSearchResponse),
    "products.list": (m.ProductsListRequest, m.ProductsListResponse),
    "deliveries.track": (m.DeliveriesTrackRequest, m.DeliveriesTrackResponse),
}
#: REQ-LUJ-14: each contract's own semantic version (bump the one that changes)
CONTRACT_VERSIONS: Final[dict[str, str]] = {
    "orders.get": "1.0.0",
    "customers.search": "1.0.0",
    "products.list": "1.0.0",
    "deliveries.track": "1.0.0",
}
#: the version of the set as a whole (the highest of the contracts' versions)
CONTRACT_VERSION: Final = max(
    CONTRACT_VERSIONS.values(), key=lambda v: tuple(int(part) for part in v.split("."))
)
_MOCKS: Final = "mocks"


def contract_version(operation: str) -> str:
    """REQ-LUJ-14: the semantic version of one contract."""
    return CONTRACT_VERSIONS[operation]


def _schema(model: type[BaseModel], operation: str, kind: str) -> dict[str, Any]:
    schema = model.model_json_schema(by_alias=True, mode="serialization")
    version = contract_version(operation)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://odoo-mcp.dev/contracts/{operation}/{version}/{kind}.json",
        "x-contract-version": version,
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


def contract_mocks() -> dict[str, dict[str, Any]]:
    """REQ-LUJ-15: operation -> its mock success response (``mocks/<operation>.success.json``)."""
    folder = resources.files(__package__).joinpath(_MOCKS)
    return {
        operation: json.loads(folder.joinpath(f"{operation}.success.json").read_text("utf-8"))
        for operation in OPERATIONS
    }
