"""Legal choice: an error object naming a field repeats it as a top-level ``field`` key, as
REQ-04-11's example does (``{"error": "validation_error", "field": ...}``). SPEC-10 §3
REQ-10-02 lists the keys an error has, not the only keys it may have."""

from typing import Any

from _variant import patch_everywhere, serve

from odoo_mcp.errors import response

original = response.to_payload


def _with_field(error: Any) -> Any:
    payload = original(error)
    details = payload.get("details")
    if isinstance(details, dict) and isinstance(details.get("field"), str):
        payload["field"] = details["field"]
    return payload


patch_everywhere(original, _with_field)
serve()
