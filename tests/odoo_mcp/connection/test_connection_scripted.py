"""SPEC-02: wire shapes and recovery against a scripted Odoo (MockTransport, no network)."""

from __future__ import annotations

import json
import xmlrpc.client

import pytest
from scripted_odoo import Harness, drop, garbage, refuse, status

from odoo_mcp.connection import (
    ConnectionState,
    OdooAuthenticationError,
    OdooConfigurationError,
    OdooConnectionError,
    OdooRateLimited,
)

pytestmark = pytest.mark.anyio

ADMIN = {"username": "admin", "password": "admin"}


@pytest.mark.req("REQ-02b-09", "REQ-02b-13", "REQ-02-06", "REQ-02-27")
async def test_odoo19_with_key_speaks_json2_with_bearer_and_named_params(harness: Harness) -> None:
    async with harness.manager(**ADMIN, api_key="KEY") as manager:
        assert (manager.protocol, manager.uid, manager.state) == ("json2", 2, ConnectionState.READY)
        rows = await manager.search_read(
            "res.partner", [["is_company", "=", True]], ["name"], limit=3
        )
    request = harness.odoo.requests[-1]
    assert request.url.path == "/json/2/res.partner/search_read"
    assert request.headers["Authorization"] == "bearer KEY"
    assert request.headers["X-Odoo-Database"] == "demo"
    body = json.loads(request.content)
    assert body == {
        "domain": [["is_company", "=", True]],
        "fields": ["name"],
        "limit": 3,
        "context": {"lang": "en_US", "tz": "UTC"},
    }
    assert rows == [{"id": 9, "name": "Acme Corporation"}]


@pytest.mark.req("REQ-02b-09")
async def test_json2_record_method_sends_ids_and_null_is_a_plain_success(harness: Harness) -> None:
    async with harness.manager(api_key="KEY") as manager:
        outcome = await manager.call("sale.order", "action_lock", [[7]])
    assert json.loads(harness.odoo.requests[-1].content)["ids"] == [7]
    assert (outcome.result, outcome.null_from_marshal_fault) == (None, False)


async def test_xmlrpc_none_marshal_fault_is_success_with_null(harness: Harness) -> None:
    harness.odoo.major = 16
    async with harness.manager(**ADMIN) as manager:
        assert manager.protocol == "xmlrpc"
        outcome = await manager.call("sale.order", "action_lock", [[7]])
    assert outcome.result is None
    assert outcome.null_from_marshal_fault is True
    assert manager.state is ConnectionState.DISCONNECTED


@pytest.mark.req("REQ-02-05", "REQ-02b-05", "REQ-02-28", "REQ-02-29")
async def test_xmlrpc_sends_uid_secret_and_merged_context(harness: Harness) -> None:
    harness.odoo.major = 16
    async with harness.manager(**ADMIN, company_ids=[1]) as manager:
        base = manager.settings.base_context()
        await manager.execute_kw(
            "res.partner", "write", [[1], {"name": "x"}], {"context": {"a": 1}}, {"b": 2}
        )
        assert manager.settings.base_context() == base
    params, method = xmlrpc.client.loads(harness.odoo.requests[-1].content)
    assert method == "execute_kw"
    assert params[:5] == ("demo", 2, "admin", "res.partner", "write")
    assert params[6]["context"] == {
        "lang": "en_US",
        "tz": "UTC",
        "allowed_company_ids": [1],
        "a": 1,
        "b": 2,
    }


@pytest.mark.parametrize("major", [16, 17, 18, 19])
@pytest.mark.req("REQ-02a-08")
async def test_version_dependent_signatures(harness: Harness, major: int) -> None:
    harness.odoo.major = major
    async with harness.manager(**ADMIN, protocol="xmlrpc") as manager:
        assert await manager.name_search("res.partner", "Ac") == [(1, "Acme")]
        assert await manager.name_get("res.partner", [3]) == [(3, "Partner 3")]
        assert await manager.copy("res.partner", 3) == 43
        assert await manager.create("res.partner", {"name": "n"}) == 42
    methods = [call[2] for call in harness.odoo.calls]
    assert ("name_get" in methods) is (major <= 16)


@pytest.mark.req("REQ-02-08", "REQ-02-22")
async def test_jsonrpc_session_keeps_cookie_and_reauthenticates_on_expiry(harness: Harness) -> None:
    harness.odoo.major = 17
    async with harness.manager(**ADMIN) as manager:
        assert manager.protocol == "jsonrpc"
        await manager.search_count("res.partner")
        assert harness.odoo.requests[-1].headers["Cookie"] == "session_id=s1"
        harness.odoo.sessions.clear()  # the server forgets the session
        assert await manager.search_count("res.partner") == 1
        assert manager.state is ConnectionState.READY
    paths = [request.url.path for request in harness.odoo.requests]
    assert paths.count("/web/session/authenticate") == 2


