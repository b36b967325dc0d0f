"""Mutants of SPEC-04, the core CRUD tools (see registry.py)."""

from __future__ import annotations

from typing import Any

from _sabotage import wrap_tool
from registry import mutant


def _pairs(record: dict[str, Any]) -> dict[str, Any]:
    return {
        key: [value["id"], value["name"]]
        if isinstance(value, dict) and set(value) == {"id", "name"}
        else value
        for key, value in record.items()
    }


@mutant(
    kills=["REQ-04-05"],
    seed='SPEC-04 §3.1: \'Many2one fields MUST be returned as {"id": int, "name": str}\'',
    select="REQ-04-05 and not REQ-04-35",
)
def search_read_many2one_as_pair() -> None:
    """odoo_core_search_read answers many2one values as Odoo's [id, name] pairs."""

    def post(data: dict[str, Any]) -> dict[str, Any]:
        data["records"] = [_pairs(r) for r in data.get("records", [])]
        return data

    wrap_tool("odoo_core_search_read", post)
