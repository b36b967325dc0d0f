"""A TCP proxy in front of an Odoo that forwards each request in full, so that Odoo applies
it, and then answers, or answers something else (issue 37).

What a proxy in front of a real Odoo does on a bad day: its upstream resets after the request
was sent and it answers 502 or 503; its own request timeout fires while the worker goes on and
it answers 504; a rate limiter answers 429 to a request it already forwarded; the connection is
cut or half an answer arrives. The fake's own faults (``fake_odoo.faults``) strike before the
request is handled; these strike after Odoo has run it, which is what a client must never
repeat.

One connection to Odoo per request (``Connection: close``), so that an answer is always read
whole before the proxy decides what the client gets.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
import xmlrpc.client
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

__all__ = ["FAULTS", "Fault", "FaultProxy", "object_call"]

Match = Callable[[bytes, bytes], bool]


@dataclass(frozen=True)
class Fault:
    """What the client gets once Odoo has answered: ``status`` (an nginx-like page of that
    status), ``cut`` (the connection closed, nothing sent), ``half`` (half of Odoo's answer,
    then closed) or ``delay`` seconds before Odoo's answer (longer than the client waits)."""

    name: str
    status: int | None = None
    cut: bool = False
    half: bool = False
    delay: float = 0.0


#: the answers a proxy gives after forwarding, every one of them seen in production
FAULTS: Final = (
    *(Fault(f"http_{status}", status=status) for status in (429, 500, 502, 503, 504)),
    Fault("cut", cut=True),
    Fault("half", half=True),
)

_REASONS: Final = {
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Temporarily Unavailable",
    504: "Gateway Time-out",
}


def _status_page(status: int) -> bytes:
    reason = _REASONS.get(status, "Error")
    body = f"<html><head><title>{status} {reason}</title></head><body><center><h1>{status} {reason}</h1></center><hr><center>nginx</center></body></html>".encode()  # noqa: E501
    head = (
        f"HTTP/1.1 {status} {reason}\r\nServer: nginx\r\nContent-Type: text/html\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n"
    )
    if status == 429:
        head += "Retry-After: 1\r\n"
    return head.encode() + b"\r\n" + body


def object_call(model: str, method: str) -> Match:
    """Matches the object call ``model.method`` in any of Odoo's protocols: JSON-2's path,
    JSON-RPC's ``call_kw`` path or ``execute_kw`` arguments, XML-RPC's ``execute_kw``."""
    json2 = f"/json/2/{model}/{method}"
    call_kw = f"/web/dataset/call_kw/{model}/{method}"

    def match(path: bytes, body: bytes) -> bool:
        text = path.decode("latin-1")
        if text in (json2, call_kw):
            return True
        args: object = None
        if text == "/jsonrpc":
            params = json.loads(body).get("params", {})
            args = params.get("args") if params.get("method") == "execute_kw" else None
        elif text == "/xmlrpc/2/object":
            params, name = xmlrpc.client.loads(body)
            args = params if name == "execute_kw" else None
        return isinstance(args, list | tuple) and list(args[3:5]) == [model, method]

    return match


class FaultProxy:
    """The proxy, served on a free loopback port by an event loop of its own in a thread (so
    that it answers a server process while a test's loop is idle, between tests)."""

    def __init__(self, upstream: str) -> None:
        parts = urlsplit(upstream)
        self._upstream = (parts.hostname or "127.0.0.1", parts.port or 80)
        self._armed: list[tuple[Match, Fault]] = []
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        #: faults that struck, in order (the fault's name)
        self.struck: list[str] = []

    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.sockets[0].getsockname()[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FaultProxy:
        self._thread.start()
        started = asyncio.start_server(self._serve, "127.0.0.1", 0)
        self._server = asyncio.run_coroutine_threadsafe(started, self._loop).result(10)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    async def _shutdown(self) -> None:
        """Stop listening, end the connections still open (each closes its socket)."""
        assert self._server is not None
        self._server.close()
        tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self._server.wait_closed()

    def arm(self, match: Match, fault: Fault) -> None:
        """Answer the next request that ``match`` accepts with ``fault`` (once)."""
        with self._lock:
            self._armed.append((match, fault))

    def disarm(self) -> None:
        with self._lock:
            self._armed.clear()

    def _take(self, path: bytes, body: bytes) -> Fault | None:
        with self._lock:
            for index, (match, fault) in enumerate(self._armed):
                if match(path, body):
                    del self._armed[index]
                    self.struck.append(fault.name)
                    return fault
        return None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while (request := await _read_request(reader)) is not None:
                head, body = request
                path = head.split(b" ", 2)[1].split(b"?")[0]
                fault = self._take(path, body)
                answer = await self._forward(head, body)
                if fault is not None and fault.cut:
                    return
                if fault is not None and fault.half:
                    writer.write(answer[: len(answer) // 2])
                    await writer.drain()
                    return
                if fault is not None and fault.delay:
                    await asyncio.sleep(fault.delay)
                if fault is not None and fault.status is not None:
                    answer = _status_page(fault.status)
                writer.write(answer)
                await writer.drain()
                if b"\r\nconnection: close" in answer.split(b"\r\n\r\n")[0].lower():
                    return
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            return  # the client left, or the proxy is stopping
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError, asyncio.CancelledError):
                await writer.wait_closed()

    async def _forward(self, head: bytes, body: bytes) -> bytes:
        """The request as sent, with ``Connection: close``; Odoo's whole answer."""
        lines = [
            line
            for line in head.split(b"\r\n")
            if not line.lower().startswith((b"connection:", b"keep-alive:"))
        ]
        request = b"\r\n".join([*lines, b"Connection: close"]) + b"\r\n\r\n" + body
        reader, writer = await asyncio.open_connection(*self._upstream)
        try:
            writer.write(request)
            await writer.drain()
            return await reader.read()
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()


_LENGTH = re.compile(rb"\r\ncontent-length:\s*(\d+)", re.IGNORECASE)


async def _read_request(reader: asyncio.StreamReader) -> tuple[bytes, bytes] | None:
    """One request (head without its blank line, body), or None once the client is gone."""
    try:
        head = (await reader.readuntil(b"\r\n\r\n"))[:-4]
    except asyncio.IncompleteReadError:
        return None
    length = _LENGTH.search(head)
    body = await reader.readexactly(int(length.group(1))) if length else b""
    return head, body
