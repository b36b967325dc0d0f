"""Domain parsing and evaluation: operators, paths, False semantics, Odoo's error texts."""

from __future__ import annotations

from typing import Any

import pytest
from orm_testdb import ADMIN, Call, make_db

from fake_odoo.orm import domain as D
from fake_odoo.orm.database import Environment
from fake_odoo.orm.domain_eval import like_regex, match_value


def names(env: Environment, domain: list[Any], **context: Any) -> list[str]:
    records = env["res.partner"].with_context(**context).search(domain, order="name")
    return [str(r.name) for r in records]


def test_parse_shapes() -> None:
    a, b, c = ("a", "=", 1), ("b", "=", 2), ("c", "=", 3)
    assert D.parse([]) == D.TRUE
    assert D.parse([a]) == ("leaf", "a", "=", 1)
    assert D.parse([a, b]) == ("and", [("leaf", "a", "=", 1), ("leaf", "b", "=", 2)])
    assert D.parse(["|", a, "!", b]) == (
        "or",
        [("leaf", "a", "=", 1), ("not", ("leaf", "b", "=", 2))],
    )
    assert D.parse([(1, "=", 1)]) == D.TRUE and D.parse([(0, "=", 1)]) == D.FALSE
    assert D.to_list(D.parse(["&", a, b, c])) == [
        "&",
        "&",
        ["a", "=", 1],
        ["b", "=", 2],
        ["c", "=", 3],
    ]
    assert D.parse([("a", "<>", 1)]) == ("leaf", "a", "!=", 1)


@pytest.mark.parametrize(
    ("domain", "message"),
    [
        (
            ["|", ["state", "=", "draft"]],
            "Domain() malformed domain ['|', ['state', '=', 'draft']]",
        ),
        (["state"], "Domain() invalid item in domain: 'state'"),
        (["!"], "Domain() malformed domain ['!']"),
        ([("a", "=")], "Domain() invalid item in domain: ('a', '=')"),
    ],
)
def test_malformed_domains(domain: list[Any], message: str) -> None:
    with pytest.raises(ValueError) as info:
        D.parse(domain)
    assert str(info.value) == message


def test_invalid_field_and_operator_messages(call: Call) -> None:
    with pytest.raises(ValueError) as info:
        call(ADMIN, "res.partner", "search", [("no_such_field", "=", 1)])
    assert (
        str(info.value)
        == "Invalid field res.partner.no_such_field in condition ('no_such_field', '=', 1)"
    )
    with pytest.raises(ValueError) as info:
        call(ADMIN, "res.partner", "search", [("name", "bogus_op", 1)])
    assert str(info.value) == "Invalid operator in condition ('name', 'bogus_op', 1)"
    with pytest.raises(ValueError) as info:
        call(ADMIN, "test.order", "search", [("partner_id.no_such.code", "=", "US")])
    assert (
        str(info.value)
        == "Invalid field res.partner.no_such in condition ('no_such.code', '=', 'US')"
    )


def test_errors_raise_even_without_records(env: Environment) -> None:
    with pytest.raises(ValueError, match="Invalid field"):
        env["test.order"].search([("partner_id.nope", "=", 1)])


def test_comparison_operators(su: Environment, partners: dict[str, Any]) -> None:
    assert names(su, [("color", ">", 0)]) == ["Gemini Furniture"]
    assert names(su, [("color", "<=", 0), ("is_company", "=", True)]) == ["Azure Interior"]
    assert names(su, [("name", "=", "Colleen Diaz")]) == ["Colleen Diaz"]
    assert names(su, [("name", "in", ["Colleen Diaz", "Gemini Furniture"])]) == [
        "Colleen Diaz",
        "Gemini Furniture",
    ]
    assert names(su, [("name", "not in", ["Colleen Diaz", "Gemini Furniture"])]) == [
        "Azure Interior",
        "Brandon Freeman",
    ]
    assert names(su, [("name", "!=", "Colleen Diaz")]) == [
        "Azure Interior",
        "Brandon Freeman",
        "Gemini Furniture",
    ]


