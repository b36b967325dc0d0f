"""REQ-HTTP-15: who an Odoo call runs as.

On stdio, and on HTTP with authentication off, every call runs as the server's own configured
Odoo user. On HTTP with authentication on, each request carries its caller's API key; the
transport resolves it to that user's own ``ConnectionManager`` (``odoo_mcp.http.auth``) and
the handlers run inside :func:`acting_as`, so that every Odoo call made while answering the
request, from any tool, resource or prompt, goes to the caller's connection and Odoo's access
rights apply to the caller.

The tools keep one ``OdooCalls`` object (:class:`CallerRouter`) and never know which user they
serve: the routing is a context variable, so concurrent requests of different users, each in
its own task, cannot see each other's connection.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from odoo_mcp.connection import ConnectionManager
from odoo_mcp.connection.base import CallOutcome, OdooCalls, OdooValue
from odoo_mcp.connection.shapes import ConnectionInfo
from odoo_mcp.connection.version import OdooVersion

__all__ = [
    "CALLER_SCOPE_KEY",
    "Caller",
    "CallerRouter",
    "acting_as",
    "as_request_caller",
    "caller_of",
]

#: The ASGI scope key where the HTTP transport leaves the caller's connection.
CALLER_SCOPE_KEY: Final = "odoo_mcp.caller"


@dataclass(frozen=True)
class Caller:
    """An authenticated HTTP caller: its own connection and the uid Odoo gave its token (kept
    here: the connection's live uid is None while it reconnects). ``uid`` None: a token Odoo
    could not check yet (unreachable); its connection authenticates before any call."""

    connection: ConnectionManager
    uid: int | None


_CURRENT: ContextVar[ConnectionManager | None] = ContextVar("odoo_mcp_caller", default=None)


@contextmanager
def acting_as(connection: ConnectionManager | None) -> Iterator[None]:
    """REQ-HTTP-15: Odoo calls made inside the block run on ``connection`` (None: the
    server's own)."""
    token = _CURRENT.set(connection)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def caller_of(request_context: Any) -> Caller | None:
    """The caller the HTTP transport attached to this request, if any."""
    request = getattr(request_context, "request", None)
    scope = getattr(request, "scope", None)
    found = scope.get(CALLER_SCOPE_KEY) if isinstance(scope, Mapping) else None
    return found if isinstance(found, Caller) else None


ParamsT = TypeVar("ParamsT")
ResultT = TypeVar("ResultT")


def as_request_caller(
    handler: Callable[[Any, ParamsT], Awaitable[ResultT]],
) -> Callable[[Any, ParamsT], Awaitable[ResultT]]:
    """REQ-HTTP-15: wrap an MCP request handler so it runs as the request's caller."""

    async def run(ctx: Any, params: ParamsT) -> ResultT:
        caller = caller_of(ctx)
        with acting_as(caller.connection if caller is not None else None):
            return await handler(ctx, params)

    return run


class CallerRouter(OdooCalls):
    """REQ-HTTP-15: an ``OdooCalls`` that sends each call to the current caller's connection,
    or to the server's own connection when the request has no caller."""

    def __init__(self, own: ConnectionManager) -> None:
        self.own = own

    @property
    def current(self) -> ConnectionManager:
        return _CURRENT.get() or self.own

    async def call(
        self,
        model: str,
        method: str,
        args: Sequence[OdooValue] = (),
        kwargs: Mapping[str, OdooValue] | None = None,
        context: Mapping[str, object] | None = None,
    ) -> CallOutcome:
        """REQ-HTTP-15: the call, as the caller."""
        return await self.current.call(model, method, args, kwargs, context)

    @property
    def odoo_version(self) -> OdooVersion | None:
        """One Odoo server behind every caller: its version is the server's."""
        return self.current.odoo_version or self.own.odoo_version

    @property
    def uid(self) -> int | None:
        """REQ-HTTP-16: the Odoo user the current request acts as (audit, ACL listing)."""
        return self.current.uid

    def get_connection_info(self) -> ConnectionInfo:
        """REQ-02-33: the connection as the current caller sees it (its uid and login)."""
        return self.current.get_connection_info()
