"""SPEC-04 §3.1-3.2, §3.6: search_read, read and count against the fake Odoo 16, 17 and 19.

Each handler runs on a ServerContext over the version's default protocol; the fake's call log
proves what reached Odoo: nothing when a check refuses, one call once metadata is cached.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError
from read_tools_env import tool_context

from fake_odoo.handle import FakeOdoo
from odoo_mcp.connection import OdooRpcError
from odoo_mcp.context import ServerContext
from odoo_mcp.domain import DomainError
from odoo_mcp.safety import SafetyError, SafetyPolicy
from odoo_mcp.tools.core_read import (
    CountInput,
    ReadInput,
    SearchReadInput,
    count,
    read,
    search_read,
)

pytestmark = pytest.mark.anyio


def _search(**values: Any) -> SearchReadInput:
    return SearchReadInput.model_validate(values)


# -- odoo_core_search_read ------------------------------------------------------------------


async def test_search_read_returns_the_spec_shape(ctx: ServerContext) -> None:
    result = await search_read(ctx, _search(model="res.partner", limit=3))
    dumped = result.model_dump()
    assert set(dumped) == {"records", "count", "model", "limit", "offset", "has_more"}
    assert (result.model, result.limit, result.offset, result.count) == ("res.partner", 3, 0, 3)
    assert all(set(row) == {"id", "name", "display_name"} for row in result.records)
    assert result.has_more is True


async def test_one_round_trip_once_metadata_is_cached(ctx: ServerContext, fake: FakeOdoo) -> None:
    params = _search(model="sale.order", domain=[["state", "=", "draft"]], order="name desc")
    await search_read(ctx, params)
    assert fake.call_counts(method="fields_get") == 1
    fake.reset_calls()
    await search_read(ctx, params)
    assert fake.call_counts() == 1
    assert fake.call_counts(model="sale.order", method="search_read") == 1


async def test_many2one_becomes_id_and_name(ctx: ServerContext) -> None:
    fields = ["partner_id", "date_order", "note", "order_line", "user_id"]
    result = await search_read(ctx, _search(model="sale.order", fields=fields, limit=5))
    row = result.records[0]
    assert set(row["partner_id"]) == {"id", "name"} and isinstance(row["partner_id"]["id"], int)
    assert row["date_order"].endswith("Z") and "T" in row["date_order"]
    assert isinstance(row["note"], str) and "<" not in row["note"]
    assert isinstance(row["order_line"], list)


async def test_default_fields_skip_what_the_model_lacks(ctx: ServerContext) -> None:
    result = await search_read(ctx, _search(model="stock.quant", limit=2))
    assert result.records and all(set(r) == {"id", "display_name"} for r in result.records)
    empty = await search_read(ctx, _search(model="stock.quant", limit=2, fields=[]))
    assert empty.records == result.records


async def test_has_more_false_on_the_last_page(ctx: ServerContext) -> None:
    total = await count(ctx, CountInput(model="sale.order"))
    page = await search_read(ctx, _search(model="sale.order", limit=10, offset=total.count - 4))
    assert (page.count, page.has_more, page.offset) == (4, False, total.count - 4)


async def test_limit_above_500_is_clamped(ctx: ServerContext) -> None:
    result = await search_read(ctx, _search(model="res.partner", limit=1000))
    assert result.limit == 500
    with pytest.raises(ValidationError):
        _search(model="res.partner", limit=0)


async def test_star_reads_every_field_but_blocked_ones(ctx: ServerContext, fake: FakeOdoo) -> None:
    result = await search_read(ctx, _search(model="res.users", fields=["*"], limit=2))
    assert result.records and "login" in result.records[0]
    assert all("password" not in row for row in result.records)


async def test_demo_user_sees_only_its_sale_orders(ctx: ServerContext, demo: ServerContext) -> None:
    mine = await search_read(demo, _search(model="sale.order", limit=500))
    everyone = await search_read(ctx, _search(model="sale.order", limit=500))
    assert (mine.count, everyone.count) == (17, 39)
    assert (await count(demo, CountInput(model="sale.order"))).count == 17


async def test_dotted_path_filters_through_relations(ctx: ServerContext) -> None:
    domain = [["partner_id.country_id.code", "=", "US"]]
    found = await search_read(ctx, _search(model="sale.order", domain=domain, fields=["id"]))
    assert found.count == (await count(ctx, CountInput(model="sale.order", domain=domain))).count
    assert 0 < found.count < 39


# -- refusals before any Odoo call ----------------------------------------------------------


@pytest.mark.parametrize("model", ["ir.cron", "ir.config_parameter", "res.users.apikeys"])
async def test_blocked_model_is_refused_without_a_call(
    ctx: ServerContext, fake: FakeOdoo, model: str
) -> None:
    with pytest.raises(SafetyError) as caught:
        await search_read(ctx, _search(model=model))
    assert caught.value.code == "MODEL_BLOCKED"
    with pytest.raises(SafetyError):
        await count(ctx, CountInput(model=model))
    with pytest.raises(SafetyError):
        await read(ctx, ReadInput(model=model, ids=[1]))
    assert fake.call_counts() == 0


async def test_model_outside_the_allowlist_is_refused(fake: FakeOdoo) -> None:
    async with tool_context(fake, policy=SafetyPolicy(model_allowlist=["res.partner"])) as ctx:
        with pytest.raises(SafetyError):
            await search_read(ctx, _search(model="sale.order"))
        assert fake.call_counts() == 0


async def test_blocked_field_is_refused_without_a_call(ctx: ServerContext, fake: FakeOdoo) -> None:
    with pytest.raises(SafetyError) as caught:
        await search_read(ctx, _search(model="res.users", fields=["login", "password"]))
    assert caught.value.code == "FIELD_BLOCKED"
    with pytest.raises(SafetyError):
        await read(ctx, ReadInput(model="res.users", ids=[2], fields=["password"]))
    with pytest.raises(SafetyError):
        await search_read(ctx, _search(model="res.users", order="password asc"))
    assert fake.call_counts() == 0


async def test_user_blocklisted_field_is_refused(fake: FakeOdoo) -> None:
    async with tool_context(fake, policy=SafetyPolicy(field_blocklist=["email"])) as ctx:
        with pytest.raises(SafetyError):
            await search_read(ctx, _search(model="res.partner", fields=["email"]))
        rows = await search_read(ctx, _search(model="res.partner", fields=["*"], limit=3))
        assert all("email" not in row for row in rows.records)


@pytest.mark.parametrize(
    "domain",
    [
        [["state", "in", "draft"]],
        [["state", "~", "draft"]],
        ["|", ["state", "=", "draft"]],
        [["state", "=="]],
        ["&&", ["state", "=", "draft"]],
        [[1, "=", 1]],
    ],
)
async def test_invalid_domain_makes_no_odoo_call(
    ctx: ServerContext, fake: FakeOdoo, domain: list[Any]
) -> None:
    with pytest.raises(DomainError) as caught:
        await search_read(ctx, _search(model="sale.order", domain=domain))
    assert caught.value.code == "INVALID_DOMAIN"
    with pytest.raises(DomainError):
        await count(ctx, CountInput(model="sale.order", domain=domain))
    assert fake.call_counts() == 0


async def test_domain_sent_as_a_string_is_an_invalid_domain() -> None:
    with pytest.raises(DomainError) as caught:
        _search(model="sale.order", domain='[["state", "=", "draft"]]')
    assert caught.value.example == [["state", "=", "draft"]]


async def test_invalid_order_makes_no_odoo_call(ctx: ServerContext, fake: FakeOdoo) -> None:
    with pytest.raises(DomainError) as caught:
        await search_read(ctx, _search(model="sale.order", order="name; drop table"))
    assert caught.value.code == "INVALID_ORDER"
    assert fake.call_counts() == 0


async def test_unknown_domain_field_stops_before_search(ctx: ServerContext, fake: FakeOdoo) -> None:
    with pytest.raises(DomainError, match="no field 'stat'"):
        await search_read(ctx, _search(model="sale.order", domain=[["stat", "=", "draft"]]))
    assert fake.call_counts(method="search_read") == 0
    assert fake.call_counts() == fake.call_counts(method="fields_get") == 1


async def test_domain_through_a_blocked_field_is_refused(
    ctx: ServerContext, fake: FakeOdoo
) -> None:
    domain = [["user_id.password", "=", "admin"]]
    with pytest.raises(DomainError, match="blocked"):
        await search_read(ctx, _search(model="sale.order", domain=domain))
    with pytest.raises(DomainError, match="blocked"):
        await count(ctx, CountInput(model="sale.order", domain=domain))
    assert fake.call_counts(method="search_read") == fake.call_counts(method="search_count") == 0


# -- odoo_core_read --------------------------------------------------------------------------


async def test_missing_ids_are_listed(ctx: ServerContext, fake: FakeOdoo) -> None:
    params = ReadInput(model="res.partner", ids=[1, 999999, 3, 1], fields=["name"])
    result = await read(ctx, params)
    assert [row["id"] for row in result.records] == [1, 3]
    assert result.missing_ids == [999999]
    fake.reset_calls()
    await read(ctx, params)
    assert fake.call_counts() == fake.call_counts(model="res.partner", method="read") == 1


async def test_read_defaults_to_stored_unblocked_fields(ctx: ServerContext) -> None:
    result = await read(ctx, ReadInput(model="res.users", ids=[2]))
    row = result.records[0]
    assert "login" in row and "password" not in row
    partner = (await read(ctx, ReadInput(model="res.partner", ids=[1]))).records[0]
    fields = await ctx.registry.get_fields("res.partner")
    assert {"name", "country_id"} <= set(partner)
    assert set(partner) <= {name for name, info in fields.items() if info.store}


async def test_read_ids_are_bounded() -> None:
    with pytest.raises(ValidationError):
        ReadInput(model="res.partner", ids=[])
    with pytest.raises(ValidationError):
        ReadInput(model="res.partner", ids=list(range(1, 102)))
    with pytest.raises(ValidationError):
        ReadInput.model_validate({"model": "res.partner", "ids": [1], "limit": 3})


async def test_demo_user_reading_another_users_order_is_denied(
    ctx: ServerContext, demo: ServerContext
) -> None:
    theirs = await search_read(ctx, _search(model="sale.order", limit=500))
    visible = {row["id"] for row in (await search_read(demo, _search(model="sale.order"))).records}
    hidden = next(row["id"] for row in theirs.records if row["id"] not in visible)
    with pytest.raises(OdooRpcError) as caught:
        await read(demo, ReadInput(model="sale.order", ids=[hidden], fields=["name"]))
    assert (caught.value.error_class or "").endswith("AccessError")


# -- odoo_core_count -------------------------------------------------------------------------


async def test_count_echoes_model_and_domain(ctx: ServerContext, fake: FakeOdoo) -> None:
    params = CountInput(model="sale.order", domain=[["state", "in", ["draft", "sent"]]])
    result = await count(ctx, params)
    assert result.model_dump() == {
        "model": "sale.order",
        "domain": [["state", "in", ["draft", "sent"]]],
        "count": result.count,
    }
    assert 0 < result.count < 39
    fake.reset_calls()
    await count(ctx, params)
    assert fake.call_counts() == fake.call_counts(method="search_count") == 1
