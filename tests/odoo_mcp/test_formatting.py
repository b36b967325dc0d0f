"""SPEC-04 §4: normalization of raw Odoo values on real Odoo 19 field metadata."""

from __future__ import annotations

import base64
from datetime import datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from odoo19_meta import KNOWN_MODELS, fields_of, fixture

from odoo_mcp.formatting import (
    FormatOptions,
    normalize_datetime,
    normalize_many2one,
    normalize_record,
    normalize_records,
    normalize_value,
    strip_html,
)
from odoo_mcp.registry import FieldInfo
from odoo_mcp.safety.policy import SafetyPolicy

ORDER = fields_of("sale.order")
PARTNER = fields_of("res.partner")


def field(kind: str, name: str = "f") -> FieldInfo:
    return FieldInfo(name=name, type=kind)


def test_captured_sale_orders_are_normalized() -> None:
    rows = fixture("ok_xmlrpc_sale_order_search_read")["result"]
    first = normalize_records(rows, ORDER)[0]
    assert first == {
        "id": 1,
        "name": "S00001",
        "partner_id": {"id": 9, "name": "Acme Corporation"},
        "state": "draft",
        "amount_total": 1740.0,
        "date_order": "2026-10-22T07:52:00Z",
        "order_line": [1, 2, 3],
        "user_id": {"id": 5, "name": "Marc Demo"},
    }


def test_captured_partner_read_gets_iso_datetimes() -> None:
    row = fixture("ok_xmlrpc_partner_read")["result"][0]
    out = normalize_record(row, PARTNER)
    assert out["create_date"] == "2026-11-22T07:58:32Z"
    assert out["active"] is True and out["phone"] == "+1 555 0100"


def test_false_many2one_becomes_null() -> None:
    assert normalize_value(False, ORDER["partner_id"]) is None


def test_false_empty_values_follow_the_spec_table() -> None:
    row = {
        "id": 3, "client_order_ref": False, "commitment_date": False, "validity_date": False,
        "tag_ids": False, "note": False, "partner_id": False, "invoice_status": False,
        "locked": False, "amount_total": 0.0,
    }  # fmt: skip
    assert normalize_record(row, ORDER) == {
        "id": 3, "client_order_ref": "", "commitment_date": None, "validity_date": None,
        "tag_ids": [], "note": "", "partner_id": None, "invoice_status": None,
        "locked": False, "amount_total": 0.0,
    }  # fmt: skip


def test_html_is_stripped_to_text_by_default() -> None:
    html = "<p>Dear <b>customer</b>,</p><ul><li>one &amp; two</li></ul><script>x()</script>"
    assert normalize_value(html, ORDER["note"]) == "Dear customer,\n\n- one & two"
    kept = normalize_value(html, ORDER["note"], FormatOptions(strip_html=False))
    assert kept == html


def test_binary_fields_are_dropped_unless_named() -> None:
    row = {"id": 7, "name": "Azure", "image_128": "iVBORw0KGgo=", "avatar_128": False}
    assert normalize_record(row, PARTNER) == {"id": 7, "name": "Azure"}
    assert normalize_record(row, PARTNER, requested=["*"]) == {"id": 7, "name": "Azure"}
    named = normalize_record(row, PARTNER, requested=["name", "image_128"])
    assert named == {"id": 7, "name": "Azure", "image_128": "iVBORw0KGgo="}


def test_binary_bytes_become_base64() -> None:
    assert normalize_value(b"\x89PNG", field("binary")) == base64.b64encode(b"\x89PNG").decode()


def test_many2one_options_and_shapes() -> None:
    m2o = ORDER["partner_id"]
    assert normalize_value([9, "Acme"], m2o, FormatOptions(normalize_many2one=False)) == [9, "Acme"]
    assert normalize_many2one(9) == {"id": 9, "name": None}
    assert normalize_many2one([9, False]) == {"id": 9, "name": None}
    assert normalize_many2one({"id": 9, "name": "Acme"}) == {"id": 9, "name": "Acme"}


def test_unknown_fields_pass_unchanged() -> None:
    assert normalize_record({"x_custom": [1, "A"]}, PARTNER) == {"x_custom": [1, "A"]}


@pytest.mark.parametrize("model", KNOWN_MODELS)
def test_false_normalizes_for_every_captured_field(model: str) -> None:
    for info in fields_of(model).values():
        value = normalize_value(False, info)
        expected: Any = {
            "boolean": False, "one2many": [], "many2many": [], "char": "", "text": "", "html": "",
        }.get(info.type)  # fmt: skip
        assert value == expected, (model, info.name, info.type)


