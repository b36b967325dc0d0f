"""Real Odoo 19 errors from tests/fixtures/odoo19, rebuilt as connection-layer errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from odoo_mcp.connection.errors import OdooRpcError
from odoo_mcp.errors import FieldHint

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "odoo19"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text())
    return data


def rpc_error(step: dict[str, Any]) -> OdooRpcError | None:
    """The OdooRpcError a capture (or a flow step) stands for, over its own protocol."""
    if "fault" in step:
        return OdooRpcError.from_xmlrpc_fault(
            step["fault"]["faultCode"], step["fault"]["faultString"]
        )
    response = step.get("response")
    jsonrpc = step["transport"] in ("jsonrpc", "jsonrpc-session")  # /jsonrpc or the web client's
    if jsonrpc and isinstance(response, dict) and "error" in response:
        return OdooRpcError.from_jsonrpc_error(response["error"])
    if step["transport"] == "json2" and step["http_status"] >= 400 and isinstance(response, dict):
        return OdooRpcError.from_json2_error(response, step["http_status"])
    return None


def error_captures() -> list[str]:
    return sorted(p.name for p in FIXTURES.glob("err_*.json") if rpc_error(load(p.name)))


def flow_errors() -> Iterator[tuple[str, int, OdooRpcError]]:
    for path in sorted(FIXTURES.glob("flow_*.json")):
        for index, step in enumerate(load(path.name)["steps"]):
            error = rpc_error(step)
            if error is not None:
                yield path.stem, index, error


def field_lookup(model: str, field: str) -> FieldHint | None:
    """Field metadata from the captured fields_get of the model, if captured."""
    path = FIXTURES / f"meta_fields_get_{model.replace('.', '_')}.json"
    if not path.exists():
        return None
    fields = json.loads(path.read_text())["result"]
    info = fields.get(field)
    if info is None:
        return None
    selection = tuple(str(value) for value, _ in info.get("selection") or ())
    return FieldHint(field, info.get("string"), info.get("type"), info.get("relation"), selection)
