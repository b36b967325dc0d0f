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
    assert ["demo", "--method", "tools/list"] in commands  # the inspector's own flags follow
    for argv in commands:
        # the inspector's flags (``--method``) come after the server's command: not ours
        ours = argv[: argv.index("--method")] if "--method" in argv else argv
        _parse(ours)
