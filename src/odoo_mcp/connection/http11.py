"""REQ-02-25: the Odoo client's HTTP/1.1 transport: pooled keep-alive connections on asyncio.

httpx2's own transport (httpcore2 on anyio streams, h11) spends about 2,000 Python calls and
1 ms of CPU on each request beyond httpx2's client: a cancel scope per socket read and write,
a task lookup per scope, layered stream wrappers and event objects, and the request sent in
two writes (head, then body). An Odoo call is one request with a few headers and a body,
answered with a Content-Length or a chunked body. This transport does exactly that on an
``asyncio.Protocol``, in one write and one parse of the head (issue 41: a request through
httpx2's client costs 0.6-0.7 ms of CPU on it, 1.2-1.4 ms on httpx2's own transport).
httpx2's client still builds the request, keeps the cookies, decodes the content-encoding and
raises its own exceptions: ``connection.transport`` reads them as before (a refused or
timed-out connect was never sent; a read timeout or a drop may have been).

``build_http_client`` uses it for ``http`` and ``https`` URLs without a proxy in the
environment; everything else (a proxy, tests' ASGI apps) keeps httpx2's own transport.
"""

from __future__ import annotations

import asyncio
import re
import select
import socket
import ssl
import time
from collections import deque
from collections.abc import Sequence
from typing import Any, Final

import anyio
import httpx2

__all__ = ["Http11Transport"]

#: the status line and the headers of one answer, at most (h11 takes 16 KiB by default)
MAX_HEAD_BYTES: Final = 64 * 1024
#: one chunk-size line of a chunked body, extensions included
MAX_CHUNK_LINE: Final = 4096

_HEAD_END: Final = re.compile(rb"\r?\n\r?\n")
_STATUS_LINE: Final = re.compile(rb"HTTP/1\.([01]) ([0-9]{3})(?: ([^\r\n]*))?")
_TOKEN: Final = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
#: what a header value may not hold: control characters but the tab (no CR or LF: no
#: header or request can be smuggled in through a value such as the database name)
_BAD_VALUE: Final = re.compile(rb"[\x00-\x08\x0a-\x1f\x7f]")
_HEX: Final = re.compile(rb"[0-9A-Fa-f]{1,16}")
_DIGITS: Final = re.compile(rb"[0-9]{1,19}")
_NO_BODY_STATUS: Final = frozenset({204, 304})
#: httpx2's defaults: the limits the client had with httpx2's own transport
DEFAULT_LIMITS: Final = httpx2.Limits(
    max_connections=100, max_keepalive_connections=20, keepalive_expiry=5.0
)


