"""A real ``odoo-mcp serve --transport http`` process, for the HTTP transport's tests."""

from __future__ import annotations

from collections.abc import Iterator

from odoo_mcp_demo.http_process import http_server_process

__all__ = ["ACCEPT", "serve_http"]

#: what a streamable HTTP client sends with every POST
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def serve_http(fake_url: str, *flags: str, **env_extra: str) -> Iterator[str]:
    """The server as a fixture (or a ``for`` loop): yields its base URL, then stops it.

    The start-up introspection is off unless asked for: tests count Odoo calls."""
    env = {"ODOO_MCP_INTROSPECT": "false", **env_extra}
    with http_server_process(fake_url, *flags, **env) as base:
        yield base
