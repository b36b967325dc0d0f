"""Defect: an extra read tool outside the core names (odoo_acme_partner_lookup) is listed, in every
mode, without any annotations (REQ-11-17/18)."""

from typing import Any

from _acme import LOOKUP, add_tool
from _sabotage import patch_everywhere, serve

from odoo_mcp.adapter import tools as dispatch
from odoo_mcp.safety.policy import SafetyPolicy

original = SafetyPolicy.is_tool_visible
original_definition = dispatch.tool_definition


def _lookup_always_listed(self: SafetyPolicy, tool: str, hints: Any) -> bool:
    return tool == LOOKUP.name or original(self, tool, hints)


def _bare_lookup(spec: Any) -> Any:
    listed = original_definition(spec)
    return listed.model_copy(update={"annotations": None}) if spec is LOOKUP else listed


add_tool(LOOKUP)
patch_everywhere(original_definition, _bare_lookup)
SafetyPolicy.is_tool_visible = _lookup_always_listed  # type: ignore[method-assign]
serve()
