"""L2-02b: positional execute_kw arguments become JSON-2 named parameters (decision 6)."""

from __future__ import annotations

from typing import Any

import pytest

from odoo_mcp.connection import OdooConfigurationError
from odoo_mcp.connection.json2_params import declared_params, to_named_params


@pytest.mark.parametrize(
    ("method", "args", "kwargs", "body"),
    [
        (
            "search_read",
            [[["is_company", "=", True]], ["name"]],
            {"limit": 3},
            {"domain": [["is_company", "=", True]], "fields": ["name"], "limit": 3},
        ),
        (
            "search",
            [[], 5, 10, "name"],
            {},
            {"domain": [], "offset": 5, "limit": 10, "order": "name"},
        ),
        ("search_count", [[["active", "=", False]]], {}, {"domain": [["active", "=", False]]}),
        ("read", [[1, 2], ["name"]], {}, {"ids": [1, 2], "fields": ["name"]}),
        ("read", [7], {}, {"ids": [7]}),
        ("write", [[52], {"name": "x"}], {}, {"ids": [52], "vals": {"name": "x"}}),
        ("create", [{"name": "x"}], {}, {"vals_list": {"name": "x"}}),
        ("unlink", [[3]], {}, {"ids": [3]}),
        ("copy", [[3], {"name": "y"}], {}, {"ids": [3], "default": {"name": "y"}}),
        ("fields_get", [], {"attributes": ["type"]}, {"attributes": ["type"]}),
        (
            "name_search",
            ["Acme", [], "ilike", 5],
            {},
            {"name": "Acme", "domain": [], "operator": "ilike", "limit": 5},
        ),
        (
            "read_group",
            [[], ["amount_total:sum"], ["state"]],
            {"lazy": False},
            {"domain": [], "fields": ["amount_total:sum"], "groupby": ["state"], "lazy": False},
        ),
        ("default_get", [["name", "state"]], {}, {"fields": ["name", "state"]}),
        (
            "check_access_rights",
            ["write", False],
            {},
            {"operation": "write", "raise_exception": False},
        ),
        ("action_confirm", [[42]], {}, {"ids": [42]}),
        ("button_validate", [[8]], {}, {"ids": [8]}),
        ("action_set_lost", [[15]], {"lost_reason_id": 1}, {"ids": [15], "lost_reason_id": 1}),
        ("toggle_active", [[4, 5]], {}, {"ids": [4, 5]}),
        ("context_get", [], {}, {}),
    ],
)
@pytest.mark.req("REQ-02b-09")
def test_positional_arguments_become_named_parameters(
    method: str, args: list[Any], kwargs: dict[str, Any], body: dict[str, Any]
) -> None:
    assert to_named_params("m.model", method, args, kwargs) == body


def test_context_kwarg_is_left_to_the_adapter() -> None:
    assert to_named_params("res.partner", "search", [[]], {"context": {"a": 1}}) == {"domain": []}


def test_unnameable_positional_arguments_are_refused() -> None:
    with pytest.raises(OdooConfigurationError, match="named parameters only"):
        to_named_params("crm.lead", "action_set_lost", [[1], 3], {})
    with pytest.raises(OdooConfigurationError, match="named parameters only"):
        to_named_params("x.model", "custom_method", ["text"], {})


def test_record_method_needs_ids_first() -> None:
    with pytest.raises(OdooConfigurationError, match="record ids"):
        to_named_params("sale.order", "action_confirm", ["S00001"], {})


def test_same_parameter_twice_is_refused() -> None:
    with pytest.raises(OdooConfigurationError, match="given twice"):
        to_named_params("res.partner", "search_read", [[]], {"domain": []})


@pytest.mark.parametrize(
    ("model", "method", "args", "body"),
    [
        # a model's own method with a parameter Odoo 19 declares
        ("crm.lead", "action_schedule_meeting", [[3], False],
         {"ids": [3], "smart_calendar": False}),
        ("account.move", "action_invoice_download_pdf", [[7], "zip"],
         {"ids": [7], "target": "zip"}),
        # an @api.model action_ method takes no ids, whatever its prefix says
        ("res.users", "action_setup_outgoing_mail_server", ["gmail"], {"server_type": "gmail"}),
        # BaseModel's methods absent from the table above, bound by Odoo 19's names
        ("res.partner", "onchange", [[1], {}, ["name"], {}],
         {"ids": [1], "values": {}, "field_names": ["name"], "fields_spec": {}}),
        ("sale.order", "web_search_read", [[], {"name": {}}],
         {"domain": [], "specification": {"name": {}}}),
    ],
)  # fmt: skip
@pytest.mark.req("REQ-02b-09")
def test_positional_arguments_take_the_names_odoo_19_declares(
    model: str, method: str, args: list[Any], body: dict[str, Any]
) -> None:
    """Issue 13: execute's positional args over JSON-2 bound by Odoo 19's real signatures."""
    assert to_named_params(model, method, args, {}) == body


def test_the_server_binds_by_the_table_the_fake_odoo_binds_by() -> None:
    """The server's copy of Odoo 19's signatures and the fake's are the same facts."""
    from fake_odoo.wire.signatures_odoo19 import BASE, MODELS

    def names(
        signature: tuple[bool, tuple[tuple[str, str, bool], ...]],
    ) -> tuple[bool, tuple[str, ...]]:
        api_model, params = signature
        return not api_model, tuple(n for n, kind, _ in params if kind in ("positional", "either"))

    checked = 0
    for method, signature in BASE.items():
        assert declared_params("x.model", method) == names(signature), method
        checked += 1
    for model, methods in MODELS.items():
        for method, signature in methods.items():
            assert declared_params(model, method) == names(signature), f"{model}.{method}"
            checked += 1
    assert checked > 200
