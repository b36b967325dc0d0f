"""SPEC-11 §1: operating modes, enforcement per operation, and tool visibility per mode.

A tool hidden by the mode is never registered, so it is absent from ``tools/list`` and a call
to it is an unknown tool (REQ-11-05, decision 13: JSON-RPC -32601).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Final

from odoo_mcp.safety.annotations import ToolHints
from odoo_mcp.safety.blocklists import SafetyError

__all__ = [
    "ALWAYS_VISIBLE_TOOLS",
    "EXECUTE_READ_METHODS",
    "Mode",
    "Operation",
    "enforce_mode",
    "is_tool_visible",
    "operation_of_method",
]


class Mode(StrEnum):
    """REQ-11-01: the three operating modes; REQ-11-02: ``readonly`` is the default."""

    READONLY = "readonly"
    RESTRICTED = "restricted"
    FULL = "full"


class Operation(StrEnum):
    """REQ-11-03: the operations ``enforce_mode`` distinguishes."""

    READ = "read"
    SEARCH = "search"
    CREATE = "create"
    WRITE = "write"
    UNLINK = "unlink"
    EXECUTE = "execute"


#: Decision 1: the only methods ``odoo_core_execute`` accepts in readonly mode.
EXECUTE_READ_METHODS: Final = frozenset(
    {
        "read",
        "search",
        "search_read",
        "search_count",
        "fields_get",
        "default_get",
        "name_get",
        "name_search",
        "read_group",
        "check_access_rights",
        "check_access_rule",
        # Odoo 20 has no check_access_rights: has_access is its read-only access check
        # (odoo/orm/models.py @ 00649da4, docs/connection.md)
        "has_access",
    }
)

#: Decision 1: listed in every mode although not read-only; its methods are filtered instead.
ALWAYS_VISIBLE_TOOLS: Final = frozenset({"odoo_core_execute"})

_READS: Final = frozenset({Operation.READ, Operation.SEARCH})


def operation_of_method(method: str) -> Operation:
    """REQ-11-03: the operation an ``odoo_core_execute`` method stands for (decision 1)."""
    if method in EXECUTE_READ_METHODS:
        return Operation.READ
    if method in ("create", "write", "unlink"):
        return Operation(method)
    return Operation.EXECUTE


def enforce_mode(
    mode: Mode, operation: Operation, model: str, write_allowlist: Iterable[str] = ()
) -> None:
    """REQ-11-03: refuse an operation the mode forbids, before any Odoo call.

    REQ-11-10: in restricted mode only write-allowlisted models are created or written;
    REQ-11-11: an empty write allowlist means no writes at all.
    """
    if operation in _READS or mode is Mode.FULL:
        return
    details: dict[str, object] = {"mode": mode.value, "operation": operation.value, "model": model}
    if mode is Mode.READONLY:
        raise SafetyError(
            "MODE_VIOLATION",
            # REQ-04-09's words: "Create operations are not allowed in readonly mode"
            f"{operation.value.capitalize()} operations are not allowed in readonly mode",
            "The server runs in readonly mode: only reads are possible. Ask the operator "
            "to set ODOO_MCP_MODE=restricted or full if changes are intended.",
            details,
        )
    if operation is Operation.UNLINK:
        raise SafetyError(
            "MODE_VIOLATION",
            "Delete not allowed in restricted mode",
            "Deleting records needs ODOO_MCP_MODE=full; consider archiving (active=False) "
            "with odoo_core_write if the model is write-allowlisted.",
            details,
        )
    allowed = sorted(set(write_allowlist))
    if model not in allowed:
        listed = ", ".join(allowed) if allowed else "none (the write allowlist is empty)"
        raise SafetyError(
            "MODE_VIOLATION",
            f"'{operation.value}' on '{model}' not allowed in restricted mode; "
            f"models open to writes: {listed}",
            "Only models in ODOO_MCP_WRITE_ALLOWLIST can be changed in restricted mode.",
            {**details, "write_allowlist": allowed},
        )


def is_tool_visible(tool: str, mode: Mode, hints: ToolHints) -> bool:
    """REQ-11-04: which tools each mode registers, derived from the tool's hints.

    Read-only tools and ``odoo_core_execute`` are listed in every mode; destructive tools
    (unlink, attachment delete) only in ``full``; every other changing tool (create, write,
    workflow creates/confirms/cancels, post message, upload) in ``restricted`` and ``full``.
    """
    if tool in ALWAYS_VISIBLE_TOOLS or hints.read_only:
        return True
    if hints.destructive:
        return mode is Mode.FULL
    return mode is not Mode.READONLY
