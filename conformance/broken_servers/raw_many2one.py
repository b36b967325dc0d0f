"""Defect: many2one values come back as Odoo's raw [id, name] pairs (REQ-04-05)."""

from typing import Any

from _sabotage import as_odoo_pair, serve, wrap_tool


def _raw(record: dict[str, Any]) -> dict[str, Any]:
    return {key: as_odoo_pair(value) for key, value in record.items()}


def _records(data: dict[str, Any]) -> dict[str, Any]:
    data["records"] = [_raw(record) for record in data.get("records", [])]
    return data


wrap_tool("odoo_core_search_read", _records)
wrap_tool("odoo_core_read", _records)
serve()
