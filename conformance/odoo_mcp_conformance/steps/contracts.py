"""Steps of the storefront contracts (REQ-LUJ): rights taken from the demo user, the seed's
own response interfaces, the contracts' versions in the tool listing.

The seed's TypeScript interfaces are transcribed here, independently of any server's
schemas, so that a real answer is judged on the seed alone. Keys the seed does not name are
not judged (a TypeScript interface does not forbid them); an optional field (``phone?``) may be
absent or null (the seed's Java records accept null), never of another type.
"""

from __future__ import annotations

import re
from typing import Any, Final

import pytest
from pytest_bdd import given, parsers

from odoo_mcp_conformance.checks import check
from odoo_mcp_conformance.jsonpath import MISSING, lookup
from odoo_mcp_conformance.steps.common import _tool, result_data
from odoo_mcp_conformance.world import World

#: a field: (type, required); a type is "string", "number", "integer" (a whole number: the
#: seed's Java ``Integer``; 2.0 is one, 2.5 is not), a tuple of allowed strings
#: (a TypeScript union of literals), or a one-item list [interface] for an array of it
Interface = dict[str, tuple[Any, bool]]
ORDER_LINE: Final[Interface] = {
    "productId": ("string", True), "productName": ("string", True),
    "quantity": ("integer", True), "price": ("number", True),
}  # fmt: skip
CUSTOMER: Final[Interface] = {
    "customerId": ("string", True), "name": ("string", True), "email": ("string", True),
    "phone": ("string", False),
}  # fmt: skip
PRODUCT: Final[Interface] = {
    "productId": ("string", True), "name": ("string", True), "description": ("string", False),
    "price": ("number", True), "stock": ("number", True), "categoryId": ("string", True),
}  # fmt: skip
TRACKING_EVENT: Final[Interface] = {
    "timestamp": ("string", True), "status": ("string", True), "location": ("string", False),
    "notes": ("string", False),
}  # fmt: skip
#: REQ-LUJ-15: the seed's response interfaces, per operation
SEED_RESPONSES: Final[dict[str, Interface]] = {
    "orders.get": {
        "orderId": ("string", True),
        "status": (("draft", "confirmed", "done", "cancel"), True),
        "customerName": ("string", True), "totalAmount": ("number", True),
        "createdAt": ("string", True), "lines": ([ORDER_LINE], False),
    },
    "customers.search": {"customers": ([CUSTOMER], True), "totalCount": ("number", True)},
    "products.list": {"products": ([PRODUCT], True), "totalCount": ("number", True)},
    "deliveries.track": {
        "deliveryId": ("string", True), "orderId": ("string", True),
        "status": (("pending", "in_transit", "delivered", "failed"), True),
        "estimatedDelivery": ("string", False), "actualDelivery": ("string", False),
        "trackingEvents": ([TRACKING_EVENT], True),
    },
}  # fmt: skip
SEMVER: Final = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$")


def interface_errors(value: Any, interface: Interface, where: str = "") -> list[str]:
    """REQ-LUJ-15: what in ``value`` breaks one of the seed's interfaces (empty: it fits)."""
    if not isinstance(value, dict):
        return [f"{where or 'the result'} is not an object: {value!r}"[:200]]
    errors: list[str] = []
    for key, (kind, required) in interface.items():
        path = f"{where}.{key}" if where else key
        if key not in value or value[key] is None:
            if required:
                errors.append(f"{path} is missing")
            continue
        item = value[key]
        if isinstance(kind, list):
            if not isinstance(item, list):
                errors.append(f"{path} is not an array: {item!r}"[:200])
                continue
            for index, element in enumerate(item):
                errors += interface_errors(element, kind[0], f"{path}[{index}]")
        elif isinstance(kind, tuple):
            if item not in kind:
                errors.append(f"{path} is {item!r}, not one of {', '.join(kind)}")
        elif kind in ("number", "integer"):
            if isinstance(item, bool) or not isinstance(item, int | float):
                errors.append(f"{path} is not a number: {item!r}"[:200])
            elif kind == "integer" and not float(item).is_integer():
                errors.append(f"{path} is not an Integer: {item!r}"[:200])
        elif not isinstance(item, str):
            errors.append(f"{path} is not a string: {item!r}"[:200])
    return errors


