"""The control API: external edits, clock, reset/version switch, call log, HTTP routes."""

from __future__ import annotations

import xmlrpc.client
from typing import Any

import httpx2
import pytest
from wire_helpers import ProxyFactory, execute_kw

from fake_odoo import FakeOdoo
from fake_odoo.demo import ADMIN_UID, demo_uid
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


def test_a_scenario_start_keeps_a_database_nothing_changed(fake_odoo: FakeOdoo) -> None:
    """``begin_scenario``: no fault and no call left, and the database is kept when reads and
    a write that failed before changing anything are all it saw."""
    built = fake_odoo.db
    fake_odoo.inject_fault("refuse")
    fake_odoo.record("xmlrpc", "/xmlrpc/2/object", "object", "search", "res.partner")
    fake_odoo.call("res.partner", "search_read", [], fields=["name"])
    with pytest.raises((KeyError, ValueError)):  # Odoo's "Invalid field" error
        fake_odoo.call("res.partner", "write", [1], {"no_such_field": 1})
    assert fake_odoo.begin_scenario() is False
    assert fake_odoo.db is built
    assert (fake_odoo.faults.active(), fake_odoo.calls) == ([], [])


def _password(fake: FakeOdoo) -> None:
    fake.call("res.users", "write", [demo_uid(fake.db.major)], {"password": "changed"})


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda fake: fake.create("res.partner", {"name": "Left"}), id="create"),
        pytest.param(lambda fake: fake.set_clock("2031-01-01 00:00:00"), id="clock"),
        pytest.param(_password, id="password only"),
    ],
)
def test_a_scenario_start_rebuilds_a_changed_database(fake_odoo: FakeOdoo, change: Any) -> None:
    change(fake_odoo)
    assert fake_odoo.begin_scenario() is True
    assert fake_odoo.call("res.partner", "search_count", [("name", "=", "Left")]) == 0
    assert fake_odoo.db.now_str() != "2031-01-01 00:00:00"
    assert fake_odoo.db.authenticate("demo", "demo") == demo_uid(fake_odoo.db.major)
    assert fake_odoo.begin_scenario() is False  # rebuilt is as built


def test_a_write_rolled_back_still_counts_as_a_change(fake_odoo: FakeOdoo) -> None:
    """The journal undid it, but a rolled-back write is not proof of nothing changed (a
    cache keyed on the generation moved): the next scenario gets a rebuilt database."""
    db = fake_odoo.db
    with pytest.raises(RuntimeError), db.lock, db.transaction():
        db.set_password(ADMIN_UID, "during")
        raise RuntimeError("the call failed")
    assert db.authenticate("admin", "admin") == ADMIN_UID  # the password came back
    assert not db.as_built
    assert fake_odoo.begin_scenario() is True


def test_a_scenario_start_installs_modules_when_asked(fake_odoo: FakeOdoo) -> None:
    fake_odoo.reset(without=["stock"])
    assert fake_odoo.begin_scenario() is False  # without left out: the current choice stays
    assert "stock" in fake_odoo.uninstalled
    assert fake_odoo.begin_scenario(without=[]) is True
    assert fake_odoo.uninstalled == []


def test_the_begin_route_answers_the_info_and_whether_it_rebuilt(
    fake_odoo_server: FakeOdoo, http: httpx2.Client
) -> None:
    fake_odoo_server.reset()
    first = http.post("/__fake__/begin", json={}).json()
    assert first == {**http.get("/__fake__/info").json(), "rebuilt": False}
    http.post("/__fake__/create", json={"model": "res.partner", "vals": {"name": "Route"}})
    assert http.post("/__fake__/begin", json={}).json()["rebuilt"] is True
    bad = http.post("/__fake__/begin", json={"without": "stock"})
    assert bad.status_code == 400 and bad.json()["error"] == "ValueError"
