"""Defect: an extra read tool outside the core names (odoo_acme_partner_lookup) is listed, in every
mode, without any annotations (REQ-11-17/18)."""

from _acme import LOOKUP, add_tool
from _sabotage import serve

from odoo_mcp.safety.policy import SafetyPolicy

original = SafetyPolicy.is_tool_visible


def _lookup_always_listed(self: SafetyPolicy, tool: str) -> bool:
    return tool == LOOKUP.name or original(self, tool)


add_tool(LOOKUP, None)
SafetyPolicy.is_tool_visible = _lookup_always_listed  # type: ignore[method-assign]
serve()
