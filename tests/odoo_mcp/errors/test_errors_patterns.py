"""L2/10a: the 28 patterns, their order, and extension by registration (REQ-10-11/12)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from odoo19_errors import load, rpc_error

from odoo_mcp.connection.errors import OdooRpcError
from odoo_mcp.errors import (
    ERROR_PATTERNS,
    ErrorCategory,
    ErrorPattern,
    classify,
    register_pattern,
)
from odoo_mcp.errors.extract import fill, match_pattern, parse_rpc_error
from odoo_mcp.errors.patterns import L2_PATTERN_IDS
from odoo_mcp.errors.suggestions import SPEC04_TOOLS


def _fault(name: str, step: int | None = None) -> tuple[str, tuple[str, ...]]:
    """The message and candidate classes of a real capture (or flow step)."""
    data = load(name)
    error = rpc_error(data if step is None else data["steps"][step])
    assert error is not None
    parsed = parse_rpc_error(error)
    return parsed.message, parsed.candidates


def _text(message: str, error_class: str | None = None) -> tuple[str, tuple[str, ...]]:
    return message, (error_class,) if error_class else ()


#: pattern id -> samples (message, classes). Real captures where Odoo 19 produced the error;
#: otherwise the message format of PostgreSQL / Odoo source, or the L2 text itself ("spec").
SAMPLES: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "VAL-001": [
        _fault("err_xmlrpc_create_sale_order_no_partner.json"),
        _fault("err_json2_create_sale_order_no_partner.json"),
        _text("Missing required fields: partner_id", "odoo.exceptions.ValidationError"),  # spec
    ],
    "VAL-001b": [
        _text(  # PostgreSQL's message format
            'null value in column "name" of relation "res_partner" violates not-null constraint',
            "psycopg2.errors.NotNullViolation",
        )
    ],
    "VAL-002": [
        _fault("err_xmlrpc_invalid_fields_list.json"),
        _fault("flow_search_order_offset_limit.json", 7),
    ],
    "VAL-003": [_fault("err_xmlrpc_selection_bad_value.json")],
    "VAL-004": [
        _text("Expected singleton: res.partner(1, 2)", "builtins.ValueError"),  # ensure_one()
        _text("Expected singleton record, got 3 records", "builtins.ValueError"),  # spec
    ],
    "VAL-005": [_text("Selection 'bogus' invalid for field 'type' on model 'res.partner'")],
    "VAL-006": [  # CPython 3.12's re module
        _text("expected string or bytes-like object, got 'int'", "builtins.TypeError")
    ],
    "VAL-007": [_fault("err_xmlrpc_write_int_field_with_string.json")],
    "ACC-001": [
        _fault("err_xmlrpc_execute_bad_password.json"),
        _fault("err_xmlrpc1_bad_password.json"),
        _fault("err_jsonrpc_execute_bad_password.json"),
    ],
    "ACC-002": [
        _fault("err_xmlrpc_demo_unlink_user.json"),
        _fault("err_json2_demo_read_config_parameter.json"),
        _fault("flow_demo_user_permissions.json", 14),
    ],
    "ACC-003": [
        _text(  # Odoo's record-rule message format
            "Due to security restrictions, you are not allowed to access 'Sales Order' "
            "(sale.order) records.",
            "odoo.exceptions.AccessError",
        ),
        _text("Record rule 'Own leads' prevented access to crm.lead"),  # spec
        # Odoo 19's ir.rule refusal ("top-secret records"): a record rule, not the model's ACL
        _fault("flow_demo_user_permissions.json", 4),
        _fault("flow_demo_user_permissions.json", 20),
    ],
    "ACC-004": [_text("Access to model 'ir.rule' is not allowed")],  # spec
    "NF-001": [
        _fault("err_xmlrpc_write_missing_id.json"),
        _fault("err_xmlrpc1_write_missing_id.json"),
        _fault("err_json2_write_missing_id.json"),
    ],
    "NF-002": [
        _fault("err_xmlrpc_unknown_model.json"),
        _fault("err_json2_unknown_model.json"),
        _fault("err_jsonrpc_unknown_model.json"),
    ],
    "CON-001": [
        _text(  # PostgreSQL's message format
            'duplicate key value violates unique constraint "res_partner_ref_uniq"\n'
            "DETAIL:  Key (ref)=(ACME) already exists.",
            "psycopg2.errors.UniqueViolation",
        )
    ],
    "CON-002": [
        _text(
            'new row for relation "sale_order_line" violates check constraint '
            '"sale_order_line_non_accountable_null_fields"',
            "psycopg2.errors.CheckViolation",
        )
    ],
    "CON-003": [
        _text(
            'insert or update on table "sale_order" violates foreign key constraint '
            '"sale_order_partner_id_fkey"\nDETAIL:  Key (partner_id)=(999999) is not present '
            'in table "res_partner".',
            "psycopg2.errors.ForeignKeyViolation",
        ),
        _text(
            'update or delete on table "res_partner" violates foreign key constraint '
            '"sale_order_partner_id_fkey" on table "sale_order"\nDETAIL:  Key (id)=(7) is '
            'still referenced from table "sale_order".',
            "psycopg2.errors.ForeignKeyViolation",
        ),
    ],
    "ST-001": [
        _fault("flow_stock_picking_validate.json", 23),
        _text("Cannot confirm an order in state 'cancel'", "odoo.exceptions.UserError"),  # spec
    ],
    "ST-002": [_fault("flow_sale_order_lifecycle.json", 23)],
    "ST-003": [  # the account.move sibling of the captured "must be in draft."
        _text("The entry INV/2026/00010 (id 57) is already posted.", "odoo.exceptions.UserError")
    ],
    "BIZ-001": [
        _text(  # Odoo's account journal message format
            "No journal could be found in company YourCompany for any of those types: sale",
            "odoo.exceptions.UserError",
        )
    ],
    "BIZ-002": [_text("There is not enough stock to reserve", "odoo.exceptions.UserError")],
    "BIZ-003": [_fault("flow_sale_order_invoice_payment.json", 37)],
    "BIZ-004": [_text("The move MISC/2026/00001 is already reconciled.")],  # spec
    "BIZ-005": [
        _fault("flow_account_move_invoice.json", 9),
        _fault("flow_sale_order_lifecycle.json", 5),
    ],
    "CONN-001": [_text("cannot reach Odoo (refused): [Errno 111] Connection refused")],
    "CONN-002": [_text("Odoo did not answer in time: timed out")],
    "CONN-003": [_text("Odoo Session Expired", "odoo.http.SessionExpiredException")],
}


def test_the_28_l2_patterns_are_registered_in_l2_order() -> None:
    """REQ-10a-03: ERROR_PATTERNS holds the 28 L2 patterns in their normative order."""
    assert len(L2_PATTERN_IDS) == 28
    ids = [p.id for p in ERROR_PATTERNS]
    assert [i for i in ids if i in L2_PATTERN_IDS] == list(L2_PATTERN_IDS)
    assert len(set(ids)) == len(ids)


def test_every_l2_pattern_has_samples() -> None:
    assert set(SAMPLES) == set(L2_PATTERN_IDS)


def _samples() -> Iterator[tuple[str, str, tuple[str, ...]]]:
    for pattern_id, samples in SAMPLES.items():
        for message, classes in samples:
            yield pattern_id, message, classes


@pytest.mark.parametrize(("pattern_id", "message", "classes"), list(_samples()))
def test_sample_is_matched_first_by_its_pattern(
    pattern_id: str, message: str, classes: tuple[str, ...]
) -> None:
    """REQ-10a-02: over the whole list, the first match is the expected pattern."""
    match = match_pattern(message, classes)
    assert match is not None
    assert match.pattern.id == pattern_id


def test_group_extraction_reads_real_messages() -> None:
    """REQ-10-06: model, field, ids, operation come out of Odoo's own text."""
    message, classes = _fault("err_xmlrpc_demo_unlink_user.json")
    match = match_pattern(message, classes)
    assert match is not None
    assert match.groups == {"operation": "delete", "resource": "User", "model": "res.users"}
    message, classes = _fault("err_xmlrpc_selection_bad_value.json")
    match = match_pattern(message, classes)
    assert match is not None
    assert match.groups == {"model": "res.partner", "field": "type", "value": "bogus"}


