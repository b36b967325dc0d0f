"""Defect: odoo_core_read never reports missing ids (REQ-04-07)."""

from _sabotage import serve, wrap_tool

wrap_tool("odoo_core_read", lambda data: {**data, "missing_ids": []})
serve()
