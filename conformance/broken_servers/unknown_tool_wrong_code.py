"""Defect: an unknown tool is answered -32602 instead of -32601 (REQ-10-16)."""

from typing import Any

from _sabotage import patch_everywhere, serve
from mcp import MCPError

from odoo_mcp.adapter import errors as protocol

original = protocol.unknown_tool_error


def _wrong_code(name: str, available: Any = ()) -> MCPError:
    error = original(name, available)
    return MCPError(-32602, error.error.message, error.error.data)


patch_everywhere(original, _wrong_code)
serve()
