"""L2-02b: positional execute_kw arguments become JSON-2 named parameters (decision 6)."""

from __future__ import annotations

from typing import Any

import pytest

from odoo_mcp.connection import OdooConfigurationError
from odoo_mcp.connection.json2_params import to_named_params


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
