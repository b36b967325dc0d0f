"""SPEC-10 §9: SPEC-10 error objects as MCP sees them (REQ-10-16/17).

The tool dispatcher (``odoo_mcp.adapter.tools``) uses these: Odoo and tool errors
become tool results with ``isError: true`` (REQ-10-17); an unknown or hidden tool, invalid
parameters and unhandled server errors become JSON-RPC errors -32601 / -32602 / -32603
(REQ-10-16, decision 13), carrying the SPEC-10 object as ``data``.

Resources and prompts have no ``isError`` result, so their refusals are JSON-RPC errors whose
``data`` is the SPEC-10 error object (decision 27, :func:`as_mcp_error`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Final

from mcp.shared.exceptions import MCPError
from mcp.types import INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, CallToolResult, TextContent
from pydantic import ValidationError

from odoo_mcp.errors.categories import ErrorCategory, ErrorCode
from odoo_mcp.errors.classify import classify
from odoo_mcp.errors.log import log_error
from odoo_mcp.errors.params import invalid_params_response, invalid_request
from odoo_mcp.errors.response import ErrorResponse, to_payload
from odoo_mcp.errors.suggestions import LIST_TOOLSETS, FieldLookup
from odoo_mcp.resources.uris import InvalidResourceUri

__all__ = [
    "ODOO_UNAVAILABLE",
    "RESOURCE_NOT_FOUND",
    "as_mcp_error",
    "error_tool_result",
    "internal_error",
    "invalid_params_error",
    "to_tool_result",
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


def to_tool_result(response: ErrorResponse) -> CallToolResult:
    """REQ-10-17: an Odoo error is a tool result with ``isError: true``, not a protocol error.

    The error object goes as JSON in the text content, as SPEC-10's own example sends it, and
    never as ``structuredContent``: a client that validates structured content against the
    tool's ``outputSchema`` (the MCP Inspector, any strict client) would reject it and show
    the user nothing of the error (issue 29).
    """
    payload = to_payload(response)
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(payload, ensure_ascii=False))],
        is_error=True,
    )


#: MCP's code for an unknown resource; -32001 is ours for a refusal (decision 27)
RESOURCE_NOT_FOUND: Final = -32002
REFUSED: Final = -32001
#: ours for "Odoo cannot be reached, try again later" (issue 26): a code of the
#: implementation-defined server-error band (-32000..-32019), not -32603, which says the
#: server itself failed; -32000 is left alone (the SDK's client reads it as its own
#: connection closing)
ODOO_UNAVAILABLE: Final = -32003


def as_mcp_error(exc: Exception, model: str | None, what: str) -> MCPError:
    """REQ-06-23: every failure is an error with the SPEC-10 object as data, never empty.

    REQ-10-15: Odoo unreachable (the classification tools use: category connection, retry
    true) is ODOO_UNAVAILABLE, not -32603: the client may retry; only what no category
    explains is an internal error.
    """
    if isinstance(exc, InvalidResourceUri):
        exc = invalid_request(str(exc))
    response = classify(exc, model=model, method=what)
    log_error(response, model=model, method=what)
    code = {
        ErrorCategory.VALIDATION: INVALID_PARAMS,
        ErrorCategory.NOT_FOUND: RESOURCE_NOT_FOUND,
        ErrorCategory.ACCESS: REFUSED,
        ErrorCategory.CONNECTION: ODOO_UNAVAILABLE,
    }.get(response.category, INTERNAL_ERROR)
    return MCPError(code, response.message, to_payload(response))
