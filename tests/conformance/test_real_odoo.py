"""``RealOdoo``: the kit's control over an Odoo through its external API only, judged against
the fake served without its control API (as a real Odoo), on 19.0 and 17.0."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

from fake_odoo import FakeOdoo
from fake_odoo.server import BackgroundServer
from odoo_mcp_conformance.control import ControlError, not_the_fake
from odoo_mcp_conformance.real_odoo import (
    ENVIRONMENT,
    NEEDS_FAKE_PREFIX,
    Credentials,
    NeedsFake,
    RealOdoo,
)
from odoo_mcp_conformance.target import OdooCoordinates

pytestmark = pytest.mark.wire


@pytest.fixture(scope="module", params=["19.0", "17.0"])
def served(request: pytest.FixtureRequest) -> Iterator[FakeOdoo]:
    fake = FakeOdoo(request.param, control=False)
    with BackgroundServer(fake):
        yield fake


class Recorder:
    """The paths of every request a client sent."""

    def __init__(self) -> None:
        self.paths: list[str] = []

    def __call__(self, request: httpx2.Request) -> None:
        self.paths.append(request.url.path)


class NoJsonRpc(httpx2.HTTPTransport):
    """An Odoo 20 as far as /jsonrpc goes: 404."""

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        if request.url.path == "/jsonrpc":
            return httpx2.Response(404, text="Not Found", request=request)
        return super().handle_request(request)


def _users(fake: FakeOdoo) -> dict[str, Credentials]:
    """The fake's demo users: the admin logs in with its API key, the user with a password."""
    creds = fake.credentials()
    return {
        "admin": Credentials(login="admin", api_key=creds["admin"]["api_key"]),
        "demo": Credentials(login="demo", password=creds["demo"]["password"]),
    }


@pytest.fixture
def sent() -> Recorder:
    return Recorder()


@pytest.fixture
def real(served: FakeOdoo, sent: Recorder) -> Iterator[RealOdoo]:
    http = httpx2.Client(timeout=10.0, event_hooks={"request": [sent]})
    odoo = RealOdoo(str(served.url), served.db.name, _users(served), http=http)
    try:
        yield odoo
    finally:
        odoo.close()
        http.close()
        served.reset()  # whatever a failing test left


def _partner_ids(fake: FakeOdoo, name: str) -> list[int]:
    found: list[int] = fake.call(
        "res.partner", "search", [("name", "=", name)], context={"active_test": False}
    )
    return found


def test_the_fake_without_control_is_not_the_fake(served: FakeOdoo) -> None:
    reason = not_the_fake(str(served.url))
    assert reason is not None
    assert "HTTP 404" in reason


def test_info_and_coordinates(served: FakeOdoo, real: RealOdoo) -> None:
    creds = served.credentials()
    info = real.info()
    assert info["version"] == served.db.version_info["server_version"]
    assert info["database"] == served.db.name
    assert info["url"] == served.url
    assert info["uninstalled"] == []
    assert info["credentials"] == {
        user: {
            "uid": creds[user]["uid"],
            "login": user,
            "password": "" if user == "admin" else creds[user]["password"],
            "api_key": creds[user]["api_key"] if user == "admin" else "",
        }
        for user in ("admin", "demo")
    }
    assert real.coordinates("demo") == OdooCoordinates(
        url=str(served.url), db=served.db.name, login="demo", password="demo", api_key=""
    )
    assert real.coordinates().api_key == creds["admin"]["api_key"]
    with pytest.raises(ControlError, match="no user 'nobody'"):
        real.coordinates("nobody")
    assert not real.dirty
    assert not real.modules_removed


def test_a_wrong_password_is_a_control_error(served: FakeOdoo) -> None:
    users = {**_users(served), "demo": Credentials(login="demo", password="wrong")}
    odoo = RealOdoo(str(served.url), served.db.name, users)
    with odoo, pytest.raises(ControlError, match="demo cannot log in"):
        odoo.info()


def test_reads_go_through(served: FakeOdoo, real: RealOdoo) -> None:
    rows = real.call("res.partner", "search_read", [], fields=["name"], limit=3)
    assert len(rows) == 3
    assert all(set(row) == {"id", "name"} for row in rows)
    assert real.call("res.partner", "search_count", []) == served.call(
        "res.partner", "search_count", []
    )
    assert not real.dirty


def test_odoo_errors_are_control_errors(real: RealOdoo) -> None:
    with pytest.raises(ControlError) as raised:
        real.call("res.partner", "search_read", [("no_such_field", "=", 1)])
    message = str(raised.value)
    assert "no_such_field" in message
    assert "Traceback" not in message


def test_create_then_reset_removes_the_record(served: FakeOdoo, real: RealOdoo) -> None:
    record = real.create("res.partner", {"name": "Kit Real One"})
    via_call = real.call("res.partner", "create", {"name": "Kit Real Two"})
    assert _partner_ids(served, "Kit Real One") == [record]
    assert real.dirty
    real.edit("res.partner", record, {"name": "Kit Real One Edited"})
    real.call("res.partner", "write", [via_call], {"phone": "+32 1"})
    real.call("res.partner", "unlink", [via_call])  # already gone at reset: skipped
    assert _partner_ids(served, "Kit Real Two") == []
    real.reset()
    assert not real.dirty
    assert _partner_ids(served, "Kit Real One Edited") == []
    assert real.call("res.partner", "search", [("id", "in", [record, via_call])]) == []


