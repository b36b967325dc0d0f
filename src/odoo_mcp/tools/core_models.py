"""SPEC-04 §3.11: odoo_core_list_models, the models the user can read.

``model_listing`` does the work: one ``ir.model`` search_read, then the ACL lines and the
user's groups (three calls in two rounds), or, where Odoo hides the ACL lines, one
``check_access_rights`` per candidate model. ``field_count`` costs no round trip: it is known
for the models whose metadata the registry holds, null for the others.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field
from pydantic.json_schema import SkipJsonSchema

from odoo_mcp.model_listing import list_readable_models
from odoo_mcp.tools.context import ToolContext, ToolSpec
from odoo_mcp.tools.core_common import InputModel, ResultModel

__all__ = ["TOOLS", "ListModelsInput", "ListModelsResult", "ModelEntry", "list_models"]


class ListModelsInput(InputModel):
    """REQ-04-32: the inputSchema of odoo_core_list_models."""

    filter: str | SkipJsonSchema[None] = Field(
        default=None,
        description="Filter models by name pattern (e.g., 'sale', 'account.move'). "
        "Matches with ilike.",
    )
    transient: bool = Field(
        default=False, description="Include transient models (wizards). Default: false."
    )


class ModelEntry(BaseModel):
    """REQ-04-33: one model: name, label, transient flag, field count, access summary."""

    model: str
    name: str
    transient: bool
    field_count: int | None = Field(
        description="Number of readable fields; null until the model's metadata is loaded"
    )
    access: str


class ListModelsResult(ResultModel):
    """REQ-04-33: the models and their number."""

    models: list[ModelEntry]
    count: int


async def list_models(ctx: ToolContext, params: ListModelsInput) -> ListModelsResult:
    """REQ-04-32: list the Odoo models with basic metadata.

    REQ-04-34: blocked models are left out; only models the user may read are listed.
    """
    policy = ctx.policy
    summaries = await list_readable_models(
        ctx.odoo,
        name_filter=params.filter,
        transient=params.transient,
        is_model_blocked=lambda model: not policy.is_model_readable(model),
    )
    entries = []
    for summary in summaries:
        cached = ctx.registry.cached(summary.model)
        field_count = None
        if cached is not None:
            field_count = len(policy.strip_fields_get(summary.model, cached))
        entries.append(
            ModelEntry(
                model=summary.model,
                name=summary.name,
                transient=summary.transient,
                field_count=field_count,
                access=",".join(summary.access),
            )
        )
    return ListModelsResult(models=entries, count=len(entries))


TOOLS: list[ToolSpec[Any, Any]] = [
    ToolSpec(
        name="odoo_core_list_models",
        title="List models",
        description="List the Odoo models you can read, filtered by name (ilike); wizards "
        "(transient models) only when asked.",
        input_model=ListModelsInput,
        result_model=ListModelsResult,
        handler=list_models,
        kind="read",
    ),
]