class _Wire(asyncio.Protocol):
    """The bytes one connection received so far, and whether it is still open."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.data = bytearray()
        self.closed = False
        self.error: BaseException | None = None
        self.waiter: asyncio.Future[bool] | None = None
        self.drained: asyncio.Future[None] | None = None
        self.paused = False
        self.busy = True  # in an exchange; an idle connection that receives bytes is closed

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        if not self.busy:  # nothing was asked: never buffer what an idle connection is sent
            self.closed = True
            if self.transport is not None:
                self.transport.close()
            return
        self.data += data
        self._wake()

    def eof_received(self) -> bool:
        self.closed = True
        self._wake()
        return False  # let the transport close itself

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.error = exc
        self._wake()
        self.resume_writing()

    def pause_writing(self) -> None:
        self.paused = True

    def resume_writing(self) -> None:
        self.paused = False
        if self.drained is not None and not self.drained.done():
            self.drained.set_result(None)

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(True)


def _readable(fd: int) -> bool:
    if fd < 0:
        return True
    poll = select.poll()
    poll.register(fd, select.POLLIN)
    return bool(poll.poll(0))


def _expire(waiter: asyncio.Future[bool]) -> None:
    if not waiter.done():
        waiter.set_result(False)


class _Connection:
    """One open connection: written whole, read with a timeout per wait, as httpcore does."""

    def __init__(self, key: tuple[str, str, int], transport: asyncio.Transport, wire: _Wire):
        self.key = key
        self.transport = transport
        self.wire = wire
        self.idle_since = 0.0
        self.keep_alive = False  # set by each exchange: may the connection be used again

    def usable(self, now: float, expiry: float | None) -> bool:
        """Still open, nothing unasked-for received, not idle for longer than ``expiry``."""
        wire = self.wire
        if wire.closed or wire.data or self.transport.is_closing():
            return False
        if expiry is not None and now - self.idle_since >= expiry:
            return False
        # a close or bytes the event loop has not read yet: the socket is readable
        sock = self.transport.get_extra_info("socket")
        return sock is None or not _readable(sock.fileno())

    def close(self) -> None:
        self.transport.close()

    async def write(self, data: bytes, timeout: float | None, request: httpx2.Request) -> None:
        if self.wire.closed or self.transport.is_closing():
            raise httpx2.WriteError("the connection to the server was closed", request=request)
        self.transport.write(data)
        if self.wire.paused:  # more than the transport buffers: wait until the kernel took it
            self.wire.drained = asyncio.get_running_loop().create_future()
            try:
                with anyio.fail_after(timeout):
                    await self.wire.drained
            except TimeoutError as exc:
                raise httpx2.WriteTimeout("timed out writing the request", request=request) from exc
            finally:
                self.wire.drained = None
            if self.wire.error is not None:
                message = str(self.wire.error) or type(self.wire.error).__name__
                raise httpx2.WriteError(message, request=request) from self.wire.error

    async def _more(self, timeout: float | None, request: httpx2.Request) -> bool:
        """Wait for more bytes; False once the connection is closed and nothing came."""
        wire = self.wire
        if wire.closed:
            return False
        loop = asyncio.get_running_loop()
        waiter = wire.waiter = loop.create_future()
        timer = loop.call_later(timeout, _expire, waiter) if timeout is not None else None
        try:
            arrived = await waiter
        finally:
            wire.waiter = None
            if timer is not None:
                timer.cancel()
        if not arrived:
            raise httpx2.ReadTimeout("timed out reading the answer", request=request)
        return True

    def _lost(self, request: httpx2.Request, what: str) -> httpx2.TransportError:
        error = self.wire.error
        if error is not None:
            exc: httpx2.TransportError = httpx2.ReadError(
                str(error) or type(error).__name__, request=request
            )
            exc.__cause__ = error
            return exc
        return httpx2.RemoteProtocolError(what, request=request)

    async def read_head(self, timeout: float | None, request: httpx2.Request) -> bytes:
        """The status line and headers, through the blank line (removed from the buffer)."""
        data = self.wire.data
        start = 0
        while True:
            found = _HEAD_END.search(data, start, MAX_HEAD_BYTES + 4)
            if found is not None:
                head = bytes(data[: found.start()])
                del data[: found.end()]
                return head
            if len(data) >= MAX_HEAD_BYTES + 4:
                raise httpx2.RemoteProtocolError(
                    "the answer's headers are too long", request=request
                )
            start = max(0, len(data) - 3)
            if not await self._more(timeout, request):
                what = "the server closed the connection without sending an answer"
                if data:
                    what = "the server closed the connection in the middle of the answer's headers"
                raise self._lost(request, what)

    async def read_line(self, timeout: float | None, request: httpx2.Request) -> bytes:
        data = self.wire.data
        while True:
            end = data.find(b"\n")
            if end >= 0:
                line = bytes(data[:end]).rstrip(b"\r")
                del data[: end + 1]
                return line
            if len(data) > MAX_CHUNK_LINE:
                raise httpx2.RemoteProtocolError("a chunk header is too long", request=request)
            if not await self._more(timeout, request):
                raise self._lost(request, "the server closed the connection inside a chunked body")

    async def read_exactly(
        self, size: int, timeout: float | None, request: httpx2.Request
    ) -> bytes:
        data = self.wire.data
        while len(data) < size:
            if not await self._more(timeout, request):
                raise self._lost(
                    request, "the server closed the connection before the whole body was sent"
                )
        if len(data) == size:
            body = bytes(data)
            data.clear()
        else:
            body = bytes(data[:size])
            del data[:size]
        return body

    async def read_to_close(self, timeout: float | None, request: httpx2.Request) -> bytes:
        while await self._more(timeout, request):
            pass
        if self.wire.error is not None:
            raise self._lost(request, "")
        body = bytes(self.wire.data)
        self.wire.data.clear()
        return body


def _encode_head(request: httpx2.Request, body: bytes) -> bytes:
    """The request line and headers; a header that could split the request is refused."""
    method = request.method.encode("ascii")
    target = request.url.raw_path or b"/"
    if not _TOKEN.fullmatch(method) or _BAD_VALUE.search(target) or b" " in target:
        raise httpx2.LocalProtocolError("the request line is not valid HTTP", request=request)
    parts = [method, b" ", target, b" HTTP/1.1\r\n"]
    chunked = False
    for name, value in request.headers.raw:
        if not _TOKEN.fullmatch(name) or _BAD_VALUE.search(value):
            raise httpx2.LocalProtocolError(
                f"the header {name!r} cannot be sent: it holds a character HTTP forbids",
                request=request,
            )
        lowered = name.lower()
        if lowered == b"transfer-encoding":
            chunked = True  # a streamed body, read whole below: sent with its length instead
            continue
        parts += (name, b": ", value, b"\r\n")
    if chunked:
        parts += (b"Content-Length: ", str(len(body)).encode("ascii"), b"\r\n")
    parts.append(b"\r\n")
    return b"".join(parts)


def _parse_head(
    head: bytes, request: httpx2.Request
) -> tuple[bytes, int, bytes, list[tuple[bytes, bytes]]]:
    """RFC 9112 §4-5: version, status, reason and headers of one answer."""
    lines = head.replace(b"\r\n", b"\n").split(b"\n")
    status = _STATUS_LINE.fullmatch(lines[0])
    if status is None:
        raise httpx2.RemoteProtocolError(
            f"the server's answer is not HTTP/1.x: {lines[0][:80]!r}", request=request
        )
    headers: list[tuple[bytes, bytes]] = []
    for line in lines[1:]:
        if line[:1] in (b" ", b"\t"):  # obsolete line folding: one space (RFC 9112 §5.2)
            if not headers:
                raise httpx2.RemoteProtocolError(
                    "the answer starts with a folded header", request=request
                )
            name, value = headers[-1]
            headers[-1] = (name, value + b" " + line.strip(b" \t"))
            continue
        name, colon, value = line.partition(b":")
        if not colon or not _TOKEN.fullmatch(name):
            raise httpx2.RemoteProtocolError(
                f"the answer has a malformed header line: {line[:80]!r}", request=request
            )
        headers.append((name, value.strip(b" \t")))
    version = b"HTTP/1." + status.group(1)
    return version, int(status.group(2)), status.group(3) or b"", headers


def _tokens(headers: list[tuple[bytes, bytes]], name: bytes) -> list[bytes]:
    found: list[bytes] = []
    for key, value in headers:
        if key.lower() == name:
            found += (part.strip(b" \t").lower() for part in value.split(b","))
    return [token for token in found if token]


async def _read_body(
    connection: _Connection,
    request: httpx2.Request,
    status: int,
    version: bytes,
    headers: list[tuple[bytes, bytes]],
    timeout: float | None,
) -> bytes:
    """RFC 9112 §6.3: the body's length, from the method, status and framing headers."""
    connection_tokens = _tokens(headers, b"connection")
    keep_alive = b"close" not in connection_tokens and (
        version == b"HTTP/1.1" or b"keep-alive" in connection_tokens
    )
    if request.method == "HEAD" or status in _NO_BODY_STATUS:
        connection.keep_alive = keep_alive
        return b""
    codings = _tokens(headers, b"transfer-encoding")
    if codings:
        if codings[-1] != b"chunked":
            connection.keep_alive = False
            return await connection.read_to_close(timeout, request)
        # with a Content-Length beside it the framing was ambiguous: never reuse the connection
        connection.keep_alive = keep_alive and not _tokens(headers, b"content-length")
        return await _read_chunked(connection, request, timeout)
    lengths = set(_tokens(headers, b"content-length"))
    if lengths:
        if len(lengths) != 1 or _DIGITS.fullmatch(next(iter(lengths))) is None:
            raise httpx2.RemoteProtocolError(
                "the answer's Content-Length is not valid", request=request
            )
        connection.keep_alive = keep_alive
        return await connection.read_exactly(int(next(iter(lengths))), timeout, request)
    connection.keep_alive = False
    return await connection.read_to_close(timeout, request)


