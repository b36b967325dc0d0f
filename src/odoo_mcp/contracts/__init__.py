"""The storefront contracts (Lujanita): orders.get, customers.search, products.list,
deliveries.track, as MCP tools with the contract's exact request and response shapes."""

from odoo_mcp.contracts.schemas import (
    CONTRACT_VERSION,
    CONTRACT_VERSIONS,
    contract_mocks,
    contract_schemas,
    contract_version,
)
from odoo_mcp.contracts.tools import CONTRACT_TOOL_NAMES, TOOLS

__all__ = [
    "CONTRACT_TOOL_NAMES",
    "CONTRACT_VERSION",
    "CONTRACT_VERSIONS",
    "TOOLS",
    "contract_mocks",
    "contract_schemas",
    "contract_version",
]
