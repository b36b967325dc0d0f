"""SPEC-02 / L2-02a / L2-02b rows no scenario can see through MCP: the version probes and
their order, login over each protocol, the JSON-RPC envelopes, the settings' defaults.

Each test drives the scripted Odoo (MockTransport, no network); ``_Wrapped`` changes what a
few paths answer and passes every other request through.
"""

from __future__ import annotations

import json
import logging
import xmlrpc.client
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from pydantic import ValidationError
from scripted_odoo import Harness, ScriptedOdoo, refuse, status

from odoo_mcp.connection import (
    ConnectionManager,
    ConnectionSettings,
    OdooAuthenticationError,
    build_http_client,
)

pytestmark = pytest.mark.anyio

ADMIN = {"username": "admin", "password": "admin"}
LOGIN_PAGE = '<html><head><meta name="generator" content="Odoo 19"/></head></html>'
Answer = Callable[[httpx2.Request], httpx2.Response | None]


def _manager(odoo: ScriptedOdoo, answer: Answer, **settings: Any) -> ConnectionManager:
    """A manager whose requests ``answer`` may answer first (None: the scripted Odoo does)."""

    def handle(request: httpx2.Request) -> httpx2.Response:
        special = answer(request)
        if special is None:
            return odoo.handle(request)
        odoo.requests.append(request)
        return special

    async def no_sleep(delay: float) -> None:
        pass

    values: dict[str, Any] = {"url": "http://odoo.test", "database": "demo", **settings}
    return ConnectionManager(
        ConnectionSettings.model_validate(values),
        transport=httpx2.MockTransport(handle),
        sleep=no_sleep,
    )


def _paths(odoo: ScriptedOdoo) -> list[str]:
    return [request.url.path for request in odoo.requests]


def _xmlrpc_calls(odoo: ScriptedOdoo) -> list[tuple[str, str, tuple[Any, ...]]]:
    found = []
    for request in odoo.requests:
        if request.url.path.startswith("/xmlrpc/2/"):
            params, method = xmlrpc.client.loads(request.content)
            found.append((request.url.path, method or "", params))
    return found


def _xml_fault() -> httpx2.Response:
    body = xmlrpc.client.dumps(xmlrpc.client.Fault(1, "no version here"), methodresponse=True)
    return httpx2.Response(200, content=body.encode(), headers={"Content-Type": "text/xml"})


@pytest.mark.req("REQ-02a-01", "REQ-02a-04", "REQ-02-04")
async def test_xmlrpc_login_probes_the_version_first_then_authenticates(harness: Harness) -> None:
    harness.odoo.major = 16
    async with harness.manager(**ADMIN) as manager:
        assert (manager.protocol, manager.uid) == ("xmlrpc", 2)
    calls = _xmlrpc_calls(harness.odoo)
    assert calls[0] == ("/xmlrpc/2/common", "version", ())
    assert calls[1] == ("/xmlrpc/2/common", "authenticate", ("demo", "admin", "admin", {}))
    # the first probe answered: neither the session login nor the login page is asked
    assert not {"/web/session/authenticate", "/web/login"} & set(_paths(harness.odoo))
    refused = harness.manager(username="admin", password="nope")
    with pytest.raises(OdooAuthenticationError):  # authenticate answered False
        await refused.connect()
    await refused.close()


@pytest.mark.req("REQ-02a-02", "REQ-02a-04", "REQ-02a-10")
async def test_the_session_answer_is_the_second_probe(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="odoo_mcp.connection")
    harness.odoo.major, harness.odoo.xmlrpc_enabled = 20, False
    async with harness.manager(**ADMIN, api_key="KEY") as manager:
        assert manager.odoo_version is not None and manager.odoo_version.major == 20
        assert manager.protocol == "json2"  # from 20 on: JSON-2, logged
    paths = _paths(harness.odoo)
    assert paths[:2] == ["/xmlrpc/2/common", "/web/session/authenticate"]
    assert "/web/login" not in paths
    assert "Odoo 20.0 is newer than 19.0: using JSON-2" in caplog.text


@pytest.mark.req("REQ-02a-03", "REQ-02a-04")
async def test_the_login_page_is_the_last_probe() -> None:
    odoo = ScriptedOdoo(major=19, xmlrpc_enabled=False)

    def login_page(request: httpx2.Request) -> httpx2.Response | None:
        if request.url.path == "/web/login":
            return httpx2.Response(200, text=LOGIN_PAGE)
        return None

    # an API key alone: the session probe needs a password, so it is skipped
    async with _manager(odoo, login_page, username="admin", api_key="KEY") as manager:
        assert manager.odoo_version is not None and str(manager.odoo_version) == "19.0"
        assert manager.protocol == "json2"
    assert _paths(odoo)[:2] == ["/xmlrpc/2/common", "/web/login"]


