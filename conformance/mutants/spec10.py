"""Mutants of SPEC-10, error handling (see registry.py)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from _sabotage import patch_everywhere
from registry import mutant


def _edit_payload(edit: Callable[[dict[str, Any]], None]) -> None:
    """Every error object the server sends goes through ``edit`` first."""
    from odoo_mcp.errors import response

    original = response.to_payload

    def broken(error: Any) -> Any:
        payload = original(error)
        edit(payload)
        return payload

    patch_everywhere(original, broken)


# -- REQ-10-01: the ten categories --------------------------------------------------------
@mutant(
    kills=["REQ-10-01"],
    seed="SPEC-10 §2: 'All errors MUST be classified into one of these categories' "
    "(`constraint`: 'Database constraint violation (unique, check, foreign key)')",
)
def constraint_category_renamed() -> None:
    """Constraint violations are reported in a category "integrity", none of the ten."""

    def edit(payload: dict[str, Any]) -> None:
        if payload.get("category") == "constraint":
            payload["category"] = "integrity"

    _edit_payload(edit)


@mutant(
    kills=["REQ-10-01"],
    seed="SPEC-10 §2: '| `unknown` | `UNKNOWN_ERROR` | Unclassified error | Report to user |'",
    select="REQ-10-01 and not REQ-10-05",
)
def unknown_error_coded_odoo_error() -> None:
    """Unclassified errors are coded ODOO_ERROR instead of the unknown category's UNKNOWN_ERROR."""

    def edit(payload: dict[str, Any]) -> None:
        if payload.get("code") == "UNKNOWN_ERROR":
            payload["code"] = "ODOO_ERROR"

    _edit_payload(edit)


# -- REQ-10-02/03/04: the error object ----------------------------------------------------
@mutant(
    kills=["REQ-10-03"],
    seed="SPEC-10 §3: '`error`: always `true`'",
)
def error_flag_not_true() -> None:
    """Error objects say "error": false."""

    def edit(payload: dict[str, Any]) -> None:
        if "category" in payload:
            payload["error"] = False

    _edit_payload(edit)


@mutant(
    kills=["REQ-10-02", "REQ-10-04"],
    seed="SPEC-10 §3: 'Every error response MUST follow this structure' (details is an "
    "object of model, field, ...) and '`details`: structured data about the error context'",
)
def error_details_as_text() -> None:
    """Error objects carry details as one line of text instead of the structure's object
    (leaving details or original_error out would be legal: REQ-10-04 makes them optional)."""

    def edit(payload: dict[str, Any]) -> None:
        if isinstance(payload.get("details"), dict):
            payload["details"] = ", ".join(f"{k}={v}" for k, v in payload["details"].items())

    _edit_payload(edit)


@mutant(
    kills=["REQ-10-04"],
    seed="SPEC-10 §3: '`original_error`: raw Odoo error string (for debugging, not for LLM "
    "consumption)'",
)
def original_error_not_odoos() -> None:
    """original_error carries the server's own code instead of Odoo's raw error string."""

    def edit(payload: dict[str, Any]) -> None:
        if "original_error" in payload:
            payload["original_error"] = str(payload.get("code"))

    _edit_payload(edit)


# -- REQ-10-05/06/07/08: classification ---------------------------------------------------
@mutant(
    kills=["REQ-10-05"],
    seed="SPEC-10 §4.1: '`faultString` contains \"ir.actions\" | `wizard` | `WIZARD_REQUIRED`'",
)
def xmlrpc_ir_actions_coded_state_error() -> None:
    """An XML-RPC fault saying "ir.actions" is coded STATE_ERROR (its category stays wizard)."""
    from odoo_mcp.errors import fallbacks
    from odoo_mcp.errors.categories import ErrorCategory, ErrorCode

    rules = tuple(
        ((needles, (ErrorCategory.WIZARD, ErrorCode.STATE_ERROR)))
        if needles == ("ir.actions",)
        else (needles, classified)
        for needles, classified in fallbacks.TEXT_RULES
    )
    fallbacks.TEXT_RULES = rules  # type: ignore[misc]


@mutant(
    kills=["REQ-10-06"],
    seed="SPEC-10 §4.1: 'If the message references a model name, extract it.'",
)
def model_not_extracted() -> None:
    """details.model is always the model the call was on, never the one Odoo's message names."""
    from odoo_mcp.errors.classify import classify_rpc_error as original

    def broken(exc: Any, **kwargs: Any) -> Any:
        response = original(exc, **kwargs)
        details = dict(response.details or {})
        details["model"] = kwargs.get("model") or exc.model
        return response.model_copy(update={"details": details})

    patch_everywhere(original, broken)


@mutant(
    kills=["REQ-10-07"],
    seed="SPEC-10 §4.2: '`odoo.exceptions.RedirectWarning` | `validation` | `REDIRECT_WARNING`'",
)
def redirect_warning_as_user_error() -> None:
    """A RedirectWarning (data.name) is coded USER_ERROR."""
    from odoo_mcp.errors import fallbacks
    from odoo_mcp.errors.categories import ErrorCategory, ErrorCode

    fallbacks.CLASS_TABLE["odoo.exceptions.RedirectWarning"] = (
        ErrorCategory.VALIDATION,
        ErrorCode.USER_ERROR,
    )


