"""SPEC-10 §4: every real Odoo 17.0 error capture, classified over its own protocol.

tests/fixtures/odoo17 holds the same requests as tests/fixtures/odoo19 (same file names, same
flow steps): where both versions answer with the same Odoo error, it gets the same code.
"""

from __future__ import annotations

import pytest
from odoo_captures import CaptureBatch
from test_errors_captures import EXPECTED as ODOO19_EXPECTED

from odoo_mcp.connection.errors import OdooRpcError
from odoo_mcp.errors import ErrorCategory, classify, retry_for, to_json

ODOO17 = CaptureBatch("odoo17", step_files=("flow_", "meta_"))
ODOO19 = CaptureBatch("odoo19", step_files=("flow_", "meta_"))

V, A, N, C, S, U, CF, K2 = (
    "validation", "access", "not_found", "connection", "state", "unknown", "configuration",
    "constraint",
)  # fmt: skip

ERRORS: dict[str, OdooRpcError] = dict(ODOO17.all_errors())

#: the same err_*.json request answers with the same Odoo error on 17 as on 19 (the test below
#: checks it): its expectation is test_errors_captures.EXPECTED's; these are 17's own: the
#: two captures 19 has no counterpart of, and every flow/meta step (17's flows diverge)
OWN: dict[str, tuple[str, str]] = {
    "err_callkw_web_search_read_fields_kwarg.json": (V, "INVALID_ARGUMENT"),
    "err_xmlrpc_name_search_domain_kwarg.json": (V, "INVALID_ARGUMENT"),
    "flow_account_move_invoice#9": (S, "CANNOT_DELETE_PROCESSED"),
    "flow_account_move_invoice#10": (S, "CANNOT_DELETE_PROCESSED"),
    "flow_account_move_invoice#11": (CF, "UNMARSHALLABLE_RESULT"),
    "flow_account_move_invoice#13": (S, "STATE_REQUIRED"),
    "flow_account_move_invoice#18": (S, "STATE_REQUIRED"),
    "flow_account_move_invoice#21": (S, "STATE_REQUIRED"),
    "flow_account_move_invoice#28": (V, "USER_ERROR"),
    "flow_account_move_invoice#30": (V, "MISSING_REQUIRED_FIELD"),
    "flow_account_move_invoice#31": (V, "MISSING_REQUIRED_FIELD"),
    "flow_copy_partner#6": (V, "SINGLETON_EXPECTED"),
    "flow_copy_partner#7": (N, "RECORD_NOT_FOUND"),
    "flow_copy_partner#8": (N, "RECORD_NOT_FOUND"),
    "flow_crm_lead_pipeline#0": (V, "INVALID_FIELD"),
    "flow_crm_lead_pipeline#3": (V, "INVALID_FIELD"),
    "flow_crm_lead_pipeline#6": (CF, "UNMARSHALLABLE_RESULT"),
    "flow_crm_lead_pipeline#7": (V, "INVALID_FIELD"),
    "flow_crm_lead_pipeline#10": (CF, "UNMARSHALLABLE_RESULT"),
    "flow_crm_lead_pipeline#11": (V, "INVALID_FIELD"),
    "flow_crm_lead_pipeline#13": (V, "INVALID_FIELD"),
    "flow_crm_lead_pipeline#14": (CF, "UNMARSHALLABLE_RESULT"),
    "flow_crm_lead_pipeline#17": (U, "UNKNOWN_ERROR"),
    "flow_demo_user_permissions#4": (A, "RECORD_RULE_VIOLATION"),
    "flow_demo_user_permissions#5": (A, "RECORD_RULE_VIOLATION"),
    "flow_demo_user_permissions#6": (A, "RECORD_RULE_VIOLATION"),
    "flow_demo_user_permissions#7": (A, "RECORD_RULE_VIOLATION"),
    "flow_demo_user_permissions#9": (A, "RECORD_RULE_VIOLATION"),
    "flow_demo_user_permissions#14": (A, "OPERATION_NOT_ALLOWED"),
    "flow_demo_user_permissions#16": (A, "OPERATION_NOT_ALLOWED"),
    "flow_demo_user_permissions#18": (A, "OPERATION_NOT_ALLOWED"),
    "flow_demo_user_permissions#25": (A, "OPERATION_NOT_ALLOWED"),
    "flow_demo_user_permissions#26": (A, "OPERATION_NOT_ALLOWED"),
    "flow_demo_user_permissions#31": (A, "OPERATION_NOT_ALLOWED"),
    "flow_demo_user_permissions#36": (S, "STATE_REQUIRED"),
    "flow_domain_child_of#8": (V, "INVALID_FIELD"),
    "flow_domain_operators#13": (V, "INVALID_DOMAIN"),
    "flow_domain_operators#14": (V, "INVALID_DOMAIN"),
    "flow_domain_operators#15": (V, "INVALID_FIELD"),
    "flow_name_search#2": (V, "INVALID_ARGUMENT"),
    "flow_read_group#9": (N, "METHOD_NOT_FOUND"),
    "flow_read_group#10": (N, "METHOD_NOT_FOUND"),
    "flow_read_group#11": (V, "INVALID_FIELD"),
    "flow_sale_order_cancel_wizard#18": (V, "SINGLETON_EXPECTED"),
    "flow_sale_order_invoice_payment#8": (CF, "UNMARSHALLABLE_RESULT"),
    "flow_sale_order_invoice_payment#25": (V, "INVALID_FIELD"),
    "flow_sale_order_invoice_payment#27": (V, "INVALID_FIELD"),
    "flow_sale_order_invoice_payment#28": (S, "ALREADY_PROCESSED"),
    "flow_sale_order_invoice_payment#34": (V, "INVALID_FIELD"),
    "flow_sale_order_invoice_payment#37": (V, "MISSING_LINES"),
    "flow_sale_order_invoice_payment#38": (A, "PRIVATE_METHOD"),
    "flow_sale_order_lifecycle#2": (V, "INVALID_FIELD"),
    "flow_sale_order_lifecycle#5": (S, "CANNOT_DELETE_PROCESSED"),
    "flow_sale_order_lifecycle#6": (S, "CANNOT_MODIFY_PROCESSED"),
    "flow_sale_order_lifecycle#7": (CF, "UNMARSHALLABLE_RESULT"),
    "flow_sale_order_lifecycle#9": (S, "CANNOT_MODIFY_PROCESSED"),
    "flow_sale_order_lifecycle#10": (CF, "UNMARSHALLABLE_RESULT"),
    "flow_sale_order_lifecycle#17": (S, "STATE_REQUIRED"),
    "flow_sale_order_lifecycle#21": (S, "DRAFT_REQUIRED"),
    "flow_sale_order_lifecycle#23": (S, "DRAFT_REQUIRED"),
    "flow_sale_order_lifecycle#24": (S, "STATE_REQUIRED"),
    "flow_sale_order_lifecycle#29": (S, "CANNOT_DELETE_PROCESSED"),
    "flow_search_order_offset_limit#7": (V, "INVALID_FIELD"),
    "flow_search_order_offset_limit#8": (V, "INVALID_ORDER"),
    "flow_stock_picking_no_stock#0": (V, "INVALID_FIELD"),
    "flow_stock_picking_no_stock#8": (V, "INSUFFICIENT_STOCK"),
    "flow_stock_picking_no_stock#13": (V, "USER_ERROR"),
    "flow_stock_picking_validate#0": (V, "INVALID_FIELD"),
    "flow_stock_picking_validate#1": (V, "INVALID_FIELD"),
    "flow_stock_picking_validate#15": (V, "INVALID_FIELD"),
    "flow_stock_picking_validate#22": (V, "INSUFFICIENT_STOCK"),
    "flow_stock_picking_validate#23": (S, "INVALID_STATE_TRANSITION"),
    "flow_stock_picking_validate#25": (S, "INVALID_STATE_TRANSITION"),
    "flow_three_wire_forms_sale_order#10": (S, "STATE_REQUIRED"),
    "flow_three_wire_forms_sale_order#11": (S, "STATE_REQUIRED"),
    "flow_three_wire_forms_sale_order#12": (S, "STATE_REQUIRED"),
    "flow_three_wire_forms_sale_order#13": (N, "RECORD_NOT_FOUND"),
    "flow_three_wire_forms_sale_order#14": (N, "RECORD_NOT_FOUND"),
    "flow_three_wire_forms_sale_order#16": (U, "UNKNOWN_ERROR"),
    "flow_three_wire_forms_sale_order#20": (S, "STATE_REQUIRED"),
    "flow_unlink_partner_referenced_orders#7": (K2, "FK_VIOLATION"),
    "flow_unlink_partner_referenced_orders#8": (K2, "FK_VIOLATION"),
    "meta_check_access_rights#24": (A, "OPERATION_NOT_ALLOWED"),
    "meta_check_access_rights#25": (A, "OPERATION_NOT_ALLOWED"),
    "meta_check_access_rights#27": (N, "METHOD_NOT_FOUND"),
    "meta_check_access_rights#28": (N, "METHOD_NOT_FOUND"),
    "meta_check_access_rights#29": (N, "METHOD_NOT_FOUND"),
    "meta_check_access_rights#30": (N, "METHOD_NOT_FOUND"),
}
#: REQ-10-05 / REQ-10-07 / L2/10a: every Odoo 17 error (err_*.json, flow/meta step) ->
#: (category, code). UNKNOWN_ERROR is left only where Odoo's text names no cause: an
#: AttributeError inside convert_opportunity given an int, an IndexError of action_confirm
#: called without ids.
EXPECTED: dict[str, tuple[str, str]] = {
    **{label: code for label, code in ODOO19_EXPECTED.items() if label in ERRORS},
    **OWN,
}


