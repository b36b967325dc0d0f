"""SPEC-03: toolsets, the groups tools are enabled, disabled and listed by.

A tool's toolset is the middle part of its name (``odoo_<toolset>_<action>``, REQ-03-11). Only
``core`` exists so far; each toolset declares the Odoo modules it needs (REQ-03-15), which
``odoo_core_list_toolsets`` reports.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from pydantic import BaseModel, ConfigDict

__all__ = ["CONTRACT_OPERATIONS", "OPT_IN_TOOLSETS", "TOOLSETS", "ToolsetInfo", "toolset_of"]


class ToolsetInfo(BaseModel):
    """REQ-03-02: what a toolset declares about itself."""

    model_config = ConfigDict(frozen=True)

    name: str
    description: str
    version: str = "1.0.0"
    required_modules: tuple[str, ...] = ()
    min_odoo_version: str = "14.0"


TOOLSETS: Final[Mapping[str, ToolsetInfo]] = MappingProxyType(
    {
        "core": ToolsetInfo(
            name="core",
            description="Generic CRUD, metadata and method tools that work on any Odoo model.",
        ),
        "contracts": ToolsetInfo(
            name="contracts",
            description="The storefront contracts: orders.get, customers.search, "
            "products.list and deliveries.track (decision 28: enabled only on request).",
            required_modules=("sale", "stock"),
        ),
    }
)


#: REQ-LUJ-16: the contract operations keep their contract names, outside REQ-03-11's pattern
CONTRACT_OPERATIONS: Final = frozenset(
    {"orders.get", "customers.search", "products.list", "deliveries.track"}
)
#: Decision 28: toolsets that only an explicit enabled_toolsets entry turns on
OPT_IN_TOOLSETS: Final = frozenset({"contracts"})


def toolset_of(tool: str) -> str:
    """REQ-03-11: a tool's toolset is the middle part of ``odoo_<toolset>_<action>``."""
    if tool in CONTRACT_OPERATIONS:
        return "contracts"
    parts = tool.split("_")
    return parts[1] if len(parts) > 2 and parts[0] == "odoo" else tool
