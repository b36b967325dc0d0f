"""``python -m odoo_mcp``: the same as the ``odoo-mcp`` command (REQ-01-07)."""

from odoo_mcp.launch import console

console()
