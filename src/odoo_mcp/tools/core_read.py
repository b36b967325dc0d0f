"""SPEC-04 §3.1-3.3: read-side core tools.

``odoo_core_search_read``, ``odoo_core_read`` and ``odoo_core_count`` (§3.1, §3.2, §3.6).
Once the model's metadata is cached each makes exactly one Odoo call; a first use adds one
``fields_get`` per model the domain or ``order`` goes through (the registry caches it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final

from pydantic import BeforeValidator, Field
from pydantic.json_schema import SkipJsonSchema

from odoo_mcp.connection import OdooRpcError
from odoo_mcp.context import ServerContext
from odoo_mcp.domain import parse_domain
from odoo_mcp.domain.order import parse_order
from odoo_mcp.domain.patterns import render_patterns
from odoo_mcp.formatting import normalize_records
from odoo_mcp.registry import FieldInfo
from odoo_mcp.safety import Operation
from odoo_mcp.safety.annotations import READS
from odoo_mcp.tools.core_common import (
    BINARY_HINT,
    Domain,
    DomainItem,
    InputModel,
    ModelName,
    OdooContext,
    Records,
    ResultModel,
    checked_domain,
    checked_order,
    checked_references,
    existing_ids,
    is_missing_error,
    stored_readable_fields,
    with_domain_help,
)
from odoo_mcp.tools.spec import ToolSpec

__all__ = [
    "TOOLS",
    "CountInput",
    "CountResult",
    "ReadInput",
    "ReadResult",
    "SearchReadInput",
    "SearchReadResult",
    "count",
    "read",
    "search_read",
]

MAX_LIMIT: Final = 500
DEFAULT_FIELDS: Final = ("id", "name", "display_name")


def _clamp_limit(value: object) -> object:
    # REQ-04-02: the maximum (500) is enforced even if the caller asks for more.
    if isinstance(value, int) and not isinstance(value, bool) and value > MAX_LIMIT:
        return MAX_LIMIT
    return value


# -- odoo_core_search_read ----------------------------------------------------------------------


class SearchReadInput(InputModel):
    """REQ-04-01: the inputSchema of odoo_core_search_read."""

    model: ModelName
    domain: Domain = Field(
        default=[],
        description="Search filter in Odoo domain format. Examples: [['state', '=', 'draft']], "
        "[['name', 'ilike', 'acme']]. See domain syntax reference. Default: [] (all records)",
    )
    fields: list[str] = Field(
        default=list(DEFAULT_FIELDS),
        description="Field names to return. Default: ['id', 'name', 'display_name']. "
        "Use ['*'] for all fields (expensive).",
    )
    limit: Annotated[int, BeforeValidator(_clamp_limit)] = Field(
        default=80,
        ge=1,
        # no ``le``: a larger limit is clamped, not refused (REQ-04-02), and the schema says so
        description="Maximum number of records to return. Default: 80. Max: 500 "
        "(larger values are clamped to 500).",
    )
    offset: int = Field(
        default=0, ge=0, description="Number of records to skip (for pagination). Default: 0."
    )
    order: str | SkipJsonSchema[None] = Field(
        default=None,
        description="Sort order. Examples: 'name asc', 'create_date desc', "
        "'state asc, name asc'. Default: server default (usually 'id asc').",
    )
    context: OdooContext = None


class SearchReadResult(ResultModel):
    """REQ-04-03: records with count, model, limit, offset and has_more."""

    records: Records
    count: int
    model: str
    limit: int
    offset: int
    has_more: bool
    warnings: list[str] | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="REQ-04a-06: notes on the domain (e.g. very deep field paths)",
    )


def _requested_fields(params: SearchReadInput, fields: Mapping[str, FieldInfo]) -> list[str] | None:
    """REQ-04-02: ``['*']`` becomes None (all fields); the default keeps what the model has."""
    if "*" in params.fields:
        return None
    if "fields" not in params.model_fields_set or not params.fields:
        # The default list is ours, not the caller's: a model without `name` still works.
        # (An empty list would make Odoo return every field: it means the default here.)
        return [name for name in DEFAULT_FIELDS if name in fields]
    return list(dict.fromkeys(params.fields))


async def search_read(ctx: ServerContext, params: SearchReadInput) -> SearchReadResult:
    """REQ-04-01: search records matching a domain and return the requested fields.

    REQ-04-02: model and field checks, then the domain and order, before any Odoo call.
    REQ-04-04: has_more is true when as many records came back as the limit allows.
    REQ-04-05: many2one values become {"id", "name"}.
    REQ-04-36: binary fields are returned only when named explicitly.
    """
    model = params.model
    ctx.policy.check_operation(Operation.SEARCH, model)
    ctx.policy.check_read_fields(model, [f for f in params.fields if f != "*"])
    ctx.policy.check_order(model, params.order)
    parse_domain(params.domain)  # structure of both first: an error costs no round trip
    parse_order(params.order)
    domain, warnings = await checked_domain(ctx, model, params.domain)
    order = await checked_order(ctx, model, params.order)
    await checked_references(ctx, model, fields=params.fields, order=params.order)
    fields = await ctx.registry.get_fields(model)
    limit = params.limit if "limit" in params.model_fields_set else ctx.search_default_limit
    limit = max(1, min(limit, ctx.search_max_limit, MAX_LIMIT))
    requested = _requested_fields(params, fields)
    rows = await ctx.odoo.search_read(
        model, domain, requested, params.offset or None, limit, order, params.context
    )
    records = normalize_records(
        ctx.policy.strip_records(model, rows), fields, requested=requested, options=ctx.formatting
    )
    return SearchReadResult(
        records=records,
        count=len(records),
        model=model,
        limit=limit,
        offset=params.offset,
        has_more=len(records) >= limit,
        warnings=list(warnings) or None,
    )


# -- odoo_core_read ----------------------------------------------------------------------------


class ReadInput(InputModel):
    """REQ-04-06: the inputSchema of odoo_core_read."""

    model: ModelName
    ids: list[int] = Field(
        min_length=1,
        max_length=100,
        description="Record IDs to read. Maximum 100 IDs per call.",
    )
    fields: list[str] = Field(
        default=[], description="Field names to return. Default: all stored fields."
    )
    context: OdooContext = None


class ReadResult(ResultModel):
    """REQ-04-07: the records that exist and the requested ids that do not."""

    records: Records
    missing_ids: list[int]


async def _read_existing(
    ctx: ServerContext,
    model: str,
    ids: list[int],
    fields: list[str] | None,
    context: Mapping[str, object] | None,
) -> list[dict[str, Any]]:
    """REQ-04-07: one read; a MissingError (Odoo before 17) costs a search for the ids left."""
    try:
        return await ctx.odoo.read(model, ids, fields, context)
    except OdooRpcError as error:
        if not is_missing_error(error):
            raise
    existing = await existing_ids(ctx, model, ids, context)
    return await ctx.odoo.read(model, existing, fields, context) if existing else []


async def read(ctx: ServerContext, params: ReadInput) -> ReadResult:
    """REQ-04-06: read specific records by their ids.

    REQ-04-07: ids that do not exist are listed in missing_ids (decision 14).
    REQ-04-35: values are normalized by field type.
    REQ-04-36: binary fields are returned only when named explicitly.
    """
    model = params.model
    ctx.policy.check_operation(Operation.READ, model)
    ctx.policy.check_read_fields(model, [f for f in params.fields if f != "*"])
    await checked_references(ctx, model, fields=params.fields)
    fields = await ctx.registry.get_fields(model)
    requested: list[str] | None
    if "*" in params.fields:
        requested = None
    elif params.fields:
        requested = list(dict.fromkeys(params.fields))
    else:
        requested = stored_readable_fields(ctx, model, fields)
    ids = list(dict.fromkeys(params.ids))
    rows = await _read_existing(ctx, model, ids, requested, params.context)
    records = normalize_records(
        ctx.policy.strip_records(model, rows), fields, requested=requested, options=ctx.formatting
    )
    returned = {row.get("id") for row in rows}
    return ReadResult(records=records, missing_ids=[i for i in ids if i not in returned])


# -- odoo_core_count ---------------------------------------------------------------------------


class CountInput(InputModel):
    """REQ-04-20: the inputSchema of odoo_core_count."""

    model: ModelName
    domain: Domain = Field(
        default=[],
        description="Search filter in Odoo domain format. Default: [] (count all records)",
    )
    context: OdooContext = None


class CountResult(ResultModel):
    """REQ-04-21: model, domain and count."""

    model: str
    domain: list[DomainItem]
    count: int
    warnings: list[str] | None = Field(default=None, exclude_if=lambda value: value is None)


async def count(ctx: ServerContext, params: CountInput) -> CountResult:
    """REQ-04-20: count the records matching a domain.

    REQ-04-21: the answer repeats the model and the domain beside the count.
    """
    ctx.policy.check_operation(Operation.SEARCH, params.model)
    domain, warnings = await checked_domain(ctx, params.model, params.domain)
    total = await ctx.odoo.search_count(params.model, domain, params.context)
    return CountResult(
        model=params.model, domain=domain, count=total, warnings=list(warnings) or None
    )


TOOLS: list[ToolSpec[Any, Any]] = [
    ToolSpec(
        name="odoo_core_search_read",
        title="Search and read records",
        description="Search records of any Odoo model and return field values. "
        "Paginate with limit/offset while has_more is true. "
        + with_domain_help(BINARY_HINT)
        + f"\n{render_patterns()}",
        input_model=SearchReadInput,
        result_model=SearchReadResult,
        handler=search_read,
        hints=READS,
        odoo_method="search_read",
    ),
    ToolSpec(
        name="odoo_core_read",
        title="Read records by ID",
        description="Read specific records by ID (at most 100). Ids that do not exist are "
        f"listed in missing_ids. {BINARY_HINT}",
        input_model=ReadInput,
        result_model=ReadResult,
        handler=read,
        hints=READS,
        odoo_method="read",
    ),
    ToolSpec(
        name="odoo_core_count",
        title="Count records",
        description=with_domain_help("Count the records of a model matching a domain."),
        input_model=CountInput,
        result_model=CountResult,
        handler=count,
        hints=READS,
        odoo_method="search_count",
    ),
]
