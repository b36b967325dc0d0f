"""The Odoo client's HTTP/1.1 transport (issue 41) against scripted servers, byte by byte.

Each server here is an asyncio TCP server whose answers are written out by hand, so that the
framing the transport reads (Content-Length, chunked, until close, none), its keep-alive
decisions and its failures are the ones stated, not what some HTTP server library chose.
"""

from __future__ import annotations

import asyncio
import gzip
import socket
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import httpx2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from certificates import self_signed
from odoo_mcp.connection.http11 import MAX_HEAD_BYTES, Http11Transport

pytestmark = pytest.mark.anyio

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


class Server:
    """A scripted server: the requests it read and how many connections it accepted."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.connections = 0
        self.requests: list[bytes] = []
        self.port = 0

    async def read_request(self, reader: asyncio.StreamReader) -> bytes | None:
        """One request, head and Content-Length body; None when the client closed."""
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError):
            return None
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        request = head + await reader.readexactly(length)
        self.requests.append(request)
        return request

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            await self.handler(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()


@asynccontextmanager
async def serving(
    script: Callable[[Server], Handler], tls: ssl.SSLContext | None = None
) -> AsyncIterator[Server]:
    server = Server(lambda r, w: asyncio.sleep(0))
    server.handler = script(server)
    listener = await asyncio.start_server(server._serve, "127.0.0.1", 0, ssl=tls)
    server.port = listener.sockets[0].getsockname()[1]
    try:
        yield server
    finally:
        listener.close()


def answering(*answers: bytes, then_close: bool = False) -> Callable[[Server], Handler]:
    """Answer each request on a connection with the next of ``answers``."""

    def script(server: Server) -> Handler:
        async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            for answer in answers:
                if await server.read_request(reader) is None:
                    return
                writer.write(answer)
                await writer.drain()
            if not then_close:
                await reader.read()

        return handler

    return script


def ok(body: bytes, *headers: bytes) -> bytes:
    extra = b"".join(header + b"\r\n" for header in headers)
    return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n%s\r\n%s" % (len(body), extra, body)


def client(
    port: int, transport: Http11Transport | None = None, **kwargs: object
) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", transport=transport or Http11Transport(), **kwargs
    )  # type: ignore[arg-type]


async def test_a_request_goes_out_whole_and_its_answer_comes_back() -> None:
    script = answering(ok(b'{"result": 1}', b"Content-Type: application/json"))
    async with serving(script) as srv, client(srv.port) as http:
        answer = await http.post("/json/2/res.partner/search?x=1", json={"a": [1, 2]})
    assert answer.status_code == 200 and answer.json() == {"result": 1}
    assert answer.http_version == "HTTP/1.1" and answer.reason_phrase == "OK"
    (request,) = srv.requests
    head, body = request.split(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    assert lines[0] == b"POST /json/2/res.partner/search?x=1 HTTP/1.1"
    assert f"host: 127.0.0.1:{srv.port}".encode() in [line.lower() for line in lines]
    assert b"content-length: %d" % len(body) in [line.lower() for line in lines]
    assert body == b'{"a":[1,2]}'


async def test_connections_are_kept_alive_and_reused() -> None:
    async with serving(answering(ok(b"1"), ok(b"2"), ok(b"3"))) as srv, client(srv.port) as http:
        texts = [(await http.get("/")).text for _ in range(3)]
    assert texts == ["1", "2", "3"] and srv.connections == 1


@pytest.mark.parametrize(
    "answer",
    [
        ok(b"x", b"Connection: close"),
        b"HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx",  # HTTP/1.0 without keep-alive
        b"HTTP/1.1 200 OK\r\n\r\nx",  # no length: the body ends with the connection
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\n"
        b"1\r\nx\r\n0\r\n\r\n",
    ],
    ids=["connection-close", "http-1.0", "until-close", "ambiguous-framing"],
)
async def test_a_connection_the_answer_ends_is_not_reused(answer: bytes) -> None:
    closes = b"Content-Length" not in answer
    async with serving(answering(answer, then_close=closes)) as srv, client(srv.port) as http:
        first = await http.get("/")
        second = await http.get("/")
    assert first.text == second.text == "x" and srv.connections == 2


async def test_a_keep_alive_http_1_0_answer_keeps_the_connection() -> None:
    answer = b"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx"
    async with serving(answering(answer, answer)) as srv, client(srv.port) as http:
        await http.get("/")
        await http.get("/")
    assert srv.connections == 1


async def test_chunked_bodies_with_extensions_and_trailers() -> None:
    answer = (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\nContent-Encoding: gzip\r\n\r\n"
    )
    packed = gzip.compress(b"hello, chunked world")
    answer += b"%x;name=value\r\n%s\r\n" % (5, packed[:5])
    answer += b"%X\r\n%s\r\n" % (len(packed) - 5, packed[5:])
    answer += b"0\r\nX-Trailer: yes\r\n\r\n"
    async with serving(answering(answer, ok(b"next"))) as srv, client(srv.port) as http:
        first = await http.get("/")
        second = await http.get("/")
    assert first.text == "hello, chunked world"  # the content-encoding is httpx2's to undo
    assert second.text == "next" and srv.connections == 1


async def test_no_body_for_head_204_304_and_informational_answers_skipped() -> None:
    answers = [
        b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n",  # to HEAD: the length of a GET
        b"HTTP/1.1 204 No Content\r\n\r\n",
        b"HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n",
        b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
    ]
    async with serving(answering(*answers)) as srv, client(srv.port) as http:
        head = await http.head("/")
        empty = await http.get("/")
        unchanged = await http.get("/")
        after_continue = await http.get("/")
    assert (head.status_code, head.content) == (200, b"")
    assert (empty.status_code, empty.content) == (204, b"")
    assert (unchanged.status_code, unchanged.content) == (304, b"")
    assert (after_continue.status_code, after_continue.text) == (200, "ok")
    assert srv.connections == 1


async def test_lenient_line_ends_folded_headers_and_cookies() -> None:
    answer = (
        b"HTTP/1.1 200\nSet-Cookie: session_id=abc; Path=/\nX-Folded: one\n two\n"
        b"Content-Length: 2\n\nok"
    )
    async with serving(answering(answer)) as srv, client(srv.port) as http:
        result = await http.get("/")
        assert http.cookies.get("session_id") == "abc"
    assert result.text == "ok" and result.headers["x-folded"] == "one two"
    assert result.reason_phrase == ""


@pytest.mark.parametrize(
    ("answer", "error"),
    [
        (b"HTP/1.1 200 OK\r\n\r\n", "not HTTP/1.x"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\nx", "Content-Length"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxx", "Content-Length"),
        (b"HTTP/1.1 200 OK\r\nBad Header: x\r\n\r\n", "malformed header"),
        (b"HTTP/1.1 200 OK\r\n folded-first\r\n\r\n", "folded header"),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "chunked body"),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nxy\r\n0\r\n\r\n", "longer"),
        (b"HTTP/1.1 101 Switching Protocols\r\n\r\n", "switched"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nshort", "whole body"),
        (b"HTTP/1.1 200 OK\r\nContent-Le", "headers"),
        (b"", "without sending an answer"),
    ],
)
async def test_a_malformed_or_cut_answer_is_a_protocol_error(answer: bytes, error: str) -> None:
    async with serving(answering(answer, then_close=True)) as srv, client(srv.port) as http:
        with pytest.raises(httpx2.RemoteProtocolError, match=error):
            await http.get("/")


async def test_headers_beyond_the_limit_are_refused() -> None:
    answer = b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * (MAX_HEAD_BYTES + 10) + b"\r\n\r\n"
    async with serving(answering(answer)) as srv, client(srv.port) as http:
        with pytest.raises(httpx2.RemoteProtocolError, match="too long"):
            await http.get("/")


async def test_a_header_that_could_split_the_request_is_never_sent() -> None:
    async with serving(answering(ok(b"x"))) as srv:
        async with client(srv.port) as http:
            for name, value in [("X-Odoo-Database", "db\r\nX-Evil: 1"), ("X-A", "a\nb")]:
                with pytest.raises(httpx2.LocalProtocolError, match="forbids"):
                    await http.get("/", headers={name: value})
        await asyncio.sleep(0.05)
    assert srv.connections == 0 and srv.requests == []


async def test_an_idle_connection_the_server_closed_is_not_used() -> None:
    def script(server: Server) -> Handler:
        async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await server.read_request(reader)
            writer.write(ok(b"x"))
            await writer.drain()  # then close, as a server ending an idle keep-alive does

        return handler

    async with serving(script) as srv, client(srv.port) as http:
        await http.get("/")
        await asyncio.sleep(0.05)
        assert (await http.get("/")).text == "x"
    assert srv.connections == 2


async def test_idle_connections_expire() -> None:
    transport = Http11Transport(
        limits=httpx2.Limits(
            max_connections=10, max_keepalive_connections=10, keepalive_expiry=0.05
        )
    )
    async with serving(answering(ok(b"x"), ok(b"x"))) as srv, client(srv.port, transport) as http:
        await http.get("/")
        await asyncio.sleep(0.1)
        await http.get("/")
    assert srv.connections == 2


async def test_a_read_timeout_is_httpx2s_and_the_connection_is_dropped() -> None:
    def script(server: Server) -> Handler:
        async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            if server.connections == 1:
                await server.read_request(reader)
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab")  # then nothing
                await reader.read()
            else:
                await answering(ok(b"fresh"))(server)(reader, writer)

        return handler

    short_read = httpx2.Timeout(5, read=0.1)
    async with serving(script) as srv, client(srv.port, timeout=short_read) as http:
        with pytest.raises(httpx2.ReadTimeout):
            await http.get("/")
        assert (await http.get("/")).text == "fresh"
    assert srv.connections == 2


async def test_a_cancelled_call_never_leaves_its_connection_for_the_next() -> None:
    def script(server: Server) -> Handler:
        async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await server.read_request(reader)
            if server.connections == 1:
                await asyncio.sleep(0.2)  # the client gives up before this answer
            writer.write(ok(b"%d" % server.connections))
            await writer.drain()
            await reader.read()

        return handler

    async with serving(script) as srv, client(srv.port) as http:
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.05):
                await http.get("/")
        assert (await http.get("/")).text == "2"  # not the late answer to the first call


async def test_refused_and_unresolvable_connections_keep_their_cause() -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    async with client(port) as http:
        with pytest.raises(httpx2.ConnectError) as refused:
            await http.get("/")
    assert isinstance(refused.value.__cause__, ConnectionRefusedError)
    async with httpx2.AsyncClient(
        base_url="http://no-such-host.invalid", transport=Http11Transport()
    ) as http:
        with pytest.raises(httpx2.ConnectError) as unresolved:
            await http.get("/")
    assert isinstance(unresolved.value.__cause__, socket.gaierror)


async def test_at_most_max_connections_and_the_pool_timeout() -> None:
    def script(server: Server) -> Handler:
        async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            while await server.read_request(reader) is not None:
                await asyncio.sleep(0.05)
                writer.write(ok(b"x"))
                await writer.drain()

        return handler

    limits = httpx2.Limits(max_connections=1, max_keepalive_connections=1)
    async with serving(script) as srv, client(srv.port, Http11Transport(limits=limits)) as http:
        answers = await asyncio.gather(*(http.get("/") for _ in range(3)))
        assert [a.text for a in answers] == ["x"] * 3 and srv.connections == 1
        waiting = httpx2.Timeout(5, pool=0.01)
        with pytest.raises(httpx2.PoolTimeout):
            await asyncio.gather(http.get("/"), http.get("/", timeout=waiting))


async def test_https_verifies_the_certificate_it_is_given(tmp_path: Path) -> None:
    server_context, cert_file = self_signed(tmp_path, for_ip="127.0.0.1")
    async with serving(answering(ok(b"tls"), ok(b"again")), tls=server_context) as srv:
        trusting = Http11Transport(ssl_context=ssl.create_default_context(cafile=str(cert_file)))
        async with httpx2.AsyncClient(
            base_url=f"https://127.0.0.1:{srv.port}", transport=trusting
        ) as http:
            assert (await http.get("/")).text == "tls"
            assert (await http.get("/")).text == "again"
        assert srv.connections == 1
        untrusting = Http11Transport(ssl_context=ssl.create_default_context())
        async with httpx2.AsyncClient(
            base_url=f"https://127.0.0.1:{srv.port}", transport=untrusting
        ) as http:
            with pytest.raises(httpx2.ConnectError) as refused:
                await http.get("/")
    assert isinstance(refused.value.__cause__, ssl.SSLCertVerificationError)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.binary(max_size=3000),
    chunk_sizes=st.lists(st.integers(1, 700), min_size=1, max_size=8),
    cuts=st.lists(st.integers(1, 400), max_size=12),
    chunked=st.booleans(),
)
def test_any_body_arrives_whole_however_the_bytes_are_cut(
    body: bytes, chunk_sizes: list[int], cuts: list[int], chunked: bool
) -> None:
    """Property: the body read is the body sent, whatever the framing and the TCP segments."""
    if chunked:
        wire = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        rest, index = body, 0
        while rest:
            size = chunk_sizes[index % len(chunk_sizes)]
            wire += b"%x\r\n%s\r\n" % (len(rest[:size]), rest[:size])
            rest, index = rest[size:], index + 1
        wire += b"0\r\n\r\n"
    else:
        wire = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
    pieces, rest = [], wire
    for cut in cuts:
        pieces.append(rest[:cut])
        rest = rest[cut:]
    pieces.append(rest)

    def script(server: Server) -> Handler:
        async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            for _ in range(2):
                await server.read_request(reader)
                for piece in pieces:
                    writer.write(piece)
                    await writer.drain()
                    await asyncio.sleep(0)
            await reader.read()

        return handler

    async def run() -> None:
        async with serving(script) as srv:
            async with client(srv.port) as http:
                assert (await http.get("/")).content == body
                assert (await http.get("/")).content == body
            assert srv.connections == 1

    asyncio.run(run())


async def test_the_next_address_is_tried_when_one_does_not_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """RFC 8305: an address that hangs (a black-holed IPv6 route) does not hold the connect."""
    from odoo_mcp.connection import http11

    started: list[str] = []
    cancelled: list[str] = []

    async def connect_one(address: http11._Address) -> socket.socket:
        where = address[4][0]
        started.append(where)
        if where == "::1":
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                cancelled.append(where)
                raise
        left, right = socket.socketpair()
        right.close()
        return left

    monkeypatch.setattr(http11, "_connect_one", connect_one)
    v6 = (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("::1", 80, 0, 0))
    v4 = (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", 80))
    async with asyncio.timeout(5):
        sock = await http11._first_to_connect([v6, v4])
    sock.close()
    await asyncio.sleep(0)
    assert started == ["::1", "127.0.0.1"] and cancelled == ["::1"]


async def test_when_no_address_connects_the_first_error_is_raised(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from odoo_mcp.connection import http11

    async def connect_one(address: http11._Address) -> socket.socket:
        if address[0] == socket.AF_INET6:
            raise ConnectionRefusedError(111, f"Connect call failed {address[4]}")
        raise OSError(101, "Network is unreachable")

    monkeypatch.setattr(http11, "_connect_one", connect_one)
    v6 = (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("::1", 80, 0, 0))
    v4 = (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", 80))
    with pytest.raises(ConnectionRefusedError):
        await http11._first_to_connect([v6, v4])


@pytest.mark.parametrize("proxy", [None, "HTTP_PROXY", "https_proxy", "ALL_PROXY"])
def test_the_client_keeps_httpx2s_transport_only_behind_a_proxy(
    monkeypatch: pytest.MonkeyPatch, proxy: str | None
) -> None:
    """A proxy in the environment is httpx2's to read (and NO_PROXY); without one, ours."""
    from odoo_mcp.connection.settings import ConnectionSettings, build_http_client

    for name in (
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ):
        monkeypatch.delenv(name, raising=False)
    if proxy is not None:
        monkeypatch.setenv(proxy, "http://proxy.invalid:3128")
    settings = ConnectionSettings(
        url="http://127.0.0.1:8069", database="demo", username="admin", api_key="key"
    )
    client = build_http_client(settings)
    assert isinstance(client._transport, Http11Transport) is (proxy is None)


async def test_bytes_sent_to_an_idle_connection_close_it_unread() -> None:
    """A server that writes to a connection nobody asked anything on is never buffered."""

    def script(server: Server) -> Handler:
        async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            if server.connections == 1:
                await server.read_request(reader)
                writer.write(ok(b"first"))
                await writer.drain()
                await asyncio.sleep(0.02)
                writer.write(b"unasked-for " * 1000)  # then keeps the connection open
                await writer.drain()
                await reader.read()
            else:
                await answering(ok(b"second"))(server)(reader, writer)

        return handler

    transport = Http11Transport()
    async with serving(script) as srv, client(srv.port, transport) as http:
        assert (await http.get("/")).text == "first"
        await asyncio.sleep(0.1)
        (idle,) = transport._idle
        assert idle.wire.closed and not idle.wire.data
        assert (await http.get("/")).text == "second"
    assert srv.connections == 2
