"""SPEC-07: the field-metadata cache and the readable-model listing, against the fake Odoo."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from odoo19_meta import KNOWN_MODELS, fields_of, raw_fields

from fake_odoo.handle import FakeOdoo
from odoo_mcp.connection import (
    CallOutcome,
    ConnectionManager,
    OdooCalls,
    OdooRpcError,
    OdooVersion,
    parse_version,
)
from odoo_mcp.model_listing import list_readable_models
from odoo_mcp.registry import FieldInfo, ModelRegistry, key_fields

pytestmark = pytest.mark.anyio


# -- FieldInfo on real captures -----------------------------------------------------------------


@pytest.mark.parametrize("model", KNOWN_MODELS)
def test_every_captured_field_becomes_field_info(model: str) -> None:
    infos = fields_of(model)
    assert set(infos) == set(raw_fields(model))
    for info in infos.values():
        assert info.is_relational == (info.type in {"many2one", "one2many", "many2many"})


def test_selection_and_relation_survive() -> None:
    state = fields_of("sale.order")["state"]
    assert ("draft", "Quotation") in (state.selection or ())
    partner = fields_of("sale.order")["partner_id"]
    assert (partner.relation, partner.label, partner.is_x2many) == (
        "res.partner",
        "Customer",
        False,
    )
    assert fields_of("sale.order")["display_name"].sortable is False


# -- one fields_get per model (REQ-07-12) -------------------------------------------------------


@pytest.mark.req("REQ-07-12")
async def test_fields_get_runs_once_per_model(
    manager: ConnectionManager, fake_odoo: FakeOdoo
) -> None:
    registry = ModelRegistry(manager)
    first = await registry.get_fields("res.partner")
    again = await registry.get_fields("res.partner")
    assert first is again and first["name"].type == "char"
    assert await registry.get_field("res.partner", "parent_id") == first["parent_id"]
    assert fake_odoo.call_counts(method="fields_get") == 1
    await registry.get_fields("sale.order")
    assert fake_odoo.call_counts(method="fields_get") == 2


async def test_concurrent_first_uses_share_one_call(
    manager: ConnectionManager, fake_odoo: FakeOdoo
) -> None:
    registry = ModelRegistry(manager)
    results = await asyncio.gather(*(registry.get_fields("sale.order") for _ in range(5)))
    assert all(result is results[0] for result in results)
    assert fake_odoo.call_counts(method="fields_get") == 1


@pytest.mark.req("REQ-07-12")
async def test_invalidate_refetches(manager: ConnectionManager, fake_odoo: FakeOdoo) -> None:
    registry = ModelRegistry(manager)
    await registry.get_fields("res.partner")
    registry.invalidate("res.partner")
    assert registry.cached("res.partner") is None
    await registry.get_fields("res.partner")
    assert fake_odoo.call_counts(method="fields_get") == 2
    registry.clear()
    assert registry.cached("res.partner") is None


@pytest.mark.req("REQ-07-12")
async def test_unknown_field_is_asked_again_once(
    manager: ConnectionManager, fake_odoo: FakeOdoo
) -> None:
    registry = ModelRegistry(manager)
    assert await registry.refresh_if_unknown("res.partner", "x_new") is None
    assert fake_odoo.call_counts(method="fields_get") == 2
    assert (await registry.refresh_if_unknown("res.partner", "name")) is not None
    assert fake_odoo.call_counts(method="fields_get") == 2


# -- key fields (decision 10) -------------------------------------------------------------------


async def test_key_fields_of_a_known_model(manager: ConnectionManager) -> None:
    registry = ModelRegistry(manager)
    keys = await registry.key_fields("res.partner", lambda model, name: name == "email")
    assert keys[:3] == ["id", "name", "display_name"]
    assert "email" not in keys and "image_1920" not in keys


def test_key_fields_of_other_models_are_stored_plain_fields() -> None:
    fields = fields_of("res.country")
    keys = key_fields("res.country", fields)
    assert keys and all(fields[k].store and not fields[k].is_x2many for k in keys)
    assert all(fields[k].type != "binary" for k in keys)


# -- readable models (REQ-04-34) ----------------------------------------------------------------


async def test_models_are_listed_without_blocked_ones(
    manager: ConnectionManager, fake_odoo: FakeOdoo
) -> None:
    models = await list_readable_models(
        manager, name_filter="sale", is_model_blocked=lambda m: m == "sale.order.line"
    )
    names = [m.model for m in models]
    assert "sale.order" in names and "sale.order.line" not in names
    assert all(m.access and m.access[0] == "read" for m in models)
    assert fake_odoo.call_counts(model="ir.model", method="search_read") == 1


class ScriptedCalls(OdooCalls):
    """An Odoo answering the listing's three calls from tables; records each call."""

    def __init__(self, acl_lines: list[dict[str, Any]], groups: list[int]) -> None:
        self.calls: list[tuple[str, str]] = []
        self.acl_lines, self.groups, self.uid = acl_lines, groups, 5

    @property
    def odoo_version(self) -> OdooVersion | None:
        return parse_version("19.0")

    async def call(
        self,
        model: str,
        method: str,
        args: Sequence[Any] = (),
        kwargs: Mapping[str, Any] | None = None,
        context: Mapping[str, object] | None = None,
    ) -> CallOutcome:
        self.calls.append((model, method))
        answers: dict[tuple[str, str], Any] = {
            ("ir.model", "search_read"): [
                {"id": 1, "model": "sale.order", "name": "Sales Order", "transient": False},
                {"id": 2, "model": "ir.config_parameter", "name": "Params", "transient": False},
                {"id": 3, "model": "res.partner", "name": "Contact", "transient": False},
            ],
            ("ir.model.access", "search_read"): self.acl_lines,
            ("res.users", "read"): [{"id": 5, "all_group_ids": self.groups}],
        }
        if (model, method) not in answers:
            raise OdooRpcError("unexpected", "odoo.exceptions.AccessError")
        return CallOutcome(answers[(model, method)], "json2")


