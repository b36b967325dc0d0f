"""REQ-03-17/18: a reconnection that changes the tools is announced with list_changed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.types import ToolListChangedNotification
from pydantic import BaseModel

from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import FakeOdooTransport
from mcp_servers import fake_config
from odoo_mcp.adapter.server import build_server
from odoo_mcp.connection import ConnectionManager
from odoo_mcp.context import ServerContext
from odoo_mcp.safety.annotations import READS
from odoo_mcp.tools.spec import ToolSpec
from odoo_mcp.toolsets import AnySpec, BaseToolset, ToolsetMetadata
from odoo_mcp.toolsets.core import CoreToolset

pytestmark = pytest.mark.anyio


class _Empty(BaseModel):
    pass


async def _noop(ctx: ServerContext, params: _Empty) -> _Empty:
    return _Empty()


LEGACY_TOOL = ToolSpec(
    name="odoo_legacy_ping", title="Ping", description="Up to Odoo 17.", input_model=_Empty,
    result_model=_Empty, handler=_noop, hints=READS,
)  # fmt: skip


class _UpTo17(BaseToolset):
    def metadata(self) -> ToolsetMetadata:
        return ToolsetMetadata(name="legacy", description="Odoo 17 at most",
                               max_odoo_version="17.0", depends_on=("core",))  # fmt: skip

    def tools(self) -> Sequence[AnySpec]:
        return (LEGACY_TOOL,)


@pytest.mark.req("REQ-03-17", "REQ-03-18")
async def test_a_reconnection_to_a_newer_odoo_drops_the_tool_and_says_so() -> None:
    fake = FakeOdoo("17.0")
    config = fake_config()
    connection = ConnectionManager(
        config.connection_settings(), transport=FakeOdooTransport(app=fake.app), backoff=(0.0,)
    )
    server = build_server(config, connection, toolsets=[CoreToolset(), _UpTo17()])
    changes: list[Any] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, ToolListChangedNotification):
            changes.append(message)

    async with Client(server, mode="legacy", message_handler=on_message) as client:
        assert client.server_capabilities.tools.list_changed  # type: ignore[union-attr]
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert "odoo_legacy_ping" in names
        # the same Odoo, upgraded; the connection drops once and the server reconnects
        fake.reset(version="18.0")
        fake.inject_fault("refuse", count=1)
        await client.call_tool("odoo_core_count", {"model": "res.partner"})
        await client.call_tool("odoo_core_count", {"model": "res.partner"})
        names = {tool.name for tool in (await client.list_tools()).tools}
        with anyio.fail_after(3):
            while not changes:
                await anyio.sleep(0.02)
    assert connection.connections == 2
    assert "odoo_legacy_ping" not in names and "odoo_core_count" in names
    assert len(changes) == 1
