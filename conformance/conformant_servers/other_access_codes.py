"""Legal choice: safety refusals use other codes of the ``access`` category (SPEC-10 §2 names
one code per category; SPEC-11 names no code for its refusals): ACCESS_DENIED for mode, model
and method refusals, FORBIDDEN_FIELD for blocked fields. The body is otherwise the same."""

from typing import Any

from _variant import patch_everywhere, serve

from odoo_mcp.errors import response

CODES = {
    "MODE_VIOLATION": "ACCESS_DENIED",
    "MODEL_BLOCKED": "ACCESS_DENIED",
    "METHOD_BLOCKED": "ACCESS_DENIED",
    "FIELD_BLOCKED": "FORBIDDEN_FIELD",
}
original = response.to_payload


def _other_codes(error: Any) -> Any:
    payload = original(error)
    if payload.get("category") == "access" and payload.get("code") in CODES:
        payload["code"] = CODES[str(payload["code"])]
    return payload


patch_everywhere(original, _other_codes)
serve()
