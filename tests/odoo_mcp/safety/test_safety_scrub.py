"""SPEC-11 §3 (issue 26): the answer scrub, the second line behind the field checks."""

from __future__ import annotations

from odoo_mcp.safety.scrub import scrub

BLOCKED = frozenset({"email", "email_normalized"})


def test_keys_naming_blocked_fields_are_dropped_and_logged() -> None:
    warnings: list[str] = []
    answer = {"records": [{"id": 1, "email": "a@b.c", "name": "A"}], "count": 1}
    cleaned = scrub(answer, BLOCKED, "tool t", warn=lambda *a: warnings.append(a[0] % a[1:]))
    assert cleaned == {"records": [{"id": 1, "name": "A"}], "count": 1}
    assert answer["records"][0]["email"] == "a@b.c"  # the input is left as it was
    assert warnings and "$.records[0].email" in warnings[0] and "tool t" in warnings[0]


def test_domains_over_blocked_fields_are_dropped() -> None:
    group = {"is_company": True, "__domain": [["email_normalized", "=", "x@y.z"]], "n": 2}
    assert scrub([group], BLOCKED, "c") == [{"is_company": True, "n": 2}]
    leaves = ["&", ["name", "=", "a"], ["partner_id.email", "ilike", "q"]]
    assert scrub({"result": leaves}, BLOCKED, "c") == {}


def test_a_clean_answer_is_returned_as_the_same_object() -> None:
    answer = {"records": [{"id": 1, "name": "A", "tags": [["name", "=", "x"]]}]}
    assert scrub(answer, BLOCKED, "c") is answer


def test_keys_of_a_contract_schema_are_kept_but_domains_are_not() -> None:
    answer = {"customers": [{"email": ""}], "domain": [["email", "=", "x"]]}
    assert scrub(answer, BLOCKED, "c", keys=False) == {"customers": [{"email": ""}]}