@pytest.mark.req("REQ-02-07", "REQ-02b-14")
async def test_api_key_refused_falls_back_to_password(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    harness.odoo.major = 16
    async with harness.manager(**ADMIN, api_key="WRONG") as manager:
        assert manager.uid == 2
    assert "falling back to password" in caplog.text


@pytest.mark.req("REQ-02-04", "REQ-02-23")
async def test_bad_password_is_an_authentication_error(harness: Harness) -> None:
    harness.odoo.major = 16
    manager = harness.manager(username="admin", password="nope")
    with pytest.raises(OdooAuthenticationError):
        await manager.connect()
    assert manager.state is ConnectionState.ERROR
    await manager.close()


@pytest.mark.req("REQ-02-14")
async def test_forced_json2_on_odoo16_fails_clearly(harness: Harness) -> None:
    harness.odoo.major = 16
    manager = harness.manager(api_key="KEY", protocol="json2")
    with pytest.raises(OdooConfigurationError, match="JSON-2"):
        await manager.connect()
    await manager.close()


@pytest.mark.req("REQ-02-21")
async def test_refused_read_reconnects_with_backoff_and_retries_once(harness: Harness) -> None:
    async with harness.manager(api_key="KEY") as manager:
        harness.odoo.fail_next(refuse, refuse)  # the call, then the first reconnection
        assert await manager.search_count("res.partner") == 1
        assert harness.sleeps == [1.0, 2.0]
        assert manager.state is ConnectionState.READY


@pytest.mark.req("REQ-02-21")
async def test_unreachable_server_gives_up_after_three_attempts(harness: Harness) -> None:
    async with harness.manager(api_key="KEY") as manager:
        harness.odoo.fail_next(*[refuse] * 4)  # the call and three reconnections
        with pytest.raises(OdooConnectionError, match="after 3 reconnection attempts"):
            await manager.search_count("res.partner")
        assert harness.sleeps == [1.0, 2.0, 4.0]
        assert manager.state is ConnectionState.ERROR
        assert await manager.search_count("res.partner") == 1  # recovered on the next call


@pytest.mark.req("REQ-02-21")
async def test_dropped_write_is_reported_not_retried(harness: Harness) -> None:
    async with harness.manager(api_key="KEY") as manager:
        harness.odoo.fail_next(drop)
        with pytest.raises(OdooConnectionError, match="may have reached Odoo") as caught:
            await manager.write("res.partner", [1], {"name": "x"})
        assert caught.value.request_sent is True
        writes = [call for call in harness.odoo.calls if call[2] == "write"]
        assert writes == []  # the dropped request never reached the script; nothing retried it
        assert harness.sleeps == []
        assert await manager.write("res.partner", [1], {"name": "x"}) is True


@pytest.mark.req("REQ-02-21")
async def test_dropped_read_is_retried_after_reconnect(harness: Harness) -> None:
    async with harness.manager(api_key="KEY") as manager:
        harness.odoo.fail_next(drop)
        assert await manager.read("res.partner", [5]) == [{"id": 5, "display_name": "Partner 5"}]


@pytest.mark.parametrize("fault", [status(502), status(503), garbage])
async def test_proxy_errors_and_garbage_are_connection_errors(
    harness: Harness, fault: object
) -> None:
    async with harness.manager(api_key="KEY") as manager:
        harness.odoo.fail_next(fault, *[fault] * 4)  # type: ignore[list-item]
        with pytest.raises(OdooConnectionError):
            await manager.write("res.partner", [1], {"name": "x"})


async def test_rate_limit_carries_retry_after(harness: Harness) -> None:
    async with harness.manager(api_key="KEY") as manager:
        harness.odoo.fail_next(status(429, **{"Retry-After": "7"}))
        with pytest.raises(OdooRateLimited) as caught:
            await manager.search_count("res.partner")
        assert caught.value.retry_after == 7.0
        assert manager.state is ConnectionState.READY


async def test_revoked_key_is_reported_as_authentication_error(harness: Harness) -> None:
    async with harness.manager(api_key="KEY") as manager:
        harness.odoo.api_key = "ROTATED"
        with pytest.raises(OdooAuthenticationError, match="API key"):
            await manager.search_count("res.partner")


@pytest.mark.req("REQ-02-20")
async def test_health_check_runs_after_idle_only(harness: Harness) -> None:
    async with harness.manager(api_key="KEY") as manager:
        await manager.search_count("res.partner", [["id", "=", 1]])
        before = len(harness.odoo.calls)
        harness.now[0] += 10
        await manager.search_count("res.partner")
        assert len(harness.odoo.calls) == before + 1
        harness.now[0] += 301
        await manager.search_count("res.partner")
        health = harness.odoo.calls[-2]
        assert health[1:3] == ("res.users", "search_count")
        assert health[4]["domain"] == [["id", "=", 2]]


@pytest.mark.req("REQ-02-33")
async def test_connection_info(harness: Harness) -> None:
    async with harness.manager(**ADMIN, api_key="KEY") as manager:
        info = manager.get_connection_info()
    assert info.model_dump() == {
        "url": "http://odoo.test",
        "database": "demo",
        "uid": 2,
        "username": "admin",
        "odoo_version": "19.0",
        "protocol": "json2",
        "edition": "community",
        "state": ConnectionState.READY,
        "installed_modules": [],
    }


@pytest.mark.req("REQ-02a-02")
async def test_version_from_session_when_xmlrpc_is_gone(harness: Harness) -> None:
    harness.odoo.major = 20
    harness.odoo.xmlrpc_enabled = False
    async with harness.manager(**ADMIN, api_key="KEY") as manager:
        assert manager.odoo_version is not None and manager.odoo_version.major == 20
        assert manager.protocol == "json2"