def test_a_pattern_narrowed_to_a_class_skips_other_classes() -> None:
    """REQ-10a-02: class narrowing is a substring test; unknown class does not narrow."""
    assert match_pattern("Access Denied", ("odoo.exceptions.AccessError",)) is None
    match = match_pattern("Access Denied", ())
    assert match is not None and match.pattern.id == "ACC-001"


def test_every_template_renders_and_names_only_spec04_tools() -> None:
    """REQ-10-10: suggestions name SPEC-04 tools by their exact names."""
    for pattern in ERROR_PATTERNS:
        for template in (pattern.message_template, pattern.suggestion_template):
            text = fill(template, {"model": "sale.order", "field": "partner_id"})
            assert "{" not in text.replace("{'", "").replace("{...}", "")
            assert set(re.findall(r"\bodoo_[a-z_]+", text)) <= SPEC04_TOOLS


@pytest.fixture
def restore_patterns() -> Iterator[None]:
    saved = list(ERROR_PATTERNS)
    yield
    ERROR_PATTERNS[:] = saved


@pytest.mark.usefixtures("restore_patterns")
def test_a_registered_pattern_classifies_without_classifier_changes() -> None:
    """REQ-10-12 / REQ-10a-03: register_pattern extends the database."""
    error = OdooRpcError.from_xmlrpc_fault(2, "Even magicians can't post nothing!")
    assert classify(error).code == "USER_ERROR"
    register_pattern(
        ErrorPattern(
            "TEST-001",
            r"can't post nothing",
            ErrorCategory.VALIDATION,
            "EMPTY_INVOICE",
            "The {model} has no lines to post",
            "Add invoice lines with odoo_core_write, then post again.",
            {},
            "UserError",
        ),
        before="BIZ-005",
    )
    response = classify(error, model="account.move")
    assert (response.code, response.message) == (
        "EMPTY_INVOICE",
        "The account.move has no lines to post",
    )


