"""The JSON-2 API of Odoo 19: ``POST /json/2/<model>/<method>`` (``rpc/controllers/json2.py``).

Bearer API key (scheme case-insensitive), optional ``X-Odoo-Database``, the body holds
the method's named arguments plus ``ids`` and ``context``; success is the bare JSON
result (``create`` always a list), errors are ``{name, message, arguments, context,
debug}`` with an HTTP status (400/401/403/404/422/500).  Servers before 19 have no such
route: every ``/json/2`` URL is their unknown-URL HTML 404 page there.
"""

from __future__ import annotations

import inspect
import json
import re
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from fake_odoo.orm.api import is_model_method
from fake_odoo.orm.exceptions import BadRequest, NotFound, Unauthorized, UnprocessableEntity
from fake_odoo.orm.service import resolve
from fake_odoo.wire.errors import http_status_of, serialize_exception, werkzeug_html
from fake_odoo.wire.jsonrpc import json_response
from fake_odoo.wire.pages import not_found_page
from fake_odoo.wire.signatures_odoo19 import BASE, MODELS, Signature
from fake_odoo.wire.versions import has_json2

if TYPE_CHECKING:
    from fake_odoo.handle import FakeOdoo

__all__ = ["handle_json2"]

_BEARER = re.compile(r"^bearer\s+(.+)$", re.IGNORECASE)
_NO_AUTH = "User not authenticated, use an API Key with a Bearer Authorization header."


def html_not_found() -> Response:
    return Response(werkzeug_html(404), 404, headers={"Content-Type": "text/html; charset=utf-8"})


async def handle_json2(request: Request, fake: FakeOdoo, subpath: str) -> Response:
    """Serve any request under ``/json/2/``."""
    if not has_json2(fake.db.major):
        return not_found_page(fake)  # no /json/2 route: the server's unknown-URL page
    dbname = request.headers.get("x-odoo-database")
    if dbname is not None and dbname != fake.db.name:
        # no registry for that database: Odoo has no JSON-2 route to match
        return html_not_found()
    model, _, method = subpath.partition("/")
    if request.method != "POST" or not model or not method or "/" in method:
        # the catch-all route ``/json/2/<path:subpath>`` (json2.py web_json_2_404)
        try:
            raise NotFound("Did you mean POST /json/2/<model>/<method>?")
        except NotFound as exc:
            return json_response(serialize_exception(exc), 404)
    body = await request.body()
    authorization = request.headers.get("authorization", "")
    path = request.url.path

    def run() -> tuple[int, Any]:
        try:
            fake.record("json2", path, "object", method, model=model, context=_context_of(body))
            return 200, _call(fake, model, method, authorization, body)
        except Exception as exc:
            return http_status_of(exc), serialize_exception(exc)

    status, payload = await run_in_threadpool(run)
    headers = {"WWW-Authenticate": "Bearer "} if status == 401 else None
    return json_response(payload, status, headers)


def _context_of(body: bytes) -> Any:
    """The ``context`` member of a JSON-2 body, for the call log (None if it has none)."""
    try:
        params = json.loads(body)
    except ValueError:
        return None
    return params.get("context") if isinstance(params, dict) else None


def _authenticate(fake: FakeOdoo, authorization: str) -> int:
    """``ir.http._auth_method_bearer``."""
    match = _BEARER.match(authorization)
    if not match:
        raise Unauthorized(_NO_AUTH)
    with fake.db.lock:
        uid = fake.db.authenticate_api_key(match.group(1))
    if not uid:
        raise Unauthorized("Invalid apikey")
    return uid


def _call(fake: FakeOdoo, model: str, method: str, authorization: str, body: bytes) -> Any:
    """``web_json_2_rpc``: authenticate, parse, resolve model and method, then call."""
    uid = _authenticate(fake, authorization)
    try:
        params = json.loads(body)
    except ValueError as exc:
        raise BadRequest(f"could not parse the body as json: {exc}") from exc
    if not isinstance(params, dict):
        raise BadRequest("could not parse the body as json: expected an object")
    ids = params.pop("ids", None)
    if model not in fake.db.registry:
        try:
            raise KeyError(model)
        except KeyError as exc:
            raise NotFound(f"the model {model!r} does not exist") from exc
    try:
        # the ORM's own resolution: AccessError (403) for private names propagates
        func = resolve(fake.db, model, method)
    except AttributeError as exc:
        raise NotFound(exc.args[0]) from exc
    is_model = is_model_method(func)
    if ids and is_model:
        raise UnprocessableEntity(f"cannot call {model}.{method} with ids")
    args: list[Any] = [] if is_model else [ids or []]
    declared = MODELS.get(model, {}).get(method) or BASE.get(method)
    if declared is not None:
        positional, params = _bind(declared, params)
        args += positional
    result = fake.call_kw(uid, model, method, args, params)
    if method == "create" and isinstance(result, int) and not isinstance(result, bool):
        return [result]  # JSON-2 create answers a list even for one dict
    return result


_KINDS = {
    "positional": inspect.Parameter.POSITIONAL_ONLY,
    "either": inspect.Parameter.POSITIONAL_OR_KEYWORD,
    "*args": inspect.Parameter.VAR_POSITIONAL,
    "keyword": inspect.Parameter.KEYWORD_ONLY,
    "**kwargs": inspect.Parameter.VAR_KEYWORD,
}


def _bind(declared: Signature, params: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """Bind the body to Odoo 19's declared signature, as ``web_json_2_rpc`` does.

    A body that does not bind (a missing required argument, an unknown name on a method
    without ``**kwargs``) is 422 ``UnprocessableEntity`` with Python's own message, as in
    the capture ``err_json2_default_get_fields_list``. A body that binds is passed on with the
    leading parameters by position, in Odoo's order: the fake's implementations keep the
    parameter names of older versions (``default_get(fields_list)`` before 19's ``fields``).
    An unknown name that ``**kwargs`` swallows reaches the method and fails there (500
    TypeError, as ``err_json2_bad_kwarg``).
    """
    _api_model, declared_params = declared
    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for name, kind, has_default in declared_params:
        default = None if has_default else inspect.Parameter.empty
        if kind in ("*args", "**kwargs"):
            default = inspect.Parameter.empty
        parameters.append(inspect.Parameter(name, _KINDS[kind], default=default))
    context = params.pop("context", None)
    try:
        inspect.Signature(parameters).bind(None, **params)
    except TypeError as exc:
        raise UnprocessableEntity(str(exc.args[0])) from exc
    positional: list[Any] = []
    rest = dict(params)
    for name, kind, _has_default in declared_params:
        if kind not in ("positional", "either") or name not in rest:
            break
        positional.append(rest.pop(name))
    if context is not None:
        rest["context"] = context
    return positional, rest
