"""Helpers: a scripted Odoo behind ``httpx2.MockTransport`` for wire-shape and recovery tests.

It answers the three protocols the way Odoo 19 does (shapes from real captures) but knows only
the handful of calls these tests make; the full fake Odoo serves the integration tests.

Its version facts are written out here from the captures, independently of the server's table
(``odoo_mcp.connection.versions``), so that a wrong table fails these tests:
``name_search`` takes ``args=`` up to 18.0 (real 17 refuses ``domain=``:
``odoo17/err_xmlrpc_name_search_domain_kwarg.json``) and ``domain=`` on 19 (19 refuses
``args=``: ``flow_name_search.json``); ``name_get`` exists up to 17
(``odoo17/ok_xmlrpc_partner_name_get.json``); ``copy`` answers an int and refuses several
records on 17, ``[id]`` from 18 (``flow_copy_partner.json``); ``default_get``'s parameter is
``fields_list`` on BaseModel but ``fields`` on res.partner up to 18 (17's
``meta_method_signatures.json``), ``fields`` everywhere on 19.
"""

from __future__ import annotations

import json
import xmlrpc.client
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx2

from odoo_mcp.connection import ConnectionManager, ConnectionSettings

NONE_MARSHAL = (
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.11/xmlrpc/client.py", line 540, in dump_nil\n'
    '    raise TypeError("cannot marshal None unless allow_none is enabled")\n'
    "TypeError: cannot marshal None unless allow_none is enabled\n"
)
UNAUTHORIZED = {
    "name": "werkzeug.exceptions.Unauthorized",
    "message": "Invalid apikey",
    "arguments": ["Invalid apikey", 401],
    "context": {},
    "debug": "werkzeug.exceptions.Unauthorized: 401 Unauthorized: Invalid apikey\n",
}
SESSION_EXPIRED = {
    "code": 100,
    "message": "Odoo Session Expired",
    "data": {
        "name": "odoo.http.SessionExpiredException",
        "message": "Session expired",
        "arguments": ["Session expired"],
        "context": {},
        "debug": "odoo.http.SessionExpiredException: Session expired\n",
    },
}

JSON = {"Content-Type": "application/json; charset=utf-8"}
Fault = Callable[[httpx2.Request], httpx2.Response]


