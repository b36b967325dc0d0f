"""The storefront contracts: schemas, the seed's mock, real answers, mappings, round trips."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import Client

from fake_odoo.handle import FakeOdoo
from mcp_servers import error_body, fake_server
from odoo_mcp.contracts import (
    CONTRACT_VERSIONS,
    TOOLS,
    contract_mocks,
    contract_schemas,
    contract_version,
)
from odoo_mcp.contracts.mapping import contract_code, delivery_status, order_status
from odoo_mcp.errors import ErrorResponse
from odoo_mcp.errors.categories import ErrorCategory

pytestmark = pytest.mark.anyio
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "contracts"
SCHEMAS = contract_schemas()


def _validate(operation: str, kind: str, payload: Any) -> None:
    jsonschema.validate(payload, SCHEMAS[operation][kind])


SEMVER = r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$"


def test_schemas_carry_the_version_and_camel_case_names() -> None:
    """REQ-LUJ-14/15: each contract's schemas carry that contract's own semantic version."""
    assert set(SCHEMAS) == {"orders.get", "customers.search", "products.list", "deliveries.track"}
    assert set(CONTRACT_VERSIONS) == set(SCHEMAS)
    for name, operation in SCHEMAS.items():
        assert re.match(SEMVER, contract_version(name))
        for schema in operation.values():
            assert schema["x-contract-version"] == contract_version(name)
            jsonschema.Draft202012Validator.check_schema(schema)
    response = SCHEMAS["orders.get"]["response"]
    assert {"orderId", "customerName", "totalAmount", "createdAt"} <= set(response["properties"])


def test_the_seed_mock_validates() -> None:
    mock = json.loads((FIXTURES / "orders.get.success.json").read_text())
    _validate("orders.get", "response", mock)
    assert contract_mocks()["orders.get"] == mock  # the shipped mock is the seed's, verbatim
    broken = {**mock, "totalAmount": "1500"}
    with pytest.raises(jsonschema.ValidationError):
        _validate("orders.get", "response", broken)


@pytest.mark.parametrize("operation", sorted(SCHEMAS))
def test_every_contract_has_a_mock_that_validates(operation: str) -> None:
    """REQ-LUJ-15: every contract has a mock response, valid against its response schema."""
    mock = contract_mocks()[operation]
    _validate(operation, "response", mock)
    required = SCHEMAS[operation]["response"]["required"]
    for key in required:  # and the schema is not vacuous: each required key is needed
        with pytest.raises(jsonschema.ValidationError):
            _validate(operation, "response", {k: v for k, v in mock.items() if k != key})


@pytest.mark.parametrize(
    ("operation", "path"),
    [("customers.search", ("customers", 0, "phone")), ("products.list", ("products", 0,
     "description")), ("deliveries.track", ("estimatedDelivery",)),
     ("deliveries.track", ("trackingEvents", 0, "notes")), ("orders.get", ("lines",))],
)  # fmt: skip
def test_optional_fields_are_absent_never_null(operation: str, path: tuple[Any, ...]) -> None:
    """REQ-LUJ-15: an optional field is typed as the wire sends it (``phone?: string``): absent
    validates, null does not (the tools leave empty optional fields out)."""
    mock = json.loads(json.dumps(contract_mocks()[operation]))
    parent = mock
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = None
    with pytest.raises(jsonschema.ValidationError):
        _validate(operation, "response", mock)
    del parent[path[-1]]
    _validate(operation, "response", mock)


def test_the_tool_listing_shows_each_contracts_version() -> None:
    """REQ-LUJ-14 / decision 31: ``_meta.contractVersion`` and the description."""
    for spec in TOOLS:
        assert spec.meta == {"contractVersion": contract_version(spec.name)}
        assert spec.description.endswith(f"Contract version {contract_version(spec.name)}.")


def _error(category: ErrorCategory, code: str) -> ErrorResponse:
    return ErrorResponse(category=category, code=code, message="m", suggestion="s", retry=False)


@pytest.mark.parametrize(
    ("category", "code", "expected"),
    [(ErrorCategory.NOT_FOUND, "RECORD_NOT_FOUND", "NOT_FOUND"),
     (ErrorCategory.VALIDATION, "INVALID_FIELD", "INVALID_PARAMS"),
     (ErrorCategory.ACCESS, "ACCESS_DENIED", "UNAUTHORIZED"),
     (ErrorCategory.ACCESS, "MODEL_BLOCKED", "UNAUTHORIZED"),
     (ErrorCategory.CONNECTION, "TIMEOUT", "TIMEOUT"),
     (ErrorCategory.CONNECTION, "SERVER_ERROR", "INTERNAL_ERROR"),
     (ErrorCategory.UNKNOWN, "UNKNOWN_ERROR", "INTERNAL_ERROR")],
)  # fmt: skip
def test_contract_codes(category: ErrorCategory, code: str, expected: str) -> None:
    """REQ-LUJ-13: SPEC-10 categories to the contract's five codes."""
    assert contract_code(_error(category, code)) == expected


