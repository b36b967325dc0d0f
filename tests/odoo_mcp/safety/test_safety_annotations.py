"""SPEC-11 §6: the four annotation hints of every tool, explicit (decision 5)."""

from __future__ import annotations

import pytest

from odoo_mcp.safety.annotations import TOOL_ANNOTATIONS, annotations_for, workflow_annotations

# REQ-11-18: readOnly, destructive, idempotent, openWorld
EXPECTED = {
    "odoo_core_search_read": (True, False, True, True),
    "odoo_core_read": (True, False, True, True),
    "odoo_core_count": (True, False, True, True),
    "odoo_core_fields_get": (True, False, True, True),
    "odoo_core_name_get": (True, False, True, True),
    "odoo_core_default_get": (True, False, True, True),
    "odoo_core_deep_search": (True, False, True, True),
    "odoo_core_list_models": (True, False, True, True),
    "odoo_core_list_toolsets": (True, False, True, True),
    "odoo_core_create": (False, False, False, True),
    "odoo_core_write": (False, False, True, True),
    "odoo_core_unlink": (False, True, True, True),
    "odoo_core_execute": (False, False, False, True),
    "odoo_chatter_post_message": (False, False, False, True),
    "odoo_attachments_upload": (False, False, False, True),
    "odoo_attachments_delete": (False, True, True, True),
    "odoo_reports_generate": (True, False, True, True),
    "orders.get": (True, False, True, True),
    "customers.search": (True, False, True, True),
    "products.list": (True, False, True, True),
    "deliveries.track": (True, False, True, True),
    "odoo_reports_list": (True, False, True, True),
}
SPEC_04_TOOLS = {
    "odoo_core_search_read", "odoo_core_read", "odoo_core_create", "odoo_core_write",
    "odoo_core_unlink", "odoo_core_count", "odoo_core_fields_get", "odoo_core_execute",
    "odoo_core_name_get", "odoo_core_default_get", "odoo_core_list_toolsets",
    "odoo_core_list_models",
}  # fmt: skip


@pytest.mark.parametrize(("tool", "hints"), sorted(EXPECTED.items()))
def test_hints_match_the_spec_table(tool: str, hints: tuple[bool, bool, bool, bool]) -> None:
    a = annotations_for(tool)
    assert (a.read_only_hint, a.destructive_hint, a.idempotent_hint, a.open_world_hint) == hints


def test_every_spec_04_tool_is_annotated() -> None:
    assert set(TOOL_ANNOTATIONS) >= SPEC_04_TOOLS
    assert set(TOOL_ANNOTATIONS) == set(EXPECTED)


@pytest.mark.parametrize("tool", sorted(EXPECTED))
def test_all_four_hints_and_a_title_are_emitted(tool: str) -> None:
    wire = annotations_for(tool).model_dump(by_alias=True, exclude_none=True)
    assert set(wire) == {
        "title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"
    }  # fmt: skip
    assert wire["title"]


def test_workflow_hints_follow_their_kind() -> None:
    create = workflow_annotations("create", "Create order")
    confirm = workflow_annotations("confirm", "Confirm order")
    cancel = workflow_annotations("cancel", "Cancel order")
    assert (create.idempotent_hint, confirm.idempotent_hint, cancel.idempotent_hint) == (
        False, True, True
    )  # fmt: skip
    assert not any(h.read_only_hint or h.destructive_hint for h in (create, confirm, cancel))


def test_an_unannotated_tool_is_a_key_error() -> None:
    with pytest.raises(KeyError, match="REQ-11-18"):
        annotations_for("odoo_core_nope")
