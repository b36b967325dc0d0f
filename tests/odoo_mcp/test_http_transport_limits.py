"""Issue 37: what the HTTP transport holds and believes, against real server processes.

A client may not pick the address its failed authentications are counted under
(``X-Forwarded-For`` is believed only from ``trusted_proxies``), a connection may not hold the
server without sending a whole request head in time, a request framed twice (Content-Length
and Transfer-Encoding) is refused and its connection closed, params that are not an object are
invalid params with the request's id, and ``/health`` says when the shared state is down.

The processes start with short timeouts (``limits``' module values, set before ``serve``) so
that each timeout is seen in well under a second.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import IO, Any

import anyio
import httpx2
import pytest

from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import FakeOdooTransport, serve_fake_odoo
from mcp_servers import fake_config
from odoo_mcp.adapter.http import limits
from odoo_mcp.adapter.http.app import build_http_app
from odoo_mcp.adapter.http.auth import MAX_FAILED_AUTH
from odoo_mcp.adapter.server import build_server
from odoo_mcp.config import ConfigError, load_config
from odoo_mcp.connection import ConnectionManager
from odoo_mcp.state import MemoryState, SharedState, StateUnavailable
from odoo_mcp.state.redis_store import RedisState
from odoo_mcp_demo.http_process import free_port

pytestmark = [pytest.mark.wire]

ROOT = Path(__file__).resolve().parents[2]
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
#: the server's head timeout and keep-alive timeout in these processes, in seconds
HEAD_TIMEOUT = 0.5
KEEP_ALIVE = 0.5
BODY_TIMEOUT = 0.5
#: the trusted proxy's address: loopback, but not the tests' own 127.0.0.1
PROXY = "127.0.0.2"
#: ``odoo-mcp`` with the limits' module values set first (argv: head timeout, keep-alive)
LAUNCH = (
    "import sys; from odoo_mcp.adapter.http import limits; "
    "limits.HEAD_TIMEOUT = float(sys.argv.pop(1)); "
    "limits.KEEP_ALIVE_TIMEOUT = float(sys.argv.pop(1)); "
    "limits.BODY_TIMEOUT = float(sys.argv.pop(1)); "
    "from odoo_mcp.cli import console; console()"
)


@contextmanager
def _server(odoo_url: str, **env: str) -> Iterator[tuple[str, IO[bytes]]]:
    """``odoo-mcp serve --transport http --http-auth on`` with the short timeouts: its base
    URL and its stderr (a file), once ``/health`` answers; stopped on exit."""
    port = free_port()
    environ = {
        **os.environ,
        "ODOO_URL": odoo_url, "ODOO_DB": "demo", "ODOO_USERNAME": "admin",
        "ODOO_API_KEY": ADMIN_API_KEY, "ODOO_MCP_LOG_LEVEL": "warning",
        "ODOO_MCP_INTROSPECT": "false", **env,
    }  # fmt: skip
    argv = [sys.executable, "-c", LAUNCH, str(HEAD_TIMEOUT), str(KEEP_ALIVE), str(BODY_TIMEOUT)]
    argv.append("serve")
    argv += ["--transport", "http", "--port", str(port), "--http-auth", "on"]
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(
            argv, env=environ, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr
        )
        try:
            deadline = time.monotonic() + 30
            while not _healthy(base):
                if process.poll() is not None or time.monotonic() > deadline:
                    stderr.seek(0)
                    raise RuntimeError(f"the server did not start:\n{stderr.read()[-2000:]!r}")
                time.sleep(0.05)
            yield base, stderr
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def _healthy(base: str) -> bool:
    try:
        return httpx2.get(f"{base}/health", timeout=1).status_code == 200
    except httpx2.TransportError:
        return False


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOdoo]:
    with serve_fake_odoo("19.0") as served:
        yield served


@pytest.fixture(scope="module")
def untrusting(fake: FakeOdoo) -> Iterator[tuple[str, IO[bytes]]]:
    """One server: its proxy is 127.0.0.2 (loopback too: the tests call from either), and
    uvicorn's own variable asks it to trust everyone, 127.0.0.1 included."""
    assert fake.url is not None
    with _server(fake.url, FORWARDED_ALLOW_IPS="*", ODOO_MCP_TRUSTED_PROXIES=PROXY) as served:
        yield served


@pytest.fixture(scope="module")
def base(untrusting: tuple[str, IO[bytes]]) -> str:
    return untrusting[0]


