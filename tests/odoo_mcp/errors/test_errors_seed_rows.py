"""SPEC-10 rows the round-4 audit found the reference skipping: REQ-10-05's fault-string rows
for XML-RPC warnings, REQ-10-09's date-format suggestion, REQ-10-15's retry for every error
object, REQ-10-04's raw original_error."""

from __future__ import annotations

from typing import Any

import pytest

from odoo_mcp.adapter.errors import internal_error, unknown_tool_error
from odoo_mcp.connection.errors import OdooRpcError
from odoo_mcp.errors import (
    ErrorCategory,
    ErrorResponse,
    FieldHint,
    ToolError,
    classify,
    retry_for,
    to_payload,
)

#: REQ-10-09 §5.1, word for word
DATE_SUGGESTION = "Use format YYYY-MM-DD for dates, YYYY-MM-DD HH:MM:SS for datetimes"

#: REQ-10-15 §8: the seed's table
SEED_RETRY = {
    "validation": True, "access": False, "not_found": True, "constraint": True, "state": True,
    "wizard": True, "connection": True, "rate_limit": True, "configuration": False,
    "unknown": False,
}  # fmt: skip


def _traceback(line: str) -> str:
    """An XML-RPC fault 1 string as Odoo (and the fake) sends it."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/odoo/odoo/fields.py", line 2247, in to_date\n'
        "    return datetime.strptime(value, DATE_FORMAT).date()\n"
        f"{line}\n"
    )


def _jsonrpc(name: str, message: str) -> OdooRpcError:
    return OdooRpcError.from_jsonrpc_error(
        {"code": 200, "message": "Odoo Server Error",
         "data": {"name": name, "message": message, "debug": f"{name}: {message}"}}
    )  # fmt: skip


def _json2(name: str, message: str, status: int = 422) -> OdooRpcError:
    body = {"name": name, "message": message, "arguments": [message], "debug": ""}
    return OdooRpcError.from_json2_error(body, status)


# -- REQ-10-05 ----------------------------------------------------------------------------------
@pytest.mark.req("REQ-10-05")
@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("A record with this name already exists (duplicate)", "UNIQUE_VIOLATION"),
        ("The internal reference zq-1 must be unique per company", "UNIQUE_VIOLATION"),
        ("violates check constraint on amount", "CHECK_CONSTRAINT"),
        ("insert or update violates foreign key constraint", "FK_VIOLATION"),
    ],
)
def test_an_xmlrpc_warning_saying_unique_check_or_foreign_key_is_a_constraint(
    message: str, code: str
) -> None:
    """REQ-10-05: fault 2 carries the message alone; its text rows apply (seed §4.1)."""
    response = classify(OdooRpcError.from_xmlrpc_fault(2, message), model="res.partner")
    assert (response.category, response.code, response.retry) == (
        ErrorCategory.CONSTRAINT, code, True,
    )  # fmt: skip


@pytest.mark.req("REQ-10-05", "REQ-10-07")
def test_a_warning_without_those_words_stays_a_user_error_and_json_reads_the_class() -> None:
    """REQ-10-05 "UserError" row (via fault 2) and REQ-10-07: JSON names the class, so a
    UserError saying "duplicate" is USER_ERROR there (the JSON table has no text rows)."""
    plain = classify(OdooRpcError.from_xmlrpc_fault(2, "You cannot do that now"))
    assert plain.code == "USER_ERROR"
    duplicate = "A record with this name already exists (duplicate)"
    for error in (
        _jsonrpc("odoo.exceptions.UserError", duplicate),
        _json2("odoo.exceptions.UserError", duplicate),
    ):
        assert classify(error).code == "USER_ERROR"
    # fault 4 is AccessError: access whatever the text says
    refused = OdooRpcError.from_xmlrpc_fault(4, "Not allowed: the key must be unique")
    assert classify(refused).category is ErrorCategory.ACCESS


@pytest.mark.req("REQ-10-05", "REQ-10-07")
def test_odoo_19s_unique_validation_error_keeps_one_code_on_every_protocol() -> None:
    """Decision 22 (O19-VAL-010): "The operation cannot be completed: ..." is a ValidationError
    on JSON-RPC and JSON-2 (REQ-10-07) and keeps that code over XML-RPC fault 2."""
    message = "The operation cannot be completed: The code of the country must be unique!"
    for error in (
        OdooRpcError.from_xmlrpc_fault(2, message),
        _jsonrpc("odoo.exceptions.ValidationError", message),
        _json2("odoo.exceptions.ValidationError", message),
    ):
        response = classify(error, model="res.country")
        assert (response.category, response.code) == (ErrorCategory.VALIDATION, "VALIDATION_ERROR")


# -- REQ-10-09 ----------------------------------------------------------------------------------
DATE_ERRORS = [
    "time data '31/12/2026' does not match format '%Y-%m-%d'",
    "time data 'tomorrow' does not match format '%Y-%m-%d %H:%M:%S'",
    "Invalid isoformat string: '31/12/2026'",
]


@pytest.mark.req("REQ-10-09", "REQ-10-10")
@pytest.mark.parametrize("message", DATE_ERRORS)
def test_an_invalid_date_gets_the_seeds_date_format_suggestion(message: str) -> None:
    """REQ-10-09: "Invalid date format" -> the seed's suggestion, though Odoo names no field."""
    for error in (
        OdooRpcError.from_xmlrpc_fault(1, _traceback(f"ValueError: {message}")),
        _jsonrpc("builtins.ValueError", message),
        _json2("builtins.ValueError", message),
    ):
        response = classify(error, model="sale.order", method="create")
        assert response.category is ErrorCategory.VALIDATION
        assert response.code == "VALUE_ERROR"  # REQ-10-07's row for builtins.ValueError
        assert DATE_SUGGESTION in response.suggestion
        assert "odoo_core_fields_get" in response.suggestion  # REQ-10-10
        assert response.retry is True