def test_like_family(su: Environment, partners: dict[str, Any]) -> None:
    assert names(su, [("name", "ilike", "AZU")]) == ["Azure Interior"]
    assert names(su, [("name", "like", "AZU")]) == []
    assert names(su, [("name", "not ilike", "a")]) == ["Gemini Furniture"]
    assert names(su, [("name", "not ilike", "z")]) == ["Brandon Freeman", "Gemini Furniture"]
    assert names(su, [("email", "=ilike", "%@AZURE.example.com")]) == [
        "Azure Interior",
        "Brandon Freeman",
    ]
    assert names(su, [("email", "=like", "info%")]) == ["Azure Interior"]
    assert names(su, [("name", "=ilike", "azure")]) == []
    # an empty value never matches like, but matches not like
    assert "Colleen Diaz" in names(su, [("email", "not ilike", "example")])


def test_like_regex_escapes() -> None:
    assert like_regex("50\\%", False, False).fullmatch("50%")
    assert not like_regex("50\\%", False, False).fullmatch("500")
    assert like_regex("a_c", False, False).fullmatch("abc")
    assert like_regex("a.c", True, False).fullmatch("xa.cx")
    assert not like_regex("a.c", True, False).fullmatch("abc")


def test_false_semantics(su: Environment, partners: dict[str, Any]) -> None:
    assert names(su, [("parent_id", "=", False), ("is_company", "=", False)]) == []
    assert names(su, [("parent_id", "!=", False)]) == ["Brandon Freeman", "Colleen Diaz"]
    assert names(su, [("email", "=", False)]) == ["Colleen Diaz", "Gemini Furniture"]
    assert names(su, [("email", "in", [False, "info@azure.example.com"])]) == [
        "Azure Interior",
        "Colleen Diaz",
        "Gemini Furniture",
    ]
    assert names(su, [("category_id", "=", False)]) == ["Brandon Freeman", "Gemini Furniture"]
    assert names(su, [("child_ids", "!=", False)]) == ["Azure Interior"]
    assert match_value("boolean", False, "=", False) and not match_value(
        "boolean", True, "=", False
    )


def test_equal_question_mark(su: Environment, partners: dict[str, Any]) -> None:
    assert len(names(su, [("ref", "=?", False)])) == 4
    assert names(su, [("name", "=?", "Colleen Diaz")]) == ["Colleen Diaz"]


def test_prefix_operators(su: Environment, partners: dict[str, Any]) -> None:
    assert names(su, ["|", ("name", "=", "Colleen Diaz"), ("color", "=", 3)]) == [
        "Colleen Diaz",
        "Gemini Furniture",
    ]
    assert names(su, ["!", ("is_company", "=", True)]) == ["Brandon Freeman", "Colleen Diaz"]
    explicit = names(su, ["&", ("is_company", "=", True), ("country_id.code", "=", "US")])
    assert (
        explicit
        == names(su, [("is_company", "=", True), ("country_id.code", "=", "US")])
        == ["Azure Interior"]
    )


def test_dotted_paths(su: Environment, partners: dict[str, Any]) -> None:
    assert names(su, [("country_id.code", "in", ["US", "BE"]), ("is_company", "=", True)]) == [
        "Azure Interior",
        "Gemini Furniture",
    ]
    assert names(su, [("parent_id.country_id.code", "=", "US")]) == [
        "Brandon Freeman",
        "Colleen Diaz",
    ]
    assert names(su, [("category_id.name", "=", "Prospect")]) == ["Colleen Diaz"]
    assert names(su, [("child_ids.name", "ilike", "brandon")]) == ["Azure Interior"]
    # a negative operator on an x2many path: no related record matches the positive one
    assert names(su, [("category_id.name", "!=", "Prospect")]) == [
        "Azure Interior",
        "Brandon Freeman",
        "Gemini Furniture",
    ]


def test_any_and_not_any(su: Environment, partners: dict[str, Any]) -> None:
    assert names(su, [("child_ids", "any", [("email", "!=", False)])]) == ["Azure Interior"]
    assert names(su, [("category_id", "not any", [("name", "=", "Vip")])]) == [
        "Brandon Freeman",
        "Gemini Furniture",
    ]
    assert names(su, [("country_id", "any", [("code", "=", "BE")])]) == ["Gemini Furniture"]


