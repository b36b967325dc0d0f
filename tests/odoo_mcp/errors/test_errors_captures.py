"""SPEC-10 §4: every real Odoo 19 error capture, classified over its own protocol."""

from __future__ import annotations

import json

import pytest
from odoo19_errors import error_captures, field_lookup, flow_errors, load, rpc_error

from odoo_mcp.errors import ErrorCategory, classify, retry_for, to_json

V, A, N, C, S, K, U, CF, K2 = (
    "validation", "access", "not_found", "connection", "state", "configuration", "unknown",
    "configuration", "constraint",
)  # fmt: skip

#: REQ-10-05 / REQ-10-07 / REQ-10-08 / L2/10a: capture -> (category, code)
EXPECTED: dict[str, tuple[str, str]] = {
    "err_callkw_demo_create_payment.json": (A, "OPERATION_NOT_ALLOWED"),
    "err_callkw_demo_read_config_parameter.json": (A, "OPERATION_NOT_ALLOWED"),
    "err_callkw_invalid_domain_field.json": (V, "INVALID_FIELD"),
    "err_callkw_no_session.json": (A, "SESSION_EXPIRED"),
    "err_callkw_private_method.json": (A, "PRIVATE_METHOD"),
    "err_callkw_unknown_method.json": (N, "METHOD_NOT_FOUND"),
    "err_callkw_unknown_model.json": (N, "MODEL_NOT_FOUND"),
    "err_callkw_unlink_partner_referenced.json": (K2, "FK_VIOLATION"),
    "err_json2_action_confirm_twice.json": (S, "STATE_REQUIRED"),
    "err_json2_bad_api_key.json": (A, "SESSION_EXPIRED"),
    "err_json2_bad_kwarg.json": (V, "INVALID_ARGUMENT"),
    "err_json2_default_get_fields_list.json": (V, "INVALID_ARGUMENT"),
    "err_json2_bad_path.json": (C, "ENDPOINT_NOT_FOUND"),
    "err_json2_create_sale_order_no_partner.json": (V, "MISSING_REQUIRED_FIELD"),
    "err_json2_demo_read_config_parameter.json": (A, "OPERATION_NOT_ALLOWED"),
    "err_json2_demo_unlink_user.json": (A, "OPERATION_NOT_ALLOWED"),
    "err_json2_create_m2o_string.json": (V, "INVALID_INTEGER"),
    "err_json2_demo_create_payment.json": (A, "OPERATION_NOT_ALLOWED"),
    "err_json2_ids_on_model_method.json": (V, "VALIDATION_ERROR"),
    "err_json2_invalid_domain_field.json": (V, "INVALID_FIELD"),
    "err_json2_invalid_fields_list.json": (V, "INVALID_FIELD"),
    "err_json2_invalid_json.json": (U, "UNKNOWN_ERROR"),
    "err_json2_no_auth_header.json": (A, "SESSION_EXPIRED"),
    "err_json2_private_method.json": (A, "PRIVATE_METHOD"),
    "err_json2_unknown_method.json": (N, "METHOD_NOT_FOUND"),
    "err_json2_unknown_model.json": (N, "MODEL_NOT_FOUND"),
    "err_json2_unlink_confirmed_order.json": (S, "CANNOT_DELETE_PROCESSED"),
    "err_json2_unlink_partner_referenced.json": (K2, "FK_VIOLATION"),
    "err_json2_validation_error_parent_loop.json": (V, "VALIDATION_ERROR"),
    "err_json2_write_missing_id.json": (N, "RECORD_NOT_FOUND"),
    "err_json2_write_unknown_field.json": (V, "INVALID_FIELD"),
    "err_jsonrpc_create_partner_no_name.json": (V, "VALIDATION_ERROR"),
    "err_jsonrpc_create_sale_order_no_partner.json": (V, "MISSING_REQUIRED_FIELD"),
    "err_jsonrpc_demo_unlink_user.json": (A, "OPERATION_NOT_ALLOWED"),
    "err_jsonrpc_execute_bad_password.json": (A, "ACCESS_DENIED"),
    "err_jsonrpc_invalid_domain_field.json": (V, "INVALID_FIELD"),
    "err_jsonrpc_private_method.json": (A, "PRIVATE_METHOD"),
    "err_jsonrpc_unknown_db.json": (CF, "DATABASE_NOT_FOUND"),
    "err_jsonrpc_unknown_method.json": (N, "METHOD_NOT_FOUND"),
    "err_jsonrpc_unknown_model.json": (N, "MODEL_NOT_FOUND"),
    "err_jsonrpc_unlink_partner_referenced.json": (K2, "FK_VIOLATION"),
    "err_jsonrpc_write_missing_id.json": (N, "RECORD_NOT_FOUND"),
    "err_xmlrpc1_bad_password.json": (A, "ACCESS_DENIED"),
    "err_xmlrpc1_create_sale_order_no_partner.json": (V, "MISSING_REQUIRED_FIELD"),
    "err_xmlrpc1_demo_unlink_user.json": (A, "OPERATION_NOT_ALLOWED"),
    "err_xmlrpc1_invalid_domain_field.json": (V, "INVALID_FIELD"),
    "err_xmlrpc1_private_method.json": (A, "PRIVATE_METHOD"),
    "err_xmlrpc1_unknown_model.json": (N, "MODEL_NOT_FOUND"),
    "err_xmlrpc1_write_missing_id.json": (N, "RECORD_NOT_FOUND"),
    "err_xmlrpc_bad_kwarg.json": (V, "INVALID_ARGUMENT"),
    # fault 2 does not say which UserError subclass, but only a ValidationError says "The
    # operation cannot be completed:" (O19-VAL-010): the same code as over JSON-RPC
    "err_xmlrpc_create_partner_no_name.json": (V, "VALIDATION_ERROR"),
    "err_xmlrpc_create_sale_order_no_partner.json": (V, "MISSING_REQUIRED_FIELD"),
    "err_xmlrpc_demo_read_config_parameter.json": (A, "OPERATION_NOT_ALLOWED"),
    "err_xmlrpc_demo_unlink_user.json": (A, "OPERATION_NOT_ALLOWED"),
    "err_xmlrpc_demo_write_company.json": (A, "OPERATION_NOT_ALLOWED"),
    "err_xmlrpc_execute_bad_password.json": (A, "ACCESS_DENIED"),
    "err_xmlrpc_invalid_domain_field.json": (V, "INVALID_FIELD"),
    "err_xmlrpc_invalid_domain_operator.json": (V, "INVALID_DOMAIN"),
    "err_xmlrpc_invalid_fields_list.json": (V, "INVALID_FIELD"),
    "err_xmlrpc_private_method.json": (A, "PRIVATE_METHOD"),
    "err_xmlrpc_sale_order_action_confirm_missing.json": (N, "RECORD_NOT_FOUND"),
    "err_xmlrpc_selection_bad_value.json": (V, "WRONG_VALUE"),
    "err_xmlrpc_unknown_db.json": (CF, "DATABASE_NOT_FOUND"),
    "err_xmlrpc_unknown_method.json": (N, "METHOD_NOT_FOUND"),
    "err_xmlrpc_unknown_model.json": (N, "MODEL_NOT_FOUND"),
    "err_xmlrpc_unknown_model_fields_get.json": (N, "MODEL_NOT_FOUND"),
    "err_xmlrpc_unlink_missing_id.json": (N, "RECORD_NOT_FOUND"),
    "err_xmlrpc_unlink_partner_referenced.json": (K2, "FK_VIOLATION"),
    "err_xmlrpc_validation_error_email_loop.json": (V, "VALIDATION_ERROR"),
    "err_xmlrpc_write_int_field_with_string.json": (V, "INVALID_INTEGER"),
    "err_xmlrpc_write_missing_id.json": (N, "RECORD_NOT_FOUND"),
    "err_xmlrpc_write_unknown_field.json": (V, "INVALID_FIELD"),
}


