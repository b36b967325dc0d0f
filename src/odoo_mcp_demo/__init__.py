"""``odoo-mcp demo``: the reference server against the fake Odoo 19.0 with its demo data.

The only package that imports both ``odoo_mcp`` and ``fake_odoo``: the server never depends on
the fake (tests/test_architecture.py).  ``COMMAND`` is declared in pyproject.toml as the
``demo`` entry point of the ``odoo_mcp.commands`` group, which is how ``odoo-mcp demo`` finds
it (``odoo_mcp.plugins``); the ``odoo-mcp-demo`` script (``main``) runs the same command.

The fake runs in process (an ASGI transport, no port); the server honours the whole
configuration (mode, lists, limits, toolsets) except the Odoo connection, which is always the
fake's admin with its API key.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import IN_PROCESS_URL, FakeOdooTransport
from odoo_mcp.cli import EXIT_CONFIG, cli_overrides, config_from_args, mcp_url, serve
from odoo_mcp.cli import main as odoo_mcp_main
from odoo_mcp.config import ENV_VARS, SETTINGS, OdooMcpConfig
from odoo_mcp.connection import ConnectionManager
from odoo_mcp.plugins import PluginCommand

__all__ = ["COMMAND", "DEMO_VERSION", "client_snippet", "main", "run_demo"]

DEMO_VERSION: Final = "19.0"
#: the connection settings the demo replaces, whatever the environment says
_CONNECTION_FIELDS: Final = (
    "odoo_url",
    "odoo_db",
    "odoo_username",
    "odoo_password",
    "odoo_api_key",
    "odoo_protocol",
    "odoo_verify_ssl",
    "odoo_ca_cert",
)


def client_snippet(argv0: str | None = None) -> dict[str, object]:
    """The ``mcpServers`` entry that launches this demo (claude_desktop_config / mcp.json)."""
    launcher = Path(argv0 if argv0 is not None else sys.argv[0])
    if launcher.name == "odoo-mcp" and launcher.exists():
        entry: dict[str, object] = {"command": str(launcher.absolute()), "args": ["demo"]}
    else:
        entry = {"command": sys.executable, "args": ["-m", "odoo_mcp", "demo"]}
    return {"mcpServers": {"odoo-demo": entry}}


def _without_connection(environ: Mapping[str, str]) -> dict[str, str]:
    names = {variable for field in _CONNECTION_FIELDS for variable in ENV_VARS[field]}
    return {key: value for key, value in environ.items() if key.upper() not in names}


def _connection_options(args: argparse.Namespace) -> list[str]:
    """The connection settings given on the command line (a flag or ``--set``), by flag."""
    values, _ = cli_overrides(args)
    return [
        SETTINGS[field].flag or f"--set {field}" for field in _CONNECTION_FIELDS if field in values
    ]


def run_demo(args: argparse.Namespace, environ: Mapping[str, str]) -> int:
    """REQ-11-27: the configuration of ``serve`` with the fake Odoo as the connection.

    The connection's flags are refused (exit 2), not ignored: whoever types ``--odoo-url``
    expects that Odoo, and the demo would silently serve its fake instead. The environment's
    ODOO_* stay ignored: they are often set for ``serve`` already."""
    given = _connection_options(args)
    if given:
        print(
            f"odoo-mcp demo: {', '.join(given)}: the demo serves its own fake Odoo and takes "
            "no Odoo connection settings; use `odoo-mcp serve` to connect to your Odoo.",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    fake = FakeOdoo(DEMO_VERSION)
    # the fake imitates Odoo's own log lines (e.g. XML-RPC deprecation): noise in a demo
    logging.getLogger("odoo").setLevel(logging.ERROR)
    fixed = {
        "odoo_url": IN_PROCESS_URL,
        "odoo_db": fake.database_name,
        "odoo_username": "admin",
        "odoo_api_key": ADMIN_API_KEY,
    }
    config = config_from_args(args, _without_connection(environ), fixed=fixed)
    if config.transport == "http" and config.http_auth_enabled:
        # callers' Bearer keys are checked by logging in to the Odoo: this one has no address
        print(
            "odoo-mcp demo: HTTP with Bearer authentication needs a real Odoo to check the "
            "keys; the demo's fake Odoo is in process. Serve the demo on a loopback --host "
            "(127.0.0.1, the default) without --http-auth on, or run `fake-odoo serve` and "
            "`odoo-mcp serve --transport http` against it.",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    transport = FakeOdooTransport(app=fake.app)
    connection = ConnectionManager(
        config.connection_settings(), transport=transport, backoff=config.reconnect_backoff()
    )
    print(_banner(config), file=sys.stderr, flush=True)
    return serve(config, connection, announce=False)  # the banner names the URL


def _banner(config: OdooMcpConfig) -> str:
    """What the demo serves and how to add it to a client, for the transport it serves."""
    about = (
        f"against a fake Odoo {DEMO_VERSION} with demo data (in process, logged in as admin; "
        f"mode {config.mode.value})"
    )
    if config.transport == "http":
        url = mcp_url(config)
        entry = {"mcpServers": {"odoo-demo": {"type": "http", "url": url}}}
        return (
            f"odoo-mcp demo: MCP over streamable HTTP at {url} {about}, no authentication.\n"
            "Add it to an MCP client that speaks HTTP (.vscode/mcp.json, Cursor, ...):\n"
            + json.dumps(entry, indent=2)
        )
    return (
        f"odoo-mcp demo: MCP on stdio {about}.\n"
        "Add it to an MCP client (claude_desktop_config.json, .vscode/mcp.json, ...):\n"
        + json.dumps(client_snippet(), indent=2)
    )


#: ``odoo-mcp demo``: the entry point pyproject.toml declares in the ``odoo_mcp.commands`` group
COMMAND: Final = PluginCommand(
    help="serve MCP (stdio, or --transport http on loopback) against a built-in fake Odoo",
    run=run_demo,
)


def main(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> int:
    """The ``odoo-mcp-demo`` console script: ``odoo-mcp demo`` with the same flags."""
    given = sys.argv[1:] if argv is None else argv
    return odoo_mcp_main(["demo", *given], environ)
