"""What a well-formed answer of the server looks like, as an MCP client receives it.

A tool result carries one JSON text content equal to its structured content; an ``isError``
result carries exactly the REQ-10-02 structure (``ErrorResponse``, no extra field) and no
traceback (REQ-10-14); JSON-RPC errors -32601/-32602 carry the same structure as their data
(REQ-10-16).
"""

from __future__ import annotations

import json
from typing import Any

from mcp import MCPError
from mcp.types import CallToolResult

from odoo_mcp.errors.response import ErrorResponse

__all__ = [
    "DEFAULT_MODE_TOOLS",
    "ERROR_FIELDS",
    "assert_no_traceback",
    "error_payload",
    "payload",
    "rpc_error_data",
]

#: REQ-11-02/05: the default mode is readonly; its tools, and nothing that writes
DEFAULT_MODE_TOOLS = frozenset(
    {
        "odoo_core_search_read", "odoo_core_read", "odoo_core_count", "odoo_core_fields_get",
        "odoo_core_name_get", "odoo_core_default_get", "odoo_core_list_models",
        "odoo_core_list_toolsets", "odoo_core_execute",
    }
)  # fmt: skip

#: REQ-10-02: present in every error response
ERROR_FIELDS = frozenset({"error", "category", "code", "message", "suggestion", "retry"})


def assert_no_traceback(text: str) -> None:
    """REQ-10-14: no traceback, no stack frame."""
    assert "Traceback (most recent call last)" not in text, text
    assert 'File "' not in text, text


def payload(result: CallToolResult) -> dict[str, Any]:
    """The JSON object of a tool result: its single text content, equal to the structured one
    (an error has none: its object is not of the tool's outputSchema)."""
    assert len(result.content) == 1, result.content
    text = result.content[0]
    assert text.type == "text"
    data = json.loads(text.text)
    assert isinstance(data, dict), data
    assert result.structured_content == (None if result.is_error else data)
    assert_no_traceback(text.text)
    return data


def _spec10(data: object) -> dict[str, Any]:
    assert isinstance(data, dict), data
    assert data.keys() >= ERROR_FIELDS, data
    ErrorResponse.model_validate(data)  # extra="forbid": nothing beyond SPEC-10's fields
    assert data["error"] is True and isinstance(data["retry"], bool)
    assert data["message"] and data["suggestion"]
    return data


def error_payload(result: CallToolResult) -> dict[str, Any]:
    """REQ-10-02/17: an Odoo or safety error is a tool result with isError and SPEC-10 JSON."""
    assert result.is_error is True, result
    return _spec10(payload(result))


def rpc_error_data(error: MCPError, code: int) -> dict[str, Any]:
    """REQ-10-16: a JSON-RPC error of ``code`` whose data is the SPEC-10 structure."""
    assert error.error.code == code, error.error
    assert_no_traceback(error.error.message)
    data = _spec10(error.error.data)
    assert_no_traceback(json.dumps(data))
    return data
