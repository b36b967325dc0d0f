"""SPEC-11 §6: the four annotation hints of every tool, explicit (decision 5)."""

from __future__ import annotations

import pytest
from mcp.types import ToolAnnotations

from odoo_mcp.adapter.tools import tool_annotations
from odoo_mcp.safety.annotations import workflow_hints
from odoo_mcp.toolsets import AnySpec, all_tools

# REQ-11-18: readOnly, destructive, idempotent, openWorld of every tool this server has
EXPECTED = {
    "odoo_core_search_read": (True, False, True, True),
    "odoo_core_read": (True, False, True, True),
    "odoo_core_count": (True, False, True, True),
    "odoo_core_fields_get": (True, False, True, True),
    "odoo_core_name_get": (True, False, True, True),
    "odoo_core_default_get": (True, False, True, True),
    "odoo_core_list_models": (True, False, True, True),
    "odoo_core_list_toolsets": (True, False, True, True),
    "odoo_core_create": (False, False, False, True),
    "odoo_core_write": (False, False, True, True),
    "odoo_core_unlink": (False, True, True, True),
    "odoo_core_execute": (False, False, False, True),
    "orders.get": (True, False, True, True),
    "customers.search": (True, False, True, True),
    "products.list": (True, False, True, True),
    "deliveries.track": (True, False, True, True),
}
SPEC_04_TOOLS = {
    "odoo_core_search_read", "odoo_core_read", "odoo_core_create", "odoo_core_write",
    "odoo_core_unlink", "odoo_core_count", "odoo_core_fields_get", "odoo_core_execute",
    "odoo_core_name_get", "odoo_core_default_get", "odoo_core_list_toolsets",
    "odoo_core_list_models",
}  # fmt: skip


TOOLS = {spec.name: spec for spec in all_tools()}


def _spec(tool: str) -> AnySpec:
    return TOOLS[tool]


def _annotations(tool: str) -> ToolAnnotations:
    spec = _spec(tool)
    return tool_annotations(spec.title, spec.hints)


@pytest.mark.parametrize(("tool", "hints"), sorted(EXPECTED.items()))
def test_hints_match_the_spec_table(tool: str, hints: tuple[bool, bool, bool, bool]) -> None:
    a = _annotations(tool)
    assert (a.read_only_hint, a.destructive_hint, a.idempotent_hint, a.open_world_hint) == hints


def test_every_tool_is_in_the_table() -> None:
    assert set(TOOLS) >= SPEC_04_TOOLS
    assert set(TOOLS) == set(EXPECTED)


@pytest.mark.parametrize("tool", sorted(EXPECTED))
def test_all_four_hints_and_the_tools_title_are_emitted(tool: str) -> None:
    wire = _annotations(tool).model_dump(by_alias=True, exclude_none=True)
    assert set(wire) == {
        "title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"
    }  # fmt: skip
    assert wire["title"] == _spec(tool).title


def test_workflow_hints_follow_their_kind() -> None:
    create, confirm, cancel = (workflow_hints(kind) for kind in ("create", "confirm", "cancel"))
    assert (create.idempotent, confirm.idempotent, cancel.idempotent) == (False, True, True)
    assert not any(h.read_only or h.destructive for h in (create, confirm, cancel))
