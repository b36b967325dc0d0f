"""XML-RPC (/xmlrpc/2 and legacy /xmlrpc) through the stdlib client over a real port."""

from __future__ import annotations

import logging
import xmlrpc.client

import httpx2
import pytest
from wire_helpers import ADMIN_PASSWORD, ADMIN_UID, ProxyFactory, execute_kw

from fake_odoo import FakeOdoo

pytestmark = pytest.mark.wire

VERSION_BODY = (
    '<?xml version="1.0"?>\n<methodResponse>\n<params>\n<param>\n<value><struct>\n'
    "<member>\n<name>server_version</name>\n<value><string>19.0</string></value>\n</member>\n"
    "<member>\n<name>server_version_info</name>\n<value><array><data>\n"
    "<value><int>19</int></value>\n<value><int>0</int></value>\n<value><int>0</int></value>\n"
    "<value><string>final</string></value>\n<value><int>0</int></value>\n"
    "<value><string></string></value>\n</data></array></value>\n</member>\n"
    "<member>\n<name>server_serie</name>\n<value><string>19.0</string></value>\n</member>\n"
    "<member>\n<name>protocol_version</name>\n<value><int>1</int></value>\n</member>\n"
    "</struct></value>\n</param>\n</params>\n\n</methodResponse>\n"
)


def _call_raw(http: httpx2.Client, path: str, method: str, *params: object) -> httpx2.Response:
    body = xmlrpc.client.dumps(tuple(params), method)
    return http.post(path, content=body, headers={"Content-Type": "text/xml"})


def test_version_body_is_byte_for_byte_odoo(http: httpx2.Client) -> None:
    response = _call_raw(http, "/xmlrpc/2/common", "version")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/xml; charset=utf-8"
    assert response.text == VERSION_BODY


def test_common_and_db_services(proxy: ProxyFactory) -> None:
    common, db = proxy("/xmlrpc/2/common"), proxy("/xmlrpc/2/db")
    assert common.authenticate("demo", "admin", ADMIN_PASSWORD, {}) == ADMIN_UID
    assert common.login("demo", "admin", ADMIN_PASSWORD) == ADMIN_UID
    assert common.authenticate("demo", "admin", "wrong", {}) is False
    assert common.about() == "See http://openerp.com"
    assert db.list() == ["demo"]
    assert db.server_version() == "19.0"
    with pytest.raises(xmlrpc.client.Fault) as denied:
        db.drop("master", "demo")
    assert (denied.value.faultCode, denied.value.faultString) == (3, "Access Denied")


def test_api_key_works_as_password(proxy: ProxyFactory, api_key: str) -> None:
    common = proxy("/xmlrpc/2/common")
    assert common.authenticate("demo", "admin", api_key, {}) == ADMIN_UID
    ids = proxy("/xmlrpc/2/object").execute_kw("demo", 2, api_key, "res.partner", "search", [[]])
    assert isinstance(ids, list) and ids


def test_execute_kw_and_execute(proxy: ProxyFactory) -> None:
    pid = execute_kw(proxy, "/xmlrpc/2/object", "res.partner", "create", {"name": "Wire A"})
    assert isinstance(pid, int)
    rows = proxy("/xmlrpc/2/object").execute(
        "demo", ADMIN_UID, ADMIN_PASSWORD, "res.partner", "read", [pid], ["name"]
    )
    assert rows == [{"id": pid, "name": "Wire A"}]


@pytest.mark.parametrize(
    ("model", "method", "args", "code", "text"),
    [
        ("no.such.model", "search", [[]], 2, "Object no.such.model doesn't exist"),
        (
            "res.partner",
            "_compute_display_name",
            [[1]],
            4,
            "Private methods (such as 'res.partner._compute_display_name') cannot be called"
            " remotely.",
        ),
        (
            "res.partner",
            "write",
            [[999999], {"name": "x"}],
            2,
            "Record does not exist or has been deleted.\n(Record: res.partner(999999,), User: 2)",
        ),
    ],
)
def test_int_fault_codes(
    proxy: ProxyFactory, model: str, method: str, args: list[object], code: int, text: str
) -> None:
    with pytest.raises(xmlrpc.client.Fault) as fault:
        execute_kw(proxy, "/xmlrpc/2/object", model, method, *args)
    assert (fault.value.faultCode, fault.value.faultString) == (code, text)


def test_bad_password_is_fault_3(proxy: ProxyFactory) -> None:
    with pytest.raises(xmlrpc.client.Fault) as fault:
        proxy("/xmlrpc/2/object").execute_kw("demo", 2, "wrong", "res.partner", "search", [[]])
    assert (fault.value.faultCode, fault.value.faultString) == (3, "Access Denied")


