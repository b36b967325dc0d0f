"""REQ-11-27..29, REQ-01-07/15: the ``odoo-mcp`` command: serve, check and demo.

Configuration errors and ``check`` run ``main`` in process; the demo runs as a real child
process spoken to over stdio by the SDK's client, as an MCP client application would.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from importlib.metadata import EntryPoint, version
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client, StdioServerParameters

from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.handle import FakeOdoo
from mcp_servers import error_body
from odoo_mcp.cli import EXIT_CONFIG, EXIT_FAILED, main
from odoo_mcp.plugins import GROUP, PluginCommand, load
from odoo_mcp_demo import client_snippet
from odoo_mcp_demo.http_process import free_port


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


def test_check_and_serve_do_not_look_for_plugin_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 17 (cold start): finding the plugin commands reads every installed package's
    entry points; ``check`` and ``serve`` parse their arguments without it."""

    def no_lookup() -> dict[str, EntryPoint]:
        raise AssertionError("the plugin commands were looked up")

    monkeypatch.setattr("odoo_mcp.cli.discover", no_lookup)
    environ = {"ODOO_URL": "http://127.0.0.1:9", "ODOO_DB": "d", "ODOO_API_KEY": "k"}
    assert main(["check"], environ=environ) == EXIT_FAILED


def test_a_bad_flag_of_serve_is_refused_with_the_usage_naming_the_plugins(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """REQ-01-07: arguments ``serve`` does not take are refused with the whole usage, the
    plugin commands included, as before issue 17's shortcut."""
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--no-such-flag"], environ={})
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "{serve,demo,check}" in err and "unrecognized arguments: --no-such-flag" in err


def test_client_snippet() -> None:
    """The demo prints how to add it to an MCP client."""
    entry = client_snippet("python")["mcpServers"]
    assert isinstance(entry, dict)
    assert entry["odoo-demo"] == {"command": sys.executable, "args": ["-m", "odoo_mcp", "demo"]}


def test_the_demo_is_declared_as_a_plugin_command() -> None:
    """``odoo-mcp demo`` reaches the demo package only through the entry point pyproject.toml
    declares (checked on the file: an installed copy may predate it)."""
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    value = project["entry-points"][GROUP]["demo"]
    command = load(EntryPoint(name="demo", value=value, group=GROUP))
    assert isinstance(command, PluginCommand) and command.help
    assert project["scripts"]["odoo-mcp-demo"] == "odoo_mcp_demo:main"


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
        assert error_body(refused)["code"] == "RATE_LIMITED"


@pytest.mark.anyio
async def test_stdio_answers_every_line_even_one_it_cannot_parse() -> None:
    """REQ-10-16 (fuzzing, issue 13): a line the SDK cannot parse (a lone surrogate, nesting
    deeper than its parser takes) is answered -32700 with a null id, not left unanswered; a
    NaN in the arguments is -32602, not -32603; a method name of 100,000 characters is
    refused before it reaches a URL. The session goes on."""
    command, args = _demo_command()
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", ""),
           "ODOO_MCP_MODE": "full"}  # fmt: skip
    process = await asyncio.create_subprocess_exec(
        command, *args, env=env, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None

    async def send(line: str) -> None:
        assert process.stdin is not None
        process.stdin.write(line.encode() + b"\n")
        await process.stdin.drain()

    async def answer() -> dict[str, Any]:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), timeout=20)
        data: dict[str, Any] = json.loads(line)
        return data

    def call(request_id: int, name: str, arguments: str) -> str:
        return (f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/call", '
                f'"params": {{"name": "{name}", "arguments": {arguments}}}}}')  # fmt: skip

    try:
        await send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}}))  # fmt: skip
        assert (await answer())["id"] == 1
        await send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')
        await send(call(2, "odoo_core_count", '{"model": "res.partner\\udfff"}'))
        surrogate = await answer()
        assert surrogate["id"] is None and surrogate["error"]["code"] == -32700
        deep = "[" * 400 + "]" * 400
        await send(call(3, "odoo_core_count", f'{{"model": "res.partner", "context": {deep}}}'))
        assert (await answer())["error"]["code"] in (-32700, -32602)
        await send(
            call(4, "odoo_core_count", '{"model": "res.partner", "domain": [["id", "=", NaN]]}')
        )
        nan = await answer()
        assert nan["id"] == 4 and nan["error"]["code"] == -32602, nan
        long_method = json.dumps({"model": "sale.order", "method": "A" * 100_000})
        await send(call(5, "odoo_core_execute", long_method))
        refused = await answer()
        assert refused["result"]["isError"] is True
        assert json.loads(refused["result"]["content"][0]["text"])["code"] == "METHOD_NOT_FOUND"
        await send('{"jsonrpc": "2.0", "id": 6, "method": "ping"}')
        assert await answer() == {"jsonrpc": "2.0", "id": 6, "result": {}}
    finally:
        process.kill()
        await process.wait()


