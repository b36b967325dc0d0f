"""MCP over stdio, answering the lines the SDK cannot parse.

The SDK's stdio transport (mcp 2.3) hands a line it cannot parse (invalid UTF-8 such as a lone
surrogate escape, nesting deeper than its parser takes, or not JSON-RPC at all) to the server
as an exception, and the server only logs it: the client waits for an answer that never comes.
JSON-RPC 2.0 says such a request gets a Parse error (-32700) with a null id; this relay sends
it. It runs the SDK's low-level server on streams of its own: ``MCPServer`` has no public
hook for that (``odoo_mcp.adapter.sdk`` holds the private parts used).
"""

from __future__ import annotations

import logging
import os
import signal
from typing import Final

import anyio
from mcp.server import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import (
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    JSONRPCRequest,
    JSONRPCResponse,
    RequestId,
)

from odoo_mcp.adapter import sdk

__all__ = ["run_stdio"]

logger = logging.getLogger("odoo_mcp.stdio")

#: REQ-01-24: how long requests already received may run on after SIGTERM or SIGINT
DRAIN_SECONDS: Final = 30.0


def parse_error(exc: Exception) -> SessionMessage:
    """REQ-10-16: the JSON-RPC answer to a line that is not a JSON-RPC message."""
    reason = type(exc).__name__
    error = ErrorData(
        code=PARSE_ERROR, message=f"Parse error: the request is not valid JSON-RPC ({reason})"
    )
    return SessionMessage(JSONRPCError(jsonrpc="2.0", id=None, error=error))


async def run_stdio(server: MCPServer, *, drain_seconds: float = DRAIN_SECONDS) -> None:
    """Serve ``server`` on stdin/stdout; an unparsable line is answered -32700.

    REQ-01-24: on SIGTERM or SIGINT no further request is read; those already received are
    answered (for ``drain_seconds`` at most), then the session ends, the server's lifespan
    closes the Odoo connection and this returns, so the process exits 0. The SDK cancels
    what is still running when its input ends, so the input is only closed once the
    requests in flight (tracked by id on the way in and out) are answered.
    """
    low = sdk.low_level(server)
    async with stdio_server() as (read_stream, write_stream):
        relay_writer, relay_reader = sdk.create_context_streams[SessionMessage | Exception](0)
        answer_writer, answer_reader = sdk.create_context_streams[SessionMessage](0)
        in_flight: set[RequestId] = set()
        intake = anyio.CancelScope()
        watching = anyio.CancelScope()

        async def relay() -> None:
            with intake:
                async for item in read_stream:
                    if isinstance(item, Exception):
                        logger.warning(
                            "unparsable request line answered -32700: %s", type(item).__name__
                        )
                        await write_stream.send(parse_error(item))
                        continue
                    if isinstance(item.message, JSONRPCRequest):
                        in_flight.add(item.message.id)
                    await relay_writer.send(item)
            if not intake.cancel_called:  # the client closed stdin: the session is over
                await relay_writer.aclose()

        async def answer() -> None:
            async with answer_reader:
                async for message in answer_reader:
                    if isinstance(message.message, JSONRPCResponse | JSONRPCError):
                        in_flight.discard(message.message.id)
                    await write_stream.send(message)

        async with anyio.create_task_group() as tasks:

            async def stop_on_signal() -> None:
                with watching, anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
                    async for signum in signals:
                        logger.info(
                            "%s: no new requests; draining %d for up to %.0f s",
                            signal.Signals(signum).name,
                            len(in_flight),
                            drain_seconds,
                        )
                        intake.cancel()
                        with anyio.move_on_after(drain_seconds) as drain:
                            while in_flight:
                                await anyio.sleep(0.02)
                        if drain.cancelled_caught:
                            logger.warning(
                                "drain time over: %d requests unanswered", len(in_flight)
                            )
                        await relay_writer.aclose()
                        return

            tasks.start_soon(relay)
            tasks.start_soon(answer)
            tasks.start_soon(stop_on_signal)
            async with answer_writer:
                await low.run(relay_reader, answer_writer, low.create_initialization_options())
            # the relay has ended (stdin closed, or a signal stopped it) and the answer task
            # ends once it has handed the last answer on: only the signal watcher is waiting
            watching.cancel()
        if not intake.cancel_called:
            # REQ-01-24: the client closed stdin: the SDK's stdout writer ends with its stream,
            # and leaving stdio_server() waits for it (left open, the process never exits and
            # the client has to kill it)
            await write_stream.aclose()
            return
        # The SDK's stdin reader is a thread blocked on a pipe the client may keep open:
        # leaving stdio_server() would wait for it forever. Every answer is handed to the
        # stdout writer and the lifespan has closed Odoo: let the writer flush, then go.
        await write_stream.aclose()
        await anyio.sleep(0.1)
        logging.shutdown()
        os._exit(0)