@pytest.mark.parametrize(
    ("state", "locked", "major", "expected"),
    [("draft", False, 19, "draft"), ("sent", False, 16, "draft"), ("sale", False, 19, "confirmed"),
     ("sale", True, 17, "done"), ("sale", True, 16, "confirmed"), ("done", False, 16, "done"),
     ("cancel", False, 19, "cancel")],
)  # fmt: skip
def test_order_status(state: str, locked: bool, major: int, expected: str) -> None:
    assert order_status(state, locked, major) == expected


def test_delivery_status() -> None:
    states = ("draft", "waiting", "confirmed", "assigned", "done", "cancel")
    got = {state: delivery_status(state) for state in states}
    assert got == {"draft": "pending", "waiting": "pending", "confirmed": "pending",
                   "assigned": "in_transit", "done": "delivered", "cancel": "failed"}  # fmt: skip


@pytest.fixture(scope="module")
def fake() -> FakeOdoo:
    return FakeOdoo("19.0")


@pytest.fixture
async def client(fake: FakeOdoo) -> AsyncIterator[Client]:
    async with Client(fake_server(fake, enabled_toolsets="core,contracts"), mode="legacy") as c:
        yield c


CALLS = [
    ("orders.get", {"orderId": "S00038", "includeLines": True}),
    ("orders.get", {"orderId": "S00001"}),
    ("customers.search", {"query": "gmail"}),
    ("customers.search", {"query": "a", "limit": 2}),
    ("products.list", {"categoryId": "5", "available": True, "limit": 3, "offset": 1}),
    ("products.list", {}),
    ("deliveries.track", {"deliveryId": "WH/OUT/00019"}),
    ("deliveries.track", {"deliveryId": "WH/OUT/00021"}),
]


@pytest.mark.parametrize(("operation", "arguments"), CALLS)
async def test_real_answers_validate_in_two_calls_at_most(
    client: Client, fake: FakeOdoo, operation: str, arguments: dict[str, Any]
) -> None:
    _validate(operation, "request", arguments)
    fake.reset_calls()
    result = await client.call_tool(operation, arguments)
    assert not result.is_error, result.content
    _validate(operation, "response", result.structured_content)
    assert fake.call_counts() <= 2


async def test_contract_tools_are_opt_in(fake: FakeOdoo) -> None:
    async with Client(fake_server(fake), mode="legacy") as c:
        names = {tool.name for tool in (await c.list_tools()).tools}
    assert "orders.get" not in names and "odoo_core_search_read" in names


@pytest.mark.anyio
async def test_a_request_failing_the_schema_is_the_contracts_invalid_params() -> None:
    """REQ-LUJ-13 / decision 28 (issue 14): a tool error with the contract's code, not -32602."""
    fake = FakeOdoo("19.0")
    async with Client(fake_server(fake, enabled_toolsets="core,contracts"), mode="legacy") as c:
        answer = await c.call_tool("orders.get", {"includeLines": True})
        core = await c.call_tool("odoo_core_count", {"model": "res.partner"})
    body = error_body(answer)
    assert body["code"] == "INVALID_PARAMS"
    assert body["details"]["errors"][0]["loc"] == "orderId"
    assert not core.is_error  # the core tools keep JSON-RPC -32602 (REQ-10-16)


@pytest.mark.anyio
async def test_a_fractional_quantity_is_not_truncated() -> None:
    """REQ-LUJ-03 (issue 14): 2.5 units stay 2.5; whole quantities stay integers."""
    fake = FakeOdoo("19.0")
    order = fake.call("sale.order", "search", [["name", "=", "S00038"]])[0]
    line = fake.call("sale.order.line", "search", [["order_id", "=", order]], limit=1)[0]
    fake.call("sale.order.line", "write", [line], {"product_uom_qty": 2.5})
    async with Client(fake_server(fake, enabled_toolsets="core,contracts"), mode="legacy") as c:
        answer = await c.call_tool("orders.get", {"orderId": "S00038", "includeLines": True})
    assert answer.structured_content is not None, answer
    quantities = [line["quantity"] for line in answer.structured_content["lines"]]
    assert 2.5 in quantities
    assert all(isinstance(q, int) for q in quantities if q != 2.5)
    _validate("orders.get", "response", answer.structured_content)


