"""SPEC-10 §9, SPEC-11 §1/§7/§8: the MCP server end to end, through a real MCP client.

Each test builds the server from a configuration and a connection to the in-process fake Odoo
19.0 and talks to it with ``mcp.Client`` in process (legacy handshake, as 2025-era clients).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, MCPError
from mcp.types import INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, CallToolResult
from pydantic import BaseModel

from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import IN_PROCESS_URL, FakeOdooTransport
from odoo_mcp.adapter.server import build_server
from odoo_mcp.config import OdooMcpConfig, load_config
from odoo_mcp.connection import ConnectionManager
from odoo_mcp.context import ServerContext
from odoo_mcp.safety import Mode, Operation, is_tool_visible
from odoo_mcp.safety.annotations import DELETES, READS
from odoo_mcp.tools.spec import ToolSpec
from odoo_mcp.toolsets import AnySpec, BaseToolset, ToolsetMetadata, all_tools

pytestmark = pytest.mark.anyio


class _UnlinkInput(BaseModel):
    model: str
    ids: list[int]


class _UnlinkResult(BaseModel):
    deleted: list[int]


async def _fake_unlink(ctx: ServerContext, params: _UnlinkInput) -> _UnlinkResult:
    return _UnlinkResult(deleted=params.ids)


#: A stand-in destructive tool: hidden below full mode (REQ-11-04).
HINTS = {spec.name: spec.hints for spec in all_tools()}
UNLINK = ToolSpec(
    name="odoo_core_unlink",
    title="Delete records",
    description="stub",
    input_model=_UnlinkInput,
    result_model=_UnlinkResult,
    handler=_fake_unlink,
    hints=DELETES,
    operation=Operation.UNLINK,
)


async def _crash(ctx: ServerContext, params: _UnlinkInput) -> _UnlinkResult:
    raise RuntimeError("bug with a secret path /srv/odoo_mcp/x.py")


#: A read tool whose handler has a bug: REQ-10-16's unhandled server error.
CRASH = ToolSpec(
    name="odoo_core_name_get",
    title="Crash",
    description="stub",
    input_model=_UnlinkInput,
    result_model=_UnlinkResult,
    handler=_crash,
    hints=READS,
)


class _Toolset(BaseToolset):
    """A toolset of these tools (the server's own toolsets replaced in a test)."""

    def __init__(self, name: str, *tools: AnySpec) -> None:
        self.name, self.specs = name, tools

    def metadata(self) -> ToolsetMetadata:
        return ToolsetMetadata(name=self.name, description=f"{self.name} (test)")

    def tools(self) -> tuple[AnySpec, ...]:
        return self.specs


def _core_with(spec: AnySpec) -> list[BaseToolset]:
    """The core tools with one replaced by ``spec``."""
    core = [tool for tool in all_tools() if tool.name.startswith("odoo_core_")]
    return [_Toolset("core", *(tool for tool in core if tool.name != spec.name), spec)]


def _config(**values: object) -> OdooMcpConfig:
    connection = {
        "odoo_url": IN_PROCESS_URL,
        "odoo_db": "demo",
        "odoo_username": "admin",
        "odoo_api_key": ADMIN_API_KEY,
    }
    return load_config({**connection, **values}, environ={})


async def test_server_bug_is_internal_error(fake: FakeOdoo) -> None:
    """REQ-10-16: an unhandled server error is -32603, with neither message nor traceback."""
    config = _config()
    server = build_server(config, _connection(config, fake), toolsets=[_Toolset("core", CRASH)])
    async with Client(server, mode="legacy") as c:
        with pytest.raises(MCPError) as caught:
            await c.call_tool("odoo_core_name_get", {"model": "res.partner", "ids": [1]})
    assert caught.value.code == INTERNAL_ERROR
    shown = json.dumps([caught.value.error.message, caught.value.error.data])
    assert "secret" not in shown
    assert "Traceback" not in shown


@pytest.fixture(scope="module")
def fake() -> FakeOdoo:
    return FakeOdoo("19.0")


def _connection(config: OdooMcpConfig, fake: FakeOdoo) -> ConnectionManager:
    return ConnectionManager(
        config.connection_settings(), transport=FakeOdooTransport(app=fake.app)
    )


async def _client(fake: FakeOdoo, **values: object) -> AsyncIterator[Client]:
    config = _config(**values)
    server = build_server(config, _connection(config, fake), toolsets=_core_with(UNLINK))
    async with Client(server, mode="legacy") as client:
        yield client


@pytest.fixture
async def client(fake: FakeOdoo) -> AsyncIterator[Client]:
    async for c in _client(fake):
        yield c


def _payload(result: CallToolResult) -> dict[str, Any]:
    text = result.content[0]
    assert text.type == "text"
    data: dict[str, Any] = json.loads(text.text)
    return data


@pytest.mark.parametrize("mode", ["readonly", "restricted", "full"])
async def test_tools_list_per_mode(fake: FakeOdoo, mode: str) -> None:
    """REQ-11-04/05: only the mode's tools are listed, each fully annotated (REQ-11-17)."""
    async for c in _client(fake, mode=mode):
        tools = (await c.list_tools()).tools
        names = {tool.name for tool in tools}
        assert "odoo_core_search_read" in names
        assert ("odoo_core_unlink" in names) is (mode == "full")
        for tool in tools:
            assert is_tool_visible(tool.name, Mode(mode), HINTS[tool.name])
            hints = tool.annotations
            assert hints is not None
            assert None not in (
                hints.read_only_hint,
                hints.destructive_hint,
                hints.idempotent_hint,
                hints.open_world_hint,
            )
            assert tool.input_schema["type"] == "object"
            assert tool.output_schema is not None


async def test_enabled_and_disabled_toolsets(fake: FakeOdoo) -> None:
    """REQ-11-25: enabled_toolsets / disabled_toolsets filter the registered tools."""
    async for c in _client(fake, disabled_toolsets="core"):
        assert (await c.list_tools()).tools == []
    async for c in _client(fake, enabled_toolsets="core"):
        assert (await c.list_tools()).tools


async def test_search_read(client: Client) -> None:
    """REQ-04-03: a search_read through MCP returns records as structured content."""
    result = await client.call_tool(
        "odoo_core_search_read",
        {"model": "res.partner", "domain": [["is_company", "=", True]], "limit": 3},
    )
    assert not result.is_error
    assert result.structured_content is not None
    records = result.structured_content["records"]
    assert 0 < len(records) <= 3
    assert _payload(result)["records"] == records


async def test_unknown_tool_is_method_not_found(client: Client) -> None:
    """REQ-10-16 / decision 13: an unknown tool is JSON-RPC error -32601."""
    with pytest.raises(MCPError) as caught:
        await client.call_tool("odoo_core_nope", {})
    assert caught.value.code == METHOD_NOT_FOUND


async def test_hidden_tool_is_method_not_found(client: Client) -> None:
    """REQ-11-05: a tool hidden by readonly mode is an unknown tool (-32601)."""
    with pytest.raises(MCPError) as caught:
        await client.call_tool("odoo_core_unlink", {"model": "res.partner", "ids": [1]})
    assert caught.value.code == METHOD_NOT_FOUND


async def test_invalid_params(client: Client) -> None:
    """REQ-10-16: arguments that fail the input schema are JSON-RPC error -32602."""
    with pytest.raises(MCPError) as caught:
        await client.call_tool("odoo_core_search_read", {"model": "res.partner", "limit": "x"})
    assert caught.value.code == INVALID_PARAMS
    data = caught.value.error.data
    assert isinstance(data, dict)
    assert data["code"] == "INVALID_PARAMS"
    assert any(item["loc"] == "limit" for item in data["details"]["errors"])


async def test_odoo_error_is_a_tool_result(client: Client) -> None:
    """REQ-10-17: an Odoo error is a tool result with isError; REQ-10-14: no traceback."""
    result = await client.call_tool(
        "odoo_core_search_read",
        {"model": "res.partner", "domain": [["no_such_field", "=", 1]]},
    )
    assert result.is_error
    payload = _payload(result)
    assert payload["error"] is True
    assert {"category", "code", "message", "suggestion", "retry"} <= payload.keys()
    text = json.dumps(payload)
    assert "Traceback" not in text
    assert 'File "' not in text


async def test_unknown_model_from_odoo(client: Client) -> None:
    """REQ-10-17: Odoo's own refusal (unknown model) comes back as isError, not a crash."""
    result = await client.call_tool("odoo_core_count", {"model": "no.such.model"})
    assert result.is_error
    assert "Traceback" not in _payload(result).get("message", "")


async def test_rate_limit(fake: FakeOdoo) -> None:
    """REQ-11-20: over the limit the call is RATE_LIMITED with retry_after, per session."""
    async for c in _client(fake, rate_limit_enabled=True, rate_limit_burst=2):
        args = {"model": "res.partner", "limit": 1}
        for _ in range(2):
            assert not (await c.call_tool("odoo_core_search_read", args)).is_error
        refused = await c.call_tool("odoo_core_search_read", args)
        assert refused.is_error
        payload = _payload(refused)
        assert payload["code"] == "RATE_LIMITED"
        assert payload["category"] == "rate_limit"
        assert payload["retry"] is True
        assert payload["details"]["retry_after"] >= 1


async def test_audit_log(fake: FakeOdoo, tmp_path: Path) -> None:
    """REQ-11-22/23: with reads logged, every invocation is one JSONL line."""
    log = tmp_path / "audit.jsonl"
    async for c in _client(
        fake, audit_enabled=True, audit_log_reads=True, audit_log_file=str(log), mode="full"
    ):
        await c.call_tool("odoo_core_search_read", {"model": "res.partner", "limit": 1})
        await c.call_tool("odoo_core_count", {"model": "no.such.model"})
        await c.call_tool("odoo_core_unlink", {"model": "res.partner", "ids": [7]})
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(e["tool"], e["success"]) for e in lines] == [
        ("odoo_core_search_read", True),
        ("odoo_core_count", False),
        ("odoo_core_unlink", True),
    ]
    assert lines[0]["session_id"] == "stdio"
    assert lines[0]["odoo_uid"] == 2
    assert lines[2]["operation"] == "unlink"
    assert lines[0]["timestamp"].endswith("Z")


def test_errors_name_the_odoo_method_not_the_tool() -> None:
    from odoo_mcp.tools.core_execute import TOOLS as EXECUTE
    from odoo_mcp.tools.core_read import TOOLS as READ

    execute, search_read = EXECUTE[0], READ[0]
    params = execute.input_model.model_validate({"model": "sale.order", "method": "action_x"})
    assert execute.method_of(params) == "action_x"
    assert search_read.method_of(search_read.input_model.model_validate({"model": "m"})) == (
        "search_read"
    )


def test_two_tools_of_one_name_stop_the_start(fake: FakeOdoo) -> None:
    """A tool that would silently replace another is a start-up error naming both owners."""
    config = _config(mode="full")
    toolsets = [*_core_with(UNLINK), _Toolset("extra", UNLINK)]
    with pytest.raises(
        ValueError, match="two tools are named odoo_core_unlink: one in toolset core"
    ):
        build_server(config, _connection(config, fake), toolsets=toolsets)
