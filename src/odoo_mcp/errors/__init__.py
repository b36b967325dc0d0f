"""SPEC-10 / L2-10a: error handling — classify any failure into one LLM-friendly response.

What comes in (exceptions) and what goes out (category / code)::

    BaseException
    ├── odoo_mcp.connection.OdooError
    │   ├── OdooRpcError ────────────── pattern database (L2/10a, first match wins)
    │   │     XML-RPC fault 1/2/3/4,     └─ else class (REQ-10-07), fault text (REQ-10-05),
    │   │     JSON-RPC data.name,           HTTP status (REQ-10-08), else unknown
    │   │     JSON-2 status + name
    │   ├── OdooConnectionError ─────── connection: CONNECTION_REFUSED | TIMEOUT |
    │   │   │                            SERVER_ERROR | ENDPOINT_NOT_FOUND | CONNECTION_ERROR
    │   │   └── OdooRateLimited ─────── rate_limit: RATE_LIMITED (+ retry_after)
    │   ├── OdooSessionExpired ──────── access: SESSION_EXPIRED, retry false (decision 7)
    │   ├── OdooAuthenticationError ─── access: ACCESS_DENIED (SESSION_EXPIRED after re-auth)
    │   └── OdooConfigurationError ──── configuration: CONFIG_ERROR
    ├── ToolError (this package) ────── the server's own refusal, any category
    ├── SpecShapedError (protocol) ──── safety.SafetyError, domain.DomainError: kept as is
    ├── httpx ConnectError / Timeout ── connection: CONNECTION_REFUSED | TIMEOUT
    ├── xmlrpc.client.ProtocolError ─── connection: CONNECTION_ERROR
    └── anything else ───────────────── unknown: UNKNOWN_ERROR

    ErrorCategory (REQ-10-01)      retry (REQ-10-15)   log level (REQ-10-18)
    ├── validation                 true                warning
    ├── access                     false               error
    ├── not_found                  true                warning
    ├── constraint                 true                warning
    ├── state                      true                warning
    ├── wizard                     true                warning
    ├── connection                 true + retry_after  error
    ├── rate_limit                 true + retry_after  warning
    ├── configuration              false               error
    └── unknown                    false               error

The result is an :class:`ErrorResponse` (REQ-10-02), sent without any traceback (REQ-10-14).
The MCP adapter (:mod:`odoo_mcp.adapter.errors`) renders it as a tool result with
``isError: true`` (REQ-10-17), or as the JSON-RPC errors for unknown tools and invalid
parameters (REQ-10-16).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from odoo_mcp.errors.categories import ErrorCategory, ErrorCode, retry_for
from odoo_mcp.errors.classify import SpecShapedError, classify, wizard_required
from odoo_mcp.errors.log import log_error, log_level
from odoo_mcp.errors.params import invalid_params_response
from odoo_mcp.errors.response import ErrorResponse, ToolError, to_json, to_payload
from odoo_mcp.errors.sanitize import sanitize_args, scrub_text
from odoo_mcp.errors.suggestions import FieldHint, FieldLookup

if TYPE_CHECKING:
    from odoo_mcp.errors.patterns import ERROR_PATTERNS, ErrorPattern, register_pattern

#: deferred: cold start, issue 17 — the pattern database is imported on first use (the first
#: Odoo error classified, or a plugin registering a pattern), not by every module that raises
#: a ToolError. Whoever asks for it gets the Odoo 19, then the Odoo 17 patterns registered
#: first, as when this ``__init__`` imported them.
_DEFERRED = frozenset({"ERROR_PATTERNS", "ErrorPattern", "register_pattern"})


def __getattr__(name: str) -> object:
    """The pattern database's names, imported when first asked for (PEP 562)."""
    if name not in _DEFERRED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import_module("odoo_mcp.errors.patterns_odoo17")  # registers 19's, then 17's patterns
    return getattr(import_module("odoo_mcp.errors.patterns"), name)


__all__ = [
    "ERROR_PATTERNS",
    "ErrorCategory",
    "ErrorCode",
    "ErrorPattern",
    "ErrorResponse",
    "FieldHint",
    "FieldLookup",
    "SpecShapedError",
    "ToolError",
    "classify",
    "invalid_params_response",
    "log_error",
    "log_level",
    "register_pattern",
    "retry_for",
    "sanitize_args",
    "scrub_text",
    "to_json",
    "to_payload",
    "wizard_required",
]
