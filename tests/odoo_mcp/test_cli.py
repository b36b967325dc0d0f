"""REQ-11-27..29, REQ-01-07/15: the ``odoo-mcp`` command: serve, check and demo.

Configuration errors and ``check`` run ``main`` in process; the demo runs as a real child
process spoken to over stdio by the SDK's client, as an MCP client application would.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.handle import FakeOdoo
from odoo_mcp.cli import EXIT_CONFIG, EXIT_FAILED, main
from odoo_mcp_demo import client_snippet


def _stderr_problems(err: str) -> list[str]:
    return [line[4:] for line in err.splitlines() if line.startswith("  - ")]


def test_invalid_configuration_one_line_per_problem(capsys: pytest.CaptureFixture[str]) -> None:
    """REQ-11-29: every problem reported, one per line, and a non-zero exit; nothing starts."""
    environ = {"ODOO_URL": "ftp://x", "ODOO_MCP_MODE": "wild", "ODOO_MCP_PORT": "0"}
    assert main(["serve"], environ=environ) == EXIT_CONFIG
    captured = capsys.readouterr()
    assert captured.out == ""
    problems = _stderr_problems(captured.err)
    assert len(problems) == 5, captured.err
    assert any(p.startswith("odoo_db is required") for p in problems)
    assert any(p.startswith("mode (ODOO_MCP_MODE)") for p in problems)
    assert any(p.startswith("port (ODOO_MCP_PORT)") for p in problems)
    assert any("credentials" in p for p in problems)
    assert any(p.startswith("odoo_url (ODOO_URL)") for p in problems)


def test_flags_beat_environment_beat_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """REQ-11-27: a bad file value is overridden by the environment, which a flag overrides."""
    path = tmp_path / "odoo-mcp.json"
    path.write_text(json.dumps({"odoo_url": "http://file", "mode": "bogus", "port": 0}))
    environ = {"ODOO_MCP_CONFIG": str(path), "ODOO_MCP_MODE": "also-bogus"}
    argv = ["check", "--mode", "full", "--set", "port=8081", "--set", "nonsense"]
    assert main(argv, environ=environ) == EXIT_CONFIG
    problems = _stderr_problems(capsys.readouterr().err)
    assert "--set 'nonsense': expected KEY=VALUE" in problems
    assert not any("mode" in p or "port" in p for p in problems), problems


def test_config_file_errors_are_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """REQ-11-26/29: an unreadable file is a problem like any other."""
    assert main(["serve", "--config", str(tmp_path / "missing.json")], environ={}) == EXIT_CONFIG
    assert any("cannot be read" in p for p in _stderr_problems(capsys.readouterr().err))


def test_http_transport_refuses_a_public_host_without_auth(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """REQ-11-29, REQ-HTTP-18: HTTP without per-caller authentication serves loopback only."""
    environ = {"ODOO_URL": "http://odoo", "ODOO_DB": "d", "ODOO_API_KEY": "k"}
    argv = ["serve", "--transport", "http", "--host", "0.0.0.0", "--http-auth", "off"]
    assert main(argv, environ=environ) == EXIT_CONFIG
    assert "needs a loopback host" in capsys.readouterr().err


@pytest.mark.wire
def test_check_against_a_served_fake(
    fake_odoo_server: FakeOdoo, capsys: pytest.CaptureFixture[str]
) -> None:
    """REQ-11-29: check connects and prints version, protocol, user and the mode's tools."""
    argv = ["check", "--odoo-url", fake_odoo_server.url, "--odoo-db", "demo"]
    argv += ["--odoo-username", "admin", "--mode", "readonly"]
    assert main(argv, environ={"ODOO_API_KEY": ADMIN_API_KEY}) == 0
    out = capsys.readouterr().out
    assert "version:  19.0" in out
    assert "protocol: json2" in out
    assert "user:     admin (uid 2)" in out
    assert "  odoo_core_search_read" in out
    assert "odoo_core_unlink" not in out
    assert ADMIN_API_KEY not in out


def test_check_connection_failure_exits_non_zero(capsys: pytest.CaptureFixture[str]) -> None:
    """REQ-01-15: a connection that fails at start-up exits non-zero with the reason."""
    environ = {"ODOO_URL": "http://127.0.0.1:9", "ODOO_DB": "d", "ODOO_API_KEY": "k"}
    assert main(["check"], environ=environ) == EXIT_FAILED
    assert "cannot connect to Odoo at http://127.0.0.1:9" in capsys.readouterr().err


def test_client_snippet() -> None:
    """The demo prints how to add it to an MCP client."""
    entry = client_snippet("python")["mcpServers"]
    assert isinstance(entry, dict)
    assert entry["odoo-demo"] == {"command": sys.executable, "args": ["-m", "odoo_mcp", "demo"]}


def _demo_command() -> tuple[str, list[str]]:
    script = Path(sys.executable).parent / "odoo-mcp"
    if script.exists():
        return str(script), ["demo"]
    return sys.executable, ["-m", "odoo_mcp", "demo"]


@pytest.mark.anyio
async def test_demo_over_stdio() -> None:
    """REQ-01-08: ``odoo-mcp demo`` speaks MCP on stdio; its configuration is honoured
    (rate limit from the environment) except the Odoo connection (ODOO_URL ignored)."""
    command, args = _demo_command()
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", ""),
        "ODOO_URL": "http://127.0.0.1:9",
        "ODOO_MCP_RATE_LIMIT": "true",
        "ODOO_MCP_RATE_LIMIT_BURST": "2",
        "ODOO_MCP_LOG_LEVEL": "warning",
    }
    params = StdioServerParameters(command=command, args=args, env=env)
    async with Client(params, mode="legacy") as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert "odoo_core_search_read" in names
        call = {"model": "res.partner", "fields": ["name"], "limit": 2}
        result = await client.call_tool("odoo_core_search_read", call)
        assert not result.is_error
        assert result.structured_content is not None
        assert len(result.structured_content["records"]) == 2
        assert not (await client.call_tool("odoo_core_count", {"model": "res.partner"})).is_error
        refused = await client.call_tool("odoo_core_count", {"model": "res.partner"})
        assert refused.is_error
        assert refused.structured_content is not None
        assert refused.structured_content["code"] == "RATE_LIMITED"
