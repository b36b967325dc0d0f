"""Drive an implementation under test over MCP from synchronous pytest-bdd steps.

pytest-bdd steps are synchronous, the MCP client is async: one anyio ``BlockingPortal``
(an event loop in a thread) runs every client of a kit run. Servers are pooled by their
rendered launch (command, environment, URL), so scenarios that need the same configuration
share one process; a scenario that needs a fresh server (rate limits, audit files) gets its
own, closed at the end of the scenario.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, ExitStack, asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

import anyio
import httpx2
import mcp.types as t
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import Client, MCPError, StdioServerParameters, stdio_client
from mcp.client.client import ConnectMode
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CONNECTION_CLOSED

from odoo_mcp_conformance import tls
from odoo_mcp_conformance.answers import (
    Answer,
    answer_of_notification,
    answer_of_request,
    answer_of_tool,
    result_body,
)
from odoo_mcp_conformance.forkserver import Forkserver, forkserver_supported
from odoo_mcp_conformance.inconclusive import (
    Inconclusive,
    ServerDidNotStart,
    local_client_error,
    timed_out,
)
from odoo_mcp_conformance.target import Launch
from odoo_mcp_conformance.timing import scaled

__all__ = ["McpDriver", "RpcError", "ServerPool", "ToolOutcome", "launch_command"]


class RpcError(Exception):
    """A JSON-RPC error answer (code, message) instead of a result."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(f"JSON-RPC error {code}: {message}")
        self.code = code
        self.message = message
        #: the error's ``data`` (a server may put the SPEC-10 object there)
        self.data = data


class ToolOutcome:
    """What one ``tools/call`` gave: a result, or a JSON-RPC error."""

    def __init__(self, result: t.CallToolResult | None, error: RpcError | None) -> None:
        self.result = result
        self.error = error

    @property
    def is_error(self) -> bool:
        return self.result is not None and bool(self.result.is_error)

    @property
    def text(self) -> str:
        if self.result is None:
            return ""
        return "\n".join(c.text for c in self.result.content if isinstance(c, t.TextContent))

    @property
    def structured(self) -> Any:
        """The answer's JSON body, read where the seeds put it.

        SPEC-10's own example (REQ-10-17) carries the body as JSON in a TextContent, and
        servers on older SDKs send nothing else, so a text block holding a JSON object or
        array is the body. Otherwise ``structuredContent`` is, unwrapped from the SDK's
        ``{"result": ...}`` envelope for non-object results. None when neither holds JSON.
        """
        return None if self.result is None else result_body(self.result)