@pytest.mark.usefixtures("restore_patterns")
def test_registration_refuses_duplicate_ids_and_unknown_anchors() -> None:
    pattern = ErrorPattern("VAL-001", "x", ErrorCategory.VALIDATION, "X", "m", "s")
    with pytest.raises(ValueError, match="already registered"):
        register_pattern(pattern)
    fresh = ErrorPattern("TEST-002", "x", ErrorCategory.VALIDATION, "X", "m", "s")
    with pytest.raises(ValueError, match="no error pattern"):
        register_pattern(fresh, before="NOPE-1")
    register_pattern(fresh)
    assert ERROR_PATTERNS[-1] is fresh


#: Odoo 19's text for a foreign-key violation on unlink, as ``odoo.service.model`` raises it
FK_ON_UNLINK = (
    "The operation cannot be completed: another model requires the record being deleted. "
    "If possible, archive it instead.\n\nModel: Contact (res.partner)\n"
    "Constraint: res_partner_country_id_fkey\n"
)


@pytest.mark.parametrize("protocol", ["xmlrpc", "jsonrpc", "json2"])
def test_a_referenced_record_that_cannot_be_deleted_is_a_constraint_error(protocol: str) -> None:
    """REQ-10-01 / REQ-10-09: Odoo 19 wraps the FK violation in a ValidationError; the
    pattern O19-CON-003 makes it constraint / FK_VIOLATION with a suggestion to archive."""
    if protocol == "xmlrpc":
        error = OdooRpcError.from_xmlrpc_fault(2, FK_ON_UNLINK)
    else:
        error = OdooRpcError(
            FK_ON_UNLINK, error_class="odoo.exceptions.ValidationError", protocol=protocol
        )
    response = classify(error, model="res.country", method="unlink")
    assert (response.category, response.code) == (ErrorCategory.CONSTRAINT, "FK_VIOLATION")
    assert response.retry is True
    assert response.message == (
        "The res.country record cannot be deleted: res.partner records still refer to it "
        "(constraint res_partner_country_id_fkey)"
    )
    assert "odoo_core_write" in response.suggestion and "'active': false" in response.suggestion
    assert response.details is not None
    assert response.details["referencing_model"] == "res.partner"


def test_the_not_null_text_of_a_missing_field_is_not_taken_for_a_foreign_key() -> None:
    """REQ-10a-02: VAL-001's message also says "another model requires the record being
    deleted, you can archive it instead": it stays MISSING_REQUIRED_FIELD."""
    message, classes = _fault("err_xmlrpc_create_sale_order_no_partner.json")
    match = match_pattern(message, classes)
    assert match is not None and match.pattern.id == "VAL-001"


def test_a_state_refusal_quotes_odoos_reason_in_one_sentence() -> None:
    """O19-ST-005: the message quotes Odoo's first line instead of gluing groups together."""
    error = OdooRpcError.from_xmlrpc_fault(
        2, "Only posted/cancelled journal entries can be reset to draft."
    )
    response = classify(error, model="account.move", method="button_draft")
    assert response.code == "STATE_REQUIRED"
    assert response.message == (
        "The account.move record is not in the state this operation needs: "
        "Only posted/cancelled journal entries can be reset to draft."
    )
