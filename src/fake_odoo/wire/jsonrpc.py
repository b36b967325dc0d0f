"""JSON-RPC 2.0 over HTTP, as Odoo 19's ``JsonRPCDispatcher`` serves it.

Routes: ``/jsonrpc`` (the ``common``/``db``/``object`` services, stateless),
``/web/session/authenticate``, ``/web/session/get_session_info``,
``/web/session/destroy``, ``/web/dataset/call_kw[/<model>/<method>]`` (cookie session)
and ``/web/webclient/version_info``.  Always HTTP 200; the envelope is
``{"jsonrpc", "id", "error"|"result"}`` and, like Odoo's ``_response``, a None result
leaves the ``result`` key out.  Error codes: 0 (200 up to Odoo 17), 404 for werkzeug
NotFound, 100 for an expired session.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from fake_odoo.orm.exceptions import AccessDenied, AccessError, BadRequest, NotFound
from fake_odoo.wire.errors import is_not_found, serialize_exception
from fake_odoo.wire.pages import HTML_CONTENT_TYPE
from fake_odoo.wire.services import dispatch_rpc, warn_deprecated
from fake_odoo.wire.session import SESSION_COOKIE, SESSION_MAX_AGE, Session, session_info
from fake_odoo.wire.versions import (
    callkw_checks_model_first,
    jsonrpc_error_code,
    jsonrpc_rejects_bad_json_as_text,
)

if TYPE_CHECKING:
    from fake_odoo.handle import FakeOdoo

__all__ = ["JSON_CONTENT_TYPE", "SessionExpiredException", "handle_jsonrpc", "json_response"]

JSON_CONTENT_TYPE = "application/json; charset=utf-8"


class SessionExpiredException(Exception):
    """``odoo.http.SessionExpiredException``: the web session is gone (JSON-RPC code 100)."""


SessionExpiredException.__module__ = "odoo.http"


def json_default(value: Any) -> Any:
    """``odoo.tools.json.json_default``: datetimes as Odoo strings, bytes decoded."""
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, date):
        return value.strftime("%Y-%m-%d")
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    return str(value)


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """``request.make_json_response``: default separators, no ASCII escaping."""
    body = json.dumps(data, ensure_ascii=False, default=json_default).encode()
    return Response(body, status, headers={"Content-Type": JSON_CONTENT_TYPE, **(headers or {})})


def _envelope(request_id: Any, result: Any = None, error: Any = None) -> dict[str, Any]:
    response: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id}
    if error is not None:
        response["error"] = error
    if result is not None:
        response["result"] = result
    return response


def _error(exc: BaseException, major: int) -> dict[str, Any]:
    error: dict[str, Any] = {"code": jsonrpc_error_code(major), "message": "Odoo Server Error"}
    if is_not_found(exc):
        error = {"code": 404, "message": "404: Not Found"}
    elif isinstance(exc, SessionExpiredException):
        error = {"code": 100, "message": "Odoo Session Expired"}
    error["data"] = serialize_exception(exc, major)
    return error


class _BadJson(Exception):
    """Odoo 17 aborts an unparsable body with a bare text response, outside the envelope."""


def _parse(body: bytes, major: int) -> tuple[Any, dict[str, Any]]:
    """(request id, params) of a JSON-RPC body."""
    try:
        payload = json.loads(body)
        return payload.get("id"), payload.get("params") or {}
    except ValueError as exc:
        if jsonrpc_rejects_bad_json_as_text(major):
            raise _BadJson("Invalid JSON data") from exc
        raise BadRequest("Invalid JSON data") from exc
    except AttributeError as exc:
        if jsonrpc_rejects_bad_json_as_text(major):
            raise _BadJson("Invalid JSON-RPC data") from exc
        raise BadRequest("Invalid JSON data") from exc


async def handle_jsonrpc(request: Request, fake: FakeOdoo, route: str) -> Response:
    """Serve one JSON-RPC POST for ``route`` (a key of the route table below)."""
    body = await request.body()
    sid = request.cookies.get(SESSION_COOKIE)
    path = request.url.path
    if route == "jsonrpc":
        warn_deprecated(fake, path)
    set_cookie: list[Session] = []

    major = fake.db.major

    def run() -> dict[str, Any]:
        request_id: Any = None
        try:
            request_id, params = _parse(body, major)
            endpoint = _routes(fake, path, sid, set_cookie)[route]
            return _envelope(request_id, result=endpoint(**params))
        except _BadJson:
            raise
        except Exception as exc:
            return _envelope(request_id, error=_error(exc, major))

    try:
        response = json_response(await run_in_threadpool(run))
    except _BadJson as exc:
        return Response(str(exc).encode(), 400, headers={"Content-Type": HTML_CONTENT_TYPE})
    for session in set_cookie:
        response.set_cookie(
            SESSION_COOKIE, session.sid, max_age=SESSION_MAX_AGE, httponly=True, samesite="lax"
        )
    return response


def _routes(
    fake: FakeOdoo, path: str, sid: str | None, set_cookie: list[Session]
) -> dict[str, Callable[..., Any]]:
    """The endpoints, as plain functions so bad params raise Odoo's own TypeError."""

    def user_session() -> Session:
        # auth="user" routes: no or unknown session id -> SessionExpiredException
        session = fake.sessions.get(sid)
        if session is None:
            raise SessionExpiredException("Session expired")
        return session

    def jsonrpc(service: str, method: str, args: list[Any]) -> Any:
        return dispatch_rpc(fake, "jsonrpc", path, service, method, list(args))

    def authenticate(db: str, login: str, password: str, base_location: Any = None) -> Any:
        fake.record("web", path, "common", "authenticate")
        if db != fake.db.name:
            raise AccessError("Database not found.")
        with fake.db.lock:
            uid = fake.db.authenticate(login, password)
        if not uid:
            raise AccessDenied()
        context = fake.call_kw(uid, "res.users", "context_get", [], {})
        session = fake.sessions.new(db, uid, login, context)
        info = session_info(fake, session)
        set_cookie.append(session)
        return info

    def get_session_info() -> Any:
        return session_info(fake, user_session())

    def destroy() -> Any:
        fake.sessions.drop(sid)
        return None

    def call_kw(
        model: str, method: str, args: list[Any], kwargs: dict[str, Any], path: Any = None
    ) -> Any:
        sent = kwargs.get("context") if isinstance(kwargs, dict) else None
        fake.record("web", _path, "object", method, model=model, context=sent, kwargs=kwargs)
        # Odoo 19's readonly check looks the model up before authentication: an unknown model
        # is werkzeug's bare 404, with or without a session (err_callkw_unknown_model); 17 has
        # no such check and answers the registry's KeyError (same capture of the 17 batch).
        known = model in fake.db.registry
        if callkw_checks_model_first(fake.db.major) and not known:
            raise NotFound()
        session = user_session()
        if not known and not method.startswith("_"):
            # 17's ``_call_kw``: ``check_method_name`` (private names), then ``request.env[model]``
            raise KeyError(model)
        return fake.call_kw(session.uid, model, method, list(args), dict(kwargs))

    def version_info() -> Any:
        return fake.db.version_info

    _path = path
    return {
        "jsonrpc": jsonrpc,
        "authenticate": authenticate,
        "get_session_info": get_session_info,
        "destroy": destroy,
        "call_kw": call_kw,
        "version_info": version_info,
    }
