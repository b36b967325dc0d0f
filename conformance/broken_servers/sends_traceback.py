"""Defect: error responses carry the Python traceback (REQ-10-13/14)."""

from typing import Any

from _sabotage import patch_everywhere, serve

from odoo_mcp.errors import response

TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3/dist-packages/odoo/service/model.py", line 156, in retrying\n'
    "    result = func()\n"
)
original = response.to_payload


def _with_traceback(error: Any) -> Any:
    payload = original(error)
    payload["message"] = f"{payload.get('message', '')}\n{TRACEBACK}"
    return payload


patch_everywhere(original, _with_traceback)
serve()