# -- properties (Hypothesis) --------------------------------------------------------------------

TYPES = sorted({info.type for model in KNOWN_MODELS for info in fields_of(model).values()})
_ids = st.integers(min_value=1, max_value=10**6)
_moments = st.datetimes(min_value=datetime(1000, 1, 1))  # Odoo writes 4-digit years
_text = st.text(alphabet=st.characters(blacklist_characters="<&"), max_size=20)
_raw = {
    "many2one": st.just(False) | st.tuples(_ids, st.text(max_size=8)).map(list) | _ids,
    "one2many": st.just(False) | st.lists(_ids, max_size=4),
    "many2many": st.just(False) | st.lists(_ids, max_size=4),
    "datetime": st.just(False) | _moments.map(lambda d: d.strftime("%Y-%m-%d %H:%M:%S")),
    "date": st.just(False) | st.dates().map(str),
    "html": st.just(False) | _text | _text.map(lambda t: f"<p>{t}</p>"),
}
_fallback = st.one_of(
    st.just(False), st.text(max_size=8), st.integers(), st.floats(allow_nan=False)
)


@given(st.sampled_from(TYPES).flatmap(lambda t: st.tuples(st.just(t), _raw.get(t, _fallback))))
def test_normalizing_twice_changes_nothing(case: tuple[str, Any]) -> None:
    kind, raw = case
    once = normalize_value(raw, field(kind))
    assert normalize_value(once, field(kind)) == once
    assert once is not False or kind == "boolean"


@given(_moments)
def test_datetimes_always_end_in_z(moment: datetime) -> None:
    out = normalize_datetime(moment.strftime("%Y-%m-%d %H:%M:%S"))
    assert out == moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@given(_text)
def test_stripping_plain_text_is_stable(text: str) -> None:
    once = strip_html(text)
    assert strip_html(once) == once
    assert "<" not in once


#: odd values the column loops must hand to the one-value functions: null, tuples, bools
ODD_VALUES: list[Any] = [None, True, False, (3, "Tuple"), [True, "x"], [4, 5], [6, None], "x", 1.5]
_odd = st.sampled_from(ODD_VALUES)
_every_key = {kind: _raw.get(kind, _fallback) | _odd for kind in TYPES}


@given(
    st.lists(st.fixed_dictionaries(_every_key), max_size=5)
    # rows of other keys (some missing, in another order): the one-value path
    | st.lists(st.fixed_dictionaries({}, optional=_every_key), max_size=5),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
@settings(max_examples=300, derandomize=True, deadline=None)
def test_records_normalize_as_their_values_do(
    rows: list[dict[str, Any]], strip: bool, many2one: bool, binary_named: bool
) -> None:
    # REQ-04-35: the per-answer plan (issue 30: one field down its column) gives what each
    # value gives, in each row's key order; REQ-04-36: binary only when named
    fields = {kind: field(kind, kind) for kind in TYPES}
    options = FormatOptions(strip_html=strip, normalize_many2one=many2one)
    requested = ["binary"] if binary_named else None
    expected = [
        {
            name: normalize_value(value, fields[name], options)
            for name, value in row.items()
            if name != "binary" or binary_named
        }
        for row in rows
    ]
    before = [dict(row) for row in rows]
    normalized = normalize_records(rows, fields, requested=requested, options=options)
    assert normalized == expected
    assert [list(row) for row in normalized] == [list(row) for row in expected]
    assert rows == before  # the raw rows are not changed


def test_odd_values_down_a_column_normalize_as_alone() -> None:
    # issue 30: every odd value in every field of a two-row answer (the column loops' path)
    fields = {kind: field(kind, kind) for kind in TYPES}
    for odd in ODD_VALUES:
        rows = [{kind: odd for kind in TYPES if kind != "binary"}] * 2
        expected = [{k: normalize_value(v, fields[k]) for k, v in row.items()} for row in rows]
        assert normalize_records(rows, fields) == expected, odd


def test_an_answer_without_blocked_fields_is_not_copied() -> None:
    # REQ-11-14: each field name checked once per answer; nothing to drop, nothing copied
    policy = SafetyPolicy(field_blocklist=["phone"])
    rows = [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}]
    assert policy.strip_records("res.partner", rows) is rows
    stripped = policy.strip_records("res.partner", [{"id": 1, "phone": "+1"}, {"id": 2}])
    assert stripped == [{"id": 1}, {"id": 2}]
