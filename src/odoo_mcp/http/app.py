"""REQ-HTTP-01/10/11/19: ``odoo-mcp serve --transport http``: the SDK's streamable HTTP app
at ``mcp_path`` (stateful sessions with ``Mcp-Session-Id``, or ``--stateless``), mounted
beside an unauthenticated ``GET /health``.

What is here is the transport itself, for loopback use: the server acts with its own Odoo
credentials and DNS-rebinding protection is on (the SDK's default for loopback hosts). The
per-caller Bearer API keys of the guide (REQ-HTTP-13..16, 18) are not built yet, so a
non-loopback host is refused at start-up rather than served without authentication.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from mcp.server import MCPServer
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route

from odoo_mcp.config import OdooMcpConfig
from odoo_mcp.connection import ConnectionManager

__all__ = ["build_http_app", "serve_http"]



def build_http_app(
    server: MCPServer[Any], config: OdooMcpConfig, connection: ConnectionManager
) -> Starlette:
    """REQ-HTTP-01/11/19: the MCP endpoint and the health check, in one ASGI app."""
    mcp_app = server.streamable_http_app(
        streamable_http_path=config.mcp_path,
        stateless_http=config.stateless_http,
        host=config.host,
    )

    async def health(_request: Request) -> JSONResponse:
        """REQ-HTTP-19: liveness and the Odoo connection's state, without authentication."""
        info = connection.get_connection_info()
        return JSONResponse(
            {"status": "ok", "odoo": str(info.state.value), "odoo_version": info.odoo_version}
        )

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        async with server.session_manager.run():  # also enters the MCP server's lifespan
            yield

    return Starlette(
        routes=[Route("/health", health, methods=["GET"]), Mount("/", app=mcp_app)],
        lifespan=lifespan,
    )


async def serve_http(
    server: MCPServer[Any], config: OdooMcpConfig, connection: ConnectionManager
) -> None:
    """Serve until interrupted (uvicorn handles SIGINT/SIGTERM)."""
    app = build_http_app(server, config, connection)
    uv = uvicorn.Server(
        uvicorn.Config(app, host=config.host, port=config.port, log_level=config.log_level)
    )
    await uv.serve()
