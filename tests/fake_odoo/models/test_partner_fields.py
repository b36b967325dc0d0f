"""The fields a plain ``read`` of ``res.partner`` returns beyond the fake's core ones.

odoo19/ok_json2_search_read_limit_string.json: a ``search_read`` without ``fields`` returns
every field; the ones of the modules the fake imitates are there, described as
odoo19/meta_fields_get_res_partner.json describes them (17.0 as odoo17/'s capture does).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from model_fixtures import Call, make_call

from fake_odoo.demo import build_database

ADMIN = 2
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
ATTRS = ["string", "type", "required", "readonly", "store", "relation", "searchable", "sortable"]


def _call(version: str = "19.0") -> Call:
    return make_call(build_database(version=version))


def _capture(version: str, name: str) -> Any:
    return json.loads((FIXTURES / version / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("version", ["odoo17", "odoo19"])
def test_every_field_described_as_real_odoo_describes_it(version: str) -> None:
    real = _capture(version, "meta_fields_get_res_partner.json")["result"]
    call = _call("17.0" if version == "odoo17" else "19.0")
    fake = call(ADMIN, "res.partner", "fields_get", attributes=ATTRS)
    for name in sorted(set(real) & set(fake)):
        want = {k: v for k, v in real[name].items() if k in ATTRS}
        assert fake[name] == want, name


def test_plain_read_returns_the_modules_fields() -> None:
    keys = set(_capture("odoo19", "ok_json2_search_read_limit_string.json")["response"][0])
    record = _call()(ADMIN, "res.partner", "search_read", [], limit=1)[0]
    assert set(record) <= keys
    assert {"image_128", "credit", "currency_id", "property_stock_customer", "trust"} <= set(record)
    assert len(record) > 110


def test_fields_new_after_17_are_absent_there() -> None:
    record = _call("17.0")(ADMIN, "res.partner", "search_read", [], limit=1)[0]
    assert "autopost_bills" not in record and "main_user_id" not in record
    assert "credit" in record and "partner_latitude" in record


def test_credit_is_the_posted_receivable_and_searchable() -> None:
    call = _call()
    ids = call(ADMIN, "res.partner", "search", [("credit", ">", 0)])
    assert ids
    partner = call(ADMIN, "res.partner", "read", ids[:1], ["credit", "commercial_partner_id"])[0]
    moves = call(
        ADMIN,
        "account.move",
        "search_read",
        [
            ("partner_id", "child_of", partner["commercial_partner_id"][0]),
            ("state", "=", "posted"),
            ("move_type", "=", "out_invoice"),
        ],
        ["amount_residual"],
    )
    assert partner["credit"] == pytest.approx(sum(m["amount_residual"] for m in moves))


def test_settable_computed_fields_write_their_stored_field() -> None:
    call = _call()
    pid = call(ADMIN, "res.partner", "create", {"name": "Pricelist Buyer"})
    call(ADMIN, "res.partner", "write", [pid], {"property_product_pricelist": 1})
    got = call(ADMIN, "res.partner", "read", [pid], ["property_product_pricelist"])[0]
    assert got["property_product_pricelist"][0] == 1


def test_partner_share_and_counts() -> None:
    call = _call()
    admin_partner = call(ADMIN, "res.users", "read", [ADMIN], ["partner_id"])[0]["partner_id"][0]
    customer = call(ADMIN, "res.partner", "search", [("sale_order_ids", "!=", False)], limit=1)
    rows = call(
        ADMIN,
        "res.partner",
        "read",
        [admin_partner, customer[0]],
        ["partner_share", "sale_order_count", "self"],
    )
    assert [r["partner_share"] for r in rows] == [False, True]
    assert rows[1]["sale_order_count"] >= 1
    assert rows[1]["self"][0] == customer[0]
