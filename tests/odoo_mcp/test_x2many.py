"""L2/04a x2many commands: the seven forms pass, anything else is refused before Odoo."""

from __future__ import annotations

from typing import Any

import pytest

from odoo_mcp.domain.x2many import check_x2many_commands
from odoo_mcp.errors import ToolError

VALID: list[Any] = [
    [[0, 0, {"name": "line"}]],
    [(0, 0, {"name": "a"}), (0, 0, {"name": "b"})],
    [[1, 7, {"name": "renamed"}]],
    [[2, 7, 0]],
    [[3, 7]],
    [[4, 7, 0], [4, 8, 0]],
    [[5, 0, 0]],
    [[5]],
    [[6, 0, [1, 2, 3]]],
    [[6, False, []]],
    [1, 2, 3],  # a plain id list: Odoo's to judge
    [],
    "text",
    42,
]

INVALID: list[tuple[Any, str]] = [
    ([[7, 0, 0]], "unknown command code 7"),
    ([[0, 0, [1]]], "CREATE takes [0, 0, {values}]"),
    ([[0, 0]], "CREATE takes"),
    ([[1, 0, {"name": "x"}]], "UPDATE takes [1, id, {values}]"),
    ([[4, [1, 2], 0]], "LINK takes [4, id, 0]"),
    ([[6, 0, 5]], "SET takes [6, 0, [ids]]"),
    ([[6, 0, ["a"]]], "list of record ids"),
    ([[True, 1, 0]], "unknown command code True"),
    ([[4, 1, 0], 3], "a command is a list"),
    ([[0, 0, {}, 1]], "at most 3 items"),
]


@pytest.mark.parametrize("value", VALID)
def test_valid_values_pass(value: Any) -> None:
    check_x2many_commands("sale.order", {"order_line": value})


@pytest.mark.parametrize(("value", "message"), INVALID)
def test_invalid_commands_are_refused_with_the_table(value: Any, message: str) -> None:
    with pytest.raises(ToolError) as caught:
        check_x2many_commands("sale.order", {"name": "S1", "order_line": value})
    error = caught.value
    assert error.code == "INVALID_X2MANY_COMMAND"
    assert message in error.message and "'order_line' of sale.order" in error.message
    assert error.suggestion is not None and "[6, 0, [ids]]" in error.suggestion
    assert error.details is not None and error.details["field"] == "order_line"
