"""SPEC-10 §2 and §8: the ten error categories, the known error codes and retry guidance.

A category says what kind of failure happened and what the LLM can do about it; a code is the
machine-readable reason inside a category. Codes are open-ended (a registered pattern may bring
its own), so ``ErrorResponse.code`` is a plain string; :class:`ErrorCode` names the ones this
package produces itself.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

__all__ = [
    "CATEGORY_CODES",
    "DEFAULT_CONNECTION_RETRY_AFTER",
    "DEFAULT_RATE_LIMIT_RETRY_AFTER",
    "ErrorCategory",
    "ErrorCode",
    "default_retry_after",
    "retry_for",
]


class ErrorCategory(StrEnum):
    """REQ-10-01: every error falls in exactly one of these ten categories."""

    VALIDATION = "validation"
    ACCESS = "access"
    NOT_FOUND = "not_found"
    CONSTRAINT = "constraint"
    STATE = "state"
    WIZARD = "wizard"
    CONNECTION = "connection"
    RATE_LIMIT = "rate_limit"
    CONFIGURATION = "configuration"
    UNKNOWN = "unknown"


class ErrorCode(StrEnum):
    """Codes of SPEC-10 (§2, §4), of the L2/10a pattern database and of the server itself."""

    # REQ-10-01: one generic code per category
    VALIDATION_ERROR = "VALIDATION_ERROR"
    ACCESS_DENIED = "ACCESS_DENIED"
    NOT_FOUND = "NOT_FOUND"
    CONSTRAINT_ERROR = "CONSTRAINT_ERROR"
    STATE_ERROR = "STATE_ERROR"
    WIZARD_REQUIRED = "WIZARD_REQUIRED"
    CONNECTION_ERROR = "CONNECTION_ERROR"
    RATE_LIMITED = "RATE_LIMITED"
    CONFIG_ERROR = "CONFIG_ERROR"
    UNKNOWN_ERROR = "UNKNOWN_ERROR"
    # REQ-10-05 / REQ-10-07: exception-class fallbacks
    USER_ERROR = "USER_ERROR"
    REDIRECT_WARNING = "REDIRECT_WARNING"
    VALUE_ERROR = "VALUE_ERROR"
    UNIQUE_VIOLATION = "UNIQUE_VIOLATION"
    CHECK_CONSTRAINT = "CHECK_CONSTRAINT"
    FK_VIOLATION = "FK_VIOLATION"
    # REQ-10-08: network and HTTP
    CONNECTION_REFUSED = "CONNECTION_REFUSED"
    TIMEOUT = "TIMEOUT"
    SESSION_EXPIRED = "SESSION_EXPIRED"
    ENDPOINT_NOT_FOUND = "ENDPOINT_NOT_FOUND"
    SERVER_ERROR = "SERVER_ERROR"
    # L2/10a pattern codes
    MISSING_REQUIRED_FIELD = "MISSING_REQUIRED_FIELD"
    INVALID_FIELD = "INVALID_FIELD"
    WRONG_VALUE = "WRONG_VALUE"
    SINGLETON_EXPECTED = "SINGLETON_EXPECTED"
    INVALID_SELECTION = "INVALID_SELECTION"
    TYPE_MISMATCH = "TYPE_MISMATCH"
    INVALID_INTEGER = "INVALID_INTEGER"
    OPERATION_NOT_ALLOWED = "OPERATION_NOT_ALLOWED"
    RECORD_RULE_VIOLATION = "RECORD_RULE_VIOLATION"
    MODEL_ACCESS_DENIED = "MODEL_ACCESS_DENIED"
    RECORD_NOT_FOUND = "RECORD_NOT_FOUND"
    MODEL_NOT_FOUND = "MODEL_NOT_FOUND"
    INVALID_STATE_TRANSITION = "INVALID_STATE_TRANSITION"
    DRAFT_REQUIRED = "DRAFT_REQUIRED"
    ALREADY_PROCESSED = "ALREADY_PROCESSED"
    MISSING_ACCOUNTING_CONFIG = "MISSING_ACCOUNTING_CONFIG"
    INSUFFICIENT_STOCK = "INSUFFICIENT_STOCK"
    MISSING_LINES = "MISSING_LINES"
    ALREADY_RECONCILED = "ALREADY_RECONCILED"
    CANNOT_DELETE_PROCESSED = "CANNOT_DELETE_PROCESSED"
    # patterns for real Odoo 19 messages the L2 regexes miss (patterns_odoo19.py)
    METHOD_NOT_FOUND = "METHOD_NOT_FOUND"
    PRIVATE_METHOD = "PRIVATE_METHOD"
    INVALID_ARGUMENT = "INVALID_ARGUMENT"
    INVALID_DOMAIN = "INVALID_DOMAIN"
    INVALID_ORDER = "INVALID_ORDER"
    CANNOT_MODIFY_PROCESSED = "CANNOT_MODIFY_PROCESSED"
    STATE_REQUIRED = "STATE_REQUIRED"
    DATABASE_NOT_FOUND = "DATABASE_NOT_FOUND"
    # patterns for real Odoo 17 messages (patterns_odoo17.py): XML-RPC cannot carry the result
    UNMARSHALLABLE_RESULT = "UNMARSHALLABLE_RESULT"
    # the server's own refusals (REQ-10-16)
    TOOL_NOT_FOUND = "TOOL_NOT_FOUND"
    #: issue 37: a call naming more models' fields than one call may look up (registry.lookups)
    TOO_MANY_MODELS = "TOO_MANY_MODELS"
    INVALID_PARAMS = "INVALID_PARAMS"
    INTERNAL_ERROR = "INTERNAL_ERROR"


#: REQ-10-01: the code of each category when nothing more specific is known.
CATEGORY_CODES: Final[dict[ErrorCategory, ErrorCode]] = {
    ErrorCategory.VALIDATION: ErrorCode.VALIDATION_ERROR,
    ErrorCategory.ACCESS: ErrorCode.ACCESS_DENIED,
    ErrorCategory.NOT_FOUND: ErrorCode.NOT_FOUND,
    ErrorCategory.CONSTRAINT: ErrorCode.CONSTRAINT_ERROR,
    ErrorCategory.STATE: ErrorCode.STATE_ERROR,
    ErrorCategory.WIZARD: ErrorCode.WIZARD_REQUIRED,
    ErrorCategory.CONNECTION: ErrorCode.CONNECTION_ERROR,
    ErrorCategory.RATE_LIMIT: ErrorCode.RATE_LIMITED,
    ErrorCategory.CONFIGURATION: ErrorCode.CONFIG_ERROR,
    ErrorCategory.UNKNOWN: ErrorCode.UNKNOWN_ERROR,
}

#: Seconds to wait after a connection failure: long enough for a restart or a proxy hiccup.
DEFAULT_CONNECTION_RETRY_AFTER: Final = 5.0
#: Seconds to wait after an HTTP 429 that carried no Retry-After header.
DEFAULT_RATE_LIMIT_RETRY_AFTER: Final = 60.0

_NO_RETRY: Final = frozenset(
    {ErrorCategory.ACCESS, ErrorCategory.CONFIGURATION, ErrorCategory.UNKNOWN}
)


def retry_for(category: ErrorCategory) -> bool:
    """REQ-10-15: access, configuration and unknown errors are not retried; the rest are.

    L2/10a's rule (retry unless access or configuration) agrees on every pattern category,
    since no pattern yields ``unknown``.
    """
    return category not in _NO_RETRY


def default_retry_after(category: ErrorCategory) -> float | None:
    """REQ-10-15: connection and rate-limit errors say how long to wait, in seconds."""
    if category is ErrorCategory.CONNECTION:
        return DEFAULT_CONNECTION_RETRY_AFTER
    if category is ErrorCategory.RATE_LIMIT:
        return DEFAULT_RATE_LIMIT_RETRY_AFTER
    return None