@pytest.mark.req("REQ-02a-09")
async def test_when_every_probe_fails_xmlrpc_and_14_are_assumed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    odoo = ScriptedOdoo(major=16)

    def no_version(request: httpx2.Request) -> httpx2.Response | None:
        path = request.url.path
        if path == "/xmlrpc/2/common" and b"<methodName>version<" in request.content:
            return _xml_fault()
        if path == "/web/session/authenticate":  # logged in, but no version fields
            result = {"uid": 2, "is_admin": True}
            return httpx2.Response(200, json={"jsonrpc": "2.0", "id": 1, "result": result})
        if path == "/web/login":
            return httpx2.Response(200, text="<html>no generator</html>")
        return None

    async with _manager(odoo, no_version, **ADMIN) as manager:
        assert manager.odoo_version is not None
        assert (manager.odoo_version.major, manager.odoo_version.level) == (14, "unknown")
        assert (manager.protocol, manager.uid) == ("xmlrpc", 2)
    assert "could not detect the Odoo version; assuming 14.0 over XML-RPC" in caplog.text
    assert "/web/login" in _paths(odoo)  # every probe was tried


@pytest.mark.req("REQ-02a-04")
async def test_a_session_probe_answered_404_moves_on_to_the_login_page() -> None:
    """An Odoo whose web client is not served (a 404 on /web/session/authenticate) still
    gets its last probe, instead of a failed connect."""
    odoo = ScriptedOdoo(major=16)

    def no_session(request: httpx2.Request) -> httpx2.Response | None:
        path = request.url.path
        if path == "/xmlrpc/2/common" and b"<methodName>version<" in request.content:
            return _xml_fault()
        if path == "/web/session/authenticate":
            return httpx2.Response(404, text="Not Found")
        if path == "/web/login":
            return httpx2.Response(200, text=LOGIN_PAGE.replace("Odoo 19", "Odoo 16"))
        return None

    async with _manager(odoo, no_session, **ADMIN) as manager:
        assert manager.odoo_version is not None and manager.odoo_version.major == 16
        assert manager.protocol == "xmlrpc"
    assert "/web/login" in _paths(odoo)


