"""Mutants of SPEC-04, the core CRUD tools (see registry.py)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from _sabotage import as_odoo_pair, patch_everywhere, wrap_tool
from registry import mutant


def _pairs(record: dict[str, Any]) -> dict[str, Any]:
    return {key: as_odoo_pair(value) for key, value in record.items()}


@mutant(
    kills=["REQ-04-05"],
    seed='SPEC-04 §3.1: \'Many2one fields MUST be returned as {"id": int, "name": str}\'',
    select="REQ-04-05 and not REQ-04-35",
)
def search_read_many2one_as_pair() -> None:
    """odoo_core_search_read answers many2one values as Odoo's [id, name] pairs."""

    def post(data: dict[str, Any]) -> dict[str, Any]:
        data["records"] = [_pairs(r) for r in data.get("records", [])]
        return data

    wrap_tool("odoo_core_search_read", post)


# -- helpers ------------------------------------------------------------------------------------

Handler = Callable[[Any, Any], Awaitable[Any]]


def _replace_handler(name: str, make: Callable[[Handler], Handler]) -> None:
    """Replace one tool's handler by ``make(original)`` (the seam of conformant variants)."""
    from odoo_mcp.toolsets import all_tools

    spec = next(spec for spec in all_tools() if spec.name == name)
    object.__setattr__(spec, "handler", make(spec.handler))


def _with_params(name: str, change: Callable[[Any], dict[str, Any]]) -> None:
    """Call one tool's real handler with some of the caller's arguments changed."""

    def make(handler: Handler) -> Handler:
        async def broken(ctx: Any, params: Any) -> Any:
            return await handler(ctx, params.model_copy(update=change(params)))

        return broken

    _replace_handler(name, make)


def _post(name: str, change: Callable[[dict[str, Any]], None]) -> None:
    """Change one tool's answer in place (as its JSON-ready dict)."""

    def post(data: dict[str, Any]) -> dict[str, Any]:
        change(data)
        return data

    wrap_tool(name, post)


# -- odoo_core_search_read, odoo_core_count (§3.1, §3.6) --------------------------------------


@mutant(
    kills=["REQ-04-01", "REQ-04-03"],
    seed="SPEC-04 §3.1: 'offset: Number of records to skip (for pagination)' (and the envelope "
    "reports the offset it used, not the one asked: REQ-04-03, found on every answer)",
)
def search_read_ignores_offset() -> None:
    """odoo_core_search_read always starts at the first record, whatever the offset."""
    _with_params("odoo_core_search_read", lambda params: {"offset": 0})


@mutant(
    kills=["REQ-04-02"],
    seed="SPEC-04 §3.1: 'If fields is [\\'*\\'], replace it with None in the API call'",
)
def search_read_star_as_default_fields() -> None:
    """odoo_core_search_read answers fields ['*'] with the default fields only."""

    def change(params: Any) -> dict[str, Any]:
        return {"fields": ["id", "name", "display_name"]} if "*" in params.fields else {}

    _with_params("odoo_core_search_read", change)


@mutant(
    kills=["REQ-04-03"],
    seed="SPEC-04 §3.1: 'The tool MUST return results in this format: {records, count, ...}'",
)
def search_read_count_off_by_one() -> None:
    """odoo_core_search_read's count is neither the records returned nor the matches."""
    _post("odoo_core_search_read", lambda data: data.update(count=data["count"] + 1))


@mutant(
    kills=["REQ-04-04"],
    seed="SPEC-04 §3.1: 'The has_more field MUST be true if the number of returned records "
    "equals the limit'",
    select="REQ-04-04 and not REQ-04-01",
)
def search_read_has_more_always_false() -> None:
    """odoo_core_search_read never says there may be more records."""
    _post("odoo_core_search_read", lambda data: data.update(has_more=False))


@mutant(
    kills=["REQ-04-20"],
    seed="SPEC-04 §3.6: 'context: object' (the count of records matching a domain)",
)
def count_drops_context() -> None:
    """odoo_core_count does not pass the call's context (active_test) to Odoo."""
    _with_params("odoo_core_count", lambda params: {"context": None})


