"""SPEC-11 §6: the MCP annotations of every tool, all four hints explicit (decision 5).

The MCP defaults (readOnly false, destructive true, idempotent false, openWorld true) are the
unsafe ones, and SPEC-03's own dataclass defaults destructive to false: so no hint is ever left
to a default. Every tool talks to Odoo, so openWorld is always true (REQ-11-18).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final, Literal

from mcp.types import ToolAnnotations

__all__ = [
    "TOOL_ANNOTATIONS",
    "WorkflowKind",
    "annotations_for",
    "tool_annotations",
    "workflow_annotations",
]

WorkflowKind = Literal["create", "confirm", "cancel"]


def tool_annotations(
    title: str, *, read_only: bool, destructive: bool, idempotent: bool
) -> ToolAnnotations:
    """REQ-11-17: a title and the four booleans, every one set explicitly."""
    return ToolAnnotations(
        title=title,
        read_only_hint=read_only,
        destructive_hint=destructive,
        idempotent_hint=idempotent,
        open_world_hint=True,
    )


def _reader(title: str) -> ToolAnnotations:
    return tool_annotations(title, read_only=True, destructive=False, idempotent=True)


_TABLE: dict[str, ToolAnnotations] = {
    # REQ-11-18 row 1: the read tools of SPEC-04 (and SPEC-08's deep search).
    "odoo_core_search_read": _reader("Search and read records"),
    "odoo_core_read": _reader("Read records by ID"),
    "odoo_core_count": _reader("Count records"),
    "odoo_core_fields_get": _reader("Describe a model's fields"),
    "odoo_core_name_get": _reader("Get display names"),
    "odoo_core_default_get": _reader("Get default values"),
    "odoo_core_deep_search": _reader("Search across related models"),
    "odoo_core_list_models": _reader("List models"),
    "odoo_core_list_toolsets": _reader("List toolsets"),
    "odoo_core_create": tool_annotations(
        "Create a record", read_only=False, destructive=False, idempotent=False
    ),
    # REQ-11-18: write is idempotent (the same values twice leave the same record).
    "odoo_core_write": tool_annotations(
        "Update records", read_only=False, destructive=False, idempotent=True
    ),
    # REQ-04-18: unlink is destructive; deleting twice leaves the same state.
    "odoo_core_unlink": tool_annotations(
        "Delete records", read_only=False, destructive=True, idempotent=True
    ),
    "odoo_core_execute": tool_annotations(
        "Execute a model method", read_only=False, destructive=False, idempotent=False
    ),
    # SPEC-09 tools, for when they exist (REQ-11-18 gives their values already).
    "odoo_chatter_post_message": tool_annotations(
        "Post a chatter message", read_only=False, destructive=False, idempotent=False
    ),
    "odoo_attachments_upload": tool_annotations(
        "Upload an attachment", read_only=False, destructive=False, idempotent=False
    ),
    "odoo_attachments_delete": tool_annotations(
        "Delete an attachment", read_only=False, destructive=True, idempotent=True
    ),
    "odoo_reports_generate": _reader("Generate a report"),
    # REQ-LUJ-16: the storefront contract operations only read
    "orders.get": _reader("Get an order"),
    "customers.search": _reader("Search customers"),
    "products.list": _reader("List products"),
    "deliveries.track": _reader("Track a delivery"),
    "odoo_reports_list": _reader("List reports"),
}

#: REQ-11-18: tool name -> annotations, read-only view.
TOOL_ANNOTATIONS: Final = MappingProxyType(_TABLE)


def workflow_annotations(kind: WorkflowKind, title: str) -> ToolAnnotations:
    """REQ-11-18: workflow creates are not idempotent; confirms and cancels are."""
    return tool_annotations(title, read_only=False, destructive=False, idempotent=kind != "create")


def annotations_for(tool: str) -> ToolAnnotations:
    """REQ-11-17: the annotations a tool is registered with; an unknown name is a KeyError.

    REQ-04-18: odoo_core_unlink is the core tool marked destructive.
    """
    try:
        return TOOL_ANNOTATIONS[tool]
    except KeyError:
        raise KeyError(f"no annotations declared for tool {tool!r} (REQ-11-18)") from None
