"""REQ-10-16, REQ-06-23: what is wrong with a request's arguments, as SPEC-10 errors (the MCP
adapter sends them as JSON-RPC -32602, or as a result for the storefront contracts)."""

from __future__ import annotations

from pydantic import JsonValue, ValidationError

from odoo_mcp.errors.categories import ErrorCategory, ErrorCode
from odoo_mcp.errors.response import ErrorResponse, ToolError
from odoo_mcp.errors.suggestions import FIELDS_GET

__all__ = ["invalid_params_response", "invalid_prompt", "invalid_request"]


def invalid_params_response(tool: str, error: ValidationError) -> ErrorResponse:
    """REQ-10-16: what is wrong with a tool's arguments, INVALID_PARAMS.

    Only the location and reason of each problem are sent, never the offending input, which
    may hold a secret.
    """
    problems: list[JsonValue] = [
        {"loc": ".".join(str(part) for part in item["loc"]), "msg": item["msg"]}
        for item in error.errors(include_url=False, include_input=False, include_context=False)
    ]
    return ErrorResponse(
        category=ErrorCategory.VALIDATION,
        code=ErrorCode.INVALID_PARAMS,
        message=f"Invalid parameters for {tool}: {len(problems)} problem(s)",
        details={"tool": tool, "errors": problems},
        suggestion=(
            f"Fix the listed parameters to match the tool's input schema and retry; use "
            f"{FIELDS_GET} to check field names and types."
        ),
        retry=True,
    )


def invalid_request(message: str) -> ToolError:
    """REQ-06-23: a resource URI or prompt argument that names nothing valid."""
    return ToolError(
        "INVALID_RESOURCE",
        message,
        suggestion="resources/list and resources/templates/list show the valid URIs; "
        "prompts/list the prompts and their arguments.",
    )


def invalid_prompt(message: str) -> ToolError:
    """REQ-06-17..21: a prompt name prompts/list does not show, or a missing argument.

    The same -32602 on the wire as a bad resource URI (MCP's answer to an invalid prompt
    name; decision 27), but its own code, so the log does not read as a resource failure."""
    return ToolError(
        "INVALID_PROMPT",
        message,
        suggestion="prompts/list shows the prompts and their arguments.",
    )
