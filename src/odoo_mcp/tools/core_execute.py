"""SPEC-04 §3.8: odoo_core_execute, the generic escape hatch for any public model method.

Checks before any Odoo call, in this order: the method (private ``_`` names and the method
blocklist, REQ-04-26 / REQ-11-15/16), then the mode and model lists for the operation the
method stands for (``operation_of_method``: decision 1 lets only read methods through in
readonly mode, decision 20 asks the write allowlist for any other method in restricted mode,
decision 2 refuses every changing call on ``res.users``), then every field reference the
arguments make, read per method by ``safety.execute_args`` and resolved by the policy (REQ-11-14,
decisions 11 and 40). One Odoo call follows.

The answer is either an action summary (REQ-04-27) or the value. A None result is a success:
over XML-RPC it arrives as the "cannot marshal None" fault after the method ran and committed
(decision 15), and the result says so, so that the caller does not repeat the call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer

from odoo_mcp.connection import CallOutcome, OdooError, versions
from odoo_mcp.context import ServerContext
from odoo_mcp.formatting import normalize_records
from odoo_mcp.registry import FieldInfo
from odoo_mcp.registry.lookups import MAX_MODELS_PER_CALL, CallLookups
from odoo_mcp.safety import Operation
from odoo_mcp.safety.annotations import CHANGES
from odoo_mcp.safety.execute_args import METHOD_ARGUMENTS, NAME_SEARCH_METHODS, call_refs
from odoo_mcp.safety.modes import operation_of_method
from odoo_mcp.tools.core_actions import ActionSummary, is_action, summarize_action
from odoo_mcp.tools.core_common import (
    InputModel,
    JsonAny,
    ModelName,
    OdooContext,
    ResultModel,
    unnamed_read_fields,
)
from odoo_mcp.tools.spec import ToolSpec

__all__ = ["NO_KWARGS_METHODS", "TOOLS", "ExecuteInput", "ExecuteResult", "execute"]


#: REQ-04-26: methods that take no keyword arguments; any given are stripped (verbatim list).
NO_KWARGS_METHODS: Final = frozenset(
    {
        "action_cancel",
        "action_confirm",
        "action_draft",
        "action_done",
        "action_lock",
        "action_unlock",
        "button_validate",
        "button_draft",
        "button_cancel",
        "button_confirm",
        "action_post",
        "action_open",
        "action_set_draft",
        "action_quotation_send",
        "action_view_invoice",
        "copy",
        "name_get",
        "name_search",
        "read",
        "search",
        "search_read",
        "search_count",
        "fields_get",
        "default_get",
        "onchange",
    }
)

#: REQ-04-36: the methods execute treats as record reads: they return field values of the
#: called model and take a field list, all fields (binary ones too) when it is left out.
#: (web_read / web_search_read name their fields in a specification; name_search and
#: name_get return pairs; read_group returns aggregates.)
RECORD_READS: Final = frozenset({"read", "search_read"})

#: REQ-04-26: Odoo's defaults for the positional slots before a carried keyword (False, not
#: None, for limit and order: XML-RPC cannot carry None and Odoo reads both as "unset")
_SLOT_DEFAULTS: Final[Mapping[str, Any]] = {
    "domain": [],
    "fields": [],
    "offset": 0,
    "limit": False,
    "order": False,
    "load": "_classic_read",
}

NULL_FROM_XMLRPC_NOTE: Final = (
    "The method ran and its changes are saved. It returns None, which XML-RPC cannot carry, "
    "so Odoo answered with a 'cannot marshal None' fault: that is a success. Do not call it "
    "again; read the record to see its new state."
)
NULL_NOTE: Final = (
    "The method ran and returned nothing (None): that is a success. Read the record to see "
    "its new state."
)


class ExecuteInput(InputModel):
    """REQ-04-25: the inputSchema of odoo_core_execute."""

    model: ModelName
    method: str = Field(
        description="Method to call (e.g., 'action_confirm', 'button_validate', 'copy')"
    )
    args: list[JsonAny] = Field(
        default=[],
        description="Positional arguments. First argument is typically a list of record IDs.",
    )
    kwargs: dict[str, Any] = Field(
        default={}, description="Keyword arguments passed to the method."
    )
    context: OdooContext = None


class ExecuteResult(ResultModel):
    """REQ-04-27: an action summary, or the value the method returned."""

    result_type: Literal["action", "value"]
    action: ActionSummary | None = Field(default=None, exclude_if=lambda value: value is None)
    result: JsonAny = Field(
        default=None,
        description="The method's return value (null when it returned None); absent for actions.",
    )
    note: str | None = Field(default=None, exclude_if=lambda value: value is None)
    warnings: list[str] | None = Field(default=None, exclude_if=lambda value: value is None)

    # No return annotation on purpose: with one, pydantic would replace the outputSchema
    # derived from the fields by the annotation's schema.
    @model_serializer(mode="wrap")
    def _drop_result_of_actions(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        """REQ-04-27: an action answer carries the summary only; a value keeps ``result``
        even when it is null (decision 15)."""
        data = handler(self)
        if self.result_type == "action" and isinstance(data, dict):
            data.pop("result", None)
        return data


async def _check_references(ctx: ServerContext, params: ExecuteInput) -> None:
    """REQ-11-14 (issue 26): every field reference of the call, in every form Odoo reads
    (``safety.execute_args`` per method; undeclared arguments conservatively), resolved with
    the registry: blocked and derived fields, paths through blocked models and name searches
    that would match a blocked field refuse the call before it reaches Odoo.

    REQ-04-25 / REQ-07-11 (issue 37): bounded cost. The references see each model once
    (``CallLookups``), so a model Odoo does not have costs its one ``fields_get`` (cached by
    the registry), not one per reference, and that refusal answers the call: Odoo's
    MODEL_NOT_FOUND, the method is not sent. At most ``MAX_MODELS_PER_CALL`` models are
    looked up: past that the call is refused (TOO_MANY_MODELS), never checked in part."""
    if params.method in NAME_SEARCH_METHODS:
        ctx.policy.check_name_search(params.model)
    # read_group's arguments are read under this Odoo's signature (20 changed it); under
    # both while the version is not known yet (fails closed)
    version = ctx.odoo.odoo_version
    refs = list(
        call_refs(
            params.method, params.args, params.kwargs,
            version="unknown" if version is None else version,
        )
    )  # fmt: skip
    if not refs:
        return
    lookups = CallLookups(ctx.registry, limit=MAX_MODELS_PER_CALL)
    await ctx.policy.check_references(params.model, refs, lookups)
    refused = ctx.registry.refused(params.model)
    if refused is not None and ctx.registry.known_missing(params.model):
        raise refused.with_traceback(None)  # what Odoo answers the method on that model


def _strip_blocked(ctx: ServerContext, model: str, value: Any) -> Any:
    """REQ-11-14: blocked fields never leave the server, whatever the method returned."""
    if isinstance(value, dict):
        return {
            key: _strip_blocked(ctx, model, item)
            for key, item in value.items()
            if not (isinstance(key, str) and ctx.policy.is_field_blocked(model, key))
        }
    if isinstance(value, list):
        return [_strip_blocked(ctx, model, item) for item in value]
    return value


def _call_arguments(
    params: ExecuteInput, carried: Sequence[str] = ()
) -> tuple[dict[str, Any], dict[str, Any] | None, list[str]]:
    """REQ-04-26, REQ-07-17/18: kwargs of NO_KWARGS_METHODS are stripped (an inline context
    is kept); those ``carried`` over as positional arguments (``_record_read_args``) are
    said to be, the others to be ignored."""
    kwargs = dict(params.kwargs)
    context = dict(params.context) if params.context is not None else None
    inline = kwargs.pop("context", None)
    if isinstance(inline, Mapping):
        context = {**inline, **(context or {})}
    if params.method not in NO_KWARGS_METHODS or not kwargs:
        return kwargs, context, []
    warnings = []
    if carried:
        _, slots = METHOD_ARGUMENTS[params.method]
        signature = ", ".join(
            (["ids"] if params.method == "read" else []) + [name for name, _ in slots]
        )
        warnings.append(
            f"'{params.method}' takes no keyword arguments: {', '.join(carried)} passed "
            f"positionally instead, in the order of Odoo's signature "
            f"{params.method}({signature})."
        )
    dropped = ", ".join(sorted(set(kwargs) - set(carried)))
    if dropped:
        warnings.append(
            f"'{params.method}' takes no keyword arguments: {dropped} ignored. Pass such "
            "values positionally in args instead."
        )
    return {}, context, warnings


def _carried_keywords(params: ExecuteInput) -> tuple[list[Any], list[str]]:
    """REQ-04-26 / REQ-04-36: read's and search_read's keywords that Odoo's signature has
    (``read(ids, fields, load)``, ``search_read(domain, fields, offset, limit, order)``),
    moved to their positional slots, since the stripping of REQ-04-26 would lose them: a
    caller restricting ``fields`` by keyword would get every field, binary ones included.
    A slot the caller filled positionally keeps that value (the keyword is then ignored);
    the slots before a carried one get Odoo's defaults."""
    record_method, slots = METHOD_ARGUMENTS[params.method]
    first = 0 if record_method else 1  # a record method's ids come first
    args = list(params.args)
    if len(args) < first:
        return args, []  # no ids: Odoo answers the malformed call as it would
    carried: list[str] = []
    names = [name for name, _ in slots]
    for index, name in enumerate(names):
        slot = first + index
        if name not in params.kwargs or slot < len(args):
            continue
        args += [_SLOT_DEFAULTS.get(n) for n in names[len(args) - first : index]]
        args.append(params.kwargs[name])
        carried.append(name)
    return args, carried