def test_every_odoo17_error_has_an_expected_classification() -> None:
    """REQ-10-01: no Odoo 17 error capture is left out of the table."""
    assert sorted(EXPECTED) == sorted(ERRORS)


@pytest.mark.parametrize("label", sorted(EXPECTED))
def test_odoo17_error_is_classified_with_code_category_and_retry(label: str) -> None:
    """REQ-10-01, REQ-10-05, REQ-10-07, REQ-10-15 on Odoo 17's wording."""
    response = classify(ERRORS[label])
    assert (response.category.value, response.code) == EXPECTED[label]
    assert response.retry is retry_for(ErrorCategory(EXPECTED[label][0]))
    assert response.suggestion
    assert response.original_error is not None and "\n" not in response.original_error
    text = to_json(response)
    assert "Traceback" not in text and 'File "' not in text


#: the same request answered by a different Odoo error on 17 and 19 (state or API changes)
DIFFERENT_ERRORS: dict[str, str] = {
    "flow_crm_lead_pipeline#14": "17 loses a won lead (None: marshal fault), 19 refuses it",
    "flow_demo_user_permissions#36": "17 finds the invoice posted, 19 refuses demo the right",
    "flow_sale_order_lifecycle#21": "17 says only drafts can be sent, 19 marks it (None)",
    "meta_check_access_rights#28": "check_access: absent on 17, private (api.private) on 19",
    "meta_check_access_rights#29": "check_access: absent on 17, private (api.private) on 19",
}


