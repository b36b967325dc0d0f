"""Issue 29 (item 3): a connection that cannot be made says why, and what to change.

Each case is a misconfiguration seen in the field, reproduced against a served fake Odoo
(or a small web server that is not Odoo); ``odoo-mcp check`` must name the cause and the fix:
an unknown database, a URL copied from the browser, http and https swapped, a wrong port,
something that is not Odoo answering, and (for ``serve --transport http``) a port in use.
"""

from __future__ import annotations

import logging
import socket
import ssl
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from certificates import self_signed
from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import serve_fake_odoo
from odoo_mcp.cli import EXIT_FAILED, main

#: what a web server that is not Odoo answers: (status, headers, body)
Answer = tuple[int, dict[str, str], bytes]


@pytest.fixture(scope="module")
def odoo19() -> Iterator[FakeOdoo]:
    with serve_fake_odoo("19.0") as fake:
        yield fake


@pytest.fixture(scope="module", params=["16.0", "17.0"])
def older_odoo(request: pytest.FixtureRequest) -> Iterator[FakeOdoo]:
    with serve_fake_odoo(str(request.param)) as fake:
        yield fake


def _url(fake: FakeOdoo) -> str:
    assert fake.url is not None
    return fake.url


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _check(
    capsys: pytest.CaptureFixture[str], url: str, db: str = "demo", **extra: str
) -> tuple[int, str]:
    """``odoo-mcp check`` against ``url``: its exit status and its last stderr line."""
    environ = {
        "ODOO_URL": url,
        "ODOO_DB": db,
        "ODOO_USERNAME": "admin",
        "ODOO_API_KEY": ADMIN_API_KEY,
        "ODOO_MCP_RECONNECT_ATTEMPTS": "1",
        "ODOO_TIMEOUT": "10",
        **extra,
    }
    environ = {key: value for key, value in environ.items() if value}
    status = main(["check"], environ=environ)
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("odoo-mcp: ")]
    return status, lines[-1] if lines else err


