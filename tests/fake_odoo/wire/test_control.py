"""The control API: external edits, clock, reset/version switch, call log, HTTP routes."""

from __future__ import annotations

import xmlrpc.client

import httpx2
import pytest
from wire_helpers import ProxyFactory, execute_kw

from fake_odoo import FakeOdoo
from fake_odoo.testing import in_process_client

pytestmark = pytest.mark.wire


def test_external_edit_bumps_write_date(fake_odoo_server: FakeOdoo, proxy: ProxyFactory) -> None:
    pid = fake_odoo_server.create("res.partner", {"name": "Outside"})
    fake_odoo_server.set_clock("2030-01-02 03:04:05")
    fake_odoo_server.edit("res.partner", pid, {"phone": "+32 123"})
    rows = execute_kw(
        proxy, "/xmlrpc/2/object", "res.partner", "read", [pid], fields=["phone", "write_date"]
    )
    assert rows == [{"id": pid, "phone": "+32 123", "write_date": "2030-01-02 03:04:05"}]
    assert fake_odoo_server.calls[-1].method == "read"  # external edits are not logged


def test_reset_switches_version(fake_odoo_server: FakeOdoo, proxy: ProxyFactory) -> None:
    fake_odoo_server.reset(version="17.0")
    assert proxy("/xmlrpc/2/common").version()["server_version"] == "17.0"
    fake_odoo_server.reset(version="19.0")
    assert proxy("/xmlrpc/2/db").server_version() == "19.0"


def test_call_log(fake_odoo_server: FakeOdoo, proxy: ProxyFactory) -> None:
    proxy("/xmlrpc/2/db").list()
    execute_kw(proxy, "/xmlrpc/2/object", "res.partner", "search", [])
    execute_kw(proxy, "/xmlrpc/object", "res.partner", "search", [])
    assert fake_odoo_server.call_counts() == 3
    assert fake_odoo_server.call_counts(service="db") == 1
    assert (
        fake_odoo_server.call_counts(protocol="xmlrpc", model="res.partner", method="search") == 2
    )
    assert {c.path for c in fake_odoo_server.calls} == {
        "/xmlrpc/2/db",
        "/xmlrpc/2/object",
        "/xmlrpc/object",
    }
    fake_odoo_server.reset_calls()
    assert fake_odoo_server.calls == []


def test_control_routes(fake_odoo_server: FakeOdoo, http: httpx2.Client) -> None:
    created = http.post("/__fake__/create", json={"model": "res.partner", "vals": {"name": "C"}})
    pid = created.json()["id"]
    edited = http.post(
        "/__fake__/edit", json={"model": "res.partner", "id": pid, "vals": {"name": "D"}}
    )
    assert edited.status_code == 200
    read = http.post(
        "/__fake__/call",
        json={
            "model": "res.partner",
            "method": "read",
            "args": [[pid]],
            "kwargs": {"fields": ["name"]},
        },
    )
    assert read.json() == {"result": [{"id": pid, "name": "D"}]}
    assert http.post("/__fake__/clock", json={"now": "2031-05-06 07:08:09"}).json() == {
        "now": "2031-05-06 07:08:09"
    }
    fault = http.post("/__fake__/faults", json={"kind": "rate_limit", "count": 1}).json()
    assert fault["kind"] == "rate_limit"
    assert len(http.get("/__fake__/faults").json()) == 1
    assert http.post("/jsonrpc", json={}).status_code == 429
    assert http.get("/__fake__/calls/count", params={"service": "object"}).json() == {"count": 0}
    assert http.delete("/__fake__/faults").json() == []
    info = http.get("/__fake__/info").json()
    assert (info["version"], info["database"], info["url"]) == (
        "19.0",
        "demo",
        fake_odoo_server.url,
    )
    bad = http.post("/__fake__/faults", json={"kind": "nonsense"})
    assert bad.status_code == 400 and bad.json()["error"] == "ValueError"
    assert http.post("/__fake__/reset", json={"version": "18.0"}).json()["version"] == "18.0"
    assert http.post("/__fake__/reset", json={}).json()["version"] == "18.0"  # kept
    assert http.post("/__fake__/reset", json={"version": "19.0"}).json()["version"] == "19.0"


@pytest.mark.anyio
async def test_in_process_client(fake_odoo: FakeOdoo) -> None:
    async with in_process_client(fake_odoo) as client:
        body = xmlrpc.client.dumps((), "version")
        response = await client.post("/xmlrpc/2/common", content=body)
        assert xmlrpc.client.loads(response.text)[0][0]["server_version"] == "19.0"
        fake_odoo.inject_fault("refuse", count=1)
        with pytest.raises(httpx2.ConnectError):
            await client.post("/xmlrpc/2/common", content=body)
        fake_odoo.inject_fault("drop", count=1, protocol="xmlrpc")
        with pytest.raises(httpx2.RemoteProtocolError):
            await client.post("/xmlrpc/2/common", content=body)
        assert (await client.get("/web/version")).status_code == 200
    assert fake_odoo.call_counts(service="common") == 2  # the dropped call did run
