"""Trimmed real Odoo 19 ``fields_get`` results (tests/fixtures/odoo19) as registry metadata."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from odoo_mcp.registry import FieldInfo

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "odoo19"


def fixture(name: str) -> Any:
    """The decoded JSON of one capture file."""
    return json.loads((FIXTURES / f"{name}.json").read_text())


@cache
def raw_fields(model: str) -> dict[str, dict[str, Any]]:
    """The raw ``fields_get`` answer captured for ``model``."""
    result: dict[str, dict[str, Any]] = fixture(f"meta_fields_get_{model.replace('.', '_')}")[
        "result"
    ]
    return result


@cache
def fields_of(model: str) -> dict[str, FieldInfo]:
    """``FieldInfo`` per field of ``model`` built from the capture."""
    return {name: FieldInfo.from_odoo(name, spec) for name, spec in raw_fields(model).items()}


def captured_models() -> list[str]:
    """Every model with a captured ``fields_get``."""
    stems = sorted(
        p.stem.removeprefix("meta_fields_get_") for p in FIXTURES.glob("meta_fields_get_*")
    )
    by_stem = {m.replace(".", "_"): m for m in KNOWN_MODELS}
    return [by_stem[stem] for stem in stems if stem in by_stem]


KNOWN_MODELS = (
    "account.move", "account.move.line", "crm.lead", "crm.stage", "ir.model", "ir.model.fields",
    "ir.module.module", "mail.message", "product.category", "product.product",
    "product.template", "res.company", "res.country", "res.partner", "res.users", "sale.order",
    "sale.order.line", "stock.location", "stock.move", "stock.picking", "stock.picking.type",
    "stock.quant",
)  # fmt: skip


class CapturedFields:
    """A ``FieldSource`` over the captures; counts lookups; unknown models have no fields."""

    def __init__(self) -> None:
        self.lookups: list[str] = []

    async def get_fields(self, model: str) -> Mapping[str, FieldInfo]:
        self.lookups.append(model)
        try:
            return fields_of(model)
        except FileNotFoundError:
            return {}
