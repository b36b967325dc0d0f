"""Steps of the safety and configuration features: audit files, start-up failures, sessions."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from pytest_bdd import given, parsers, when

from odoo_mcp_conformance.checks import check
from odoo_mcp_conformance.driver import launch_command
from odoo_mcp_conformance.inconclusive import Inconclusive
from odoo_mcp_conformance.jsonpath import matches
from odoo_mcp_conformance.steps.common import parse_json, setting_value
from odoo_mcp_conformance.target import NotApplicable, OdooCoordinates
from odoo_mcp_conformance.timing import scaled
from odoo_mcp_conformance.world import World, not_applicable


# -- configuration file and start-up -------------------------------------------------------------
@given(parsers.parse("the server configuration file holds:"))
def _config_file(world: World, docstring: str) -> None:
    path = world.tmp / "odoo-mcp.json"
    path.write_text(docstring)
    world.configure("config_file", str(path))


@given(parsers.parse('the server\'s command line sets "{name}" to "{value}"'))
def _command_line(world: World, name: str, value: str) -> None:
    world.configure_flag(name, value)


@when(parsers.parse("the server is started with the settings:"))
def _start_with(world: World, docstring: str) -> None:
    """Launch the target's command and let it fail (or not) on its own: no MCP session."""
    settings = {name: setting_value(name, str(value)) if not isinstance(value, list) else value
                for name, value in parse_json(docstring, world).items()}  # fmt: skip
    _start(world, world.control.coordinates(world.user), settings)