# -- Given ---------------------------------------------------------------------------------------
@given(parsers.parse('the demo user loses the group "{group}"'))
def _lose_group(world: World, group: str) -> None:
    """REQ-LUJ-13: take an access group from the demo user in Odoo itself (by its full name,
    e.g. "Inventory / User"), so that Odoo's own access rights refuse what it gave."""
    control = world.control
    groups = control.call("res.groups", "search_read", [], fields=["display_name"])
    ids = [row["id"] for row in groups if row["display_name"] == group]
    if len(ids) != 1:
        raise AssertionError(f"feature file bug: {len(ids)} groups are named {group!r}")
    users = control.call("res.users", "search", [["login", "=", "demo"]])
    if not users:
        raise AssertionError("the fake has no demo user")
    fields = control.call("res.users", "fields_get", [], attributes=["type"])
    name = "group_ids" if "group_ids" in fields else "groups_id"  # Odoo 19 / up to 18
    control.edit("res.users", int(users[0]), {name: [[3, ids[0]]]})


# -- Then ----------------------------------------------------------------------------------------
@check(parsers.parse('the result fits the seed\'s "{operation}" response'))
def _fits_seed(world: World, operation: str) -> None:
    """REQ-LUJ-15: a real answer validates against the contract's response, as the seed
    gives it (its TypeScript interface)."""
    interface = SEED_RESPONSES.get(operation)
    if interface is None:
        pytest.fail(f"feature file bug: the seed has no operation {operation!r}")
    errors = interface_errors(result_data(world), interface)
    assert not errors, f"the {operation} answer breaks the seed's interface: {'; '.join(errors)}"


def _values_of(world: World, key: str, path: str) -> list[Any]:
    items = lookup(result_data(world), path)
    assert isinstance(items, list) and items, f"{path} is not a non-empty list: {items!r}"[:300]
    values = [item.get(key, MISSING) if isinstance(item, dict) else MISSING for item in items]
    assert MISSING not in values, f"an item of {path} has no {key!r}"
    return values


@check(parsers.parse('every "{key}" of "{path}" is a whole number'))
def _whole(world: World, key: str, path: str) -> None:
    """REQ-LUJ-03: the seed's Java ``Integer`` (2 or 2.0, never 2.5)."""
    values = _values_of(world, key, path)
    wrong = [
        v
        for v in values
        if isinstance(v, bool) or not isinstance(v, int | float) or not float(v).is_integer()
    ]
    assert not wrong, f"{key} of {path} is not an Integer: {wrong[:3]}"


@check(parsers.parse('every "{key}" of "{path}" is above {floor:d}'))
def _above(world: World, key: str, path: str, floor: int) -> None:
    """REQ-LUJ-07: e.g. ``available`` lists only products in stock."""
    values = _values_of(world, key, path)
    wrong = [v for v in values if not isinstance(v, int | float) or v <= floor]
    assert not wrong, f"{key} of {path} is not above {floor}: {wrong[:3]}"


@check(parsers.parse('the result "{path}" is one of "{choices}"'))
def _one_of(world: World, path: str, choices: str) -> None:
    """REQ-LUJ-04/11: a value of the seed's union of literals."""
    allowed = [choice.strip() for choice in choices.split(",")]
    actual = lookup(result_data(world), path)
    assert actual in allowed, f"{path} is {actual!r}, not one of {', '.join(allowed)}"


@check(parsers.parse('the tool "{name}" shows a semantic contract version'))
def _version(world: World, name: str) -> None:
    """REQ-LUJ-14 / decision 31: the listing's ``_meta.contractVersion`` is a semantic
    version (MAJOR.MINOR.PATCH)."""
    tool = _tool(world, name)
    if tool is None:
        pytest.fail(f"{name} is not listed")
    meta = tool.meta or {}
    version = meta.get("contractVersion")
    assert isinstance(version, str) and SEMVER.match(version), (
        f"{name} _meta.contractVersion is {version!r}, expected a semantic version (_meta: {meta})"
    )


@check(
    parsers.parse(
        'the call fails with error code "{code}" or its result fits the seed\'s "{operation}" '
        "response"
    )
)
def _refused_or_fits(world: World, code: str, operation: str) -> None:
    """Where the contract allows two readings of a request (``categoryId?: string`` is an id
    or a name: the contract says neither), the contract's error for it or a valid answer
    both pass."""
    outcome = world.last()
    data = outcome.structured
    if outcome.error is None and outcome.is_error:
        found = data.get("code") if isinstance(data, dict) else None
        assert found == code, f"error code {found!r}, expected {code} or a valid {operation}"
        return
    assert outcome.error is None, f"JSON-RPC error {outcome.error}, expected {code} or a result"
    interface = SEED_RESPONSES.get(operation)
    if interface is None:
        pytest.fail(f"feature file bug: the seed has no operation {operation!r}")
    errors = interface_errors(result_data(world), interface)
    assert not errors, f"the {operation} answer breaks the seed's interface: {'; '.join(errors)}"
