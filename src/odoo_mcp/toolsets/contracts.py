"""Lujanita: the storefront contracts toolset (decision 28: enabled only on request)."""

from __future__ import annotations

from collections.abc import Sequence

from odoo_mcp.toolsets.base import AnySpec, BaseToolset, ToolsetMetadata

__all__ = ["ContractsToolset"]

_METADATA = ToolsetMetadata(
    name="contracts",
    description="The storefront contracts: orders.get, customers.search, products.list and "
    "deliveries.track (decision 28: enabled only on request).",
    required_modules=("sale", "stock"),
    depends_on=("core",),
    tags=("storefront",),
    enabled_by_default=False,
)


class ContractsToolset(BaseToolset):
    """REQ-LUJ-16: the four contract operations, which keep their contract names."""

    def metadata(self) -> ToolsetMetadata:
        return _METADATA

    def tools(self) -> Sequence[AnySpec]:
        # imported here: the contracts' schemas cost start-up time a server without them
        # should not pay (decision 28: off by default)
        from odoo_mcp import contracts

        return contracts.TOOLS
