"""Issue 41: a POST's SSE stream on one task, with sse_starlette's bytes and pings."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import pytest
from mcp.server import streamable_http
from sse_starlette import EventSourceResponse

from odoo_mcp.adapter.http.post_stream import PostEventStream, use_post_event_streams

pytestmark = pytest.mark.anyio

EVENTS: list[Any] = [
    {"event": "message", "data": '{"jsonrpc":"2.0","method":"notifications/message"}'},
    {
        "event": "message",
        "data": '{"jsonrpc":"2.0","id":3,"result":{"text":"é\\nline"}}',
        "id": "7",
    },
]


def build(
    kind: type[EventSourceResponse], events: list[Any], delay: float = 0.0, ping: float = 15
) -> EventSourceResponse:
    """A response over a memory stream fed by a writer task, as the SDK builds it."""
    writer, reader = anyio.create_memory_object_stream[Any](0)

    async def send_events() -> None:
        async with writer:
            for event in events:
                await anyio.sleep(delay)
                await writer.send(event)

    return kind(content=reader, data_sender_callable=send_events, ping=ping, headers={"X-A": "b"})


async def run(response: EventSourceResponse, method: str = "POST") -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        await anyio.sleep_forever()
        raise AssertionError  # never reached

    scope = {"type": "http", "method": method, "headers": [], "path": "/mcp"}
    try:
        with anyio.fail_after(5):
            await response(scope, receive, send)
    finally:
        await response.body_iterator.aclose()  # type: ignore[attr-defined]  # as the SDK does
    return sent


def body(sent: list[dict[str, Any]]) -> bytes:
    return b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


async def test_a_post_stream_sends_sse_starlettes_own_bytes() -> None:
    ours = await run(build(PostEventStream, EVENTS))
    theirs = await run(build(EventSourceResponse, EVENTS))
    assert ours[0] == theirs[0]  # status and headers
    assert body(ours) == body(theirs) and b"notifications/message" in body(ours)
    assert ours[-1] == {"type": "http.response.body", "body": b"", "more_body": False}


async def test_a_quiet_post_stream_is_kept_alive_with_pings() -> None:
    sent = await run(build(PostEventStream, EVENTS[1:], delay=0.25, ping=0.05))
    text = body(sent).decode()
    assert text.count(": ping - ") >= 2 and text.index(": ping - ") < text.index('"id":3')
    assert text.endswith('"result":{"text":"é\\nline"}}\r\n\r\n')


async def test_other_streams_are_sse_starlettes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The session's GET stream and a replay keep the full response (disconnect, shutdown)."""
    called: list[str] = []
    original: Callable[..., Awaitable[None]] = EventSourceResponse.__call__

    async def spy(self: EventSourceResponse, scope: Any, receive: Any, send: Any) -> None:
        called.append(scope["method"])
        await original(self, scope, receive, send)

    monkeypatch.setattr(EventSourceResponse, "__call__", spy)
    await run(build(PostEventStream, EVENTS), method="GET")
    await run(build(PostEventStream, EVENTS), method="POST")
    assert called == ["GET"]


def test_the_sdk_transport_answers_posts_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(streamable_http, "EventSourceResponse", EventSourceResponse)
    use_post_event_streams()
    assert streamable_http.EventSourceResponse is PostEventStream  # type: ignore[attr-defined]
