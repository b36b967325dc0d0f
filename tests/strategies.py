"""Hypothesis strategies shared by the tests: partner rows and random Odoo domains."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

NAMES = ("Azure", "azure interior", "Gemini", "Deco Addict", "Ready Mat", "a_b%", "")

#: values of one partner row of the ORM test model ``res.partner``
partner_values = st.fixed_dictionaries(
    {
        "name": st.sampled_from(NAMES) | st.just(False),
        "color": st.integers(min_value=-2, max_value=5),
        "is_company": st.booleans(),
        "email": st.sampled_from(["a@x.example", "b@y.example", False]),
        "active": st.booleans(),
        "type": st.sampled_from(["contact", "invoice", False]),
    }
)

_leaf = st.one_of(
    st.tuples(
        st.just("name"),
        st.sampled_from(["=", "!=", "ilike", "not ilike", "like", "=like", "=ilike", "=?"]),
        st.sampled_from([*NAMES, "%", "a%", False]),
    ),
    st.tuples(
        st.just("color"),
        st.sampled_from(["=", "!=", "<", "<=", ">", ">="]),
        st.integers(min_value=-2, max_value=5),
    ),
    st.tuples(st.just("is_company"), st.sampled_from(["=", "!="]), st.booleans()),
    st.tuples(
        st.sampled_from(["email", "type"]),
        st.sampled_from(["in", "not in"]),
        st.lists(st.sampled_from(["a@x.example", "contact", "invoice", False]), max_size=3),
    ),
    st.tuples(
        st.sampled_from(["email", "parent_id", "type"]),
        st.sampled_from(["=", "!="]),
        st.just(False),
    ),
    st.tuples(
        st.just("parent_id.name"), st.sampled_from(["ilike", "not ilike"]), st.sampled_from(NAMES)
    ),
    st.tuples(
        st.just("child_ids"), st.sampled_from(["any", "not any"]), st.just([("color", ">", 2)])
    ),
)


def _combine(children: st.SearchStrategy[list[Any]]) -> st.SearchStrategy[list[Any]]:
    return st.one_of(
        children.map(lambda d: ["!", *d]),
        st.tuples(st.sampled_from(["&", "|"]), children, children).map(
            lambda t: [t[0], *t[1], *t[2]]
        ),
        st.tuples(children, children).map(lambda t: [*t[0], *t[1]]),  # implicit AND
    )


#: a well-formed, non-empty domain (prefix list) over the fields of the test ``res.partner``
domains: st.SearchStrategy[list[Any]] = st.recursive(
    _leaf.map(lambda leaf: [leaf]), _combine, max_leaves=6
)


# -- MCP tool arguments: plausible and garbage -----------------------------------------------------
_json_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["res.partner", "sale.order", "ir.cron", "no.such", "", "*", "name", "id"]),
)
json_values = st.recursive(
    _json_scalar,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_argument_names = st.sampled_from(
    ["model", "domain", "fields", "limit", "offset", "order", "ids", "values", "method", "args",
     "kwargs", "context", "attributes", "filter", "transient", "extra"]
)  # fmt: skip
#: a tool's arguments: mostly the right names with any JSON values, sometimes anything
tool_arguments = st.dictionaries(_argument_names, json_values, max_size=6) | st.dictionaries(
    st.text(max_size=6), json_values, max_size=3
)
