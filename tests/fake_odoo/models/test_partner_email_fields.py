"""res.partner's ``email_normalized`` (stored, searchable) and ``email_formatted`` (computed on
read), as Odoo 19 computes them from ``email`` and ``name``; metadata as captured from Odoo 19."""

from __future__ import annotations

import json
from pathlib import Path

from fake_odoo.handle import FakeOdoo

CAPTURE = (
    Path(__file__).resolve().parents[2] / "fixtures" / "odoo19" / "meta_fields_get_res_partner.json"
)
ATTRIBUTES = ["string", "type", "required", "readonly", "store", "help", "searchable", "sortable"]
FIELDS = ["name", "email", "email_normalized", "email_formatted"]


def test_values_follow_email_and_name(fake_odoo: FakeOdoo) -> None:
    pid = fake_odoo.create("res.partner", {"name": 'Ann "A" Lee', "email": "Ann <Ann.Lee@Ex.COM>"})
    [row] = fake_odoo.read("res.partner", [pid], FIELDS)
    assert row["email_normalized"] == "ann.lee@ex.com"
    assert row["email_formatted"] == '"Ann \\"A\\" Lee" <ann.lee@ex.com>'
    fake_odoo.edit("res.partner", pid, {"email": "two@x.com, three@y.com"})
    [row] = fake_odoo.read("res.partner", [pid], FIELDS)
    assert row["email_normalized"] is False  # strict: more than one address
    assert row["email_formatted"] == '"Ann \\"A\\" Lee" <two@x.com,three@y.com>'
    fake_odoo.edit("res.partner", pid, {"email": False, "name": "Bob"})
    [row] = fake_odoo.read("res.partner", [pid], FIELDS)
    assert (row["email_normalized"], row["email_formatted"]) == (False, False)


def test_normalized_is_searchable_and_sortable(fake_odoo: FakeOdoo) -> None:
    pid = fake_odoo.create("res.partner", {"name": "Zed", "email": "ZED@Unique.example"})
    found = fake_odoo.call(
        "res.partner", "search", [["email_normalized", "=", "zed@unique.example"]]
    )
    assert found == [pid]
    ordered = fake_odoo.call("res.partner", "search", [], order="email_normalized desc")
    assert len(ordered) == fake_odoo.call("res.partner", "search_count", [])


def test_demo_partners_have_normalized_addresses(fake_odoo: FakeOdoo) -> None:
    rows = fake_odoo.call("res.partner", "search_read", [["email", "!=", False]], fields=FIELDS)
    assert rows
    for row in rows:
        assert row["email_normalized"] == row["email"].lower()
        assert row["email_formatted"] == f'"{row["name"]}" <{row["email"].lower()}>'


def test_metadata_matches_odoo_19(fake_odoo: FakeOdoo) -> None:
    got = fake_odoo.call(
        "res.partner",
        "fields_get",
        ["email_normalized", "email_formatted"],
        attributes=[*ATTRIBUTES, "depends"],
    )
    assert got["email_normalized"].pop("depends") == ["email"]
    assert got["email_formatted"].pop("depends") == ["name", "email"]
    real = json.loads(CAPTURE.read_text())["result"]
    for name in ("email_normalized", "email_formatted"):
        assert got[name] == real[name]