class McpDriver:
    """One connected MCP client, callable from synchronous code."""

    def __init__(
        self,
        portal: BlockingPortal,
        client: Client,
        stderr_path: Path | None,
        *,
        url: str = "",
        headers: dict[str, str] | None = None,
    ) -> None:
        self.portal = portal
        self.client = client
        self.stderr_path = stderr_path
        self.notifications: list[Any] = []
        #: an HTTP target's MCP endpoint and the headers the kit sends (raw HTTP steps)
        self.url = url
        self.headers = dict(headers or {})
        #: where this scenario's part of a pooled server's stderr starts
        self._log_start = 0
        self._served = False
        #: (start, end) wall-clock times of this scenario's requests: the Odoo calls a
        #: scenario caused are the ones the fake logged inside them (issue 27: a server's
        #: own background work, start-up introspection, falls between them)
        self.windows: list[tuple[float, float]] = []
        #: every answer of this scenario's requests, for the invariants (issue 36)
        self.answers: list[Answer] = []
        #: the session's connection closed under a request: this server is not reused
        self.closed = False

    def _run(self, fn: Callable[[], Any]) -> Any:
        async def call() -> Any:
            return await fn()

        start = time.time()
        try:
            return self.portal.call(call)
        except MCPError as exc:
            cause = local_client_error(exc)
            if cause is not None and exc.error.code == CONNECTION_CLOSED:
                self.closed = True  # the pool starts a new one for the next scenario
            if cause is not None and exc.error.code == CONNECTION_CLOSED and not self.url:
                # a stdio pipe is not lost to a busy machine: it closes when the server ends
                # it (it exited, or closed its stdout), which is the server's own doing
                raise AssertionError(
                    f"the server closed its stdio connection before answering{self._log_note()}"
                ) from exc
            if cause is not None:  # the client's own error, not the server's answer
                raise Inconclusive(f"{cause}{self._log_note()}") from exc
            raise
        finally:
            self.windows.append((start, time.time()))

    def _log_note(self) -> str:
        name = self.stderr_path.name if self.stderr_path is not None else ""
        return f" (the server's stderr: server-logs/{name})" if name else ""

    def list_tools(self) -> list[t.Tool]:
        tools: list[t.Tool] = []
        cursor: str | None = None
        while True:
            page = self.request(partial(_list_tools_page, cursor=cursor))
            tools.extend(page.tools)
            cursor = page.next_cursor
            if not cursor:
                return tools

    def call_tool(self, name: str, arguments: dict[str, Any] | None) -> ToolOutcome:
        try:
            result = self._run(lambda: self.client.call_tool(name, arguments))
        except MCPError as exc:
            error = (exc.error.code, exc.error.message, exc.error.data)
            self.answers.append(answer_of_tool(name, arguments, None, error))
            return ToolOutcome(None, RpcError(exc.error.code, exc.error.message, exc.error.data))
        self.answers.append(answer_of_tool(name, arguments, result, None))
        return ToolOutcome(result, None)

    def request(self, fn: Callable[[Client], Any]) -> Any:
        """Any other client call, e.g. ``driver.request(lambda c: c.list_prompts())``."""
        try:
            result = self._run(lambda: fn(self.client))
        except MCPError as exc:
            error = (exc.error.code, exc.error.message, exc.error.data)
            self.answers.append(answer_of_request(None, error))
            raise
        self.answers.append(answer_of_request(result, None))
        return result

    def scenario_answers(self) -> list[Answer]:
        """This scenario's answers, then the notifications the server sent during it."""
        return [*self.answers, *map(answer_of_notification, self.notifications)]

    @property
    def new(self) -> bool:
        """No scenario has used this server yet (it may still be busy with start-up work)."""
        return not self._served

    def begin_scenario(self) -> None:
        """A scenario uses this server. Its log checks see what the server wrote since the
        previous scenario ended (its start-up too, when this is its first scenario)."""
        self.notifications.clear()
        self.windows.clear()
        self.answers.clear()
        if self._served:
            exists = self.stderr_path is not None and self.stderr_path.exists()
            self._log_start = self.stderr_path.stat().st_size if exists else 0  # type: ignore[union-attr]
        self._served = True

    def stderr(self) -> str:
        """What the server wrote to stderr during the current scenario."""
        if self.stderr_path is None or not self.stderr_path.exists():
            return ""
        with self.stderr_path.open("rb") as log:
            log.seek(self._log_start)
            return log.read().decode(errors="replace")

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
        """Whether ``predicate`` came true within ``timeout`` seconds of a quiet machine
        (scaled to this one's load: issue 38)."""

        async def wait() -> bool:
            with anyio.move_on_after(scaled(timeout)):
                while not predicate():
                    await anyio.sleep(0.02)
                return True
            return False

        return bool(self.portal.call(wait))


async def _list_tools_page(client: Client, *, cursor: str | None) -> t.ListToolsResult:
    return await client.list_tools(cursor=cursor)


@asynccontextmanager
async def _http_transport(url: str, headers: dict[str, str], timeout: float) -> AsyncIterator[Any]:
    # issue 38: an idle pooled connection is dropped after 1 s, well before a server's own
    # keep-alive (uvicorn's is 5 s, httpx2's default expiry too): reusing one just as the
    # server closed it failed a step with ReadError, a verdict from a race
    limits = httpx2.Limits(keepalive_expiry=1.0)
    async with (
        httpx2.AsyncClient(
            verify=tls.verify(), headers=headers, timeout=timeout, limits=limits
        ) as http,
        streamable_http_client(url, http_client=http) as streams,
    ):
        yield streams


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for_port(url: str, process: subprocess.Popen[bytes], timeout: float) -> None:
    """An HTTP server is up when its port accepts connections (a GET could stay open)."""
    parts = urlsplit(url)
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80), 0.5):
                return
        except OSError:
            pass
        if process.poll() is not None:
            raise ServerDidNotStart(
                f"the server under test exited with code {process.returncode}", exited=True
            )
        if time.monotonic() > deadline:
            raise ServerDidNotStart(
                f"the server under test did not listen on {url} in {timeout:g} s", exited=False
            )
        time.sleep(0.05)


def _spawn_http(
    launch: Launch, stderr: TextIO, stack: ExitStack, forkserver: Forkserver | None
) -> str:
    """Start an HTTP target's command on a free port; its MCP endpoint URL."""
    port = str(_free_port())
    url = launch.url.replace("{port}", port)
    if launch.command:
        ported = launch.model_copy(
            update={"command": tuple(part.replace("{port}", port) for part in launch.command)}
        )
        command, env = launch_command(ported, forkserver)
        process = subprocess.Popen(
            command, env=env, cwd=launch.cwd, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=stderr,
        )  # fmt: skip

        def stop() -> None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()

        stack.callback(stop)
        _wait_for_port(url, process, launch.startup_timeout)
    return url


