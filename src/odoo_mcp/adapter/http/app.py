"""REQ-HTTP-01, REQ-HTTP-10, REQ-HTTP-11, REQ-HTTP-19, REQ-HTTP-21: ``odoo-mcp serve
--transport http``: the SDK's streamable HTTP app at ``mcp_path`` (stateful sessions with
``Mcp-Session-Id`` unless ``--stateless`` is given: stateful is the default), mounted beside an
unauthenticated ``GET /health`` (decision 33).

With ``http_auth`` on (the default off loopback, REQ-HTTP-18) the MCP endpoint sits behind
:class:`~odoo_mcp.adapter.http.auth.BearerAuth` and each request acts as its caller's Odoo user; off
(loopback only), the server acts with its own configured credentials. DNS-rebinding protection
is always on: loopback names, the ``public_url`` host and ``allowed_hosts`` are accepted.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import anyio
import uvicorn
from mcp.server import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Mount, Route

from odoo_mcp.adapter.http import limits
from odoo_mcp.adapter.http.auth import BearerAuth, CallerConnections
from odoo_mcp.adapter.http.early import EarlyMethods
from odoo_mcp.adapter.http.post_stream import use_post_event_streams
from odoo_mcp.adapter.http.sessions import SESSION_IDLE_TIMEOUT, SessionCap
from odoo_mcp.adapter.stdio import DRAIN_SECONDS
from odoo_mcp.config import LOOPBACK_HOSTS, OdooMcpConfig
from odoo_mcp.connection import ConnectionManager
from odoo_mcp.state import SharedState, StateUnavailable, open_state

if TYPE_CHECKING:
    from odoo_mcp.adapter.http.oauth import OAuthServer, OAuthStore

__all__ = ["PortUnavailable", "bind_port", "build_http_app", "serve_http", "transport_security"]


def _host_values(name: str) -> list[str]:
    """Host header values for a configured name: ``host:port`` as given, a bare host on any
    port (IPv6 literals bracketed, as they appear in a Host header)."""
    if (name.startswith("[") and "]:" in name) or name.count(":") == 1:
        return [name]
    bare = f"[{name}]" if ":" in name and not name.startswith("[") else name
    return [bare, f"{bare}:*"]


def transport_security(config: OdooMcpConfig) -> TransportSecuritySettings:
    """REQ-HTTP-12/18: DNS-rebinding protection on, for the names clients may use."""
    hosts = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
    origins = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]
    names = list(config.allowed_hosts)
    if config.host not in LOOPBACK_HOSTS and config.host not in ("0.0.0.0", "::"):
        names.append(config.host)
    if config.public_url:
        names.append(urlsplit(config.public_url).netloc)
    for name in filter(None, names):
        for value in _host_values(name):
            hosts.append(value)
            origins.extend((f"http://{value}", f"https://{value}"))
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


def build_http_app(
    server: MCPServer[Any],
    config: OdooMcpConfig,
    connection: ConnectionManager,
    *,
    callers: CallerConnections | None = None,
    state: SharedState | None = None,
    oauth_store: OAuthStore | None = None,
    oauth_clock: Callable[[], float] | None = None,
    base_url: str | None = None,
) -> Starlette:
    """REQ-HTTP-01, REQ-01-10, REQ-HTTP-11, REQ-HTTP-19, REQ-HTTP-21 (stateful unless
    ``stateless_http``): the MCP endpoint and the health check,
    in one ASGI app.

    The SDK's streamable HTTP transport gives, and the kit checks: sessions created by
    initialize with an ``Mcp-Session-Id`` (REQ-HTTP-02), their states up to DELETE
    (REQ-HTTP-03), only initialize before a session (REQ-HTTP-04), every method while
    initializing (REQ-HTTP-05), 202 for notifications (REQ-HTTP-06), JSON-RPC errors with 200
    (REQ-HTTP-07), 400/404 transport errors (REQ-HTTP-08) and the negotiated protocol version
    (REQ-HTTP-10). Session state lives in this process's memory, so a state change is seen at
    once by the next request, and by one racing it (REQ-HTTP-20). ``EarlyMethods`` adds what
    it lacks: ``ping`` before a session (REQ-HTTP-04) and unknown methods refused before any
    session work (REQ-HTTP-09).

    REQ-HTTP-13: with authentication on, ``callers`` (or one built from the configuration)
    turns each request's Bearer token into its caller's Odoo connection; refused tokens,
    failing addresses and session owners are kept in ``state`` (issue 19: the configured
    ``state_url`` when none is given).

    With ``oauth`` on, the server is also its own OAuth authorization server
    (``odoo_mcp.adapter.http.oauth``): its routes sit beside the MCP endpoint, and an access
    token is accepted there as its signed-in Odoo user. ``oauth_store`` (the records; else from
    ``state_url``), ``oauth_clock`` and ``base_url`` (this server's URL when no ``public_url``
    is set: the issuer) are for the tests and ``serve_http``. The app's ``state.oauth`` is the
    ``OAuthServer``.
    """
    use_post_event_streams()  # issue 41: a POST's SSE stream on one task
    mcp_app: Any = server.streamable_http_app(
        streamable_http_path=config.mcp_path,
        stateless_http=config.stateless_http,
        json_response=config.json_response,  # issue 30: one JSON body per POST, opt-in
        host=config.host,
        transport_security=transport_security(config),
        session_idle_timeout=SESSION_IDLE_TIMEOUT,  # issue 26: set here, the cap counts with it
    )
    if not config.stateless_http:
        # issue 26: behind the early answers (a session-less ping opens nothing); issue 37:
        # without auth too (one shared pool), and in front of the SDK's app, through which
        # it ends an idle session at the cap
        mcp_app = SessionCap(mcp_app, mcp_path=config.mcp_path, idle_timeout=SESSION_IDLE_TIMEOUT)
    # issue 26: the early middleware reads bodies before the SDK, so it holds the SDK's limit
    limit = server.session_manager.max_request_body_size
    mcp_app = EarlyMethods(mcp_app, mcp_path=config.mcp_path, max_body_size=limit)
    oauth: OAuthServer | None = None
    auth_routes: list[BaseRoute] = []
    if config.http_auth_enabled:
        callers = callers or CallerConnections(
            config.connection_settings(),
            endpoint=connection.endpoint,
            backoff=config.reconnect_backoff(),
            state=open_state(config.state_url) if state is None else state,
        )
        if config.oauth_enabled:
            from odoo_mcp.adapter.http.oauth import OAuthServer  # only when used

            extra: dict[str, Any] = {} if oauth_clock is None else {"clock": oauth_clock}
            oauth = OAuthServer(config, callers, store=oauth_store, base_url=base_url, **extra)
            auth_routes = oauth.routes()
        mcp_app = BearerAuth(mcp_app, callers, mcp_path=config.mcp_path, oauth=oauth)

    async def health(_request: Request) -> JSONResponse:
        """REQ-HTTP-19, REQ-HTTP-12 (decision 33): liveness and the Odoo connection's state,
        without authentication; ``endpoint`` is the public URL when one is set.

        Issue 37: 503 ``unavailable`` when the shared state does not answer its ping within a
        second: every request that needs it is refused 503 then (decision 37), and a balancer
        should take the replica out. An unreachable Odoo stays 200 (its state is reported;
        the tools answer SPEC-10 errors)."""
        info = connection.get_connection_info()
        body: dict[str, object] = {
            "status": "ok",
            "odoo": str(info.state.value),
            "odoo_version": info.odoo_version,
            "endpoint": config.public_url or config.mcp_path,
            "auth": (
                "oauth" if oauth is not None else "bearer" if config.http_auth_enabled else "none"
            ),
        }
        shared = state if state is not None else callers.state if callers is not None else None
        answered = shared is None
        with anyio.move_on_after(limits.STATE_PING_TIMEOUT):  # never hangs the check
            try:
                if shared is not None:
                    await shared.ping()  # one round trip
                    answered = True
            except StateUnavailable:
                pass
        if not answered:
            body.update(status="unavailable", state="unavailable")
            body["reason"] = "the shared state (ODOO_MCP_STATE_URL) does not answer"
            return JSONResponse(body, status_code=503, headers={"Retry-After": "5"})
        return JSONResponse(body)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        try:
            async with server.session_manager.run():  # also enters the MCP server's lifespan
                yield
        finally:
            if callers is not None:
                await callers.close()
            if oauth is not None:
                await oauth.close()

    app = Starlette(
        routes=[Route("/health", health, methods=["GET"]), *auth_routes, Mount("/", app=mcp_app)],
        lifespan=lifespan,
    )
    app.state.oauth = oauth
    return app


async def serve_http(
    server: MCPServer[Any],
    config: OdooMcpConfig,
    connection: ConnectionManager,
    state: SharedState | None = None,
) -> None:
    """Serve until interrupted: on SIGINT/SIGTERM uvicorn stops accepting, lets the requests
    in flight finish for up to 30 s (REQ-01-24), then the lifespan closes Odoo.

    REQ-HTTP-17: uvicorn logs at the server's level (warning in production: no access lines);
    authentication events are warnings (``odoo_mcp.adapter.http.auth``).

    REQ-HTTP-01, REQ-HTTP-13 (issue 37): connections are bounded (``limits``: a request head
    within 10 s, idle keep-alive 5 s, 1,000 at once) and forwarded headers are believed only
    from ``trusted_proxies`` (none by default: the failed-authentication limit counts the
    peer's own address).
    """
    try:
        listener = bind_port(config.host, config.port)  # before anything starts (issue 29)
    except PortUnavailable:
        await connection.close()
        raise  # the command line says it in one line (cli.serve)
    host, port = listener.getsockname()[:2]
    shown = f"[{host}]" if ":" in str(host) else str(host)
    base_url = None if config.host in ("0.0.0.0", "::") else f"http://{shown}:{port}"
    app = build_http_app(server, config, connection, state=state, base_url=base_url)
    trusted = limits.trusted_proxies(config.trusted_proxies, os.environ)
    uv = uvicorn.Server(
        uvicorn.Config(
            app,
            host=config.host,
            port=config.port,
            log_level=config.log_level,
            timeout_graceful_shutdown=int(DRAIN_SECONDS),  # REQ-01-24: the 30 s drain
            http=limits.BoundedH11Protocol,
            timeout_keep_alive=limits.KEEP_ALIVE_TIMEOUT,
            limit_concurrency=limits.MAX_CONNECTIONS,
            # an empty list, not None: None makes uvicorn read FORWARDED_ALLOW_IPS
            proxy_headers=bool(trusted),
            forwarded_allow_ips=trusted,
        )
    )
    with listener:
        await uv.serve(sockets=[listener])


class PortUnavailable(Exception):
    """The HTTP port cannot be bound; the message names the port and the fix."""


def bind_port(host: str, port: int) -> socket.socket:
    """REQ-01-15 (issue 29): the listening socket, bound before the server starts.

    A port in use (or refused) raises ``PortUnavailable``, and ``serve_http`` ends the start
    with one line naming the port and the fix, and exit status 1, where uvicorn logged
    ``[Errno 98]`` after the application had started and exited with status 3."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        shown = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        if exc.errno == errno.EADDRINUSE:
            reason = "the port is already in use; choose another with --port (or ODOO_MCP_PORT)"
        elif exc.errno == errno.EACCES:
            reason = (
                "permission denied (ports below 1024 need privileges); choose another with "
                "--port (or ODOO_MCP_PORT)"
            )
        else:
            reason = f"{exc.strerror or exc}; check --host and --port (or ODOO_MCP_HOST/PORT)"
        raise PortUnavailable(f"cannot serve HTTP on {shown}: {reason}") from exc
    sock.set_inheritable(True)
    return sock
