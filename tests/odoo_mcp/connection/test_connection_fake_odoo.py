"""SPEC-02: the connection layer against the fake Odoo at 16.0, 17.0 and 19.0.

Every protocol the fake serves is driven in process (``FakeOdooTransport``): XML-RPC and
JSON-RPC on all versions, JSON-2 on 19. Each injected fault must give a typed error, and the
next call after the fault is lifted must work again.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from fake_odoo.demo import ADMIN_API_KEY, demo_uid
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import IN_PROCESS_URL, FakeOdooTransport, serve_fake_odoo
from odoo_mcp.connection import (
    ConnectionManager,
    ConnectionSettings,
    ConnectionState,
    OdooAuthenticationError,
    OdooConfigurationError,
    OdooConnectionError,
    OdooRateLimited,
    OdooRpcError,
)

pytestmark = pytest.mark.anyio

VERSIONS = ("16.0", "17.0", "19.0")
TARGETS = [
    pytest.param(version, protocol, id=f"{version}-{protocol}")
    for version in VERSIONS
    for protocol in ("xmlrpc", "jsonrpc", "json2")
    if protocol != "json2" or version == "19.0"
]


async def _no_sleep(delay: float) -> None:
    """Backoff delays are asserted elsewhere; here they only slow the suite."""


@pytest.fixture(scope="module")
def fakes() -> Iterator[dict[str, FakeOdoo]]:
    yield {version: FakeOdoo(version) for version in VERSIONS}


@pytest.fixture
def fake(fakes: dict[str, FakeOdoo], request: pytest.FixtureRequest) -> Iterator[FakeOdoo]:
    handle = fakes[request.param]
    yield handle
    handle.clear_faults()


def _manager(
    fake: FakeOdoo, clock: Callable[[], float] = time.monotonic, **settings: Any
) -> ConnectionManager:
    values: dict[str, Any] = {
        "url": IN_PROCESS_URL,
        "database": "demo",
        "username": "admin",
        "password": "admin",
    }
    values.update(settings)
    return ConnectionManager(
        ConnectionSettings.model_validate(values),
        transport=FakeOdooTransport(app=fake.app),
        sleep=_no_sleep,
        clock=clock,
    )


@pytest.fixture
def protocol(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def conn(fake: FakeOdoo, protocol: str) -> AsyncIterator[ConnectionManager]:
    manager = _manager(fake, protocol=protocol, api_key=ADMIN_API_KEY)
    async with manager:
        yield manager


def targets(func: Any) -> Any:
    """Run a test for every (version, protocol) pair the fake serves."""
    return pytest.mark.parametrize(("fake", "protocol"), TARGETS, indirect=True)(func)


@targets
@pytest.mark.req("REQ-02-10", "REQ-02-13", "REQ-02-14")
async def test_connects_with_forced_protocol(
    conn: ConnectionManager, fake: FakeOdoo, protocol: str
) -> None:
    assert (conn.protocol, conn.uid, conn.state) == (protocol, 2, ConnectionState.READY)
    assert conn.odoo_version is not None
    assert str(conn.odoo_version) == fake.version


@targets
async def test_crud_round_trip(conn: ConnectionManager, protocol: str) -> None:
    new_id = await conn.create("res.partner", {"name": f"Conn {protocol}"})
    rows = await conn.read("res.partner", [new_id, 999999], ["name"])
    assert rows == [{"id": new_id, "name": f"Conn {protocol}"}]
    assert await conn.write("res.partner", [new_id], {"name": "Renamed"}) is True
    assert await conn.search_count("res.partner", [["id", "=", new_id]]) == 1
    found = await conn.search_read("res.partner", [["id", "=", new_id]], ["name"], limit=1)
    assert found == [{"id": new_id, "name": "Renamed"}]
    assert (new_id, "Renamed") in await conn.name_search("res.partner", "Renamed", limit=10)
    assert await conn.name_get("res.partner", [new_id]) == [(new_id, "Renamed")]
    copy_id = await conn.copy("res.partner", new_id)
    assert copy_id != new_id
    assert await conn.unlink("res.partner", [new_id, copy_id]) is True
    assert await conn.read("res.partner", [new_id]) == []


@targets
async def test_fields_get_and_default_get(conn: ConnectionManager) -> None:
    fields = await conn.fields_get("res.partner", ["string", "type"])
    assert fields["name"]["type"] == "char"
    assert isinstance(await conn.default_get("res.partner", ["active"]), dict)


@targets
async def test_method_returning_none_is_a_success(conn: ConnectionManager, protocol: str) -> None:
    partner = await conn.create("res.partner", {"name": "Buyer"})
    order = await conn.create("sale.order", {"partner_id": partner})
    outcome = await conn.call("sale.order", "action_quotation_sent", [[order]])
    assert outcome.result is None
    assert outcome.null_from_marshal_fault is (protocol == "xmlrpc")
    assert (await conn.read("sale.order", [order], ["state"]))[0]["state"] == "sent"


@targets
@pytest.mark.req("REQ-02b-04", "REQ-02b-08", "REQ-02b-12")
async def test_odoo_errors_are_typed(conn: ConnectionManager, protocol: str) -> None:
    with pytest.raises(OdooRpcError) as unknown:
        await conn.execute_kw("res.partner", "no_such_method", [[]])
    assert "no_such_method" in unknown.value.message
    with pytest.raises(OdooRpcError) as missing:
        await conn.write("res.partner", [999999], {"name": "x"})
    assert missing.value.message.startswith("Record does not exist or has been deleted.")
    with pytest.raises(OdooRpcError) as private:
        await conn.execute_kw("res.partner", "_compute_display_name", [[1]])
    assert private.value.error_class == "odoo.exceptions.AccessError"
    assert private.value.protocol == protocol


@targets
@pytest.mark.req("REQ-02-28", "REQ-02b-05")
async def test_context_is_merged_per_call(conn: ConnectionManager) -> None:
    archived = await conn.create("res.partner", {"name": "Archived one", "active": False})
    domain = [["id", "=", archived]]
    assert await conn.search_count("res.partner", domain) == 0
    assert await conn.search_count("res.partner", domain, context={"active_test": False}) == 1
    assert await conn.search_count("res.partner", domain) == 0  # the base context is untouched


@targets
@pytest.mark.req("REQ-02-21")
async def test_refused_connection_recovers_for_reads(
    conn: ConnectionManager, fake: FakeOdoo
) -> None:
    fake.inject_fault("refuse", count=1)
    fake.reset_calls()
    assert await conn.search_count("res.partner", [["id", "=", 1]]) == 1
    assert conn.state is ConnectionState.READY
    assert fake.call_counts(model="res.partner", method="search_count") == 1


@targets
@pytest.mark.req("REQ-02-21")
async def test_dropped_read_is_retried_exactly_once(
    conn: ConnectionManager, fake: FakeOdoo
) -> None:
    fake.reset_calls()
    fake.inject_fault("drop", count=1)
    assert await conn.search_count("res.partner", [["id", "=", 1]]) == 1
    assert fake.call_counts(model="res.partner", method="search_count") == 2


@targets
@pytest.mark.req("REQ-02-20")
async def test_health_check_after_idle(fake: FakeOdoo, protocol: str) -> None:
    now = [0.0]
    settings = {"protocol": protocol, "api_key": ADMIN_API_KEY, "idle_timeout": 300}
    async with _manager(fake, clock=lambda: now[0], **settings) as conn:
        fake.reset_calls()
        await conn.search_count("res.partner", [["id", "=", 1]])
        assert fake.call_counts(model="res.users", method="search_count") == 0
        now[0] += 301
        fake.expire_sessions()
        await conn.search_count("res.partner", [["id", "=", 1]])
        assert fake.call_counts(model="res.users", method="search_count") >= 1
        assert conn.state is ConnectionState.READY


@targets
@pytest.mark.req("REQ-02-20")
async def test_health_check_interval_0_turns_the_check_off(fake: FakeOdoo, protocol: str) -> None:
    """REQ-02-20 / REQ-11-25: health_check_interval 0 means no check, not one per call."""
    now = [0.0]
    settings = {"protocol": protocol, "api_key": ADMIN_API_KEY, "idle_timeout": 0}
    async with _manager(fake, clock=lambda: now[0], **settings) as conn:
        fake.reset_calls()
        for _ in range(3):
            now[0] += 1000
            await conn.search_count("res.partner", [["id", "=", 1]])
        assert fake.call_counts(model="res.users", method="search_count") == 0


@targets
@pytest.mark.req("REQ-02-21")
async def test_dropped_write_is_reported_then_recovers(
    conn: ConnectionManager, fake: FakeOdoo
) -> None:
    partner = await conn.create("res.partner", {"name": "Before drop"})
    fake.reset_calls()
    fake.inject_fault("drop", count=1)
    with pytest.raises(OdooConnectionError, match="may have reached Odoo") as caught:
        await conn.write("res.partner", [partner], {"name": "After drop"})
    assert caught.value.request_sent is True
    assert fake.call_counts(model="res.partner", method="write") == 1  # never sent twice
    # The fake commits before dropping, as a real server would: nothing may apply it twice.
    assert (await conn.read("res.partner", [partner], ["name"]))[0]["name"] == "After drop"
    assert conn.state is ConnectionState.READY


@targets
@pytest.mark.parametrize("status", [500, 502, 503])
@pytest.mark.req("REQ-02b-04")
async def test_proxy_status_is_a_connection_error(
    conn: ConnectionManager, fake: FakeOdoo, status: int
) -> None:
    fake.inject_fault("http_status", status=status)
    with pytest.raises(OdooConnectionError) as caught:
        await conn.write("res.partner", [1], {"comment": "x"})
    assert caught.value.http_status == status
    fake.clear_faults()
    assert await conn.search_count("res.partner", [["id", "=", 1]]) == 1


@targets
async def test_rate_limit_is_typed_with_retry_after(
    conn: ConnectionManager, fake: FakeOdoo
) -> None:
    fake.inject_fault("rate_limit", retry_after=3, count=1)
    with pytest.raises(OdooRateLimited) as caught:
        await conn.search_count("res.partner")
    assert caught.value.retry_after == 3.0
    assert await conn.search_count("res.partner", [["id", "=", 1]]) == 1


@targets
@pytest.mark.req("REQ-02b-04")
async def test_malformed_body_is_a_connection_error(
    conn: ConnectionManager, fake: FakeOdoo
) -> None:
    fake.inject_fault("malformed")
    with pytest.raises(OdooConnectionError) as caught:
        await conn.write("res.partner", [1], {"comment": "x"})
    assert caught.value.kind == "malformed"
    fake.clear_faults()
    assert await conn.search_count("res.partner", [["id", "=", 1]]) == 1


@targets
@pytest.mark.req("REQ-02-22")
async def test_expired_session_reauthenticates_transparently(
    conn: ConnectionManager, fake: FakeOdoo
) -> None:
    fake.expire_sessions()
    assert await conn.search_count("res.partner", [["id", "=", 1]]) == 1
    fake.inject_fault("expire_sessions", count=1)
    assert await conn.search_count("res.partner", [["id", "=", 1]]) == 1
    assert conn.state is ConnectionState.READY


@targets
@pytest.mark.req("REQ-02-21")
async def test_server_down_then_back(conn: ConnectionManager, fake: FakeOdoo) -> None:
    fake.inject_fault("refuse")
    with pytest.raises(OdooConnectionError, match="unreachable after 3 reconnection attempts"):
        await conn.search_count("res.partner")
    assert conn.state is ConnectionState.ERROR
    fake.clear_faults()
    assert await conn.search_count("res.partner", [["id", "=", 1]]) == 1
    assert conn.state is ConnectionState.READY


@pytest.mark.parametrize(
    ("fake", "expected"),
    [("16.0", "xmlrpc"), ("17.0", "jsonrpc"), ("19.0", "json2")],
    indirect=["fake"],
)
@pytest.mark.req("REQ-02-10", "REQ-02a-07")
async def test_auto_protocol_follows_the_version(fake: FakeOdoo, expected: str) -> None:
    async with _manager(fake, api_key=ADMIN_API_KEY) as conn:
        assert conn.protocol == expected
        info = conn.get_connection_info()
    assert (info.protocol, info.odoo_version, info.uid) == (expected, fake.version, 2)


@pytest.mark.parametrize("fake", VERSIONS, indirect=True)
@pytest.mark.req("REQ-02-07", "REQ-02b-14")
async def test_wrong_api_key_falls_back_to_password(
    fake: FakeOdoo, caplog: pytest.LogCaptureFixture
) -> None:
    async with _manager(fake, api_key="not-a-key") as conn:
        assert conn.uid == 2
    assert "falling back to password" in caplog.text


@pytest.mark.parametrize("fake", VERSIONS, indirect=True)
@pytest.mark.req("REQ-02-23")
async def test_wrong_password_is_an_authentication_error(fake: FakeOdoo) -> None:
    manager = _manager(fake, password="wrong")
    with pytest.raises(OdooAuthenticationError):
        await manager.connect()
    await manager.close()


@pytest.mark.parametrize("fake", ["16.0", "17.0"], indirect=True)
@pytest.mark.req("REQ-02-13", "REQ-02-14")
async def test_forced_json2_before_19_is_a_configuration_error(fake: FakeOdoo) -> None:
    manager = _manager(fake, protocol="json2", api_key=ADMIN_API_KEY)
    with pytest.raises(OdooConfigurationError, match="JSON-2"):
        await manager.connect()
    await manager.close()


@pytest.mark.wire
@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.req("REQ-02-21")
async def test_over_a_real_socket(version: str) -> None:
    with serve_fake_odoo(version) as served:
        assert served.url is not None
        settings = ConnectionSettings.model_validate(
            {"url": served.url, "database": "demo", "username": "admin", "password": "admin"}
            | {"api_key": ADMIN_API_KEY, "timeout": 0.5}
        )
        async with ConnectionManager(settings, sleep=_no_sleep) as conn:
            assert await conn.search_count("res.users", [["id", "=", 2]]) == 1
            # A slow answer times out; the write may have run, so it is reported, not retried.
            served.inject_fault("latency", seconds=1.5, count=1)
            with pytest.raises(OdooConnectionError) as slow:
                await conn.write("res.partner", [1], {"comment": "slow"})
            assert (slow.value.kind, slow.value.request_sent) == ("timeout", True)
            # An aborted connection on a read: reconnect and retry once.
            served.inject_fault("refuse", count=1)
            assert await conn.search_count("res.users", [["id", "=", 2]]) == 1
    # Nothing listens any more: the request never left, and the error says so.
    gone = ConnectionManager(settings, sleep=_no_sleep)
    with pytest.raises(OdooConnectionError) as caught:
        await gone.connect()
    assert (caught.value.kind, caught.value.request_sent) == ("refused", False)
    await gone.close()


@pytest.mark.parametrize("fake", VERSIONS, indirect=True)
@pytest.mark.req("REQ-02-22")
async def test_jsonrpc_session_expiry_reauthenticates(fake: FakeOdoo) -> None:
    # Password only: JSON-RPC logs in through /web/session/authenticate and holds a cookie.
    async with _manager(fake, protocol="jsonrpc") as conn:
        assert await conn.search_count("res.users", [["id", "=", 2]]) == 1
        fake.expire_sessions()
        assert await conn.search_count("res.users", [["id", "=", 2]]) == 1
        fake.inject_fault("expire_sessions", count=1)
        partner = await conn.create("res.partner", {"name": "After expiry"})
        assert await conn.read("res.partner", [partner], ["name"]) == [
            {"id": partner, "name": "After expiry"}
        ]
        assert conn.state is ConnectionState.READY


@pytest.mark.parametrize("fake", VERSIONS, indirect=True)
async def test_demo_user_access_error_is_typed(fake: FakeOdoo) -> None:
    async with _manager(fake, username="demo", password="demo") as conn:
        assert conn.uid == demo_uid(fake.db.major)
        with pytest.raises(OdooRpcError) as caught:
            await conn.unlink("res.users", [2])
    assert caught.value.error_class == "odoo.exceptions.AccessError"
    assert caught.value.message.startswith("You are not allowed to delete 'User' (res.users)")
