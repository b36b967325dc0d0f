"""The SDK passthrough: issue 30's yardstick for what our own code costs per tool call.

One tool, ``odoo_core_search_read``, built on the MCP SDK exactly as the reference's adapter is
(``MCPServer``, the same request hooks in ``odoo_mcp.adapter.sdk``, the same stdio relay): it
posts the same JSON-2 ``search_read`` with one pooled ``httpx2`` client and returns Odoo's rows
unchanged, in the same result envelope (records, count, model, limit, offset, has_more), as a
text block and as ``structuredContent``, listed with the same ``outputSchema``. No safety, no
normalization, no HTML stripping, no audit: what is left of a call is the SDK's and Odoo's.

Run by ``bench/percall.py --passthrough`` (``python bench/passthrough_server.py`` with
ODOO_URL, ODOO_DB and ODOO_API_KEY set); never by the suite.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx2
import pydantic_core
from mcp.server import MCPServer, ServerRequestContext
from mcp.types import (
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
)

from odoo_mcp.adapter import sdk
from odoo_mcp.adapter.gc_tuning import tune_gc
from odoo_mcp.adapter.stdio import run_stdio
from odoo_mcp.tools.core_read import SearchReadInput, SearchReadResult

TOOL = Tool(
    name="odoo_core_search_read",
    description="search_read, passed through",
    input_schema=SearchReadInput.model_json_schema(),
    output_schema=SearchReadResult.model_json_schema(mode="serialization"),
)


def build() -> MCPServer[dict[str, Any]]:
    url, db, key = os.environ["ODOO_URL"], os.environ["ODOO_DB"], os.environ["ODOO_API_KEY"]
    client = httpx2.AsyncClient(
        base_url=url,
        headers={"Authorization": f"Bearer {key}", "X-Odoo-Database": db},
        timeout=30,
    )

    @asynccontextmanager
    async def lifespan(_server: Any) -> AsyncIterator[dict[str, Any]]:
        try:
            yield {}
        finally:
            await client.aclose()

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams
    ) -> ListToolsResult:
        return ListToolsResult(tools=[TOOL])

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: CallToolRequestParams
    ) -> CallToolResult:
        arguments = params.arguments or {}
        model, limit = arguments["model"], int(arguments.get("limit", 80))
        body = {"domain": arguments.get("domain", []), "fields": arguments.get("fields")}
        answer = await client.post(f"/json/2/{model}/search_read", json={**body, "limit": limit})
        rows = answer.json()
        result = {
            "records": rows,
            "count": len(rows),
            "model": model,
            "limit": limit,
            "offset": 0,
            "has_more": len(rows) == limit,
        }
        text = pydantic_core.to_json(result).decode()
        return CallToolResult(
            content=[TextContent(type="text", text=text)], structured_content=result
        )

    server: MCPServer[dict[str, Any]] = MCPServer("passthrough", lifespan=lifespan)
    sdk.on_request(server, "tools/list", PaginatedRequestParams, list_tools)
    sdk.on_request(server, "tools/call", CallToolRequestParams, call_tool)
    return server


if __name__ == "__main__":
    logging.disable(logging.INFO)  # httpx2's line per request would flood the driver's stderr
    server = build()
    tune_gc()  # as odoo-mcp serve does: the yardstick compares code, not collector settings
    anyio.run(run_stdio, server)