async def _read_chunked(
    connection: _Connection, request: httpx2.Request, timeout: float | None
) -> bytes:
    parts: list[bytes] = []
    while True:
        size_line = (await connection.read_line(timeout, request)).partition(b";")[0].strip(b" \t")
        if _HEX.fullmatch(size_line) is None:
            raise httpx2.RemoteProtocolError(
                "the answer's chunked body is malformed", request=request
            )
        size = int(size_line, 16)
        if size == 0:
            trailer_bytes = 0
            while line := await connection.read_line(timeout, request):  # trailers, ignored
                trailer_bytes += len(line)
                if trailer_bytes > MAX_HEAD_BYTES:
                    raise httpx2.RemoteProtocolError(
                        "the answer's trailers are too long", request=request
                    )
            return b"".join(parts)
        parts.append(await connection.read_exactly(size, timeout, request))
        if await connection.read_line(timeout, request):
            raise httpx2.RemoteProtocolError("a chunk is longer than its size", request=request)


class Http11Transport(httpx2.AsyncBaseTransport):
    """REQ-02-25: keep-alive HTTP/1.1 for the Odoo client, within httpx2's connection limits.

    At most ``limits.max_connections`` open connections (a request beyond them waits for one,
    up to the pool timeout), at most ``limits.max_keepalive_connections`` kept idle, none kept
    longer than ``limits.keepalive_expiry`` seconds. A connection interrupted in any way (an
    error, a timeout, a cancelled call) is closed, never reused.
    """

    def __init__(
        self,
        *,
        ssl_context: ssl.SSLContext | None = None,
        limits: httpx2.Limits = DEFAULT_LIMITS,
    ) -> None:
        self._ssl_context = ssl_context
        self._max_open = limits.max_connections
        self._max_idle = limits.max_keepalive_connections
        self._expiry = limits.keepalive_expiry
        self._idle: list[_Connection] = []
        self._open = 0
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._closed = False

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        url = request.url
        if url.scheme not in ("http", "https"):
            raise httpx2.UnsupportedProtocol(f"{url.scheme!r} URLs are not served", request=request)
        timeouts = request.extensions.get("timeout", {})
        try:
            body = request.content
        except httpx2.RequestNotRead:
            body = await request.aread()
        data = _encode_head(request, body) + body
        port = url.port or (443 if url.scheme == "https" else 80)
        connection = await self._acquire((url.scheme, url.host, port), timeouts, request)
        try:
            await connection.write(data, timeouts.get("write"), request)
            read_timeout = timeouts.get("read")
            while True:
                head = await connection.read_head(read_timeout, request)
                version, status, reason, headers = _parse_head(head, request)
                if not 100 <= status < 200:
                    break
                if status == 101:
                    raise httpx2.RemoteProtocolError(
                        "the server switched protocols", request=request
                    )
            content = await _read_body(connection, request, status, version, headers, read_timeout)
            if b"close" in _tokens(request.headers.raw, b"connection"):
                connection.keep_alive = False
        except BaseException:
            connection.keep_alive = False
            self._release(connection)
            raise
        self._release(connection)
        return httpx2.Response(
            status,
            headers=headers,
            stream=httpx2.ByteStream(content),
            extensions={"http_version": version, "reason_phrase": reason},
        )

    async def aclose(self) -> None:
        self._closed = True
        for connection in self._idle:
            connection.close()
        self._open -= len(self._idle)
        self._idle.clear()

    async def _acquire(
        self, key: tuple[str, str, int], timeouts: dict[str, float | None], request: httpx2.Request
    ) -> _Connection:
        deadline: float | None = None
        while True:
            if self._closed:
                raise httpx2.ConnectError("the client was closed", request=request)
            now = time.monotonic()
            for index in range(len(self._idle) - 1, -1, -1):  # the most recently used first
                candidate = self._idle[index]
                if candidate.key == key and candidate.usable(now, self._expiry):
                    del self._idle[index]
                    candidate.wire.busy = True
                    return candidate
            self._drop_stale(now)
            if self._max_open is None or self._open < self._max_open:
                break
            if self._idle:  # another server's idle connection makes room
                self._idle.pop(0).close()
                self._open -= 1
                break
            pool_timeout = timeouts.get("pool")
            if deadline is None and pool_timeout is not None:
                deadline = now + pool_timeout
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                with anyio.fail_after(None if deadline is None else max(0.0, deadline - now)):
                    await waiter
            except TimeoutError as exc:
                raise httpx2.PoolTimeout(
                    "no connection to Odoo became free", request=request
                ) from exc
            except BaseException:
                if waiter.done() and not waiter.cancelled():
                    self._wake_one()  # woken but leaving: the turn goes to the next one
                raise
            finally:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)
        self._open += 1
        try:
            return await self._connect(key, timeouts.get("connect"), request)
        except BaseException:
            self._open -= 1
            self._wake_one()
            raise

    def _drop_stale(self, now: float) -> None:
        kept: list[_Connection] = []
        for connection in self._idle:
            if connection.usable(now, self._expiry):
                kept.append(connection)
            else:
                connection.close()
                self._open -= 1
        self._idle = kept

    def _release(self, connection: _Connection) -> None:
        if (
            connection.keep_alive
            and not self._closed
            and (self._max_idle is None or len(self._idle) < self._max_idle)
        ):
            connection.idle_since = time.monotonic()
            connection.wire.busy = False
            self._idle.append(connection)
        else:
            connection.close()
            self._open -= 1
        self._wake_one()

    def _wake_one(self) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    async def _connect(
        self, key: tuple[str, str, int], timeout: float | None, request: httpx2.Request
    ) -> _Connection:
        """A new connection (the first address to answer), with TLS for https (SNI: the host)."""
        scheme, host, port = key
        context = (self._ssl_context or ssl.create_default_context()) if scheme == "https" else None
        loop = asyncio.get_running_loop()
        try:
            with anyio.fail_after(timeout):
                addresses = _literal_address(host, port) or await loop.getaddrinfo(
                    host, port, type=socket.SOCK_STREAM
                )
                sock = await _first_to_connect(addresses)
                try:
                    transport, wire = await loop.create_connection(
                        _Wire,
                        sock=sock,
                        ssl=context,
                        server_hostname=host if context is not None else None,
                    )
                except BaseException:
                    sock.close()
                    raise
        except TimeoutError as exc:
            raise httpx2.ConnectTimeout(
                "timed out connecting to the server", request=request
            ) from exc
        except OSError as exc:  # refused, unreachable, no such name, TLS (ssl.SSLError)
            raise httpx2.ConnectError(str(exc) or type(exc).__name__, request=request) from exc
        assert isinstance(transport, asyncio.Transport)
        return _Connection(key, transport, wire)


