"""SPEC-04: the core toolset: generic tools that work on any Odoo model (REQ-03-15)."""

from __future__ import annotations

from collections.abc import Sequence

from odoo_mcp.tools.catalogue import core_tools
from odoo_mcp.toolsets.base import AnySpec, BaseToolset, ToolsetMetadata

__all__ = ["CoreToolset"]

_METADATA = ToolsetMetadata(
    name="core",
    description="Generic CRUD, metadata and method tools that work on any Odoo model.",
    tags=("crud", "metadata"),
)


class CoreToolset(BaseToolset):
    """REQ-03-15: core needs no module and depends on no other toolset; REQ-03-11: its tools
    are named ``odoo_core_<action>``."""

    def metadata(self) -> ToolsetMetadata:
        return _METADATA

    def tools(self) -> Sequence[AnySpec]:
        # issue 41: listed from the catalogue; each tool's module is imported on first use
        return core_tools()
