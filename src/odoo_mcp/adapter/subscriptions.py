"""SPEC-06 §5 over MCP: resources/subscribe, resources/unsubscribe and the 2026-07-28 era's
``subscriptions/listen``, around :class:`~odoo_mcp.resources.subscriptions.SubscriptionManager`
(which polls Odoo and knows no MCP: it notifies sessions and publishes on the SDK's bus through
what this module gives it).

Issue 37: a session's subscriptions end with the session. The SDK closes a client's
connection however its session ends (DELETE, its idle timeout, a crash, the session cap ending
it; on stdio, the end of the stream) and then unwinds the connection's ``exit_stack``: the
first subscribe of a connection pushes the drop of its subscriptions there. A session the SDK
answers 404 for has ended already, so it lost them then.
"""

from __future__ import annotations

from typing import Any

from mcp.server import ServerRequestContext
from mcp.server.subscriptions import ListenHandler, ResourceUpdated, SubscriptionBus
from mcp.types import (
    EmptyResult,
    SubscribeRequestParams,
    SubscriptionsListenRequestParams,
    SubscriptionsListenResult,
    UnsubscribeRequestParams,
)

from odoo_mcp.adapter.errors import as_mcp_error
from odoo_mcp.adapter.resources import model_of
from odoo_mcp.adapter.sdk import on_connection_end
from odoo_mcp.errors.params import invalid_request
from odoo_mcp.resources.subscriptions import Publish, SubscriptionManager, SubscriptionRefused

__all__ = ["ListenWatcher", "SubscriptionHandlers", "bus_publisher"]


def bus_publisher(bus: SubscriptionBus) -> Publish:
    """REQ-06-13: what the manager calls to notify the 2026-era listen streams of a URI."""

    async def publish(uri: str) -> None:
        await bus.publish(ResourceUpdated(uri=uri))

    return publish


def client_key(ctx: ServerRequestContext[Any, Any]) -> str:
    """The subscribing client: its MCP session id over HTTP, the one stdio client otherwise."""
    request = getattr(ctx, "request", None)
    headers = getattr(request, "headers", None)
    return str(headers.get("mcp-session-id", "?")) if headers is not None else "stdio"


class SubscriptionHandlers:
    """REQ-06-13: resources/subscribe and resources/unsubscribe."""

    def __init__(self, manager: SubscriptionManager) -> None:
        self.manager = manager

    async def subscribe(
        self, ctx: ServerRequestContext[Any, Any], params: SubscribeRequestParams
    ) -> EmptyResult:
        """REQ-06-13/15/16: subscribe one client to one resource."""
        uri = str(params.uri)
        key = client_key(ctx)
        try:
            await self.manager.subscribe(key, ctx.session, uri)
        except SubscriptionRefused as refused:
            # decision 27: -32602 with the SPEC-10 error object, like every resource refusal
            raise as_mcp_error(
                invalid_request(str(refused)), model_of(uri), "resources/subscribe"
            ) from None
        except Exception as exc:
            raise as_mcp_error(exc, model_of(uri), "resources/subscribe") from None
        # issue 37: polled no longer than the session lives (not until a notification fails:
        # the SDK drops a notification to a closed session without a word)
        on_connection_end(ctx, "subscriptions", lambda: self.manager.drop_client(key))
        return EmptyResult()

    async def unsubscribe(
        self, ctx: ServerRequestContext[Any, Any], params: UnsubscribeRequestParams
    ) -> EmptyResult:
        """REQ-06-13: no more notifications for that resource."""
        self.manager.unsubscribe(client_key(ctx), str(params.uri))
        return EmptyResult()


class ListenWatcher:
    """REQ-06-13: the 2026-07-28 era's ``subscriptions/listen``: the SDK's handler serves the
    stream, and the resource URIs it asks for are polled like handshake-era subscriptions for
    as long as the stream lives (an URI that cannot be subscribed to simply never fires)."""

    def __init__(self, manager: SubscriptionManager, bus: SubscriptionBus) -> None:
        self.manager = manager
        self.inner = ListenHandler(bus)

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], params: SubscriptionsListenRequestParams
    ) -> SubscriptionsListenResult:
        key = f"listen:{ctx.request_id}"
        for uri in params.notifications.resource_subscriptions or ():
            try:
                await self.manager.subscribe(key, None, str(uri))
            except Exception:  # refused or unknown: honoured, never fires (SDK semantics)
                continue
        try:
            return await self.inner(ctx, params)
        finally:
            self.manager.drop_client(key)
