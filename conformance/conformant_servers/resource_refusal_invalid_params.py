"""Legal choice (decision 27's other side): a resource refused by the safety policy or by
Odoo's access rights is JSON-RPC -32602 (invalid params: this URI may not be read), still with
the SPEC-10 error object as ``data``; the reference uses -32001. SPEC-06 §7 REQ-06-22/23 ask for
an error, not an empty answer; they name no code."""

from typing import Any

from _variant import patch_everywhere, serve
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS

from odoo_mcp.adapter import errors

original = errors.as_mcp_error


def _refusal_as_invalid_params(exc: Exception, model: str | None, what: str) -> Any:
    error = original(exc, model, what)
    if error.code == errors.REFUSED:
        return MCPError(INVALID_PARAMS, error.message, error.data)
    return error


patch_everywhere(original, _refusal_as_invalid_params)
serve()
