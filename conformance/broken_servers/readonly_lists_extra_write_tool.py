"""Defect: an extra write tool outside the core names (odoo_acme_partner_tag, readOnlyHint false)
is listed in readonly mode, though calls to it are refused (REQ-11-04/05)."""

from _acme import LOOKUP, LOOKUP_ANNOTATIONS, TAG, TAG_ANNOTATIONS, add_tool
from _sabotage import serve

from odoo_mcp.safety.policy import SafetyPolicy

original = SafetyPolicy.is_tool_visible


def _tag_always_listed(self: SafetyPolicy, tool: str) -> bool:
    return tool == TAG.name or original(self, tool)


add_tool(LOOKUP, LOOKUP_ANNOTATIONS)
add_tool(TAG, TAG_ANNOTATIONS)
SafetyPolicy.is_tool_visible = _tag_always_listed  # type: ignore[method-assign]
serve()