@mutant(
    kills=["REQ-04-21"],
    seed='SPEC-04 §3.6: \'Return: {"model", "domain", "count"}\'',
)
def count_without_domain() -> None:
    """odoo_core_count's answer gives an empty domain, not the one it counted."""
    _post("odoo_core_count", lambda data: data.update(domain=[]))


@mutant(
    kills=["REQ-04-38"],
    seed="SPEC-04 §5: 'The odoo_core_search_read and odoo_core_count tool descriptions MUST "
    "include a concise domain syntax reference'",
)
def descriptions_without_domain_help() -> None:
    """odoo_core_search_read and odoo_core_count describe themselves without the domain help."""
    from odoo_mcp.tools.core_common import DOMAIN_HELP
    from odoo_mcp.toolsets import all_tools

    for spec in all_tools():
        if spec.name in ("odoo_core_search_read", "odoo_core_count"):
            object.__setattr__(spec, "description", spec.description.replace(DOMAIN_HELP, ""))


# -- odoo_core_create, odoo_core_write, odoo_core_unlink (§3.3-3.5) ---------------------------


@mutant(
    kills=["REQ-04-08"],
    seed="SPEC-04 §3.3: 'context: Additional Odoo context parameters' (create)",
)
def create_drops_context() -> None:
    """odoo_core_create creates the record without the call's context (its default_ keys)."""
    _with_params("odoo_core_create", lambda params: {"context": None})


@mutant(
    kills=["REQ-04-09"],
    seed="SPEC-04 §3.3: 'readonly mode → reject with error \"Create operations are not "
    "allowed in readonly mode\"'",
    select="REQ-04-09 and REQ-11-05",
)
def readonly_create_refused_in_other_words() -> None:
    """A readonly create is refused as a tool error that does not say create is not allowed
    in readonly mode (the write tools stay listed, as REQ-04-09's own reading allows)."""
    from odoo_mcp.safety import SafetyError
    from odoo_mcp.safety.policy import SafetyPolicy

    SafetyPolicy.is_tool_visible = lambda self, tool, hints: True  # type: ignore[method-assign]

    def make(handler: Handler) -> Handler:
        async def broken(ctx: Any, params: Any) -> Any:
            try:
                return await handler(ctx, params)
            except SafetyError as error:
                raise SafetyError(error.code, "Denied.", error.suggestion, error.details) from None

        return broken

    _replace_handler("odoo_core_create", make)


@mutant(
    kills=["REQ-04-10"],
    seed='SPEC-04 §3.3: \'On success, return: {"id": 42, "model": "res.partner", '
    '"message": "Created res.partner record with ID 42"}\'',
)
def create_message_says_nothing() -> None:
    """odoo_core_create's message names neither the model nor the new id."""
    _post("odoo_core_create", lambda data: data.update(message="Done."))


@mutant(
    kills=["REQ-04-12", "REQ-04-15"],
    seed="SPEC-04 §3.4: 'The odoo_core_write tool MUST update existing records'",
    select="REQ-04-12",
)
def write_updates_the_first_id_only() -> None:
    """odoo_core_write updates only the first of the ids it is given."""
    _with_params("odoo_core_write", lambda params: {"ids": params.ids[:1]})


@mutant(
    kills=["REQ-04-13"],
    seed="SPEC-04 §3.4: 'The tool MUST check the operation mode (same as create, SPEC-11).'",
    select="REQ-04-13 and not REQ-11-05 and not decision-2",
)
def write_ignores_the_write_allowlist() -> None:
    """odoo_core_write writes models outside the write allowlist in restricted mode."""
    from odoo_mcp.safety import Operation
    from odoo_mcp.safety.policy import SafetyPolicy

    check = SafetyPolicy.check_operation

    def lenient(self: Any, operation: Operation, model: str) -> None:
        if operation is not Operation.WRITE:
            check(self, operation, model)

    SafetyPolicy.check_operation = lenient  # type: ignore[method-assign]


@mutant(
    kills=["REQ-04-14"],
    seed="SPEC-04 §3.4: 'The tool MUST validate that fields being written are not in the "
    "field blocklist and are not readonly'",
)
def write_accepts_readonly_fields() -> None:
    """odoo_core_write writes readonly fields without the context allowing it."""
    from odoo_mcp.tools import core_write

    async def unchecked(*args: Any, **kwargs: Any) -> None:
        return None

    patch_everywhere(core_write._check_readonly, unchecked)