def _port(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def _statuses(
    base: str, forwarded: list[str | None], *, first: int = 0, source: str = "127.0.0.1"
) -> list[int]:
    """The answers to new bad tokens sent from ``source``, each with its X-Forwarded-For."""
    statuses = []
    transport = httpx2.HTTPTransport(local_address=source)
    with httpx2.Client(transport=transport, base_url=base) as http:
        for index, address in enumerate(forwarded, start=first):
            headers = {**ACCEPT, "Authorization": f"Bearer wrong-key-{index}"}
            if address is not None:
                headers["X-Forwarded-For"] = address
            statuses.append(http.post("/mcp", json=INIT, headers=headers).status_code)
    return statuses


# -- 1. the failed-authentication limit counts the peer, not what it says it forwards ----------


def test_forwarded_for_from_an_untrusted_peer_does_not_escape_the_lockout(
    untrusting: tuple[str, IO[bytes]], fake: FakeOdoo
) -> None:
    """REQ-HTTP-13, decision 29 (issue 37): a new X-Forwarded-For with each bad token, from
    127.0.0.1 (not a trusted proxy, though FORWARDED_ALLOW_IPS=* is set): still one address,
    429 past the limit."""
    base, stderr = untrusting
    fake.reset_calls()
    forwarded: list[str | None] = [f"198.51.100.{n}" for n in range(MAX_FAILED_AUTH + 2)]
    statuses = _statuses(base, forwarded)
    assert statuses == [401] * MAX_FAILED_AUTH + [429] * 2
    assert len(fake.calls) <= 2 * MAX_FAILED_AUTH  # probe and authentication at most
    stderr.seek(0)
    assert b"FORWARDED_ALLOW_IPS is ignored" in stderr.read()


def test_behind_a_trusted_proxy_each_forwarded_client_is_counted_alone(base: str) -> None:
    """REQ-HTTP-13 (issue 37): from the trusted proxy, the client it names is counted: one
    client locked out, another behind the same proxy not, nor the proxy itself."""
    locked = _statuses(base, ["203.0.113.7"] * (MAX_FAILED_AUTH + 1), first=100, source=PROXY)
    assert locked == [401] * MAX_FAILED_AUTH + [429]
    # what the client wrote left of the proxy's entry is not believed: the last one counts
    spoofed = "203.0.113.99, 203.0.113.7"
    others = _statuses(base, [spoofed, "203.0.113.8", None], first=200, source=PROXY)
    assert others == [429, 401, 401]


def test_the_fleet_balancer_forwards_the_client_address() -> None:
    """Issue 37: the fleet's HAProxy adds X-Forwarded-For (the replicas trust it alone)."""
    spec = importlib.util.spec_from_file_location("fleet_lb", ROOT / "bench" / "fleet_lb.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = module.haproxy_config(9000, ["127.0.0.1:9001"], sticky=True)
    assert "option forwardfor" in [line.strip() for line in text.splitlines()]


# -- 2, 3. connections: a head in time, one framing ---------------------------------------------


def _read_until_closed(sock: socket.socket, limit: float) -> tuple[bytes, float | None]:
    """What the server sent, and after how many seconds it closed (None: still open)."""
    start = time.monotonic()
    data = b""
    while (left := limit - (time.monotonic() - start)) > 0:
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        except ConnectionResetError:
            return data, time.monotonic() - start
        if not chunk:
            return data, time.monotonic() - start
        data += chunk
    return data, None


def _trickle(sock: socket.socket, data: bytes, *, until: float) -> None:
    """Send ``data`` a byte every 50 ms (slowloris), until the server closes or ``until``."""
    for byte in data:
        time.sleep(0.05)
        try:
            sock.sendall(bytes([byte]))
        except OSError:  # the server closed it
            return
        if time.monotonic() > until:
            return


def test_a_connection_without_a_whole_head_in_time_is_closed(base: str) -> None:
    """REQ-HTTP-01 (issue 37): a connection that sends nothing (uvicorn's keep-alive timer
    starts after a response: it was held for ever) is closed at the head timeout; so is a
    slowloris one, half a head then a byte every 50 ms (the bytes do not restart the clock),
    with 408."""
    head = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
    port = _port(base)
    start = time.monotonic()
    with (
        socket.create_connection(("127.0.0.1", port)) as idle,
        socket.create_connection(("127.0.0.1", port)) as slow,
    ):
        slow.sendall(head[:40])
        _trickle(slow, head[40:], until=start + HEAD_TIMEOUT + 1.5)
        data, closed = _read_until_closed(slow, 0.5)
        slow_closed = time.monotonic() - start if closed is not None else None
        nothing, idle_closed = _read_until_closed(idle, 0.1)
    assert slow_closed is not None and slow_closed < HEAD_TIMEOUT + 1.0, slow_closed
    assert data.startswith(b"HTTP/1.1 408 ")
    assert idle_closed is not None and nothing == b""


def test_a_body_that_does_not_arrive_in_time_is_408_and_closed(base: str) -> None:
    """REQ-HTTP-01 (issue 37): a whole head, then a body a byte at a time (slowloris on the
    body): 408 and closed at the body timeout, however many bytes trickle in."""
    body = json.dumps(INIT).encode()
    host = f"127.0.0.1:{_port(base)}".encode()
    head = (
        b"POST /mcp HTTP/1.1\r\nHost: " + host + b"\r\nContent-Type: application/json\r\n"
        b"Accept: application/json, text/event-stream\r\n"
        b"Authorization: Bearer " + ADMIN_API_KEY.encode() + b"\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body)
    )
    start = time.monotonic()
    # from an address of its own: the lockout tests leave 127.0.0.1 refused for a minute
    with socket.create_connection(
        ("127.0.0.1", _port(base)), source_address=("127.0.0.5", 0)
    ) as sock:
        sock.sendall(head)
        _trickle(sock, body[:-1], until=start + BODY_TIMEOUT + 1.5)
        data, closed = _read_until_closed(sock, 0.5)
        closed_after = time.monotonic() - start if closed is not None else None
    assert closed_after is not None and closed_after < BODY_TIMEOUT + 1.0, closed_after
    assert data.startswith(b"HTTP/1.1 408 "), data[:80]


def test_an_idle_keep_alive_connection_is_closed(base: str) -> None:
    """REQ-HTTP-01 (issue 37): after its response, an idle connection goes after keep-alive."""
    with socket.create_connection(("127.0.0.1", _port(base))) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        data, closed = _read_until_closed(sock, KEEP_ALIVE + 1.5)
    assert data.startswith(b"HTTP/1.1 200 ")
    assert closed is not None and closed < KEEP_ALIVE + 1.0


def test_content_length_with_transfer_encoding_is_400_and_closed(base: str) -> None:
    """REQ-HTTP-08 (issue 37, RFC 9112 §6.1): both framings is a smuggling attempt: 400, and
    the connection closed (what follows is never read as a request)."""
    host = f"127.0.0.1:{_port(base)}".encode()
    body = json.dumps(INIT).encode()
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    smuggled = b"GET /health HTTP/1.1\r\nHost: " + host + b"\r\n\r\n"
    request = (
        b"POST /mcp HTTP/1.1\r\nHost: " + host + b"\r\nContent-Type: application/json\r\n"
        b"Accept: application/json, text/event-stream\r\n"
        b"Authorization: Bearer " + ADMIN_API_KEY.encode() + b"\r\n"
        b"Content-Length: %d\r\nTransfer-Encoding: chunked\r\n\r\n" % len(chunked)
    ) + chunked
    with socket.create_connection(("127.0.0.1", _port(base))) as sock:
        sock.sendall(request + smuggled)
        data, closed = _read_until_closed(sock, 1.0)
    assert data.startswith(b"HTTP/1.1 400 "), data[:100]
    assert data.count(b"HTTP/1.1 ") == 1  # the smuggled request got no answer
    assert closed is not None


# -- 4. params that are not an object -----------------------------------------------------------


@asynccontextmanager
async def _app(state: SharedState | None = None) -> AsyncIterator[httpx2.AsyncClient]:
    """The whole HTTP app in process (authentication off, loopback), lifespan entered."""
    fake = FakeOdoo("19.0")
    config = fake_config(transport="http")
    connection = ConnectionManager(
        config.connection_settings(), transport=FakeOdooTransport(app=fake.app)
    )
    await connection.connect()
    app = build_http_app(build_server(config, connection), config, connection, state=state)
    async with app.router.lifespan_context(app):
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(
            transport=transport, base_url="http://127.0.0.1:8000"
        ) as http:
            yield http
    await connection.close()


async def _session(http: httpx2.AsyncClient) -> dict[str, str]:
    answer = await http.post("/mcp", json=INIT, headers=ACCEPT)
    return {**ACCEPT, "mcp-session-id": answer.headers["mcp-session-id"],
            "mcp-protocol-version": "2025-06-18"}  # fmt: skip


def _rpc(answer: httpx2.Response) -> Any:
    """The JSON-RPC message of an answer, JSON or one SSE event."""
    text = answer.text
    if text.startswith("event:"):
        text = next(line[5:] for line in text.splitlines() if line.startswith("data:"))
    return json.loads(text)


@pytest.mark.anyio
@pytest.mark.parametrize("params", [[], "x", 5, True], ids=["array", "string", "number", "bool"])
async def test_params_that_are_not_an_object_are_invalid_params_with_the_id(params: Any) -> None:
    """REQ-HTTP-07 (issue 37): -32602 with the request's id and 200, like every JSON-RPC
    error, whether a session exists or not (a session-less ping answered success, the SDK
    400 with id null); a notification has no id: 400 with id null."""
    async with _app() as http:
        headers = await _session(http)
        for method, sent in (("ping", ACCEPT), ("ping", headers), ("tools/list", headers)):
            message = {"jsonrpc": "2.0", "id": 7, "method": method, "params": params}
            answer = await http.post("/mcp", content=json.dumps(message), headers=sent)
            assert answer.status_code == 200, (method, answer.text)
            body = _rpc(answer)
            assert body["id"] == 7 and body["error"]["code"] == -32602, body
            assert "must be an object" in body["error"]["message"]
        note = {"jsonrpc": "2.0", "method": "notifications/initialized", "params": params}
        answer = await http.post("/mcp", content=json.dumps(note), headers=headers)
        assert answer.status_code == 400
        assert answer.json()["id"] is None and answer.json()["error"]["code"] == -32602


@pytest.mark.anyio
async def test_null_params_are_taken_as_absent() -> None:
    """REQ-HTTP-07: the SDK reads ``params: null`` as no params; so does the early answer."""
    async with _app() as http:
        message = {"jsonrpc": "2.0", "id": 7, "method": "ping", "params": None}
        for headers in (ACCEPT, await _session(http)):
            answer = await http.post("/mcp", content=json.dumps(message), headers=headers)
            assert _rpc(answer) == {"jsonrpc": "2.0", "id": 7, "result": {}}


# -- 5. /health and the shared state ------------------------------------------------------------


class _Hanging(MemoryState):
    async def ping(self) -> None:
        await anyio.sleep_forever()


class _Down(MemoryState):
    async def ping(self) -> None:
        raise StateUnavailable("down")


@pytest.fixture
def dead_redis() -> RedisState:
    """Redis on a loopback port nothing listens on (refused at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return RedisState.from_url(f"redis://127.0.0.1:{port}/0")


@pytest.mark.anyio
async def test_health_is_ok_while_the_state_answers() -> None:
    async with _app(MemoryState()) as http:
        answer = await http.get("/health")
    assert answer.status_code == 200 and answer.json()["status"] == "ok"
    assert "state" not in answer.json()


@pytest.mark.anyio
@pytest.mark.parametrize("kind", ["redis refused", "refused", "hanging"])
async def test_health_is_503_when_the_state_does_not_answer(
    kind: str, dead_redis: RedisState, monkeypatch: pytest.MonkeyPatch
) -> None:
    """REQ-HTTP-19 (issue 37): every request needing the state is 503 then; /health says so
    (naming the store) instead of ok, within its bounded wait when the store hangs."""
    monkeypatch.setattr(limits, "STATE_PING_TIMEOUT", 0.2)
    states: dict[str, SharedState] = {
        "redis refused": dead_redis, "refused": _Down(), "hanging": _Hanging()
    }  # fmt: skip
    state = states[kind]
    async with _app(state) as http:
        start = time.monotonic()
        with anyio.fail_after(3):
            answer = await http.get("/health")
        elapsed = time.monotonic() - start
    assert answer.status_code == 503
    body = answer.json()
    assert (body["status"], body["state"]) == ("unavailable", "unavailable")
    assert "shared state" in body["reason"] and body["odoo"] == "ready"
    assert elapsed < 1.0
    await state.close()


# -- the setting --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("*", "'*' is not an IP address or network"),
        ("proxy.internal", "'proxy.internal' is not an IP address or network"),
        ("10.0.0.1/8", "did you mean 10.0.0.0/8?"),
    ],
)
def test_a_trusted_proxy_must_be_an_address_or_a_network(given: str, said: str) -> None:
    """Issue 37: uvicorn takes any other entry as a literal that never matches (``*``: every
    address) without a word; the configuration says what is wrong instead."""
    environ = {"ODOO_URL": "http://odoo.test", "ODOO_DB": "d", "ODOO_API_KEY": "k"}
    with pytest.raises(ConfigError, match=re.escape(said)):
        load_config(environ={**environ, "ODOO_MCP_TRUSTED_PROXIES": f"127.0.0.1, {given}"})
    good = load_config(environ={**environ, "ODOO_MCP_TRUSTED_PROXIES": "10.0.0.5, fd00::/8"})
    assert good.trusted_proxies == ("10.0.0.5", "fd00::/8")