@mutant(
    kills=["REQ-10-08"],
    seed="SPEC-10 §4.3: 'HTTP 404 | `connection` | `ENDPOINT_NOT_FOUND`'",
)
def http_404_as_server_error() -> None:
    """Odoo answering HTTP 404 is coded SERVER_ERROR."""
    from odoo_mcp.errors import fallbacks
    from odoo_mcp.errors.categories import ErrorCategory, ErrorCode

    original = fallbacks.by_status

    def broken(status: int | None) -> Any:
        if status == 404:
            return ErrorCategory.CONNECTION, ErrorCode.SERVER_ERROR
        return original(status)

    fallbacks.by_status = broken


@mutant(
    kills=["REQ-10-08"],
    seed="SPEC-10 §4.3: '`httpx.TimeoutException` | `connection` | `TIMEOUT`'",
)
def timeout_as_connection_error() -> None:
    """An Odoo that does not answer in time is coded CONNECTION_ERROR, not TIMEOUT (whether a
    pattern or the fallback by kind found TIMEOUT: the answer is what the seed judges)."""

    def edit(payload: dict[str, Any]) -> None:
        if payload.get("code") == "TIMEOUT":
            payload["code"] = "CONNECTION_ERROR"

    _edit_payload(edit)


# -- REQ-10-09/10/11: suggestions and the pattern database --------------------------------
@mutant(
    kills=["REQ-10-09"],
    seed="SPEC-10 §5.1: 'Invalid value for selection field `X`' -> \"Valid values for '{X}' "
    'are: {selection_values}"',
)
def selection_suggestion_without_values() -> None:
    """A value no selection allows gets a suggestion that names the tool but not the values."""

    def edit(payload: dict[str, Any]) -> None:
        if payload.get("code") in ("WRONG_VALUE", "INVALID_SELECTION"):
            payload["suggestion"] = "Check your input with odoo_core_fields_get."

    _edit_payload(edit)


@mutant(
    kills=["REQ-10-10"],
    seed="SPEC-10 §5: 'Suggestions MUST reference specific tool names when recommending actions'",
)
def suggestion_without_tool() -> None:
    """Suggestions never name the tool to use: "odoo_core_x" becomes "the x tool"."""
    import re

    def edit(payload: dict[str, Any]) -> None:
        suggestion = payload.get("suggestion")
        if isinstance(suggestion, str):
            payload["suggestion"] = re.sub(r"odoo_core_(\w+)", r"the \1 tool", suggestion)

    _edit_payload(edit)


@mutant(
    kills=["REQ-10-11", "REQ-10a-01", "REQ-10a-02"],
    seed="SPEC-10 §6: 'The error handler MUST maintain a pattern database that maps known "
    "Odoo error strings to structured responses' (L2/10a: ST-002)",
)
def pattern_database_without_st_002() -> None:
    """The pattern database lacks ST-002 (a quotation that must be in draft)."""
    import odoo_mcp.errors.patterns_odoo19  # noqa: F401  (registers its patterns first)
    from odoo_mcp.errors.patterns import ERROR_PATTERNS

    ERROR_PATTERNS[:] = [p for p in ERROR_PATTERNS if p.id != "ST-002"]


# -- REQ-10-15: retry ---------------------------------------------------------------------
@mutant(
    kills=["REQ-10-15"],
    seed="SPEC-10 §8: '`constraint` | `true` | After changing the conflicting value'",
)
def constraint_error_not_retried() -> None:
    """Constraint errors say retry false."""
    from odoo_mcp.errors import categories
    from odoo_mcp.errors.categories import ErrorCategory

    original = categories.retry_for

    def broken(category: ErrorCategory) -> bool:
        return category is not ErrorCategory.CONSTRAINT and original(category)

    patch_everywhere(original, broken)


@mutant(
    kills=["REQ-10-15"],
    seed="SPEC-10 §8: '`rate_limit` | `true` | After waiting (include `retry_after` in seconds)'",
)
def rate_limit_without_retry_after() -> None:
    """Rate-limit errors give no retry_after."""

    def edit(payload: dict[str, Any]) -> None:
        if payload.get("category") == "rate_limit":
            payload.pop("retry_after", None)

    _edit_payload(edit)


# -- REQ-10-16/17: MCP error codes --------------------------------------------------------
@mutant(
    kills=["REQ-10-16"],
    seed="SPEC-10 §9: '`InvalidParams` (-32602) | Invalid tool parameters (schema validation)'",
)
def invalid_params_as_internal_error() -> None:
    """Arguments that break a tool's schema are JSON-RPC error -32603."""
    from mcp import MCPError
    from mcp.types import INTERNAL_ERROR

    from odoo_mcp.adapter import errors as protocol

    original = protocol.invalid_params_error

    def broken(tool: str, error: Any) -> MCPError:
        found = original(tool, error)
        return MCPError(INTERNAL_ERROR, found.error.message, found.error.data)

    patch_everywhere(original, broken)