@when("the server is started against an Odoo that refuses connections")
def _start_unreachable(world: World) -> None:
    """The fake's coordinates with a port nothing listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    odoo = world.control.coordinates(world.user)
    _start(world, odoo.model_copy(update={"url": f"http://127.0.0.1:{port}"}), {})


def _start(world: World, odoo: OdooCoordinates, settings: dict[str, Any]) -> None:
    try:
        launch = world.target.render(odoo, settings)
    except NotApplicable as exc:
        not_applicable(str(exc))
    if launch.transport != "stdio":
        not_applicable("start-up failures are observed on stdio targets only")
    command, env = launch_command(launch, world.pool.forkserver)
    # issue 38: judged only once the process has exited. Its stdin is closed, so a server that
    # takes the configuration reads end-of-file and exits 0, one that refuses it exits non-zero
    # (a 30 s wait counted a slow refusal on a loaded machine as "it started"). The bound is
    # only for a process that hangs: four times the target's own start-up time, 2 min at least,
    # both scaled by the machine's load (timing.py).
    wait = max(scaled(120.0), 4 * launch.startup_timeout)  # (startup_timeout is scaled)
    world.pool.started += 1
    log = world.pool.log_dir / f"server-{world.pool.started:03d}.startup.stderr.log"
    try:
        done = subprocess.run(
            command, env=env, cwd=launch.cwd, stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=wait, check=False,
        )  # fmt: skip
        code, stderr = done.returncode, done.stderr
    except subprocess.TimeoutExpired as late:
        code = None
        stderr = late.stderr.decode(errors="replace") if isinstance(late.stderr, bytes) else ""
        stderr += f"\n[odoo-mcp-conformance: still running after {wait:g} s with stdin closed]"
    log.write_text(stderr, encoding="utf-8")  # server-logs/ keeps it, as for every launch
    world.remembered["startup"] = (code, stderr)


@check(parsers.parse("the server refuses to start"))
def _refused(world: World) -> None:
    code, stderr = world.remembered["startup"]
    assert code is not None, (
        "the server neither exited nor refused with its stdin closed; stderr: " + stderr[-500:]
    )
    assert code != 0, f"exit code 0 with an invalid configuration; stderr: {stderr[-500:]}"


@check(parsers.parse('the start-up error mentions "{text}"'))
def _mentions(world: World, text: str) -> None:
    _code, stderr = world.remembered["startup"]
    assert text in stderr, f"{text!r} not in the start-up error:\n{stderr[-1500:]}"


@check(parsers.parse("the start-up error carries no traceback"))
def _startup_clean(world: World) -> None:
    _code, stderr = world.remembered["startup"]
    assert "Traceback (most recent call last)" not in stderr, stderr[-1500:]


# -- shutdown ------------------------------------------------------------------------------------
def _rpc(request_id: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


_INITIALIZE = _rpc(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                     "clientInfo": {"name": "odoo-mcp-conformance",
                                                    "version": "1"}})  # fmt: skip


@when(parsers.parse("the server gets {signal_name} while a call waits {seconds:g} s on Odoo"))
def _signal_in_flight(world: World, signal_name: str, seconds: float) -> None:
    """REQ-01-24: a stdio server of its own, spoken to line by line. A tool call waits on a
    slow Odoo, the signal comes, a ping follows it; then the answers and the exit code."""
    signum = {"SIGTERM": signal.SIGTERM, "SIGINT": signal.SIGINT}[signal_name]
    try:
        launch = world.target.render(world.control.coordinates(world.user), world.settings)
    except NotApplicable as exc:
        not_applicable(str(exc))
    if launch.transport != "stdio":
        not_applicable("the shutdown is observed on stdio targets only")
    command, env = launch_command(launch, world.pool.forkserver)
    process = subprocess.Popen(
        command, env=env, cwd=launch.cwd,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    stdin, stdout = process.stdin, process.stdout
    assert stdin is not None and stdout is not None
    lines: queue.Queue[bytes] = queue.Queue()

    def read() -> None:
        for line in stdout:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    answers: dict[object, dict[str, Any]] = {}

    def send(message: dict[str, Any]) -> None:
        with contextlib.suppress(OSError):  # a server that stopped reading may close its stdin
            stdin.write(json.dumps(message).encode() + b"\n")
            stdin.flush()

    def wait_for(request_id: int, timeout: float) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout
        while request_id not in answers and time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty, ValueError):
                message = json.loads(lines.get(timeout=0.05))
                if isinstance(message, dict) and "id" in message:
                    answers[message["id"]] = message
        return answers.get(request_id)

    try:
        send(_INITIALIZE)
        if wait_for(1, launch.startup_timeout) is None:  # (scaled to the machine's load)
            raise Inconclusive(
                f"the server did not answer initialize in {launch.startup_timeout:g} s"
            )
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        world.control.inject_fault(kind="latency", seconds=seconds, count=1)
        send(_rpc(2, "tools/call", {"name": "odoo_core_count",
                                    "arguments": {"model": "res.partner"}}))  # fmt: skip
        time.sleep(min(0.5, seconds / 3))  # the call is now waiting on Odoo
        process.send_signal(signum)
        time.sleep(0.2)
        send(_rpc(3, "ping", {}))
        wait_for(2, seconds + 10)
        try:
            code: int | None = process.wait(timeout=seconds + 10)
        except subprocess.TimeoutExpired:
            code = None
        wait_for(3, 0.2)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
    world.remembered["shutdown"] = (answers, code)


@check(parsers.parse("the call that waited on Odoo is answered"))
def _drained(world: World) -> None:
    answers, _code = world.remembered["shutdown"]
    answer = answers.get(2)
    assert answer is not None, "the call in flight got no answer"
    assert "result" in answer and not answer["result"].get("isError"), f"answered {answer}"


@check(parsers.parse("the request sent after the signal is not served"))
def _no_intake(world: World) -> None:
    answers, _code = world.remembered["shutdown"]
    assert "result" not in answers.get(3, {}), f"served after the signal: {answers[3]}"


@check(parsers.parse("the server exits with code {expected:d}"))
def _exit_code(world: World, expected: int) -> None:
    _answers, code = world.remembered["shutdown"]
    assert code is not None, "the server did not exit"
    assert code == expected, f"exit code {code}"


# -- the audit log -------------------------------------------------------------------------------
def _audit_text(world: World) -> str:
    path = world.settings.get("audit_log_file")
    if not path:
        raise AssertionError("the scenario did not enable the audit log")
    return Path(path).read_text(encoding="utf-8") if os.path.exists(path) else ""


def _audit_records(world: World) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 3.0
    text = _audit_text(world)
    while not text.endswith("\n") and time.monotonic() < deadline:
        time.sleep(0.05)  # the server writes after answering
        text = _audit_text(world)
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise AssertionError(f"audit line {number} is not JSON: {line[:200]}") from exc
    return records


@check(parsers.parse('the audit log has a record for "{tool}" with:'))
def _audit_has(world: World, tool: str, docstring: str) -> None:
    expected = parse_json(docstring, world)
    records = [r for r in _audit_records(world) if r.get("tool") == tool]
    assert records, f"no audit record for {tool}"
    assert any(matches(r, expected) for r in records), f"{records} do not match {expected}"


@check(parsers.parse('the audit log has no record for "{tool}"'))
def _audit_lacks(world: World, tool: str) -> None:
    time.sleep(0.2)
    records = [r for r in _audit_records_or_empty(world) if r.get("tool") == tool]
    assert not records, f"unexpected audit records for {tool}: {records}"


def _audit_records_or_empty(world: World) -> list[dict[str, Any]]:
    return _audit_records(world) if _audit_text(world) else []


@check(parsers.parse('the audit log does not contain "{text}"'))
def _audit_text_lacks(world: World, text: str) -> None:
    content = _audit_text(world)
    assert text not in content, f"{text!r} is in the audit log"


@check(parsers.parse("the audit log does not contain the Odoo credentials"))
def _audit_no_credentials(world: World) -> None:
    odoo = world.control.coordinates(world.user)
    content = _audit_text(world)
    assert content, "the audit log is empty"
    assert odoo.api_key not in content and f'"{odoo.password}"' not in content


@check(parsers.parse('the audit record of "{tool}" has "{key}" matching "{pattern}"'))
def _audit_key_pattern(world: World, tool: str, key: str, pattern: str) -> None:
    records = [r for r in _audit_records(world) if r.get("tool") == tool]
    assert records, f"no audit record for {tool}"
    value = records[-1].get(key)
    assert isinstance(value, str) and re.fullmatch(pattern, value), f"{key} is {value!r}"


@check(parsers.parse('the audit record of "{tool}" has "{key}" mentioning "{text}"'))
def _audit_key_mentions(world: World, tool: str, key: str, text: str) -> None:
    records = [r for r in _audit_records(world) if r.get("tool") == tool]
    assert records, f"no audit record for {tool}"
    assert text in json.dumps(records[-1].get(key), ensure_ascii=False), records[-1]