async def _record_read_args(
    ctx: ServerContext, params: ExecuteInput
) -> tuple[list[Any], list[str]]:
    """REQ-04-36: the arguments of a record read (``RECORD_READS``): the keywords carried
    over (``_carried_keywords``), and, when the caller named no field, the model's fields
    without the binary ones (``unnamed_read_fields``, the read tools' rule), so that Odoo
    does not send images and files (megabytes per record) nobody asked for. Fields the
    caller named, binary ones included, are asked as they are (by keyword too, where the
    method's keywords are not stripped)."""
    stripped = params.method in NO_KWARGS_METHODS
    args, carried = _carried_keywords(params) if stripped else (list(params.args), [])
    record_method, slots = METHOD_ARGUMENTS[params.method]
    first = 0 if record_method else 1
    names = [name for name, _ in slots]
    slot = first + names.index("fields")
    if len(args) < first or (len(args) > slot and args[slot]):
        return args, carried
    if not stripped and any(name in params.kwargs for name in names[: slot - first + 1]):
        return args, carried  # keywords Odoo receives as they are: no positional filling
    try:
        fields = await ctx.registry.get_fields(params.model)
    except OdooError:  # no metadata: Odoo's own default (every field) applies
        return args, carried
    default = unnamed_read_fields(ctx, params.model, fields, stored_only=False)
    args += [_SLOT_DEFAULTS["domain"]] * (slot - len(args))  # search_read without a domain
    if len(args) > slot:
        args[slot] = default
    else:
        args.append(default)
    return args, carried


