"""How Odoo 19 reports an exception on the wire: class names, messages, tracebacks.

Imitates ``odoo.http.serialize_exception`` (the ``data`` of a JSON-RPC error and the
body of a JSON-2 error), ``odoo.tools.exception_to_unicode`` (legacy XML-RPC fault
codes) and the traceback text Odoo puts in ``debug`` / ``faultString``.  The
exception classes of ``fake_odoo.orm.exceptions`` carry Odoo's ``__module__``, so
``traceback.format_exception`` prints the same last line real Odoo prints
(``odoo.exceptions.UserError: ...``, ``ValueError: ...``).
"""

from __future__ import annotations

import traceback
from typing import Any

from fake_odoo.orm.exceptions import (
    AccessDenied,
    AccessError,
    HTTPException,
    MissingError,
    NotFound,
    OperationalError,
    UserError,
    message_of,
    qualified_name,
)
from fake_odoo.wire.versions import serializes_debug_first

__all__ = [
    "format_traceback",
    "http_status_of",
    "serialize_exception",
    "unknown_database",
]


def format_traceback(exc: BaseException) -> str:
    """The traceback text Odoo sends (``debug``, XML-RPC ``faultString``).

    Odoo strips the traceback of AccessDenied (``AccessDenied.__init__`` sets
    ``with_traceback(None)``) so credentials never leak: only the last line is sent.
    """
    if isinstance(exc, AccessDenied):
        return "".join(traceback.format_exception(type(exc), exc, None))
    return "".join(traceback.format_exception(exc))


def _arguments(exc: BaseException) -> list[Any]:
    if isinstance(exc, HTTPException):
        # werkzeug exceptions are serialised as (description, code) by Odoo; raised bare, ()
        return [] if exc.bare else [exc.description, exc.code]
    if isinstance(exc, UserError | AccessDenied):
        return [message_of(exc)]
    return [arg if isinstance(arg, str | int | float | bool) else str(arg) for arg in exc.args]


def serialize_exception(exc: BaseException, major: int = 19) -> dict[str, Any]:
    """``odoo.http.serialize_exception``: the {name, message, arguments, context, debug} dict.

    The keys come in the order of the server's version (``debug`` second on 17).
    """
    data = {
        "name": qualified_name(exc),
        "message": message_of(exc),
        "arguments": _arguments(exc),
        "context": dict(getattr(exc, "context", None) or {}),
    }
    if serializes_debug_first(major):
        return {"name": data.pop("name"), "debug": format_traceback(exc), **data}
    return {**data, "debug": format_traceback(exc)}


def http_status_of(exc: BaseException) -> int:
    """The JSON-2 status: the subclasses are tested before UserError, as Odoo does."""
    if isinstance(exc, HTTPException):
        return exc.code
    if isinstance(exc, MissingError):
        return 404
    if isinstance(exc, AccessError):
        return 403
    if isinstance(exc, AccessDenied):
        return 401
    if isinstance(exc, UserError):
        return 422
    return 500


def unknown_database(name: str) -> OperationalError:
    """The error psycopg2 raises when Odoo opens a registry for a missing database.

    Raised (chained to a KeyError, as Odoo's registry lookup is) by the caller, so the
    traceback shows "During handling of the above exception" like the captured one.
    """
    return OperationalError(
        'connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed: '
        f'FATAL:  database "{name}" does not exist\n'
    )


def is_not_found(exc: BaseException) -> bool:
    """werkzeug NotFound: JSON-RPC reports it with code 404 instead of 0."""
    return isinstance(exc, NotFound)


_WERKZEUG_TEXTS = {
    400: (
        "Bad Request",
        "The browser (or proxy) sent a request that this server could not understand.",
    ),
    404: (
        "Not Found",
        "The requested URL was not found on the server. If you entered the URL manually please"
        " check your spelling and try again.",
    ),
    405: ("Method Not Allowed", "The method is not allowed for the requested URL."),
    415: (
        "Unsupported Media Type",
        "The server does not support the media type transmitted in the request.",
    ),
}


def werkzeug_html(status: int, description: str | None = None) -> bytes:
    """The bare HTML page werkzeug renders for an HTTP error outside any JSON route."""
    title, default = _WERKZEUG_TEXTS[status]
    text = description if description is not None else default
    return (
        f"<!doctype html>\n<html lang=en>\n<title>{status} {title}</title>\n"
        f"<h1>{title}</h1>\n<p>{text}</p>\n"
    ).encode()
