"""SPEC-04 §3.7, §3.9-3.10: metadata core tools.

``odoo_core_fields_get``, ``odoo_core_name_get`` and ``odoo_core_default_get``. fields_get
answers from the registry's cache when it can (the default attributes, no context); name_get
and default_get make one Odoo call once the model's metadata is cached.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from pydantic import BaseModel, Field

from odoo_mcp.connection import OdooRpcError
from odoo_mcp.context import ServerContext
from odoo_mcp.formatting import normalize_datetime
from odoo_mcp.registry import FIELDS_GET_ATTRIBUTES, FieldInfo
from odoo_mcp.safety import Operation
from odoo_mcp.safety.annotations import READS
from odoo_mcp.tools.core_common import (
    InputModel,
    ModelName,
    OdooContext,
    ResultModel,
    existing_ids,
    is_missing_error,
)
from odoo_mcp.tools.spec import ToolSpec

__all__ = [
    "TOOLS",
    "DefaultGetInput",
    "DefaultGetResult",
    "FieldsGetInput",
    "FieldsGetResult",
    "NameEntry",
    "NameGetInput",
    "NameGetResult",
    "default_get",
    "fields_get",
    "name_get",
]

DEFAULT_ATTRIBUTES: Final = (
    "string",
    "type",
    "required",
    "readonly",
    "help",
    "selection",
    "relation",
)
#: REQ-04-23: attributes shown only when set (the spec's example omits them otherwise)
WHEN_SET: Final = frozenset({"help", "relation", "selection"})

# -- odoo_core_fields_get ----------------------------------------------------------------------


class FieldsGetInput(InputModel):
    """REQ-04-22: the inputSchema of odoo_core_fields_get."""

    model: ModelName
    attributes: list[str] = Field(
        default=list(DEFAULT_ATTRIBUTES),
        description="Field attributes to return. Default: ['string', 'type', 'required', "
        "'readonly', 'help', 'selection', 'relation']. Use ['*'] for all attributes.",
    )
    context: OdooContext = None


class FieldsGetResult(ResultModel):
    """REQ-04-23: field summaries keyed by field name, and their number."""

    model: str
    fields: dict[str, dict[str, Any]]
    field_count: int


def _as_raw(info: FieldInfo) -> dict[str, Any]:
    """REQ-04-23: a cached FieldInfo back in fields_get's attribute names."""
    selection = [list(pair) for pair in info.selection] if info.selection is not None else None
    return {
        "string": info.string,
        "type": info.type,
        "required": info.required,
        "readonly": info.readonly,
        "help": info.help,
        "selection": selection,
        "relation": info.relation,
        "store": info.store,
        "searchable": info.searchable,
        "sortable": info.sortable,
    }


def _summary(name: str, raw: Mapping[str, Any], attributes: Iterable[str]) -> dict[str, Any]:
    """REQ-04-23: ``string`` shown as ``label``; help/relation/selection only when set."""
    summary: dict[str, Any] = {}
    for attribute in attributes:
        if attribute not in raw:
            continue
        value = raw[attribute]
        if attribute in WHEN_SET and not value:
            continue
        if attribute == "string":
            summary["label"] = value or name
        else:
            summary[attribute] = value
    return summary


async def fields_get(ctx: ServerContext, params: FieldsGetInput) -> FieldsGetResult:
    """REQ-04-22: field definitions of a model, summarized for an LLM.

    REQ-04-23: label, type, required, readonly, and help/relation/selection when set.
    REQ-04-24: blocked fields are left out.
    """
    model = params.model
    ctx.policy.check_operation(Operation.READ, model)
    everything = "*" in params.attributes
    wanted = list(dict.fromkeys(params.attributes))
    raw: Mapping[str, Mapping[str, Any]]
    if not everything and params.context is None and set(wanted) <= set(FIELDS_GET_ATTRIBUTES):
        cached = await ctx.registry.get_fields(model)  # no round trip once cached
        raw = {name: _as_raw(info) for name, info in cached.items()}
    else:
        # another language (context) or other attributes: ask Odoo, not the cache
        raw = await ctx.odoo.fields_get(model, None if everything else wanted, params.context)
    allowed = ctx.policy.strip_fields_get(model, raw)
    summaries = {
        name: _summary(name, spec, ["string", *spec] if everything else wanted)
        for name, spec in raw.items()
        if name in allowed
    }
    return FieldsGetResult(model=model, fields=summaries, field_count=len(summaries))


