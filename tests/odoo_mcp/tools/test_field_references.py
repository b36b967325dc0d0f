"""SPEC-11 §3 (issue 26): a blocked field cannot be reached through any way Odoo names fields.

Each case is a channel a hostile client used with ``field_blocklist=["email"]``: groupby
strings, aggregate specs, orders and specifications through ``odoo_core_execute``, string
conditions on relational fields (the comodel's name search matches ``email``), context keys
that render the address into names, and fields derived from the address. Every refusal
happens before the call reaches Odoo.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from read_tools_env import tool_context

from fake_odoo.handle import FakeOdoo
from odoo_mcp.context import ServerContext
from odoo_mcp.field_refs import (
    aggregate_refs,
    context_refs,
    domain_refs,
    export_refs,
    groupby_refs,
    order_refs,
    specification_refs,
)
from odoo_mcp.registry import FieldInfo
from odoo_mcp.safety import Mode, SafetyError, SafetyPolicy
from odoo_mcp.safety.blocklists import FieldFilter
from odoo_mcp.safety.execute_args import call_refs
from odoo_mcp.tools.core_execute import ExecuteInput, execute
from odoo_mcp.tools.core_read import SearchReadInput, search_read

pytestmark = pytest.mark.anyio


@pytest.fixture
async def ctx(fake: FakeOdoo) -> AsyncIterator[ServerContext]:
    policy = SafetyPolicy(mode=Mode.FULL, field_blocklist=["email"])
    async with tool_context(fake, policy=policy) as context:
        yield context


def _paths(refs: Any) -> list[str]:
    return [ref.dotted for ref in refs]


def test_groupby_specs_name_their_field() -> None:
    assert _paths(groupby_refs("email", "g")) == ["email"]
    assert _paths(groupby_refs(["create_date:month", "partner_id.email"], "g")) == [
        "create_date",
        "partner_id.email",
    ]


def test_aggregate_specs_name_alias_and_field() -> None:
    assert _paths(aggregate_refs(["total:array_agg(email)"], "a")) == ["total", "email"]
    assert _paths(aggregate_refs("email:count_distinct", "a")) == ["email"]


def test_order_terms_name_their_field_in_any_spelling() -> None:
    assert _paths(order_refs('"email" DESC NULLS LAST, id', "o")) == ["email", "id"]


def test_any_subdomains_continue_the_path() -> None:
    domain = [["partner_id", "any", [["email", "=ilike", "a%"]]]]
    assert _paths(domain_refs(domain, "d")) == ["partner_id", "partner_id.email"]


def test_relational_string_values_are_marked_as_name_searches() -> None:
    refs = list(domain_refs([["partner_id", "ILIKE", "x"], ["partner_id", "=", 3]], "d"))
    assert [ref.searches_names for ref in refs] == [True, False]


def test_specifications_exports_and_context_name_fields() -> None:
    spec = {"partner_id": {"fields": {"email": {}}, "order": "email desc"}}
    assert _paths(specification_refs(spec, "s")) == [
        "partner_id",
        "partner_id.email",
        "partner_id.email",
    ]
    assert _paths(export_refs(["partner_id/email", "name", "partner_id/.id"], "e")) == [
        "partner_id.email",
        "name",
        "partner_id",
    ]
    assert _paths(context_refs({"group_by": "email", "show_email": True, "lang": "x"}, "c")) == [
        "email",
        "email",
    ]


def test_unknown_methods_are_read_conservatively() -> None:
    refs = call_refs("some_new_method", ["sort by email please"], {"x": {"email": 1}})
    assert "email" in _paths(refs)


def test_known_methods_do_not_take_values_for_fields() -> None:
    refs = call_refs("name_search", ["email"], {"operator": "ilike"})
    assert _paths(refs) == []


def test_fields_depending_on_a_blocked_field_are_blocked() -> None:
    fields = {
        "email": FieldInfo(name="email", type="char"),
        "email_normalized": FieldInfo(name="email_normalized", type="char", depends=("email",)),
        "is_blacklisted": FieldInfo(
            name="is_blacklisted", type="boolean", depends=("email_normalized",)
        ),
        "display_name": FieldInfo(name="display_name", type="char", depends=("email", "name")),
        "lead_id": FieldInfo(name="lead_id", type="many2one", relation="crm.lead"),
        "name": FieldInfo(name="name", type="char"),
    }
    blocked = FieldFilter(["email"])
    blocked.use_metadata(lambda model: fields, lambda model: model == "crm.lead")
    assert blocked.derived("res.partner") >= {"email_normalized", "is_blacklisted", "lead_id"}
    assert not blocked.is_field_blocked("res.partner", "display_name")
    assert not blocked.is_field_blocked("res.partner", "name")


def _execute(model: str, method: str, *args: Any, **kwargs: Any) -> ExecuteInput:
    return ExecuteInput.model_validate(
        {"model": model, "method": method, "args": list(args), "kwargs": kwargs}
    )


LEAKING_CALLS = [
    pytest.param(_execute("res.partner", "read_group", [], ["id:count"], "email"), id="groupby"),
    pytest.param(
        _execute("res.partner", "read_group", [], ["id:count"], groupby="email", lazy=False),
        id="groupby-kw",
    ),
    pytest.param(
        _execute("res.partner", "read_group", [], ["x:array_agg(email)"], ["is_company"]),
        id="aggregate-alias",
    ),
    pytest.param(
        _execute("res.partner", "read_group", [], ["email:array_agg"], ["is_company"]),
        id="aggregate",
    ),
    pytest.param(
        _execute("res.partner", "search_read", [], ["name"], order="email desc"), id="order"
    ),
    pytest.param(_execute("res.partner", "search", [], 0, 5, "email"), id="order-positional"),
    pytest.param(
        _execute("sale.order", "search_count", [["partner_id", "ilike", "deco"]]),
        id="m2o-name-search",
    ),
    pytest.param(
        _execute("res.partner", "search_count", [["parent_id", "=ilike", "%deco%"]]),
        id="parent-name-search",
    ),
    pytest.param(
        _execute("res.partner", "search_count", [["child_ids", "ILIKE", "x"]]),
        id="o2m-name-search-any-case",
    ),
    pytest.param(
        _execute("res.partner", "search_count", [["partner_id.parent_id", "in", ["a"]]]),
        id="dotted-name-search",
    ),
    pytest.param(
        _execute("res.partner", "search_count", [["display_name", "ilike", "x"]]),
        id="display-name",
    ),
    pytest.param(
        _execute("res.partner", "web_search_read", [], {"name": {}, "email": {}}),
        id="specification",
    ),
    pytest.param(_execute("res.partner", "export_data", [1], ["name", "email"]), id="export"),
    pytest.param(
        _execute("res.partner", "search_read", [], ["name"], context={"show_email": True}),
        id="context-show-email",
    ),
    pytest.param(
        _execute("res.partner", "search_read", [], ["email_normalized"]), id="derived-field"
    ),
    pytest.param(
        _execute("res.partner", "search_count", [["email_normalized", "=like", "a%"]]),
        id="derived-filter",
    ),
]


@pytest.mark.parametrize("params", LEAKING_CALLS)
async def test_blocked_field_channels_are_refused_before_odoo(
    ctx: ServerContext, fake: FakeOdoo, params: ExecuteInput
) -> None:
    with pytest.raises(SafetyError) as caught:
        await execute(ctx, params)
    assert caught.value.code == "FIELD_BLOCKED"
    assert fake.call_counts() - fake.call_counts(method="fields_get") == 0


async def test_search_tool_refuses_a_relational_string_condition(
    ctx: ServerContext, fake: FakeOdoo
) -> None:
    params = SearchReadInput.model_validate(
        {"model": "sale.order", "domain": [["partner_id", "ilike", "deco"]], "fields": ["name"]}
    )
    with pytest.raises(SafetyError) as caught:
        await search_read(ctx, params)
    assert caught.value.code == "FIELD_BLOCKED"
    assert "partner_id.name" in caught.value.suggestion or "name" in caught.value.suggestion


async def test_relational_conditions_by_id_and_allowed_paths_still_run(
    ctx: ServerContext,
) -> None:
    by_id = await execute(ctx, _execute("sale.order", "search_count", [["partner_id", "=", 3]]))
    by_name = await execute(
        ctx, _execute("sale.order", "search_count", [["partner_id.name", "ilike", "a"]])
    )
    grouped = await execute(
        ctx, _execute("res.partner", "read_group", [], ["id:count"], ["is_company"])
    )
    assert isinstance(by_id.result, int)
    assert isinstance(by_name.result, int)
    assert isinstance(grouped.result, list)
