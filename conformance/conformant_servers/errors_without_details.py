"""Legal choice: error objects carry no ``details`` (REQ-10-04 makes it optional free
context); what they name is in ``message`` and ``suggestion``. SPEC-10 §3 REQ-10-02/04."""

from typing import Any

from _variant import patch_everywhere, serve

from odoo_mcp.errors import response

original = response.to_payload


def _without_details(error: Any) -> Any:
    payload = original(error)
    payload.pop("details", None)
    return payload


patch_everywhere(original, _without_details)
serve()
