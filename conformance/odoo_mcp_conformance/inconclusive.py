"""Inconclusive: the kit got no answer it can judge, so it gives no verdict (issue 38).

A step that timed out, lost its connection, or met a server (or the kit's own fake) too slow
to answer judged nothing about the server under test: on a loaded machine such steps failed
scenarios that pass at once on a quiet one, and a verdict decided by the machine is no
verdict. Such a scenario is *inconclusive*: reported as a kit error with its cause, run once
more at the end of the run, and never counted as passing or failing.

A server that exits by itself while starting is different: that is the server's own doing.
Its first occurrence is still inconclusive (the REQ-10 scenarios saw a reference exit because
the kit's fake, starved of CPU, took 30 s to answer its start-up); on the retry, with the run's
other workers gone, the same exit is judged (:attr:`ServerDidNotStart.exited`).
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import anyio
import httpx2
from mcp import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT

__all__ = ["Inconclusive", "ServerDidNotStart", "cause_of", "judge_exits", "local_client_error",
           "timed_out"]  # fmt: skip

#: set for a run's retry of its inconclusive scenarios: a server that exits while starting
#: is then judged (the plugin sets it per session)
_judging_exits = False


def judge_exits(on: bool) -> None:
    """Whether a server's own exit at start-up is a verdict (the retry) or not (first run)."""
    global _judging_exits
    _judging_exits = on


class Inconclusive(Exception):
    """No answer to judge; ``str(exc)`` says why (and where the server's stderr is)."""


class ServerDidNotStart(Inconclusive):
    """The server under test did not start. ``exited``: its process ended by itself (else
    it was still running when the kit stopped waiting: too slow, never a verdict)."""

    def __init__(self, message: str, *, exited: bool) -> None:
        super().__init__(message)
        self.exited = exited


def local_client_error(exc: MCPError) -> str | None:
    """The MCP client's own error, not the server's answer: its request timed out, or the
    connection closed under it (the SDK raises these with these exact texts, no data)."""
    if exc.error.data is not None:
        return None
    if exc.error.code == REQUEST_TIMEOUT and exc.error.message.endswith("timed out"):
        return f"no answer in time ({exc.error.message})"
    if exc.error.code == CONNECTION_CLOSED and exc.error.message == "Connection closed":
        return "the connection to the server under test closed before its answer"
    return None


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """``exc``, its causes and contexts, and the members of exception groups, once each."""
    seen: set[int] = set()
    todo = [exc]
    while todo:
        current = todo.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        if isinstance(current, BaseExceptionGroup):
            todo.extend(current.exceptions)
        todo.extend(e for e in (current.__cause__, current.__context__) if e is not None)


def _described(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def timed_out(exc: BaseException) -> bool:
    """Whether ``exc`` is the kit giving up waiting (rather than a connection lost)."""
    for current in _chain(exc):
        if isinstance(current, MCPError) and current.error.code == REQUEST_TIMEOUT:
            return local_client_error(current) is not None
        if isinstance(current, (httpx2.TimeoutException, TimeoutError, subprocess.TimeoutExpired)):
            return True
    return False


def cause_of(exc: BaseException) -> str | None:
    """Why ``exc`` leaves the step without a verdict, or None when it is a verdict (an
    assertion, a refusal the server answered, an unreadable answer that did come)."""
    for current in _chain(exc):
        if isinstance(current, ServerDidNotStart) and current.exited and _judging_exits:
            return None  # the same exit a second time, the run's load gone: the server's own
        if isinstance(current, Inconclusive):
            return str(current)
        if isinstance(current, MCPError) and (local := local_client_error(current)):
            return local
        if isinstance(current, (httpx2.TimeoutException, TimeoutError, subprocess.TimeoutExpired)):
            return f"timed out ({_described(current)})"
        if isinstance(
            current,
            (
                httpx2.TransportError,
                ConnectionError,
                anyio.BrokenResourceError,
                anyio.ClosedResourceError,
                anyio.EndOfStream,
            ),
        ):
            return f"lost the connection ({_described(current)})"
    return None
