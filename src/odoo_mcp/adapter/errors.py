"""SPEC-10 §9: helpers for the MCP server wiring (REQ-10-16/17).

The dispatcher in ``odoo_mcp.adapter.server`` (written separately) uses these: Odoo and tool errors
become tool results with ``isError: true`` (REQ-10-17); an unknown or hidden tool, invalid
parameters and unhandled server errors become JSON-RPC errors -32601 / -32602 / -32603
(REQ-10-16, decision 13), carrying the SPEC-10 object as ``data``.
"""

from __future__ import annotations

from collections.abc import Iterable

from mcp.shared.exceptions import MCPError
from mcp.types import INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, CallToolResult
from pydantic import JsonValue, ValidationError

from odoo_mcp.errors.categories import ErrorCategory, ErrorCode
from odoo_mcp.errors.classify import classify
from odoo_mcp.errors.response import ErrorResponse, to_payload, to_tool_result
from odoo_mcp.errors.suggestions import FIELDS_GET, LIST_TOOLSETS, FieldLookup

__all__ = [
    "error_tool_result",
    "internal_error",
    "invalid_params_error",
    "invalid_params_response",
    "unknown_tool_error",
]


def error_tool_result(
    exc: BaseException,
    *,
    model: str | None = None,
    method: str | None = None,
    fields: FieldLookup | None = None,
) -> tuple[ErrorResponse, CallToolResult]:
    """REQ-10-17: classify an exception and render it as a tool result with isError true.

    The response is returned too, for the log (``log_error``) and the audit record.
    """
    response = classify(exc, model=model, method=method, fields=fields)
    return response, to_tool_result(response)


def unknown_tool_error(name: str, available: Iterable[str] = ()) -> MCPError:
    """REQ-10-16: an unknown (or mode-hidden, REQ-11-05) tool is JSON-RPC -32601 (decision 13)."""
    tools = sorted(available)
    response = ErrorResponse(
        category=ErrorCategory.NOT_FOUND,
        code=ErrorCode.TOOL_NOT_FOUND,
        message=f"Unknown tool: {name}",
        details={"tool": name, "available_tools": list(tools)} if tools else {"tool": name},
        suggestion=f"Call one of the listed tools; {LIST_TOOLSETS} shows the toolsets.",
        retry=False,
    )
    return MCPError(METHOD_NOT_FOUND, response.message, to_payload(response))


def invalid_params_error(tool: str, error: ValidationError) -> MCPError:
    """REQ-10-16: arguments that fail the tool's input schema are JSON-RPC -32602."""
    response = invalid_params_response(tool, error)
    return MCPError(INVALID_PARAMS, response.message, to_payload(response))


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


def internal_error(exc: BaseException) -> MCPError:
    """REQ-10-16: an unhandled server error is JSON-RPC -32603, with no traceback or text."""
    response = ErrorResponse(
        category=ErrorCategory.UNKNOWN,
        code=ErrorCode.INTERNAL_ERROR,
        message=f"Internal server error ({type(exc).__name__})",
        suggestion="Report it to the user; the server log has the details.",
        retry=False,
    )
    return MCPError(INTERNAL_ERROR, response.message, to_payload(response))
