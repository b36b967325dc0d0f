"""SPEC-11 §6: the hints behind a tool's MCP annotations, all four explicit (decision 5).

The MCP defaults (readOnly false, destructive true, idempotent false, openWorld true) are the
unsafe ones, and SPEC-03's own dataclass defaults destructive to false: so no hint is ever left
to a default. Every tool talks to Odoo, so openWorld is always true (REQ-11-18). Each tool
declares its hints in its own ``ToolSpec`` (``odoo_mcp.context``); the title is the
tool's, given once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

__all__ = [
    "CHANGES",
    "CHANGES_IDEMPOTENT",
    "DELETES",
    "READS",
    "ToolHints",
    "WorkflowKind",
    "workflow_hints",
]

WorkflowKind = Literal["create", "confirm", "cancel"]


@dataclass(frozen=True)
class ToolHints:
    """REQ-11-18, REQ-03-14: the three hints that differ between tools (openWorld is always
    true); each tool declares the ones that follow what it does."""

    read_only: bool
    destructive: bool
    idempotent: bool


#: REQ-11-18 row 1: tools that only read
READS: Final = ToolHints(read_only=True, destructive=False, idempotent=True)
#: REQ-11-18: create and method calls change data and repeating them does it again
CHANGES: Final = ToolHints(read_only=False, destructive=False, idempotent=False)
#: REQ-11-18: write is idempotent (the same values twice leave the same record)
CHANGES_IDEMPOTENT: Final = ToolHints(read_only=False, destructive=False, idempotent=True)
#: REQ-04-18: deleting is destructive; deleting twice leaves the same state
DELETES: Final = ToolHints(read_only=False, destructive=True, idempotent=True)


def workflow_hints(kind: WorkflowKind) -> ToolHints:
    """REQ-11-18: workflow creates are not idempotent; confirms and cancels are."""
    return CHANGES if kind == "create" else CHANGES_IDEMPOTENT