def test_any_is_unknown_before_17(partners: dict[str, Any]) -> None:
    from orm_testdb import make_db

    env = make_db("16.0").env(ADMIN)
    with pytest.raises(ValueError, match="Invalid operator"):
        env["res.partner"].search([("child_ids", "any", [])])


def test_relational_compared_with_a_name(su: Environment, partners: dict[str, Any]) -> None:
    assert names(su, [("parent_id", "ilike", "azure")]) == ["Brandon Freeman", "Colleen Diaz"]
    assert names(su, [("country_id", "=", "Belgium")]) == ["Gemini Furniture"]
    assert names(su, [("parent_id", "not ilike", "azure")]) == [
        "Azure Interior",
        "Gemini Furniture",
    ]


def test_child_of_and_parent_of(su: Environment, partners: dict[str, Any]) -> None:
    azure, brandon = partners["azure"], partners["brandon"]
    family = ["Azure Interior", "Brandon Freeman", "Colleen Diaz"]
    assert names(su, [("id", "child_of", azure.id)]) == family
    assert names(su, [("id", "child_of", [azure.id, partners["gemini"].id])]) == [
        *family,
        "Gemini Furniture",
    ]
    assert names(su, [("id", "child_of", "Azure Interior")]) == family
    assert names(su, [("parent_id", "child_of", azure.id)]) == ["Brandon Freeman", "Colleen Diaz"]
    assert names(su, [("id", "parent_of", brandon.id)]) == ["Azure Interior", "Brandon Freeman"]
    orders = su["test.order"]
    order = orders.create({"partner_id": brandon.id})
    assert orders.search([("partner_id", "child_of", azure.id)]) == order


def test_child_of_without_hierarchy(su: Environment, partners: dict[str, Any]) -> None:
    with pytest.raises(ValueError) as info:
        su["res.country"].search_count([("id", "child_of", partners["us"].id)])
    us = partners["us"].id
    assert (
        str(info.value) == "Invalid field res.country.parent_id in condition "
        f"('parent_id', 'in', OrderedSet([{us}]))"
    )


def test_active_test(call: Call, partners: dict[str, Any]) -> None:
    assert call(ADMIN, "res.partner", "search_count", []) == 4
    # 4 active + the archived probe + the 2 archived partners of the users
    assert call(ADMIN, "res.partner", "search_count", [], context={"active_test": False}) == 7
    assert call(ADMIN, "res.partner", "search_count", [("active", "=", False)]) == 3
    assert call(ADMIN, "res.partner", "search_count", [("active", "in", [True, False])]) == 7
    assert call(ADMIN, "res.partner", "search_count", [], limit=2) == 2
    archived = partners["archived"].id
    assert call(ADMIN, "res.partner", "search", [("name", "=", "Archived probe")]) == []
    assert call(ADMIN, "res.partner", "read", [archived], ["active"]) == [
        {"id": archived, "active": False}
    ]


def test_display_name_search(su: Environment, partners: dict[str, Any]) -> None:
    # res.partner searches name and email (_rec_names_search); test.tag computes display names
    assert names(su, [("display_name", "ilike", "brandon@")]) == ["Brandon Freeman"]
    assert su["test.tag"].search([("display_name", "=", "Vip")]) == partners["vip"]


def test_dotted_paths_work_before_any_exists() -> None:
    # Odoo 16 has no user-facing `any` operator, yet dotted paths through relations work.
    db = make_db("16.0")
    env = db.env(ADMIN)
    us = env["res.country"].create({"name": "United States", "code": "US"})
    be = env["res.country"].create({"name": "Belgium", "code": "BE"})
    azure = env["res.partner"].create({"name": "Azure Interior", "country_id": us.id})
    env["res.partner"].create({"name": "Gemini Furniture", "country_id": be.id})
    assert env["res.partner"].search([("country_id.code", "=", "US")]).ids == [azure.id]
    with pytest.raises(ValueError, match="Invalid operator"):
        env["res.partner"].search([("country_id", "any", [("code", "=", "US")])])