@pytest.mark.req("REQ-10-09")
def test_a_date_field_odoo_names_gets_the_same_suggestion() -> None:
    """REQ-10-09: the field-type help of a date or datetime field says the seed's words."""
    from odoo_mcp.errors.suggestions import field_type_help

    for kind in ("date", "datetime"):
        assert DATE_SUGGESTION in field_type_help(FieldHint("validity_date", type=kind), "x")


@pytest.mark.req("REQ-10-09")
def test_other_value_errors_do_not_get_the_date_suggestion() -> None:
    response = classify(_jsonrpc("builtins.ValueError", "Kit refusal zq-7"))
    assert response.code == "VALUE_ERROR"
    assert DATE_SUGGESTION not in response.suggestion


# -- REQ-10-15 ----------------------------------------------------------------------------------
@pytest.mark.req("REQ-10-15")
@pytest.mark.parametrize("category", list(ErrorCategory))
def test_retry_follows_the_seed_table_whatever_the_builder_says(category: ErrorCategory) -> None:
    """REQ-10-15: ErrorResponse, ToolError and a copy all give the table's retry."""
    expected = SEED_RETRY[category.value]
    assert retry_for(category) is expected
    for said in (True, False):
        built = ErrorResponse(category=category, code="X", message="m", suggestion="s", retry=said)
        assert built.retry is expected
        assert to_payload(built)["retry"] is expected
        assert built.model_copy(update={"retry": not expected}).retry is expected
        assert ToolError("X", "m", category=category, retry=said).to_response().retry is expected
        assert classify(ToolError("X", "m", category=category, retry=said)).retry is expected


class _ShapedRefusal(Exception):
    """Shaped like safety.SafetyError, with its class-level ``retry = False``."""

    retry = False

    def __init__(self, category: str) -> None:
        super().__init__("no")
        self.category, self.code, self.message, self.suggestion = category, "X", "no", "s"


@pytest.mark.req("REQ-10-15")
@pytest.mark.parametrize("category", [c.value for c in ErrorCategory])
def test_a_spec_shaped_refusal_cannot_override_retry(category: str) -> None:
    assert classify(_ShapedRefusal(category)).retry is SEED_RETRY[category]


@pytest.mark.req("REQ-10-15")
def test_the_servers_own_readonly_refusal_is_retried() -> None:
    """REQ-10-15: odoo_core_write's readonly-field refusal (validation, built by the server
    with retry=False) says retry true: the caller can drop the field and call again."""
    exc = ToolError(
        "VALIDATION_ERROR",
        "Field(s) 'display_name' of 'res.partner' are readonly and cannot be written",
        category=ErrorCategory.VALIDATION,
        retry=False,
    )
    assert to_payload(classify(exc))["retry"] is True


@pytest.mark.req("REQ-10-15", "REQ-10-16")
def test_the_json_rpc_error_data_follows_the_table_too() -> None:
    """REQ-10-15: -32601's data is not_found (retry true), -32603's is unknown (false)."""
    data: Any = unknown_tool_error("odoo_core_teleport", ["odoo_core_read"]).error.data
    assert (data["category"], data["retry"]) == ("not_found", True)
    data = internal_error(RuntimeError("x")).error.data
    assert (data["category"], data["retry"]) == ("unknown", False)


# -- REQ-10-04 ----------------------------------------------------------------------------------
@pytest.mark.req("REQ-10-04")
def test_original_error_of_an_xmlrpc_warning_is_the_bare_fault_string() -> None:
    """REQ-10-04: fault 2 carries no class; original_error names none (not "UserError")."""
    message = "The operation cannot be completed: The code of the country must be unique!"
    response = classify(OdooRpcError.from_xmlrpc_fault(2, message))
    assert response.original_error == message
    access = classify(OdooRpcError.from_xmlrpc_fault(4, "You are not allowed to do that."))
    assert access.original_error == "You are not allowed to do that."


@pytest.mark.req("REQ-10-04")
def test_original_error_keeps_the_class_the_wire_carried_as_spelt() -> None:
    """REQ-10-04: a fault 1 traceback says "ValueError"; JSON names the qualified class."""
    line = "ValueError: time data 'x' does not match format '%Y-%m-%d'"
    fault = classify(OdooRpcError.from_xmlrpc_fault(1, _traceback(line)))
    assert fault.original_error == line
    json_rpc = classify(_jsonrpc("odoo.exceptions.ValidationError", "Invalid value here"))
    assert json_rpc.original_error == "odoo.exceptions.ValidationError: Invalid value here"
