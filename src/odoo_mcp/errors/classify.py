"""SPEC-10 §4 and L2/10a: the one classifier, from any exception to an ErrorResponse.

Order for an Odoo error: pattern database (first match wins, REQ-10a-02), then the exception
class (REQ-10-07 / REQ-10-05), the fault text (REQ-10-05), the HTTP status (REQ-10-08), and
finally ``unknown``. Connection-layer errors that carry no Odoo answer are classified by their
kind; an expired session reaches here only after re-authentication failed (decision 7).
"""

from __future__ import annotations

import xmlrpc.client
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import httpx2
from pydantic import JsonValue

from odoo_mcp.connection.errors import (
    OdooAuthenticationError,
    OdooConfigurationError,
    OdooConnectionError,
    OdooRateLimited,
    OdooRpcError,
    OdooSessionExpired,
)
from odoo_mcp.connection.resend import what_to_check
from odoo_mcp.errors import fallbacks
from odoo_mcp.errors.categories import (
    DEFAULT_RATE_LIMIT_RETRY_AFTER,
    ErrorCategory,
    ErrorCode,
    default_retry_after,
    retry_for,
)
from odoo_mcp.errors.response import ErrorResponse, ToolError
from odoo_mcp.errors.suggestions import FieldLookup, code_suggestion, field_type_help

if TYPE_CHECKING:
    from odoo_mcp.errors.extract import ParsedError

__all__ = ["SpecShapedError", "classify", "classify_rpc_error", "wizard_required"]

_UNKNOWN_PREFIX = "Odoo error: "
#: the class the connection layer names for an XML-RPC fault 2 (the UserError family)
_USER_ERROR = "odoo.exceptions.UserError"
_MAX_MESSAGE = 500


@runtime_checkable
class SpecShapedError(Protocol):
    """Any refusal already in SPEC-10 shape (``safety.SafetyError``, ``domain.DomainError``)."""

    code: str
    category: str
    message: str
    suggestion: str


def _response(
    category: ErrorCategory,
    code: str,
    message: str,
    suggestion: str,
    details: Mapping[str, JsonValue] | None = None,
    *,
    retry_after: float | None = None,
    original_error: str | None = None,
    traceback: str | None = None,
) -> ErrorResponse:
    """REQ-10-15: retry and retry_after follow the category."""
    return ErrorResponse(
        category=category,
        code=code,
        message=message,
        details={k: v for k, v in (details or {}).items() if v not in (None, "")} or None,
        suggestion=suggestion,
        retry=retry_for(category),
        retry_after=retry_after if retry_after is not None else default_retry_after(category),
        original_error=original_error,
        traceback=traceback,
    )


def classify_rpc_error(
    exc: OdooRpcError,
    *,
    model: str | None = None,
    method: str | None = None,
    fields: FieldLookup | None = None,
) -> ErrorResponse:
    """REQ-10-05: XML-RPC faults, REQ-10-07: JSON errors, REQ-10-11: via the pattern database."""
    # deferred: cold start, issue 17 (the pattern database loads at the first Odoo error)
    from odoo_mcp.errors.extract import extract_context, fill, match_pattern, parse_rpc_error

    parsed = parse_rpc_error(exc)
    found = extract_context(parsed.message)
    match = match_pattern(parsed.message, parsed.candidates)
    groups = match.groups if match else {}
    if groups.get("field_label") and not groups.get("field") and "field_label" not in found:
        # REQ-10-06: Odoo named the field by its label only ("The field 'Customer' is
        # required"); the word after "field" is not a technical name
        found.pop("field", None)
    # REQ-10-06: a model Odoo's message names (a MissingError on a many2one's comodel) wins
    # over the one the call was on
    model = groups.get("model") or found.get("model") or model or exc.model
    method = method or exc.method or groups.get("method")
    field = groups.get("field") or found.get("field") or ""
    hint = fields(model, field) if fields and model and field else None
    details: dict[str, JsonValue] = {**found, **{k: v for k, v in groups.items() if v}}
    details.update(model=model, method=method)
    if hint is not None:
        details.update(field_label=hint.label, field_type=hint.type, field_relation=hint.relation)
    values = {k: str(v) for k, v in details.items() if isinstance(v, str)}
    values.update(model=model or "unknown", field_type_help=field_type_help(hint, model or ""))
    values["odoo_message"] = (parsed.message.splitlines() or [""])[0][:200]
    if match is not None:
        pattern = match.pattern
        message = fill(pattern.message_template, values)
        suggestion = fill(pattern.suggestion_template, values)
        category, code = pattern.category, pattern.code
        return _response(
            category,
            code,
            message,
            suggestion,
            details,
            original_error=parsed.final_line,
            traceback=parsed.traceback,
        )
    classified = (
        _warning_text(parsed)
        or fallbacks.by_class(parsed.error_class)
        or fallbacks.by_text(f"{parsed.message}\n{parsed.traceback or ''}")
        or (None if fallbacks.is_python_class(parsed.error_class) else _status(exc))
    )
    if classified is None:
        message = _UNKNOWN_PREFIX + parsed.message[:200]
        category, code = ErrorCategory.UNKNOWN, ErrorCode.UNKNOWN_ERROR
    else:
        (category, code), message = classified, parsed.message[:_MAX_MESSAGE]
    suggestion = code_suggestion(code, category, model)
    return _response(
        category,
        code,
        message,
        suggestion,
        details,
        original_error=parsed.final_line,
        traceback=parsed.traceback,
    )


