"""SPEC-11 §3 (issue 26): the answer scrub, the second line behind the field checks."""

from __future__ import annotations

import json

import pydantic_core
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odoo_mcp.safety.scrub import scrub, scrub_to_json

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


# -- scrub_to_json (issue 30): the walk only when a blocked name occurs in the text -------------

_answers = st.recursive(
    st.none() | st.booleans() | st.integers() | st.sampled_from(["a", "email", "x.email", "é"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["id", "name", "email", "email_normalized", "q"]), inner)
        | st.tuples(
            st.sampled_from(["email", "a.email_normalized", "name"]), st.just("="), inner
        ).map(list)
    ),
    max_leaves=12,
)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(_answers, st.booleans())
def test_scrub_to_json_answers_what_the_walk_answers(answer: object, keys: bool) -> None:
    # REQ-11-14: the text check may only skip a walk that would drop nothing
    cleaned, encoded = scrub_to_json(answer, BLOCKED, "c", keys=keys, warn=lambda *a: None)
    assert cleaned == scrub(answer, BLOCKED, "c", keys=keys, warn=lambda *a: None)
    assert json.loads(encoded) == json.loads(pydantic_core.to_json(cleaned))


def test_a_text_without_blocked_names_is_not_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    import odoo_mcp.safety.scrub as module

    walked: list[object] = []
    monkeypatch.setattr(module, "scrub", lambda value, *a, **k: walked.append(value) or value)
    answer = {"records": [{"id": 1, "name": "A", "partner_id": {"id": 2, "name": "B"}}]}
    assert scrub_to_json(answer, BLOCKED, "c") == (answer, pydantic_core.to_json(answer))
    assert walked == []
    noted = {"records": [{"id": 1, "comment": "mail us at the email below"}]}
    assert scrub_to_json(noted, BLOCKED, "c")[0] is noted  # found in a note: walked, kept
    assert walked == [noted]


def test_names_json_would_escape_walk_every_answer() -> None:
    # a blocked name with a quote, a backslash, a control or non-ASCII character is written
    # otherwise in JSON text: the text cannot be searched for it
    for name in ('we"ird', "back\\slash", "tab\tname", "prénom", ""):
        cleaned, _ = scrub_to_json({name: 1, "id": 2}, frozenset({name}), "c", warn=print)
        assert cleaned == {"id": 2}, name
