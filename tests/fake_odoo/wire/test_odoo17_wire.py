"""Odoo 17's wire protocol and ORM error texts, next to Odoo 19's (which must not change).

Each test names the capture of ``tests/fixtures/odoo17/`` that shows the 17 fact.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

from fake_odoo import FakeOdoo
from fake_odoo.testing import serve_fake_odoo

pytestmark = pytest.mark.wire


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[int, FakeOdoo]]:
    with serve_fake_odoo("17.0") as v17, serve_fake_odoo("19.0") as v19:
        yield {17: v17, 19: v19}


@pytest.fixture
def http(servers: dict[int, FakeOdoo]) -> Iterator[dict[int, httpx2.Client]]:
    clients = {major: httpx2.Client(base_url=str(fake.url)) for major, fake in servers.items()}
    for fake in servers.values():
        fake.expire_sessions()
    yield clients
    for client in clients.values():
        client.close()


def _rpc(client: httpx2.Client, path: str, params: dict[str, Any]) -> dict[str, Any]:
    body = {"jsonrpc": "2.0", "method": "call", "params": params, "id": 1}
    result: dict[str, Any] = client.post(path, json=body).json()
    return result


def _execute(client: httpx2.Client, model: str, method: str, *args: Any) -> dict[str, Any]:
    params = {
        "service": "object",
        "method": "execute_kw",
        "args": ["demo", 2, "admin", model, method, list(args)],
    }
    return _rpc(client, "/jsonrpc", params)


def _error_of(fake: FakeOdoo, model: str, method: str, *args: Any, **kwargs: Any) -> BaseException:
    with pytest.raises(Exception) as caught:
        fake.call(model, method, *args, **kwargs)
    return caught.value


# -- JSON-RPC error envelope ---------------------------------------------------------------------
def test_jsonrpc_error_code_and_data_key_order(http: dict[int, httpx2.Client]) -> None:
    # err_jsonrpc_write_missing_id: 17 says code 200 and puts ``debug`` second
    error17 = _execute(http[17], "res.partner", "write", [999999], {"name": "x"})["error"]
    assert error17["code"] == 200
    assert list(error17["data"]) == ["name", "debug", "message", "arguments", "context"]
    error19 = _execute(http[19], "res.partner", "write", [999999], {"name": "x"})["error"]
    assert error19["code"] == 0
    assert list(error19["data"]) == ["name", "message", "arguments", "context", "debug"]


def test_call_kw_unknown_model(http: dict[int, httpx2.Client]) -> None:
    # err_callkw_unknown_model: 17 answers the registry's KeyError, 19 a bare 404
    login = {"db": "demo", "login": "admin", "password": "admin"}
    call = {"model": "no.such.model", "method": "search_read", "args": [[]], "kwargs": {}}
    path = "/web/dataset/call_kw/no.such.model/search_read"
    for client in http.values():
        _rpc(client, "/web/session/authenticate", login)
    error17 = _rpc(http[17], path, call)["error"]
    assert (error17["code"], error17["data"]["name"]) == (200, "builtins.KeyError")
    assert error17["data"]["message"] == "no.such.model"
    error19 = _rpc(http[19], path, call)["error"]
    assert (error19["code"], error19["data"]["name"]) == (404, "werkzeug.exceptions.NotFound")


def test_unparsable_json_body(http: dict[int, httpx2.Client]) -> None:
    # 17's JsonRPCDispatcher aborts with a text 400; 19 keeps its JSON-RPC BadRequest
    headers = {"Content-Type": "application/json"}
    response = http[17].post("/web/webclient/version_info", content=b"", headers=headers)
    assert (response.status_code, response.text) == (400, "Invalid JSON data")
    response = http[19].post("/web/webclient/version_info", content=b"", headers=headers)
    assert response.status_code == 200
    assert response.json()["error"]["data"]["name"] == "werkzeug.exceptions.BadRequest"


# -- routes that 17 does not have ----------------------------------------------------------------
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_web_version_is_a_404_page_on_17(http: dict[int, httpx2.Client], method: str) -> None:
    # meta_version steps 1-2: Odoo's own 404 page, "text/html;charset=utf-8" without a space
    response = http[17].request(method, "/web/version")
    assert response.status_code == 404
    assert response.headers["content-type"] == "text/html;charset=utf-8"
    assert "<title>Odoo</title>" in response.text
    assert "<p></p>" in response.text
    assert http[19].get("/web/version").json()["version_info"][0] == 19


def test_json2_and_unknown_urls_on_17(http: dict[int, httpx2.Client]) -> None:
    # err_json2_not_available: the same page for /json/2 and any unknown URL
    for path in ("/json/2/res.partner/search_read", "/no/such/page"):
        response = http[17].post(path, json={})
        assert (response.status_code, response.headers["content-type"]) == (
            404,
            "text/html;charset=utf-8",
        )
        assert "<title>Odoo</title>" in response.text
    response = http[19].get("/no/such/page")
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert "<title>404 Not Found</title>" in response.text


def test_get_on_a_json_route(http: dict[int, httpx2.Client]) -> None:
    # meta_version step 8: 400 and type='json' on 17, 415 and type='jsonrpc' on 19
    response = http[17].get("/web/webclient/version_info")
    assert response.status_code == 400
    assert (
        "<p>Request inferred type is compatible with [&#39;http&#39;] but "
        "&#39;/web/webclient/version_info&#39; is type=&#39;json&#39;.</p>"
    ) in response.text
    assert http[19].get("/web/webclient/version_info").status_code == 415


# -- ORM error texts -----------------------------------------------------------------------------
def test_domain_field_and_operator_texts(servers: dict[int, FakeOdoo]) -> None:
    # err_xmlrpc_invalid_domain_field / _operator, flow_domain_operators step 16
    v17, v19 = servers[17], servers[19]
    bad_field = [("no_such_field", "=", 1)]
    assert str(_error_of(v17, "res.partner", "search", bad_field)) == (
        "Invalid field res.partner.no_such_field in leaf ('no_such_field', '=', 1)"
    )
    assert str(_error_of(v19, "res.partner", "search", bad_field)) == (
        "Invalid field res.partner.no_such_field in condition ('no_such_field', '=', 1)"
    )
    assert str(_error_of(v17, "res.partner", "search", [("name", "bogus_op", 1)])) == (
        "Invalid leaf ('name', 'bogus_op', 1)"
    )
    assert str(
        _error_of(v17, "sale.order", "search", [["partner_id.no_such.code", "=", "US"]])
    ) == ("Invalid field res.partner.no_such in leaf ('no_such.code', '=', 'US')")


def test_malformed_domains(servers: dict[int, FakeOdoo]) -> None:
    # flow_domain_operators steps 14-15
    v17, v19 = servers[17], servers[19]
    unbalanced = ["|", ["state", "=", "draft"]]
    assert str(_error_of(v17, "sale.order", "search", unbalanced)) == (
        "Domain ['|', ['state', '=', 'draft']] is syntactically not correct."
    )
    assert str(_error_of(v19, "sale.order", "search", unbalanced)).startswith("Domain() malformed")
    assert str(_error_of(v17, "sale.order", "search", ["state"])) == (
        "too many values to unpack (expected 3)"
    )
    assert str(_error_of(v19, "sale.order", "search", ["state"])) == (
        "Domain() invalid item in domain: 'state'"
    )


def test_child_of_without_parent_field(servers: dict[int, FakeOdoo]) -> None:
    # flow_domain_child_of step 9
    error = _error_of(servers[17], "res.country", "search_count", [("id", "child_of", 233)])
    assert isinstance(error, KeyError) and error.args == ("parent_id",)
    error = _error_of(servers[19], "res.country", "search_count", [("id", "child_of", 233)])
    assert isinstance(error, ValueError)


def test_write_unknown_field(servers: dict[int, FakeOdoo]) -> None:
    # err_xmlrpc_write_unknown_field
    error = _error_of(servers[17], "res.partner", "write", [1], {"no_such_field": 1})
    assert isinstance(error, ValueError)
    assert str(error) == "Invalid field 'no_such_field' on model 'res.partner'"
    error = _error_of(servers[19], "res.partner", "write", [1], {"no_such_field": 1})
    assert isinstance(error, KeyError)


def test_missing_required_field(servers: dict[int, FakeOdoo]) -> None:
    # err_xmlrpc_create_sale_order_no_partner
    assert str(_error_of(servers[17], "sale.order", "create", {})) == (
        "The operation cannot be completed:\n"
        "- Create/update: a mandatory field is not set.\n"
        "- Delete: another model requires the record being deleted. If possible, archive it "
        "instead.\n\nModel: Sales Order (sale.order)\nField: Customer (partner_id)\n"
    )
    assert "Missing required value for the field 'Customer'" in str(
        _error_of(servers[19], "sale.order", "create", {})
    )


def test_read_group_by_non_stored_field(servers: dict[int, FakeOdoo]) -> None:
    # flow_read_group step 12
    args: tuple[Any, ...] = ([], ["amount_total:sum"], ["access_url"])
    assert str(_error_of(servers[17], "sale.order", "read_group", *args)) == (
        "Cannot convert field sale.order.access_url to SQL"
    )
    assert str(_error_of(servers[19], "sale.order", "read_group", *args)) == (
        "Cannot convert sale.order.access_url to SQL because it is not stored"
    )


def test_operator_checked_at_the_end_of_a_dotted_path(servers: dict[int, FakeOdoo]) -> None:
    # 17 turns the path into ``any`` first: the sub-search reports the inner leaf
    error = _error_of(servers[17], "sale.order", "search", [("partner_id.name", "bogus", 1)])
    assert str(error) == "Invalid leaf ('name', 'bogus', 1)"
    error = _error_of(servers[19], "sale.order", "search", [("partner_id.name", "bogus", 1)])
    assert str(error).startswith("Invalid operator in condition")