@pytest.mark.req("REQ-02a-10", "REQ-02-12")
async def test_an_odoo_older_than_14_is_tried_over_xmlrpc_with_a_warning(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    harness.odoo.major = 13
    async with harness.manager(**ADMIN) as manager:
        assert manager.protocol == "xmlrpc"
        assert await manager.search_count("res.partner") == 1
    assert "Odoo 13.0 is older than 14.0: unsupported, it may not work" in caplog.text


@pytest.mark.req("REQ-02a-11")
async def test_the_version_is_probed_again_only_on_reconnect(harness: Harness) -> None:
    def probes() -> int:
        return sum(1 for path, method, _ in _xmlrpc_calls(harness.odoo) if method == "version")

    async with harness.manager(api_key="KEY", username="admin") as manager:
        assert probes() == 1
        for _ in range(3):
            await manager.search_count("res.partner")
        assert probes() == 1
        harness.odoo.fail_next(refuse)  # the connection drops: reconnect, detect again
        assert await manager.search_count("res.partner") == 1
        assert probes() == 2


@pytest.mark.req("REQ-02a-06")
async def test_the_edition_falls_back_to_web_enterprise_then_community(
    caplog: pytest.LogCaptureFixture,
) -> None:
    odoo = ScriptedOdoo(major=19, results={("ir.module.module", "search_count"): 1})
    async with _manager(odoo, lambda request: None, api_key="KEY") as manager:
        assert manager.get_connection_info().edition == "enterprise"
    module = odoo.calls[-1]
    assert module[1:3] == ("ir.module.module", "search_count")
    assert module[4]["domain"] == [["name", "=", "web_enterprise"], ["state", "=", "installed"]]

    def broken(request: httpx2.Request) -> httpx2.Response | None:
        if request.url.path == "/json/2/ir.module.module/search_count":
            return status(500)(request)
        return None

    async with _manager(ScriptedOdoo(major=19), broken, api_key="KEY") as manager:
        assert manager.get_connection_info().edition == "community"
    assert "cannot tell the Odoo edition" in caplog.text


@pytest.mark.req("REQ-02-06", "REQ-02b-13")
async def test_an_api_key_stands_in_for_the_password_over_xmlrpc(harness: Harness) -> None:
    harness.odoo.major = 16
    async with harness.manager(username="admin", api_key="KEY") as manager:
        assert manager.protocol == "xmlrpc"
        await manager.search_count("res.partner")
    calls = _xmlrpc_calls(harness.odoo)
    login = next(params for _, method, params in calls if method == "authenticate")
    assert login[:3] == ("demo", "admin", "KEY")  # the login is still given
    execute = [params for _, method, params in calls if method == "execute_kw"]
    assert execute and all(params[1:3] == (2, "KEY") for params in execute)


def _jsonrpc_service(odoo: ScriptedOdoo) -> Answer:
    """``POST /jsonrpc`` (service mode), which the scripted Odoo does not serve itself."""

    def answer(request: httpx2.Request) -> httpx2.Response | None:
        if request.url.path != "/jsonrpc":
            return None
        params = json.loads(request.content)["params"]
        args = params["args"]
        if (params["service"], params["method"]) == ("common", "authenticate"):
            result: Any = 2 if args[2] == odoo.api_key else False
        elif (params["service"], params["method"]) == ("object", "execute_kw"):
            result = odoo.execute("jsonrpc", args[3], args[4], args[5], args[6])
        else:
            return httpx2.Response(404)
        return httpx2.Response(200, json={"jsonrpc": "2.0", "id": 1, "result": result})

    return answer


@pytest.mark.req("REQ-02b-06", "REQ-02b-07")
async def test_jsonrpc_envelopes_for_a_session_and_for_an_api_key(harness: Harness) -> None:
    harness.odoo.major = 17
    async with harness.manager(**ADMIN) as manager:
        assert manager.protocol == "jsonrpc"
        await manager.search_count("res.partner", [["id", "=", 1]])
    request = harness.odoo.requests[-1]
    assert request.url.path == "/web/dataset/call_kw/res.partner/search_count"
    envelope = json.loads(request.content)
    assert (envelope["jsonrpc"], envelope["method"]) == ("2.0", "call")
    assert envelope["params"]["model"] == "res.partner"
    assert envelope["params"]["method"] == "search_count"
    assert envelope["params"]["args"] == [[["id", "=", 1]]]
    assert envelope["params"]["kwargs"]["context"] == {"lang": "en_US", "tz": "UTC"}

    odoo = ScriptedOdoo(major=17)
    async with _manager(
        odoo, _jsonrpc_service(odoo), username="admin", api_key="KEY", protocol="jsonrpc"
    ) as manager:
        await manager.search_count("res.partner", [["id", "=", 1]])
    request = odoo.requests[-1]
    assert request.url.path == "/jsonrpc"
    envelope = json.loads(request.content)
    assert (envelope["jsonrpc"], envelope["method"]) == ("2.0", "call")
    assert envelope["params"] == {
        "service": "object",
        "method": "execute_kw",
        "args": [
            "demo", 2, "KEY", "res.partner", "search_count", [[["id", "=", 1]]],
            {"context": {"lang": "en_US", "tz": "UTC"}},
        ],
    }  # fmt: skip
    assert "/web/session/authenticate" not in _paths(odoo)  # a key never opens a session


@pytest.mark.req("REQ-02b-08")
async def test_jsonrpc_http_401_is_an_expired_session(harness: Harness) -> None:
    harness.odoo.major = 17
    async with harness.manager(**ADMIN) as manager:
        harness.odoo.fail_next(status(401))
        assert await manager.search_count("res.partner") == 1
    assert _paths(harness.odoo).count("/web/session/authenticate") == 2


@pytest.mark.req("REQ-02-01")
def test_settings_take_a_url_a_database_and_credentials_with_defaults() -> None:
    settings = ConnectionSettings.model_validate(
        {"url": "http://h", "database": "demo", "username": "u", "password": "p"}
    )
    assert (settings.protocol, settings.timeout, settings.verify_ssl) == ("auto", 30.0, True)
    for choice in ("auto", "xmlrpc", "jsonrpc", "json2"):
        assert (
            ConnectionSettings.model_validate(
                {"url": "http://h", "database": "d", "username": "u", "api_key": "k"}
                | {"protocol": choice}
            ).protocol
            == choice
        )
    for missing in ("url", "database"):
        values = {"url": "http://h", "database": "demo", "username": "u", "password": "p"}
        del values[missing]
        with pytest.raises(ValidationError, match=missing):
            ConnectionSettings.model_validate(values)
    with pytest.raises(ValidationError):
        ConnectionSettings.model_validate({"url": "http://h", "database": "d", "username": "u"})
    with pytest.raises(ValidationError, match="protocol"):
        ConnectionSettings.model_validate(
            {"url": "http://h", "database": "d", "username": "u", "password": "p"}
            | {"protocol": "soap"}
        )


@pytest.mark.req("REQ-02-30")
def test_certificates_are_verified_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[object] = []
    real = httpx2.AsyncClient

    def spy(*args: Any, **kwargs: Any) -> httpx2.AsyncClient:
        seen.append(kwargs["verify"])
        return real(*args, **kwargs)

    monkeypatch.setattr(httpx2, "AsyncClient", spy)
    settings = ConnectionSettings.model_validate(
        {"url": "https://h", "database": "d", "username": "u", "password": "p"}
    )
    build_http_client(settings)
    assert seen == [True]