@pytest.mark.anyio
async def test_customers_search_finds_customers_not_every_contact() -> None:
    """REQ-LUJ-05 (issue 14): a contact that is not a customer (no customer rank) is left out."""
    fake = FakeOdoo("19.0")
    fake.create("res.partner", {"name": "Proveedor Gómez", "email": "prov@example.com.ar"})
    async with Client(fake_server(fake, enabled_toolsets="core,contracts"), mode="legacy") as c:
        answer = await c.call_tool("customers.search", {"query": "Gómez"})
    assert answer.structured_content is not None
    names = [customer["name"] for customer in answer.structured_content["customers"]]
    assert names == ["Lucía Gómez"]


@pytest.mark.anyio
async def test_tracking_events_are_what_odoo_recorded() -> None:
    """REQ-LUJ-10 (issue 14): no event at a planned date; a transfer of no order is not found."""
    fake = FakeOdoo("19.0")
    async with Client(fake_server(fake, enabled_toolsets="core,contracts"), mode="legacy") as c:
        ready = await c.call_tool("deliveries.track", {"deliveryId": "WH/OUT/00019"})
        assert ready.structured_content is not None
        assert ready.structured_content["status"] == "in_transit"
        events = ready.structured_content["trackingEvents"]
        assert [e["status"] for e in events] == ["pending"]
        pick = fake.call("stock.picking", "search", [["name", "=", "WH/OUT/00019"]])[0]
        fake.call("stock.picking", "write", [pick], {"origin": False, "sale_id": False})
        orphan = await c.call_tool("deliveries.track", {"deliveryId": "WH/OUT/00019"})
    assert error_body(orphan)["code"] == "NOT_FOUND"


@pytest.mark.anyio
async def test_odoos_own_access_refusal_is_unauthorized() -> None:
    """REQ-LUJ-13: an AccessError from Odoo's access rights (not only our blocklist) is
    UNAUTHORIZED, in the SPEC-10 structure, not retried."""
    fake = FakeOdoo("19.0")
    groups = fake.call("res.groups", "search_read", [], fields=["display_name"])
    names = ("Inventory / User", "Sales / User: Own Documents Only")
    lost = [group["id"] for group in groups if group["display_name"] in names]
    demo = fake.call("res.users", "search", [["login", "=", "demo"]])[0]
    fake.edit("res.users", demo, {"group_ids": [[3, gid] for gid in lost]})
    server = fake_server(fake, login="demo", enabled_toolsets="core,contracts")
    async with Client(server, mode="legacy") as c:
        answer = await c.call_tool("deliveries.track", {"deliveryId": "WH/OUT/00021"})
    body = error_body(answer)
    assert (body["code"], body["category"], body["retry"]) == ("UNAUTHORIZED", "access", False)
    assert "stock.picking" in body["message"]
    assert any(c.model == "stock.picking" for c in fake.calls)  # Odoo refused, not us


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("fault", "expected"),
    [({"kind": "http_status", "status": 500}, "INTERNAL_ERROR"),
     ({"kind": "http_status", "status": 502}, "INTERNAL_ERROR")],
)  # fmt: skip
async def test_odoo_failures_get_the_contracts_codes(fault: dict[str, Any], expected: str) -> None:
    """REQ-LUJ-13: an unexpected Odoo server error is INTERNAL_ERROR (a time-out, TIMEOUT, needs
    a real socket: the kit's contracts.feature runs it)."""
    fake = FakeOdoo("19.0")
    server = fake_server(fake, enabled_toolsets="core,contracts", odoo_timeout=1,
                         reconnect_max_attempts=1, reconnect_backoff_base=0.1)  # fmt: skip
    async with Client(server, mode="legacy") as c:
        await c.call_tool("odoo_core_count", {"model": "res.partner"})  # connected first
        fake.inject_fault(**fault)
        answer = await c.call_tool("customers.search", {"query": "Juan"})
    assert error_body(answer)["code"] == expected
