"""REQ-04-34 / REQ-06-19 / REQ-07-09 for a user without "Access Rights" (the demo user).

Odoo refuses ``ir.model`` (and ``ir.model.access``, ``ir.model.fields``) to every user but
``base.group_erp_manager``: the listing, the model guide's description and the registry's
start-up targets must then come from web's ``ir.model.get_available_models`` /
``display_name_for``, in a bounded number of calls (never one per model).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from fake_odoo.demo import ADMIN_API_KEY, DEMO_API_KEY
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import IN_PROCESS_URL, FakeOdooTransport
from odoo_mcp.connection import ConnectionManager, ConnectionSettings
from odoo_mcp.context import ServerContext
from odoo_mcp.formatting import FormatOptions
from odoo_mcp.model_listing import _checked_access, list_readable_models
from odoo_mcp.prompts.model_guides import model_guide
from odoo_mcp.registry import ModelRegistry
from odoo_mcp.registry.introspection import _readable
from odoo_mcp.safety import SafetyPolicy

pytestmark = pytest.mark.anyio

VERSIONS = ("17.0", "19.0", "20.0")
MAX_CALLS = 3


async def _no_sleep(delay: float) -> None:
    """No backoff in these tests."""


@pytest.fixture(scope="module", params=VERSIONS)
def fake(request: pytest.FixtureRequest) -> FakeOdoo:
    return FakeOdoo(request.param)


@asynccontextmanager
async def connect(fake: FakeOdoo, login: str = "demo") -> AsyncIterator[ConnectionManager]:
    """The version's default protocol (17 JSON-RPC, 19 JSON-2), the call log cleared."""
    key = {"admin": ADMIN_API_KEY, "demo": DEMO_API_KEY}[login]
    values = {"url": IN_PROCESS_URL, "database": "demo", "username": login, "password": login}
    settings = ConnectionSettings.model_validate({**values, "api_key": key})
    async with ConnectionManager(
        settings, transport=FakeOdooTransport(app=fake.app), sleep=_no_sleep
    ) as manager:
        fake.reset_calls()
        yield manager


def _models(fake: FakeOdoo, transient: bool) -> list[str]:
    rows = fake.call("ir.model", "search_read", [["transient", "=", transient]], fields=["model"])
    return [row["model"] for row in rows]


async def test_the_demo_user_is_refused_ir_model(fake: FakeOdoo) -> None:
    async with connect(fake) as odoo:
        with pytest.raises(Exception, match=r"not allowed to access 'Models' \(ir.model\)"):
            await odoo.search_read("ir.model", [], ["model"])


async def test_demo_lists_the_models_it_may_read_in_bounded_calls(fake: FakeOdoo) -> None:
    async with connect(fake) as odoo:
        models = await list_readable_models(odoo)
        calls = fake.call_counts()
        per_model = fake.call_counts(method="check_access_rights") + fake.call_counts(
            method="has_access"
        )
        # 17.0's get_available_models keeps the wizards the user may read (module doc)
        wizards = _models(fake, transient=True) if fake.version == "17.0" else []
        checked = await _checked_access(odoo, _models(fake, transient=False) + wizards)
    names = [m.model for m in models]
    assert names == sorted(names)
    assert {"res.partner", "sale.order", "account.move"} <= set(names)
    assert not {"ir.config_parameter", "ir.model"} & set(names)
    # 17's demo user is also Invoicing / Billing (flow_demo_user_permissions of batch 4)
    assert ("account.payment" in names) == (fake.version == "17.0")
    # the same answer as asking Odoo model by model, without asking model by model
    assert set(names) == set(checked)
    assert calls <= MAX_CALLS and per_model == 0
    partner = next(m for m in models if m.model == "res.partner")
    assert (partner.name, partner.transient, partner.access) == ("Contact", False, ("read",))


