"""The reference server on an in-process fake Odoo, for tests that talk MCP to it.

One way to build it: ``fake_config(**settings)`` (the admin's API key on the in-process
fake), ``fake_connection(config, fake)`` and ``fake_server(fake, **settings)``.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.types import CallToolResult, TextContent

from fake_odoo.demo import ADMIN_API_KEY, DEMO_API_KEY
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import IN_PROCESS_URL, FakeOdooTransport
from odoo_mcp.adapter.server import build_server
from odoo_mcp.config import OdooMcpConfig, load_config
from odoo_mcp.connection import ConnectionManager

__all__ = ["error_body", "fake_config", "fake_connection", "fake_server"]


def fake_config(*, login: str = "admin", **settings: object) -> OdooMcpConfig:
    """A configuration for the in-process fake, logged in as ``login`` with its API key.

    The start-up introspection (REQ-07-09) is off unless asked for: it runs in the background
    and its calls would land in the counts of tests that measure a tool's round trips.
    """
    return load_config(
        {
            "odoo_url": IN_PROCESS_URL,
            "odoo_db": "demo",
            "odoo_username": login,
            "odoo_api_key": ADMIN_API_KEY if login == "admin" else DEMO_API_KEY,
            "introspect_on_startup": False,
            **settings,
        },
        environ={},
    )


def fake_connection(config: OdooMcpConfig, fake: FakeOdoo) -> ConnectionManager:
    """The connection as the console script builds it (its backoff from the configuration)."""
    return ConnectionManager(
        config.connection_settings(),
        transport=FakeOdooTransport(app=fake.app),
        backoff=config.reconnect_backoff(),
    )


def fake_server(fake: FakeOdoo, **settings: object) -> Any:
    """The MCP server for these settings, on ``fake``."""
    config = fake_config(**settings)  # type: ignore[arg-type]
    return build_server(config, fake_connection(config, fake))


def error_body(result: CallToolResult) -> dict[str, Any]:
    """The SPEC-10 object of an error result: JSON in its text, never structured content (a
    client validating structured content against the outputSchema would reject it)."""
    assert result.is_error and result.structured_content is None, result
    texts = [block.text for block in result.content if isinstance(block, TextContent)]
    body: dict[str, Any] = json.loads(texts[0])
    return body
