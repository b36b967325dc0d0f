"""SPEC-03 REQ-03-19 / SPEC-04 §2: odoo_core_list_toolsets, what this server offers.

Answered from what was registered at start-up and the connection's known version: no Odoo
round trip.
"""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel

from odoo_mcp.context import ServerContext
from odoo_mcp.safety.annotations import READS
from odoo_mcp.tools.core_common import InputModel, ResultModel
from odoo_mcp.tools.spec import ToolSpec
from odoo_mcp.toolsets.report import RegistrationReport


class ListToolsetsInput(InputModel):
    """REQ-03-19: the empty inputSchema of odoo_core_list_toolsets."""


class ToolsetEntry(BaseModel):
    """REQ-03-19: one registered toolset."""

    name: str
    description: str
    tools: list[str]
    odoo_modules: list[str]
    status: Literal["active"] = "active"


class ListToolsetsResult(ResultModel):
    """REQ-03-19: the toolsets, the tool count, the Odoo version and the connection URL;
    REQ-03-09/10: the registration report (decision 35: under ``registration``)."""

    toolsets: list[ToolsetEntry]
    total_tools: int
    odoo_version: str | None
    connection: str
    registration: RegistrationReport | None = None


def without_credentials(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


async def list_toolsets(ctx: ServerContext, params: ListToolsetsInput) -> ListToolsetsResult:
    """REQ-03-19: the registered toolsets with their tools; no Odoo call."""
    entries = []
    report = None
    if ctx.toolsets is not None:
        grouped = ctx.toolsets.tools_by_toolset()
        for metadata in ctx.toolsets.get_registered_toolsets():
            entries.append(
                ToolsetEntry(
                    name=metadata.name,
                    description=metadata.description,
                    tools=sorted(grouped.get(metadata.name, ())),
                    odoo_modules=list(metadata.required_modules),
                )
            )
        report = ctx.toolsets.report
    version = ctx.odoo.odoo_version
    # the connection's own info: in the served process ctx.odoo routes to the caller's
    # connection and has no server_url of its own (it always said "")
    odoo = ctx.odoo
    connection = odoo.get_connection_info() if hasattr(odoo, "get_connection_info") else None
    url = getattr(connection, "url", "")
    return ListToolsetsResult(
        toolsets=entries,
        total_tools=len(ctx.tool_names),
        odoo_version=str(version) if version else None,
        connection=without_credentials(url) if isinstance(url, str) else "",
        registration=report,
    )


TOOLS: list[ToolSpec[Any, Any]] = [
    ToolSpec(
        name="odoo_core_list_toolsets",
        title="List toolsets",
        description="List the toolsets this server has enabled, with their tools, the Odoo "
        "version and the Odoo server it is connected to.",
        input_model=ListToolsetsInput,
        result_model=ListToolsetsResult,
        handler=list_toolsets,
        hints=READS,
    )
]
