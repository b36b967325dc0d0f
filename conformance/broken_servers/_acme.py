"""Two non-core tools (toolset ``acme``) that variants add beside the core tools.

``odoo_acme_partner_lookup`` reads partners by name; ``odoo_acme_partner_tag`` writes a
partner's ``ref``. Both go through the server's Odoo connection and safety policy, like core
tools, and are named ``odoo_<toolset>_<action>`` (REQ-03-11).
"""

from __future__ import annotations

from typing import Any

from _sabotage import patch_everywhere
from pydantic import BaseModel, ConfigDict, Field

from odoo_mcp.safety.annotations import CHANGES_IDEMPOTENT, READS
from odoo_mcp.safety.modes import Operation
from odoo_mcp.tools.spec import ToolSpec
from odoo_mcp.toolsets import BaseToolset, ToolsetMetadata

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
    hints=READS,
)
TAG = ToolSpec(
    name="odoo_acme_partner_tag",
    title="Tag a partner",
    description="Store a reference (the `ref` field) on one partner (res.partner).",
    input_model=TagInput,
    result_model=TagResult,
    handler=tag,
    hints=CHANGES_IDEMPOTENT,
)
ACME_TOOLS: list[Any] = []


class AcmeToolset(BaseToolset):
    """The ``acme`` toolset: the tools ``add_tool`` added, on every Odoo."""

    def metadata(self) -> ToolsetMetadata:
        return ToolsetMetadata(
            name="acme", description="Partner look-up and tagging.", depends_on=("core",)
        )

    def tools(self) -> tuple[Any, ...]:
        return tuple(ACME_TOOLS)


def add_tool(spec: Any) -> None:
    """Register one more tool (in toolset ``acme``) beside the core ones."""
    from odoo_mcp import cli, toolsets  # noqa: F401 - loaded before patching
    from odoo_mcp.adapter import server  # noqa: F401

    if not ACME_TOOLS:
        patch_everywhere(toolsets.ALL_TOOLSETS, (*toolsets.ALL_TOOLSETS, AcmeToolset()))
    ACME_TOOLS.append(spec)
