"""XML-RPC over HTTP, as served by Odoo 19's ``addons/rpc/controllers/xmlrpc.py``.

Routes ``/xmlrpc/2/<service>`` (integer fault codes) and the legacy ``/xmlrpc/<service>``
(string fault codes).  The body is built like Odoo's ``dumps``: its ``OdooMarshaller``
with ``allow_none=False`` inside a hand-written ``<methodResponse>`` wrapper (double
quoted XML declaration, blank line before the closing tag), so a result containing
None becomes fault 1 ``TypeError: cannot marshal None...`` *after* the call committed.
"""

from __future__ import annotations

import xmlrpc.client
from collections.abc import Callable
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from fake_odoo.orm.exceptions import (
    AccessDenied,
    AccessError,
    MissingError,
    RedirectWarning,
    UserError,
    message_of,
)
from fake_odoo.wire.errors import format_traceback, werkzeug_html
from fake_odoo.wire.services import dispatch_rpc, warn_deprecated

if TYPE_CHECKING:
    from fake_odoo.handle import FakeOdoo

__all__ = ["XML_CONTENT_TYPE", "dumps", "fault_int", "fault_string", "handle_xmlrpc"]

XML_CONTENT_TYPE = "text/xml; charset=utf-8"

# XML 1.0 forbids these control characters: Odoo removes them so clients can parse.
_CONTROL = str.maketrans(dict.fromkeys([c for c in range(32) if c not in (9, 10, 13)]))

_Write = Callable[[str], Any]


def _dump_unicode(marshaller: Any, value: str, write: _Write) -> None:
    xmlrpc.client.Marshaller.dump_unicode(marshaller, value.translate(_CONTROL), write)


def _dump_datetime(marshaller: Any, value: datetime, write: _Write) -> None:
    _dump_unicode(marshaller, value.strftime("%Y-%m-%d %H:%M:%S"), write)


def _dump_date(marshaller: Any, value: date, write: _Write) -> None:
    _dump_unicode(marshaller, value.strftime("%Y-%m-%d"), write)


def _dump_bytes(marshaller: Any, value: bytes, write: _Write) -> None:
    _dump_unicode(marshaller, value.decode(errors="replace"), write)


class OdooMarshaller(xmlrpc.client.Marshaller):
    """Odoo's marshaller: dates as strings, bytes as text, control characters removed."""

    dispatch: dict[Any, Any] = {
        **xmlrpc.client.Marshaller.dispatch,
        str: _dump_unicode,
        datetime: _dump_datetime,
        date: _dump_date,
        bytes: _dump_bytes,
    }


def dumps(params: tuple[Any, ...] | xmlrpc.client.Fault) -> str:
    """Odoo's ``dumps``: the exact ``<methodResponse>`` text it sends."""
    response = OdooMarshaller(allow_none=False).dumps(params)
    return f'<?xml version="1.0"?>\n<methodResponse>\n{response}\n</methodResponse>\n'


def fault_int(exc: BaseException) -> xmlrpc.client.Fault:
    """``xmlrpc_handle_exception_int`` (``/xmlrpc/2``): 2 warning, 3 denied, 4 access, 1 other."""
    if isinstance(exc, RedirectWarning):
        return xmlrpc.client.Fault(2, message_of(exc))
    if isinstance(exc, AccessError):
        return xmlrpc.client.Fault(4, message_of(exc))
    if isinstance(exc, AccessDenied):
        return xmlrpc.client.Fault(3, message_of(exc))
    if isinstance(exc, UserError):
        return xmlrpc.client.Fault(2, message_of(exc))
    return xmlrpc.client.Fault(1, format_traceback(exc))


def _fault(code: Any, message: str) -> xmlrpc.client.Fault:
    # the legacy endpoint's fault codes are strings (typeshed only allows int)
    return xmlrpc.client.Fault(code, message)


def fault_string(exc: BaseException) -> xmlrpc.client.Fault:
    """``xmlrpc_handle_exception_string`` (legacy ``/xmlrpc``): string fault codes."""
    if isinstance(exc, RedirectWarning):
        return xmlrpc.client.Fault(2, message_of(exc))
    if isinstance(exc, MissingError):
        return _fault("warning -- MissingError\n\n" + message_of(exc), "")
    if isinstance(exc, AccessError):
        return _fault("warning -- AccessError\n\n" + message_of(exc), "")
    if isinstance(exc, AccessDenied):
        return _fault("AccessDenied", message_of(exc))
    if isinstance(exc, UserError):
        return _fault("warning -- UserError\n\n" + message_of(exc), "")
    # odoo.tools.exception_to_unicode: the args joined by newlines
    code = "\n".join(str(arg) for arg in exc.args) if exc.args else str(exc)
    return _fault(code, format_traceback(exc))


async def handle_xmlrpc(request: Request, fake: FakeOdoo, service: str, legacy: bool) -> Response:
    """Serve one XML-RPC POST on ``/xmlrpc[/2]/<service>``; always HTTP 200 text/xml."""
    if request.method != "POST":
        return Response(
            werkzeug_html(405),
            status_code=405,
            headers={"Content-Type": "text/html; charset=utf-8", "Allow": "POST"},
        )
    body = await request.body()
    path = request.url.path
    warn_deprecated(fake, path)
    to_fault = fault_string if legacy else fault_int

    def run() -> str:
        try:
            params, method = xmlrpc.client.loads(body, use_datetime=True)
            result = dispatch_rpc(fake, "xmlrpc", path, service, method or "", list(params))
            return dumps((result,))
        except Exception as exc:
            return dumps(to_fault(exc))

    text = await run_in_threadpool(run)
    return Response(text.encode(), headers={"Content-Type": XML_CONTENT_TYPE})
