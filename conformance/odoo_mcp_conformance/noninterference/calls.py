"""Hypothesis strategies for MCP calls that could reveal blocked data (non-interference).

A call is a plain dict: ``{"kind": "tool", "name": ..., "arguments": {...}}``,
``{"kind": "resource", "uri": ...}``, ``{"kind": "prompt", "name": ..., "arguments": {...}}``
or ``{"kind": "list", "what": "tools" | "resources" | "templates" | "prompts"}``.  Arguments
come from a hand-written table per tool and per ``odoo_core_execute`` method, with hostile
variants (blocked fields through paths, aggregates, orders, name searches, the blocked model
itself).  Values in domains include prefixes of the twins' canaries and of the demo data,
so that a filter on a blocked field would match differently on the two twins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

__all__ = ["PROBES", "call_sequences", "calls", "explore_sequences"]

MODELS = ["res.partner", "sale.order", "crm.lead", "res.company", "res.users", "account.move"]
PARTNER_FIELDS = [
    "name",
    "display_name",
    "email",
    "email_normalized",
    "email_formatted",
    "parent_id",
    "child_ids",
    "commercial_partner_id",
    "opportunity_ids",
    "sale_order_ids",
    "user_ids",
    "company_id",
    "complete_name",
    "phone",
    "write_date",
]
BLOCKED_PATHS = [
    "email",
    "email_normalized",
    "email_formatted",
    "partner_id.email",
    "partner_id.email_normalized",
    "child_ids.email",
    "parent_id.email",
    "commercial_partner_id.email",
    "user_ids.email",
    "company_id.email",
    "opportunity_ids",
    "opportunity_ids.name",
    "opportunity_ids.expected_revenue",
    "partner_id.opportunity_ids",
    "email_from",
]
DOMAIN_FIELDS = [
    *BLOCKED_PATHS,
    "partner_id",
    "child_ids",
    "display_name",
    "name",
    "parent_id",
    "complete_name",
    "user_ids",
    "id",
]
OPERATORS = ["=", "!=", "ilike", "not ilike", "like", "=like", "=ilike", "in", "not in", ">", "<"]

# prefixes and whole values of the twins' data (canaries of A and of B, demo addresses)
#: values the fake's twin-a and twin-b datasets hold for partners 7 and 9 (their canaries)
_SAMPLE_EMAILS = [
    "canary007a@leak-x.invalid",
    "demo9@example.com",
    False,
    "canary491b@leak-y.invalid",
]
TEXT_VALUES = [
    "canary",
    "canary0",
    "canary00",
    "canary4",
    "canary49",
    "canary-dup",
    "a@leak",
    "b@leak",
    "@leak-x",
    "leak-y",
    ".invalid",
    "CANARY-LEAD",
    "@example",
    "example.com",
    "info@",
    "admin@",
    "yourcompany",
    "agrolait",
    "mark",
    "a",
    "e",
    "%",
    "_",
    "",
    "Acme",
    "Azure",
    *[e for e in _SAMPLE_EMAILS if e],
]
TEXT = st.sampled_from(TEXT_VALUES)
VALUES = st.one_of(
    TEXT,
    TEXT,
    TEXT,
    st.just(False),
    st.integers(min_value=0, max_value=60),
    st.lists(st.sampled_from(TEXT_VALUES), min_size=1, max_size=2),
    st.lists(st.integers(min_value=1, max_value=60), min_size=1, max_size=3),
)
IDS = st.lists(st.integers(min_value=1, max_value=60), min_size=1, max_size=5, unique=True)
PARTNER_IDS = st.lists(st.sampled_from([1, 3, 7, 9, 10, 14, 15, 26, 36]), min_size=1, max_size=4)
MODEL = st.sampled_from(MODELS).filter(lambda m: True) | st.just("res.partner")
FIELD = st.sampled_from([*PARTNER_FIELDS, *BLOCKED_PATHS, "partner_id", "email_from", "*"])
FIELDS = st.lists(FIELD, max_size=4)

#: relational and name fields whose name search reaches the blocked field on the comodel
RELATIONAL = ["partner_id", "child_ids", "parent_id", "display_name", "commercial_partner_id"]
leaf = st.tuples(
    st.sampled_from(DOMAIN_FIELDS) | st.sampled_from(RELATIONAL),
    st.sampled_from(OPERATORS) | st.sampled_from(["ilike", "=", "not ilike"]),
    VALUES,
).map(list)
DOMAIN = st.one_of(
    st.lists(leaf, min_size=1, max_size=2),
    st.just([]),
    st.tuples(st.sampled_from(["|", "!", "&"]), leaf, leaf).map(
        lambda t: [t[0], t[1]] if t[0] == "!" else list(t)
    ),
)
ORDER = st.one_of(
    st.none(),
    st.sampled_from(
        [
            "email desc",
            "email",
            "email_normalized desc, id",
            "partner_id.email",
            "email_formatted",
            "name desc",
            "id desc",
            "display_name",
            "opportunity_ids",
            "email_from desc",
        ]
    ),
)
LIMIT = st.sampled_from([None, 1, 3, 5, 80])
CONTEXT = st.one_of(
    st.none(),
    st.sampled_from([{"show_email": True}, {"active_test": False}, {"lang": "en_US"}]),
)
AGGREGATES = st.lists(
    st.sampled_from(
        [
            "email:array_agg",
            "alias:array_agg(email)",
            "email:count_distinct",
            "email_normalized:count_distinct",
            "email:max",
            "email:min",
            "__count",
            "id:count",
            "partner_id:array_agg",
            "expected_revenue:sum",
            "name:array_agg",
        ]
    ),
    max_size=2,
)
GROUPBY = st.sampled_from(
    ["email", "email_normalized", "parent_id", "partner_id", "company_id", "name", "is_company"]
)
SPEC = st.sampled_from(
    [
        {"name": {}, "email": {}},
        {"display_name": {}},
        {"partner_id": {"fields": {"email": {}, "display_name": {}}}},
        {"child_ids": {"fields": {"email_normalized": {}}}},
        {"opportunity_ids": {"fields": {"name": {}}}},
        {"email_formatted": {}},
    ]
)


def _drop_none(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


def _execute(model: Any, method: str, args: Any, kwargs: Any) -> st.SearchStrategy[Any]:
    return st.builds(
        lambda m, a, k, c: {
            "kind": "tool",
            "name": "odoo_core_execute",
            "arguments": _drop_none({"model": m, "method": method, "args": a, "kwargs": k})
            | ({"context": c} if c else {}),
        },
        model,
        args,
        kwargs,
        CONTEXT,
    )


def _kw(**parts: Any) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({}, optional=parts)


PMODEL = st.sampled_from(["res.partner", "res.partner", "sale.order", "crm.lead", "res.users"])
EXECUTE = st.one_of(
    _execute(
        PMODEL,
        "search_read",
        st.tuples(DOMAIN).map(list),
        _kw(fields=FIELDS, order=ORDER, limit=LIMIT),
    ),
    _execute(PMODEL, "search", st.tuples(DOMAIN).map(list), _kw(order=ORDER, limit=LIMIT)),
    _execute(PMODEL, "search_count", st.tuples(DOMAIN).map(list), st.just({})),
    _execute(PMODEL, "read", st.tuples(IDS).map(list), _kw(fields=FIELDS)),
    _execute(
        PMODEL,
        "read_group",
        st.one_of(
            st.tuples(DOMAIN, AGGREGATES, st.lists(GROUPBY, min_size=1, max_size=1)).map(list),
            st.tuples(DOMAIN, AGGREGATES, GROUPBY).map(list),
            st.tuples(DOMAIN).map(list),
        ),
        _kw(
            fields=AGGREGATES,
            groupby=st.one_of(GROUPBY, st.lists(GROUPBY, min_size=1, max_size=2)),
            orderby=ORDER,
            lazy=st.booleans(),
        ),
    ),
    _execute(
        PMODEL,
        "formatted_read_group",
        st.just([]),
        _kw(
            domain=DOMAIN,
            groupby=st.lists(GROUPBY, min_size=1, max_size=2),
            aggregates=AGGREGATES,
            order=ORDER,
        ),
    ),
    _execute(
        PMODEL,
        "web_search_read",
        st.just([]),
        _kw(domain=DOMAIN, specification=SPEC, order=ORDER, limit=LIMIT),
    ),
    _execute(PMODEL, "web_read", st.tuples(PARTNER_IDS).map(list), _kw(specification=SPEC)),
    _execute(
        PMODEL,
        "name_search",
        st.one_of(st.tuples(st.sampled_from(TEXT_VALUES)).map(list), st.just([])),
        _kw(
            name=st.sampled_from(TEXT_VALUES),
            domain=DOMAIN,
            operator=st.sampled_from(["ilike", "=", "=ilike", "like"]),
            limit=LIMIT,
        ),
    ),
    _execute(
        PMODEL,
        "export_data",
        st.tuples(
            PARTNER_IDS,
            st.lists(
                st.sampled_from(["name", "email", "partner_id/email", "child_ids/email", "id"]),
                min_size=1,
                max_size=3,
            ),
        ).map(list),
        st.just({}),
    ),
    _execute(
        PMODEL,
        "fields_get",
        st.just([]),
        _kw(
            allfields=st.lists(FIELD, max_size=2),
            attributes=st.sampled_from([["string", "type"], ["depends", "related"], ["store"]]),
        ),
    ),
    _execute(PMODEL, "copy_data", st.tuples(PARTNER_IDS).map(list), st.just({})),
    _execute(PMODEL, "copy", st.tuples(PARTNER_IDS).map(list), st.just({})),
    _execute(PMODEL, "name_get", st.tuples(PARTNER_IDS).map(list), st.just({})),
    _execute(PMODEL, "default_get", st.tuples(st.lists(FIELD, max_size=3)).map(list), st.just({})),
    _execute(PMODEL, "name_create", st.tuples(st.sampled_from(TEXT_VALUES)).map(list), st.just({})),
    _execute(PMODEL, "address_get", st.tuples(PARTNER_IDS).map(list), st.just({})),
    _execute(
        PMODEL,
        "onchange",
        st.tuples(
            st.fixed_dictionaries({"parent_id": st.sampled_from([1, 9, 14])}),
            st.just(["parent_id"]),
            SPEC,
        ).map(list),
        st.just({}),
    ),
    _execute(
        PMODEL,
        "write",
        st.tuples(PARTNER_IDS, st.sampled_from([{"name": "Renamed"}, {"phone": "1"}])).map(list),
        st.just({}),
    ),
    _execute(
        st.sampled_from(["crm.lead", "res.partner"]),
        "has_access",
        st.tuples(PARTNER_IDS, st.sampled_from(["read", "write"])).map(lambda t: [t[0], t[1]]),
        st.just({}),
    ),
)


def _tool(name: str, args: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[Any]:
    return args.map(lambda a: {"kind": "tool", "name": name, "arguments": _drop_none(a)})


VALUES_TO_WRITE = st.sampled_from(
    [
        {"name": "New Co"},
        {"name": "New Co", "email": "new@ex.com"},
        {"name": "New Co", "parent_id": 9},
        {"phone": "555"},
        {"email": "x@y.z"},
        {"name": "Lead", "partner_id": 9},
        {"name": "Copy", "email_normalized": "a@b.c"},
    ]
)
TOOLS = st.one_of(
    _tool(
        "odoo_core_search_read",
        st.fixed_dictionaries(
            {"model": MODEL},
            optional={
                "domain": DOMAIN,
                "fields": FIELDS,
                "order": ORDER,
                "limit": LIMIT,
                "offset": st.sampled_from([0, 1, 5]),
                "context": CONTEXT,
            },
        ),
    ),
    _tool("odoo_core_count", st.fixed_dictionaries({"model": MODEL, "domain": DOMAIN})),
    _tool(
        "odoo_core_read",
        st.fixed_dictionaries({"model": MODEL, "ids": IDS}, optional={"fields": FIELDS}),
    ),
    _tool("odoo_core_name_get", st.fixed_dictionaries({"model": MODEL, "ids": IDS})),
    _tool(
        "odoo_core_fields_get",
        st.fixed_dictionaries(
            {"model": MODEL},
            optional={"attributes": st.sampled_from([["*"], ["string", "depends"], ["related"]])},
        ),
    ),
    _tool(
        "odoo_core_default_get",
        st.fixed_dictionaries({"model": MODEL}, optional={"fields": FIELDS, "context": CONTEXT}),
    ),
    _tool(
        "odoo_core_list_models",
        st.fixed_dictionaries(
            {},
            optional={
                "filter": st.sampled_from(["crm", "lead", "partner", "res"]),
                "transient": st.booleans(),
            },
        ),
    ),
    _tool("odoo_core_list_toolsets", st.just({})),
    _tool("odoo_core_create", st.fixed_dictionaries({"model": MODEL, "values": VALUES_TO_WRITE})),
    _tool(
        "odoo_core_write",
        st.fixed_dictionaries({"model": MODEL, "ids": PARTNER_IDS, "values": VALUES_TO_WRITE}),
    ),
    _tool("odoo_core_unlink", st.fixed_dictionaries({"model": MODEL, "ids": PARTNER_IDS})),
    _tool(
        "customers.search",
        st.fixed_dictionaries(
            {"query": st.sampled_from([t for t in TEXT_VALUES if t])},
            optional={"limit": st.sampled_from([1, 5, 100])},
        ),
    ),
    _tool(
        "orders.get",
        st.fixed_dictionaries(
            {"orderId": st.sampled_from(["S00001", "S00002", "S00007", "SO001"])},
            optional={"includeLines": st.booleans()},
        ),
    ),
    _tool("products.list", st.fixed_dictionaries({}, optional={"limit": st.sampled_from([1, 5])})),
    _tool(
        "deliveries.track",
        st.fixed_dictionaries({"deliveryId": st.sampled_from(["WH/OUT/00001", "WH/OUT/00002"])}),
    ),
)

RESOURCE_MODELS = st.sampled_from(
    ["res.partner", "crm.lead", "sale.order", "res.users", "res.company"]
)
RESOURCES = st.one_of(
    st.sampled_from(
        [
            "odoo://system/info",
            "odoo://system/modules",
            "odoo://system/toolsets",
            "odoo://config/safety",
        ]
    ),
    st.builds(
        lambda m, k: f"odoo://model/{m}/{k}",
        RESOURCE_MODELS,
        st.sampled_from(["fields", "methods", "states"]),
    ),
    st.builds(lambda m, i: f"odoo://record/{m}/{i}", RESOURCE_MODELS, st.integers(1, 40)),
    st.builds(
        lambda m, d, n: f"odoo://record/{m}?domain={d}&limit={n}",
        RESOURCE_MODELS,
        st.sampled_from(
            [
                "[]",
                "%5B%5B%22email%22%2C%22ilike%22%2C%22canary%22%5D%5D",
                '[["email","ilike","@example"]]',
                '[["email_normalized","=",false]]',
                '[["partner_id.email","ilike","leak"]]',
                '[["display_name","ilike","canary"]]',
            ]
        ),
        st.sampled_from([1, 5, 50]),
    ),
).map(lambda uri: {"kind": "resource", "uri": uri})

PROMPTS = st.one_of(
    st.just({"kind": "prompt", "name": "odoo_overview", "arguments": {}}),
    st.just({"kind": "prompt", "name": "odoo_domain_help", "arguments": {}}),
    st.builds(
        lambda n, m: {"kind": "prompt", "name": n, "arguments": {"model_name": m}},
        st.sampled_from(["odoo_model_guide", "odoo_create_record"]),
        RESOURCE_MODELS,
    ),
    st.builds(
        lambda m, q: {
            "kind": "prompt",
            "name": "odoo_search_help",
            "arguments": {"model_name": m, "query": q},
        },
        RESOURCE_MODELS,
        st.sampled_from([t for t in TEXT_VALUES if t]),
    ),
)
LISTS = st.sampled_from(["tools", "resources", "templates", "prompts"]).map(
    lambda w: {"kind": "list", "what": w}
)

calls = st.one_of(EXECUTE, EXECUTE, TOOLS, TOOLS, RESOURCES, PROMPTS, LISTS)
call_sequences = st.lists(calls, min_size=1, max_size=3)


def _ex(model: str, method: str, args: list[Any], kwargs: dict[str, Any] | None = None) -> Any:
    arguments = {"model": model, "method": method, "args": args, "kwargs": kwargs or {}}
    return {"kind": "tool", "name": "odoo_core_execute", "arguments": arguments}


def _t(name: str, **arguments: Any) -> Any:
    return {"kind": "tool", "name": name, "arguments": arguments}


#: hand-picked oracles on the blocked data, one call each (the generated calls find them too,
#: but not reliably in a CI-sized run)
PROBES: list[dict[str, Any]] = [
    _t("customers.search", query="canary"),
    _t("customers.search", query="@example"),
    _ex("res.partner", "name_search", ["canary"]),
    _ex("res.partner", "name_search", [], {"name": "leak-x"}),
    _t("odoo_core_count", model="res.partner", domain=[["display_name", "ilike", "canary"]]),
    _t("odoo_core_count", model="res.partner", domain=[["child_ids", "ilike", "canary"]]),
    _t("odoo_core_count", model="res.partner", domain=[["parent_id", "ilike", "canary"]]),
    _t("odoo_core_count", model="sale.order", domain=[["partner_id", "ilike", "canary"]]),
    _t("odoo_core_count", model="res.partner", domain=[["email_normalized", "ilike", "canary0"]]),
    _t("odoo_core_count", model="res.partner", domain=[["opportunity_ids", "!=", False]]),
    _t(
        "odoo_core_search_read",
        model="res.partner",
        fields=["id"],
        order="email_normalized desc",
        limit=5,
    ),
    _t("odoo_core_read", model="res.partner", ids=[1, 3, 9], fields=["name", "email_formatted"]),
    _t("odoo_core_read", model="res.partner", ids=[9]),
    _ex("res.partner", "read", [[9]], {"fields": ["opportunity_ids"]}),
    _ex("res.partner", "read_group", [[], ["email:count_distinct"], ["is_company"]]),
    _ex("res.partner", "read_group", [[], ["alias:array_agg(email)"], ["is_company"]]),
    _ex("res.partner", "read_group", [[], [], "email"]),
    _ex("res.partner", "read_group", [], {"domain": [], "fields": ["id"], "groupby": "email"}),
    _ex(
        "res.partner",
        "formatted_read_group",
        [],
        {"domain": [], "groupby": ["is_company"], "aggregates": ["email:array_agg"]},
    ),
    _ex("res.partner", "copy_data", [[9]]),
    _ex("res.partner", "search_read", [[], ["id"]], {"order": "email desc", "limit": 8}),
    _ex("res.partner", "search", [[], 0, 8, "email asc"]),
    _ex("res.partner", "search_count", [[["partner_id.email", "=ilike", "canary%"]]]),
    _ex("sale.order", "search_count", [[["partner_id", "ILIKE", "canary"]]]),
    _ex("res.partner", "search_count", [[["child_ids", "any", [["email", "ilike", "canary"]]]]]),
    {"kind": "resource", "uri": "odoo://record/res.partner/9"},
    {
        "kind": "resource",
        "uri": 'odoo://record/res.partner?domain=[["email_normalized","=",false]]',
    },
    {"kind": "resource", "uri": "odoo://system/info"},
    _t(
        "odoo_core_search_read",
        model="res.partner",
        fields=["display_name"],
        context={"show_email": True},
        limit=3,
    ),
]


def explore_sequences(
    run_sequence: Callable[[list[dict[str, Any]]], object], examples: int, seed: int
) -> None:
    """Feed ``examples`` generated call sequences to ``run_sequence``, the same ones for the
    same seed (no shrinking, no example database: a run is a fixed sample, not a search)."""

    @hypothesis_seed(seed)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(call_sequences)
    def run(calls: list[dict[str, Any]]) -> None:
        run_sequence(calls)

    run()
