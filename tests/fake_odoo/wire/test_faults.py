"""Injected faults as real clients see them over a socket (stdlib xmlrpc.client, httpx2)."""

from __future__ import annotations

import time
import xmlrpc.client
from xml.parsers.expat import ExpatError

import httpx2
import pytest
from wire_helpers import ADMIN_PASSWORD, ProxyFactory

from fake_odoo import FakeOdoo

pytestmark = pytest.mark.wire

JSONRPC_VERSION = {
    "jsonrpc": "2.0",
    "method": "call",
    "id": 1,
    "params": {"service": "common", "method": "version", "args": []},
}


def test_latency(fake_odoo_server: FakeOdoo, http: httpx2.Client) -> None:
    fake_odoo_server.inject_fault("latency", seconds=0.3, count=1)
    started = time.monotonic()
    assert http.post("/jsonrpc", json=JSONRPC_VERSION).status_code == 200
    assert time.monotonic() - started >= 0.3
    started = time.monotonic()
    http.post("/jsonrpc", json=JSONRPC_VERSION)
    assert time.monotonic() - started < 0.3  # one-shot: consumed


def test_refuse_is_a_connection_error(
    fake_odoo_server: FakeOdoo, http: httpx2.Client, proxy: ProxyFactory
) -> None:
    fake_odoo_server.inject_fault("refuse")  # persistent: xmlrpc.client retries once by itself
    with pytest.raises(ConnectionError):  # http.client.RemoteDisconnected or a reset
        proxy("/xmlrpc/2/common").version()
    with pytest.raises(httpx2.TransportError):
        http.post("/jsonrpc", json=JSONRPC_VERSION)
    assert fake_odoo_server.calls == []  # nothing reached the server
    fake_odoo_server.clear_faults()
    assert http.post("/jsonrpc", json=JSONRPC_VERSION).status_code == 200


def test_drop_commits_then_loses_the_response(
    fake_odoo_server: FakeOdoo, http: httpx2.Client
) -> None:
    fake_odoo_server.inject_fault("drop", count=1, protocol="jsonrpc")
    params = {
        "service": "object",
        "method": "execute_kw",
        "args": ["demo", 2, ADMIN_PASSWORD, "res.partner", "create", [{"name": "Lost"}]],
    }
    with pytest.raises(httpx2.TransportError):
        http.post("/jsonrpc", json={"jsonrpc": "2.0", "method": "call", "params": params, "id": 1})
    found = fake_odoo_server.call("res.partner", "search_count", [("name", "=", "Lost")])
    assert found == 1
    assert fake_odoo_server.call_counts(method="create") == 1


@pytest.mark.parametrize("status", [500, 502, 503])
def test_http_status_from_a_proxy(
    fake_odoo_server: FakeOdoo, http: httpx2.Client, status: int
) -> None:
    fake_odoo_server.inject_fault("http_status", status=status, count=1)
    response = http.post("/jsonrpc", json=JSONRPC_VERSION)
    assert response.status_code == status
    assert response.headers["content-type"] == "text/html"
    assert f"<center><h1>{status} " in response.text and "nginx" in response.text


def test_rate_limit(fake_odoo_server: FakeOdoo, proxy: ProxyFactory) -> None:
    fake_odoo_server.inject_fault("rate_limit", retry_after=7, count=1, protocol="xmlrpc")
    with pytest.raises(xmlrpc.client.ProtocolError) as error:
        proxy("/xmlrpc/2/common").version()
    assert error.value.errcode == 429
    headers = {name.lower(): value for name, value in error.value.headers.items()}
    assert headers["retry-after"] == "7"
    assert proxy("/xmlrpc/2/common").version()["server_serie"] == "19.0"


def test_malformed_bodies(
    fake_odoo_server: FakeOdoo, http: httpx2.Client, proxy: ProxyFactory
) -> None:
    fake_odoo_server.inject_fault("malformed", count=2)
    response = http.post("/jsonrpc", json=JSONRPC_VERSION)
    assert response.status_code == 200
    with pytest.raises(ValueError):
        response.json()
    with pytest.raises(ExpatError):
        proxy("/xmlrpc/2/common").version()


def test_targeting_by_path_and_protocol(fake_odoo_server: FakeOdoo, http: httpx2.Client) -> None:
    fake_odoo_server.inject_fault("http_status", status=503, path="/web/version")
    fake_odoo_server.inject_fault("http_status", status=502, protocol="json2")
    assert http.post("/jsonrpc", json=JSONRPC_VERSION).status_code == 200
    assert http.get("/web/version").status_code == 503
    assert http.post("/json/2/res.partner/search", json={}).status_code == 502
    assert http.get("/web/version").status_code == 503  # persistent until cleared
    assert len(fake_odoo_server.faults.active()) == 2
    fake_odoo_server.clear_faults()
    assert http.get("/web/version").status_code == 200


def test_expire_sessions_fault(fake_odoo_server: FakeOdoo, http: httpx2.Client) -> None:
    login = {"db": "demo", "login": "admin", "password": ADMIN_PASSWORD}
    http.post("/web/session/authenticate", json={"jsonrpc": "2.0", "params": login, "id": 1})
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "params": {"model": "res.partner", "method": "search_count", "args": [[]], "kwargs": {}},
    }
    assert "result" in http.post("/web/dataset/call_kw", json=call).json()
    fake_odoo_server.inject_fault("expire_sessions", count=1)
    assert http.post("/web/dataset/call_kw", json=call).json()["error"]["code"] == 100
