"""SPEC-11: the safety layer: modes, model/field/method lists, rate limits, audit, annotations.

Layering (SPEC-11 header): modes -> annotations -> model/field/method filters -> rate limiting
-> audit logging. Every refusal is a ``SafetyError`` raised before anything reaches Odoo.
"""

from odoo_mcp.safety.annotations import ToolHints, workflow_hints
from odoo_mcp.safety.audit import AuditLogger, AuditRecord, AuditSettings, sanitize
from odoo_mcp.safety.blocklists import (
    DEFAULT_FIELD_BLOCKLIST,
    DEFAULT_METHOD_BLOCKLIST,
    DEFAULT_MODEL_BLOCKLIST,
    SafetyCode,
    SafetyError,
)
from odoo_mcp.safety.modes import Mode, Operation, enforce_mode, is_tool_visible
from odoo_mcp.safety.policy import SafetyPolicy
from odoo_mcp.safety.ratelimit import RateLimitedError, RateLimits

__all__ = [
    "DEFAULT_FIELD_BLOCKLIST",
    "DEFAULT_METHOD_BLOCKLIST",
    "DEFAULT_MODEL_BLOCKLIST",
    "AuditLogger",
    "AuditRecord",
    "AuditSettings",
    "Mode",
    "Operation",
    "RateLimitedError",
    "RateLimits",
    "SafetyCode",
    "SafetyError",
    "SafetyPolicy",
    "ToolHints",
    "enforce_mode",
    "is_tool_visible",
    "sanitize",
    "workflow_hints",
]