async def test_demo_calls_do_not_grow_with_the_number_of_models(fake: FakeOdoo) -> None:
    async with connect(fake) as odoo:
        everything = await list_readable_models(odoo, transient=True)
        all_calls = fake.call_counts()
        fake.reset_calls()
        few = await list_readable_models(odoo, models=["res.partner", "ir.config_parameter"])
        few_calls = fake.call_counts()
        per_model = fake.call_counts(method="check_access_rights") + fake.call_counts(
            method="has_access"
        )
    assert len(everything) > 20 and [m.model for m in few] == ["res.partner"]
    assert all_calls == few_calls <= MAX_CALLS and per_model == 0


async def test_demo_listing_keeps_filter_and_blocked_semantics(fake: FakeOdoo) -> None:
    async with connect(fake) as odoo:
        by_name = await list_readable_models(odoo, name_filter="SALE.ord")
        by_label = await list_readable_models(odoo, name_filter="contact")
        blocked = await list_readable_models(
            odoo, name_filter="sale", is_model_blocked=lambda model: model == "sale.order"
        )
    assert "sale.order" in {m.model for m in by_name}
    assert "res.partner" not in {m.model for m in by_name}
    assert "res.partner" in {m.model for m in by_label}
    assert "sale.order" not in {m.model for m in blocked}


async def test_demo_listing_shows_wizards_as_odoo_tells_them(fake: FakeOdoo) -> None:
    """From 18.0 get_available_models leaves the wizards out; up to 17.0 it lists the ones
    the user may read without telling them apart: the listing cannot either (a known limit,
    docs/connection.md)."""
    async with connect(fake) as odoo:
        models = await list_readable_models(odoo)
    wizards = {m.model for m in models} & set(_models(fake, transient=True))
    if fake.version == "17.0":
        assert wizards and all(not m.transient for m in models if m.model in wizards)
    else:
        assert not wizards


async def test_a_short_listing_gives_the_operations_granted(fake: FakeOdoo) -> None:
    """REQ-04-33: the demo user's access to a filtered listing, as check_access_rights says
    (has_access on 20; three calls per model)."""
    async with connect(fake) as odoo:
        models = await list_readable_models(odoo, name_filter="sale.order", detail_access=True)
        calls = fake.call_counts()
    access = {m.model: m.access for m in models}
    assert access["sale.order"] == ("read", "write", "create")  # the salesman's ACL
    assert calls <= MAX_CALLS + 3 * len(models)


async def test_a_long_listing_shows_the_true_access(fake: FakeOdoo) -> None:
    """More than ten models: each shows what Odoo grants (it showed ``read`` alone)."""
    async with connect(fake) as odoo:
        models = await list_readable_models(odoo, detail_access=True)
    access = {m.model: m.access for m in models}
    assert len(models) > 10
    assert access["sale.order"] == ("read", "write", "create")  # the salesman's ACL
    assert {m.access for m in models} != {("read",)}
    checker = "has_access" if fake.version == "20.0" else "check_access_rights"
    assert fake.call_counts(method=checker) == 3 * len(models)


async def test_admin_still_reads_ir_model_and_the_acl_lines(fake: FakeOdoo) -> None:
    async with connect(fake, "admin") as odoo:
        models = await list_readable_models(odoo, name_filter="sale")
    order = next(m for m in models if m.model == "sale.order")
    assert order.access == ("read", "write", "create", "unlink")
    assert fake.call_counts() == 3
    assert fake.call_counts(model="ir.model", method="get_available_models") == 0


async def test_registry_targets_for_the_demo_user(fake: FakeOdoo) -> None:
    async with connect(fake) as odoo:
        targets = await _readable(odoo, ["sale.order", "ir.config_parameter", "res.partner"])
    assert targets == ["sale.order", "res.partner"]
    assert fake.call_counts() <= MAX_CALLS


async def test_model_guide_names_the_model_for_the_demo_user(fake: FakeOdoo) -> None:
    async with connect(fake) as odoo:
        rc = ServerContext(
            odoo=odoo,
            registry=ModelRegistry(odoo),
            policy=SafetyPolicy(),
            formatting=FormatOptions(),
        )
        guide = await model_guide(rc, {"model_name": "res.partner"})
    assert guide.startswith("# Guide: res.partner (Contact)")
    assert fake.call_counts(model="ir.model") <= 2