def test_the_same_request_gets_the_same_code_on_odoo17_and_odoo19() -> None:
    """REQ-10-05 / REQ-10-07: one code per Odoo error, whichever version words it."""
    odoo19 = dict(ODOO19.all_errors())
    pairs = {label: (error, odoo19[label]) for label, error in ERRORS.items() if label in odoo19}
    assert len(pairs) >= 100  # 104 requests fail on both versions
    for label in pairs:  # flow and meta steps are paired by index: the requests must match
        if "#" in label:
            stem, index = label.split("#")
            step17 = ODOO17.load(f"{stem}.json")["steps"][int(index)]
            step19 = ODOO19.load(f"{stem}.json")["steps"][int(index)]
            assert step17["label"] == step19["label"]
    codes = {label: (classify(e17).code, classify(e19).code) for label, (e17, e19) in pairs.items()}
    split = {k: v for k, v in codes.items() if v[0] != v[1] and k not in DIFFERENT_ERRORS}
    assert not split
    # the exceptions are real: two different Odoo errors, two different codes
    for label in DIFFERENT_ERRORS:
        e17, e19 = pairs[label]
        assert (e17.error_class, e17.message) != (e19.error_class, e19.message)
        assert codes[label][0] != codes[label][1]


def test_the_same_odoo17_error_gets_one_code_on_every_protocol() -> None:
    """REQ-10-05 / REQ-10-07: where Odoo 17 sends the same message over XML-RPC, /xmlrpc,
    /jsonrpc and the web client, the code does not depend on the protocol."""
    codes: dict[str, set[str]] = {}
    for error in ERRORS.values():
        codes.setdefault(error.message.strip(), set()).add(classify(error).code)
    assert not {message: found for message, found in codes.items() if len(found) > 1}


def test_missing_partner_on_odoo17_names_the_field_not_a_foreign_key() -> None:
    """REQ-10-02 / REQ-10-06 / REQ-10-09: Odoo 17's NOT NULL text also lists "- Delete:
    another model requires the record": still the missing field partner_id of sale.order."""
    for name in (
        "err_jsonrpc_create_sale_order_no_partner.json",
        "err_xmlrpc_create_sale_order_no_partner.json",
        "err_xmlrpc1_create_sale_order_no_partner.json",
    ):
        response = classify(ERRORS[name], fields=ODOO17.field_lookup)
        assert response.code == "MISSING_REQUIRED_FIELD"
        assert response.details is not None
        assert response.details["model"] == "sale.order"
        assert response.details["field"] == "partner_id"
        assert response.details["field_label"] == "Customer"
        assert response.details["field_type"] == "many2one"
        assert "odoo_core_search_read with model='res.partner'" in response.suggestion
        assert response.message == "Required field 'partner_id' is missing on sale.order"