@mutant(
    kills=["REQ-04-15"],
    seed='SPEC-04 §3.4: \'On success, return: {... "message": "Updated 2 res.partner record(s)"}\'',
)
def write_message_says_nothing() -> None:
    """odoo_core_write's message names neither the model nor how many records changed."""
    _post("odoo_core_write", lambda data: data.update(message="Done."))


@mutant(
    kills=["REQ-04-16"],
    seed="SPEC-04 §3.5: 'The odoo_core_unlink tool MUST delete records'",
)
def unlink_deletes_nothing() -> None:
    """odoo_core_unlink answers success without deleting anything."""
    from odoo_mcp.safety import Operation
    from odoo_mcp.tools.core_write import UnlinkResult

    def make(handler: Handler) -> Handler:
        async def broken(ctx: Any, params: Any) -> Any:
            ctx.policy.check_operation(Operation.UNLINK, params.model)
            n = len(params.ids)
            return UnlinkResult(
                success=True,
                model=params.model,
                deleted_ids=params.ids,
                message=f"Deleted {n} {params.model} record(s)",
            )

        return broken

    _replace_handler("odoo_core_unlink", make)


@mutant(
    kills=["REQ-04-19"],
    seed='SPEC-04 §3.5: \'On success, return: {... "message": "Deleted 2 res.partner record(s)"}\'',
)
def unlink_message_says_nothing() -> None:
    """odoo_core_unlink's message names neither the model nor how many records went."""
    _post("odoo_core_unlink", lambda data: data.update(message="Done."))


# -- odoo_core_fields_get, name_get, default_get (§3.7, §3.9, §3.10) --------------------------


@mutant(
    kills=["REQ-04-22"],
    seed="SPEC-04 §3.7: 'attributes: Field attributes to return'",
)
def fields_get_ignores_attributes() -> None:
    """odoo_core_fields_get describes the default attributes whatever the call asked for."""
    from odoo_mcp.tools.core_meta import DEFAULT_ATTRIBUTES

    _with_params("odoo_core_fields_get", lambda params: {"attributes": list(DEFAULT_ATTRIBUTES)})


@mutant(
    kills=["REQ-04-23"],
    seed="SPEC-04 §3.7: 'Each field MUST include a concise summary' (with its relation)",
    select="REQ-04-23",
)
def fields_get_without_relation() -> None:
    """odoo_core_fields_get's summaries leave out the comodel of relational fields."""

    def change(data: dict[str, Any]) -> None:
        for summary in data.get("fields", {}).values():
            summary.pop("relation", None)

    _post("odoo_core_fields_get", change)


@mutant(
    kills=["REQ-04-28"],
    seed="SPEC-04 §3.9: 'ids: Record IDs, minItems 1, maxItems 200'",
    select="REQ-04-28 and not REQ-04-29",
)
def name_get_stops_at_100() -> None:
    """odoo_core_name_get names at most the first 100 of the ids it is given."""
    _with_params("odoo_core_name_get", lambda params: {"ids": params.ids[:100]})


@mutant(
    kills=["REQ-04-29"],
    seed='SPEC-04 §3.9: \'Return: {"model": "res.partner", "names": [...]}\'',
)
def name_get_without_model() -> None:
    """odoo_core_name_get's answer names no model (an empty string)."""
    _post("odoo_core_name_get", lambda data: data.update(model=""))


@mutant(
    kills=["REQ-04-30"],
    seed="SPEC-04 §3.10: 'Empty list = all fields with defaults.'",
    select="REQ-04-30 and not REQ-04-31",
)
def default_get_empty_for_no_fields() -> None:
    """odoo_core_default_get answers no defaults when no field is named."""

    def change(data: dict[str, Any]) -> None:
        if "active" in data["defaults"]:  # the all-fields answer of res.partner
            data["defaults"] = {}

    _post("odoo_core_default_get", change)


