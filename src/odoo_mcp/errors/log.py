"""SPEC-10 §10: how a classified error is logged (REQ-10-18/19).

One warning or error record per failed call, with the operation context (model, method,
sanitized arguments, code), and one debug record with the full original error and traceback.
Neither holds a blocked field's value (issue 37): the arguments and every text of the error
go through the call's :class:`~odoo_mcp.safety.scrub.Redaction`, and so does the error
answer sent to the client (:func:`redact_response`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import Final

from odoo_mcp.errors.categories import ErrorCategory
from odoo_mcp.errors.response import ErrorResponse
from odoo_mcp.errors.sanitize import sanitize_args
from odoo_mcp.safety.scrub import DEFAULT_REDACTION, Redaction

__all__ = ["LOG_LEVELS", "log_error", "log_level", "redact_response"]

logger = logging.getLogger("odoo_mcp.errors")

#: REQ-10-18: user-recoverable categories log a warning; the rest may need intervention.
LOG_LEVELS: Final[dict[ErrorCategory, int]] = {
    ErrorCategory.VALIDATION: logging.WARNING,
    ErrorCategory.STATE: logging.WARNING,
    ErrorCategory.NOT_FOUND: logging.WARNING,
    ErrorCategory.CONSTRAINT: logging.WARNING,
    ErrorCategory.WIZARD: logging.WARNING,
    ErrorCategory.RATE_LIMIT: logging.WARNING,
    ErrorCategory.ACCESS: logging.ERROR,
    ErrorCategory.CONNECTION: logging.ERROR,
    ErrorCategory.CONFIGURATION: logging.ERROR,
    ErrorCategory.UNKNOWN: logging.ERROR,
}


def log_level(category: ErrorCategory) -> int:
    """REQ-10-18: warning for validation/state/not_found (and the other recoverable ones),
    error for access/connection/unknown (and configuration)."""
    return LOG_LEVELS[category]


def redact_response(response: ErrorResponse, redaction: Redaction) -> ErrorResponse:
    """REQ-11-14 (issue 37): ``response`` without the call's blocked values in any of its
    texts (message, suggestion, details, original error, traceback): Odoo's message may
    quote what it was sent. The same object when nothing is removed."""
    if not redaction.values:
        return response
    update: dict[str, object] = {}
    for name in ("message", "suggestion", "original_error", "traceback"):
        text = getattr(response, name)
        if isinstance(text, str) and (cleaned := redaction.text(text)) != text:
            update[name] = cleaned
    if response.details is not None:
        details = redaction.texts(response.details)
        if details != response.details:
            update["details"] = details
    return response.model_copy(update=update) if update else response


def log_error(
    response: ErrorResponse,
    *,
    model: str | None = None,
    method: str | None = None,
    args: Sequence[object] = (),
    kwargs: Mapping[str, object] | None = None,
    target: logging.Logger | None = None,
    redaction: Redaction | None = None,
) -> None:
    """REQ-10-19: log the operation context (model, method, sanitized args, code).

    REQ-10-18: the level follows the category; the full original error and traceback go to
    a separate debug record, never to the client. REQ-11-14 (issue 37): no blocked value in
    either record, through ``redaction`` (the server's blocklist and the call's values).
    """
    log = target or logger
    redaction = redaction or DEFAULT_REDACTION  # no list at hand: the built-in one
    response = redact_response(response, redaction)
    context = {
        "model": model,
        "method": method,
        "args": sanitize_args(list(args), redaction=redaction),
        "kwargs": sanitize_args(dict(kwargs or {}), redaction=redaction),
        "category": response.category.value,
        "code": response.code,
    }
    log.log(
        log_level(response.category),
        "%s.%s failed: %s %s (%s) args=%s kwargs=%s",
        model or "-",
        method or "-",
        response.category.value,
        response.code,
        response.message,
        json.dumps(context["args"], ensure_ascii=False, default=str),
        json.dumps(context["kwargs"], ensure_ascii=False, default=str),
        extra={"odoo_error": context},
    )
    if log.isEnabledFor(logging.DEBUG):
        log.debug(
            "%s.%s original error: %s\ncontext: %s\n%s",
            model or "-",
            method or "-",
            response.original_error,
            json.dumps(context, ensure_ascii=False, default=str),
            response.traceback or "(no traceback)",
        )