def _holds_records(value: object) -> bool:
    """An answer that may carry field values (keyed by field name): a dict that is no
    action, or a list holding a dict."""
    if isinstance(value, dict):
        return not is_action(value)
    return isinstance(value, list) and any(isinstance(item, dict) for item in value)


async def _learn_fields(ctx: ServerContext, model: str) -> Mapping[str, FieldInfo] | None:
    """REQ-11-14 (issue 26): the model's metadata is known before its answer is stripped, so
    that fields derived from a blocked one (their ``depends``, or a blocked comodel) are
    dropped too (cached: one fields_get per model and connection)."""
    try:
        return await ctx.registry.get_fields(model)
    except OdooError:  # no metadata: the static table and the answer scrub still apply
        return None


def _is_rows(value: object, fields: Mapping[str, FieldInfo]) -> bool:
    """Records of the called model, as read/search_read return them: dicts with an id, keyed
    by the model's field names only (a fields_get or default_get answer is no such list)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(
            isinstance(row, dict) and "id" in row and all(key in fields for key in row)
            for row in value
        )
    )


def _normalized(ctx: ServerContext, fields: Mapping[str, FieldInfo], value: Any) -> Any:
    """REQ-04-35/37: 'All tool responses MUST normalize': records an execute call returns
    (read, search_read, or web_search_read's ``records``) get the read tools' normalization;
    every field they carry was asked for, so binary values stay (REQ-04-36)."""
    if _is_rows(value, fields):
        keys = {key for row in value for key in row}
        return normalize_records(value, fields, requested=keys, options=ctx.formatting)
    if isinstance(value, dict) and _is_rows(value.get("records"), fields):
        return {**value, "records": _normalized(ctx, fields, value["records"])}
    return value


def _result(
    ctx: ServerContext,
    model: str,
    outcome: CallOutcome,
    fields: Mapping[str, FieldInfo] | None = None,
) -> ExecuteResult:
    value = outcome.result
    if is_action(value):
        return ExecuteResult(result_type="action", action=summarize_action(value))
    if value is None:
        note = NULL_FROM_XMLRPC_NOTE if outcome.null_from_marshal_fault else NULL_NOTE
        return ExecuteResult(result_type="value", result=None, note=note)
    value = _strip_blocked(ctx, model, value)
    if fields is not None:
        value = _normalized(ctx, fields, value)
    return ExecuteResult(result_type="value", result=value)


async def _name_get_without_name_get(
    ctx: ServerContext, params: ExecuteInput
) -> ExecuteResult | None:
    """REQ-04-28: ``name_get`` is deprecated on Odoo 17 and gone from 18 (the version table):
    answer it from ``display_name`` there.

    The caller gets what name_get gave on 16 (``[[id, name], ...]``) for the same one call,
    instead of an AttributeError fault for a method the spec names (REQ-04-26's list).
    """
    version = ctx.odoo.odoo_version
    if params.method != "name_get" or version is None or not params.args:
        return None
    if versions.exists("name_get", version) and not versions.is_deprecated("name_get", version):
        return None
    first = params.args[0]
    ids = [first] if isinstance(first, int) else first
    if not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
        return None  # let Odoo answer the malformed call as it would
    pairs = await ctx.odoo.name_get(params.model, ids)
    state = "deprecates" if versions.exists("name_get", version) else "has no"
    note = f"Odoo {version} {state} name_get; the names come from display_name."
    return ExecuteResult(result_type="value", result=[[i, n] for i, n in pairs], note=note)


def _operation_of_call(params: ExecuteInput) -> Operation:
    """REQ-11-22: an execute call stands for its method's operation (decision 1)."""
    return operation_of_method(params.method)


async def execute(ctx: ServerContext, params: ExecuteInput) -> ExecuteResult:
    """REQ-04-25: run any public method of a model; the generic escape hatch.

    REQ-04-26: private and blocked methods refused, mode checked, NO_KWARGS_METHODS stripped
    (read's and search_read's keywords carried over positionally).
    REQ-04-36: read and search_read without a field list fetch no binary field.
    REQ-04-27: an action dictionary comes back summarized, a plain value as it is.
    REQ-11-14: blocked fields are refused in the arguments and dropped from the result.
    """
    model, method = params.model, params.method
    ctx.policy.check_execute(model, method)
    await _check_references(ctx, params)
    args, carried = list(params.args), list[str]()
    if method in RECORD_READS:
        args, carried = await _record_read_args(ctx, params)
    kwargs, context, warnings = _call_arguments(params, carried)
    translated = await _name_get_without_name_get(ctx, params)
    if translated is not None:
        return translated
    outcome = await ctx.odoo.call(model, method, args, kwargs or None, context)
    fields = await _learn_fields(ctx, model) if _holds_records(outcome.result) else None
    result = _result(ctx, model, outcome, fields)
    if warnings:
        result.warnings = warnings
    return result


TOOLS: list[ToolSpec[Any, Any]] = [
    ToolSpec(
        name="odoo_core_execute",
        title="Execute a model method",
        description="Call a public method of an Odoo model, e.g. action_confirm on sale.order "
        "(args [[order_id]]), button_validate on stock.picking, action_post on account.move. "
        "The first positional argument is usually the list of record ids. Methods starting "
        "with '_' are refused; in readonly mode only read methods (read, search, search_read, "
        "search_count, fields_get, default_get, name_get, name_search, read_group, "
        "check_access_rights, check_access_rule) are allowed. When the method opens a wizard "
        "the result is an action summary that says how to finish: create the wizard with the "
        "action's context and call its confirming method. A null result is a success.",
        input_model=ExecuteInput,
        result_model=ExecuteResult,
        handler=execute,
        hints=CHANGES,
        operation=_operation_of_call,
    ),
]
