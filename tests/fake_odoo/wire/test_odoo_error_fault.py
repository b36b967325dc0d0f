"""The ``odoo_error`` fault: any exception class on any object call, rendered per protocol
as Odoo renders that class (stdlib xmlrpc.client and httpx2 over a socket)."""

from __future__ import annotations

import xmlrpc.client

import httpx2
import pytest
from wire_helpers import ADMIN_PASSWORD, ADMIN_UID, ProxyFactory, execute_kw

from fake_odoo import FakeOdoo

pytestmark = pytest.mark.wire

MESSAGE = 'duplicate key value violates unique constraint "res_partner_ref_uniq"'

#: class -> (XML-RPC /xmlrpc/2 fault code, JSON-2 status), as Odoo 19 answers
RENDERINGS = {
    "odoo.exceptions.ValidationError": (2, 422),
    "odoo.exceptions.UserError": (2, 422),
    "odoo.exceptions.MissingError": (2, 404),
    "odoo.exceptions.RedirectWarning": (2, 422),
    "odoo.exceptions.AccessError": (4, 403),
    "builtins.ValueError": (1, 500),
    "psycopg2.errors.UniqueViolation": (1, 500),
    "psycopg2.errors.CheckViolation": (1, 500),
    "psycopg2.errors.ForeignKeyViolation": (1, 500),
    "odoo.addons.base.models.ir_actions.SomethingElse": (1, 500),
}


def _last_line(name: str) -> str:
    """A traceback prints builtins bare (``ValueError: ...``), other classes dotted."""
    return f"{name.removeprefix('builtins.')}: {MESSAGE}"


@pytest.mark.parametrize("name", sorted(RENDERINGS))
def test_xmlrpc_fault_code_and_string(
    fake_odoo_server: FakeOdoo, proxy: ProxyFactory, name: str
) -> None:
    fake_odoo_server.inject_fault(
        "odoo_error", model="res.partner", method="create", exception=name, message=MESSAGE
    )
    with pytest.raises(xmlrpc.client.Fault) as caught:
        execute_kw(proxy, "/xmlrpc/2/object", "res.partner", "create", [{"name": "X"}])
    assert caught.value.faultCode == RENDERINGS[name][0]
    if RENDERINGS[name][0] != 1:  # Odoo's warnings (UserError and kin): the message alone
        assert caught.value.faultString == MESSAGE
        return
    assert caught.value.faultString.startswith("Traceback (most recent call last)")
    assert caught.value.faultString.rstrip("\n").splitlines()[-1] == _last_line(name)


def test_access_denied_is_fault_3_without_traceback(
    fake_odoo_server: FakeOdoo, proxy: ProxyFactory
) -> None:
    fake_odoo_server.inject_fault("odoo_error", exception="odoo.exceptions.AccessDenied")
    with pytest.raises(xmlrpc.client.Fault) as caught:
        execute_kw(proxy, "/xmlrpc/2/object", "res.partner", "search_count", [])
    assert caught.value.faultCode == 3
    assert "Traceback" not in caught.value.faultString


@pytest.mark.parametrize("name", sorted(RENDERINGS))
def test_jsonrpc_error_data(fake_odoo_server: FakeOdoo, http: httpx2.Client, name: str) -> None:
    fake_odoo_server.inject_fault("odoo_error", method="create", exception=name, message=MESSAGE)
    args = ["demo", ADMIN_UID, ADMIN_PASSWORD, "res.partner", "create", [{"name": "X"}]]
    params = {"service": "object", "method": "execute_kw", "args": args}
    body = http.post("/jsonrpc", json={"jsonrpc": "2.0", "method": "call", "params": params})
    error = body.json()["error"]
    assert (error["code"], error["message"]) == (200, "Odoo Server Error") or error["code"] == 0
    data = error["data"]
    assert data["name"] == name
    assert data["message"] == MESSAGE
    assert data["arguments"] == [MESSAGE]
    assert data["debug"].rstrip("\n").splitlines()[-1] == _last_line(name)


@pytest.mark.parametrize("name", sorted(RENDERINGS))
def test_json2_status_and_body(
    fake_odoo_server: FakeOdoo, http: httpx2.Client, api_key: str, name: str
) -> None:
    fake_odoo_server.inject_fault(
        "odoo_error", model="res.partner", exception=name, message=MESSAGE
    )
    answer = http.post(
        "/json/2/res.partner/create",
        json={"vals_list": [{"name": "X"}]},
        headers={"Authorization": f"bearer {api_key}", "X-Odoo-Database": "demo"},
    )
    assert answer.status_code == RENDERINGS[name][1]
    assert answer.json()["name"] == name
    assert answer.json()["message"] == MESSAGE


def test_targets_one_call_and_count(fake_odoo_server: FakeOdoo, proxy: ProxyFactory) -> None:
    fake_odoo_server.inject_fault(
        "odoo_error", model="res.partner", method="create", count=1,
        exception="odoo.exceptions.UserError", message="no",
    )  # fmt: skip
    # another method and another model pass; the control API's own calls never fault
    assert execute_kw(proxy, "/xmlrpc/2/object", "res.partner", "search_count", []) > 0
    fake_odoo_server.create("res.partner", {"name": "From outside"})
    with pytest.raises(xmlrpc.client.Fault):
        execute_kw(proxy, "/xmlrpc/2/object", "res.partner", "create", [{"name": "X"}])
    assert execute_kw(proxy, "/xmlrpc/2/object", "res.partner", "create", [{"name": "Y"}])


def test_bad_class_name_is_refused(fake_odoo_server: FakeOdoo) -> None:
    with pytest.raises(ValueError):
        fake_odoo_server.inject_fault("odoo_error", exception="NoDot")
