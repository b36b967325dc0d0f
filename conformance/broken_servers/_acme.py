"""Two non-core tools (toolset ``acme``) that variants add beside the core tools.

``odoo_acme_partner_lookup`` reads partners by name; ``odoo_acme_partner_tag`` writes a
partner's ``ref``. Both go through the server's Odoo connection and safety policy, like core
tools, and are named ``odoo_<toolset>_<action>`` (REQ-03-11).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from _sabotage import patch_everywhere
from pydantic import BaseModel, ConfigDict, Field

from odoo_mcp.safety.annotations import tool_annotations
from odoo_mcp.safety.modes import Operation
from odoo_mcp.tools.context import ToolSpec

MODEL = "res.partner"


class LookupInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(description="Text the partner name contains (ilike)")
    limit: int = Field(default=5, ge=1, le=50, description="Maximum number of partners")


class Partner(BaseModel):
    id: int
    name: str


class LookupResult(BaseModel):
    partners: list[Partner]
    count: int


class TagInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: int = Field(description="Partner id")
    tag: str = Field(description="Reference to store on the partner (its `ref` field)")


class TagResult(BaseModel):
    id: int
    ref: str
    success: bool


async def lookup(ctx: Any, params: LookupInput) -> LookupResult:
    ctx.policy.check_operation(Operation.SEARCH, MODEL)
    rows = await ctx.odoo.search_read(
        MODEL, [["name", "ilike", params.query]], ["id", "name"], None, params.limit, "id"
    )
    partners = [Partner(id=row["id"], name=str(row.get("name") or "")) for row in rows]
    return LookupResult(partners=partners, count=len(partners))


async def tag(ctx: Any, params: TagInput) -> TagResult:
    ctx.policy.check_operation(Operation.WRITE, MODEL)
    done = await ctx.odoo.write(MODEL, [params.id], {"ref": params.tag})
    return TagResult(id=params.id, ref=params.tag, success=bool(done))


LOOKUP = ToolSpec(
    name="odoo_acme_partner_lookup",
    title="Look up partners",
    description="Find partners (res.partner) whose name contains a text; returns id and name.",
    input_model=LookupInput,
    result_model=LookupResult,
    handler=lookup,
    kind="read",
)
TAG = ToolSpec(
    name="odoo_acme_partner_tag",
    title="Tag a partner",
    description="Store a reference (the `ref` field) on one partner (res.partner).",
    input_model=TagInput,
    result_model=TagResult,
    handler=tag,
    kind="write",
)
LOOKUP_ANNOTATIONS = tool_annotations(
    "Look up partners", read_only=True, destructive=False, idempotent=True
)
TAG_ANNOTATIONS = tool_annotations(
    "Tag a partner", read_only=False, destructive=False, idempotent=True
)


def add_tool(spec: Any, annotations: Any | None) -> None:
    """Register one more tool (with these annotations, or none at all) beside the core ones."""
    from odoo_mcp import server
    from odoo_mcp.safety import annotations as table

    if annotations is not None:
        table._TABLE[spec.name] = annotations  # TOOL_ANNOTATIONS is a live view of it
    else:
        original = table.annotations_for

        def _none_for_it(tool: str) -> Any:
            return None if tool == spec.name else original(tool)

        patch_everywhere(original, _none_for_it)
    from odoo_mcp import cli, toolsets

    if "acme" not in toolsets.TOOLSETS:
        acme = toolsets.ToolsetInfo(name="acme", description="Partner look-up and tagging.")
        patch_everywhere(toolsets.TOOLSETS, MappingProxyType({**toolsets.TOOLSETS, "acme": acme}))
    server.ALL_TOOLS = (*server.ALL_TOOLS, spec)  # type: ignore[misc]
    cli.ALL_TOOLS = server.ALL_TOOLS  # type: ignore[misc]
