"""``fields_get`` of Odoo 17.0 where it differs from 19's, checked on both versions.

Facts from tests/fixtures/odoo17/meta_fields_get_*.json and
ok_xmlrpc_sale_order_fields_get_full_attrs_subset.json (real 17.0) against the same odoo19
captures: 17 has no ``groupable``/``allow_hierachy_operators``, says ``group_operator``, has
no search on ``display_name``, keeps company-dependent fields out of columns, sorts related
fields only when ``_inherits`` made them, and labels some fields otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest

from fake_odoo.demo import build_database
from fake_odoo.orm.service import call_kw

ADMIN = 2


def _fields_get(version: str, model: str, names: list[str]) -> dict[str, Any]:
    db = build_database(version=version)
    result: dict[str, Any] = call_kw(db, ADMIN, model, "fields_get", [names], {})
    return result


@pytest.mark.parametrize(("version", "searchable"), [("17.0", False), ("19.0", True)])
def test_display_name_is_searchable_from_18(version: str, searchable: bool) -> None:
    desc = _fields_get(version, "res.partner", ["display_name"])["display_name"]
    assert desc["searchable"] is searchable


def test_17_has_no_groupable_nor_hierarchy_flag_and_says_group_operator() -> None:
    old = _fields_get("17.0", "sale.order", ["partner_id", "amount_total"])
    new = _fields_get("19.0", "sale.order", ["partner_id", "amount_total"])
    assert "groupable" not in old["partner_id"]
    assert "allow_hierachy_operators" not in old["partner_id"]
    assert old["amount_total"]["group_operator"] == "sum"
    assert "aggregator" not in old["amount_total"]
    assert new["partner_id"]["groupable"] is True
    assert new["partner_id"]["allow_hierachy_operators"] is True
    assert new["amount_total"]["aggregator"] == "sum"


@pytest.mark.parametrize(
    ("model", "name", "sortable_17"),
    [
        ("res.partner", "parent_name", False),  # a plain related field
        ("res.company", "vat", False),
        ("product.product", "name", True),  # _inherits product.template
        ("res.users", "name", True),  # _inherits res.partner
    ],
)
def test_17_sorts_related_fields_only_through_inherits(
    model: str, name: str, sortable_17: bool
) -> None:
    assert _fields_get("17.0", model, [name])[name]["sortable"] is sortable_17
    assert _fields_get("19.0", model, [name])[name]["sortable"] is True


def test_17_company_dependent_fields_are_not_columns() -> None:
    old = _fields_get("17.0", "res.partner", ["credit_limit", "property_payment_term_id"])
    new = _fields_get("19.0", "res.partner", ["credit_limit", "property_payment_term_id"])
    for name in ("credit_limit", "property_payment_term_id"):
        assert (old[name]["store"], old[name]["sortable"], old[name]["searchable"]) == (
            False,
            False,
            True,
        )
        assert old[name]["company_dependent"] is True
        assert (new[name]["store"], new[name]["sortable"]) == (True, True)


def test_17_labels_and_help_from_the_table() -> None:
    old = _fields_get("17.0", "res.partner", ["type", "company_type"])
    new = _fields_get("19.0", "res.partner", ["type", "company_type"])
    assert old["type"]["selection"][1] == ["invoice", "Invoice Address"]
    assert new["type"]["selection"][1] == ["invoice", "Invoice"]
    assert old["company_type"]["selection"][0] == ["person", "Individual"]
    assert new["company_type"]["selection"][0] == ["person", "Person"]
    assert "help" in old["type"] and "help" not in new["type"]
    product_17 = _fields_get("17.0", "product.template", ["type", "sale_ok"])
    product_19 = _fields_get("19.0", "product.template", ["type", "sale_ok"])
    assert "help" not in product_17["type"] and "help" in product_19["type"]
    assert (product_17["sale_ok"]["string"], product_19["sale_ok"]["string"]) == (
        "Can be Sold",
        "Sales",
    )


def test_17_sale_order_amount_to_invoice_is_a_column() -> None:
    old = _fields_get("17.0", "sale.order", ["amount_to_invoice"])["amount_to_invoice"]
    new = _fields_get("19.0", "sale.order", ["amount_to_invoice"])["amount_to_invoice"]
    assert (old["store"], old["string"]) == (True, "Amount to invoice")
    assert (new["store"], new["string"]) == (False, "Un-invoiced Balance")