@mutant(
    kills=["REQ-04-31"],
    seed='SPEC-04 §3.10: \'Return: {"model": "sale.order", "defaults": {...}}\'',
)
def default_get_without_model() -> None:
    """odoo_core_default_get's answer names no model (an empty string)."""
    _post("odoo_core_default_get", lambda data: data.update(model=""))


# -- odoo_core_execute (§3.8) ------------------------------------------------------------------


@mutant(
    kills=["REQ-04-25"],
    seed="SPEC-04 §3.8: 'kwargs: Keyword arguments passed to the method.'",
)
def execute_drops_kwargs() -> None:
    """odoo_core_execute calls the method without the keyword arguments given."""
    _with_params("odoo_core_execute", lambda params: {"kwargs": {}})


@mutant(
    kills=["REQ-04-26"],
    seed="SPEC-04 §3.8: 'Methods starting with _ are REJECTED'",
)
def execute_calls_private_methods() -> None:
    """odoo_core_execute sends methods starting with '_' to Odoo."""
    from odoo_mcp.safety.policy import SafetyPolicy

    check = SafetyPolicy.check_execute

    def lenient(self: Any, model: str, method: str) -> None:
        if not method.startswith("_"):
            check(self, model, method)

    SafetyPolicy.check_execute = lenient  # type: ignore[method-assign]


@mutant(
    kills=["REQ-04-27"],
    seed="SPEC-04 §3.8: 'If the method returns an action dictionary ..., the response MUST "
    "include a summary'",
)
def execute_action_without_summary() -> None:
    """odoo_core_execute returns actions without their summary."""

    def change(data: dict[str, Any]) -> None:
        if isinstance(data.get("action"), dict):
            data["action"].pop("summary", None)

    _post("odoo_core_execute", change)


# -- odoo_core_list_models (§3.11) ---------------------------------------------------------------


@mutant(
    kills=["REQ-04-32"],
    seed="SPEC-04 §3.11: 'transient: Include transient models (wizards). Default: false.'",
)
def list_models_never_transient() -> None:
    """odoo_core_list_models never lists transient models, even when asked to."""
    _with_params("odoo_core_list_models", lambda params: {"transient": False})


@mutant(
    kills=["REQ-04-33"],
    seed='SPEC-04 §3.11: \'Return: {"models": [{... "access": "read,write,create"}]}\'',
)
def list_models_empty_access() -> None:
    """odoo_core_list_models says nothing of the access the user has."""

    def change(data: dict[str, Any]) -> None:
        for entry in data.get("models", []):
            entry["access"] = ""

    _post("odoo_core_list_models", change)


@mutant(
    kills=["REQ-04-34"],
    seed="SPEC-04 §3.11: 'Models in the safety blocklist MUST be excluded.'",
)
def list_models_shows_config_parameter() -> None:
    """odoo_core_list_models lists the blocked ir.config_parameter among the ir. models."""

    def change(data: dict[str, Any]) -> None:
        models = data.get("models", [])
        if any(m["model"].startswith("ir.") for m in models):
            models.append(
                {"model": "ir.config_parameter", "name": "System Parameter",
                 "transient": False, "field_count": 8, "access": "read"}
            )  # fmt: skip
            data["count"] = len(models)

    _post("odoo_core_list_models", change)


# -- response formatting (§4) ------------------------------------------------------------------


@mutant(
    kills=["REQ-04-35"],
    seed="SPEC-04 §4: 'False (empty string field) → \"\"'",
    select="REQ-04-35 and not REQ-04-05 and not REQ-04-37",
)
def read_empty_text_as_false() -> None:
    """odoo_core_read answers empty text fields as false."""

    def change(data: dict[str, Any]) -> None:
        for record in data.get("records", []):
            for key, value in record.items():
                if value == "":
                    record[key] = False

    _post("odoo_core_read", change)


@mutant(
    kills=["REQ-04-05", "REQ-04-35", "REQ-04-37"],
    seed="SPEC-04 §4: 'All tool responses MUST normalize Odoo\\'s raw data format' (its "
    "many2one pairs break REQ-04-05's objects too, which every answer is judged on)",
    select="REQ-04-35 and REQ-04-37",
)
def execute_records_raw() -> None:
    """odoo_core_execute returns the records a read gives as Odoo sent them."""
    from odoo_mcp.tools import core_execute

    patch_everywhere(core_execute._normalized, lambda ctx, fields, value: value)


