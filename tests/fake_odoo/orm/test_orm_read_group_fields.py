"""read_group / formatted_read_group shapes and fields_get attributes (Odoo 19)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from orm_testdb import ADMIN, DEMO, Call

from fake_odoo.orm.database import Environment


@pytest.fixture
def orders(su: Environment, partners: dict[str, Any]) -> list[int]:
    def make(partner: str, state: str, total: float, date: str, user: int | bool) -> int:
        order = su["test.order"].create(
            {
                "partner_id": partners[partner].id,
                "date_order": date,
                "user_id": user,
                "order_line": [(0, 0, {"name": "L", "price_unit": total})],
            }
        )
        order.write({"state": state})
        return int(order.id)

    return [
        make("azure", "draft", 100.0, "2026-10-03 10:00:00", ADMIN),
        make("azure", "sale", 200.1, "2026-10-20 10:00:00", ADMIN),
        make("gemini", "sale", 300.2, "2026-11-02 10:00:00", 3),
        make("gemini", "draft", 50.0, "2026-11-05 10:00:00", False),
    ]


def test_read_group_not_lazy(call: Call, orders: list[int]) -> None:
    rows = call(ADMIN, "test.order", "read_group", [], ["amount_total:sum"], ["state"], lazy=False)
    assert rows == [
        {
            "state": "draft",
            "__count": 2,
            "amount_total": 150.0,
            "__domain": [["state", "=", "draft"]],
        },
        {
            "state": "sale",
            "__count": 2,
            "amount_total": 500.3,
            "__domain": [["state", "=", "sale"]],
        },
    ]


def test_read_group_lazy_with_context_and_domain(
    call: Call, orders: list[int], partners: dict[str, Any]
) -> None:
    rows = call(
        ADMIN,
        "test.order",
        "read_group",
        [("amount_total", ">", 60)],
        ["amount_total"],
        ["partner_id", "state"],
    )
    azure, gemini = partners["azure"].id, partners["gemini"].id
    assert rows == [
        {
            "partner_id": [azure, "Azure Interior"],
            "partner_id_count": 2,
            "amount_total": 300.1,
            "__domain": ["&", ["amount_total", ">", 60], ["partner_id", "=", azure]],
            "__context": {"group_by": ["state"]},
        },
        {
            "partner_id": [gemini, "Gemini Furniture"],
            "partner_id_count": 1,
            "amount_total": 300.2,
            "__domain": ["&", ["amount_total", ">", 60], ["partner_id", "=", gemini]],
            "__context": {"group_by": ["state"]},
        },
    ]


def test_read_group_two_levels_and_false_group(call: Call, orders: list[int]) -> None:
    rows = call(ADMIN, "test.order", "read_group", [], [], ["state", "user_id"], lazy=False)
    assert [(r["state"], r["user_id"], r["__count"]) for r in rows] == [
        ("draft", [ADMIN, "Mitchell Admin"], 1),
        ("draft", False, 1),
        ("sale", [3, "Marc Demo"], 1),
        ("sale", [ADMIN, "Mitchell Admin"], 1),
    ]
    assert rows[1]["__domain"] == ["&", ["state", "=", "draft"], ["user_id", "=", False]]


def test_read_group_by_month(call: Call, orders: list[int]) -> None:
    rows = call(
        ADMIN,
        "test.order",
        "read_group",
        [],
        ["amount_total:sum"],
        ["date_order:month"],
        lazy=False,
    )
    assert rows[0] == {
        "date_order:month": "October 2026",
        "__count": 2,
        "amount_total": 300.1,
        "__domain": [
            "&",
            ["date_order", ">=", "2026-10-01 00:00:00"],
            ["date_order", "<", "2026-11-01 00:00:00"],
        ],
        "__range": {
            "date_order:month": {"from": "2026-10-01 00:00:00", "to": "2026-11-01 00:00:00"}
        },
    }
    assert rows[1]["date_order:month"] == "November 2026"
    years = call(ADMIN, "test.order", "read_group", [], [], ["date_order:year"], lazy=False)
    assert [(r["date_order:year"], r["__count"]) for r in years] == [("2026", 4)]


def test_read_group_order_limit_and_errors(call: Call, orders: list[int]) -> None:
    rows = call(
        ADMIN,
        "test.order",
        "read_group",
        [],
        ["amount_total:max"],
        ["state"],
        orderby="amount_total desc",
        limit=1,
        lazy=False,
    )
    assert [(r["state"], r["amount_total"]) for r in rows] == [("sale", 300.2)]
    with pytest.raises(ValueError) as info:
        call(
            ADMIN, "test.order", "read_group", [], ["amount_total:sum"], ["access_url"], lazy=False
        )
    assert str(info.value) == "Cannot convert test.order.access_url to SQL because it is not stored"


def test_formatted_read_group(call: Call, orders: list[int]) -> None:
    rows = call(
        ADMIN,
        "test.order",
        "formatted_read_group",
        [],
        groupby=["state"],
        aggregates=["amount_total:sum", "__count"],
    )
    assert rows == [
        {
            "state": "draft",
            "__extra_domain": [["state", "=", "draft"]],
            "amount_total:sum": 150.0,
            "__count": 2,
        },
        {
            "state": "sale",
            "__extra_domain": [["state", "=", "sale"]],
            "amount_total:sum": 500.3,
            "__count": 2,
        },
    ]


def test_fields_get_full_attributes(call: Call) -> None:
    desc = call(
        ADMIN,
        "test.order",
        "fields_get",
        ["partner_id", "order_line", "amount_total", "state", "access_url"],
    )
    assert set(desc) == {"partner_id", "order_line", "amount_total", "state", "access_url"}
    common = {
        "change_default",
        "company_dependent",
        "default_export_compatible",
        "depends",
        "exportable",
        "groupable",
        "manual",
        "name",
        "readonly",
        "required",
        "searchable",
        "sortable",
        "store",
        "string",
        "type",
    }
    assert set(desc["state"]) == common | {"selection"}
    assert set(desc["partner_id"]) == common | {
        "relation",
        "context",
        "domain",
        "allow_hierachy_operators",
    }
    assert (
        desc["order_line"]["relation_field"] == "order_id"
        and desc["order_line"]["sortable"] is False
    )
    assert desc["order_line"]["groupable"] is False
    assert (
        desc["amount_total"]["aggregator"] == "sum"
        and desc["amount_total"]["currency_field"] == "currency_id"
    )
    assert desc["access_url"]["help"] == "Customer Portal URL"
    assert (
        desc["access_url"]["store"],
        desc["access_url"]["searchable"],
        desc["access_url"]["sortable"],
    ) == (False, False, False)
    assert desc["state"]["selection"] == [
        ["draft", "Quotation"],
        ["sale", "Sales Order"],
        ["cancel", "Cancelled"],
    ]


def test_fields_get_attribute_filter_and_magic_fields(call: Call, env: Environment) -> None:
    desc = call(
        ADMIN, "res.partner", "fields_get", attributes=["string", "type", "relation", "help"]
    )
    assert list(desc)[:2] == ["id", "display_name"]
    assert list(desc)[-4:] == ["create_uid", "create_date", "write_uid", "write_date"]
    assert desc["id"] == {"string": "ID", "type": "integer"}
    assert desc["create_uid"] == {
        "relation": "res.users",
        "string": "Created by",
        "type": "many2one",
    }
    assert desc["color"] == {"string": "Color Index", "type": "integer"}
    assert len(desc) == len(env["res.partner"]._fields)


def test_group_restricted_field_hidden(call: Call) -> None:
    assert "key" in call(ADMIN, "res.users.apikeys", "fields_get", attributes=["type"])
    assert "key" not in call(3, "res.users.apikeys", "fields_get", attributes=["type"])


def test_ir_model_served_from_registry(call: Call, env: Environment) -> None:
    rows = call(
        ADMIN,
        "ir.model",
        "search_read",
        [("model", "=", "test.order")],
        fields=["name", "model", "transient", "state"],
    )
    assert [(r["name"], r["model"], r["transient"], r["state"]) for r in rows] == [
        ("Sales Order", "test.order", False, "base")
    ]
    fields = call(
        ADMIN,
        "ir.model.fields",
        "search_read",
        [("model", "=", "test.order"), ("name", "=", "partner_id")],
        fields=["ttype", "relation", "required", "field_description"],
    )
    assert [(f["ttype"], f["relation"], f["required"], f["field_description"]) for f in fields] == [
        ("many2one", "res.partner", True, "Customer")
    ]
    # only "Access Rights" may read or change ir.model (base's ir.model.access.csv)
    with pytest.raises(Exception, match="not allowed to access 'Models'"):
        call(DEMO, "ir.model", "read", [rows[0]["id"]], ["name"])


def test_clock_and_version(env: Environment) -> None:
    db = env.db
    assert db.now() == datetime(2026, 11, 22, 8, 41, 17)
    assert db.version_info == {
        "server_version": "19.0",
        "server_version_info": [19, 0, 0, "final", 0, ""],
        "server_serie": "19.0",
        "protocol_version": 1,
    }
    assert env.ref("base.group_system").full_name == "Role / Administrator"
    with pytest.raises(ValueError, match="External ID not found"):
        env.ref("base.nope")