def test_python_errors_are_fault_1_with_traceback(proxy: ProxyFactory) -> None:
    with pytest.raises(xmlrpc.client.Fault) as fault:
        execute_kw(proxy, "/xmlrpc/2/object", "res.partner", "no_such_method", [])
    assert fault.value.faultCode == 1
    text = fault.value.faultString
    assert text.startswith("Traceback (most recent call last):\n")
    assert text.endswith("AttributeError: The method 'res.partner.no_such_method' does not exist\n")


def test_unknown_database_is_psycopg2_operational_error(proxy: ProxyFactory) -> None:
    with pytest.raises(xmlrpc.client.Fault) as fault:
        proxy("/xmlrpc/2/object").execute_kw("nosuchdb", 2, "admin", "res.partner", "search", [[]])
    assert fault.value.faultCode == 1
    assert (
        "KeyError: 'nosuchdb'\n\nDuring handling of the above exception" in fault.value.faultString
    )
    assert fault.value.faultString.endswith(
        'psycopg2.OperationalError: connection to server on socket "/var/run/postgresql/'
        '.s.PGSQL.5432" failed: FATAL:  database "nosuchdb" does not exist\n\n'
    )


def test_none_result_is_marshal_fault_after_commit(proxy: ProxyFactory) -> None:
    partner = execute_kw(proxy, "/xmlrpc/2/object", "res.partner", "create", {"name": "Wire SO"})
    order = execute_kw(proxy, "/xmlrpc/2/object", "sale.order", "create", {"partner_id": partner})
    with pytest.raises(xmlrpc.client.Fault) as fault:
        execute_kw(proxy, "/xmlrpc/2/object", "sale.order", "action_lock", [order])
    assert fault.value.faultCode == 1
    assert fault.value.faultString.endswith(
        "TypeError: cannot marshal None unless allow_none is enabled\n"
    )
    rows = execute_kw(proxy, "/xmlrpc/2/object", "sale.order", "read", [order], fields=["locked"])
    assert rows == [{"id": order, "locked": True}]  # committed despite the fault


@pytest.mark.parametrize(
    ("model", "method", "args", "code", "text"),
    [
        (
            "no.such.model",
            "search",
            [[]],
            "warning -- UserError\n\nObject no.such.model doesn't exist",
            "",
        ),
        (
            "res.partner",
            "write",
            [[999999], {"name": "x"}],
            "warning -- MissingError\n\nRecord does not exist or has been deleted.\n"
            "(Record: res.partner(999999,), User: 2)",
            "",
        ),
        (
            "res.partner",
            "_compute_display_name",
            [[1]],
            "warning -- AccessError\n\nPrivate methods (such as "
            "'res.partner._compute_display_name') cannot be called remotely.",
            "",
        ),
    ],
)
def test_legacy_string_fault_codes(
    proxy: ProxyFactory, model: str, method: str, args: list[object], code: str, text: str
) -> None:
    with pytest.raises(xmlrpc.client.Fault) as fault:
        execute_kw(proxy, "/xmlrpc/object", model, method, *args)
    assert (fault.value.faultCode, fault.value.faultString) == (code, text)


def test_legacy_denied_and_python_error(proxy: ProxyFactory) -> None:
    legacy = proxy("/xmlrpc/object")
    with pytest.raises(xmlrpc.client.Fault) as denied:
        legacy.execute_kw("demo", 2, "wrong", "res.partner", "search", [[]])
    assert (denied.value.faultCode, denied.value.faultString) == ("AccessDenied", "Access Denied")
    with pytest.raises(xmlrpc.client.Fault) as error:
        execute_kw(proxy, "/xmlrpc/object", "res.partner", "search", [["no_such_field", "=", 1]])
    assert error.value.faultCode == (
        "Invalid field res.partner.no_such_field in condition ('no_such_field', '=', 1)"
    )
    assert error.value.faultString.startswith("Traceback (most recent call last):\n")
    assert error.value.faultString.endswith(f"ValueError: {error.value.faultCode}\n")
    assert proxy("/xmlrpc/common").version()["server_serie"] == "19.0"


def test_get_is_405_and_unknown_route_404(http: httpx2.Client) -> None:
    assert http.get("/xmlrpc/2/common").status_code == 405
    response = http.get("/no/such/page")
    assert response.status_code == 404
    assert "<title>404 Not Found</title>" in response.text


def test_deprecation_warning_logged_from_19(
    proxy: ProxyFactory, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="odoo.http"):
        proxy("/xmlrpc/2/common").version()
    assert any("deprecated in Odoo 19" in r.getMessage() for r in caplog.records)


def test_calls_are_logged_per_service(proxy: ProxyFactory, fake_odoo_server: FakeOdoo) -> None:
    proxy("/xmlrpc/2/common").version()
    execute_kw(proxy, "/xmlrpc/2/object", "res.partner", "search_count", [])
    assert fake_odoo_server.call_counts(protocol="xmlrpc", service="common") == 1
    assert fake_odoo_server.call_counts(model="res.partner", method="search_count") == 1
    assert [c.method for c in fake_odoo_server.calls] == ["version", "search_count"]
