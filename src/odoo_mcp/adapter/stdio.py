"""MCP over stdio, answering the lines the SDK cannot parse.

The SDK's stdio transport (mcp 2.3) hands a line it cannot parse (invalid UTF-8 such as a lone
surrogate escape, nesting deeper than its parser takes, or not JSON-RPC at all) to the server
as an exception, and the server only logs it: the client waits for an answer that never comes.
JSON-RPC 2.0 says such a request gets a Parse error (-32700) with a null id; this relay sends
it. It runs the SDK's low-level server on streams of its own: ``MCPServer`` has no public
hook for that (``odoo_mcp.adapter.sdk`` holds the private parts used).

A request whose id is neither a string nor an integer (an object, an array, a float, a
boolean, null) parses, in the SDK, as a *notification*: its id is dropped as an unknown
field and nothing is answered. JSON-RPC 2.0 calls it an Invalid Request, answered -32600
with a null id; the relay reads stdin itself to spot those lines (issue 26).
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import secrets
import signal
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager, suppress
from typing import IO, Any, Final

import anyio
from mcp.server import MCPServer
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import (
    INVALID_REQUEST,
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    JSONRPCNotification,
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


#: an ``"id"`` member whose value does not plainly start a string or an integer: only a line
#: with one is decoded to look at its id (most lines are not decoded twice)
_ODD_ID: Final = re.compile(r'"id"\s*:\s*(?!"|-?\d+\s*[,}])')
_KINDS: Final = {dict: "an object", list: "an array", float: "a number with a fraction",
                 bool: "a boolean", type(None): "null"}  # fmt: skip


def invalid_id(line: str) -> str | None:
    """REQ-10-16: why the request on ``line`` is an Invalid Request for its id, or None.

    JSON-RPC 2.0 §4: a request's id is a string or an integer (MCP: never null). A line that
    is not a JSON object with a method is left to the SDK's parser.
    """
    if _ODD_ID.search(line) is None:
        return None
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or "id" not in message or "method" not in message:
        return None
    request_id = message["id"]
    if isinstance(request_id, str) or type(request_id) is int:
        return None
    kind = _KINDS.get(type(request_id), "not a string or an integer")
    return f"Invalid Request: the id must be a string or an integer, not {kind}"


def invalid_request(message: str) -> SessionMessage:
    """REQ-10-16: the JSON-RPC answer to a request whose id is not valid: -32600, null id."""
    error = ErrorData(code=INVALID_REQUEST, message=message)
    return SessionMessage(JSONRPCError(jsonrpc="2.0", id=None, error=error))


class ScreenedLines:
    """stdin's lines for the SDK's parser, a request with an invalid id swapped for a
    notification of ``marker`` carrying why (the relay answers it -32600; the SDK would
    take the request for a notification and answer nothing)."""

    def __init__(self, lines: AsyncIterator[str], marker: str) -> None:
        self._lines = lines
        self.marker = marker

    def __aiter__(self) -> ScreenedLines:
        return self

    async def __anext__(self) -> str:
        line = await anext(self._lines)
        reason = invalid_id(line)
        if reason is None:
            return line
        notice = {"jsonrpc": "2.0", "method": self.marker, "params": {"message": reason}}
        return json.dumps(notice) + "\n"


class _UnownedText(io.TextIOWrapper):
    """Text on a buffer that is not this wrapper's to close (stdin's own, in the fallback)."""

    def close(self) -> None:
        with suppress(ValueError):
            self.detach()


@contextmanager
def _claimed_stdin() -> Iterator[IO[bytes]]:
    """REQ-01-24: stdin as the SDK reads it when it opens stdin itself: the wire from a
    private duplicate of fd 0, fd 0 on the null device while serving (a handler or a child
    process reads EOF, not requests), restored afterwards. Where descriptors cannot be
    duplicated, stdin is read in place."""
    restore: Callable[[], None] | None = None
    try:
        private = os.dup(0)
    except OSError:
        private = -1
    if private > 2:
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(null, 0)
        finally:
            os.close(null)

        def restore() -> None:
            with suppress(OSError):
                os.dup2(private, 0)

        # closefd=False: the reading thread may still block on it once serving is over
        buffer: IO[bytes] = os.fdopen(private, "rb", closefd=False)
    else:
        if private >= 0:
            os.close(private)
        buffer = sys.stdin.buffer
    try:
        yield buffer
    finally:
        if restore is not None:
            restore()


async def run_stdio(server: MCPServer, *, drain_seconds: float = DRAIN_SECONDS) -> None:
    """Serve ``server`` on stdin/stdout; an unparsable line is answered -32700.

    REQ-01-24: on SIGTERM or SIGINT no further request is read; those already received are
    answered (for ``drain_seconds`` at most), then the session ends, the server's lifespan
    closes the Odoo connection and this returns, so the process exits 0. The SDK cancels
    what is still running when its input ends, so the input is only closed once the
    requests in flight (tracked by id on the way in and out) are answered.
    """
    low = sdk.low_level(server)
    marker = f"odoo-mcp/invalid-request/{secrets.token_hex(8)}"  # no client can send it
    with _claimed_stdin() as buffer:
        text = _UnownedText(buffer, encoding="utf-8", errors="replace")
        lines = ScreenedLines(aiter(anyio.wrap_file(text)), marker)
        await _serve(low, lines, drain_seconds)


async def _serve(low: Server[Any], lines: ScreenedLines, drain_seconds: float) -> None:
    """The relay between stdin, the SDK's low-level server and stdout (see run_stdio)."""
    async with stdio_server(stdin=lines) as (read_stream, write_stream):  # type: ignore[arg-type]
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
                    notice = item.message
                    if isinstance(notice, JSONRPCNotification) and notice.method == lines.marker:
                        reason = str((notice.params or {}).get("message", "Invalid Request"))
                        logger.warning("request with an invalid id answered -32600: %s", reason)
                        await write_stream.send(invalid_request(reason))
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
