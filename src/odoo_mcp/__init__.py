"""The reference Odoo MCP server (``odoo-mcp``)."""

#: REQ-01-17: the package's version; pyproject.toml reads it from here ([tool.hatch.version])
__version__ = "0.1.0"
