"""The fake Odoo's ASGI application: Odoo 19's RPC routes plus the control API.

Imitates the URL map of an Odoo server with the ``rpc`` and ``web`` modules: XML-RPC
(``/xmlrpc/2/<service>``, legacy ``/xmlrpc/<service>``), JSON-RPC (``/jsonrpc`` and the
``/web/...`` session routes), JSON-2 (``/json/2/...``, from 19 on), ``GET /web/version``
(from 18 on); anything else is the version's HTML 404 page (``fake_odoo.wire.pages``).
Faults are applied by ``FaultMiddleware`` around all of it except ``/__fake__/``.

``create_app(fake, control=False)`` (``fake-odoo serve --no-control``) leaves the
``/__fake__/`` routes out: ``/__fake__/info`` is then an unknown URL like any other (the
version's HTML 404 page), which is what a real Odoo answers there, so a client meant for real
Odoo servers can be tested against the fake.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route

from fake_odoo.control import control_routes
from fake_odoo.faults import FaultMiddleware
from fake_odoo.wire.errors import werkzeug_html
from fake_odoo.wire.json2 import handle_json2
from fake_odoo.wire.jsonrpc import handle_jsonrpc, json_response
from fake_odoo.wire.pages import not_found_page
from fake_odoo.wire.versions import (
    has_jsonrpc_route,
    has_web_version_route,
    json_route_type,
    wrong_type_status,
)
from fake_odoo.wire.xmlrpc import handle_xmlrpc

if TYPE_CHECKING:
    from fake_odoo.handle import FakeOdoo

__all__ = ["create_app"]

Handler = Callable[[Request], Awaitable[Response]]

_HTML = {"Content-Type": "text/html; charset=utf-8"}
_JSONRPC_ROUTES = {
    "/jsonrpc": "jsonrpc",
    "/web/session/authenticate": "authenticate",
    "/web/session/get_session_info": "get_session_info",
    "/web/session/destroy": "destroy",
    "/web/dataset/call_kw": "call_kw",
    "/web/webclient/version_info": "version_info",
}
_WRONG_TYPE = (
    "Request inferred type is compatible with [&#39;http&#39;, &#39;json2&#39;] but "
    "&#39;{path}&#39; is type=&#39;jsonrpc&#39;.<br><br>Please verify the Content-Type "
    "request header and try again."
)
# Odoo 17's text has neither json2 nor the advice (meta_version step 8)
_WRONG_TYPE_17 = (
    "Request inferred type is compatible with [&#39;http&#39;] but "
    "&#39;{path}&#39; is type=&#39;{route_type}&#39;."
)


def _guard(handler: Handler) -> Handler:
    """Drop requests whose client left (e.g. timed out during a latency fault) quietly."""

    async def guarded(request: Request) -> Response:
        try:
            return await handler(request)
        except ClientDisconnect:
            return Response(b"", 400)

    return guarded


def _wrong_type(major: int, path: str) -> Response:
    """A request that is not a JSON POST on a JSON-RPC route (werkzeug's HTML page)."""
    status = wrong_type_status(major)
    if status == 415:
        text = _WRONG_TYPE.format(path=path)
    else:
        text = _WRONG_TYPE_17.format(path=path, route_type=json_route_type(major))
    return Response(werkzeug_html(status, text), status, headers=_HTML)


def create_app(fake: FakeOdoo, *, control: bool = True) -> Starlette:
    """The Starlette app serving ``fake`` (its current database, whatever ``reset`` does);
    without ``control``, no ``/__fake__/`` control API (as a real Odoo)."""

    async def xmlrpc2(request: Request) -> Response:
        return await handle_xmlrpc(request, fake, request.path_params["service"], legacy=False)

    async def xmlrpc1(request: Request) -> Response:
        return await handle_xmlrpc(request, fake, request.path_params["service"], legacy=True)

    async def jsonrpc(request: Request) -> Response:
        path = request.url.path
        route = _JSONRPC_ROUTES.get(path, "call_kw")  # /web/dataset/call_kw/<model>/<method>
        if route == "jsonrpc" and not has_jsonrpc_route(fake.db.major):
            return not_found_page(fake)  # 20: the rpc module no longer routes /jsonrpc
        if request.method != "POST":
            return _wrong_type(fake.db.major, path)
        return await handle_jsonrpc(request, fake, route)

    async def json2(request: Request) -> Response:
        return await handle_json2(request, fake, request.path_params.get("subpath", ""))

    async def web_version(request: Request) -> Response:
        if not has_web_version_route(fake.db.major):
            return not_found_page(fake)  # no such route before 18: any method is a 404
        if request.method != "GET":
            # an http route with csrf=True: a POST without token is refused
            text = werkzeug_html(400, "Session expired (invalid CSRF token)")
            return Response(text, 400, headers=_HTML)
        info = fake.db.version_info
        return json_response(
            {"version_info": info["server_version_info"], "version": info["server_version"]}
        )

    async def not_found(request: Request) -> Response:
        return not_found_page(fake)

    any_method = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
    routes = [
        *(control_routes(fake) if control else []),
        Route("/xmlrpc/2/{service}", _guard(xmlrpc2), methods=any_method),
        Route("/xmlrpc/{service}", _guard(xmlrpc1), methods=any_method),
        *[Route(path, _guard(jsonrpc), methods=any_method) for path in _JSONRPC_ROUTES],
        Route("/web/dataset/call_kw/{rest:path}", _guard(jsonrpc), methods=any_method),
        Route("/json/2", _guard(json2), methods=any_method),
        Route("/json/2/{subpath:path}", _guard(json2), methods=any_method),
        Route("/web/version", web_version, methods=any_method),
        Route("/{rest:path}", not_found, methods=any_method),
    ]
    middleware = [
        Middleware(FaultMiddleware, book=fake.faults, expire_sessions=fake.expire_sessions)
    ]
    return Starlette(routes=routes, middleware=middleware)
