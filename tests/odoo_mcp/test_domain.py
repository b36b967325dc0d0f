"""L2/04a: domain validation before any Odoo call, and ``order`` strings (decision 9, 11)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from odoo19_meta import CapturedFields

from odoo_mcp.domain import (
    OPERATORS,
    DomainError,
    parse_domain,
    validate_domain,
    validate_order,
)

pytestmark = pytest.mark.anyio

BLOCKED = {("res.partner", "email"), ("res.users", "password"), ("sale.order", "note")}


def blocked(model: str, field: str) -> bool:
    return (model, field) in BLOCKED


def refusal(domain: object) -> DomainError:
    with pytest.raises(DomainError) as caught:
        parse_domain(domain)
    return caught.value


# -- structure and operators (REQ-04a-01..05, 13) -------------------------------------------

INLINE_HELP_EXAMPLES = [
    [],
    [["state", "=", "draft"]],
    [["name", "ilike", "acme"]],
    [["amount", ">=", 1000], ["state", "=", "posted"]],
    ["|", ["state", "=", "draft"], ["state", "=", "sent"]],
    [["partner_id.country_id.code", "=", "PT"]],
    ["&", "|", ("state", "=", "draft"), ("state", "=", "sent"), ("amount", ">=", 1000)],
    ["!", ["state", "=", "cancel"]],
]


@pytest.mark.parametrize("domain", INLINE_HELP_EXAMPLES)
def test_documented_examples_validate(domain: list[Any]) -> None:
    assert parse_domain(domain).to_odoo() == [
        list(item) if isinstance(item, tuple) else item for item in domain
    ]


VALID_VALUES: dict[str, Any] = {
    "=": "draft", "!=": False, ">": 5, ">=": 1.5, "<": "2025-01-31", "<=": "2025-01-31 10:00:00",
    "like": "Acme", "not like": "x", "ilike": "acme", "not ilike": "x", "=like": "SO%",
    "=ilike": "%@acme.com", "in": ["a", "b"], "not in": [], "child_of": 3, "parent_of": [1, 2],
}  # fmt: skip


@pytest.mark.parametrize("operator", sorted(OPERATORS))
def test_each_of_the_sixteen_operators_is_accepted(operator: str) -> None:
    assert len(OPERATORS) == 16
    parsed = parse_domain([["field", operator, VALID_VALUES[operator]]])
    assert parsed.leaves[0].operator == operator


def test_in_with_a_string_names_the_list_form() -> None:
    error = refusal([["state", "in", "draft"]])
    assert error.code == "INVALID_DOMAIN"
    assert error.message == (
        "Invalid domain: operator 'in' requires a list value, got string 'draft'"
    )
    assert error.example == [["state", "in", ["draft"]]]
    assert "'='" in error.suggestion
    assert error.to_dict()["category"] == "validation"


@pytest.mark.parametrize(
    ("domain", "example"),
    [
        ([["name", "=?", "x"]], [["name", "=", "x"]]),
        ([["child_ids", "any", [["color", ">", 2]]]], [["child_ids.color", ">", 2]]),
        ([["child_ids", "not any", [["color", ">", 2]]]], ["!", ["child_ids.color", ">", 2]]),
        ([["state", "<>", "done"]], [["state", "!=", "done"]]),
        ([["name", "ILIKE", "acme"]], [["name", "ilike", "acme"]]),
        ([["name", "contains", "acme"]], [["name", "ilike", "acme"]]),
        ([[1, "=", 1]], []),
        ([["state", "in", "draft"]], [["state", "in", ["draft"]]]),
        ([["name", "ilike", ["a", "b"]]], ["|", ["name", "ilike", "a"], ["name", "ilike", "b"]]),
        ([["amount", ">", [1, 2]]], [["amount", "in", [1, 2]]]),
        ([["amount", ">", None]], [["amount", "=", False]]),
        ([["ref", "like", 42]], [["ref", "like", "42"]]),
    ],
)
def test_refusals_carry_a_corrected_domain(domain: list[Any], example: list[Any]) -> None:
    error = refusal(domain)
    assert error.example == example
    parse_domain(error.example)  # the correction itself validates


@pytest.mark.parametrize(
    ("domain", "fragment"),
    [
        (["|", ["a", "=", 1]], "operator '|' at position 0 needs 2"),
        (["!"], "operator '!' at position 0 needs 1"),
        ([["a", "=", 1], "&"], "operator '&' at position 1 needs 2"),
        (["&", ["a", "=", 1], "|", ["b", "=", 2]], "operator '|' at position 2 needs 2"),
        ([["a", "="]], "has 2 items, expected 3"),
        (["AND", ["a", "=", 1]], "unknown logical operator 'AND'"),
        ([{"field": "a"}], "item at position 0"),
        ({"state": "draft"}, "expected a list of conditions, got dict"),
        ([["", "=", 1]], "needs a field name"),
        ([["a..b", "=", 1]], "needs a field name"),
        ([["child_ids", "child_of", "Azure"]], "requires a record id or a list of ids"),
        ([["a", "=", {"x": 1}]], "requires a single value or a list of values"),
        ([["a", "in", [[1]]]], "requires a list value"),
    ],
)
def test_malformed_domains_are_refused(domain: object, fragment: str) -> None:
    error = refusal(domain)
    assert fragment in error.message
    parse_domain(error.example)


def test_implicit_and_needs_no_operator() -> None:
    parsed = parse_domain([["a", "=", 1], ["b", "=", 2], ["c", "=", 3]])
    assert [leaf.path for leaf in parsed.leaves] == ["a", "b", "c"]


def test_json_string_domain_is_refused_with_the_list_it_meant() -> None:
    error = refusal('[["state", "=", "draft"]]')
    assert error.example == [["state", "=", "draft"]]
    assert "not as a string" in error.suggestion
    assert refusal("state = draft").example == [["state", "=", "draft"]]


def test_none_means_all_records() -> None:
    assert parse_domain(None).to_odoo() == []


# -- fields, paths, dates, blocked fields (REQ-04a-06..09, decision 11) -----------------------


async def test_path_through_relations_resolves_each_model() -> None:
    source = CapturedFields()
    result = await validate_domain(
        [["partner_id.country_id.code", "=", "PT"]], "sale.order", fields=source
    )
    assert result.to_odoo() == [["partner_id.country_id.code", "=", "PT"]]
    assert source.lookups == ["sale.order", "res.partner", "res.country"]


async def test_unknown_field_suggests_the_close_name() -> None:
    with pytest.raises(DomainError) as caught:
        await validate_domain([["partner", "=", 1]], "sale.order", fields=CapturedFields())
    assert "sale.order has no field 'partner'" in caught.value.message
    assert "'partner_id'" in caught.value.suggestion


async def test_path_through_a_plain_field_is_refused() -> None:
    with pytest.raises(DomainError) as caught:
        await validate_domain([["name.foo", "=", 1]], "res.partner", fields=CapturedFields())
    assert "is a char field" in caught.value.message
    assert caught.value.example == [["name", "!=", False]]


@pytest.mark.parametrize(
    ("model", "path"),
    [
        ("res.partner", "email"),
        ("sale.order", "partner_id.email"),
        ("sale.order", "note"),
        ("sale.order", "user_id.password"),
    ],
)
async def test_blocked_fields_are_refused_on_any_path(model: str, path: str) -> None:
    with pytest.raises(DomainError) as caught:
        await validate_domain(
            [[path, "!=", False]], model, fields=CapturedFields(), is_field_blocked=blocked
        )
    assert "blocked" in caught.value.message
    assert (caught.value.code, caught.value.category) == ("FIELD_BLOCKED", "access")
    assert "email" not in str(caught.value.example)


async def test_blocked_first_segment_is_refused_without_metadata() -> None:
    with pytest.raises(DomainError):
        await validate_domain([["email", "ilike", "@"]], "res.partner", is_field_blocked=blocked)


async def test_close_names_never_suggest_a_blocked_field() -> None:
    with pytest.raises(DomainError) as caught:
        await validate_domain(
            [["emai", "=", "x"]], "res.partner", fields=CapturedFields(), is_field_blocked=blocked
        )
    assert "'email'" not in caught.value.suggestion


@pytest.mark.parametrize(
    ("value", "example_value"),
    [
        ("2025-02-09T14:30:00Z", "2025-02-09 14:30:00"),
        ("yesterday", "2025-01-31"),
        (20250209, "2025-01-31"),
    ],
)
async def test_datetime_values_use_odoo_format(value: object, example_value: str) -> None:
    with pytest.raises(DomainError) as caught:
        await validate_domain([["date_order", ">=", value]], "sale.order", fields=CapturedFields())
    assert caught.value.example == [["date_order", ">=", example_value]]


async def test_dates_and_unset_values_pass() -> None:
    domain = [
        ["date_order", ">=", "2025-02-01"],
        ["date_order", "<", "2025-03-01 00:00:00"],
        ["commitment_date", "=", False],
    ]
    await validate_domain(domain, "sale.order", fields=CapturedFields())


async def test_deep_paths_pass_with_a_warning() -> None:
    path = "partner_id.parent_id.parent_id.parent_id.country_id.code"
    result = await validate_domain([[path, "=", "PT"]], "sale.order", fields=CapturedFields())
    assert result.warnings and "6 levels" in result.warnings[0]


# -- order (decision 11) ------------------------------------------------------------------------


async def test_order_terms_are_parsed() -> None:
    terms = await validate_order(
        "date_order DESC nulls last, name, partner_id.name asc",
        "sale.order",
        fields=CapturedFields(),
    )
    assert [t.to_odoo() for t in terms] == [
        "date_order desc nulls last",
        "name asc",
        "partner_id.name asc",
    ]


@pytest.mark.parametrize(
    ("order", "fragment"),
    [
        ("name; drop table res_partner", "cannot read"),
        ("(name)", "cannot read"),
        ("nmae asc", "no field 'nmae'"),
        ("display_name", "not stored"),
        ("email desc", "blocked"),
        ("parent_id.email", "blocked"),
        ("name.id", "not a many2one"),
    ],
)
async def test_bad_orders_are_refused(order: str, fragment: str) -> None:
    with pytest.raises(DomainError) as caught:
        await validate_order(
            order, "res.partner", fields=CapturedFields(), is_field_blocked=blocked
        )
    expected = (
        ("FIELD_BLOCKED", "access") if fragment == "blocked" else ("INVALID_ORDER", "validation")
    )
    assert (caught.value.code, caught.value.category) == expected
    assert fragment in caught.value.message


async def test_empty_order_means_server_default() -> None:
    assert await validate_order("  ", "res.partner") == ()


# -- properties (Hypothesis) --------------------------------------------------------------------

_scalars = st.one_of(
    st.text(max_size=5), st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False)
)
_values = {
    "=": _scalars | st.lists(_scalars, max_size=3),
    "!=": _scalars,
    ">": st.integers() | st.text(max_size=5),
    "like": st.text(max_size=5),
    "in": st.lists(_scalars, max_size=3),
    "not in": st.lists(_scalars, max_size=3),
    "child_of": st.integers(min_value=1) | st.lists(st.integers(min_value=1), max_size=3),
}
_leaf = st.sampled_from(sorted(_values)).flatmap(
    lambda op: st.tuples(
        st.from_regex(r"[a-z_]{1,8}(\.[a-z_]{1,8}){0,2}", fullmatch=True),
        st.just(op),
        _values[op],
    )
)


def _combine(children: st.SearchStrategy[list[Any]]) -> st.SearchStrategy[list[Any]]:
    return st.one_of(
        children.map(lambda d: ["!", *d]),
        st.tuples(st.sampled_from(["&", "|"]), children, children).map(
            lambda t: [t[0], *t[1], *t[2]]
        ),
        st.tuples(children, children).map(lambda t: [*t[0], *t[1]]),
    )


valid_domains = st.recursive(_leaf.map(lambda leaf: [leaf]), _combine, max_leaves=8)
junk = st.recursive(
    st.one_of(_scalars, st.sampled_from(["&", "|", "!", "=", "in", "any", "=?"])),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner),
    max_leaves=12,
)


@given(valid_domains)
def test_well_formed_domains_always_validate(domain: list[Any]) -> None:
    parsed = parse_domain(domain)
    assert parse_domain(parsed.to_odoo()).to_odoo() == parsed.to_odoo()


@given(junk)
def test_junk_raises_nothing_but_domain_error(domain: object) -> None:
    try:
        parse_domain(domain)
    except DomainError as error:
        assert error.message.startswith("Invalid domain: ")
        parse_domain(error.example)  # every correction is itself a valid domain