@mutant(
    kills=["REQ-10-17"],
    seed="SPEC-10 §9: 'For Odoo-specific errors (validation, access, etc.), the server MUST "
    "return them as tool results with `isError: true`, NOT as MCP protocol errors'",
    select="REQ-10-17 and not REQ-10-01",
)
def odoo_error_as_protocol_error() -> None:
    """Odoo and safety errors are JSON-RPC errors -32603 instead of isError tool results."""
    from mcp import MCPError
    from mcp.types import INTERNAL_ERROR

    from odoo_mcp.adapter import errors as protocol
    from odoo_mcp.errors.response import to_payload

    original = protocol.error_tool_result

    def broken(exc: BaseException, **kwargs: Any) -> Any:
        response, _result = original(exc, **kwargs)
        raise MCPError(INTERNAL_ERROR, response.message, to_payload(response))

    patch_everywhere(original, broken)


# -- REQ-10-18/19: the log ----------------------------------------------------------------
@mutant(
    kills=["REQ-10-18"],
    seed="SPEC-10 §10: '`warning` level for validation/state/not_found errors (user-recoverable)'",
)
def validation_logged_as_error() -> None:
    """Validation errors are logged at error level."""
    from odoo_mcp.errors.categories import ErrorCategory
    from odoo_mcp.errors.log import LOG_LEVELS

    LOG_LEVELS[ErrorCategory.VALIDATION] = logging.ERROR


@mutant(
    kills=["REQ-10-19"],
    seed="SPEC-10 §10: 'Error logs MUST include the operation context: model, method, args "
    "(sanitized — no passwords), and the classified error code.'",
)
def log_without_model() -> None:
    """Error log records leave out the model and the method."""
    from odoo_mcp.errors import log

    original = log.log_error

    def broken(response: Any, **kwargs: Any) -> None:
        kwargs.update(model=None, method=None)
        original(response, **kwargs)

    patch_everywhere(original, broken)


# -- round 4: rows the reference skipped (REQ-10-05, 10-09, 10-15, 10-04) --------------------
@mutant(
    kills=["REQ-10-05"],
    seed='SPEC-10 §4.1: \'`faultString` contains "unique" or "duplicate" | `constraint` | '
    '`UNIQUE_VIOLATION`\' (and the "check constraint" and "foreign key" rows)',
    select="xmlrpc_warning_saying",
    features=["errors.feature"],
)
def xmlrpc_warning_text_rows_skipped() -> None:
    """An XML-RPC fault 2 (Odoo's warnings, the message alone) is read by its fault code only:
    "duplicate", "unique", "check constraint" and "foreign key" texts are USER_ERROR."""
    from odoo_mcp.errors import classify

    patch_everywhere(classify._warning_text, lambda parsed: None)


@mutant(
    kills=["REQ-10-09"],
    seed="SPEC-10 §5.1: '| Invalid date format | \"Use format YYYY-MM-DD for dates, "
    "YYYY-MM-DD HH:MM:SS for datetimes\" |'",
    select="invalid_date",
    features=["errors.feature"],
)
def date_format_suggestion_generic() -> None:
    """An invalid date or datetime value gets the generic value-error suggestion, without the
    formats."""

    def edit(payload: dict[str, Any]) -> None:
        if "YYYY-MM-DD" in str(payload.get("suggestion")):
            payload["suggestion"] = (
                "A value, field name or domain was rejected. Check names and types with "
                "odoo_core_fields_get."
            )

    _edit_payload(edit)


@mutant(
    kills=["REQ-10-15"],
    seed="SPEC-10 §8: '| `validation` | `true` | After fixing the input |'",
    select="refusal_of_a_readonly",
    features=["errors.feature"],
)
def own_validation_refusal_not_retried() -> None:
    """The server's own validation refusals (no Odoo error behind them, such as a readonly
    field in odoo_core_write's values) say retry false."""

    def edit(payload: dict[str, Any]) -> None:
        if payload.get("category") == "validation" and "original_error" not in payload:
            payload["retry"] = False

    _edit_payload(edit)


@mutant(
    kills=["REQ-10-04"],
    seed="SPEC-10 §3: '`original_error`: raw Odoo error string (for debugging, not for LLM "
    "consumption)'",
    select="original_error_of_an_xmlrpc_warning",
    features=["errors.feature"],
)
def original_error_names_inferred_class() -> None:
    """original_error of an XML-RPC warning (fault 2, the message alone) is prefixed with the
    class the server inferred from the fault code, "odoo.exceptions.UserError: ..."."""

    import re

    def edit(payload: dict[str, Any]) -> None:
        original = payload.get("original_error")
        if isinstance(original, str) and not re.match(r"[\w.]+: ", original):
            payload["original_error"] = f"odoo.exceptions.UserError: {original}"

    _edit_payload(edit)
