"""Defect: an extra write tool outside the core names (odoo_acme_partner_tag, readOnlyHint false)
is listed in readonly mode, though calls to it are refused (REQ-11-04/05)."""

from typing import Any

from _acme import LOOKUP, TAG, add_tool
from _sabotage import serve

from odoo_mcp.safety.policy import SafetyPolicy

original = SafetyPolicy.is_tool_visible


def _tag_always_listed(self: SafetyPolicy, tool: str, hints: Any) -> bool:
    return tool == TAG.name or original(self, tool, hints)


add_tool(LOOKUP)
add_tool(TAG)
SafetyPolicy.is_tool_visible = _tag_always_listed  # type: ignore[method-assign]
serve()