@dataclass
class ScriptedOdoo:
    major: int = 19
    password: str = "admin"
    api_key: str = "KEY"
    xmlrpc_enabled: bool = True
    requests: list[httpx2.Request] = field(default_factory=list)
    calls: list[tuple[str, str, str, list[Any], dict[str, Any]]] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    sessions: set[str] = field(default_factory=set)
    results: dict[tuple[str, str], Any] = field(default_factory=dict)
    #: (model, method) -> the answer, for the next call only
    answers: dict[tuple[str, str], Any] = field(default_factory=dict)

    # --- fault helpers: each is consumed by one request -------------------------------------
    def fail_next(self, *faults: Fault) -> None:
        self.faults.extend(faults)

    def version_info(self) -> dict[str, Any]:
        return {
            "server_version": f"{self.major}.0",
            "server_version_info": [self.major, 0, 0, "final", 0, ""],
            "server_serie": f"{self.major}.0",
            "protocol_version": 1,
        }

    def _secret_ok(self, secret: str) -> bool:
        return secret in (self.password, self.api_key)

    def execute(
        self, protocol: str, model: str, method: str, args: list[Any], kw: dict[str, Any]
    ) -> Any:
        self.calls.append((protocol, model, method, args, kw))
        if (model, method) in self.answers:
            return self.answers.pop((model, method))
        if (model, method) in self.results:
            return self.results[(model, method)]
        if method == "context_get":
            return {"lang": "en_US", "tz": "Europe/Brussels", "uid": 2}
        if method == "search_count":
            return 0 if model == "ir.module.module" else 1
        if method == "search_read":
            return [{"id": 9, "name": "Acme Corporation"}]
        if method == "create":
            return [42] if protocol == "json2" else 42
        if method == "copy":
            ids = kw.get("ids") or args[0]
            assert self.major >= 18 or len(ids) == 1, "ValueError: Expected singleton"
            return [43] if self.major >= 18 else 43
        if method == "default_get":
            # 17: BaseModel says fields_list, res.partner says fields: only by position is safe
            names = {"fields"} if self.major >= 19 else set()
            assert set(kw) - {"context", "ids"} <= names, kw
            fields = kw.get("fields", args[0] if args else None)
            assert isinstance(fields, list), (args, kw)
            return {name: False for name in fields}
        if method in ("action_lock", "button_draft"):
            return None
        if method == "read":
            ids = kw.get("ids") or args[0]
            return [{"id": i, "display_name": f"Partner {i}"} for i in ids]
        if method == "name_search":
            expected = "args" if self.major <= 18 else "domain"
            assert set(kw) - {"context"} == {"name", expected, "operator", "limit"}, kw
            return [[1, "Acme"]]
        if method == "name_get":
            assert self.major <= 17, "AttributeError: name_get"
            return [[i, f"Partner {i}"] for i in args[0]]
        return True

    # --- the transport ------------------------------------------------------------------------
    def handle(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        if self.faults:
            return self.faults.pop(0)(request)
        path = request.url.path
        if path.startswith("/xmlrpc/2/"):
            if not self.xmlrpc_enabled:
                return httpx2.Response(404, text="<html>404</html>")
            return self._xmlrpc(path.rsplit("/", 1)[-1], request)
        if path == "/web/session/authenticate":
            params = json.loads(request.content)["params"]
            if params["password"] != self.password:
                return _jsonrpc_error("odoo.exceptions.AccessDenied", "Access Denied")
            self.sessions.add("s1")
            result = {"uid": 2, "is_admin": True, **self.version_info(), "is_enterprise": False}
            return httpx2.Response(
                200,
                json={"jsonrpc": "2.0", "id": 1, "result": result},
                headers={"Set-Cookie": "session_id=s1; Path=/; HttpOnly"},
            )
        if path.startswith("/web/dataset/call_kw/"):
            cookie = request.headers.get("Cookie", "")
            if cookie.removeprefix("session_id=") not in self.sessions:
                return httpx2.Response(
                    200, json={"jsonrpc": "2.0", "id": 1, "error": SESSION_EXPIRED}
                )
            params = json.loads(request.content)["params"]
            result = self.execute(
                "jsonrpc", params["model"], params["method"], params["args"], params["kwargs"]
            )
            body = {"jsonrpc": "2.0", "id": 1}
            if result is not None:
                body["result"] = result
            return httpx2.Response(200, json=body)
        if path.startswith("/json/2/"):
            if request.headers.get("Authorization") != f"bearer {self.api_key}":
                return httpx2.Response(
                    401, json=UNAUTHORIZED, headers={"WWW-Authenticate": "Bearer "}
                )
            _, _, _, model, method = path.split("/")
            body = json.loads(request.content)
            result = self.execute("json2", model, method, [], body)
            return httpx2.Response(200, content=json.dumps(result).encode(), headers=JSON)
        if path == "/web/version":
            return httpx2.Response(
                200,
                json={
                    "version_info": [self.major, 0, 0, "final", 0, ""],
                    "version": f"{self.major}.0",
                },
            )
        return httpx2.Response(404, text="not found")

    def _xmlrpc(self, service: str, request: httpx2.Request) -> httpx2.Response:
        params, method = xmlrpc.client.loads(request.content)
        if service == "common" and method == "version":
            return _xml(self.version_info())
        if service == "common" and method == "authenticate":
            return _xml(2 if self._secret_ok(params[2]) else False)
        _db, _uid, secret, model, odoo_method, args, *rest = params
        if not self._secret_ok(secret):
            return _xml_fault(3, "Access Denied")
        result = self.execute("xmlrpc", model, odoo_method, list(args), rest[0] if rest else {})
        if result is None:
            return _xml_fault(1, NONE_MARSHAL)
        return _xml(result)


def _xml(value: Any) -> httpx2.Response:
    return httpx2.Response(
        200,
        content=xmlrpc.client.dumps((value,), methodresponse=True).encode(),
        headers={"Content-Type": "text/xml"},
    )


def _xml_fault(code: int, text: str) -> httpx2.Response:
    body = xmlrpc.client.dumps(xmlrpc.client.Fault(code, text), methodresponse=True)
    return httpx2.Response(200, content=body.encode(), headers={"Content-Type": "text/xml"})


def _jsonrpc_error(name: str, message: str) -> httpx2.Response:
    data = {"name": name, "message": message, "arguments": [message], "context": {}, "debug": ""}
    error = {"code": 0, "message": "Odoo Server Error", "data": data}
    return httpx2.Response(200, json={"jsonrpc": "2.0", "id": 1, "error": error})


# --- one-shot faults ---------------------------------------------------------------------------
def refuse(request: httpx2.Request) -> httpx2.Response:
    raise httpx2.ConnectError("Connection refused", request=request)


def drop(request: httpx2.Request) -> httpx2.Response:
    raise httpx2.RemoteProtocolError(
        "Server disconnected without sending a response.", request=request
    )


def status(code: int, **headers: str) -> Fault:
    def answer(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(code, text="<html>proxy error</html>", headers=headers)

    return answer


def garbage(request: httpx2.Request) -> httpx2.Response:
    return httpx2.Response(
        200, content=b"\x00not a body{", headers={"Content-Type": "application/json"}
    )


@dataclass
class Harness:
    odoo: ScriptedOdoo
    sleeps: list[float]
    now: list[float]

    def manager(self, **settings: Any) -> ConnectionManager:
        values: dict[str, Any] = {"url": "http://odoo.test", "database": "demo"}
        values.update(settings)

        async def sleep(delay: float) -> None:
            self.sleeps.append(delay)

        return ConnectionManager(
            ConnectionSettings.model_validate(values),
            transport=httpx2.MockTransport(self.odoo.handle),
            sleep=sleep,
            clock=lambda: self.now[0],
        )
