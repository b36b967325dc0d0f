"""Decision 37: a shared state that cannot be reached never admits silently.

At start-up the server refuses to start (exit 1, one line, the URL without its password); at
run time a tool call gets a SPEC-10 connection error with retry true and an HTTP request whose
authentication needs the state gets 503; each failure is logged once at error level.
"""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from mcp import Client

from fake_odoo.demo import ADMIN_API_KEY
from fake_odoo.handle import FakeOdoo
from fake_odoo.testing import FakeOdooTransport
from mcp_servers import fake_config, fake_connection
from odoo_mcp.adapter.http.auth import BearerAuth, CallerConnections
from odoo_mcp.adapter.server import build_server
from odoo_mcp.cli import EXIT_CONFIG, EXIT_FAILED, main
from odoo_mcp.connection import ConnectionManager
from odoo_mcp.connection.settings import ConnectionSettings
from odoo_mcp.safety import RateLimits
from odoo_mcp.state import MemoryState, StateUnavailable
from odoo_mcp.state.redis_store import RedisState

pytestmark = pytest.mark.anyio

SECRET = "s3cret-pw"


@pytest.fixture
def dead_url() -> Iterator[str]:
    """A Redis URL with a password, on a loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    yield f"redis://odoo:{SECRET}@127.0.0.1:{port}/0"


async def test_every_operation_on_a_dead_redis_fails_closed_and_logs_once(
    dead_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    state = RedisState.from_url(dead_url)
    with (
        caplog.at_level(logging.ERROR, logger="odoo_mcp.state"),
        pytest.raises(StateUnavailable),
    ):
        await state.admit("s", "read", RateLimits(enabled=True))
    errors = [record for record in caplog.records if record.levelno == logging.ERROR]
    assert len(errors) == 1
    assert SECRET not in errors[0].getMessage() and "odoo:***@127.0.0.1" in errors[0].getMessage()
    for operation in (state.recall_refusal("d"), state.owner("session"), state.ping()):
        with pytest.raises(StateUnavailable):
            await operation
    await state.close()


async def test_a_tool_call_the_limiter_cannot_count_is_a_retryable_connection_error(
    dead_url: str,
) -> None:
    fake = FakeOdoo("19.0")
    config = fake_config(rate_limit_enabled=True)
    server = build_server(
        config, fake_connection(config, fake), state=RedisState.from_url(dead_url)
    )
    async with Client(server, mode="legacy") as client:
        fake.reset_calls()
        result = await client.call_tool("odoo_core_search_read", {"model": "res.partner"})
    assert result.is_error
    block = result.content[0]
    assert block.type == "text"
    payload = json.loads(block.text)
    assert (payload["category"], payload["code"], payload["retry"]) == (
        "connection",
        "CONNECTION_ERROR",
        True,
    )
    assert "shared state cannot be reached" in payload["message"]
    assert SECRET not in block.text
    assert fake.calls == []  # the call was not run


class _Recorder:
    """The ASGI app behind the middleware: records whether it was reached."""

    def __init__(self, session: str | None = None) -> None:
        self.reached = False
        self.session = session

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.reached = True
        headers = [(b"mcp-session-id", self.session.encode())] if self.session else []
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b"the app's answer"})


async def _request(auth: BearerAuth, token: str) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(dict(message))

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/mcp",
        "headers": [(b"authorization", f"Bearer {token}".encode())],
        "client": ("10.0.0.1", 5000),
    }
    await auth(scope, receive, send)
    return sent


def _callers(state: Any) -> CallerConnections:
    fake = FakeOdoo("19.0")

    def connect(settings: ConnectionSettings) -> ConnectionManager:
        return ConnectionManager(settings, transport=FakeOdooTransport(app=fake.app))

    return CallerConnections(fake_config().connection_settings(), connect=connect, state=state)


async def test_a_new_token_gets_503_when_the_state_cannot_be_asked(dead_url: str) -> None:
    app = _Recorder()
    auth = BearerAuth(app, _callers(RedisState.from_url(dead_url)), mcp_path="/mcp")
    sent = await _request(auth, "some-new-token")
    assert sent[0]["status"] == 503
    assert json.loads(sent[1]["body"])["error"] == "temporarily_unavailable"
    assert not app.reached


class _OwnersDown(MemoryState):
    async def bind_owner(self, session: str, uid: int | None) -> None:
        raise StateUnavailable("down")


async def test_a_session_whose_owner_cannot_be_recorded_is_not_handed_out() -> None:
    callers = _callers(_OwnersDown())
    app = _Recorder(session="new-session")
    sent = await _request(BearerAuth(app, callers, mcp_path="/mcp"), ADMIN_API_KEY)
    assert app.reached  # the app answered, but its answer is replaced
    assert [message["type"] for message in sent] == ["http.response.start", "http.response.body"]
    assert sent[0]["status"] == 503
    assert all(key != b"mcp-session-id" for key, _ in sent[0]["headers"])
    assert b"the app's answer" not in sent[1]["body"]
    await callers.close()


@pytest.mark.parametrize("command", [["serve"], ["serve", "--transport", "http"], ["check"]])
def test_serve_and_check_refuse_to_start_without_their_state(
    dead_url: str, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    environ = {
        "ODOO_URL": "http://127.0.0.1:9",
        "ODOO_DB": "d",
        "ODOO_API_KEY": "k",
        "ODOO_MCP_STATE_URL": dead_url,
    }
    assert main(command, environ=environ) == EXIT_FAILED
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("odoo-mcp: cannot reach the shared state at redis://odoo:***@")
    assert SECRET not in err


def test_a_state_url_of_another_scheme_is_a_configuration_problem(
    capsys: pytest.CaptureFixture[str],
) -> None:
    environ = {"ODOO_URL": "http://127.0.0.1:9", "ODOO_DB": "d", "ODOO_API_KEY": "k"}
    environ["ODOO_MCP_STATE_URL"] = f"http://user:{SECRET}@cache:6379"
    assert main(["check"], environ=environ) == EXIT_CONFIG
    err = capsys.readouterr().err
    assert "state_url (ODOO_MCP_STATE_URL) must be a redis://, rediss:// or unix:// URL" in err
    assert SECRET not in err


def test_a_state_url_without_the_redis_package_names_the_extra(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "redis" else real(name, *a)
    )
    environ = {"ODOO_URL": "http://127.0.0.1:9", "ODOO_DB": "d", "ODOO_API_KEY": "k"}
    environ["ODOO_MCP_STATE_URL"] = "redis://127.0.0.1:6379/0"
    assert main(["check"], environ=environ) == EXIT_CONFIG
    assert "install odoo-mcp[redis]" in capsys.readouterr().err


class _SuccessesDown(MemoryState):
    async def authentication_succeeded(self, address: str) -> None:
        raise StateUnavailable("down")


async def test_a_token_accepted_while_the_state_fails_is_refused_and_not_kept() -> None:
    fake = FakeOdoo("19.0")
    made: list[ConnectionManager] = []

    def connect(settings: ConnectionSettings) -> ConnectionManager:
        made.append(ConnectionManager(settings, transport=FakeOdooTransport(app=fake.app)))
        return made[-1]

    settings = fake_config().connection_settings()
    callers = CallerConnections(settings, connect=connect, state=_SuccessesDown())
    with pytest.raises(StateUnavailable):
        await callers.resolve(ADMIN_API_KEY, "10.0.0.1")
    assert callers._callers == {} and not made[0].is_ready  # closed, not kept