def test_every_error_capture_has_an_expected_classification() -> None:
    assert sorted(EXPECTED) == error_captures()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_capture_is_classified_with_code_category_and_retry(name: str) -> None:
    """REQ-10-01, REQ-10-05, REQ-10-07, REQ-10-08, REQ-10-15."""
    error = rpc_error(load(name))
    assert error is not None
    response = classify(error)
    category, code = EXPECTED[name]
    assert (response.category.value, response.code) == (category, code)
    assert response.retry is retry_for(ErrorCategory(category))
    assert response.suggestion
    assert "Traceback" not in to_json(response)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_original_error_is_the_final_exception_line(name: str) -> None:
    """REQ-10-13: the class and first message line; the full traceback stays off the wire.

    REQ-10-04: the raw error string: a class only where the wire carried one, spelt as there
    (an XML-RPC fault 2/3/4 is the bare message; a fault 1 traceback says ``ValueError``)."""
    capture = load(name)
    error = rpc_error(capture)
    assert error is not None
    response = classify(error)
    original = response.original_error
    assert original is not None
    assert "\n" not in original
    raw = json.dumps(capture.get("fault") or capture.get("body") or capture)
    fault = capture.get("fault") or {}
    if fault.get("faultCode") in (2, 3, 4):
        assert original == " ".join(fault["faultString"].split())[:500]
    elif error.error_class:
        named = original.split(":", 1)[0]  # legacy /xmlrpc says "AccessDenied" as the code
        assert error.error_class.endswith(named), (original, error.error_class)
        assert named.rsplit(".", 1)[-1] in raw, (original, raw[:200])


def test_access_errors_are_never_retried_and_connection_errors_wait() -> None:
    """REQ-10-15: access false; connection true with retry_after in seconds."""
    for name, (category, _) in EXPECTED.items():
        error = rpc_error(load(name))
        assert error is not None
        response = classify(error)
        if category == A:
            assert response.retry is False
        if category == C:
            assert response.retry is True and response.retry_after and response.retry_after > 0


