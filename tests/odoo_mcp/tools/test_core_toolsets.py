"""REQ-03-19: odoo_core_list_toolsets reports what was registered, with no Odoo call."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fake_odoo.handle import FakeOdoo
from odoo_mcp.context import ServerContext
from odoo_mcp.tools.core_toolsets import ListToolsetsInput, list_toolsets, without_credentials
from odoo_mcp.toolsets import ALL_TOOLSETS, ToolsetRegistry

pytestmark = pytest.mark.anyio


@pytest.mark.req("REQ-03-10", "REQ-03-19")
async def test_lists_the_registered_tools_by_toolset(ctx: ServerContext, fake: FakeOdoo) -> None:
    registry = ToolsetRegistry(ALL_TOOLSETS)
    await registry.discover_and_register(ctx.odoo)
    calls = fake.call_counts()
    names = registry.tool_names()
    result = await list_toolsets(replace(ctx, toolsets=registry), ListToolsetsInput())
    assert [t.name for t in result.toolsets] == ["core"]
    assert result.toolsets[0].tools == sorted(names) and result.total_tools == 12
    assert result.toolsets[0].status == "active" and result.toolsets[0].odoo_modules == []
    assert result.odoo_version == fake.version
    assert fake.call_counts() == calls  # answered without any Odoo call
    assert result.registration is not None
    contracts = {r.name: r for r in result.registration.results}["contracts"]
    assert contracts.status == "skipped" and "enabled_toolsets" in (contracts.skip_reason or "")


def test_connection_url_never_carries_credentials() -> None:
    assert without_credentials("https://bot:s3cret@odoo.example.com:8069/odoo?x=1") == (
        "https://odoo.example.com:8069/odoo"
    )


def test_input_schema_is_empty() -> None:
    schema = ListToolsetsInput.model_json_schema()
    assert schema.get("properties", {}) == {}
