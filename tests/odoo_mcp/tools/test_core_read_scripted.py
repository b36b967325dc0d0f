"""SPEC-04 §3.1-3.2, §5: what the fake cannot show, on a scripted Odoo; the tool schemas.

The fake Odoo has no binary field and, like Odoo 17+, drops unknown ids on read; a scripted
Odoo 16 shows binary fields left out unless named (REQ-04-36) and MissingError turned into
``missing_ids`` (REQ-04-07).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from odoo_mcp.connection import CallOutcome, OdooCalls, OdooRpcError, OdooVersion, parse_version
from odoo_mcp.context import ServerContext
from odoo_mcp.formatting import FormatOptions
from odoo_mcp.registry import ModelRegistry
from odoo_mcp.safety import SafetyPolicy
from odoo_mcp.tools.core_read import (
    TOOLS,
    CountInput,
    ReadInput,
    SearchReadInput,
    read,
    search_read,
)

pytestmark = pytest.mark.anyio


def _search(**values: Any) -> SearchReadInput:
    return SearchReadInput.model_validate(values)


class ScriptedOdoo(OdooCalls):
    """An Odoo with one model holding a binary field; ``read`` of an unknown id raises
    MissingError as Odoo 16 does over XML-RPC."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.rows = {
            1: {"id": 1, "name": "Logo", "datas": "aGVsbG8=", "create_date": "2025-02-09 14:30:00"},
            2: {"id": 2, "name": "Other", "datas": False, "create_date": False},
        }

    @property
    def odoo_version(self) -> OdooVersion | None:
        return parse_version("16.0")

    async def call(
        self,
        model: str,
        method: str,
        args: Sequence[Any] = (),
        kwargs: Mapping[str, Any] | None = None,
        context: Mapping[str, object] | None = None,
    ) -> CallOutcome:
        self.calls.append((model, method))
        kwargs = kwargs or {}
        if method == "fields_get":
            types = {"id": "integer", "name": "char", "datas": "binary", "create_date": "datetime"}
            return CallOutcome({k: {"type": t, "string": k} for k, t in types.items()}, "xmlrpc")
        if method == "search":
            ids = args[0][0][2]
            return CallOutcome([i for i in ids if i in self.rows], "xmlrpc")
        if method == "read":
            if any(i not in self.rows for i in args[0]):
                raise OdooRpcError(
                    "Record does not exist or has been deleted.",
                    "odoo.exceptions.MissingError",
                )
            wanted = kwargs.get("fields")
            found = [self.rows[i] for i in args[0]]
            rows = [
                {k: v for k, v in r.items() if not wanted or k in {"id", *wanted}} for r in found
            ]
            return CallOutcome(rows, "xmlrpc")
        rows = list(self.rows.values())
        return CallOutcome(rows, "xmlrpc")


def _scripted() -> tuple[ServerContext, ScriptedOdoo]:
    odoo = ScriptedOdoo()
    context = ServerContext(odoo, ModelRegistry(odoo), SafetyPolicy(), FormatOptions())
    return context, odoo


async def test_binary_fields_only_when_named() -> None:
    ctx, _ = _scripted()
    every = await search_read(ctx, _search(model="ir.attachment", fields=["*"]))
    assert all("datas" not in row for row in every.records)
    assert every.records[0]["create_date"] == "2025-02-09T14:30:00Z"
    named = await search_read(ctx, _search(model="ir.attachment", fields=["name", "datas"]))
    assert [row["datas"] for row in named.records] == ["aGVsbG8=", None]
    plain = await read(ctx, ReadInput(model="ir.attachment", ids=[1]))
    assert plain.records == [{"id": 1, "name": "Logo", "create_date": "2025-02-09T14:30:00Z"}]


async def test_missing_error_gives_the_records_that_exist() -> None:
    ctx, odoo = _scripted()
    result = await read(ctx, ReadInput(model="ir.attachment", ids=[2, 7, 1], fields=["name"]))
    assert [row["id"] for row in result.records] == [2, 1]
    assert result.missing_ids == [7]
    assert [m for _, m in odoo.calls] == ["fields_get", "read", "search", "read"]


def test_input_schemas_carry_the_spec_bounds() -> None:
    search = SearchReadInput.model_json_schema()
    props = search["properties"]
    assert (search["required"], search["additionalProperties"]) == (["model"], False)
    assert (props["limit"]["default"], props["limit"]["minimum"]) == (80, 1)
    # REQ-04-02: above 500 is clamped, not refused: the schema must not say otherwise
    assert "maximum" not in props["limit"]
    assert "clamped to 500" in props["limit"]["description"]
    assert (props["offset"]["default"], props["offset"]["minimum"]) == (0, 0)
    assert props["fields"]["default"] == ["id", "name", "display_name"]
    assert props["domain"]["default"] == [] and props["order"]["type"] == "string"
    ids = ReadInput.model_json_schema()["properties"]["ids"]
    assert (ids["minItems"], ids["maxItems"], ids["items"]) == (1, 100, {"type": "integer"})
    assert CountInput.model_json_schema()["required"] == ["model"]


def test_descriptions_carry_the_domain_help() -> None:
    by_name = {tool.name: tool for tool in TOOLS}
    assert set(by_name) == {"odoo_core_search_read", "odoo_core_read", "odoo_core_count"}
    for name in ("odoo_core_search_read", "odoo_core_count"):
        assert "Operators: =, !=, >, >=, <, <=, like, ilike" in by_name[name].description
    assert "Binary fields" in by_name["odoo_core_search_read"].description
    assert all(tool.kind == "read" for tool in TOOLS)