def test_missing_partner_gets_the_spec_example_details_and_suggestion() -> None:
    """REQ-10-02 / REQ-10-06 / REQ-10-09: field, label, type and relation; search first."""
    error = rpc_error(load("err_jsonrpc_create_sale_order_no_partner.json"))
    assert error is not None
    response = classify(error, model="sale.order", method="create", fields=field_lookup)
    assert response.details is not None
    assert response.details["model"] == "sale.order"
    assert response.details["field"] == "partner_id"
    assert response.details["field_label"] == "Customer"
    assert response.details["field_type"] == "many2one"
    assert response.details["field_relation"] == "res.partner"
    assert "Include 'partner_id'" in response.suggestion
    assert "odoo_core_search_read with model='res.partner'" in response.suggestion
    assert response.message == "Required field 'partner_id' is missing on sale.order"


def test_missing_record_details_name_model_and_ids() -> None:
    """REQ-10-06: model and ids are extracted from Odoo's MissingError text."""
    error = rpc_error(load("err_xmlrpc_write_missing_id.json"))
    assert error is not None
    response = classify(error, method="write")
    assert response.details is not None
    assert response.details["model"] == "res.partner"
    assert response.details["ids"] == "999999"
    assert "odoo_core_search_read" in response.suggestion


#: flow steps (file stem, step index) -> code; the rest must still get a category
FLOW_EXPECTED: dict[tuple[str, int], str] = {
    ("flow_account_move_invoice", 6): "CANNOT_MODIFY_PROCESSED",
    ("flow_account_move_invoice", 9): "CANNOT_DELETE_PROCESSED",
    ("flow_account_move_invoice", 13): "STATE_REQUIRED",
    ("flow_account_move_invoice", 18): "STATE_REQUIRED",
    ("flow_demo_user_permissions", 4): "RECORD_RULE_VIOLATION",
    ("flow_demo_user_permissions", 7): "RECORD_RULE_VIOLATION",
    ("flow_demo_user_permissions", 14): "OPERATION_NOT_ALLOWED",
    ("flow_domain_operators", 13): "INVALID_DOMAIN",
    ("flow_name_search", 5): "INVALID_ARGUMENT",
    ("flow_sale_order_invoice_payment", 37): "MISSING_LINES",
    ("flow_sale_order_invoice_payment", 38): "PRIVATE_METHOD",
    ("flow_sale_order_lifecycle", 5): "CANNOT_DELETE_PROCESSED",
    ("flow_sale_order_lifecycle", 6): "CANNOT_MODIFY_PROCESSED",
    ("flow_sale_order_lifecycle", 9): "CANNOT_MODIFY_PROCESSED",
    ("flow_sale_order_lifecycle", 17): "STATE_REQUIRED",
    ("flow_sale_order_lifecycle", 23): "DRAFT_REQUIRED",
    ("flow_search_order_offset_limit", 7): "INVALID_FIELD",
    ("flow_search_order_offset_limit", 8): "INVALID_ORDER",
    ("flow_stock_picking_validate", 23): "INVALID_STATE_TRANSITION",
    ("flow_three_wire_forms_sale_order", 11): "STATE_REQUIRED",
    ("flow_three_wire_forms_sale_order", 14): "RECORD_NOT_FOUND",
    ("flow_three_wire_forms_sale_order", 20): "STATE_REQUIRED",
}


def test_flow_errors_get_their_codes() -> None:
    """L2/10a: real business-flow refusals reach their specific patterns."""
    found = {(flow, index): classify(error).code for flow, index, error in flow_errors()}
    assert {key: found.get(key) for key in FLOW_EXPECTED} == FLOW_EXPECTED


def test_a_none_marshal_fault_is_never_an_invitation_to_retry() -> None:
    """Decision 15: if such a fault ever reaches the classifier, retry stays false."""
    nones = [e for _, _, e in flow_errors() if "cannot marshal None" in e.message]
    assert nones
    for error in nones:
        assert classify(error).retry is False


def test_every_flow_error_renders_without_traceback_or_path() -> None:
    """REQ-10-14 on every captured flow error."""
    for _, _, error in flow_errors():
        text = to_json(classify(error))
        assert "Traceback" not in text and 'File "' not in text and "/opt/odoo" not in text


def test_the_same_odoo_error_gets_one_code_on_every_protocol() -> None:
    """REQ-10-05 / REQ-10-07: where the wire carries the same message (XML-RPC's fault 2 hides
    the class JSON-RPC and JSON-2 name), the code must not depend on the protocol."""
    codes: dict[str, dict[str, str]] = {}
    steps = [(name, rpc_error(load(name))) for name in error_captures()]
    steps += [(f"{name}#{index}", error) for name, index, error in flow_errors()]
    for label, error in steps:
        assert error is not None
        codes.setdefault(error.message.strip(), {})[label] = classify(error).code
    shared = {message: by for message, by in codes.items() if len(by) > 1}
    assert len(shared) >= 8  # the captures hold the same error over several paths
    split = {message: by for message, by in shared.items() if len(set(by.values())) > 1}
    assert not split
