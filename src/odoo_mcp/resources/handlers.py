"""SPEC-06 over MCP: resources/list, resources/templates/list, resources/read, prompts/list,
prompts/get, answered from :mod:`odoo_mcp.resources.reader` and :mod:`odoo_mcp.prompts`.

Resources and prompts have no ``isError`` result, so a refusal is a JSON-RPC error whose
``data`` is the SPEC-10 error object (decision 27): -32602 for a bad URI, argument or domain,
-32002 for something that does not exist, -32001 for a refusal (safety policy or Odoo access
rights: never an empty answer, REQ-06-23), -32603 for anything else (Odoo unreachable...).
"""

from __future__ import annotations

import json
from typing import Any, Final

from mcp import MCPError
from mcp.server import ServerRequestContext
from mcp.server.subscriptions import ListenHandler, SubscriptionBus
from mcp.types import (
    INVALID_PARAMS,
    EmptyResult,
    GetPromptRequestParams,
    GetPromptResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    PaginatedRequestParams,
    Prompt,
    PromptArgument,
    PromptMessage,
    ReadResourceRequestParams,
    ReadResourceResult,
    Resource,
    ResourceTemplate,
    SubscribeRequestParams,
    SubscriptionsListenRequestParams,
    SubscriptionsListenResult,
    TextContent,
    TextResourceContents,
    UnsubscribeRequestParams,
)

from odoo_mcp.errors import ToolError, classify, log_error, to_payload
from odoo_mcp.errors.categories import ErrorCategory
from odoo_mcp.prompts import PROMPTS, render_prompt
from odoo_mcp.resources.reader import RESOURCES, TEMPLATES, ResourceContext, read_resource
from odoo_mcp.resources.subscriptions import SubscriptionManager
from odoo_mcp.resources.uris import InvalidResourceUri, parse_uri

__all__ = ["RESOURCE_NOT_FOUND", "ListenWatcher", "ResourceHandlers", "SubscriptionHandlers"]

#: MCP's code for an unknown resource; -32001 is ours for a refusal (decision 27)
RESOURCE_NOT_FOUND: Final = -32002
REFUSED: Final = -32001
JSON: Final = "application/json"


def _as_mcp_error(exc: Exception, model: str | None, what: str) -> MCPError:
    """REQ-06-23: every failure is an error with the SPEC-10 object as data, never empty."""
    if isinstance(exc, InvalidResourceUri):
        exc = ToolError(
            "INVALID_RESOURCE",
            str(exc),
            suggestion="resources/list and resources/templates/list show the valid URIs; "
            "prompts/list the prompts and their arguments.",
        )
    response = classify(exc, model=model, method=what)
    log_error(response, model=model, method=what)
    code = {
        ErrorCategory.VALIDATION: INVALID_PARAMS,
        ErrorCategory.NOT_FOUND: RESOURCE_NOT_FOUND,
        ErrorCategory.ACCESS: REFUSED,
    }.get(response.category, -32603)
    return MCPError(code, response.message, to_payload(response))


class ResourceHandlers:
    """The low-level request handlers of SPEC-06, bound to one server's context."""

    def __init__(self, context: ResourceContext) -> None:
        self.context = context

    async def list_resources(
        self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None
    ) -> ListResourcesResult:
        """REQ-06-02..05: the static resources."""
        return ListResourcesResult(
            resources=[
                Resource(uri=r.uri, name=r.name, description=r.description, mime_type=JSON)
                for r in RESOURCES
            ]
        )

    async def list_templates(
        self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None
    ) -> ListResourceTemplatesResult:
        """REQ-06-06..11: the templates."""
        return ListResourceTemplatesResult(
            resource_templates=[
                ResourceTemplate(
                    uri_template=t.uri, name=t.name, description=t.description, mime_type=JSON
                )
                for t in TEMPLATES
            ]
        )

    async def read(
        self, ctx: ServerRequestContext[Any, Any], params: ReadResourceRequestParams
    ) -> ReadResourceResult:
        """REQ-06-01: one resource as JSON text."""
        uri = str(params.uri)
        try:
            data = await read_resource(self.context, uri)
        except Exception as exc:
            raise _as_mcp_error(exc, _model_of(uri), "resources/read") from None
        text = json.dumps(data, ensure_ascii=False)
        return ReadResourceResult(
            contents=[TextResourceContents(uri=uri, mime_type=JSON, text=text)]
        )

    async def list_prompts(
        self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None
    ) -> ListPromptsResult:
        """REQ-06-17..21: the five prompts and their arguments."""
        return ListPromptsResult(
            prompts=[
                Prompt(
                    name=p.name,
                    description=p.description,
                    arguments=[
                        PromptArgument(name=name, description=text, required=True)
                        for name, text in p.arguments
                    ],
                )
                for p in PROMPTS
            ]
        )

    async def get_prompt(
        self, ctx: ServerRequestContext[Any, Any], params: GetPromptRequestParams
    ) -> GetPromptResult:
        """REQ-06-17..21: one prompt rendered from live metadata."""
        args = dict(params.arguments or {})
        try:
            text = await render_prompt(self.context, params.name, args)
        except Exception as exc:
            raise _as_mcp_error(exc, args.get("model_name"), f"prompts/get {params.name}") from None
        description = next((p.description for p in PROMPTS if p.name == params.name), None)
        return GetPromptResult(
            description=description,
            messages=[PromptMessage(role="user", content=TextContent(type="text", text=text))],
        )


def _model_of(uri: str) -> str | None:
    try:
        return parse_uri(uri).model
    except InvalidResourceUri:
        return None


def client_key(ctx: ServerRequestContext[Any, Any]) -> str:
    """The subscribing client: its MCP session id over HTTP, the one stdio client otherwise."""
    request = getattr(ctx, "request", None)
    headers = getattr(request, "headers", None)
    return str(headers.get("mcp-session-id", "?")) if headers is not None else "stdio"


class SubscriptionHandlers:
    """REQ-06-13: resources/subscribe and resources/unsubscribe."""

    def __init__(self, manager: SubscriptionManager, resources: ResourceHandlers) -> None:
        self.manager = manager
        self.resources = resources

    async def subscribe(
        self, ctx: ServerRequestContext[Any, Any], params: SubscribeRequestParams
    ) -> EmptyResult:
        """REQ-06-13/15/16: subscribe one client to one resource."""
        uri = str(params.uri)
        try:
            await self.manager.subscribe(client_key(ctx), ctx.session, uri)
        except MCPError:
            raise
        except Exception as exc:
            raise _as_mcp_error(exc, _model_of(uri), "resources/subscribe") from None
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