class ServerPool:
    """Servers under test, keyed by their launch; a few are kept alive between scenarios."""

    def __init__(
        self,
        log_dir: Path,
        keep: int = 8,
        forkserver: Forkserver | None = None,
        *,
        owns_forkserver: bool = True,
    ) -> None:
        self.log_dir = log_dir
        self.keep = keep
        #: launches a Python target's commands pre-imported (the target's ``preload``)
        self.forkserver = forkserver
        #: False for a fork server shared by several kit sessions of one process (plugin.py)
        self.owns_forkserver = owns_forkserver
        self._stack = contextlib.ExitStack()
        self.portal = self._stack.enter_context(start_blocking_portal())
        self._live: OrderedDict[Launch, tuple[McpDriver, contextlib.ExitStack]] = OrderedDict()
        self.started = 0
        self._fresh: list[contextlib.ExitStack] = []
        #: pooled servers that saw a fault: probed before their next scenario
        self._suspect: set[Launch] = set()
        #: this target's servers were seen reading Odoo in the background once started
        #: (SPEC-07's start-up introspection): a new one is waited for until it has too
        self.reads_in_background = False

    def close(self) -> None:
        """End every live server, side by side: each takes its time to exit once its stdin
        closes (~0.2 s for the reference), and one after the other that was seconds a run.
        Servers started fresh and not released yet end too (their client tasks would keep
        the portal from closing)."""
        self.release_fresh()
        stacks = [stack for _, stack in self._live.values()]
        if stacks:
            with ThreadPoolExecutor(len(stacks)) as closing:
                list(closing.map(_close_quietly, stacks))
        self._live.clear()
        self._stack.close()
        if self.forkserver is not None and self.owns_forkserver:
            self.forkserver.close()

    def _start(self, launch: Launch, *, mode: ConnectMode) -> tuple[McpDriver, ExitStack]:
        stack = contextlib.ExitStack()
        self.started += 1
        stderr_path = self.log_dir / f"server-{self.started:03d}.stderr.log"
        stderr: TextIO = stack.enter_context(stderr_path.open("w", encoding="utf-8"))
        transport: AbstractContextManager[Any] | Any
        if launch.transport == "stdio":
            command, env = launch_command(launch, self.forkserver)
            params = StdioServerParameters(
                command=command[0], args=command[1:], env=env, cwd=launch.cwd
            )
            transport = stdio_client(params, errlog=stderr)
            url = ""
        else:
            try:
                url = _spawn_http(launch, stderr, stack, self.forkserver)
            except ServerDidNotStart as exc:
                stack.close()
                raise ServerDidNotStart(
                    f"{exc}; its stderr ({stderr_path.name}) ends with:\n{_tail(stderr_path)}",
                    exited=exc.exited,
                ) from exc
            transport = _http_transport(url, dict(launch.headers), launch.call_timeout)
        driver_box: dict[str, McpDriver] = {}

        async def on_message(message: Any) -> None:
            if "driver" in driver_box and not isinstance(message, Exception):
                driver_box["driver"].notifications.append(message)

        client = Client(
            transport,
            mode=mode,
            message_handler=on_message,
            read_timeout_seconds=launch.call_timeout,  # no request may hang the kit
        )
        try:
            connected = stack.enter_context(self.portal.wrap_async_context_manager(client))
        except Exception as exc:
            stack.close()  # ends the process: what it wrote is flushed or about to be
            tail = _tail(stderr_path)
            # issue 38: still starting when the kit gave up is the machine's slowness; a
            # process that ended (its session closed) is the server's own doing
            raise ServerDidNotStart(
                f"the server under test did not start or closed the session ({exc!r}); "
                f"its stderr ({stderr_path.name}) ends with:\n{tail}",
                exited=not timed_out(exc),
            ) from exc
        _judge_answers_ourselves(connected)
        driver = McpDriver(
            self.portal, connected, stderr_path, url=url, headers=dict(launch.headers)
        )
        driver_box["driver"] = driver
        return driver, stack

    def get(self, launch: Launch, *, fresh: bool, mode: ConnectMode = "legacy") -> McpDriver:
        """A connected driver for ``launch``: pooled, or fresh (caller closes via ``release``)."""
        if fresh:
            driver, stack = self._start(launch, mode=mode)
            self._fresh.append(stack)
            return driver
        if launch in self._live and self._live[launch][0].closed:
            self.discard(launch)  # its session ended under an earlier scenario
        if launch in self._live:
            self._live.move_to_end(launch)
            return self._live[launch][0]
        evicted = []
        while len(self._live) >= self.keep:
            evicted.append(self._live.popitem(last=False)[1][1])
        # The servers that make room end while the new one starts; both are done before the
        # caller sees the new one, so whatever Odoo calls the old ones make on their way out
        # land before the new server settles and the call log is cleared (World.connect).
        with ThreadPoolExecutor(max(len(evicted), 1)) as closing:
            closed = [closing.submit(_close_quietly, stack) for stack in evicted]
            try:
                self._live[launch] = self._start(launch, mode=mode)
            finally:
                for future in closed:
                    future.result()
        return self._live[launch][0]

    def release_fresh(self) -> None:
        """Close the servers started fresh for the scenario that just ended."""
        while self._fresh:
            with contextlib.suppress(Exception):
                self._fresh.pop().close()

    def mark_suspect(self, launch: Launch) -> None:
        """The pooled server of ``launch`` saw a fault: its next user probes it first."""
        if launch in self._live:
            self._suspect.add(launch)

    def take_suspect(self, launch: Launch) -> bool:
        """Whether ``launch``'s pooled server must be probed (asked once per fault)."""
        if launch in self._suspect:
            self._suspect.discard(launch)
            return launch in self._live
        return False

    def discard(self, launch: Launch) -> None:
        """Forget a pooled server (it crashed, or a scenario broke its state)."""
        self._suspect.discard(launch)
        entry = self._live.pop(launch, None)
        if entry is not None:
            with contextlib.suppress(Exception):
                entry[1].close()