@mutant(
    kills=["REQ-04-36"],
    seed="SPEC-04 §4: 'Binary fields (type binary) MUST NOT be returned in search_read or "
    "read results by default.'",
    select="REQ-04-36",
)
def read_returns_binary_by_default() -> None:
    """odoo_core_read returns image_1920 when no field list is given."""

    def make(handler: Handler) -> Handler:
        async def broken(ctx: Any, params: Any) -> Any:
            result = await handler(ctx, params)
            if not params.fields:
                for record in result.records:
                    record["image_1920"] = "aGVsbG8gd29ybGQ="
            return result

        return broken

    _replace_handler("odoo_core_read", make)


@mutant(
    kills=["REQ-04-36"],
    seed="SPEC-04 §4: 'The tool MUST warn in the description that binary fields should be "
    "requested individually.'",
    select="REQ-04-36",
)
def read_descriptions_silent_on_binary() -> None:
    """odoo_core_read and odoo_core_search_read say nothing of binary fields."""
    from odoo_mcp.tools.core_common import BINARY_HINT
    from odoo_mcp.toolsets import all_tools

    for spec in all_tools():
        if spec.name in ("odoo_core_search_read", "odoo_core_read"):
            object.__setattr__(spec, "description", spec.description.replace(BINARY_HINT, ""))


@mutant(
    kills=["REQ-04-37"],
    seed="SPEC-04 §4: 'The server MUST append Z to indicate UTC: \"2025-02-09T14:30:00Z\"'",
    select="REQ-04-37 and not REQ-04-35",
)
def read_datetimes_without_z() -> None:
    """odoo_core_read and odoo_core_search_read give datetimes without the Z."""

    def change(data: dict[str, Any]) -> None:
        for record in data.get("records", []):
            for key, value in record.items():
                if isinstance(value, str) and re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:]{8}Z", value):
                    record[key] = value[:-1]

    _post("odoo_core_read", change)
    _post("odoo_core_search_read", change)


@mutant(
    kills=["REQ-04-11"],
    seed="SPEC-04 §3.3 REQ-04-11: 'On validation error, the error handler (SPEC-10) MUST "
    "translate the Odoo error into actionable guidance' (its example names the field)",
    select="REQ-04-11",
)
def create_errors_without_the_field() -> None:
    """A create Odoo rejects is reported without naming the field: no details.field, and
    the field's name replaced by "a value" in the message and the suggestion."""
    from odoo_mcp.errors import response

    original = response.to_payload

    def broken(error: Any) -> Any:
        payload = original(error)
        details = payload.get("details")
        field = details.pop("field", None) if isinstance(details, dict) else None
        if isinstance(field, str) and field:
            for key in ("message", "suggestion"):
                if isinstance(payload.get(key), str):
                    payload[key] = payload[key].replace(field, "a value")
        return payload

    patch_everywhere(original, broken)


@mutant(
    kills=["REQ-04-17"],
    seed="SPEC-04 §3.5 REQ-04-17: '- Log the deletion in the audit log (SPEC-11).'",
    select="REQ-04-17",
)
def unlink_not_audited() -> None:
    """Deletions are left out of the audit log (every other operation is still logged)."""
    from odoo_mcp.safety.audit import AuditLogger, Operation

    should_log = AuditLogger.should_log

    def broken(self: AuditLogger, operation: Operation) -> bool:
        return operation is not Operation.UNLINK and should_log(self, operation)

    AuditLogger.should_log = broken  # type: ignore[method-assign]


@mutant(
    kills=["REQ-04-24"],
    seed="SPEC-04 §3.7 REQ-04-24: 'Fields in the blocklist (SPEC-11) MUST be excluded from "
    "the response.'",
    select="REQ-04-24",
)
def fields_get_shows_blocked_fields() -> None:
    """odoo_core_fields_get keeps blocked fields: its own filter is off, and so is the answer
    scrub behind it (either alone hides the defect)."""
    import odoo_mcp.safety.scrub
    from odoo_mcp.safety.policy import SafetyPolicy

    def keep(self: SafetyPolicy, model: str, fields: Any) -> dict[str, object]:
        return dict(fields)

    def no_scrub(value: Any, blocked: Any, channel: str, **kwargs: Any) -> Any:
        return value

    SafetyPolicy.strip_fields_get = keep  # type: ignore[method-assign]
    patch_everywhere(odoo_mcp.safety.scrub.scrub, no_scrub)


