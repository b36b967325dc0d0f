"""SPEC-01 / SPEC-10 §9 / SPEC-11: the MCP server wiring, and nothing else.

``build_server(config, connection)`` returns an ``MCPServer`` whose ``tools/list`` and
``tools/call`` are answered by a :class:`ToolDispatcher` registered as the low-level handlers
(the SDK's defaults would answer an unknown tool with a result, not -32601, and would build
schemas from function signatures instead of the tools' input and result models).

One tool call (ARCHITECTURE "data flow"): look the tool up (unknown or hidden: -32601), validate
the arguments with its input model (-32602), rate limit per MCP session, run the handler, audit
the call; any exception becomes a SPEC-10 error result with ``isError: true`` and no traceback.
The tools themselves (``odoo_mcp.tools``) never see MCP.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, Final

import anyio
from mcp.server import MCPServer
from mcp.server.subscriptions import InMemorySubscriptionBus
from mcp.types import (
    CallToolRequestParams,
    GetPromptRequestParams,
    NotificationParams,
    PaginatedRequestParams,
    ReadResourceRequestParams,
    SetLevelRequestParams,
    SubscribeRequestParams,
    SubscriptionsListenRequestParams,
    UnsubscribeRequestParams,
)
from pydantic import BaseModel

import odoo_mcp
from odoo_mcp.adapter import sdk, wire
from odoo_mcp.adapter.client_logging import ClientLogLevels
from odoo_mcp.adapter.prompts import PromptHandlers
from odoo_mcp.adapter.resources import ResourceHandlers
from odoo_mcp.adapter.subscriptions import ListenWatcher, SubscriptionHandlers, bus_publisher
from odoo_mcp.adapter.tools import ToolDispatcher, session_key
from odoo_mcp.callers import CallerRouter
from odoo_mcp.config import OdooMcpConfig
from odoo_mcp.connection import ConnectionManager
from odoo_mcp.context import ServerContext
from odoo_mcp.formatting import FormatOptions
from odoo_mcp.registry import ModelRegistry
from odoo_mcp.resources.subscriptions import SubscriptionManager
from odoo_mcp.safety import AuditLogger
from odoo_mcp.state import RateLimiter, SharedState, open_state
from odoo_mcp.toolsets import ALL_TOOLSETS, BaseToolset, ToolsetRegistry

__all__ = ["SERVER_NAME", "build_server", "server_version", "toolset_registry"]

#: the name it had before the adapter package: operators' logging configurations name it
logger = logging.getLogger("odoo_mcp.server")
SERVER_NAME: Final = "odoo-mcp"
INSTRUCTIONS: Final = (
    "Access to an Odoo ERP. Start with odoo_core_list_models and odoo_core_fields_get, then "
    "search with odoo_core_search_read. Errors come back as JSON with a suggestion."
)


def toolset_registry(
    config: OdooMcpConfig, toolsets: Sequence[BaseToolset] | None = None
) -> ToolsetRegistry:
    """REQ-03-05: the server registers from the explicit ``ALL_TOOLSETS`` list.

    REQ-03-04/06/12, REQ-11-04/05: the toolsets of this configuration, in dependency order
    (a cycle or two tools of one name stop the start), registering only the tools the mode
    lets through; ``enabled_toolsets`` / ``disabled_toolsets`` filter toolsets."""
    policy = config.safety_policy()
    return ToolsetRegistry(
        ALL_TOOLSETS if toolsets is None else toolsets,
        enabled=config.enabled_toolsets,
        disabled=config.disabled_toolsets,
        visible=lambda spec: policy.is_tool_visible(spec.name, spec.hints),
    )


def server_version() -> str:
    """REQ-01-17: the server version is the package's: ``odoo_mcp.__version__``, which
    pyproject.toml reads (issue 41: reading the installed metadata cost 2.8 ms a start)."""
    return odoo_mcp.__version__


class SessionOpened:
    """REQ-07-09 (issue 41): the start-up introspection begins once a client has opened its
    session (its ``notifications/initialized``), so that it does not compete for the CPU with
    the opening exchange the client waits on (``initialize``, then ``tools/list``); that
    client's tool calls still find the registry warming, and share its ``fields_get`` calls.
    A client that never says it is initialized gets fields read on demand, as any model
    outside the introspected ones."""

    def __init__(self) -> None:
        self._event: anyio.Event | None = None

    def _get(self) -> anyio.Event:
        # made in the event loop that waits on it, not where the server is built
        if self._event is None:
            self._event = anyio.Event()
        return self._event

    async def wait(self) -> None:
        """Return once a session is open (at once after the first)."""
        await self._get().wait()

    async def notified(self, _ctx: object, _params: NotificationParams) -> None:
        """The ``notifications/initialized`` handler."""
        self._get().set()


def server_context(
    config: OdooMcpConfig, odoo: CallerRouter, toolsets: ToolsetRegistry
) -> ServerContext:
    """REQ-01-14: the context every tool, resource and prompt of this server is given.

    REQ-07-08: a bad static registry file is a ConfigError here, before anything starts."""
    limits = config.rate_limits()
    static = None
    if config.static_registry_path:  # issue 41: a start without the file skips its models
        from odoo_mcp.registry.static import load_static_registry

        static = load_static_registry(config.static_registry_path)
    registry = ModelRegistry(odoo, static=static)
    return ServerContext(
        odoo=odoo,
        registry=registry,
        policy=config.safety_policy(),
        formatting=FormatOptions(
            strip_html=config.strip_html, normalize_many2one=config.normalize_many2one
        ),
        search_default_limit=config.search_default_limit,
        search_max_limit=config.search_max_limit,
        toolsets=toolsets,
        server_version=server_version(),
        rate_limit={
            "enabled": limits.enabled,
            "calls_per_minute": limits.calls_per_minute,
            "calls_per_hour": limits.calls_per_hour,
            "burst": limits.burst,
        },
        poll_interval=config.subscription_poll_interval,
    )


def build_server(
    config: OdooMcpConfig,
    connection: ConnectionManager,
    *,
    toolsets: Sequence[BaseToolset] | None = None,
    state: SharedState | None = None,
) -> MCPServer[dict[str, Any]]:
    """REQ-01-14: the MCP server of one configuration and one Odoo connection.

    REQ-11-04/05: only the tools visible in the mode (and in the enabled toolsets) are
    registered. The lifespan connects to Odoo before the first request is served
    (REQ-01-15: a failure stops the start), registers the toolsets that can run on it
    (REQ-03-04), starts the subscription polls and, once a client's session is open, the
    registry's introspection (REQ-07-09) in the background, and closes the connection at the
    end.
    """
    registration = toolset_registry(config, toolsets)
    # REQ-HTTP-15: every Odoo call goes to the request's caller (HTTP with auth) or to ours
    odoo = CallerRouter(connection)
    context = server_context(config, odoo, registration)
    # issue 19: the rate limits' counters; the CLI opens (and closes) one state and shares it
    # with the HTTP layer, other callers get the configured one
    shared = open_state(config.state_url) if state is None else state
    client_log = ClientLogLevels(session_key)
    dispatcher = ToolDispatcher(
        registration,
        context,
        limiter=RateLimiter(config.rate_limits(), shared),
        audit=AuditLogger(config.audit_settings()),
        connection=odoo,
        client_log=client_log,
    )
    bus = InMemorySubscriptionBus()
    subscriptions = SubscriptionManager(
        odoo,  # issue 37: the router, so that ``acting_as`` reads as the subscriber
        context.policy,
        interval=config.subscription_poll_interval,
        publish=bus_publisher(bus),
    )

    opened = SessionOpened()

    async def introspect_once_opened() -> None:
        await opened.wait()
        await context.registry.build_at_startup(config, context.policy.is_model_readable)

    @asynccontextmanager
    async def lifespan(_server: MCPServer[dict[str, Any]]) -> AsyncIterator[dict[str, Any]]:
        await connection.connect()  # a no-op when the CLI connected already
        try:
            await dispatcher.register()
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(subscriptions.poll_forever)
                tasks.start_soon(introspect_once_opened)
                yield {"dispatcher": dispatcher}
                tasks.cancel_scope.cancel()
        finally:
            await connection.close()

    server: MCPServer[dict[str, Any]] = MCPServer(
        SERVER_NAME,
        version=server_version(),
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        subscriptions=bus,
        log_level=config.log_level.upper(),  # type: ignore[arg-type]
    )
    resources, prompts = ResourceHandlers(context), PromptHandlers(context)
    watched, listen = SubscriptionHandlers(subscriptions), ListenWatcher(subscriptions, bus)
    # our handlers, not the SDK's defaults: SPEC-04 tools, SPEC-06 resources and prompts
    # behind the same safety policy, MCP logging (2025 era) for failed tool calls
    answers: list[tuple[str, type[BaseModel], sdk.Handler]] = [
        ("tools/list", PaginatedRequestParams, dispatcher.list_tools),
        ("tools/call", CallToolRequestParams, dispatcher.call_tool),
        ("logging/setLevel", SetLevelRequestParams, client_log.set_level),
        ("resources/list", PaginatedRequestParams, resources.list_resources),
        ("resources/templates/list", PaginatedRequestParams, resources.list_templates),
        ("resources/read", ReadResourceRequestParams, resources.read),
        ("prompts/list", PaginatedRequestParams, prompts.list_prompts),
        ("prompts/get", GetPromptRequestParams, prompts.get_prompt),
        ("resources/subscribe", SubscribeRequestParams, watched.subscribe),
        ("resources/unsubscribe", UnsubscribeRequestParams, watched.unsubscribe),
        ("subscriptions/listen", SubscriptionsListenRequestParams, listen),
    ]
    for method, params, handler in answers:
        sdk.on_request(server, method, params, handler)
    sdk.on_notification(server, "notifications/initialized", NotificationParams, opened.notified)
    sdk.set_tool_input_schema(server, dispatcher.input_schema)
    # REQ-03-17: the tools change when a reconnection finds another Odoo
    sdk.announce_list_changed(server)
    # issue 41: a tool result is serialized once on its way out (adapter.wire)
    sdk.keep_encodings(wire.KeptResult, wire.shaped, wire.encoded_response)
    return server