#: RFC 8305's connection attempt delay: the next address is tried when one has not answered
HAPPY_EYEBALLS_DELAY: Final = 0.25

_Address = tuple[socket.AddressFamily, socket.SocketKind, int, str, tuple[Any, ...]]


def _literal_address(host: str, port: int) -> list[_Address] | None:
    """An IP address as the host needs no resolver (getaddrinfo runs in a thread)."""
    for family in (socket.AF_INET, socket.AF_INET6):
        try:
            socket.inet_pton(family, host)
        except OSError:
            continue
        where = (host, port) if family == socket.AF_INET else (host, port, 0, 0)
        return [(family, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", where)]
    return None


async def _connect_one(address: _Address) -> socket.socket:
    family, kind, proto, _name, where = address
    sock = socket.socket(family, kind, proto)
    try:
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, where)
    except BaseException:
        sock.close()
        raise
    return sock


def _close_when_done(task: asyncio.Task[socket.socket]) -> None:
    if not task.cancelled() and task.exception() is None:
        task.result().close()


async def _first_to_connect(addresses: Sequence[_Address]) -> socket.socket:
    """RFC 8305: one address after another, the next started when the last has not answered
    in 250 ms or has failed; the first to connect wins, the others are cancelled or closed.
    When none connects, the first address's error is raised (a refusal stays a refusal)."""
    if not addresses:
        raise OSError("the host resolves to no address")
    errors: list[BaseException] = []
    pending: set[asyncio.Task[socket.socket]] = set()
    try:
        for index, address in enumerate(addresses):
            pending.add(asyncio.get_running_loop().create_task(_connect_one(address)))
            last = index == len(addresses) - 1
            while pending:
                done, pending = await asyncio.wait(
                    pending,
                    timeout=None if last else HAPPY_EYEBALLS_DELAY,
                    return_when=asyncio.FIRST_COMPLETED,
                )
                for task in done:
                    if task.exception() is None:
                        winner = task.result()
                        for other in done - {task}:
                            _close_when_done(other)
                        return winner
                    errors.append(task.exception())  # type: ignore[arg-type]
                if not last:
                    break
    finally:
        for task in pending:
            task.cancel()
            task.add_done_callback(_close_when_done)
    raise errors[0]
