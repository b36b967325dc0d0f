"""The container definition (Dockerfile, compose.yaml) against the commands it runs, so the
two cannot drift: the entry point is a declared console script, ``CMD`` parses with
``odoo-mcp``'s own parser and makes, with the image's environment, a valid HTTP configuration
on the ``EXPOSE``d port, the health check asks the path the HTTP app serves, and compose's
fake Odoo command parses with ``fake-odoo``'s parser and listens where the server looks."""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from starlette.routing import Route

from fake_odoo import cli as fake_cli
from odoo_mcp import cli as server_cli
from odoo_mcp.adapter.http.app import build_http_app
from odoo_mcp.adapter.server import build_server
from odoo_mcp.cli import config_from_args
from odoo_mcp.config import OdooMcpConfig
from odoo_mcp.connection import ConnectionManager

ROOT = Path(__file__).resolve().parents[1]
#: what a deployment adds: the Odoo to connect to (compose's values stand in for them)
ODOO = {"ODOO_URL": "http://odoo:8069", "ODOO_DB": "prod", "ODOO_USERNAME": "bot"}
ODOO_KEY = {"ODOO_API_KEY": "secret"}


def _instructions(stage: str) -> list[tuple[str, str]]:
    """``(INSTRUCTION, arguments)`` of the Dockerfile's last stage (continuations joined)."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    lines = [line.strip() for line in text.splitlines()]
    items = [tuple(line.split(None, 1)) for line in lines if line and not line.startswith("#")]
    pairs = [(kind.upper(), rest.strip()) for kind, rest in items]
    starts = [i for i, (kind, _rest) in enumerate(pairs) if kind == "FROM"]
    assert len(starts) >= 2, "a multi-stage build: a builder, then the image"
    return pairs[starts[-1] :] if stage == "final" else pairs[: starts[-1]]


def _one(kind: str) -> str:
    found = [rest for k, rest in _instructions("final") if k == kind]
    assert len(found) == 1, f"one {kind} in the final stage, found {found}"
    return found[0]


def _exec_form(kind: str) -> list[str]:
    value = json.loads(_one(kind))  # exec form: no shell between docker and the command
    assert isinstance(value, list) and all(isinstance(v, str) for v in value)
    return value


def _image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for kind, rest in _instructions("final"):
        if kind == "ENV":
            env.update(item.split("=", 1) for item in shlex.split(rest))
    return env


def _compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "compose.yaml").read_text())
    assert isinstance(data, dict)
    return data


def _image_config(extra: dict[str, str]) -> OdooMcpConfig:
    args = server_cli._parser().parse_args(_exec_form("CMD"))
    return config_from_args(args, {**_image_env(), **extra})


def test_the_entry_point_is_a_declared_console_script() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert _exec_form("ENTRYPOINT") == ["odoo-mcp"]
    assert scripts["odoo-mcp"] == "odoo_mcp.launch:console"
    fake = _compose()["services"]["fake-odoo"]["entrypoint"]
    assert fake == ["fake-odoo"] and fake[0] in scripts


def test_the_image_serves_http_on_the_exposed_port() -> None:
    """CMD parses with odoo-mcp's parser; with the image's environment and an Odoo it is a
    valid configuration: HTTP on every interface, the EXPOSEd port, authentication on."""
    args = server_cli._parser().parse_args(_exec_form("CMD"))
    assert args.command == "serve"
    config = _image_config({**ODOO, **ODOO_KEY})
    assert config.transport == "http"
    assert config.host == "0.0.0.0"
    assert config.http_auth_enabled
    assert _one("EXPOSE") == str(config.port)
    assert _one("USER") not in ("root", "0")


def test_the_port_is_the_environment_s_to_change() -> None:
    """CMD sets no flag the environment could not override (flags beat variables)."""
    config = _image_config({**ODOO, **ODOO_KEY, "ODOO_MCP_PORT": "9000"})
    assert config.port == 9000


def test_the_health_check_asks_the_health_route() -> None:
    config = _image_config({**ODOO, **ODOO_KEY})
    connection = ConnectionManager(config.connection_settings())
    app = build_http_app(build_server(config, connection), config, connection)
    served = {route.path for route in app.routes if isinstance(route, Route)}
    check = _one("HEALTHCHECK")
    urls = re.findall(r"http://127\.0\.0\.1:'[^/]*'(/[\w/-]*)'", check)
    assert urls == ["/health"], check
    assert urls[0] in served
    assert "'ODOO_MCP_PORT', '" + str(config.port) + "'" in check  # the same default port


def test_compose_runs_the_server_against_the_fake() -> None:
    services = _compose()["services"]
    fake = services["fake-odoo"]
    fake_args = fake_cli._parser().parse_args(fake["command"])
    assert fake_args.command == "serve"
    assert fake_args.host == "0.0.0.0"
    server = services["odoo-mcp"]
    env = {key: str(value) for key, value in server["environment"].items()}
    url = urlsplit(env["ODOO_URL"])
    assert (url.hostname, url.port) == ("fake-odoo", fake_args.port)
    assert env["ODOO_DB"] == fake_args.database
    assert str(fake_args.port) in " ".join(fake["healthcheck"]["test"])
    config = _image_config(env)
    published = [str(p).rsplit(":", 2) for p in server["ports"]]
    assert [(int(host_port), int(port)) for _ip, host_port, port in published] == [
        (config.port, config.port)
    ]
    assert server["depends_on"]["fake-odoo"]["condition"] == "service_healthy"


def test_compose_uses_the_fake_s_demo_key() -> None:
    """The key compose gives the server (and its comment gives the reader) is the fake's."""
    from fake_odoo.demo import ADMIN_API_KEY

    env = _compose()["services"]["odoo-mcp"]["environment"]
    assert (env["ODOO_USERNAME"], env["ODOO_API_KEY"]) == ("admin", ADMIN_API_KEY)
    assert f"Bearer admin:{ADMIN_API_KEY}" in (ROOT / "compose.yaml").read_text()


@pytest.mark.parametrize(
    "needed", ["pyproject.toml", "README.md", "LICENSE", "src", "conformance", "features", "spec"]
)
def test_the_build_context_keeps_what_the_wheel_needs(needed: str) -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert needed not in ignored
    copied = " ".join(rest for kind, rest in _instructions("builder") if kind == "COPY")
    assert needed in copied


def test_the_image_installs_the_extra_that_shared_state_needs() -> None:
    """Decision 37: a fleet of containers sets ODOO_MCP_STATE_URL; without the ``redis`` extra
    the server would stop at its configuration check ("install odoo-mcp[redis]")."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "redis" in pyproject["project"]["optional-dependencies"]
    installs = [
        args for kind, args in _instructions("final") if kind == "RUN" and "pip install" in args
    ]
    assert len(installs) == 1 and '[redis]"' in installs[0], installs


def test_the_image_is_on_the_python_the_spec_names() -> None:
    """REQ-01-28: the image runs on python:3.11-slim (issue 29: it was 3.12 with no decision)."""
    stages = [_instructions("builder"), _instructions("final")]
    froms = [rest.split()[0] for pairs in stages for kind, rest in pairs if kind == "FROM"]
    assert froms == ["python:3.11-slim", "python:3.11-slim"]