@mutant(
    kills=["REQ-04-23"],
    seed="SPEC-04 §3.7 REQ-04-23: 'Each field MUST include a concise summary' (the example "
    'shows "help": "Unique reference for this sales order")',
    select="REQ-04-23 and summarises",
    features=["tools_meta.feature"],
)
def fields_get_drops_help() -> None:
    """odoo_core_fields_get leaves every field's help out of its summary."""

    def post(data: dict[str, Any]) -> dict[str, Any]:
        fields = data.get("fields") or {}
        data["fields"] = {
            name: {k: v for k, v in info.items() if k != "help"} if isinstance(info, dict) else info
            for name, info in fields.items()
        }
        return data

    wrap_tool("odoo_core_fields_get", post)


@mutant(
    kills=["REQ-04-26"],
    seed="SPEC-04 §3.8 REQ-04-26: 'Known methods that do NOT accept kwargs (from the "
    "`NO_KWARGS_METHODS` set) MUST have kwargs stripped' (the set names copy, read and "
    "search_read)",
    select="REQ-04-26 and never_reach",
    features=["tools_execute.feature"],
)
def execute_keeps_kwargs_of_read_and_copy() -> None:
    """odoo_core_execute's NO_KWARGS_METHODS lacks copy, read and search_read (which take
    keyword arguments in Odoo): their kwargs reach Odoo."""
    from odoo_mcp.tools.core_execute import NO_KWARGS_METHODS

    patch_everywhere(NO_KWARGS_METHODS, NO_KWARGS_METHODS - {"copy", "read", "search_read"})


@mutant(
    kills=["REQ-04-27"],
    seed='SPEC-04 §3.8 REQ-04-27: \'the response MUST include a summary\' ("summary": "Opens '
    'stock.picking form view for record 42")',
    select="REQ-04-27 and summary",
    features=["tools_execute.feature"],
)
def action_summary_names_nothing() -> None:
    """odoo_core_execute summarises every action as "Opens a window", naming neither its model
    nor its record."""

    def post(data: dict[str, Any]) -> dict[str, Any]:
        if isinstance(data.get("action"), dict):
            data["action"]["summary"] = "Opens a window"
        return data

    wrap_tool("odoo_core_execute", post)


@mutant(
    kills=["REQ-04-36"],
    seed="SPEC-04 §4 REQ-04-36: 'Binary fields (type binary) MUST NOT be returned in "
    "search_read or read results by default.' (odoo_core_execute's read and search_read too)",
    select="every_path and res.partner-json2",
    features=["normalization.feature"],
)
def execute_reads_binary_fields_unasked() -> None:
    """odoo_core_execute's read and search_read without a field list ask Odoo for every
    field, binary ones included, and return them."""
    import odoo_mcp.tools.core_execute as core_execute

    def every_field(ctx: Any, model: str, fields: Any, *, stored_only: bool) -> list[str]:
        return [name for name in fields if not ctx.policy.is_field_blocked(model, name)]

    core_execute.unnamed_read_fields = every_field  # type: ignore[assignment]


@mutant(
    kills=["REQ-04-33"],
    seed='SPEC-04 §3.11 REQ-04-33: \'Return: {"models": [{..., "field_count": 85, ...}]}\'',
    select="REQ-04-33",
    features=["tools_models.feature"],
)
def list_models_no_field_count_without_ir_model_fields() -> None:
    """odoo_core_list_models gives field_count null to a user Odoo refuses ir.model.fields
    (the demo user) when the server holds no metadata of the model yet."""
    import odoo_mcp.tools.core_models as core_models

    async def uncounted(ctx: Any, models: list[str]) -> dict[str, int]:
        return {}

    core_models._fields_get_counts = uncounted  # type: ignore[assignment]
