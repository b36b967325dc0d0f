"""Property (REQ-10-02, REQ-10-16/17): whatever arguments a client sends to whatever tool, the
server answers, and the answer is a result, a SPEC-10 error result, or a JSON-RPC error
-32602/-32601; it never crashes and never leaks a traceback. Full mode on a fake Odoo 19 of
its own, so random writes cannot disturb other tests.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client, MCPError
from mcp.types import INVALID_PARAMS, METHOD_NOT_FOUND

from fake_odoo.handle import FakeOdoo
from mcp_servers import fake_server
from odoo_mcp.toolsets import all_tools
from strategies import tool_arguments

pytestmark = pytest.mark.anyio

TOOL_NAMES = [spec.name for spec in all_tools()]
ERROR_KEYS = {"error", "category", "code", "message", "suggestion", "retry"}


@pytest.fixture(scope="module")
async def client() -> AsyncIterator[Client]:
    async with Client(fake_server(FakeOdoo("19.0"), mode="full"), mode="legacy") as c:
        yield c


async def _check(client: Client, tool: str, arguments: dict[str, Any]) -> None:
    try:
        result = await client.call_tool(tool, arguments)
    except MCPError as exc:
        assert exc.error.code in (INVALID_PARAMS, METHOD_NOT_FOUND), exc.error
        assert "Traceback" not in exc.error.message
        return
    text = result.content[0].text if result.content else ""  # type: ignore[union-attr]
    assert "Traceback (most recent call last)" not in text
    payload = json.loads(text)
    if result.is_error:
        assert set(payload) >= ERROR_KEYS, payload
        assert payload["error"] is True and isinstance(payload["retry"], bool)
    else:
        assert isinstance(payload, dict) and result.structured_content == payload


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(tool=st.sampled_from([*TOOL_NAMES, "odoo_core_unknown"]), arguments=tool_arguments)
async def test_any_arguments_get_a_well_formed_answer(
    client: Client, tool: str, arguments: dict[str, Any]
) -> None:
    await _check(client, tool, arguments)
    # the session survives: a plain call still works
    alive = await client.call_tool("odoo_core_count", {"model": "res.partner"})
    assert not alive.is_error
