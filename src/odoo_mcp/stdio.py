"""MCP over stdio, answering the lines the SDK cannot parse.

The SDK's stdio transport (mcp 2.3) hands a line it cannot parse (invalid UTF-8 such as a lone
surrogate escape, nesting deeper than its parser takes, or not JSON-RPC at all) to the server
as an exception, and the server only logs it: the client waits for an answer that never comes.
JSON-RPC 2.0 says such a request gets a Parse error (-32700) with a null id; this relay sends
it. It uses the SDK's low-level server directly: ``MCPServer`` has no public hook for the
stdio streams (the same private handle ``server.build_server`` wires the handlers on).
"""

from __future__ import annotations

import logging

import anyio
from mcp.server import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared._context_streams import create_context_streams
from mcp.shared.message import SessionMessage
from mcp.types import PARSE_ERROR, ErrorData, JSONRPCError

__all__ = ["run_stdio"]

logger = logging.getLogger("odoo_mcp.stdio")


def parse_error(exc: Exception) -> SessionMessage:
    """REQ-10-16: the JSON-RPC answer to a line that is not a JSON-RPC message."""
    reason = type(exc).__name__
    error = ErrorData(
        code=PARSE_ERROR, message=f"Parse error: the request is not valid JSON-RPC ({reason})"
    )
    return SessionMessage(JSONRPCError(jsonrpc="2.0", id=None, error=error))


async def run_stdio(server: MCPServer) -> None:
    """Serve ``server`` on stdin/stdout; an unparsable line is answered -32700."""
    low = server._lowlevel_server
    async with stdio_server() as (read_stream, write_stream):
        relay_writer, relay_reader = create_context_streams[SessionMessage | Exception](0)

        async def relay() -> None:
            async with relay_writer:
                async for item in read_stream:
                    if isinstance(item, Exception):
                        logger.warning(
                            "unparsable request line answered -32700: %s", type(item).__name__
                        )
                        await write_stream.send(parse_error(item))
                        continue
                    await relay_writer.send(item)

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(relay)
            await low.run(relay_reader, write_stream, low.create_initialization_options())
            tasks.cancel_scope.cancel()
