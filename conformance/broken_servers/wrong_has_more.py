"""Defect: has_more is always false (REQ-04-04)."""

from _sabotage import serve, wrap_tool

wrap_tool("odoo_core_search_read", lambda data: {**data, "has_more": False})
serve()