def test_records_the_server_created_are_removed_too(served: FakeOdoo, real: RealOdoo) -> None:
    new = served.create("res.partner", {"name": "Made By The Server"})  # not by the kit
    with pytest.raises(NeedsFake):
        real.edit("res.partner", new, {"name": "x"})
    real.remember("res.partner", [new])
    assert real.dirty
    real.edit("res.partner", new, {"name": "Made By The Server, Edited"})
    real.reset()
    assert _partner_ids(served, "Made By The Server, Edited") == []


def test_changing_others_records_needs_the_fake_before_any_request(
    served: FakeOdoo, real: RealOdoo, sent: Recorder
) -> None:
    partner = served.call("res.partner", "search", [], limit=1)[0]
    before = served.read("res.partner", [partner], ["name"])
    mine = real.create("res.partner", {"name": "Kit Mine"})
    sent.paths.clear()
    attempts: list[Any] = [
        lambda: real.call("res.partner", "write", [partner], {"name": "Hijacked"}),
        lambda: real.call("res.partner", "write", [mine, partner], {"name": "Hijacked"}),
        lambda: real.call("res.partner", "unlink", [partner]),
        lambda: real.call("res.partner", "unlink", partner),
        lambda: real.call("res.users", "write", [mine], {"name": "other model"}),
        lambda: real.call("res.partner", "action_archive", [partner]),
        lambda: real.call("res.partner", "name_create", "Kit Made"),
        lambda: real.call("res.partner", "write"),
        lambda: real.edit("res.partner", partner, {"name": "Hijacked"}),
    ]
    for attempt in attempts:
        with pytest.raises(NeedsFake) as raised:
            attempt()
        assert raised.value.reason == "changes records the kit did not create"
        assert str(raised.value) == NEEDS_FAKE_PREFIX + raised.value.reason
    assert sent.paths == []
    assert served.read("res.partner", [partner], ["name"]) == before
    real.reset()


def test_guard_tool_call(real: RealOdoo, sent: Recorder) -> None:
    mine = real.create("res.partner", {"name": "Kit Guarded"})
    sent.paths.clear()
    allowed: list[tuple[str, Any]] = [
        ("odoo_core_search_read", {"model": "res.partner"}),
        ("odoo_core_create", {"model": "res.partner", "values": {"name": "x"}}),
        ("odoo_core_write", {"model": "res.partner", "ids": [mine], "values": {"name": "y"}}),
        ("odoo_core_unlink", {"model": "res.partner", "ids": [mine]}),
        ("odoo_core_execute", {"model": "res.partner", "method": "search_read", "args": [[]]}),
        ("odoo_core_execute", {"model": "res.partner", "method": "action_archive", "ids": [mine]}),
        ("odoo_core_execute", {"model": "res.partner", "method": "copy", "args": [[mine]]}),
        ("odoo_core_execute", {"model": "res.partner", "method": "copy", "args": [mine]}),
    ]
    for tool, arguments in allowed:
        real.guard_tool_call(tool, arguments)
    refused: list[tuple[str, Any]] = [
        ("odoo_core_write", {"model": "res.partner", "ids": [1], "values": {"name": "y"}}),
        ("odoo_core_write", {"model": "res.partner", "ids": [mine, 1]}),
        ("odoo_core_write", {"model": "res.users", "ids": [mine]}),
        ("odoo_core_unlink", {"model": "res.partner", "ids": []}),
        ("odoo_core_unlink", {"model": "res.partner"}),
        ("odoo_core_unlink", {"ids": [mine]}),
        ("odoo_core_unlink", {"model": "res.partner", "ids": "all"}),
        ("odoo_core_unlink", [mine]),
        ("odoo_core_unlink", None),
        ("odoo_core_execute", {"model": "res.partner", "method": "unlink", "args": [[1]]}),
        ("odoo_core_execute", {"model": "res.partner", "method": "create", "args": [{}]}),
        ("odoo_core_execute", {"model": "res.partner", "method": "action_archive"}),
        ("odoo_core_execute", {"model": "res.partner", "method": "write", "args": []}),
        ("odoo_core_execute", "unlink everything"),
    ]
    for tool, arguments in refused:
        with pytest.raises(NeedsFake, match="changes records the kit did not create"):
            real.guard_tool_call(tool, arguments)
    assert sent.paths == []
    real.reset()


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (lambda odoo: odoo.uninstall(["stock"]), "needs the fake to uninstall modules"),
        (lambda odoo: odoo.set_clock("2025-01-01 00:00:00"), "needs the fake's fault control"),
        (lambda odoo: odoo.inject_fault(kind="refuse"), "needs the fake's fault control"),
        (lambda odoo: odoo.raise_odoo_error("x.Y", "no"), "needs the fake's fault control"),
        (lambda odoo: odoo.expire_sessions(), "needs the fake's fault control"),
        (lambda odoo: odoo.calls(), "needs the fake's call log"),
        (lambda odoo: odoo.data_calls(), "needs the fake's call log"),
        (lambda odoo: odoo.reset(dataset="empty"), "needs the fake's own data sets"),
        (lambda odoo: odoo.reset(scale=3), "needs the fake's own data sets"),
        (lambda odoo: odoo.reset(version="17.0"), "needs the fake's own data sets"),
    ],
)
def test_what_needs_the_fake(real: RealOdoo, sent: Recorder, action: Any, reason: str) -> None:
    with pytest.raises(NeedsFake) as raised:
        action(real)
    assert raised.value.reason == reason
    assert str(raised.value) == f"needs the fake: {reason}"
    assert sent.paths == []
    assert not real.modules_removed


