"""SPEC-10 §10: how a classified error is logged (REQ-10-18/19).

One warning or error record per failed call, with the operation context (model, method,
sanitized arguments, code), and one debug record with the full original error and traceback.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import Final

from odoo_mcp.errors.categories import ErrorCategory
from odoo_mcp.errors.response import ErrorResponse
from odoo_mcp.errors.sanitize import sanitize_args

__all__ = ["LOG_LEVELS", "log_error", "log_level"]

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


def log_error(
    response: ErrorResponse,
    *,
    model: str | None = None,
    method: str | None = None,
    args: Sequence[object] = (),
    kwargs: Mapping[str, object] | None = None,
    target: logging.Logger | None = None,
) -> None:
    """REQ-10-19: log the operation context (model, method, sanitized args, code).

    REQ-10-18: the level follows the category; the full original error and traceback go to
    a separate debug record, never to the client.
    """
    log = target or logger
    context = {
        "model": model,
        "method": method,
        "args": sanitize_args(list(args)),
        "kwargs": sanitize_args(dict(kwargs or {})),
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
