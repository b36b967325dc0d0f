"""A database without some modules (issue 15): what real Odoo 19 serves when stock is absent.

The unknown-model captures of real Odoo 19 (``no.such.model`` on every protocol) are replayed
with ``stock.picking`` in its place against a fake without ``stock``: the answer must be the
capture's, with the model name substituted.  The same calls on the full demo database succeed.
"""

from __future__ import annotations

import json
import xmlrpc.client
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from replay import Replayer, load_capture, steps_of
from replay_outcome import compare, expected_outcome

from fake_odoo import FakeOdoo
from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.orm.modules import uninstalled_closure
from fake_odoo.testing import serve_fake_odoo

pytestmark = pytest.mark.wire

UNKNOWN_MODEL_CAPTURES = (
    "err_xmlrpc_unknown_model.json",
    "err_xmlrpc1_unknown_model.json",
    "err_xmlrpc_unknown_model_fields_get.json",
    "err_jsonrpc_unknown_model.json",
    "err_callkw_unknown_model.json",
    "err_json2_unknown_model.json",
)
STOCK_FAMILY = ["sale_stock", "stock", "stock_sms"]


@pytest.fixture(scope="module")
def no_stock() -> Iterator[FakeOdoo]:
    with serve_fake_odoo(fake=FakeOdoo("19.0", without=["stock"])) as fake:
        yield fake


def _renamed(value: Any, model: str) -> Any:
    """The capture with ``no.such.model`` (and its table name) replaced by ``model``."""
    text = json.dumps(value).replace("no.such.model", model)
    return json.loads(text.replace("no_such_model", model.replace(".", "_")))


def _replay(fake: FakeOdoo, name: str, model: str) -> list[str]:
    replayer = Replayer(fake)
    differences: list[str] = []
    for step in steps_of(_renamed(load_capture(name), model)):
        differences += compare(expected_outcome(step), replayer.send(step))
    return differences


@pytest.mark.parametrize("name", UNKNOWN_MODEL_CAPTURES)
def test_a_stock_model_is_an_unknown_model(no_stock: FakeOdoo, name: str) -> None:
    """REQ-03-07: without stock, Odoo answers for stock.picking as for any unknown model."""
    assert _replay(no_stock, name, "stock.picking") == []


def test_the_full_database_serves_stock_picking(fake_odoo_server: FakeOdoo) -> None:
    # the control: with stock installed, the replayed unknown-model call answers data
    assert _replay(fake_odoo_server, "err_xmlrpc_unknown_model.json", "stock.picking") != []
    assert fake_odoo_server.call("stock.picking", "search_count", []) > 0


def test_the_modules_depending_on_stock_go_with_it(no_stock: FakeOdoo) -> None:
    assert no_stock.uninstalled == STOCK_FAMILY
    modules = no_stock.call(
        "ir.module.module", "search_read", [], fields=["name", "state", "latest_version"]
    )
    states = {row["name"]: row["state"] for row in modules}
    assert {name for name, state in states.items() if state == "uninstalled"} == set(STOCK_FAMILY)
    assert states["sale"] == states["product"] == "installed"
    assert [row["latest_version"] for row in modules if row["name"] == "stock"] == [False]
    installed = no_stock.call("ir.module.module", "search", [("state", "=", "installed")])
    assert len(installed) == len(modules) - len(STOCK_FAMILY)


def test_no_stock_model_or_bridge_field_remains(no_stock: FakeOdoo) -> None:
    models = no_stock.call("ir.model", "search_read", [], fields=["model"])
    names = {row["model"] for row in models}
    assert "sale.order" in names
    assert not {n for n in names if n.startswith("stock.") or n == "confirm.stock.sms"}
    order_fields = no_stock.call("sale.order", "fields_get", attributes=["type"])
    assert "picking_ids" not in order_fields
    assert "warehouse_id" not in order_fields
    assert "delivery_status" not in order_fields
    assert "partner_id" in order_fields
    product_fields = no_stock.call("product.product", "fields_get", attributes=["type"])
    assert "qty_available" not in product_fields
    assert "is_storable" not in product_fields
    company_fields = no_stock.call("res.company", "fields_get", attributes=["type"])
    assert "stock_text_confirmation" not in company_fields


