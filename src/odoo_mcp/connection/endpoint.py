"""SPEC-02: one Odoo server as this process reaches it, shared by every connection to it.

The server's own connection and each HTTP caller's (REQ-HTTP-15) talk to the same Odoo: they
share its pooled HTTP client (REQ-02-25) and what negotiation learned of it (version, edition,
REQ-02a-11), so a new caller costs Odoo exactly its own authentication, and no new pool.

A connection that lost Odoo renews the pool (new sockets, REQ-02-21). The old client is retired,
not closed at once: other connections may have requests in flight on it; it is closed when the
endpoint closes, or when more than ``MAX_RETIRED`` newer ones have replaced it.
"""

from __future__ import annotations

from typing import Final

import httpx2

from odoo_mcp.connection.settings import ConnectionSettings, build_http_client
from odoo_mcp.connection.version import OdooVersion

__all__ = ["OdooEndpoint"]

#: Retired clients kept open for requests in flight; older ones are closed.
MAX_RETIRED: Final = 2


class OdooEndpoint:
    """REQ-02-25/26: the HTTP pool to one Odoo and its negotiated version, per server."""

    def __init__(
        self, settings: ConnectionSettings, transport: httpx2.AsyncBaseTransport | None = None
    ) -> None:
        self._settings = settings
        self._transport = transport
        self.client = build_http_client(settings, transport)
        self._retired: list[httpx2.AsyncClient] = []
        #: REQ-02a-11: the version (with edition) the last negotiation found; None before any
        self.version: OdooVersion | None = None

    async def renew(self, stale: httpx2.AsyncClient) -> httpx2.AsyncClient:
        """REQ-02-21: new sockets after Odoo was lost. ``stale`` is the client the caller used:
        when another connection renewed it already, its replacement is returned as it is."""
        if stale is self.client:
            self._retired.append(self.client)
            self.client = build_http_client(self._settings, self._transport)
            while len(self._retired) > MAX_RETIRED:
                await self._retired.pop(0).aclose()
        return self.client

    async def close(self) -> None:
        """REQ-02b-15: close the pool (server shutdown)."""
        for client in (*self._retired, self.client):
            await client.aclose()
        self._retired.clear()
