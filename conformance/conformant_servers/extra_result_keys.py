"""Legal choice: every successful SPEC-04 tool result carries one more key (``_meta_server``)
and every error body one more key in ``details`` (``server_variant``); SPEC-04 / SPEC-10 list
the keys a result must have, not the keys it may have. (The storefront contract tools are left
alone: their outputSchema is closed and REQ-LUJ-14/15 ask for exactly the contract's fields.)"""

import json
from typing import Any

from _variant import patch_everywhere, serve

from odoo_mcp.adapter import tools as dispatch
from odoo_mcp.errors import response

KEY, DETAIL = "_meta_server", "server_variant"
original_payload = response.to_payload
original_run = dispatch.ToolDispatcher._run


def _error_with_extra(error: Any) -> Any:
    payload = original_payload(error)
    payload["details"] = {**(payload.get("details") or {}), DETAIL: "conformant-variant"}
    return payload


async def _success_with_extra(self: Any, spec: Any, params: Any, ctx: Any) -> Any:
    result = await original_run(self, spec, params, ctx)
    core = spec.name.startswith("odoo_core_")
    if not core or result.is_error or not isinstance(result.structured_content, dict):
        return result
    payload = {**result.structured_content, KEY: "conformant-variant"}
    text = json.dumps(payload, ensure_ascii=False)
    content = [dispatch.TextContent(type="text", text=text)]
    return result.model_copy(update={"structured_content": payload, "content": content})


patch_everywhere(original_payload, _error_with_extra)
dispatch.ToolDispatcher._run = _success_with_extra  # type: ignore[method-assign]
serve()