def test_reset_on_another_dataset_still_cleans_up(served: FakeOdoo, real: RealOdoo) -> None:
    real.create("res.partner", {"name": "Kit Left Behind"})
    with pytest.raises(NeedsFake):
        real.reset(dataset="twin-a")
    assert _partner_ids(served, "Kit Left Behind") == []
    assert not real.dirty


def test_no_ops(real: RealOdoo, sent: Recorder) -> None:
    real.clear_faults()
    real.clear_calls()
    real.end_scenario()
    real.reset()
    assert sent.paths == []
    assert not real.dirty


def test_xmlrpc_when_jsonrpc_is_gone(served: FakeOdoo) -> None:
    """Odoo 20 drops /jsonrpc: after its 404, everything goes over XML-RPC."""
    sent = Recorder()
    http = httpx2.Client(transport=NoJsonRpc(), event_hooks={"request": [sent]})
    with http, RealOdoo(str(served.url), served.db.name, _users(served), http=http) as odoo:
        assert odoo.info()["credentials"]["demo"]["uid"] == served.credentials()["demo"]["uid"]
        record = odoo.create("res.partner", {"name": "Kit Over XML-RPC"})
        assert odoo.call("res.partner", "read", [record], ["name"])[0]["name"] == (
            "Kit Over XML-RPC"
        )
        with pytest.raises(ControlError, match="no_such_field"):
            odoo.call("res.partner", "search", [("no_such_field", "=", 1)])
        odoo.reset()
    assert sent.paths[0] == "/jsonrpc"
    assert set(sent.paths[1:]) == {"/xmlrpc/2/common", "/xmlrpc/2/object"}
    assert _partner_ids(served, "Kit Over XML-RPC") == []


def test_from_environment(served: FakeOdoo) -> None:
    creds = served.credentials()
    environ = {
        "ODOO_MCP_KIT_ADMIN_LOGIN": "admin",
        "ODOO_MCP_KIT_ADMIN_API_KEY": creds["admin"]["api_key"],
        "ODOO_MCP_KIT_USER_LOGIN": "demo",
        "ODOO_MCP_KIT_USER_PASSWORD": creds["demo"]["password"],
    }
    with RealOdoo.from_environment(str(served.url), served.db.name, environ) as odoo:
        assert odoo.users == _users(served)
        assert odoo.info()["credentials"]["admin"]["uid"] == creds["admin"]["uid"]


def test_from_environment_names_what_is_missing() -> None:
    with pytest.raises(ValueError) as raised:
        RealOdoo.from_environment("http://odoo.test", "db", {})
    message = str(raised.value)
    for names in ENVIRONMENT.values():
        for name in names.values():
            assert name in message
    environ = {"ODOO_MCP_KIT_ADMIN_LOGIN": "boss", "ODOO_MCP_KIT_ADMIN_PASSWORD": "secret"}
    with pytest.raises(ValueError) as raised:
        RealOdoo.from_environment("http://odoo.test", "db", environ)
    message = str(raised.value)
    assert "ODOO_MCP_KIT_USER_LOGIN" in message
    assert "ODOO_MCP_KIT_USER_PASSWORD or ODOO_MCP_KIT_USER_API_KEY" in message
    assert "ODOO_MCP_KIT_ADMIN" not in message


def test_credentials_need_a_secret() -> None:
    with pytest.raises(ValueError, match="a password or an API key"):
        Credentials(login="demo")
    assert Credentials(login="demo", password="pw", api_key="key").secret == "key"
    with pytest.raises(ValueError, match="needs the users"):
        RealOdoo("http://odoo.test", "db", {"admin": Credentials(login="a", password="b")})


def test_reset_reports_what_it_could_not_remove(served: FakeOdoo, real: RealOdoo) -> None:
    """Every removable record goes; the others are named, and forgotten (no endless retry)."""
    real.create("res.partner", {"name": "Kit Removable"})
    real.remember("no.such.model", [7])
    with pytest.raises(ControlError, match=r"could not remove.*no\.such\.model \[7\]"):
        real.reset()
    assert _partner_ids(served, "Kit Removable") == []
    assert not real.dirty
    real.reset()
