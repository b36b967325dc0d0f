"""Legal choice (decision 20's other side): in restricted mode ``odoo_core_execute`` is a write
tool for every method, as REQ-11-03 read literally says: a model outside the write allowlist is
refused (MODE_VIOLATION, before Odoo), read methods included; readonly and full modes are
unchanged. SPEC-04 §3.8 REQ-04-26 names only readonly mode's rule for execute."""

from typing import Any

from _variant import replace_handler, serve

from odoo_mcp.safety.blocklists import SafetyError
from odoo_mcp.safety.modes import Mode


def _allowlisted_only(handler: Any) -> Any:
    async def execute(ctx: Any, params: Any) -> Any:
        policy = ctx.policy
        if policy.mode is Mode.RESTRICTED and params.model not in policy.write_allowlist:
            raise SafetyError(
                "MODE_VIOLATION",
                f"odoo_core_execute on {params.model} needs the model in the write allowlist "
                "in restricted mode",
                "Use odoo_core_search_read or odoo_core_read to read, or ask the operator to "
                "add the model to ODOO_MCP_WRITE_ALLOWLIST.",
                {"mode": "restricted", "model": params.model, "method": params.method},
            )
        return await handler(ctx, params)

    return execute


replace_handler("odoo_core_execute", _allowlisted_only)
serve()
