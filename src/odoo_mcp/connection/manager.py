"""SPEC-02: the connection manager: one connection per server, lifecycle, recovery.

States (REQ-02-18/19)::

    DISCONNECTED -> CONNECTING -> AUTHENTICATED -> READY
    READY --error--> ERROR -> RECONNECTING -> AUTHENTICATED -> READY

Recovery policy (REQ-02-21/22, decisions 7 and 15):

* session expired / credentials no longer accepted: re-authenticate once, then retry the call
  once. Odoo refused the call before running it, so the retry cannot apply it twice. If the
  re-authentication fails, ``OdooAuthenticationError`` is raised.
* connection error: mark ERROR, reconnect up to 3 times (backoff 1 s, 2 s, 4 s), then retry
  the call once **only if** ``resend.may_resend`` says so: the request provably never left
  (refused, connect timeout), or the method only reads and did not time out. A write whose
  answer was lost (whatever the status, issue 37) may have been committed: it is reported as
  ``resend.unconfirmed``, not retried; the next call reconnects.
* ``OdooRateLimited`` is raised with ``retry_after``; the caller decides when to try again
  (a non-read as ``unconfirmed``: the proxy that answered 429 may have forwarded it).
* XML-RPC's None-marshal fault is a success (``CallOutcome.null_from_marshal_fault``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence

import anyio
import httpx2

from odoo_mcp.connection.base import CallOutcome, OdooCalls, OdooProtocol, OdooValue
from odoo_mcp.connection.endpoint import OdooEndpoint
from odoo_mcp.connection.errors import (
    OdooAuthenticationError,
    OdooConnectionError,
    OdooError,
    OdooRateLimited,
    OdooSessionExpired,
    check_call_names,
)
from odoo_mcp.connection.negotiation import Login, choose_protocol, log_in, negotiate
from odoo_mcp.connection.resend import is_read, may_resend, unconfirmed
from odoo_mcp.connection.settings import ConnectionSettings
from odoo_mcp.connection.shapes import BACKOFF, READ_METHODS, ConnectionInfo, ConnectionState
from odoo_mcp.connection.version import OdooVersion, ProtocolName

__all__ = ["READ_METHODS", "ConnectionInfo", "ConnectionManager", "ConnectionState"]

logger = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]


class ConnectionManager(OdooCalls):
    """REQ-02-26: the single connection to one Odoo server, shared by every tool.

    ``endpoint``: the Odoo this connection shares with others of the same server (an HTTP
    caller's connection shares the server's): its pool, and its version once negotiated, so
    connecting costs only the login. Without one the manager has its own and negotiates.
    """

    def __init__(
        self,
        settings: ConnectionSettings,
        *,
        endpoint: OdooEndpoint | None = None,
        transport: httpx2.AsyncBaseTransport | None = None,
        sleep: Sleep = anyio.sleep,
        clock: Callable[[], float] = time.monotonic,
        backoff: Sequence[float] = BACKOFF,
    ) -> None:
        self.settings = settings
        self._owns_endpoint = endpoint is None
        self.endpoint = endpoint or OdooEndpoint(settings, transport)
        self._client = self.endpoint.client
        self._sleep = sleep
        self._clock = clock
        self._backoff = tuple(backoff)
        self._lock = anyio.Lock()
        self._state = ConnectionState.DISCONNECTED
        self._login: Login | None = None
        #: REQ-06-02: version, protocol and uid of the last successful login, kept through
        #: an outage (the login itself is dropped when a reconnection starts)
        self._known: tuple[OdooVersion | None, ProtocolName, int | None] | None = None
        self._last_used = clock()
        self.installed_modules: list[str] = []
        #: REQ-03-17: successful (re)connections so far; a new one may have found another Odoo
        self.connections = 0

    @property
    def state(self) -> ConnectionState:
        """REQ-02-19: the current lifecycle state."""
        return self._state

    @property
    def is_ready(self) -> bool:
        """REQ-02-19: version known, protocol chosen, authenticated."""
        return self._state is ConnectionState.READY

    @property
    def adapter(self) -> OdooProtocol | None:
        """REQ-02-17: the protocol adapter in use (None before connecting)."""
        return self._login.adapter if self._login else None

    @property
    def odoo_version(self) -> OdooVersion | None:
        """REQ-02a-12: the version detected at the last (re)connect."""
        return self._login.adapter.version if self._login else None

    @property
    def protocol(self) -> ProtocolName | None:
        """REQ-02-19: the protocol in use."""
        return self._login.adapter.protocol_name if self._login else None

    @property
    def uid(self) -> int | None:
        """REQ-02-19: the authenticated user's id."""
        return self._login.adapter.uid if self._login else None

    @property
    def database(self) -> str:
        """REQ-02-19: the database name."""
        return self.settings.database

    @property
    def server_url(self) -> str:
        """REQ-02-19: the normalised Odoo URL."""
        return self.settings.url

    def get_connection_info(self) -> ConnectionInfo:
        """REQ-02-33: url, database, uid, username, version, protocol, edition, state, modules.

        REQ-06-02: while Odoo is unreachable (no login: ``state`` says error or reconnecting)
        the version, protocol and uid are the last ones known; None only if the connection
        never logged in.
        """
        version, protocol, uid = self.odoo_version, self.protocol, self.uid
        if self._login is None and self._known is not None:
            version, protocol, uid = self._known
        return ConnectionInfo(
            url=self.server_url,
            database=self.database,
            uid=uid,
            username=self.settings.username,
            odoo_version=str(version) if version else None,
            protocol=protocol,
            edition=version.edition if version else "unknown",
            state=self._state,
            installed_modules=list(self.installed_modules),
        )

    async def connect(self) -> None:
        """REQ-02-18: detect the version, choose the protocol, authenticate; READY on success."""
        async with self._lock:
            if self._state is not ConnectionState.READY:
                await self._connect(ConnectionState.CONNECTING)

    async def _connect(self, starting: ConnectionState) -> None:
        self._state = starting
        if self._login is not None:
            await self._login.adapter.close()
            self._login = None
        self._client = self.endpoint.client
        try:
            login = await self._log_in()
        except OdooError:
            self._state = ConnectionState.ERROR
            raise
        self._login = login
        self._known = (login.adapter.version, login.adapter.protocol_name, login.adapter.uid)
        self.connections += 1
        self._state = ConnectionState.AUTHENTICATED
        logger.info(
            "connected to Odoo %s at %s over %s as uid %s",
            login.adapter.version,
            self.server_url,
            login.adapter.protocol_name,
            login.adapter.uid,
        )
        self._state = ConnectionState.READY
        self._last_used = self._clock()

    async def _log_in(self) -> Login:
        """REQ-02a-01/11: the owner of the endpoint negotiates (probes the version, chooses
        the protocol, logs in) and publishes the version; a connection sharing an endpoint
        whose version is known only logs in, over the protocol that version calls for."""
        known = self.endpoint.version
        if self._owns_endpoint or known is None:
            login = await negotiate(self._client, self.settings)
            self.endpoint.version = login.adapter.version
            return login
        protocol = choose_protocol(self.settings, known)
        login = await log_in(self._client, self.settings, protocol, known)
        login.adapter.version = known
        return login

    async def close(self) -> None:
        """REQ-02b-16: forget the session; the endpoint's owner also closes the shared HTTP
        client (REQ-02b-15)."""
        if self._login is not None:
            await self._login.adapter.close()
            self._login = None
        if self._owns_endpoint:
            await self.endpoint.close()
        self._state = ConnectionState.DISCONNECTED

    async def __aenter__(self) -> ConnectionManager:
        await self.connect()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def _reconnect(self, cause: OdooConnectionError) -> None:
        """REQ-02-21: up to 3 attempts with backoff 1 s, 2 s, 4 s; re-detects the version.

        The attempts use new sockets: the keep-alive connections of the HTTP pool were made
        to the Odoo that was lost and may be reset ones, which would report "dropped" where
        the new attempt is refused (REQ-10-08: the last attempt's error is the one reported).
        """
        last = cause
        self._client = await self.endpoint.renew(self._client)
        for delay in self._backoff:
            await self._sleep(delay)
            try:
                await self._connect(ConnectionState.RECONNECTING)
            except OdooConnectionError as exc:
                last = exc
                continue
            return
        self._state = ConnectionState.ERROR
        raise OdooConnectionError(
            f"Odoo at {self.server_url} is unreachable after {len(self._backoff)} reconnection "
            f"attempts ({last.message}); check that the server is running and reachable",
            kind=last.kind,
            request_sent=cause.request_sent,
            http_status=last.http_status,
            protocol=cause.protocol,
        ) from last

    async def _reauthenticate(self, cause: OdooSessionExpired) -> OdooProtocol:
        """REQ-02-22: log in again with the same secret (decision 7); raise if refused."""
        assert self._login is not None  # only reachable after a successful connect
        login = self._login
        self._state = ConnectionState.RECONNECTING
        logger.info("Odoo session expired (%s); re-authenticating", cause.message)
        try:
            await login.adapter.authenticate(self.settings.database, login.login, login.secret)
        except OdooAuthenticationError:
            self._state = ConnectionState.ERROR
            raise
        self._state = ConnectionState.AUTHENTICATED
        self._state = ConnectionState.READY
        return login.adapter

    async def _ready_adapter(self) -> OdooProtocol:
        """REQ-02-20: connect if needed; after an idle period check the session still works."""
        async with self._lock:
            if self._state is ConnectionState.DISCONNECTED or self._login is None:
                await self._connect(ConnectionState.CONNECTING)
            elif self._state is not ConnectionState.READY:
                # An earlier call left the connection broken. Nothing of this call has been
                # sent, so reconnecting (with backoff if the first try fails) is always safe.
                try:
                    await self._connect(ConnectionState.RECONNECTING)
                except OdooConnectionError as exc:
                    await self._reconnect(exc)
            elif self.settings.idle_timeout and (
                self._clock() - self._last_used > self.settings.idle_timeout
            ):  # 0 turns the check off (it would otherwise run before every call)
                await self._health_check()
            assert self._login is not None
            return self._login.adapter

    async def _health_check(self) -> None:
        """REQ-02-20: ``res.users.search_count([('id', '=', uid)])`` must be 1."""
        assert self._login is not None
        adapter = self._login.adapter
        try:
            healthy = await adapter.search_count("res.users", [["id", "=", adapter.uid]]) == 1
        except OdooSessionExpired as exc:
            await self._reauthenticate(exc)
            healthy = True
        except OdooConnectionError as exc:
            # Nothing of the caller's has been sent yet, so reconnecting is always safe here.
            self._state = ConnectionState.ERROR
            await self._reconnect(exc)
            healthy = True
        if not healthy:
            logger.warning("health check failed for uid %s; reconnecting", adapter.uid)
            await self._connect(ConnectionState.RECONNECTING)
        self._last_used = self._clock()

    async def call(
        self,
        model: str,
        method: str,
        args: Sequence[OdooValue] = (),
        kwargs: Mapping[str, OdooValue] | None = None,
        context: Mapping[str, object] | None = None,
    ) -> CallOutcome:
        """REQ-02-21: one call with transparent re-authentication and a single safe retry.

        REQ-11-07: malformed model or method names are refused before any Odoo call.
        """
        check_call_names(model, method)
        adapter = await self._ready_adapter()
        try:
            outcome = await adapter.call(model, method, args, kwargs, context)
        except OdooSessionExpired as exc:
            async with self._lock:
                adapter = await self._reauthenticate(exc)
            outcome = await self._retry(adapter, model, method, args, kwargs, context)
        except OdooRateLimited as exc:
            if is_read(method):
                raise
            raise unconfirmed(model, method, exc) from exc
        except OdooConnectionError as exc:
            self._state = ConnectionState.ERROR
            if not may_resend(method, exc):
                if is_read(method):
                    raise
                raise unconfirmed(model, method, exc) from exc
            async with self._lock:
                await self._reconnect(exc)
                assert self._login is not None
                adapter = self._login.adapter
            outcome = await self._retry(adapter, model, method, args, kwargs, context)
        self._last_used = self._clock()
        return outcome

    async def _retry(
        self,
        adapter: OdooProtocol,
        model: str,
        method: str,
        args: Sequence[OdooValue],
        kwargs: Mapping[str, OdooValue] | None,
        context: Mapping[str, object] | None,
    ) -> CallOutcome:
        """REQ-02-21: the one retry; a second expiry means the credentials are refused."""
        try:
            return await adapter.call(model, method, args, kwargs, context)
        except OdooSessionExpired as exc:
            self._state = ConnectionState.ERROR
            raise OdooAuthenticationError(
                f"Odoo refused the credentials again after re-authenticating: {exc.message}",
                protocol=exc.protocol,
                raw=exc.raw,
            ) from exc
        except OdooConnectionError as exc:
            if not isinstance(exc, OdooRateLimited):
                self._state = ConnectionState.ERROR
            if is_read(method) or not exc.request_sent:
                raise
            raise unconfirmed(model, method, exc) from exc