def test_sales_work_without_stock(no_stock: FakeOdoo, proxy_no_stock: Any) -> None:
    """Every field of every order reads, and a confirmed order gets no delivery."""
    orders = proxy_no_stock("sale.order", "search_read", [[]])
    assert orders and all("picking_ids" not in order for order in orders)
    lines = proxy_no_stock("sale.order.line", "search_read", [[]])
    assert lines and all(line["qty_delivered"] == 0.0 for line in lines)
    products = proxy_no_stock("product.product", "search_read", [[]])
    assert products and all("qty_available" not in product for product in products)
    order_id = proxy_no_stock(
        "sale.order",
        "create",
        [{"partner_id": 10, "order_line": [(0, 0, {"product_id": products[0]["id"]})]}],
    )
    assert proxy_no_stock("sale.order", "action_confirm", [[order_id]]) is True
    assert proxy_no_stock("sale.order", "read", [[order_id], ["state"]])[0]["state"] == "sale"


@pytest.fixture
def proxy_no_stock(no_stock: FakeOdoo) -> Iterator[Any]:
    server = xmlrpc.client.ServerProxy(f"{no_stock.url}/xmlrpc/2/object", allow_none=True)

    def call(model: str, method: str, args: list[Any]) -> Any:
        return server.execute_kw("demo", 2, "admin", model, method, args)

    yield call
    server("close")()


def test_reset_keeps_or_changes_the_modules() -> None:
    fake = FakeOdoo("19.0", without=["stock_sms"])
    assert fake.uninstalled == ["stock_sms"]
    assert "stock.picking" in fake.db.registry
    assert "confirm.stock.sms" not in fake.db.registry
    fake.reset()  # None keeps the current choice, like the version
    assert fake.uninstalled == ["stock_sms"]
    fake.reset(without=["stock"])
    assert fake.uninstalled == STOCK_FAMILY
    fake.reset(without=[])
    assert fake.uninstalled == []
    assert "confirm.stock.sms" in fake.db.registry


def test_one_process_serves_both_databases_in_turn() -> None:
    # the ORM's caches of fields, stored computes and orders are per module set
    fake = FakeOdoo("19.0")
    assert fake.call("sale.order", "search_read", [], fields=["delivery_status"], limit=1)
    fake.reset(without=["stock"])
    orders = fake.call("sale.order", "search_read", [], limit=1, order="name")
    assert orders and "delivery_status" not in orders[0]
    fake.reset(without=[])
    orders = fake.call("sale.order", "search_read", [], limit=1, order="name")
    assert orders and "delivery_status" in orders[0]


def test_only_mapped_modules_can_be_left_out() -> None:
    with pytest.raises(ValueError, match="unknown module"):
        uninstalled_closure(["no_such_module"])
    # sale takes sale_management, sale_crm and sale_stock with it: not mapped
    with pytest.raises(ValueError, match="cannot serve a database without"):
        uninstalled_closure(["sale"])
    assert uninstalled_closure([]) == frozenset()


def test_the_control_api_resets_without_modules(fake_odoo_served: FakeOdoo) -> None:
    with httpx2.Client(base_url=str(fake_odoo_served.url)) as http:
        try:
            answer = http.post("/__fake__/reset", json={"without": ["stock"]}).json()
            assert answer["uninstalled"] == STOCK_FAMILY
            assert http.get("/__fake__/info").json()["uninstalled"] == STOCK_FAMILY
            body = {"jsonrpc": "2.0", "method": "call", "params": {}}
            headers = {"Authorization": f"Bearer {ADMIN_API_KEY}"}
            refused = http.post("/json/2/stock.picking/search_count", json=body, headers=headers)
            assert refused.status_code == 404
            bad = http.post("/__fake__/reset", json={"without": "stock"})
            assert bad.status_code == 400
        finally:
            restored = http.post("/__fake__/reset", json={"without": []}).json()
        assert restored["uninstalled"] == []


def test_the_call_log_shows_each_calls_context(fake_odoo_server: FakeOdoo) -> None:
    context = {"lang": "es_AR", "tz": "America/Argentina/Buenos_Aires"}
    server = xmlrpc.client.ServerProxy(f"{fake_odoo_server.url}/xmlrpc/2/object")
    server.execute_kw("demo", 2, "admin", "res.partner", "search_count", [[]], {"context": context})
    server("close")()
    headers = {"Authorization": f"Bearer {ADMIN_API_KEY}", "X-Odoo-Database": "demo"}
    with httpx2.Client(base_url=str(fake_odoo_server.url)) as http:
        http.post(
            "/json/2/res.partner/search_count",
            json={"domain": [], "context": {"allowed_company_ids": [1]}},
            headers=headers,
        )
        http.post("/json/2/res.partner/search_count", json={"domain": []}, headers=headers)
        logged = http.get("/__fake__/calls").json()
    assert [call["context"] for call in logged] == [context, {"allowed_company_ids": [1]}, None]
