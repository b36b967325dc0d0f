"""SPEC-04 §3.3-3.5: write-side core tools.

``odoo_core_create``, ``odoo_core_write`` and ``odoo_core_unlink``. Every safety check runs
before Odoo is called (SPEC-11 REQ-11-03): the mode and the model lists
(``check_operation``: readonly refuses, restricted needs the write allowlist and never deletes,
``res.users`` is refused in every mode by decision 2), then blocked fields in the values.
Each tool then makes exactly one Odoo call; ``create`` and ``write`` also read the model's
cached field metadata, which costs one ``fields_get`` per model and Odoo user the first time:
``write`` refuses readonly fields (REQ-04-14), and both refuse a many2one value that is not a
record id, which Odoo would silently store as empty (a name, an ``[id, name]`` pair, a
numeric string: ``Many2one.convert_to_cache`` turns them into no record). Odoo's own
refusals (MissingError for unknown ids, AccessError, validation errors) propagate as
``OdooRpcError`` for the dispatcher to translate (SPEC-10).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from pydantic import Field

from odoo_mcp.context import ServerContext
from odoo_mcp.domain.x2many import check_x2many_commands
from odoo_mcp.errors import ErrorCategory, ErrorCode, ToolError
from odoo_mcp.errors.suggestions import FieldHint, field_type_help
from odoo_mcp.registry import FieldInfo
from odoo_mcp.safety import Operation
from odoo_mcp.safety.annotations import CHANGES, CHANGES_IDEMPOTENT, DELETES
from odoo_mcp.tools.core_common import InputModel, ModelName, OdooContext, ResultModel
from odoo_mcp.tools.spec import ToolSpec

__all__ = [
    "ALLOW_READONLY_KEY",
    "TOOLS",
    "CreateInput",
    "CreateResult",
    "UnlinkInput",
    "UnlinkResult",
    "WriteInput",
    "WriteResult",
    "check_many2one_values",
    "create",
    "unlink",
    "write",
]

#: REQ-04-14: the context key that "explicitly allows" writing readonly fields. It is the
#: server's switch, not Odoo's, so it is removed from the context sent to Odoo.
ALLOW_READONLY_KEY: Final = "mcp_allow_readonly_fields"


def _odoo_context(context: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The caller's context minus the server's own switch (None stays None)."""
    if context is None:
        return None
    return {key: value for key, value in context.items() if key != ALLOW_READONLY_KEY}


def _unique(ids: list[int]) -> list[int]:
    return list(dict.fromkeys(ids))


# -- odoo_core_create --------------------------------------------------------------------------


class CreateInput(InputModel):
    """REQ-04-08: the inputSchema of odoo_core_create."""

    model: ModelName
    values: dict[str, Any] = Field(
        description="Field values for the new record. For relational fields, see domain "
        "syntax reference for command format."
    )
    context: OdooContext = None


class CreateResult(ResultModel):
    """REQ-04-10: the new id, the model and a sentence saying so."""

    id: int
    model: str
    message: str


async def create(ctx: ServerContext, params: CreateInput) -> CreateResult:
    """REQ-04-08: create one record; the answer is its id.

    REQ-04-09: readonly refuses, restricted needs the write allowlist, full allows.
    REQ-11-14: a blocked field in the values is refused before any Odoo call.
    REQ-04-11: Odoo's refusal (missing or invalid values) reaches the caller classified by
    SPEC-10, with the field and a suggestion (the dispatcher's error path).
    """
    model = params.model
    ctx.policy.check_operation(Operation.CREATE, model)
    ctx.policy.check_values(model, params.values)
    check_x2many_commands(model, params.values)
    check_many2one_values(model, params.values, await ctx.registry.get_fields(model))
    new_id = await ctx.odoo.create(model, params.values, _odoo_context(params.context))
    return CreateResult(id=new_id, model=model, message=f"Created {model} record with ID {new_id}")


# -- odoo_core_write ---------------------------------------------------------------------------


class WriteInput(InputModel):
    """REQ-04-12: the inputSchema of odoo_core_write."""

    model: ModelName
    ids: list[int] = Field(min_length=1, max_length=100, description="Record IDs to update")
    values: dict[str, Any] = Field(
        description="Field values to update. Only specified fields are changed."
    )
    context: OdooContext = None


class WriteResult(ResultModel):
    """REQ-04-15: success, the model, the ids written and a sentence saying so."""

    success: bool
    model: str
    ids: list[int]
    message: str


def _readonly_fields(values: Mapping[str, Any], fields: Mapping[str, FieldInfo]) -> list[str]:
    # Unknown names are left to Odoo, whose "Invalid field" error SPEC-10 translates.
    return [name for name in values if name in fields and fields[name].readonly]


def _is_record_id(value: object) -> bool:
    return value is False or value is None or (type(value) is int and value > 0)


