"""docs/clients.md: every JSON snippet parses, and every ``odoo-mcp`` command it gives (in the
JSON configurations and in the shell blocks) is accepted by the server's argument parser."""

from __future__ import annotations

import json
import re
import shlex
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from odoo_mcp.cli import _parser
from odoo_mcp.config import SETTINGS

PAGE = Path(__file__).resolve().parents[2] / "docs" / "clients.md"
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
#: ``demo`` is a plugin command (entry point ``odoo_mcp.plugins``): named here, not loaded
_PLUGINS = {"demo": EntryPoint("demo", "odoo_mcp_demo:COMMAND", "odoo_mcp.plugins")}


def _blocks(language: str) -> list[str]:
    return [body for lang, body in _FENCE.findall(PAGE.read_text()) if lang == language]


def _servers(config: dict[str, Any]) -> list[dict[str, Any]]:
    return list({**config.get("mcpServers", {}), **config.get("servers", {})}.values())


def _parse(argv: list[str]) -> None:
    try:
        _parser(plugins=_PLUGINS).parse_args(argv)
    except SystemExit as exc:  # argparse's refusal
        pytest.fail(f"odoo-mcp refuses {argv}: exit {exc.code}")


def test_every_client_has_its_json_snippets() -> None:
    text = PAGE.read_text()
    for heading in ("## Claude Desktop", "## VS Code", "## Cursor", "## MCP Inspector"):
        assert heading in text
    assert len(_blocks("json")) == 7


@pytest.mark.parametrize("index", range(7))
def test_json_snippet_is_valid_and_its_command_is_accepted(index: int) -> None:
    config = json.loads(_blocks("json")[index])
    servers = _servers(config)
    assert servers, config
    env_names = {name for setting in SETTINGS.values() for name in setting.env}
    for server in servers:
        if server.get("command") == "odoo-mcp":
            _parse(list(server["args"]))
            assert set(server.get("env", {})) <= env_names, server["env"]
        elif "url" in server:  # HTTP: the Bearer header of docs/http.md
            assert server["url"].endswith("/mcp")
            assert server["headers"]["Authorization"].startswith("Bearer ")
        else:  # Claude Desktop's bridge to HTTP
            assert server["command"] == "npx"
            assert "Authorization: Bearer your-api-key" in server["args"]


def _shell_commands() -> list[list[str]]:
    commands = []
    for block in _blocks("bash"):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line)
            if "odoo-mcp" in words and not words[0].startswith("-"):
                commands.append(words[words.index("odoo-mcp") + 1 :])
    return commands


def test_shell_commands_are_accepted() -> None:
    commands = _shell_commands()
    assert ["serve", "--transport", "http", "--port", "8080", "--http-auth", "on"] in commands
    # the inspector's own flags follow
    assert any(argv[:3] == ["demo", "--method", "tools/list"] for argv in commands)
    for argv in commands:
        # the inspector's flags (``--method``) come after the server's command: not ours
        ours = argv[: argv.index("--method")] if "--method" in argv else argv
        _parse(ours)


def _inspector_commands() -> list[str]:
    return [
        line
        for block in _blocks("bash")
        for line in block.replace("\\\n", " ").splitlines()
        if "@modelcontextprotocol/inspector@" in line
    ]


def test_every_inspector_cli_call_allows_a_slow_connection() -> None:
    """2.x gives up after 15 s (``--connect-timeout``, in ms) when the server is slow to
    start on a busy machine: every documented ``--cli`` call, and the check script, allow
    more."""
    calls = [line for line in _inspector_commands() if "--cli" in line and "--help" not in line]
    assert len(calls) >= 2
    for line in calls:
        words = shlex.split(line)
        assert "--connect-timeout" in words, line
        assert int(words[words.index("--connect-timeout") + 1]) > 15000, line
    script = (PAGE.parents[1] / "bench" / "inspector_check.sh").read_text()
    assert '[v2]="--connect-timeout $CONNECT_TIMEOUT_MS"' in script
    assert "INSPECTOR_CONNECT_TIMEOUT_MS:-60000" in script


def test_the_inspector_section_says_what_0_15_cannot_do_and_explains_a_wrong_key() -> None:
    text = PAGE.read_text()
    section = text.split("## MCP Inspector", 1)[1].split("\n## ", 1)[0]
    flat = " ".join(section.split())
    assert "takes the same arguments" not in flat and "whose CLI takes the same" not in flat
    assert "@modelcontextprotocol/inspector@0.15.0" in flat and "has no `--header`" in flat
    assert "2.12.0 has both" in flat
    # the Bearer call is 2.x's
    bearer = [line for line in _inspector_commands() if "Authorization: Bearer" in line]
    assert bearer and all("inspector@2." in line for line in bearer)
    # a wrong key: the server's 401, which the Inspector reports as an OAuth/TTY problem
    assert "Interactive OAuth requires a TTY" in flat and "--stored-auth-only" in flat
    assert "401 Unauthorized" in flat and "Check the key" in flat


def test_remote_connectors_are_sent_to_the_oauth_page() -> None:
    text = PAGE.read_text()
    heading = "## Remote connectors (claude.ai, ChatGPT, Claude Desktop)"
    assert heading in text
    section = " ".join(text.split(heading, 1)[1].split("\n## ", 1)[0].split())
    assert "OAuth 2.1" in section and "](oauth.md)" in section
