"""JSON-RPC (/jsonrpc and the /web session routes) through plain httpx2 over a real port."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest
from wire_helpers import ADMIN_PASSWORD, ADMIN_UID

from fake_odoo import FakeOdoo

pytestmark = pytest.mark.wire


def _rpc(http: httpx2.Client, path: str, params: dict[str, Any], rid: Any = 1) -> httpx2.Response:
    return http.post(path, json={"jsonrpc": "2.0", "method": "call", "params": params, "id": rid})


def _object(http: httpx2.Client, *args: Any, password: str = ADMIN_PASSWORD) -> httpx2.Response:
    params = {
        "service": "object",
        "method": "execute_kw",
        "args": ["demo", ADMIN_UID, password, *args],
    }
    return _rpc(http, "/jsonrpc", params)


def _login(http: httpx2.Client) -> dict[str, Any]:
    params = {"db": "demo", "login": "admin", "password": ADMIN_PASSWORD}
    response = _rpc(http, "/web/session/authenticate", params)
    assert "session_id" in response.cookies
    result: dict[str, Any] = response.json()["result"]
    return result


def test_common_version_raw_body(http: httpx2.Client) -> None:
    response = _rpc(http, "/jsonrpc", {"service": "common", "method": "version", "args": []})
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    assert response.text == (
        '{"jsonrpc": "2.0", "id": 1, "result": {"server_version": "19.0", "server_version_info":'
        ' [19, 0, 0, "final", 0, ""], "server_serie": "19.0", "protocol_version": 1}}'
    )


def test_login_and_execute_kw(http: httpx2.Client) -> None:
    login = _rpc(
        http,
        "/jsonrpc",
        {"service": "common", "method": "login", "args": ["demo", "admin", ADMIN_PASSWORD]},
    )
    assert login.json() == {"jsonrpc": "2.0", "id": 1, "result": ADMIN_UID}
    count = _object(http, "res.partner", "search_count", [[]]).json()["result"]
    assert isinstance(count, int) and count > 0


def test_error_envelope(http: httpx2.Client) -> None:
    body = _object(http, "no.such.model", "search", [[]]).json()
    assert list(body) == ["jsonrpc", "id", "error"]
    error = body["error"]
    assert (error["code"], error["message"]) == (0, "Odoo Server Error")
    data = error["data"]
    assert list(data) == ["name", "message", "arguments", "context", "debug"]
    assert data["name"] == "odoo.exceptions.UserError"
    assert data["message"] == "Object no.such.model doesn't exist"
    assert data["arguments"] == ["Object no.such.model doesn't exist"]
    assert data["context"] == {}
    assert data["debug"].endswith("odoo.exceptions.UserError: Object no.such.model doesn't exist\n")


def test_access_denied_has_no_traceback(http: httpx2.Client) -> None:
    data = _object(http, "res.partner", "search", [[]], password="wrong").json()["error"]["data"]
    assert data["name"] == "odoo.exceptions.AccessDenied"
    assert data["debug"] == "odoo.exceptions.AccessDenied: Access Denied\n"


def test_python_error_names(http: httpx2.Client) -> None:
    data = _object(http, "res.partner", "write", [[1], {"no_such_field": 1}]).json()["error"][
        "data"
    ]
    assert (data["name"], data["message"]) == ("builtins.KeyError", "no_such_field")
    db = _rpc(
        http,
        "/jsonrpc",
        {
            "service": "object",
            "method": "execute_kw",
            "args": ["nosuchdb", 2, "admin", "res.partner", "search", [[]]],
        },
    )
    assert db.json()["error"]["data"]["name"] == "psycopg2.OperationalError"


def test_none_result_has_no_result_key(http: httpx2.Client) -> None:
    response = _object(http, "res.partner", "check_access_rights", ["read"])
    assert response.text == '{"jsonrpc": "2.0", "id": 1}'


def test_invalid_json(http: httpx2.Client) -> None:
    response = http.post("/jsonrpc", content=b"{nope", headers={"Content-Type": "application/json"})
    body = response.json()
    assert response.status_code == 200 and body["id"] is None
    assert body["error"]["data"]["name"] == "werkzeug.exceptions.BadRequest"


def test_session_authenticate_and_call_kw(http: httpx2.Client) -> None:
    info = _login(http)
    assert (info["uid"], info["username"], info["db"]) == (ADMIN_UID, "admin", "demo")
    assert info["server_version_info"] == [19, 0, 0, "final", 0, ""]
    assert info["user_context"]["uid"] == ADMIN_UID
    assert {"name", "is_admin", "partner_id", "user_companies"} <= set(info)
    params = {"model": "res.partner", "method": "search_count", "args": [[]], "kwargs": {}}
    assert _rpc(http, "/web/dataset/call_kw", params).json()["result"] > 0
    assert _rpc(http, "/web/dataset/call_kw/res.partner/search_count", params).json()["result"] > 0
    assert _rpc(http, "/web/session/get_session_info", {}).json()["result"]["uid"] == ADMIN_UID


def test_wrong_password_and_unknown_db(http: httpx2.Client) -> None:
    bad = _rpc(http, "/web/session/authenticate", {"db": "demo", "login": "admin", "password": "x"})
    assert bad.json()["error"]["data"]["name"] == "odoo.exceptions.AccessDenied"
    assert "session_id" not in bad.cookies
    nodb = _rpc(
        http, "/web/session/authenticate", {"db": "nodb", "login": "admin", "password": "admin"}
    )
    assert nodb.json()["error"]["data"]["message"] == "Database not found."


def test_no_session_is_code_100(http: httpx2.Client) -> None:
    params = {"model": "res.partner", "method": "search", "args": [[]], "kwargs": {}}
    error = _rpc(http, "/web/dataset/call_kw", params).json()["error"]
    assert (error["code"], error["message"]) == (100, "Odoo Session Expired")
    assert error["data"]["name"] == "odoo.http.SessionExpiredException"
    assert error["data"]["message"] == "Session expired"


def test_expired_session_then_relogin(http: httpx2.Client, fake_odoo_server: FakeOdoo) -> None:
    _login(http)
    params = {"model": "res.partner", "method": "search_count", "args": [[]], "kwargs": {}}
    fake_odoo_server.expire_sessions()
    assert _rpc(http, "/web/dataset/call_kw", params).json()["error"]["code"] == 100
    _login(http)
    assert "result" in _rpc(http, "/web/dataset/call_kw", params).json()


def test_version_routes(http: httpx2.Client) -> None:
    response = http.get("/web/version")
    assert response.text == '{"version_info": [19, 0, 0, "final", 0, ""], "version": "19.0"}'
    bare = http.post(
        "/web/webclient/version_info", content=b"{}", headers={"Content-Type": "application/json"}
    )
    assert bare.json()["id"] is None and bare.json()["result"]["server_serie"] == "19.0"
    assert http.get("/web/webclient/version_info").status_code == 415
    assert http.post("/web/version").status_code == 400


def test_calls_logged_with_protocols(http: httpx2.Client, fake_odoo_server: FakeOdoo) -> None:
    _object(http, "res.partner", "search_count", [[]])
    _login(http)
    params = {"model": "res.partner", "method": "search_count", "args": [[]], "kwargs": {}}
    _rpc(http, "/web/dataset/call_kw", params)
    assert fake_odoo_server.call_counts(protocol="jsonrpc", method="search_count") == 1
    assert fake_odoo_server.call_counts(protocol="web", method="search_count") == 1
    assert fake_odoo_server.call_counts(model="res.partner") == 2