def test_a_real_foreign_key_violation_on_odoo17_stays_one() -> None:
    """REQ-10-01: "another model requires the record being deleted" alone is the FK form."""
    for label in (
        "flow_unlink_partner_referenced_orders#7",
        "flow_unlink_partner_referenced_orders#8",
    ):
        response = classify(ERRORS[label], model="res.partner", method="unlink")
        assert (response.category, response.code) == (ErrorCategory.CONSTRAINT, "FK_VIOLATION")
        assert response.details is not None
        assert response.details["referencing_model"] == "sale.order"
        assert response.details["constraint"] == "sale_order_partner_id_fkey"


def test_a_key_error_names_a_model_when_dotted_and_a_field_otherwise() -> None:
    """REQ-10-07: Odoo 17's web client answers an unknown model with a bare KeyError of the
    model name; Odoo 19 answers an unknown field in write with a KeyError of the field."""
    response = classify(ERRORS["err_callkw_unknown_model.json"], method="search_read")
    assert (response.code, response.message) == (
        "MODEL_NOT_FOUND",
        "Model no.such.model does not exist in this Odoo database",
    )
    field = OdooRpcError("no_such_field", "builtins.KeyError", protocol="jsonrpc")
    assert classify(field, model="res.partner", method="write").code == "INVALID_FIELD"
    child_of = ERRORS["flow_domain_child_of#8"]  # KeyError: 'parent_id' (quoted)
    assert classify(child_of).code == "INVALID_FIELD"


def test_unknown_and_private_methods_on_odoo17_name_the_method() -> None:
    """REQ-10-06: method and model come out of Odoo 17's text (or the call's context)."""
    response = classify(ERRORS["err_xmlrpc_unknown_method.json"])
    assert response.details is not None
    assert (response.details["method"], response.details["model"]) == (
        "no_such_method",
        "res.partner",
    )
    response = classify(ERRORS["err_xmlrpc_private_method.json"], model="res.partner")
    assert response.message == (
        "Method _compute_display_name of res.partner is private and cannot be called remotely"
    )


def test_a_field_required_by_a_business_check_keeps_its_label() -> None:
    """REQ-10-06: "The field 'Customer' is required ..." names a label, not a technical name:
    details carry the label and no made-up field name."""
    response = classify(ERRORS["flow_account_move_invoice#30"], model="account.move")
    assert response.details is not None
    assert response.details["field_label"] == "Customer"
    assert "field" not in response.details
    assert "Customer" in response.message and "odoo_core_fields_get" in response.suggestion


def test_an_unmarshallable_result_suggests_another_protocol_and_no_retry() -> None:
    """Decision 15 / REQ-10-09: the method ran; XML-RPC cannot carry its result (None, or an
    object such as copy_data's): not retried, and the suggestion names JSON-RPC and a method
    that returns data."""
    none = [e for e in ERRORS.values() if "cannot marshal None" in e.message]
    assert len(none) == 7
    other = OdooRpcError.from_xmlrpc_fault(
        1, "Traceback (most recent call last):\nTypeError: cannot marshal <class 'set'> objects\n"
    )
    for error in [*none, other]:
        response = classify(error, model="res.partner", method="copy_data")
        assert (response.category, response.code) == (
            ErrorCategory.CONFIGURATION,
            "UNMARSHALLABLE_RESULT",
        )
        assert response.retry is False
        assert "JSON-RPC" in response.suggestion and "returns data" in response.suggestion
    assert "<class 'set'>" in classify(other).message


def test_every_odoo17_pattern_is_reached_first_by_a_real_or_quoted_message() -> None:
    """REQ-10a-02: no Odoo 17 pattern is shadowed by an earlier one (or dead)."""
    from odoo_mcp.errors.extract import match_pattern, parse_rpc_error
    from odoo_mcp.errors.patterns_odoo17 import ODOO17_PATTERN_IDS

    quoted = OdooRpcError.from_xmlrpc_fault(1, "TypeError: cannot marshal <class 'set'> objects")
    reached: set[str] = set()
    for error in [*ERRORS.values(), quoted]:
        parsed = parse_rpc_error(error)
        match = match_pattern(parsed.message, parsed.candidates)
        if match is not None:
            reached.add(match.pattern.id)
    assert set(ODOO17_PATTERN_IDS) <= reached
