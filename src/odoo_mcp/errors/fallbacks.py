"""SPEC-10 §4: class-, text- and status-level classification when no pattern matched.

Order (most specific first): the exception class (REQ-10-07, which also covers the XML-RPC
faults of REQ-10-05 because the connection layer turns fault codes into classes), then the
substrings of REQ-10-05 over the message and traceback, then the HTTP status of REQ-10-08 —
the last only for answers that carry no Python exception class (werkzeug errors, proxies),
since JSON-2 answers an ordinary ``ValueError`` with HTTP 500 too.
"""

from __future__ import annotations

from typing import Final

from odoo_mcp.errors.categories import ErrorCategory, ErrorCode

__all__ = ["by_class", "by_connection_kind", "by_status", "by_text", "is_python_class"]

Classified = tuple[ErrorCategory, ErrorCode]

_V, _A, _N, _C = (
    ErrorCategory.VALIDATION,
    ErrorCategory.ACCESS,
    ErrorCategory.NOT_FOUND,
    ErrorCategory.CONSTRAINT,
)

#: REQ-10-07: ``data.name`` (JSON-RPC, JSON-2) or the class behind an XML-RPC fault.
CLASS_TABLE: Final[dict[str, Classified]] = {
    "odoo.exceptions.ValidationError": (_V, ErrorCode.VALIDATION_ERROR),
    "odoo.exceptions.UserError": (_V, ErrorCode.USER_ERROR),
    "odoo.exceptions.AccessError": (_A, ErrorCode.ACCESS_DENIED),
    "odoo.exceptions.MissingError": (_N, ErrorCode.NOT_FOUND),
    "odoo.exceptions.AccessDenied": (_A, ErrorCode.ACCESS_DENIED),
    "odoo.exceptions.RedirectWarning": (_V, ErrorCode.REDIRECT_WARNING),
    "builtins.ValueError": (_V, ErrorCode.VALUE_ERROR),
    "psycopg2.errors.UniqueViolation": (_C, ErrorCode.UNIQUE_VIOLATION),
    "psycopg2.errors.CheckViolation": (_C, ErrorCode.CHECK_CONSTRAINT),
    "psycopg2.errors.ForeignKeyViolation": (_C, ErrorCode.FK_VIOLATION),
}

#: REQ-10-05: substrings of the fault text, in the spec's order, after the class checks.
TEXT_RULES: Final[tuple[tuple[tuple[str, ...], Classified], ...]] = (
    (("unique", "duplicate"), (_C, ErrorCode.UNIQUE_VIOLATION)),
    (("check constraint",), (_C, ErrorCode.CHECK_CONSTRAINT)),
    (("foreign key",), (_C, ErrorCode.FK_VIOLATION)),
    (("ir.actions",), (ErrorCategory.WIZARD, ErrorCode.WIZARD_REQUIRED)),
)


def by_class(error_class: str | None) -> Classified | None:
    """REQ-10-07: classification by exception class (``data.name``)."""
    return CLASS_TABLE.get(error_class) if error_class else None


def by_text(text: str) -> Classified | None:
    """REQ-10-05: "unique"/"duplicate", "check constraint", "foreign key", "ir.actions"."""
    lowered = text.lower()
    for needles, classified in TEXT_RULES:
        if any(needle in lowered for needle in needles):
            return classified
    return None


def is_python_class(error_class: str | None) -> bool:
    """True for a Python exception raised inside Odoo (not a werkzeug HTTP error)."""
    return bool(error_class) and not str(error_class).startswith("werkzeug.")


def by_status(status: int | None) -> Classified | None:
    """REQ-10-08: HTTP 401/403, 404, 429 and 5xx; 422 (werkzeug) is a validation refusal.

    401/403 mean the session or key was refused after the connection layer re-authenticated
    (decision 7), hence access and no retry.
    """
    if status is None:
        return None
    if status in (401, 403):
        return ErrorCategory.ACCESS, ErrorCode.SESSION_EXPIRED
    if status == 404:
        return ErrorCategory.CONNECTION, ErrorCode.ENDPOINT_NOT_FOUND
    if status == 429:
        return ErrorCategory.RATE_LIMIT, ErrorCode.RATE_LIMITED
    if status >= 500:
        return ErrorCategory.CONNECTION, ErrorCode.SERVER_ERROR
    if status == 422:
        return ErrorCategory.VALIDATION, ErrorCode.VALIDATION_ERROR
    return None


def by_connection_kind(kind: str, status: int | None) -> Classified:
    """REQ-10-08: ``OdooConnectionError.kind`` (refused, timeout, http_status, ...) to a code."""
    if kind == "refused":
        return ErrorCategory.CONNECTION, ErrorCode.CONNECTION_REFUSED
    if kind == "timeout":
        return ErrorCategory.CONNECTION, ErrorCode.TIMEOUT
    if kind == "rate_limited":
        return ErrorCategory.RATE_LIMIT, ErrorCode.RATE_LIMITED
    if kind == "http_status" and (classified := by_status(status)) is not None:
        return classified
    return ErrorCategory.CONNECTION, ErrorCode.CONNECTION_ERROR
