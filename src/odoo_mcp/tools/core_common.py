"""SPEC-04 §3-5: what the read-side core tools share: input types, domain help, checks.

REQ-04-38: ``DOMAIN_HELP`` is the domain reference search_read and count carry.

The order of the checks is the one SPEC-11 and decisions 9/11 ask for: safety first (no Odoo
call), then the domain's structure (no Odoo call), then the field paths of the domain and the
``order`` against the registry (``fields_get`` at most once per model and connection), and
only then the one call that does the work.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Annotated, Any, Final

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SkipValidation,
    WithJsonSchema,
    model_validator,
)
from pydantic.config import JsonDict
from pydantic.json_schema import SkipJsonSchema

from odoo_mcp.connection import OdooRpcError
from odoo_mcp.context import ServerContext
from odoo_mcp.domain import parse_domain, validate_domain, validate_order
from odoo_mcp.field_refs import FieldRef, domain_refs, field_list_refs, order_refs
from odoo_mcp.registry import FieldInfo

__all__ = [
    "BINARY_HINT",
    "DOMAIN_HELP",
    "Domain",
    "InputModel",
    "ModelName",
    "OdooContext",
    "ResultModel",
    "checked_domain",
    "checked_order",
    "checked_references",
    "existing_ids",
    "is_missing_error",
    "stored_readable_fields",
    "unnamed_read_fields",
    "with_domain_help",
]

#: REQ-04-38: the inline domain reference, verbatim, in search_read and count descriptions.
DOMAIN_HELP: Final = """Domain syntax: List of conditions in Odoo domain format.
Each condition is a tuple: [field, operator, value]
Operators: =, !=, >, >=, <, <=, like, ilike, in, not in, child_of, parent_of
Logical: Use '|' for OR, '&' for AND (default), '!' for NOT — in prefix notation.
Examples:
  [] → all records
  [['state', '=', 'draft']] → records where state is draft
  [['name', 'ilike', 'acme']] → records where name contains 'acme' (case-insensitive)
  [['amount', '>=', 1000], ['state', '=', 'posted']] → AND (both conditions)
  ['|', ['state', '=', 'draft'], ['state', '=', 'sent']] → OR (either condition)
  [['partner_id.country_id.code', '=', 'PT']] → related field traversal
See L2/04a for complete domain reference."""


def with_domain_help(description: str) -> str:
    """REQ-04-38: a search tool's description followed by the inline domain reference."""
    return f"{description}\n\n{DOMAIN_HELP}"


#: REQ-04-36: the warning about binary fields that read tool descriptions carry.
BINARY_HINT: Final = (
    "Binary fields (images, files) are left out unless named in `fields`; request them "
    "individually (one field, few records): they come back as base64 strings."
)


def _refuse_string_domain(value: object) -> object:
    # REQ-04a-13: a domain sent as a JSON string gets INVALID_DOMAIN showing the list it
    # meant, not a bare type error (parse_domain raises DomainError for any string).
    if isinstance(value, str):
        parse_domain(value)
    return value


ModelName = Annotated[str, Field(description="Odoo model name (e.g., 'res.partner', 'sale.order')")]
OdooContext = Annotated[
    dict[str, Any] | SkipJsonSchema[None],
    Field(
        description="Additional Odoo context parameters "
        "(e.g., {'lang': 'pt_PT', 'active_test': false})"
    ),
]
#: one domain item as JSON Schema: a logical operator or a [field, operator, value] triple.
#: Documentation for clients only: the server validates domains itself (REQ-04a-13), so that a
#: wrong item gets INVALID_DOMAIN with a corrected example instead of a bare -32602.
DOMAIN_ITEM_SCHEMA: Final[JsonDict] = {
    "anyOf": [
        {"type": "string", "enum": ["&", "|", "!"]},
        {"type": "array", "minItems": 3, "maxItems": 3},
    ]
}
DomainItem = Annotated[Any, WithJsonSchema(DOMAIN_ITEM_SCHEMA)]
Domain = Annotated[list[DomainItem], BeforeValidator(_refuse_string_domain)]
#: any JSON value, spelled out one type per branch (an empty schema reads as "no validation"
#: to clients, and a list of types is not portable to single-type schema dialects)
JsonAny = Annotated[
    Any,
    WithJsonSchema(
        {"anyOf": [{"type": t} for t in ("string", "number", "boolean", "array", "object", "null")]}
    ),
]


class _JsonAsIs:
    """``Annotated`` mark of a result field whose value its tool built as JSON values."""


_JSON_AS_IS: Final = _JsonAsIs()

#: records as the read tools answer them: objects keyed by field name. The schema leaves out
#: ``additionalProperties: true`` (JSON Schema's default): a client validating a 500-row
#: answer against the outputSchema then checks each record once, not each of its fields
#: (the MCP SDK's client: 4.3 -> 3.2 ms a call). Issue 30: they are built by
#: ``normalize_records`` from Odoo's JSON, so they are JSON values already: neither validated
#: nor dumped again (``ResultModel.json_values``; 0.5 ms of a 500-row answer)
Records = Annotated[
    SkipValidation[list[dict[str, Any]]],
    WithJsonSchema({"type": "array", "items": {"type": "object"}}),
    _JSON_AS_IS,
]


def _spec_schema(schema: JsonDict) -> None:
    # The class docstrings name requirements for maintainers; the LLM reads the tool's own
    # description instead. Optional inputs have no default in the spec's schemas (not null).
    schema.pop("description", None)
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for prop in properties.values():
            if isinstance(prop, dict) and "default" in prop and prop["default"] is None:
                del prop["default"]


