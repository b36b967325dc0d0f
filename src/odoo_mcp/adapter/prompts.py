"""SPEC-06 §6 over MCP: prompts/list and prompts/get, answered from :mod:`odoo_mcp.prompts`
(refusals as in :mod:`odoo_mcp.adapter.resources`, decision 27)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp.server import ServerRequestContext
from mcp.types import (
    GetPromptRequestParams,
    GetPromptResult,
    ListPromptsResult,
    PaginatedRequestParams,
    Prompt,
    PromptArgument,
    PromptMessage,
    TextContent,
)

from odoo_mcp.adapter.errors import as_mcp_error

if TYPE_CHECKING:
    from odoo_mcp.context import ServerContext

__all__ = ["PromptHandlers"]


class PromptHandlers:
    """REQ-06-17..21: the prompt request handlers, bound to one server's context."""

    def __init__(self, context: ServerContext) -> None:
        self.context = context

    async def list_prompts(
        self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None
    ) -> ListPromptsResult:
        """REQ-06-17..21: the five prompts and their arguments."""
        from odoo_mcp.prompts import PROMPTS  # deferred: cold start, issue 17

        return ListPromptsResult(
            prompts=[
                Prompt(
                    name=p.name,
                    description=p.description,
                    arguments=[
                        PromptArgument(name=name, description=text, required=True)
                        for name, text in p.arguments
                    ],
                )
                for p in PROMPTS
            ]
        )

    async def get_prompt(
        self, ctx: ServerRequestContext[Any, Any], params: GetPromptRequestParams
    ) -> GetPromptResult:
        """REQ-06-17..21: one prompt rendered from live metadata."""
        from odoo_mcp.prompts import PROMPTS, render_prompt  # deferred: cold start, issue 17

        args = dict(params.arguments or {})
        try:
            text = await render_prompt(self.context, params.name, args)
        except Exception as exc:
            raise as_mcp_error(exc, args.get("model_name"), f"prompts/get {params.name}") from None
        description = next((p.description for p in PROMPTS if p.name == params.name), None)
        return GetPromptResult(
            description=description,
            messages=[PromptMessage(role="user", content=TextContent(type="text", text=text))],
        )
