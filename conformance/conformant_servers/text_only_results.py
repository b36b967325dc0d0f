"""Legal choice: tool results carry the JSON only as text content, never as structuredContent
(successes and errors alike), and tools declare no outputSchema (MCP requires structured
content only from tools that declare one)."""

from typing import Any

from _variant import patch_everywhere, serve

from odoo_mcp.adapter import tools as dispatch

original_definition = dispatch.tool_definition
original_call = dispatch.ToolDispatcher.call_tool


def _without_output_schema(spec: Any) -> Any:
    return original_definition(spec).model_copy(update={"output_schema": None})


async def _text_only(self: Any, ctx: Any, params: Any) -> Any:
    result = await original_call(self, ctx, params)
    return result.model_copy(update={"structured_content": None})


patch_everywhere(original_definition, _without_output_schema)
dispatch.ToolDispatcher.call_tool = _text_only  # type: ignore[method-assign]
serve()