def _finite(value: object) -> None:
    """NaN and infinities are not JSON: Odoo's JSON protocols cannot carry them."""
    pending = [value]
    while pending:  # a loop, not recursion: arguments may nest deeper than the stack
        item = pending.pop()
        if isinstance(item, float) and not math.isfinite(item):
            raise ValueError(f"{item} is not a JSON number: send a finite number")
        if isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list | tuple):
            pending.extend(item)


class InputModel(BaseModel):
    """SPEC-04 §3: tool inputs: unknown keys are refused, as the inputSchemas say."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_spec_schema)

    @model_validator(mode="before")
    @classmethod
    def _no_nan(cls, data: Any) -> Any:
        """REQ-10-16: a NaN or an infinity (which stdio's JSON parser lets through) is an
        invalid argument, not a failure to encode the call to Odoo."""
        _finite(data)
        return data


class ResultModel(BaseModel):
    """SPEC-04 §3: tool results; serialization is the dispatcher's."""

    def json_values(self) -> dict[str, Any]:
        """The result as JSON values, as ``model_dump(mode="json", by_alias=True)`` gives
        them, with the fields typed :data:`Records` taken as they were built (issue 30)."""
        as_is = _fields_as_is(type(self))
        if not as_is:
            return self.model_dump(mode="json", by_alias=True)
        dumped = self.model_dump(mode="json", by_alias=True, exclude=set(as_is))
        values: dict[str, Any] = {}
        for name, info in type(self).model_fields.items():  # model_dump's order
            key = info.serialization_alias or info.alias or name
            if name in as_is:
                values[key] = getattr(self, name)
            elif key in dumped:  # not left out (exclude_if)
                values[key] = dumped.pop(key)
        values.update(dumped)  # computed fields come last, as in model_dump
        return values


@cache
def _fields_as_is(model: type[BaseModel]) -> frozenset[str]:
    """The fields of ``model`` typed :data:`Records`."""
    return frozenset(
        name for name, info in model.model_fields.items() if _JSON_AS_IS in info.metadata
    )


async def checked_domain(
    ctx: ServerContext, model: str, domain: list[Any]
) -> tuple[list[Any], tuple[str, ...]]:
    """REQ-04a-13: structure first (no round trip), then paths and blocked fields (decision 11)."""
    validated = await validate_domain(
        domain, model, fields=ctx.registry, is_field_blocked=ctx.policy.is_filter_blocked
    )
    # REQ-11-14 (issue 26): derived fields, and string values on relational fields (the
    # comodel's name search), checked by the one owner of field references
    await ctx.policy.check_references(model, domain_refs(domain, "domain"), ctx.registry)
    return validated.to_odoo(), validated.warnings


async def checked_order(ctx: ServerContext, model: str, order: str | None) -> str | None:
    """REQ-04-01: the ``order`` string, validated (decision 11), as Odoo reads it."""
    terms = await validate_order(
        order, model, fields=ctx.registry, is_field_blocked=ctx.policy.is_field_blocked
    )
    return ", ".join(term.to_odoo() for term in terms) or None


async def checked_references(
    ctx: ServerContext,
    model: str,
    *,
    fields: Sequence[str] = (),
    order: str | None = None,
) -> None:
    """REQ-11-14 (issue 26): the fields and order of a tool call, resolved by the one owner of
    field references: fields derived from a blocked one (known once the model's metadata is
    cached, which this loads) and paths through blocked models. (The tool's Odoo context is
    checked for every tool by the dispatcher.)"""
    refs: list[FieldRef] = list(field_list_refs([f for f in fields if f != "*"], "fields"))
    if order:
        refs += order_refs(order, "order")
    await ctx.policy.check_references(model, refs, ctx.registry)


def unnamed_read_fields(
    ctx: ServerContext, model: str, fields: Mapping[str, FieldInfo], *, stored_only: bool
) -> list[str]:
    """REQ-04-36: the fields asked of Odoo when the caller named none: binary fields are
    left out (they are returned only when named explicitly), and so are blocked fields
    (SPEC-11); ``stored_only`` keeps the stored ones only (odoo_core_read's default)."""
    return [
        name
        for name, info in fields.items()
        if (info.store or not stored_only)
        and info.type != "binary"
        and not ctx.policy.is_field_blocked(model, name)
    ]


def stored_readable_fields(
    ctx: ServerContext, model: str, fields: Mapping[str, FieldInfo]
) -> list[str]:
    """REQ-04-06: read's default, "all stored fields": stored, not blocked (SPEC-11).

    REQ-04-36: binary fields are left out unless named explicitly.
    """
    return unnamed_read_fields(ctx, model, fields, stored_only=True)


def is_missing_error(error: OdooRpcError) -> bool:
    """REQ-04-07: Odoo's MissingError (raised for unknown ids up to 16, on every protocol)."""
    return (error.error_class or "").endswith("MissingError") or "MissingError" in error.message


async def existing_ids(
    ctx: ServerContext, model: str, ids: list[int], context: Mapping[str, object] | None
) -> list[int]:
    """REQ-04-07: which of ``ids`` exist (one search; archived records count, as read sees them)."""
    search_context = {**(context or {}), "active_test": False}
    return await ctx.odoo.search(model, [["id", "in", ids]], context=search_context)
