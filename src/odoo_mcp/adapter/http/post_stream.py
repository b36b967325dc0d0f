"""Streamable HTTP: the SSE stream that answers one POST, on one task instead of five.

The SDK's transport (mcp 2.3) answers a POST with sse_starlette's ``EventSourceResponse``,
which runs a task group of the stream, a keep-alive ping, a shutdown listener, a disconnect
listener and the SDK's event writer: issue 41's profile put 12% of the HTTP server's CPU there,
about 0.5 ms of every call, most of what an SSE answer costs over a JSON one. A POST's stream
carries the few messages of one request (its notifications, then its answer) and ends with
it, so this response sends them from one loop beside the SDK's writer: the same bytes
(``ensure_bytes``), a ping when nothing came for the ping interval, the end once the writer
closes the stream. A client gone away is uvicorn's to absorb (its ``send`` drops the
messages), as in the JSON-response mode, until the request's answer ends the stream; a
server shutting down lets the request finish (REQ-01-24) rather than cutting its stream.

Every other stream (the GET stream of a session, a replay) is sse_starlette's own.
"""

from __future__ import annotations

from datetime import UTC, datetime

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream
from mcp.server import streamable_http
from sse_starlette import EventSourceResponse
from sse_starlette.event import ServerSentEvent, ensure_bytes
from starlette.types import Receive, Scope, Send

__all__ = ["PostEventStream", "use_post_event_streams"]


class PostEventStream(EventSourceResponse):
    """Issue 41: an ``EventSourceResponse`` whose POST streams run on one task."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope.get("type") != "http"
            or scope.get("method") != "POST"
            or not isinstance(self.body_iterator, MemoryObjectReceiveStream)
            or self.data_sender_callable is None
        ):
            await super().__call__(scope, receive, send)
            return
        async with anyio.create_task_group() as group:
            group.start_soon(self.data_sender_callable)
            await self._stream(self.body_iterator, send)
        if self.background is not None:
            await self.background()

    async def _stream(self, events: MemoryObjectReceiveStream[object], send: Send) -> None:
        start = {"type": "http.response.start", "status": self.status_code}
        await send({**start, "headers": self.raw_headers})
        interval = self.ping_interval
        async with events:
            while True:
                with anyio.move_on_after(interval if interval > 0 else None) as waited:
                    try:
                        data = await events.receive()
                    except anyio.EndOfStream:
                        break
                if waited.cancelled_caught:  # nothing to send for a while: keep the line alive
                    data = self._ping_event()
                chunk = ensure_bytes(data, self.sep)
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    def _ping_event(self) -> ServerSentEvent:
        if self.ping_message_factory is not None:
            return self.ping_message_factory()
        return ServerSentEvent(comment=f"ping - {datetime.now(UTC)}", sep=self.sep)


def use_post_event_streams() -> None:
    """Issue 41: the SDK's transport answers POSTs with ``PostEventStream`` (it looks the
    class up in its module at each request; other streams keep sse_starlette's behaviour)."""
    streamable_http.EventSourceResponse = PostEventStream  # type: ignore[attr-defined]