async def test_acl_lines_decide_in_three_calls() -> None:
    line = {"perm_read": True, "perm_write": False, "perm_create": False, "perm_unlink": False}
    odoo = ScriptedCalls(
        [
            {**line, "model_id": [1, "Sales Order"], "group_id": [10, "User"]},
            {
                **line,
                "model_id": [1, "Sales Order"],
                "group_id": [11, "Manager"],
                "perm_write": True,
            },
            {**line, "model_id": [2, "Params"], "group_id": [99, "Admin"]},
            {**line, "model_id": [3, "Contact"], "group_id": False, "perm_create": True},
        ],
        groups=[10],
    )
    models = await list_readable_models(odoo)
    assert [(m.model, m.access) for m in models] == [
        ("sale.order", ("read",)),
        ("res.partner", ("read", "create")),
    ]
    assert len(odoo.calls) == 3


async def test_hidden_acl_falls_back_to_check_access_rights() -> None:
    class NoAcl(ScriptedCalls):
        async def call(self, model: str, method: str, *rest: Any, **kw: Any) -> CallOutcome:
            if method == "check_access_rights":
                self.calls.append((model, method))
                return CallOutcome(model != "ir.config_parameter", "json2")
            if model == "ir.model.access":
                self.calls.append((model, method))
                raise OdooRpcError("denied", "odoo.exceptions.AccessError")
            return await super().call(model, method, *rest, **kw)

    odoo = NoAcl([], [])
    models = await list_readable_models(odoo)
    assert [m.model for m in models] == ["sale.order", "res.partner"]
    assert sum(1 for _, method in odoo.calls if method == "check_access_rights") == 3


def test_field_info_defaults_are_safe() -> None:
    info = FieldInfo.from_odoo("x", {"type": "many2one", "relation": False, "help": False})
    assert (info.relation, info.help, info.is_relational, info.store) == (None, None, False, True)
