"""JSON-2 (/json/2/<model>/<method>) through plain httpx2 over a real port."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from fake_odoo import FakeOdoo

pytestmark = pytest.mark.wire

ERROR_KEYS = ["name", "message", "arguments", "context", "debug"]


def _post(
    http: httpx2.Client, path: str, body: Any, key: str | None, **headers: str
) -> httpx2.Response:
    if key is not None:
        headers["Authorization"] = f"bearer {key}"
    return http.post(path, json=body, headers={"X-Odoo-Database": "demo", **headers})


def test_success_is_bare_json(http: httpx2.Client, api_key: str) -> None:
    response = _post(
        http,
        "/json/2/res.partner/search_read",
        {"domain": [], "fields": ["name"], "limit": 2},
        api_key,
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    rows = response.json()
    assert len(rows) == 2 and set(rows[0]) == {"id", "name"}
    context = _post(http, "/json/2/res.users/context_get", {}, api_key).json()
    assert context["uid"] == 2


def test_create_always_returns_a_list(http: httpx2.Client, api_key: str) -> None:
    single = _post(http, "/json/2/res.partner/create", {"vals_list": {"name": "J2 a"}}, api_key)
    many = _post(http, "/json/2/res.partner/create", {"vals_list": [{"name": "J2 b"}]}, api_key)
    assert isinstance(single.json(), list) and len(single.json()) == 1
    assert isinstance(many.json(), list) and len(many.json()) == 1
    ids = single.json() + many.json()
    wrote = _post(http, "/json/2/res.partner/write", {"ids": ids, "vals": {"phone": "1"}}, api_key)
    assert wrote.text == "true"


def test_none_result_is_null(http: httpx2.Client, api_key: str) -> None:
    response = _post(
        http, "/json/2/res.partner/check_access_rights", {"operation": "read"}, api_key
    )
    assert (response.status_code, response.text) == (200, "null")


def test_scheme_is_case_insensitive(http: httpx2.Client, api_key: str) -> None:
    response = http.post(
        "/json/2/res.partner/search_count",
        json={"domain": []},
        headers={"Authorization": f"BEARER {api_key}"},
    )
    assert response.status_code == 200 and isinstance(response.json(), int)


@pytest.mark.parametrize(
    ("key", "message"),
    [
        (None, "User not authenticated, use an API Key with a Bearer Authorization header."),
        ("not-a-key", "Invalid apikey"),
    ],
)
def test_unauthorized(http: httpx2.Client, key: str | None, message: str) -> None:
    response = _post(http, "/json/2/res.partner/search_read", {"domain": []}, key)
    assert response.status_code == 401
    assert response.headers["www-authenticate"].strip() == "Bearer"
    body = response.json()
    assert list(body) == ERROR_KEYS
    assert (body["name"], body["message"]) == ("werkzeug.exceptions.Unauthorized", message)
    assert body["arguments"] == [message, 401]


@pytest.mark.parametrize(
    ("path", "body", "status", "name", "message"),
    [
        (
            "/json/2/no.such.model/search_read",
            {},
            404,
            "werkzeug.exceptions.NotFound",
            "the model 'no.such.model' does not exist",
        ),
        (
            "/json/2/res.partner/no_such_method",
            {},
            404,
            "werkzeug.exceptions.NotFound",
            "The method 'res.partner.no_such_method' does not exist",
        ),
        (
            "/json/2/res.partner/_compute_display_name",
            {"ids": [1]},
            403,
            "odoo.exceptions.AccessError",
            "Private methods (such as 'res.partner._compute_display_name') cannot be called"
            " remotely.",
        ),
        (
            "/json/2/res.partner/search_read",
            {"ids": [1], "domain": []},
            422,
            "werkzeug.exceptions.UnprocessableEntity",
            "cannot call res.partner.search_read with ids",
        ),
        (
            "/json/2/res.partner/write",
            {"ids": [999999], "vals": {"name": "x"}},
            404,
            "odoo.exceptions.MissingError",
            "Record does not exist or has been deleted.\n(Record: res.partner(999999,), User: 2)",
        ),
        (
            "/json/2/res.partner/write",
            {"ids": [1], "vals": {"no_such_field": 1}},
            500,
            "builtins.KeyError",
            "no_such_field",
        ),
        (
            "/json/2/res.partner/search_read",
            {"domain": [["no_such_field", "=", 1]]},
            500,
            "builtins.ValueError",
            "Invalid field res.partner.no_such_field in condition ('no_such_field', '=', 1)",
        ),
        (
            "/json/2/res.partner",
            {},
            404,
            "werkzeug.exceptions.NotFound",
            "Did you mean POST /json/2/<model>/<method>?",
        ),
    ],
)
def test_error_statuses(
    http: httpx2.Client,
    api_key: str,
    path: str,
    body: dict[str, Any],
    status: int,
    name: str,
    message: str,
) -> None:
    response = _post(http, path, body, api_key)
    assert response.status_code == status
    payload = response.json()
    assert list(payload) == ERROR_KEYS
    assert (payload["name"], payload["message"]) == (name, message)
    short = name.removeprefix("builtins.")
    assert f"\n{short}: " in payload["debug"]


def test_user_error_is_422(http: httpx2.Client, api_key: str) -> None:
    response = _post(
        http, "/json/2/res.partner/write", {"ids": [1], "vals": {"parent_id": 1}}, api_key
    )
    assert response.status_code == 422
    assert response.json()["name"] == "odoo.exceptions.ValidationError"


def test_invalid_json_is_400(http: httpx2.Client, api_key: str) -> None:
    response = http.post(
        "/json/2/res.partner/search",
        content=b"{nope",
        headers={"Authorization": f"bearer {api_key}"},
    )
    assert response.status_code == 400
    assert response.json()["message"] == (
        "could not parse the body as json: Expecting property name enclosed in double quotes:"
        " line 1 column 2 (char 1)"
    )


def test_empty_ids_calls_on_empty_recordset(http: httpx2.Client, api_key: str) -> None:
    response = _post(http, "/json/2/sale.order/action_confirm", {"ids": []}, api_key)
    assert (response.status_code, response.json()) == (200, True)


def test_unknown_database_header_is_404(http: httpx2.Client, api_key: str) -> None:
    response = _post(http, "/json/2/res.partner/search", {}, api_key, **{"X-Odoo-Database": "x"})
    assert response.status_code == 404


@pytest.mark.parametrize("fake_odoo_version", ["18.0"], indirect=True)
def test_no_json2_before_19(http: httpx2.Client, fake_odoo_server: FakeOdoo) -> None:
    assert fake_odoo_server.version == "18.0"
    response = http.post("/json/2/res.partner/search", json={})
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert http.get("/web/version").json()["version"] == "18.0"


def test_the_body_binds_to_odoo_19s_signatures(http: httpx2.Client, api_key: str) -> None:
    """Real Odoo 19 binds the body to the method's signature before calling it: a missing
    required argument or an unknown name is 422, and 19's own names are the ones that work
    (default_get takes ``fields`` there, ``fields_list`` before)."""
    path = "/json/2/sale.order/default_get"
    old = _post(http, path, {"fields_list": ["state"]}, api_key)
    assert old.status_code == 422
    assert old.json()["name"] == "werkzeug.exceptions.UnprocessableEntity"
    assert old.json()["message"] == "missing a required argument: 'fields'"
    ok = _post(http, path, {"fields": ["state"], "context": {"lang": "en_US"}}, api_key)
    assert ok.status_code == 200 and ok.json() == {"state": "draft"}
    unknown = _post(http, path, {"fields": ["state"], "bogus": 1}, api_key)
    assert unknown.status_code == 422
    assert unknown.json()["message"] == "got an unexpected keyword argument 'bogus'"
    # a method with **kwargs takes any name; the method itself then fails (500 TypeError)
    swallowed = _post(http, "/json/2/res.partner/search_read", {"bogus_kwarg": 1}, api_key)
    assert swallowed.status_code == 500
    assert swallowed.json()["name"] == "builtins.TypeError"
    missing = _post(http, "/json/2/res.partner/write", {"ids": [9]}, api_key)
    assert missing.status_code == 422
    assert missing.json()["message"] == "missing a required argument: 'vals'"


#: the ORM methods the server's tools, resources, prompts and contracts call (connection/base.py)
SERVER_METHODS = (
    "search_read", "search", "search_count", "read", "write", "create", "unlink", "copy",
    "fields_get", "default_get", "name_search", "read_group", "check_access_rights",
)  # fmt: skip


def test_every_public_method_binds_as_odoo_19_declares(http: httpx2.Client, api_key: str) -> None:
    """Issue 13: for each of BaseModel's public methods the fake implements, an empty body
    misses the first required argument Odoo 19 declares, and an unknown name is refused
    unless the method takes ``**kwargs`` (then the method itself fails, 500 TypeError)."""
    from fake_odoo.wire.signatures_odoo19 import BASE

    implemented = []
    for method, (_api_model, params) in sorted(BASE.items()):
        required = [n for n, kind, has_default in params if kind == "either" and not has_default]
        path = f"/json/2/res.partner/{method}"
        # an empty recordset: a method that binds must not change the shared database
        empty = _post(http, path, {} if _api_model else {"ids": []}, api_key)
        if empty.status_code == 404:
            continue  # a method the fake does not implement
        implemented.append(method)
        if required:
            assert empty.status_code == 422, method
            assert empty.json()["message"] == f"missing a required argument: '{required[0]}'"
        body: dict[str, Any] = {name: None for name in required}
        if not _api_model:
            body["ids"] = []
        body["zz_not_a_parameter"] = 1
        unknown = _post(http, path, body, api_key)
        if any(kind == "**kwargs" for _, kind, _ in params):
            assert unknown.status_code == 500, method
            assert unknown.json()["name"] == "builtins.TypeError"
        else:
            assert unknown.status_code == 422, method
            assert unknown.json()["message"] == (
                "got an unexpected keyword argument 'zz_not_a_parameter'"
            )
    assert set(SERVER_METHODS) <= set(implemented) and len(implemented) >= 15