def _warning_text(parsed: ParsedError) -> fallbacks.Classified | None:
    """REQ-10-05: an XML-RPC fault 2 (Odoo's warnings) carries its message alone, so the
    table's class rows ("faultString contains UserError", ...) cannot match it: its text rows
    ("unique"/"duplicate", "check constraint", "foreign key", "ir.actions") come before the
    fault code's UserError family. Only where no pattern matched (decision 22)."""
    if parsed.class_on_wire or parsed.error_class != _USER_ERROR:
        return None
    return fallbacks.by_text(parsed.message)


def _status(exc: OdooRpcError) -> fallbacks.Classified | None:
    return fallbacks.by_status(exc.http_status)


def _connection(exc: OdooConnectionError) -> ErrorResponse:
    """REQ-10-08: refused, timeout, HTTP status (401/403: access) and dropped/malformed
    answers; REQ-10-15."""
    from odoo_mcp.errors.extract import fill, match_pattern  # deferred: cold start, issue 17

    details: dict[str, JsonValue] = {
        "kind": exc.kind,
        "request_sent": exc.request_sent,
        "http_status": exc.http_status,
        "protocol": exc.protocol,
    }
    if exc.unconfirmed is not None:
        details["odoo_call"] = ".".join(exc.unconfirmed)
        details["sent_again"] = False
    if isinstance(exc, OdooRateLimited):
        wait = exc.retry_after if exc.retry_after is not None else DEFAULT_RATE_LIMIT_RETRY_AFTER
        suggestion = f"Odoo is rate limiting requests. Wait {wait:g} seconds, then retry."
        suggestion += _check_first(exc)
        return _response(
            ErrorCategory.RATE_LIMIT,
            ErrorCode.RATE_LIMITED,
            exc.message,
            suggestion,
            details,
            retry_after=wait,
        )
    if exc.http_status in (401, 403):
        # REQ-10-08: whatever the transport made of the body (an HTML page where XML-RPC or
        # JSON-2 expected their own format), a 401/403 means the session or the credentials
        # were refused after the connection layer tried again (decision 7).
        message = (
            f"Odoo or a proxy in front of it refused the request (HTTP {exc.http_status}): "
            "the session or the credentials are no longer accepted"
        )
        expired = ErrorCode.SESSION_EXPIRED
        suggestion = code_suggestion(expired, ErrorCategory.ACCESS)
        return _response(ErrorCategory.ACCESS, expired, message, suggestion, details)
    match = match_pattern(exc.message)
    category: ErrorCategory
    code: str
    if match is not None and match.pattern.category is ErrorCategory.CONNECTION:
        category, code = match.pattern.category, match.pattern.code
        suggestion = fill(match.pattern.suggestion_template, {})
    else:
        category, code = fallbacks.by_connection_kind(exc.kind, exc.http_status)
        suggestion = code_suggestion(code, category)
    if exc.request_sent and category is ErrorCategory.CONNECTION:
        suggestion += _check_first(exc) or (
            " The request may have reached Odoo: before repeating a change, check whether it "
            "was applied (odoo_core_search_read)."
        )
    return _response(category, code, exc.message, suggestion, details)


def _check_first(exc: OdooConnectionError) -> str:
    """REQ-10-15 (issue 37): ``retry`` follows the category, so a change whose effect is
    unknown says what to check before it is repeated (``resend.what_to_check``)."""
    if exc.unconfirmed is None:
        return ""
    model, method = exc.unconfirmed
    return (
        f" The request may have reached Odoo and {model}.{method} may have been applied: "
        f"before repeating it, {what_to_check(model, method)}."
    )