def _judge_answers_ourselves(client: Client) -> None:
    """The SDK's client refuses a tool result whose ``structuredContent`` does not fit the
    tool's ``outputSchema`` (RuntimeError): the kit would then see no answer at all, and a
    step that meets none fails every requirement of its scenario (issue 36: a create answer
    without its id failed REQ-04-09 and REQ-04-13, an error without ``isError`` ten others).
    The kit reads every answer as it came and judges it against the seeds itself."""

    async def accept(name: str, result: t.CallToolResult) -> None:
        return None

    client.session.validate_tool_result = accept  # type: ignore[method-assign]


def _tail(path: Path, settle: float = 0.3, limit: float = 3.0) -> str:
    """The end of a dead server's stderr, read once the file stops growing.

    A process that died at start-up may still be flushing when its pipe closes: reading at
    once showed an empty log where the real error came a moment later.
    """
    deadline = time.monotonic() + limit
    size, stable_since = -1, time.monotonic()
    while time.monotonic() < deadline:
        current = path.stat().st_size if path.exists() else 0
        if current != size:
            size, stable_since = current, time.monotonic()
        elif time.monotonic() - stable_since >= settle:
            break
        time.sleep(0.05)
    return path.read_text(errors="replace")[-1500:] if path.exists() else ""


def inherited_env() -> dict[str, str]:
    """What a child server inherits: enough to find Python and its packages, no secrets."""
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "VIRTUAL_ENV", "PYTHONPATH", "SYSTEMROOT")
    return {key: os.environ[key] for key in keep if key in os.environ}


def _close_quietly(stack: ExitStack) -> None:
    with contextlib.suppress(Exception):
        stack.close()


def launch_command(
    launch: Launch, forkserver: Forkserver | None = None
) -> tuple[list[str], dict[str, str]]:
    """The command line and environment that start ``launch`` (through the fork server when
    there is one and it can take the command: the same process, minus the imports)."""
    env = {**inherited_env(), **dict(launch.env)}
    if forkserver is None:
        return list(launch.command), env
    return forkserver.command(launch.command, env), env


@contextlib.contextmanager
def server_pool(log_dir: Path, preload: Sequence[str] = ()) -> Iterator[ServerPool]:
    """A pool of its own; ``preload`` (a target's) starts its servers through a fork server
    where the system has one (forkserver.py: the same processes, their imports paid once)."""
    forkserver = None
    if preload and forkserver_supported():
        log_dir.mkdir(parents=True, exist_ok=True)
        log = log_dir / "forkserver.stderr.log"
        forkserver = Forkserver(sys.executable, list(preload), inherited_env(), log)
    pool = ServerPool(log_dir, forkserver=forkserver)
    try:
        yield pool
    finally:
        pool.close()
