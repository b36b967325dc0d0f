"""The storefront contracts (Lujanita): orders.get, customers.search, products.list,
deliveries.track, as MCP tools with the contract's exact request and response shapes."""

from odoo_mcp.contracts.schemas import CONTRACT_VERSION, contract_schemas
from odoo_mcp.contracts.tools import CONTRACT_TOOL_NAMES, TOOLS

__all__ = ["CONTRACT_TOOL_NAMES", "CONTRACT_VERSION", "TOOLS", "contract_schemas"]