def _spec_shaped(exc: SpecShapedError) -> ErrorResponse:
    """REQ-10-03: a refusal already in SPEC-10 shape keeps its own fields; REQ-10-15: but
    its retry is its category's."""
    try:
        category = ErrorCategory(exc.category)
    except ValueError:
        category = ErrorCategory.UNKNOWN
    raw = getattr(exc, "details", None)
    details: dict[str, JsonValue] = dict(raw) if isinstance(raw, Mapping) else {}
    example = getattr(exc, "example", None)
    if isinstance(example, list) and example:
        details["example"] = example
    retry_after = getattr(exc, "retry_after", None)
    # REQ-10-15: the refusal's own ``retry`` attribute is not read: retry follows the category
    return _response(
        category,
        str(exc.code),
        exc.message,
        exc.suggestion,
        details,
        retry_after=float(retry_after) if isinstance(retry_after, int | float) else None,
    )


def classify(
    exc: BaseException,
    *,
    model: str | None = None,
    method: str | None = None,
    fields: FieldLookup | None = None,
) -> ErrorResponse:
    """REQ-10-01: every exception becomes exactly one categorised ErrorResponse.

    ``model`` and ``method`` are the tool call's context; ``fields`` looks up field metadata
    (label, type, relation) to enrich details and suggestions (REQ-10-02, REQ-10-09).
    """
    if isinstance(exc, ToolError):
        return exc.to_response()
    if isinstance(exc, OdooRpcError):
        return classify_rpc_error(exc, model=model, method=method, fields=fields)
    if isinstance(exc, xmlrpc.client.Fault):
        rpc = OdooRpcError.from_xmlrpc_fault(exc.faultCode, exc.faultString)
        return classify_rpc_error(rpc, model=model, method=method, fields=fields)
    if isinstance(exc, OdooConnectionError):
        return _connection(exc)
    if isinstance(exc, OdooSessionExpired | OdooAuthenticationError):
        return _access(exc)
    if isinstance(exc, OdooConfigurationError):
        return _response(
            ErrorCategory.CONFIGURATION,
            ErrorCode.CONFIG_ERROR,
            exc.message,
            code_suggestion(ErrorCode.CONFIG_ERROR, ErrorCategory.CONFIGURATION),
        )
    if isinstance(exc, SpecShapedError):
        return _spec_shaped(exc)
    return _network_or_unknown(exc)


def _access(exc: OdooSessionExpired | OdooAuthenticationError) -> ErrorResponse:
    """REQ-10-08 / decision 7: an expiry that re-authentication could not cure; bad login."""
    expired = isinstance(exc, OdooSessionExpired) or isinstance(exc.__cause__, OdooSessionExpired)
    code = ErrorCode.SESSION_EXPIRED if expired else ErrorCode.ACCESS_DENIED
    details: dict[str, JsonValue] = {"protocol": exc.protocol}
    suggestion = code_suggestion(code, ErrorCategory.ACCESS)
    return _response(ErrorCategory.ACCESS, code, exc.message, suggestion, details)


def _network_or_unknown(exc: BaseException) -> ErrorResponse:
    """REQ-10-08: raw httpx / socket failures; REQ-10-05: ProtocolError; else unknown."""
    if isinstance(exc, httpx2.ConnectError | ConnectionRefusedError):
        classified = fallbacks.by_connection_kind("refused", None)
    elif isinstance(exc, httpx2.TimeoutException | TimeoutError):
        classified = fallbacks.by_connection_kind("timeout", None)
    elif isinstance(exc, xmlrpc.client.ProtocolError | httpx2.TransportError | ConnectionError):
        classified = fallbacks.by_connection_kind("dropped", None)
    else:
        category = ErrorCategory.UNKNOWN
        message = f"Unexpected server error ({type(exc).__name__})"
        suggestion = code_suggestion(ErrorCode.UNKNOWN_ERROR, category)
        return _response(category, ErrorCode.UNKNOWN_ERROR, message, suggestion)
    category, code = classified
    message = f"Cannot talk to Odoo: {type(exc).__name__}"
    return _response(category, code, message, code_suggestion(code, category))


def wizard_required(
    action: Mapping[str, JsonValue], *, model: str | None = None, method: str | None = None
) -> ErrorResponse:
    """REQ-10-01: a method answered with a wizard action (``ir.actions.act_window``).

    Not an Odoo error: the caller decides that this result means "wizard required" (e.g.
    ``button_validate`` answering ``stock.backorder.confirmation``) and reports it this way.
    """
    wizard = action.get("res_model")
    details: dict[str, JsonValue] = {
        "model": model,
        "method": method,
        "wizard_model": wizard,
        "action_name": action.get("name"),
        "context": action.get("context"),
    }
    message = f"{model or 'The'}.{method or 'call'} needs the wizard {wizard} to be completed"
    suggestion = (
        f"Create the wizard with odoo_core_create (model='{wizard}') using the returned "
        "context values, then call its confirmation button (e.g. 'process') with "
        "odoo_core_execute."
    )
    return _response(ErrorCategory.WIZARD, ErrorCode.WIZARD_REQUIRED, message, suggestion, details)
