"""Streamable HTTP transport (the HTTP session guide): the MCP endpoint plus /health."""

from odoo_mcp.adapter.http.app import build_http_app, serve_http

__all__ = ["build_http_app", "serve_http"]
