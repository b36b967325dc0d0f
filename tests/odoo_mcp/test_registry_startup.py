"""SPEC-07 start-up build: introspection within its throttle and budget, installed modules,
model existence; against the fake Odoo and a scripted Odoo that can be slowed down."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.shared.message import SessionMessage
from mcp.types import JSONRPCNotification, JSONRPCRequest

from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import IN_PROCESS_URL, FakeOdooTransport
from mcp_servers import fake_server
from odoo_mcp.adapter import sdk
from odoo_mcp.connection import (
    CallOutcome,
    ConnectionManager,
    ConnectionSettings,
    OdooCalls,
    OdooConnectionError,
    OdooRpcError,
    OdooVersion,
    parse_version,
)
from odoo_mcp.registry import (
    DEFAULT_INTROSPECT_MODELS,
    IntrospectionLimits,
    ModelRegistry,
)

pytestmark = pytest.mark.anyio


@dataclass(frozen=True)
class Settings:
    introspect_on_startup: bool = True
    introspect_models: tuple[str, ...] = ()


# -- REQ-07-07/09/10 against the fake Odoo ------------------------------------------------------


@pytest.mark.req("REQ-07-07", "REQ-07-09", "REQ-07-10")
async def test_default_models_that_odoo_has_are_introspected(
    manager: ConnectionManager, fake_odoo: FakeOdoo
) -> None:
    registry = ModelRegistry(manager)
    report = await registry.build_at_startup(Settings())
    assert report is not None and len(DEFAULT_INTROSPECT_MODELS) == 33
    # the fake is a Community database without purchase, helpdesk, project or hr
    assert {"res.partner", "sale.order", "account.move", "stock.picking"} <= set(report.loaded)
    assert not {"helpdesk.ticket", "purchase.order", "hr.employee"} & set(report.loaded)
    assert report.skipped == () and report.left_out == ()
    assert fake_odoo.call_counts(method="fields_get") == len(report.loaded)
    assert fake_odoo.call_counts(model="helpdesk.ticket") == 0  # never asked: not in ir.model
    cached = registry.cached("sale.order")
    assert cached is not None and cached["state"].type == "selection"
    # a tool's later use costs no round trip
    await registry.get_fields("sale.order")
    assert fake_odoo.call_counts(method="fields_get") == len(report.loaded)


@pytest.mark.req("REQ-07-09")
async def test_installed_modules_are_read_with_the_models(
    manager: ConnectionManager, fake_odoo: FakeOdoo
) -> None:
    registry = ModelRegistry(manager)
    assert registry.installed_modules() is None
    report = await registry.build_at_startup(Settings(introspect_models=("res.partner",)))
    modules = registry.installed_modules()
    assert modules is not None and report is not None and report.modules == len(modules)
    names = [m.name for m in modules]
    assert "sale" in names and "base" in names and names == sorted(names)
    assert next(m for m in modules if m.name == "sale").shortdesc
    calls = fake_odoo.call_counts(model="ir.module.module")
    assert calls == 1
    assert await registry.get_installed_modules() == modules
    assert fake_odoo.call_counts(model="ir.module.module") == calls


async def test_configured_models_replace_the_default_list(
    manager: ConnectionManager, fake_odoo: FakeOdoo
) -> None:
    registry = ModelRegistry(manager)
    report = await registry.build_at_startup(
        Settings(introspect_models=("res.country", "x.nothing"))
    )
    assert report is not None and report.loaded == ("res.country",)
    assert fake_odoo.call_counts(method="fields_get") == 1


async def test_introspection_can_be_switched_off(
    manager: ConnectionManager, fake_odoo: FakeOdoo
) -> None:
    registry = ModelRegistry(manager)
    assert await registry.build_at_startup(Settings(introspect_on_startup=False)) is None
    assert fake_odoo.calls == []


# -- REQ-07-11: throttle and budget, on a scripted Odoo ------------------------------------------


class SlowOdoo(OdooCalls):
    """Answers the listing and modules at once; ``fields_get`` takes ``delay`` seconds (forever
    for the models in ``stuck``) or fails for those in ``broken``; counts concurrency."""

    def __init__(
        self,
        models: Sequence[str],
        delay: float = 0.02,
        stuck: frozenset[str] = frozenset(),
        broken: frozenset[str] = frozenset(),
    ) -> None:
        self.models, self.delay, self.stuck, self.broken = list(models), delay, stuck, broken
        self.uid = 2
        self.running = 0
        self.peak = 0
        self.fields_get_calls: list[str] = []

    @property
    def odoo_version(self) -> OdooVersion | None:
        return parse_version("19.0")

    async def call(
        self,
        model: str,
        method: str,
        args: Sequence[Any] = (),
        kwargs: Mapping[str, Any] | None = None,
        context: Mapping[str, object] | None = None,
    ) -> CallOutcome:
        if method == "fields_get":
            return CallOutcome(await self._fields_get(model), "json2")
        rows: dict[tuple[str, str], Any] = {
            ("ir.model", "search_read"): [
                {"id": i, "model": m, "name": m, "transient": False}
                for i, m in enumerate(self.models, 1)
            ],
            ("ir.model.access", "search_read"): [
                {"model_id": i, "group_id": False, "perm_read": True}
                for i in range(1, len(self.models) + 1)
            ],
            ("res.users", "read"): [{"id": 2, "all_group_ids": []}],
            ("ir.module.module", "search_read"): [{"name": "base", "shortdesc": "Base"}],
        }
        return CallOutcome(rows[(model, method)], "json2")

    async def _fields_get(self, model: str) -> dict[str, Any]:
        self.fields_get_calls.append(model)
        self.running += 1
        self.peak = max(self.peak, self.running)
        try:
            if model in self.broken:
                raise OdooRpcError("boom", "builtins.ValueError")
            await anyio.sleep(3600 if model in self.stuck else self.delay)
        finally:
            self.running -= 1
        return {"name": {"type": "char", "string": "Name"}}


MODELS = tuple(f"x.model{i}" for i in range(12))


@pytest.mark.req("REQ-07-11")
async def test_at_most_five_fields_get_at_a_time() -> None:
    odoo = SlowOdoo(MODELS)
    registry = ModelRegistry(odoo)
    report = await registry.build_at_startup(Settings(introspect_models=MODELS))
    assert report is not None and len(report.loaded) == len(MODELS)
    assert odoo.peak == 5  # the throttle is used, and never exceeded
    smaller = SlowOdoo(MODELS)
    await ModelRegistry(smaller, limits=IntrospectionLimits(max_concurrent=2)).build_at_startup(
        Settings(introspect_models=MODELS)
    )
    assert smaller.peak == 2


@pytest.mark.req("REQ-07-11")
async def test_the_budget_keeps_partial_results(caplog: pytest.LogCaptureFixture) -> None:
    odoo = SlowOdoo(MODELS, stuck=frozenset({"x.model3", "x.model9"}))
    registry = ModelRegistry(odoo, limits=IntrospectionLimits(budget_seconds=0.5))
    with caplog.at_level(logging.INFO, logger="odoo_mcp.registry"):
        with anyio.fail_after(5):
            report = await registry.build_at_startup(Settings(introspect_models=MODELS))
    assert report is not None
    assert report.left_out == ("x.model3", "x.model9")
    assert len(report.loaded) == len(MODELS) - 2
    assert registry.cached("x.model0") is not None and registry.cached("x.model3") is None
    assert any("left out: x.model3, x.model9" in r.getMessage() for r in caplog.records)


@pytest.mark.req("REQ-07-11")
async def test_a_tool_asking_meanwhile_shares_the_in_flight_call() -> None:
    odoo = SlowOdoo(MODELS, delay=0.2)
    registry = ModelRegistry(odoo)
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(registry.build_at_startup, Settings(introspect_models=MODELS))
        while "x.model0" not in odoo.fields_get_calls:
            await anyio.sleep(0.01)
        fields = await registry.get_fields("x.model0")  # while the start-up call runs
    assert "name" in fields and odoo.fields_get_calls.count("x.model0") == 1


@pytest.mark.req("REQ-07-09")
async def test_a_failing_model_is_skipped(caplog: pytest.LogCaptureFixture) -> None:
    odoo = SlowOdoo(MODELS[:3], broken=frozenset({"x.model1"}))
    registry = ModelRegistry(odoo)
    with caplog.at_level(logging.INFO, logger="odoo_mcp.registry"):
        report = await registry.build_at_startup(Settings(introspect_models=MODELS[:3]))
    assert report is not None
    assert (report.loaded, report.skipped) == (("x.model0", "x.model2"), ("x.model1",))
    assert any("x.model1 skipped" in r.getMessage() for r in caplog.records)


async def test_a_lost_connection_does_not_raise() -> None:
    class Down(SlowOdoo):
        async def call(self, *args: Any, **kwargs: Any) -> CallOutcome:
            raise OdooConnectionError("refused", kind="refused", request_sent=False)

    odoo = Down(MODELS)
    report = await ModelRegistry(odoo).build_at_startup(Settings())
    assert report is not None and report.loaded == () and report.modules is None
    assert report.stopped is not None and odoo.fields_get_calls == []  # no 33 more tries


# -- the server starts it in the background -----------------------------------------------------


@pytest.mark.req("REQ-07-09")
async def test_the_server_introspects_after_connecting_without_delaying_tools() -> None:
    fake = FakeOdoo("19.0")
    # Odoo takes 3 s to answer the start-up fields_get: the client must not wait for it
    fake.inject_fault("latency", path="/json/2/res.partner/fields_get", seconds=3.0)
    server = fake_server(fake, introspect_on_startup=True, introspect_models="res.partner")
    async with Client(server, mode="legacy") as client:
        tools = await client.list_tools()
        assert tools.tools
        assert fake.call_counts(model="res.partner", method="fields_get") == 0  # still waiting
        with anyio.fail_after(10):
            while fake.call_counts(model="res.partner", method="fields_get") == 0:
                await anyio.sleep(0.01)
        answer = await client.read_resource("odoo://system/modules")
        modules = json.loads(answer.contents[0].text)  # type: ignore[union-attr]
        assert {"name": "sale", "state": "installed", "shortdesc": "Sales"} in modules["modules"]
    assert fake.call_counts(model="res.partner", method="fields_get") == 1
    # the start-up read only: the resource answered from the registry
    assert fake.call_counts(model="ir.module.module", method="search_read") == 1


@pytest.mark.req("REQ-07-09")
async def test_the_start_up_introspection_waits_for_the_first_session_to_open() -> None:
    """Issue 41: the opening exchange the client waits on (initialize, a first request) does
    not share the CPU with the introspection; it begins with ``notifications/initialized``."""
    fake = FakeOdoo("19.0")
    low = sdk.low_level(
        fake_server(fake, introspect_on_startup=True, introspect_models="res.partner")
    )
    to_server, server_in = sdk.create_context_streams[SessionMessage | Exception](10)
    server_out, from_server = sdk.create_context_streams[SessionMessage](10)

    def request(request_id: int, method: str, params: dict[str, Any]) -> SessionMessage:
        return SessionMessage(
            JSONRPCRequest(jsonrpc="2.0", id=request_id, method=method, params=params)
        )

    async with to_server, server_in, server_out, from_server, anyio.create_task_group() as tasks:
        tasks.start_soon(low.run, server_in, server_out, low.create_initialization_options())
        init = {"protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"}}  # fmt: skip
        await to_server.send(request(0, "initialize", init))
        await from_server.receive()
        for number in range(1, 4):  # time for a background task to have reached Odoo
            await to_server.send(request(number, "ping", {}))
            await from_server.receive()
            await anyio.sleep(0.05)
        # its reads: the installed modules, the readable models, then fields_get
        read = {("ir.module.module", "search_read"), ("ir.model", "search_read")}
        assert [
            c for c in fake.calls if (c.model, c.method) in read or c.method == "fields_get"
        ] == []
        note = JSONRPCNotification(jsonrpc="2.0", method="notifications/initialized")
        await to_server.send(SessionMessage(note))
        with anyio.fail_after(10):
            while fake.call_counts(model="res.partner", method="fields_get") == 0:
                await anyio.sleep(0.01)
        await to_server.aclose()  # the session ends, and the loop with it
    assert fake.call_counts(model="ir.module.module", method="search_read") == 1


@pytest.mark.req("REQ-11-05", "REQ-11-06")
@pytest.mark.parametrize(
    ("settings", "reachable"),
    [
        ({"model_allowlist": "res.partner,sale.order"}, {"res.partner", "sale.order"}),
        ({"model_blocklist": "res.company,sale.order.line"}, None),
    ],
)
async def test_the_start_up_introspection_touches_no_blocked_model(
    settings: dict[str, str], reachable: set[str] | None
) -> None:
    """A model outside the allowlist, or in the blocklist, is not read even for its fields
    (the configuration says the server touches none): the example target's introspection
    read res.users, res.company and sale.order.line under an allowlist of two models."""
    fake = FakeOdoo("19.0")
    server = fake_server(fake, introspect_on_startup=True, **settings)
    async with Client(server, mode="legacy") as client:
        await client.list_tools()
        with anyio.fail_after(20):  # the introspection ends with the installed modules read
            while fake.call_counts(model="ir.module.module", method="search_read") == 0 or (
                fake.call_counts(method="fields_get") < (len(reachable) if reachable else 10)
            ):
                await anyio.sleep(0.02)
            await anyio.sleep(0.3)  # the last fields_get calls land
    asked = {call.model for call in fake.calls if call.method == "fields_get"}
    if reachable is not None:
        assert asked == reachable
    else:
        assert "res.partner" in asked and not {"res.company", "sale.order.line"} & asked


# -- REQ-07-13: model_exists ---------------------------------------------------------------------


@pytest.mark.req("REQ-07-13")
async def test_model_exists_asks_once_and_caches_both_answers(
    manager: ConnectionManager, fake_odoo: FakeOdoo
) -> None:
    registry = ModelRegistry(manager)
    assert await registry.model_exists("res.partner") is True
    assert await registry.model_exists("x.nothing") is False
    assert fake_odoo.call_counts(method="search") == 2
    assert await registry.model_exists("res.partner") is True
    assert await registry.model_exists("x.nothing") is False
    assert fake_odoo.call_counts(method="search") == 2


@pytest.mark.req("REQ-07-13")
async def test_model_exists_answers_from_the_registry_first(
    manager: ConnectionManager, fake_odoo: FakeOdoo
) -> None:
    registry = ModelRegistry(manager)
    await registry.get_fields("sale.order")
    fake_odoo.reset_calls()
    assert await registry.model_exists("sale.order") is True
    assert fake_odoo.calls == []
    assert await registry.model_exists("Not A Model") is False  # refused before the wire
    assert fake_odoo.calls == []


@pytest.mark.req("REQ-07-13")
async def test_a_model_refused_to_the_user_exists(fake_odoo: FakeOdoo) -> None:
    settings = ConnectionSettings.model_validate(
        {"url": IN_PROCESS_URL, "database": "demo", "username": "demo", "password": "demo"}
    )
    async with ConnectionManager(settings, transport=FakeOdooTransport(app=fake_odoo.app)) as demo:
        registry = ModelRegistry(demo)
        assert await registry.model_exists("ir.config_parameter") is True


async def test_model_exists_does_not_cache_a_lost_connection() -> None:
    class Down(SlowOdoo):
        async def call(self, *args: Any, **kwargs: Any) -> CallOutcome:
            raise OdooConnectionError("refused", kind="refused", request_sent=False)

    registry = ModelRegistry(Down(MODELS))
    with pytest.raises(OdooConnectionError):
        await registry.model_exists("res.partner")
    with pytest.raises(OdooConnectionError):
        await registry.model_exists("res.partner")
