"""REQ-HTTP-15: who an Odoo call runs as.

On stdio, and on HTTP with authentication off, every call runs as the server's own configured
Odoo user. On HTTP with authentication on, each request carries its caller's API key, which
``odoo_mcp.adapter.http.auth.BearerAuth`` resolves to a :class:`Caller` (that user's connection, on
the server's shared Odoo endpoint) and sets as :data:`CURRENT_CALLER` around the request.

That context variable is the one channel a caller's identity travels by, and BearerAuth the
one place that sets it. It reaches every handler because the SDK runs each request's handler in
the context of the transport task that received it (``mcp`` 2.3, documented on
``JSONRPCDispatcher._spawn``: "ASGI middleware (auth, OTel) sets contextvars on the task that
wrote the message"). Concurrent requests of different users, each in its own task, cannot see
each other's caller.

The tools keep one ``OdooCalls`` object (:class:`CallerRouter`) and never know which user they
serve; what needs the caller itself (rate-limit buckets, audit) reads :func:`current_caller`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from odoo_mcp.connection import ConnectionManager
from odoo_mcp.connection.base import CallOutcome, OdooCalls, OdooValue
from odoo_mcp.connection.shapes import ConnectionInfo
from odoo_mcp.connection.version import OdooVersion

__all__ = ["CURRENT_CALLER", "Caller", "CallerRouter", "acting_as", "current_caller"]


@dataclass(frozen=True)
class Caller:
    """An authenticated HTTP caller: its own connection and the uid Odoo gave its token (kept
    here: the connection's live uid is None while it reconnects). ``uid`` None: a token Odoo
    could not check yet (unreachable); its connection authenticates before any call."""

    connection: ConnectionManager
    uid: int | None


#: REQ-HTTP-15: the caller of the request being answered; None: the server's own user.
CURRENT_CALLER: ContextVar[Caller | None] = ContextVar("odoo_mcp_caller", default=None)


def current_caller() -> Caller | None:
    """REQ-HTTP-15: the authenticated caller of this request (None on stdio, or auth off)."""
    return CURRENT_CALLER.get()


@contextmanager
def acting_as(caller: Caller | None) -> Iterator[None]:
    """REQ-HTTP-15: what runs inside the block (the request and every handler it reaches)
    acts as ``caller``; None: as the server's own user."""
    token = CURRENT_CALLER.set(caller)
    try:
        yield
    finally:
        CURRENT_CALLER.reset(token)


class CallerRouter(OdooCalls):
    """REQ-HTTP-15: an ``OdooCalls`` that sends each call to the current caller's connection,
    or to the server's own connection when the request has no caller."""

    def __init__(self, own: ConnectionManager) -> None:
        self.own = own

    @property
    def current(self) -> ConnectionManager:
        """The current caller's connection, else the server's own."""
        caller = CURRENT_CALLER.get()
        return caller.connection if caller is not None else self.own

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
