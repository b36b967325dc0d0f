"""SPEC-11 §1: modes, enforcement per operation, and which tools each mode lists."""

from __future__ import annotations

import pytest

from odoo_mcp.safety import SafetyError
from odoo_mcp.safety.annotations import CHANGES, DELETES, READS, workflow_hints
from odoo_mcp.safety.modes import (
    EXECUTE_READ_METHODS,
    Mode,
    Operation,
    enforce_mode,
    is_tool_visible,
    operation_of_method,
)
from odoo_mcp.toolsets import all_tools

READ_TOOLS = [
    "odoo_core_search_read", "odoo_core_read", "odoo_core_count", "odoo_core_fields_get",
    "odoo_core_name_get", "odoo_core_default_get", "odoo_core_list_models",
    "odoo_core_list_toolsets", "orders.get", "customers.search", "products.list",
    "deliveries.track",
]  # fmt: skip
HINTS = {spec.name: spec.hints for spec in all_tools()}

# REQ-11-04's table: tool -> (readonly, restricted, full)
VISIBILITY = {
    **{tool: (True, True, True) for tool in READ_TOOLS},
    "odoo_core_create": (False, True, True),
    "odoo_core_write": (False, True, True),
    "odoo_core_unlink": (False, False, True),
    "odoo_core_execute": (True, True, True),
}


def test_readonly_is_the_first_mode_and_there_are_three() -> None:
    assert [m.value for m in Mode] == ["readonly", "restricted", "full"]


@pytest.mark.parametrize(("tool", "expected"), sorted(VISIBILITY.items()))
def test_tool_visibility_follows_the_mode_table(
    tool: str, expected: tuple[bool, bool, bool]
) -> None:
    modes = (Mode.READONLY, Mode.RESTRICTED, Mode.FULL)
    assert tuple(is_tool_visible(tool, mode, HINTS[tool]) for mode in modes) == expected


def test_every_tool_is_in_the_visibility_table() -> None:
    assert set(HINTS) == set(VISIBILITY)


@pytest.mark.parametrize(
    ("hints", "expected"), [(READS, [True] * 3), (CHANGES, [False, True, True]),
                            (DELETES, [False, False, True])],
)  # fmt: skip
def test_visibility_follows_the_hints_of_tools_to_come(hints: object, expected: list[bool]) -> None:
    """REQ-11-04's rows for SPEC-09 tools (post message, upload, attachment delete)."""
    assert [is_tool_visible("odoo_chatter_x", mode, hints) for mode in Mode] == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["create", "confirm", "cancel"])
def test_workflow_tools_are_hidden_in_readonly_only(kind: str) -> None:
    hints = workflow_hints(kind)  # type: ignore[arg-type]
    seen = [is_tool_visible("odoo_sales_x", mode, hints) for mode in Mode]
    assert seen == [False, True, True]


def test_hidden_tools_are_not_listed() -> None:
    listed = [tool for tool in VISIBILITY if is_tool_visible(tool, Mode.READONLY, HINTS[tool])]
    assert "odoo_core_create" not in listed
    assert "odoo_core_unlink" not in listed
    assert "odoo_core_execute" in listed


@pytest.mark.parametrize("operation", [Operation.READ, Operation.SEARCH])
@pytest.mark.parametrize("mode", list(Mode))
def test_reads_pass_in_every_mode(mode: Mode, operation: Operation) -> None:
    enforce_mode(mode, operation, "res.partner")


@pytest.mark.parametrize(
    "operation", [Operation.CREATE, Operation.WRITE, Operation.UNLINK, Operation.EXECUTE]
)
def test_readonly_refuses_every_change(operation: Operation) -> None:
    with pytest.raises(SafetyError) as caught:
        enforce_mode(Mode.READONLY, operation, "res.partner", ["res.partner"])
    assert caught.value.code == "MODE_VIOLATION"
    assert caught.value.message == (
        f"{operation.value.capitalize()} operations are not allowed in readonly mode"
    )


def test_restricted_never_deletes_even_an_allowlisted_model() -> None:
    with pytest.raises(SafetyError, match="Delete not allowed in restricted mode"):
        enforce_mode(Mode.RESTRICTED, Operation.UNLINK, "sale.order", ["sale.order"])


@pytest.mark.parametrize("operation", [Operation.CREATE, Operation.WRITE, Operation.EXECUTE])
def test_restricted_writes_only_allowlisted_models(operation: Operation) -> None:
    enforce_mode(Mode.RESTRICTED, operation, "sale.order", ["sale.order", "crm.lead"])
    with pytest.raises(SafetyError) as caught:
        enforce_mode(Mode.RESTRICTED, operation, "res.partner", ["sale.order", "crm.lead"])
    assert "crm.lead, sale.order" in caught.value.message
    assert caught.value.details["write_allowlist"] == ["crm.lead", "sale.order"]


def test_an_empty_write_allowlist_means_no_writes() -> None:
    with pytest.raises(SafetyError, match="write allowlist is empty"):
        enforce_mode(Mode.RESTRICTED, Operation.CREATE, "sale.order", [])


@pytest.mark.parametrize("operation", list(Operation))
def test_full_mode_allows_every_operation(operation: Operation) -> None:
    enforce_mode(Mode.FULL, operation, "res.partner")


def test_execute_methods_map_to_operations() -> None:
    assert len(EXECUTE_READ_METHODS) == 12  # has_access: Odoo 20's only access check
    assert {operation_of_method(m) for m in EXECUTE_READ_METHODS} == {Operation.READ}
    assert operation_of_method("unlink") is Operation.UNLINK
    assert operation_of_method("write") is Operation.WRITE
    assert operation_of_method("action_confirm") is Operation.EXECUTE