# -- odoo_core_name_get ------------------------------------------------------------------------


class NameGetInput(InputModel):
    """REQ-04-28: the inputSchema of odoo_core_name_get."""

    model: ModelName
    ids: list[int] = Field(min_length=1, max_length=200, description="Record IDs")


class NameEntry(BaseModel):
    """REQ-04-29: one record's display name."""

    id: int
    name: str


class NameGetResult(ResultModel):
    """REQ-04-29: the model and its records' display names."""

    model: str
    names: list[NameEntry]


async def name_get(ctx: ServerContext, params: NameGetInput) -> NameGetResult:
    """REQ-04-28: display names for record ids (name_get to 16, display_name from 17).

    REQ-04-29: one {"id", "name"} per record that exists, in Odoo's order.
    """
    ctx.policy.check_operation(Operation.READ, params.model)
    ids = list(dict.fromkeys(params.ids))
    try:
        pairs = await ctx.odoo.name_get(params.model, ids)
    except OdooRpcError as error:
        if not is_missing_error(error):
            raise
        existing = await existing_ids(ctx, params.model, ids, None)
        pairs = await ctx.odoo.name_get(params.model, existing) if existing else []
    return NameGetResult(
        model=params.model, names=[NameEntry(id=rid, name=name) for rid, name in pairs]
    )


# -- odoo_core_default_get ---------------------------------------------------------------------


class DefaultGetInput(InputModel):
    """REQ-04-30: the inputSchema of odoo_core_default_get."""

    model: ModelName
    fields: list[str] = Field(
        default=[],
        description="Field names to get defaults for. Empty list = all fields with defaults.",
    )
    context: OdooContext = None


class DefaultGetResult(ResultModel):
    """REQ-04-31: the model and the default value per field."""

    model: str
    defaults: dict[str, Any]


def _default_value(value: Any, info: FieldInfo | None) -> Any:
    """REQ-04-37: datetimes in ISO 8601 with Z; ids stay ids (REQ-04-31's example)."""
    if info is not None and info.type == "datetime":
        return normalize_datetime(value)
    return value


async def default_get(ctx: ServerContext, params: DefaultGetInput) -> DefaultGetResult:
    """REQ-04-30: default values for a model's fields.

    REQ-04-31: defaults keyed by field name; blocked and unrequested binary fields left out.
    """
    model = params.model
    ctx.policy.check_operation(Operation.READ, model)
    ctx.policy.check_read_fields(model, params.fields)
    fields = await ctx.registry.get_fields(model)
    names = list(dict.fromkeys(params.fields)) or [
        name for name in fields if not ctx.policy.is_field_blocked(model, name)
    ]
    raw = await ctx.odoo.default_get(model, names, params.context)
    defaults = {
        name: _default_value(value, fields.get(name))
        for name, value in ctx.policy.strip_record(model, raw).items()
        if params.fields or getattr(fields.get(name), "type", None) != "binary"
    }
    return DefaultGetResult(model=model, defaults=defaults)


TOOLS: list[ToolSpec[Any, Any]] = [
    ToolSpec(
        name="odoo_core_fields_get",
        title="Describe a model's fields",
        description="Field definitions of a model (label, type, required, readonly, help, "
        "selection values, related model), to know what to read, filter or write.",
        input_model=FieldsGetInput,
        result_model=FieldsGetResult,
        handler=fields_get,
        hints=READS,
        odoo_method="fields_get",
    ),
    ToolSpec(
        name="odoo_core_name_get",
        title="Get display names",
        description="Display names of records by ID (at most 200).",
        input_model=NameGetInput,
        result_model=NameGetResult,
        handler=name_get,
        hints=READS,
        odoo_method="name_get",
    ),
    ToolSpec(
        name="odoo_core_default_get",
        title="Get default values",
        description="Default values Odoo would give a new record of the model "
        "(an empty fields list asks for every field).",
        input_model=DefaultGetInput,
        result_model=DefaultGetResult,
        handler=default_get,
        hints=READS,
        odoo_method="default_get",
    ),
]
