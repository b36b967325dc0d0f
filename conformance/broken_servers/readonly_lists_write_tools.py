"""Defect: write tools stay listed in readonly mode, though calls are refused (REQ-11-04/05)."""

from _sabotage import serve

from odoo_mcp.safety.policy import SafetyPolicy

SafetyPolicy.is_tool_visible = lambda self, tool, hints: True  # type: ignore[method-assign]
serve()
