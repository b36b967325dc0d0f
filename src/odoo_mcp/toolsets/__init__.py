"""SPEC-03: toolsets, the groups tools are registered, enabled, disabled and listed by.

REQ-03-05: the toolsets are an explicit list, ``ALL_TOOLSETS``; each owns its tools. The
``ToolsetRegistry`` orders them by dependency, checks each against the connected Odoo and the
configuration, registers what can run and reports what it did (REQ-03-04..10).
"""

from __future__ import annotations

from typing import Final

from odoo_mcp.toolsets.base import AnySpec, BaseToolset, ToolsetMetadata
from odoo_mcp.toolsets.contracts import ContractsToolset
from odoo_mcp.toolsets.core import CoreToolset
from odoo_mcp.toolsets.registration import (
    DuplicateToolError,
    RegistrationReport,
    ToolsetCycleError,
    ToolsetRegistrationResult,
    ToolsetRegistry,
)

__all__ = [
    "ALL_TOOLSETS",
    "AnySpec",
    "BaseToolset",
    "DuplicateToolError",
    "RegistrationReport",
    "ToolsetCycleError",
    "ToolsetMetadata",
    "ToolsetRegistrationResult",
    "ToolsetRegistry",
    "all_tools",
]

#: REQ-03-05: every toolset of this server, in no particular order (REQ-03-06 orders them)
ALL_TOOLSETS: Final[tuple[BaseToolset, ...]] = (CoreToolset(), ContractsToolset())


def all_tools() -> tuple[AnySpec, ...]:
    """Every tool of every toolset, registered or not (docs, tests, ``odoo-mcp check``)."""
    return tuple(spec for toolset in ALL_TOOLSETS for spec in toolset.tools())
