"""Legal choice (decision 13's other side): in readonly mode ``odoo_core_create`` stays listed
and a call is refused as a tool error (``isError``, category ``access``) with REQ-04-09's
message "Create operations are not allowed in readonly mode", before any Odoo call. SPEC-04
§3.3 REQ-04-09 gives that message; the reference hides the tool (REQ-11-05), so its readonly
create is an unknown tool, -32601 (SPEC-10 REQ-10-16, decision 13)."""

from typing import Any

from _variant import replace_handler, serve

from odoo_mcp.safety import policy
from odoo_mcp.safety.blocklists import SafetyError
from odoo_mcp.safety.modes import Mode

CREATE = "odoo_core_create"
original_visible = policy.SafetyPolicy.is_tool_visible


def _visible(self: Any, tool: str, hints: Any) -> bool:
    return tool == CREATE or original_visible(self, tool, hints)


def _refuse_in_readonly(handler: Any) -> Any:
    async def create(ctx: Any, params: Any) -> Any:
        if ctx.policy.mode is Mode.READONLY:
            raise SafetyError(
                "MODE_VIOLATION",
                "Create operations are not allowed in readonly mode",
                "The server runs in readonly mode: only reads are possible.",
                {"mode": "readonly", "operation": "create", "model": params.model},
            )
        return await handler(ctx, params)

    return create


policy.SafetyPolicy.is_tool_visible = _visible  # type: ignore[method-assign]
replace_handler(CREATE, _refuse_in_readonly)
serve()
