"""Legal choice (decision 15's other side): a method that returns nothing is answered
``{"result_type": "value", "result": true}`` without a note, as Odoo's own buttons
conventionally return True. SPEC-04 §3.8 REQ-04-27 says only that a simple value is returned
directly; the reference returns ``null`` with a note (decision 15)."""

from typing import Any

from _variant import serve, wrap_tool


def _true(result: dict[str, Any]) -> dict[str, Any]:
    if result.get("result_type") == "value" and result.get("result") is None:
        return {key: value for key, value in result.items() if key != "note"} | {"result": True}
    return result


wrap_tool("odoo_core_execute", _true)
serve()
