"""MCP logging: ``logging/setLevel`` and the log message of each failed tool call."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp.types import LoggingMessageNotificationParams

from fake_odoo.handle import FakeOdoo
from mcp_servers import fake_server

pytestmark = pytest.mark.anyio


async def test_failed_calls_are_logged_to_clients_that_set_a_level() -> None:
    received: list[LoggingMessageNotificationParams] = []

    async def on_log(params: LoggingMessageNotificationParams) -> None:
        received.append(params)

    server = fake_server(FakeOdoo("19.0"))
    async with Client(server, mode="legacy", logging_callback=on_log) as client:
        assert client.server_capabilities is not None
        assert client.server_capabilities.logging is not None
        blocked = {"model": "ir.config_parameter"}
        await client.call_tool("odoo_core_count", blocked)
        assert received == []  # nothing before the client asks
        with pytest.warns(MCPDeprecationWarning):  # the 2026-07-28 era drops it (SEP-2577)
            await client.set_logging_level("error")
        await client.call_tool("odoo_core_count", {"model": "no.such.model"})  # a warning
        assert received == []
        await client.call_tool("odoo_core_count", blocked)  # an error (access)
        await client.call_tool("odoo_core_count", {"model": "res.partner"})  # succeeds
    assert len(received) == 1
    log = received[0]
    data: Any = log.data
    assert log.level == "error" and log.logger == "odoo_mcp.errors"
    assert data["code"] == "MODEL_BLOCKED" and data["tool"] == "odoo_core_count"
    assert data["model"] == "ir.config_parameter" and "Traceback" not in str(data)
