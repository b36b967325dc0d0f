"""The feature files' path and subset-match language."""

from __future__ import annotations

from odoo_mcp_conformance.jsonpath import MISSING, lookup, matches

DATA = {"records": [{"id": 1, "partner_id": {"id": 7, "name": "Azure"}}, {"id": 2}], "n": 2}


def test_lookup_paths() -> None:
    assert lookup(DATA, "records[0].partner_id.name") == "Azure"
    assert lookup(DATA, "records[*].id") == [1, 2]
    assert lookup(DATA, "records[5]") is MISSING
    assert lookup(DATA, "records[1].partner_id") is MISSING
    assert lookup(DATA, "") is DATA


def test_lookup_by_a_keys_value() -> None:
    assert lookup(DATA, "records[id=2]") == {"id": 2}
    assert lookup(DATA, "records[id=1].partner_id.name") == "Azure"
    assert lookup(DATA, "records[id=3]") is MISSING
    assert lookup(DATA, "records[name=x]") is MISSING  # no item has the key
    assert lookup({"records": {"id": 1}}, "records[id=1]") is MISSING  # not a list


def test_subset_matching() -> None:
    assert matches(DATA, {"n": 2, "records": [{"id": 1}, {"id": 2}]})
    assert not matches(DATA, {"records": [{"id": 1}]})  # lists match elementwise, same length
    assert matches(DATA, {"records": "<list>", "n": "<int>"})
    assert not matches({"ok": True}, {"ok": 1})  # booleans are not numbers
    assert not matches({"n": True}, {"n": "<int>"})
    assert not matches({}, {"n": "<any>"})