def _handler(answer: Callable[[str, str], Answer]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            status, headers, body = answer(self.command, self.path)
            self.send_response(status)
            for name, value in {"Content-Length": str(len(body)), **headers}.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _answer

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


@contextmanager
def _web_server(
    answer: Callable[[str, str], Answer], tls: ssl.SSLContext | None = None
) -> Iterator[int]:
    """A web server that is not Odoo on a free port (optionally HTTPS only)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(answer))
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


def _html(status: int, title: str) -> Answer:
    body = f"<html><head><title>{title}</title></head><body><h1>{title}</h1></body></html>"
    return status, {"Content-Type": "text/html", "Server": "nginx/1.24.0"}, body.encode()


def _self_signed(tmp_path: Path) -> ssl.SSLContext:
    return self_signed(tmp_path)[0]


# --- the database -------------------------------------------------------------------------


@pytest.mark.req("REQ-01-15", "REQ-02-14")
def test_an_unknown_database_on_odoo_19_is_named_with_the_databases_there(
    odoo19: FakeOdoo, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: "this server does not offer JSON-2 (/json/2 answered 404 without an Odoo
    error): JSON-2 needs Odoo 19 or later", about a server the version probe found to be 19."""
    status, line = _check(capsys, _url(odoo19), db="nosuch")
    assert status == EXIT_FAILED
    assert "the database 'nosuch' does not exist on this server" in line
    assert "databases here: demo" in line
    assert "ODOO_DB" in line
    assert "JSON-2 needs Odoo 19" not in line


@pytest.mark.req("REQ-01-15", "REQ-02-14")
@pytest.mark.parametrize("secret", ["api_key", "password"])
def test_an_unknown_database_before_19_is_named_with_the_databases_there(
    older_odoo: FakeOdoo, secret: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: the psycopg2 text ("connection to server on socket ... FATAL: database
    "nosuch" does not exist"), or "Database not found." for a session login."""
    extra = {"ODOO_API_KEY": ""} if secret == "password" else {}
    if secret == "password":
        extra["ODOO_PASSWORD"] = "admin"
    status, line = _check(capsys, _url(older_odoo), db="nosuch", **extra)
    assert status == EXIT_FAILED
    assert "the database 'nosuch' does not exist on this server" in line
    assert "databases here: demo" in line
    assert "socket" not in line


# --- the URL --------------------------------------------------------------------------------


@pytest.mark.req("REQ-01-15", "REQ-02a-09")
@pytest.mark.parametrize(
    "page",
    ["/odoo", "/odoo/", "/web/login", "/web#action=12&model=res.partner", "/odoo/action-123"],
)
def test_a_url_copied_from_the_browser_names_the_base_url(
    odoo19: FakeOdoo,
    page: str,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Before: "could not detect the Odoo version; assuming 14.0 over XML-RPC", then "this
    server does not offer XML-RPC (/xmlrpc/2 answered 404); choose protocol json2 or
    jsonrpc". The path is not stripped silently: the message names the URL to set."""
    caplog.set_level(logging.INFO)
    status, line = _check(capsys, _url(odoo19) + page)
    assert status == EXIT_FAILED
    expected = f"ODOO_URL should be the server's base URL ({_url(odoo19)}), not a page of the web "
    assert expected + "client" in line
    assert "could not detect the Odoo version" not in caplog.text
    assert "does not offer XML-RPC" not in line


@pytest.mark.req("REQ-01-15", "REQ-02a-09")
def test_another_path_is_judged_only_when_the_login_fails_too(
    odoo19: FakeOdoo, capsys: pytest.CaptureFixture[str]
) -> None:
    """A path that is no page of the web client may be a proxy's prefix: it is named once
    the login failed too; a URL whose port is closed is reported as such, path or not."""
    status, line = _check(capsys, _url(odoo19) + "/erp")
    assert status == EXIT_FAILED
    assert f"ODOO_URL should be the server's base URL ({_url(odoo19)})" in line
    assert "under /erp" in line
    port = _free_port()
    status, line = _check(capsys, f"http://127.0.0.1:{port}/odoo")
    assert f"nothing listens on 127.0.0.1:{port}" in line


# --- http and https -----------------------------------------------------------------------


@pytest.mark.req("REQ-01-15", "REQ-02-21")
def test_https_to_a_plain_http_server_says_use_http(
    odoo19: FakeOdoo, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: "cannot reach Odoo (refused): [SSL: WRONG_VERSION_NUMBER] wrong version
    number (_ssl.c:1006)"."""
    hostport = _url(odoo19).removeprefix("http://")
    status, line = _check(capsys, f"https://{hostport}")
    assert status == EXIT_FAILED
    assert f"the server at {hostport} speaks plain HTTP, not HTTPS: use http://{hostport}" in line
    assert "WRONG_VERSION_NUMBER" not in line


@pytest.mark.req("REQ-01-15", "REQ-02-21")
def test_http_to_an_https_only_server_says_use_https(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: "connection to Odoo dropped: Server disconnected without sending a
    response." (the TLS server hangs up on a plain-HTTP request)."""
    tls = _self_signed(tmp_path)
    with _web_server(lambda _m, _p: _html(200, "Odoo"), tls=tls) as port:
        status, line = _check(capsys, f"http://127.0.0.1:{port}")
    assert status == EXIT_FAILED
    hostport = f"127.0.0.1:{port}"
    assert f"the server at {hostport} speaks HTTPS: use https://{hostport}" in line


@pytest.mark.req("REQ-01-15", "REQ-02-21")
def test_a_redirect_to_https_says_use_https(capsys: pytest.CaptureFixture[str]) -> None:
    """Before: "could not detect the Odoo version ...", then "malformed XML-RPC answer
    (HTTP 301)"."""

    def redirect(_method: str, path: str) -> Answer:
        return 301, {"Location": f"https://odoo.example.com{path}"}, b""

    with _web_server(redirect) as port:
        status, line = _check(capsys, f"http://127.0.0.1:{port}")
    assert status == EXIT_FAILED
    assert "redirects to HTTPS: use https://" in line


# --- the port, and what answers there -------------------------------------------------------


@pytest.mark.req("REQ-01-15", "REQ-02-21")
def test_a_port_where_nothing_listens_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    """Before: "cannot reach Odoo (refused): All connection attempts failed"."""
    port = _free_port()
    status, line = _check(capsys, f"http://127.0.0.1:{port}")
    assert status == EXIT_FAILED
    assert f"nothing listens on 127.0.0.1:{port} (connection refused)" in line
    assert "ODOO_URL" in line


@pytest.mark.req("REQ-01-15", "REQ-02-21")
def test_a_proxy_error_page_is_not_taken_for_odoo(capsys: pytest.CaptureFixture[str]) -> None:
    """Before: "Odoo or a proxy in front of it failed (HTTP 502)"."""
    with _web_server(lambda _m, _p: _html(502, "502 Bad Gateway")) as port:
        status, line = _check(capsys, f"http://127.0.0.1:{port}")
    assert status == EXIT_FAILED
    assert "not Odoo (a proxy or another web server)" in line
    assert "HTTP 502" in line
    assert "'502 Bad Gateway'" in line


@pytest.mark.req("REQ-01-15", "REQ-02-21")
def test_another_web_application_is_not_taken_for_odoo(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Before: "malformed XML-RPC answer (HTTP 200)" after "could not detect the Odoo
    version"; a static server (``python -m http.server``) gave "Odoo or a proxy in front of
    it failed (HTTP 501)"."""
    with _web_server(lambda _m, _p: _html(200, "Sign in - Grafana")) as port:
        status, line = _check(capsys, f"http://127.0.0.1:{port}")
    assert status == EXIT_FAILED
    assert "not Odoo (a proxy or another web server)" in line
    assert "'Sign in - Grafana'" in line


@pytest.mark.req("REQ-01-15")
def test_serve_http_on_a_port_in_use_says_so_in_one_line(
    odoo19: FakeOdoo, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: uvicorn's "[Errno 98] error while attempting to bind on address ...", after
    the application had started, and exit status 3."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = int(taken.getsockname()[1])
        environ: dict[str, str] = {
            "ODOO_URL": _url(odoo19),
            "ODOO_DB": "demo",
            "ODOO_USERNAME": "admin",
            "ODOO_API_KEY": ADMIN_API_KEY,
        }
        argv = ["serve", "--transport", "http", "--port", str(port)]
        code = main(argv, environ=environ)
    assert code == EXIT_FAILED
    lines = [line for line in capsys.readouterr().err.splitlines() if "in use" in line]
    assert lines == [
        f"odoo-mcp: cannot serve HTTP on 127.0.0.1:{port}: the port is already in use; "
        "choose another with --port (or ODOO_MCP_PORT)"
    ]
