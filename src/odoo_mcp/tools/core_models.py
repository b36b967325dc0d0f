"""SPEC-04 §3.11: odoo_core_list_models, the models the user can read.

``model_listing`` does the work: one ``ir.model`` search_read, then the ACL lines and the
user's groups (three calls in two rounds), or, where Odoo hides the ACL lines, one
``check_access_rights`` per candidate model. ``field_count`` is an integer for every model:
from the registry's metadata where it holds the model, else from one ``read_group`` of
``ir.model.fields`` for all the others (blocked field names left out, as fields_get does;
on 20 its new signature ``read_group(domain, groupby, aggregates)`` answering tuples), or,
for a user Odoo does not let read ``ir.model.fields`` (anyone but "Access Rights"), from the
caller's own ``fields_get`` of each model, five at a time, cached by the registry: the same
count whichever transport and whichever user (REQ-04-33; it was null over HTTP, where a
caller's registry starts empty).
"""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import BaseModel, Field
from pydantic.json_schema import SkipJsonSchema

from odoo_mcp.connection import OdooError, OdooRpcError
from odoo_mcp.connection.versions import returns
from odoo_mcp.context import ServerContext
from odoo_mcp.model_listing import MAX_CONCURRENT_CHECKS, list_readable_models
from odoo_mcp.safety.annotations import READS
from odoo_mcp.tools.core_common import InputModel, ResultModel
from odoo_mcp.tools.spec import ToolSpec

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
        description="Number of fields, blocked fields left out; null only if Odoo refused "
        "to count them"
    )
    access: str


class ListModelsResult(ResultModel):
    """REQ-04-33: the models and their number."""

    models: list[ModelEntry]
    count: int


async def list_models(ctx: ServerContext, params: ListModelsInput) -> ListModelsResult:
    """REQ-04-32: list the Odoo models with basic metadata.

    REQ-04-34: blocked models are left out; only models the user may read are listed.
    """
    policy = ctx.policy
    summaries = await list_readable_models(
        ctx.odoo,
        name_filter=params.filter,
        transient=params.transient,
        is_model_blocked=lambda model: not policy.is_model_readable(model),
        detail_access=True,
    )
    counts: dict[str, int] = {}
    for summary in summaries:
        # REQ-07-12: Odoo lists the model: a "no such model" the registry kept (asked before
        # the module was installed) is stale, and would leave its count null
        ctx.registry.forget_missing(summary.model)
        cached = ctx.registry.cached(summary.model)
        if cached is not None:
            counts[summary.model] = len(policy.strip_fields_get(summary.model, cached))
    uncounted = [s.model for s in summaries if s.model not in counts]
    if uncounted:
        counts.update(await _field_counts(ctx, uncounted, reads_ir_model=summaries.reads_ir_model))
    entries = []
    for summary in summaries:
        field_count = counts.get(summary.model)
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


async def _field_counts(
    ctx: ServerContext, models: list[str], *, reads_ir_model: bool = True
) -> dict[str, int]:
    """REQ-04-33: the number of fields of each model the caller sees, blocked names left out:
    one ``read_group`` of ``ir.model.fields``, or, for a user Odoo refuses it to (anyone but
    "Access Rights"; known without asking when the listing found ``ir.model`` refused, the
    same group's), the caller's own ``fields_get`` of each model (``_fields_get_counts``):
    never null for the transport or the user it runs as."""
    if not reads_ir_model:
        return await _fields_get_counts(ctx, models)
    domain = [["model", "in", models], ["name", "not in", sorted(ctx.policy.fields.blocklist)]]
    # 20's read_group(domain, groupby, aggregates, ...) answers tuples (versions.ODOO20)
    tuples = returns("read_group", ctx.odoo.odoo_version) == "tuples"
    try:
        if tuples:
            rows = await ctx.odoo.execute_kw(
                "ir.model.fields", "read_group", [domain, ["model"], ["__count"]]
            )
        else:
            rows = await ctx.odoo.execute_kw(
                "ir.model.fields", "read_group", [domain, ["model"], ["model"]], {"lazy": False}
            )
    except OdooRpcError:  # e.g. a user who may not read ir.model.fields
        return await _fields_get_counts(ctx, models)
    counts: dict[str, int] = {}
    for row in rows if isinstance(rows, list) else []:
        if isinstance(row, dict) and isinstance(row.get("model"), str):
            counts[row["model"]] = int(row.get("__count") or 0)
        elif isinstance(row, list | tuple) and len(row) == 2 and isinstance(row[0], str):
            counts[row[0]] = int(row[1] or 0)
    missing = [model for model in models if model not in counts]
    if missing and rows is None:  # no answer at all: count another way, never null
        counts.update(await _fields_get_counts(ctx, missing))
    return counts


async def _fields_get_counts(ctx: ServerContext, models: list[str]) -> dict[str, int]:
    """REQ-04-33: the fields each model shows the caller (its ``fields_get``, through the
    registry: cached per user, so the next tool on the model costs nothing), blocked fields
    left out; five at a time (the REQ-07-11 throttle). A model Odoo refuses to describe has
    no count (null)."""
    gate = asyncio.Semaphore(MAX_CONCURRENT_CHECKS)

    async def counted(model: str) -> int | None:
        async with gate:
            try:
                fields = await ctx.registry.get_fields(model)
            except OdooError:
                return None
        return len(ctx.policy.strip_fields_get(model, fields))

    answers = await asyncio.gather(*(counted(model) for model in models))
    return {
        model: answer for model, answer in zip(models, answers, strict=True) if answer is not None
    }


TOOLS: list[ToolSpec[Any, Any]] = [
    ToolSpec(
        name="odoo_core_list_models",
        title="List models",
        description="List the Odoo models you can read, filtered by name (ilike); wizards "
        "(transient models) only when asked.",
        input_model=ListModelsInput,
        result_model=ListModelsResult,
        handler=list_models,
        hints=READS,
    ),
]
