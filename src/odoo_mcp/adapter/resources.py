"""SPEC-06 over MCP: resources/list, resources/templates/list and resources/read, answered
from :mod:`odoo_mcp.resources`.

A refusal is a JSON-RPC error whose ``data`` is the SPEC-10 error object (decision 27): -32602
for a bad URI, argument or domain, -32002 for something that does not exist, -32001 for a
refusal (safety policy or Odoo access rights: never an empty answer, REQ-06-23), -32003 for
Odoo unreachable (retry later), -32603 for anything else.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Final

from mcp.server import ServerRequestContext
from mcp.types import (
    ListResourcesResult,
    ListResourceTemplatesResult,
    PaginatedRequestParams,
    ReadResourceRequestParams,
    ReadResourceResult,
    Resource,
    ResourceTemplate,
    TextResourceContents,
)

from odoo_mcp.adapter.errors import as_mcp_error
from odoo_mcp.resources.uris import InvalidResourceUri, parse_uri

if TYPE_CHECKING:
    from odoo_mcp.context import ServerContext
from odoo_mcp.safety.scrub import scrub

__all__ = ["ResourceHandlers", "model_of"]

JSON: Final = "application/json"


class ResourceHandlers:
    """REQ-06-01..11: the resource request handlers, bound to one server's context."""

    def __init__(self, context: ServerContext) -> None:
        self.context = context

    async def list_resources(
        self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None
    ) -> ListResourcesResult:
        """REQ-06-02..05: the static resources."""
        from odoo_mcp.resources.reader import RESOURCES  # deferred: cold start, issue 17

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
        from odoo_mcp.resources.reader import TEMPLATES  # deferred: cold start, issue 17

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
        from odoo_mcp.resources.reader import read_resource  # deferred: cold start, issue 17

        uri = str(params.uri)
        try:
            data = await read_resource(self.context, uri)
        except Exception as exc:
            raise as_mcp_error(exc, model_of(uri), "resources/read") from None
        # REQ-06-22 / REQ-11-14 (issue 26): the answer scrub, as for tool answers
        data = scrub(data, self.context.policy.blocked_names(), f"resource {uri[:80]}")
        text = json.dumps(data, ensure_ascii=False)
        return ReadResourceResult(
            contents=[TextResourceContents(uri=uri, mime_type=JSON, text=text)]
        )


def model_of(uri: str) -> str | None:
    """REQ-06-23: the model a URI names, for the error it is refused with; None when it
    names none (it is called while handling an error: it must not raise one itself)."""
    try:
        return parse_uri(uri).model
    except (InvalidResourceUri, ValueError, RecursionError):
        return None
