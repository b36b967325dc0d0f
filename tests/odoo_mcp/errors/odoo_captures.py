"""Real Odoo errors from a batch of captures (tests/fixtures/odooNN), rebuilt as
connection-layer errors over the protocol each capture used.

A batch is one folder of captures of one Odoo version; the same request carries the same file
name (and, in flows, the same step index) in every batch.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from odoo_mcp.connection.errors import OdooRpcError
from odoo_mcp.errors import FieldHint

FIXTURES_ROOT = Path(__file__).resolve().parents[2] / "fixtures"


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


@dataclass(frozen=True)
class CaptureBatch:
    """The captures of one Odoo version, in ``tests/fixtures/<name>``.

    ``step_files`` are the name prefixes of the multi-step captures whose faulted steps count
    as errors (``flow_*`` always; a batch may add ``meta_*``).
    """

    name: str
    step_files: tuple[str, ...] = ("flow_",)

    @property
    def folder(self) -> Path:
        return FIXTURES_ROOT / self.name

    def load(self, name: str) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.folder / name).read_text())
        return data

    def error_captures(self) -> list[str]:
        """The single-request captures (``err_*.json``) whose answer is an error."""
        return sorted(
            p.name for p in self.folder.glob("err_*.json") if rpc_error(self.load(p.name))
        )

    def flow_errors(self) -> Iterator[tuple[str, int, OdooRpcError]]:
        """(file stem, step index, error) for every faulted step of the multi-step captures."""
        paths = sorted(p for prefix in self.step_files for p in self.folder.glob(f"{prefix}*.json"))
        for path in paths:
            for index, step in enumerate(self.load(path.name).get("steps", ())):
                error = rpc_error(step)
                if error is not None:
                    yield path.stem, index, error

    def all_errors(self) -> Iterator[tuple[str, OdooRpcError]]:
        """Every error of the batch, labelled ``err_x.json`` or ``flow_x#index``."""
        for name in self.error_captures():
            error = rpc_error(self.load(name))
            assert error is not None
            yield name, error
        for stem, index, error in self.flow_errors():
            yield f"{stem}#{index}", error

    def field_lookup(self, model: str, field: str) -> FieldHint | None:
        """Field metadata from the captured fields_get of the model, if captured."""
        path = self.folder / f"meta_fields_get_{model.replace('.', '_')}.json"
        if not path.exists():
            return None
        fields = json.loads(path.read_text())["result"]
        info = fields.get(field)
        if info is None:
            return None
        selection = tuple(str(value) for value, _ in info.get("selection") or ())
        return FieldHint(
            field, info.get("string"), info.get("type"), info.get("relation"), selection
        )