@pytest.mark.anyio
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
async def test_a_signal_drains_the_requests_in_flight_and_exits_0(
    fake_odoo_server: FakeOdoo, signum: int
) -> None:
    """REQ-01-24: on SIGTERM/SIGINT the stdio server reads no new request, answers the one
    already running (Odoo answers it 1.5 s later) and exits 0."""
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", ""),
           "ODOO_URL": fake_odoo_server.url, "ODOO_DB": "demo", "ODOO_USERNAME": "admin",
           "ODOO_API_KEY": ADMIN_API_KEY, "ODOO_MCP_LOG_LEVEL": "info",
           # the latency fault is for the tool call, not for a start-up introspection call
           "ODOO_MCP_INTROSPECT": "false"}  # fmt: skip
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "odoo_mcp", "serve", env=env, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None

    async def send(message: dict[str, Any]) -> None:
        assert process.stdin is not None
        process.stdin.write(json.dumps(message).encode() + b"\n")
        await process.stdin.drain()

    async def answer() -> dict[str, Any]:
        assert process.stdout is not None
        data: dict[str, Any] = json.loads(
            await asyncio.wait_for(process.stdout.readline(), timeout=20)
        )
        return data

    try:
        await send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}})  # fmt: skip
        assert (await answer())["id"] == 1
        await send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        fake_odoo_server.inject_fault("latency", seconds=1.5, count=1)
        await send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "odoo_core_count", "arguments": {"model": "res.partner"}}})  # fmt: skip
        await asyncio.sleep(0.5)  # the call is waiting on Odoo
        process.send_signal(signum)
        await asyncio.sleep(0.2)
        await send({"jsonrpc": "2.0", "id": 3, "method": "ping"})  # after the signal: not read
        drained = await answer()
        assert drained.get("id") == 2 and "result" in drained, drained
        assert drained["result"]["isError"] is False, drained
        assert await asyncio.wait_for(process.wait(), timeout=10) == 0
        rest = await process.stdout.read()
        assert b'"id":3' not in rest.replace(b" ", b""), rest
        assert process.stderr is not None
        log = (await process.stderr.read()).decode()
        assert f"{signal.Signals(signum).name}: no new requests" in log, log[-2000:]
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


