"""Odoo 20 (from its source, versions.ODOO20): the version table, the protocols, the fake."""

from __future__ import annotations

import pytest

from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import IN_PROCESS_URL, FakeOdooTransport
from odoo_mcp.connection import ConnectionManager, ConnectionSettings
from odoo_mcp.connection.errors import OdooConfigurationError
from odoo_mcp.connection.versions import (
    ODOO20,
    access_model,
    exists,
    is_deprecated,
    parameters,
    protocol_served,
    returns,
)
from odoo_mcp.safety.execute_args import call_refs

pytestmark = pytest.mark.anyio


def test_every_odoo20_fact_cites_stock_odoo_with_a_commit() -> None:
    for fact in ODOO20.values():
        assert fact.repo == "odoo/odoo" and len(fact.commit) == 40 and fact.path


def test_version_table_on_20() -> None:
    assert parameters("read_group", 20)[:3] == ("domain", "groupby", "aggregates")
    assert parameters("read_group", 19)[:3] == ("domain", "fields", "groupby")
    assert returns("read_group", 20) == "tuples" and returns("read_group", 19) == "groups"
    assert not is_deprecated("read_group", 20) and is_deprecated("read_group", 19)
    assert not exists("check_access_rights", 20) and exists("check_access_rights", 19)
    assert exists("has_access", 20)
    assert (access_model(19), access_model(20)) == ("ir.model.access", "ir.access")
    assert protocol_served("xmlrpc", 20) == "served"
    assert protocol_served("jsonrpc_service", 20) == "absent"
    assert protocol_served("jsonrpc_service", 19) == "served"
    assert protocol_served("jsonrpc_session", 20) == "unknown"


def _paths(refs: object) -> set[str]:
    return {".".join(ref.path) for ref in refs}  # type: ignore[attr-defined]


def test_read_group_refs_under_both_signatures() -> None:
    new = [[["partner_id", "=", 1]], ["state"], ["amount_total:sum"]]
    old = [[], ["amount_total:sum"], ["state"]]
    assert {"partner_id", "state", "amount_total"} <= _paths(call_refs("read_group", new, {}))
    assert {"state", "amount_total"} <= _paths(call_refs("read_group", old, {}))
    assert "amount_total" in _paths(call_refs("read_group", new, {}, version=20))
    having = {"having": [["amount_total:sum", ">", 1]]}
    assert "amount_total" in _paths(call_refs("read_group", [[]], having))


def _settings(**extra: object) -> ConnectionSettings:
    values = {"url": IN_PROCESS_URL, "database": "demo", "username": "admin", **extra}
    return ConnectionSettings.model_validate(values)


async def _no_sleep(delay: float) -> None:
    """No backoff."""


@pytest.fixture(scope="module")
def fake20() -> FakeOdoo:
    return FakeOdoo("20.0")


async def test_xmlrpc_works_on_the_fake_20(fake20: FakeOdoo) -> None:
    settings = _settings(password="admin", protocol="xmlrpc")
    async with ConnectionManager(
        settings, transport=FakeOdooTransport(app=fake20.app), sleep=_no_sleep
    ) as odoo:
        assert odoo.protocol == "xmlrpc"
        assert await odoo.search_count("res.partner", []) > 0


async def test_jsonrpc_on_20_says_jsonrpc_is_gone(fake20: FakeOdoo) -> None:
    settings = _settings(api_key=ADMIN_API_KEY, protocol="jsonrpc")
    with pytest.raises(OdooConfigurationError, match="removed the /jsonrpc endpoint"):
        async with ConnectionManager(
            settings, transport=FakeOdooTransport(app=fake20.app), sleep=_no_sleep
        ):
            pass


async def test_json2_read_group_tuples_on_the_fake_20(fake20: FakeOdoo) -> None:
    settings = _settings(api_key=ADMIN_API_KEY)
    async with ConnectionManager(
        settings, transport=FakeOdooTransport(app=fake20.app), sleep=_no_sleep
    ) as odoo:
        rows = await odoo.execute_kw(
            "ir.model.fields",
            "read_group",
            [[["model", "=", "res.partner"]], ["model"], ["__count"]],
        )
        assert isinstance(rows, list) and rows[0][0] == "res.partner" and rows[0][1] > 0


def test_the_fake_20_differences(fake20: FakeOdoo) -> None:
    assert fake20.call("ir.access", "search_count", []) > 0
    assert "ir.model.access" not in fake20.db.store
    with pytest.raises(Exception, match="check_access_rights' does not exist"):
        fake20.call("res.partner", "check_access_rights", "read")
    assert fake20.call("res.partner", "has_access", [], "read") is True
    fake19 = FakeOdoo("19.0")
    assert fake19.call("res.partner", "check_access_rights", "read", raise_exception=False)
    assert isinstance(fake19.call("res.partner", "copy_data", [1]), list)