def check_many2one_values(
    model: str, values: Mapping[str, Any], fields: Mapping[str, FieldInfo]
) -> None:
    """REQ-04-11: a many2one takes a record id (or false to empty it); anything else is
    refused here, because Odoo would store it as "no record" without a word."""
    for name, value in values.items():
        info = fields.get(name)
        if info is None or info.type != "many2one" or _is_record_id(value):
            continue
        relation = info.relation or "the related model"
        hint = FieldHint(name=name, label=info.label, type=info.type, relation=info.relation)
        pair = isinstance(value, list) and len(value) == 2 and type(value[0]) is int
        raise ToolError(
            ErrorCode.WRONG_VALUE,
            f"'{name}' of {model} links to one {relation} record and takes its id (an integer, "
            f"or false to empty it), not {value!r}: Odoo would store no record instead",
            category=ErrorCategory.VALIDATION,
            suggestion=f"Pass {value[0]} alone." if pair else field_type_help(hint, model),
            details={"model": model, "field": name, "value": str(value), "relation": relation},
            retry=True,
        )


async def _check_readonly(
    ctx: ServerContext, model: str, values: Mapping[str, Any], context: Mapping[str, Any] | None
) -> None:
    """REQ-04-14: readonly fields are refused unless the context explicitly allows them."""
    if context is not None and context.get(ALLOW_READONLY_KEY) is True:
        return
    readonly = _readonly_fields(values, await ctx.registry.get_fields(model))
    if readonly:
        names = ", ".join(f"'{name}'" for name in readonly)
        raise ToolError(
            ErrorCode.VALIDATION_ERROR,
            f"Field(s) {names} of '{model}' are readonly and cannot be written",
            category=ErrorCategory.VALIDATION,
            suggestion="Leave them out (they are usually computed or set by an action such as "
            f"action_confirm), or pass context {{'{ALLOW_READONLY_KEY}': true}} if writing "
            "them is really intended.",
            details={"model": model, "fields": list(readonly)},
            retry=False,
        )


async def write(ctx: ServerContext, params: WriteInput) -> WriteResult:
    """REQ-04-12: update existing records with the same values.

    REQ-04-13: the operation mode is checked as for create.
    REQ-04-14: blocked fields and readonly fields in the values are refused.
    """
    model = params.model
    ctx.policy.check_operation(Operation.WRITE, model)
    ctx.policy.check_values(model, params.values)
    check_x2many_commands(model, params.values)
    await _check_readonly(ctx, model, params.values, params.context)
    check_many2one_values(model, params.values, await ctx.registry.get_fields(model))
    ids = _unique(params.ids)
    await ctx.odoo.write(model, ids, params.values, _odoo_context(params.context))
    return WriteResult(
        success=True, model=model, ids=ids, message=f"Updated {len(ids)} {model} record(s)"
    )


# -- odoo_core_unlink --------------------------------------------------------------------------


class UnlinkInput(InputModel):
    """REQ-04-16: the inputSchema of odoo_core_unlink."""

    model: ModelName
    ids: list[int] = Field(min_length=1, max_length=50, description="Record IDs to delete")
    context: OdooContext = None


class UnlinkResult(ResultModel):
    """REQ-04-19: success, the model, the deleted ids and a sentence saying so."""

    success: bool
    model: str
    deleted_ids: list[int]
    message: str


async def unlink(ctx: ServerContext, params: UnlinkInput) -> UnlinkResult:
    """REQ-04-16: delete records.

    REQ-04-17: full mode only, blocked models refused; the dispatcher writes the audit line.
    REQ-04-18: the tool is declared destructive (its spec's ``DELETES`` hints).
    """
    model = params.model
    ctx.policy.check_operation(Operation.UNLINK, model)
    ids = _unique(params.ids)
    await ctx.odoo.unlink(model, ids, _odoo_context(params.context))
    return UnlinkResult(
        success=True,
        model=model,
        deleted_ids=ids,
        message=f"Deleted {len(ids)} {model} record(s)",
    )


TOOLS: list[ToolSpec[Any, Any]] = [
    ToolSpec(
        name="odoo_core_create",
        title="Create a record",
        description="Create a new record of an Odoo model from field values. Relational "
        "fields take Odoo's command format: many2one an id; one2many/many2many a list of "
        "commands such as [[0, 0, {values}]] (create a line) or [[6, 0, [ids]]] (set). "
        "Check required fields with odoo_core_fields_get first. Returns the new id.",
        input_model=CreateInput,
        result_model=CreateResult,
        handler=create,
        hints=CHANGES,
        operation=Operation.CREATE,
        odoo_method="create",
    ),
    ToolSpec(
        name="odoo_core_write",
        title="Update records",
        description="Write the same field values on existing records (at most 100 ids). "
        "Only the given fields change. Readonly fields (computed, or set by workflow "
        "actions) are refused: change state with odoo_core_execute and the model's action "
        "methods (e.g. action_confirm) instead.",
        input_model=WriteInput,
        result_model=WriteResult,
        handler=write,
        hints=CHANGES_IDEMPOTENT,
        operation=Operation.WRITE,
        odoo_method="write",
    ),
    ToolSpec(
        name="odoo_core_unlink",
        title="Delete records",
        description="Permanently delete records (at most 50 ids). Cannot be undone; many "
        "documents (confirmed orders, posted invoices) must be cancelled first, and "
        "archiving (write active=false) is often the better choice.",
        input_model=UnlinkInput,
        result_model=UnlinkResult,
        handler=unlink,
        hints=DELETES,
        operation=Operation.UNLINK,
        odoo_method="unlink",
    ),
]