@pytest.mark.anyio
async def test_closing_stdin_ends_the_stdio_server_with_exit_0(fake_odoo_server: FakeOdoo) -> None:
    """REQ-01-24: MCP's stdio shutdown is the client closing the server's stdin: the server
    answers what it was asked and exits 0 by itself (it used to wait forever on the SDK's
    stdout writer, and every client had to kill it after a grace period of 2 s)."""
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", ""),
           "ODOO_URL": fake_odoo_server.url, "ODOO_DB": "demo", "ODOO_USERNAME": "admin",
           "ODOO_API_KEY": ADMIN_API_KEY, "ODOO_MCP_INTROSPECT": "false"}  # fmt: skip
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "odoo_mcp", "serve", env=env, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    try:
        for message in (
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"}}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        ):  # fmt: skip
            process.stdin.write(json.dumps(message).encode() + b"\n")
        await process.stdin.drain()
        answers = [
            json.loads(await asyncio.wait_for(process.stdout.readline(), timeout=20))
            for _ in range(2)
        ]
        assert [a.get("id") for a in answers] == [1, 2]
        process.stdin.close()
        assert await asyncio.wait_for(process.wait(), timeout=5) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


def test_the_sse_transport_is_refused_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    """REQ-01-09 (decision 34): asking for SSE stops the start and says to use http, instead
    of serving something else."""
    environ = {"ODOO_URL": "http://odoo.example.com", "ODOO_DB": "demo",
               "ODOO_API_KEY": "k", "ODOO_MCP_TRANSPORT": "sse"}  # fmt: skip
    assert main(["serve"], environ=environ) == EXIT_CONFIG
    problems = _stderr_problems(capsys.readouterr().err)
    assert any(p.startswith("transport sse") and "use transport http" in p for p in problems)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    """``odoo-mcp --version``: the installed distribution's version, nothing started."""
    with pytest.raises(SystemExit) as exited:
        main(["--version"], environ={})
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"odoo-mcp {version('odoo-mcp-reference')}\n"


def test_the_process_exit_skips_teardown_but_not_what_an_exit_must_do(tmp_path: Path) -> None:
    """Issue 17: ``exit_now`` (the end of ``odoo-mcp`` and ``python -m odoo_mcp``) leaves
    without tearing the interpreter down, yet as Python's exit would: the atexit hooks ran
    (logging's flushed its handlers), the buffered standard streams were written, the code is
    the one given."""
    log = tmp_path / "server.log"
    script = (
        "import atexit, logging, sys\n"
        "from odoo_mcp.cli import exit_now\n"
        "atexit.register(print, 'atexit ran')\n"
        f"handler = logging.FileHandler({str(log)!r}, delay=True)\n"
        "handler.stream = open(handler.baseFilename, 'a', buffering=1 << 20)  # held in memory\n"
        "logging.getLogger().addHandler(handler)\n"
        "logging.getLogger().warning('last words')\n"
        "sys.stdout.write('buffered, no newline')\n"
        "sys.stderr.write('to stderr')\n"
        "exit_now(3)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 3, done.stderr
    assert done.stdout == "buffered, no newlineatexit ran\n"
    assert done.stderr == "to stderr"
    assert log.read_text() == "last words\n"


@pytest.mark.parametrize(("argv", "extra", "fragment"), [
    (["serve"], {"ODOO_MCP_MODEL_BLOCKLIST": "RES.PARTNER"}, "did you mean 'res.partner'?"),
    (["serve"], {"ODOO_MCP_MODEL_BLOCKLIST": '["res.partner"]'}, "comma-separated"),
    (["serve"], {"ODOO_MCP_MODEL_BLOCKLIST": "res.partner;sale.order"},
     "did you mean 'res.partner,sale.order'?"),
    (["serve"], {"ODOO_MCP_FIELD_BLOCKLIST": "Email"}, "did you mean 'email'?"),
    (["serve"], {"ODOO_MCP_FIELD_BLOKLIST": "email"}, "did you mean ODOO_MCP_FIELD_BLOCKLIST?"),
    (["serve"], {"ODOO_MCP_RATE_LIMIT_ENABLED": "yes-please"},
     "did you mean ODOO_MCP_RATE_LIMIT?"),
    (["serve"], {"ODOO_MCP_RATE_LIMIT": "yes-please"}, "expected one of true/1/yes"),
    (["check", "--set", "rate_limit_enabeld=true"], {}, "did you mean 'rate_limit_enabled'?"),
])  # fmt: skip
def test_a_setting_that_would_silently_do_nothing_stops_the_start(
    argv: list[str], extra: dict[str, str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """REQ-11-29/30/31: a list, variable or key the server cannot use is exit 2, one line."""
    environ = {"ODOO_URL": "http://odoo", "ODOO_DB": "d", "ODOO_API_KEY": "k", **extra}
    assert main(argv, environ=environ) == EXIT_CONFIG
    [problem] = _stderr_problems(capsys.readouterr().err)
    assert fragment in problem


def test_an_audit_file_that_cannot_be_opened_stops_the_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """REQ-11-22/29: exit 2 with one line naming the file and the reason, before Odoo is
    reached (an unreachable Odoo would be exit 1); nothing is lost later, record by record."""
    path = tmp_path / "missing-dir" / "audit.jsonl"
    environ = {"ODOO_URL": "http://127.0.0.1:9", "ODOO_DB": "d", "ODOO_API_KEY": "k",
               "ODOO_MCP_AUDIT": "true", "ODOO_MCP_AUDIT_FILE": str(path)}  # fmt: skip
    for command in ("serve", "check", "demo"):
        assert main([command], environ=environ) == EXIT_CONFIG
        [problem] = _stderr_problems(capsys.readouterr().err)
        assert problem == (
            f"audit_log_file (ODOO_MCP_AUDIT_FILE): cannot open {path} for appending "
            "(No such file or directory)"
        )


def test_check_prints_every_setting_in_force_with_secrets_masked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """REQ-11-25/29: an admin sees the whole effective configuration (rate limit, audit, the
    lists, the built-in blocklists), even when Odoo then cannot be reached; no secret shows."""
    from odoo_mcp.config import SETTINGS

    secret = "S3CR3T-value"
    environ = {
        "ODOO_URL": f"http://admin:{secret}@127.0.0.1:9", "ODOO_DB": "d",
        "ODOO_USERNAME": "admin", "ODOO_PASSWORD": secret, "ODOO_API_KEY": secret,
        "ODOO_MCP_MODEL_BLOCKLIST": "crm.lead, sale.order", "ODOO_MCP_RATE_LIMIT": "yes",
        "ODOO_MCP_RATE_LIMIT_RPM": "30", "ODOO_MCP_AUDIT_READS": "true",
    }  # fmt: skip
    assert main(["check"], environ=environ) == EXIT_FAILED
    out = capsys.readouterr().out
    assert secret not in out
    rows = {
        line.split()[0]: " ".join(line.split()[1:])
        for line in out.splitlines()
        if line.startswith("  ") and line.split()[0] in SETTINGS
    }
    assert set(rows) == set(SETTINGS)
    assert rows["odoo_password"] == rows["odoo_api_key"] == "****"
    assert rows["odoo_url"] == "http://***@127.0.0.1:9"
    assert rows["model_blocklist"] == "crm.lead, sale.order"
    assert rows["rate_limit_enabled"] == "true"
    assert rows["rate_limit_rpm"] == "30"
    assert rows["rate_limit_burst"] == "10 (default)"
    assert rows["audit_enabled"] == "false (default)"
    assert rows["audit_log_reads"] == "true"
    assert rows["audit_log_file"] == "(unset) (default)"
    assert rows["state_url"] == "(not set: this process's memory) (default)"  # not a blank
    assert "  models read-only:  res.users" in out
    assert "ir.config_parameter" in out and "and every method starting with _" in out


@pytest.mark.wire
def test_check_lists_the_fields_blocked_with_their_source(
    fake_odoo_server: FakeOdoo, capsys: pytest.CaptureFixture[str]
) -> None:
    """REQ-11-14 (issue 26): check shows the fields derived from a blocked field or model."""
    argv = ["check", "--odoo-url", fake_odoo_server.url, "--odoo-db", "demo"]
    argv += ["--odoo-username", "admin", "--set", "field_blocklist=email"]
    argv += ["--set", "model_blocklist=crm.lead"]
    assert main(argv, environ={"ODOO_API_KEY": ADMIN_API_KEY}) == 0
    out = capsys.readouterr().out
    partner = next(line for line in out.splitlines() if line.startswith("  res.partner:"))
    assert "email_normalized" in partner and "email_formatted" in partner
    assert "opportunity_ids" in partner  # its comodel, crm.lead, is blocked
    assert " email," not in partner and "display_name" not in partner


@pytest.mark.parametrize("command", ["serve", "check"])
def test_help_names_where_the_secret_goes(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 29: the secret has no flag, so --help says which variables carry it."""
    with pytest.raises(SystemExit):
        main([command, "--help"], environ={})
    text = " ".join(capsys.readouterr().out.split())
    assert "ODOO_API_KEY" in text and "ODOO_PASSWORD" in text


def test_the_demo_refuses_http_auth_it_cannot_check(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 29: the demo's fake Odoo is in process, so no Bearer key can be checked: a public
    host (where authentication is forced on) is refused, not served half-working."""
    code = main(["demo", "--transport", "http", "--host", "0.0.0.0"], environ={})
    assert code == EXIT_CONFIG
    assert "loopback" in capsys.readouterr().err


def test_the_demo_over_http_says_so() -> None:
    """Issue 29: `demo --transport http --port N` serves HTTP there and says so (it printed a
    stdio snippet before); the banner gives the URL a client needs."""
    port = free_port()
    command = [sys.executable, "-m", "odoo_mcp", "demo", "--transport", "http", "--port", str(port)]
    with subprocess.Popen(
        command, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True
    ) as process:
        try:
            assert process.stderr is not None
            banner = "".join(process.stderr.readline() for _ in range(3))
        finally:
            process.terminate()
            process.wait(timeout=10)
    assert f"streamable HTTP at http://127.0.0.1:{port}/mcp" in banner, banner
    assert "stdio" not in banner


@pytest.mark.wire
def test_serve_over_http_says_where_it_listens(fake_odoo_server: FakeOdoo) -> None:
    """REQ-HTTP-01: uvicorn, given a bound socket, logs no address: ``serve --transport http``
    names the MCP endpoint's URL (host, port, path) on stderr, as the demo's banner does."""
    port = free_port()
    command = [sys.executable, "-m", "odoo_mcp", "serve", "--transport", "http"]
    command += ["--port", str(port), "--path", "/odoo-mcp", "--log-level", "warning"]
    environ = {**os.environ, "ODOO_URL": fake_odoo_server.url, "ODOO_DB": "demo"}
    environ.update(ODOO_USERNAME="admin", ODOO_API_KEY=ADMIN_API_KEY)
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(
            command, env=environ, stderr=stderr, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL
        )
        try:
            deadline = time.monotonic() + 30
            while process.poll() is None and time.monotonic() < deadline:
                with contextlib.suppress(httpx2.TransportError):
                    if httpx2.get(f"http://127.0.0.1:{port}/health", timeout=1).is_success:
                        break
                time.sleep(0.1)
        finally:
            process.terminate()
            process.wait(timeout=10)
        stderr.seek(0)
        said = stderr.read().decode(errors="replace")
    assert f"streamable HTTP at http://127.0.0.1:{port}/odoo-mcp" in said, said


@pytest.mark.wire
@pytest.mark.parametrize(
    ("secret", "named"), [("ODOO_API_KEY", "ODOO_API_KEY"), ("ODOO_PASSWORD", "ODOO_PASSWORD")]
)
def test_refused_credentials_name_the_settings_to_fix(
    fake_odoo_server: FakeOdoo, capsys: pytest.CaptureFixture[str], secret: str, named: str
) -> None:
    """REQ-01-15, REQ-02-07: a refused login says which settings to check, as an unknown
    database names ODOO_DB."""
    environ = {"ODOO_URL": fake_odoo_server.url, "ODOO_DB": "demo", secret: "wrong"}
    assert main(["check", "--odoo-username", "admin"], environ=environ) == EXIT_FAILED
    err = capsys.readouterr().err
    assert "refused" in err and "check ODOO_USERNAME (--odoo-username) and " in err, err
    assert err.rstrip().endswith(named), err


def test_the_demo_refuses_odoo_connection_options(capsys: pytest.CaptureFixture[str]) -> None:
    """The demo serves its own fake Odoo: connection flags (or --set) are refused with exit 2
    and a pointer to ``serve``, not silently ignored."""
    argv = ["demo", "--odoo-url", "http://odoo.example", "--set", "odoo_db=prod"]
    assert main(argv, environ={}) == EXIT_CONFIG
    err = capsys.readouterr().err
    assert "--odoo-url, --odoo-db:" in err and "`odoo-mcp serve`" in err, err
