"""Legal choice: ``original_error`` holds the bare exception class and message
("ValidationError: ...") where the reference sends the qualified class
("odoo.exceptions.ValidationError: ..."); SPEC-10 REQ-10-04 only asks for the raw error
string, and never a traceback (REQ-10-14)."""

from typing import Any

from _variant import patch_everywhere, serve

from odoo_mcp.errors import response

original = response.to_payload


def _short_class(text: str) -> str:
    head, sep, rest = text.partition(": ")
    if sep and " " not in head and "." in head:
        return f"{head.rsplit('.', 1)[1]}: {rest}"
    return text


def _bare_class(error: Any) -> Any:
    payload = original(error)
    if isinstance(payload.get("original_error"), str):
        payload["original_error"] = _short_class(str(payload["original_error"]))
    return payload


patch_everywhere(original, _bare_class)
serve()
