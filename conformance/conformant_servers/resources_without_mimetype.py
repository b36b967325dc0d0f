"""Legal choice: resources/read contents carry no mimeType (MCP makes it optional; SPEC-06 §3-4
show it in the resource listings, not as a requirement on read contents)."""

from typing import Any

from _variant import serve

from odoo_mcp.adapter.resources import ResourceHandlers

original = ResourceHandlers.read


async def _no_mime(self: Any, ctx: Any, params: Any) -> Any:
    result = await original(self, ctx, params)
    contents = [item.model_copy(update={"mime_type": None}) for item in result.contents]
    return result.model_copy(update={"contents": contents})


ResourceHandlers.read = _no_mime  # type: ignore[method-assign]
serve()
