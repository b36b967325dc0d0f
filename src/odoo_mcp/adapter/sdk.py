"""The ``mcp`` SDK's non-public parts this server relies on, all in one place (``mcp`` 2.3).

``MCPServer``, the SDK's high-level server, has no public hook for what this server needs:

* answering requests with handlers of our own (``tools/list`` and ``tools/call`` by the tool
  dispatcher, which answers an unknown tool -32601 and builds schemas from the tools' models;
  resources, prompts, ``logging/setLevel``, ``subscriptions/listen``), and hearing a session's
  ``notifications/initialized``: the low-level server's ``add_request_handler`` and
  ``add_notification_handler``;
* the input schema the SDK checks ``Mcp-Param-*`` headers against: ``get_tool_input_schema``;
* announcing ``listChanged`` for tools, resources and prompts (REQ-01-17, REQ-03-17):
  ``MCPServer`` calls ``create_initialization_options()`` without ``NotificationOptions``;
* running the server on streams of our own (the stdio relay that answers unparsable lines
  -32700): the low-level ``run`` and the SDK's context-carrying memory streams;
* serializing a tool result once (issue 41, ``odoo_mcp.adapter.wire``): the runner's
  ``ServerRunner._serialize`` and the dispatcher's ``JSONRPCDispatcher._write_result``, each
  wrapped to recognise a kept result and to leave every other one to the SDK;
* cleaning up when a client's connection ends (issue 37: its subscriptions): the documented
  ``Connection.exit_stack``, which a low-level request context reaches only through its
  session's private ``_connection``.

Upgrading the SDK means checking this module; ``tests/odoo_mcp/test_server.py`` and the kit
fail when one of these changes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from contextlib import AsyncExitStack, suppress
from functools import partial
from typing import Any, Final

import anyio
from mcp.server import MCPServer, NotificationOptions, ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.runner import ServerRunner
from mcp.shared._context_streams import create_context_streams
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher
from mcp.types import JSONRPCResponse, RequestId
from pydantic import BaseModel

__all__ = [
    "SDK_SERIES",
    "announce_list_changed",
    "create_context_streams",
    "keep_encodings",
    "low_level",
    "on_connection_end",
    "on_notification",
    "on_request",
    "set_tool_input_schema",
]

#: the SDK series these hooks were written against (pyproject pins ``mcp>=2.3,<3``)
SDK_SERIES: Final = "2.3"

Handler = Callable[[Any, Any], Awaitable[Any]]


def low_level(server: MCPServer[Any]) -> Server[Any]:
    """The low-level server inside an ``MCPServer`` (private attribute in 2.3)."""
    return server._lowlevel_server


def on_request(
    server: MCPServer[Any], method: str, params: type[BaseModel], handler: Handler
) -> None:
    """Answer ``method`` with ``handler(ctx, params)``, replacing the SDK's own handler."""
    low_level(server).add_request_handler(method, params, handler)


def on_notification(
    server: MCPServer[Any], method: str, params: type[BaseModel], handler: Handler
) -> None:
    """Run ``handler(ctx, params)`` on each ``method`` notification (``initialized``: after the
    runner has marked the connection initialized)."""
    low_level(server).add_notification_handler(method, params, handler)


def set_tool_input_schema(
    server: MCPServer[Any], schema_of: Callable[[str], Mapping[str, Any] | None]
) -> None:
    """Where the SDK finds a tool's input schema (``Mcp-Param-*`` header checks)."""
    low_level(server).get_tool_input_schema = schema_of


def keep_encodings(
    kept: type[BaseModel],
    shaped: Callable[[Any, Callable[[Any], dict[str, Any]]], dict[str, Any]],
    encoded: Callable[[RequestId, dict[str, Any]], JSONRPCResponse | None],
) -> None:
    """Issue 41: a ``kept`` result is shaped by ``shaped(result, sdk_shape)`` and its answer
    sent as ``encoded(request_id, result)`` when that gives one; every other result goes the
    SDK's own way. Once per process (a second call changes nothing)."""
    if getattr(ServerRunner._serialize, "_odoo_mcp_kept", False):
        return
    serialize = ServerRunner._serialize
    write_result = JSONRPCDispatcher._write_result

    def _serialize(self: Any, method: str, version: str, result: Any) -> dict[str, Any]:
        if isinstance(result, kept):
            return shaped(result, partial(serialize, self, method, version))
        return serialize(self, method, version, result)

    async def _write_result(self: Any, request_id: RequestId, result: dict[str, Any]) -> None:
        response = encoded(request_id, result)
        if response is None:
            await write_result(self, request_id, result)
            return
        # the SDK's own answer to a closed stream: the result is dropped
        with suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
            await self._write(response)

    _serialize._odoo_mcp_kept = True  # type: ignore[attr-defined]
    ServerRunner._serialize = _serialize  # type: ignore[method-assign]
    JSONRPCDispatcher._write_result = _write_result  # type: ignore[method-assign]


def announce_list_changed(server: MCPServer[Any]) -> None:
    """REQ-01-17, REQ-03-17: ``initialize`` announces listChanged for tools, resources and
    prompts."""
    low = low_level(server)
    low.create_initialization_options = partial(  # type: ignore[method-assign]
        low.create_initialization_options,
        NotificationOptions(tools_changed=True, resources_changed=True, prompts_changed=True),
    )


def on_connection_end(
    ctx: ServerRequestContext[Any, Any], name: str, end: Callable[[], object]
) -> bool:
    """REQ-06-13 (issue 37): call ``end`` when this request's connection closes, once per
    connection and ``name``; False when the connection cannot say (then the caller's own
    fallback is all there is).

    ``mcp`` 2.3: the SDK documents ``Connection.exit_stack`` for per-connection cleanup, but the
    low-level request context reaches the connection only through its session proxy's private
    ``_connection`` (checked here, so an SDK that moves it degrades instead of failing)."""
    connection = getattr(ctx.session, "_connection", None)
    stack = getattr(connection, "exit_stack", None)
    state = getattr(connection, "state", None)
    if not isinstance(stack, AsyncExitStack) or not isinstance(state, dict):
        return False
    registered = f"odoo_mcp.on_connection_end.{name}"
    if not state.get(registered):
        state[registered] = True
        stack.callback(end)
    return True
