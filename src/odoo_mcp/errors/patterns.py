"""L2/10a: the error pattern database, as data (REQ-10-11/12, REQ-10a-01..03).

Each :class:`ErrorPattern` maps a regex over Odoo's error message to a category, a code, a
message and a suggestion. ``ERROR_PATTERNS`` is ordered by specificity and the first match
wins (REQ-10a-02); :func:`register_pattern` extends it without touching the classifier
(REQ-10a-03). The 28 patterns of L2/10a come first, in their order; ``patterns_odoo19.py``
registers patterns for real Odoo 19 messages that the L2 regexes do not reach, then
``patterns_odoo17.py`` those for Odoo 17's wording of the same errors.

Regexes are L2's, except where real Odoo 19 text (tests/fixtures/odoo19) showed them blind;
each widening keeps the L2 form as one alternative and says why in a comment. Templates use
``{name}`` placeholders filled from the regex groups plus ``model``, ``method`` and
``field_type_help`` (a missing value renders as "").
"""

# Regexes and templates are quoted whole, one per line, so each reads against L2/10a:
# ruff: noqa: E501

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from odoo_mcp.errors.categories import ErrorCategory, ErrorCode

__all__ = ["ERROR_PATTERNS", "L2_PATTERN_IDS", "ErrorPattern", "GroupRef", "register_pattern"]

#: a regex group index, or several tried in order (the first non-empty one wins)
GroupRef = int | tuple[int, ...]


@dataclass(frozen=True, eq=False, slots=True)
class ErrorPattern:
    """REQ-10a-01: one known Odoo error and the response it gets.

    ``error_class`` narrows the pattern to exception classes (substring match, e.g.
    ``"ValidationError"``); ``requires_class`` skips it when the class is unknown, for regexes
    too loose to run on bare text.
    """

    id: str
    pattern: str
    category: ErrorCategory
    code: str
    message_template: str
    suggestion_template: str
    extract_groups: Mapping[str, GroupRef] = field(default_factory=dict)
    error_class: str | tuple[str, ...] | None = None
    requires_class: bool = False
    regex: re.Pattern[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "regex", re.compile(self.pattern, re.IGNORECASE))

    @property
    def error_classes(self) -> tuple[str, ...]:
        """The exception classes this pattern is narrowed to (empty: any)."""
        if self.error_class is None:
            return ()
        return (self.error_class,) if isinstance(self.error_class, str) else self.error_class


V, A, N, C, S = (
    ErrorCategory.VALIDATION,
    ErrorCategory.ACCESS,
    ErrorCategory.NOT_FOUND,
    ErrorCategory.CONSTRAINT,
    ErrorCategory.STATE,
)
_VALIDATION_ERROR = "odoo.exceptions.ValidationError"
_USER_ERROR = "odoo.exceptions.UserError"
_ACCESS_ERROR = "odoo.exceptions.AccessError"

#: REQ-10a-03: the module-level list; list order is match order.
ERROR_PATTERNS: list[ErrorPattern] = [
    # Odoo 19 says "Missing required value for the field 'Customer' (partner_id)": added as
    # the first alternative; L2's regex is the second.
    ErrorPattern(
        "VAL-001",
        r"Missing required value for the field '([^']*)' \((\w+)\)|(?:Missing required|Required) fields?[:\s]*['\"]?(\w+(?:\.\w+)?)['\"]?",
        V,
        ErrorCode.MISSING_REQUIRED_FIELD,
        "Required field '{field}' is missing on {model}",
        "Include '{field}' in the values. {field_type_help}",
        {"field_label": 1, "field": (2, 3)},
        _VALIDATION_ERROR,
    ),
    ErrorPattern(
        "VAL-001b",
        r"null value in column \"(\w+)\".*violates not-null constraint",
        V,
        ErrorCode.MISSING_REQUIRED_FIELD,
        "Field '{field}' cannot be empty on {model} (database NOT NULL constraint)",
        "Give '{field}' a value. {field_type_help}",
        {"field": 1},
    ),
    # Odoo 19's fields= check says "on 'res.partner'" without the word "model".
    ErrorPattern(
        "VAL-002",
        r"Invalid field '(\w+)' on (?:model )?'([\w.]+)'",
        V,
        ErrorCode.INVALID_FIELD,
        "Field '{field}' does not exist on model {model}",
        "List the model's fields with odoo_core_fields_get (model='{model}'); the name may be misspelt or belong to another Odoo version.",
        {"field": 1, "model": 2},
    ),
    # Odoo 19 raises ValueError "Wrong value for res.partner.type: 'bogus'": dotted name.
    ErrorPattern(
        "VAL-003",
        r"Wrong value for (?:([\w.]+)\.)?(\w+):\s*'([^']*)'",
        V,
        ErrorCode.WRONG_VALUE,
        "Value '{value}' is not valid for field '{field}' on {model}",
        "Check the field's type and allowed values with odoo_core_fields_get (model='{model}'). {field_type_help}",
        {"model": 1, "field": 2, "value": 3},
        ("ValidationError", "ValueError"),
    ),
    # Odoo's ensure_one() says "Expected singleton: res.partner(1, 2)".
    ErrorPattern(
        "VAL-004",
        r"Expected singleton(?::\s*([\w.]+)\(([\d,\s]*)\)|.*got (\d+) records)",
        V,
        ErrorCode.SINGLETON_EXPECTED,
        "The method expects exactly one {model} record, got {ids}{count}",
        "Call the method with a single record ID in ids.",
        {"model": 1, "ids": 2, "count": 3},
        "ValueError",
    ),
    ErrorPattern(
        "VAL-005",
        r"Selection '(\w+)' invalid for field '(\w+)' on model '([\w.]+)'",
        V,
        ErrorCode.INVALID_SELECTION,
        "'{value}' is not an allowed value of selection field '{field}' on {model}",
        "List the valid values with odoo_core_fields_get (model='{model}', attributes=['selection']). {field_type_help}",
        {"value": 1, "field": 2, "model": 3},
    ),
    # CPython quotes the type ("got 'int'"): optional quotes added.
    ErrorPattern(
        "VAL-006",
        r"(?:expected|Expected)\s+(\w+).*?(?:got|received)\s+'?(\w+)'?",
        V,
        ErrorCode.TYPE_MISMATCH,
        "Type {expected_type} expected, {actual_type} given",
        "Pass a value of the expected type; a many2one field wants an integer ID, not a name or a list.",
        {"expected_type": 1, "actual_type": 2},
        "TypeError",
    ),
    ErrorPattern(
        "VAL-007",
        r"Invalid literal for int\(\) with base 10: '([^']*)'",
        V,
        ErrorCode.INVALID_INTEGER,
        "'{value}' cannot be converted to an integer",
        "Pass an integer. For a many2one field pass the record ID, found with odoo_core_search_read, not its name.",
        {"value": 1},
        "ValueError",
    ),
    ErrorPattern(
        "ACC-001",
        r"Access Denied",
        A,
        ErrorCode.ACCESS_DENIED,
        "Odoo refused the credentials (Access Denied)",
        "The login, password or API key is invalid or expired. Report it to the user; the LLM cannot fix it.",
        {},
        "odoo.exceptions.AccessDenied",
    ),
    # Odoo 19: "You are not allowed to delete 'User' (res.users) records." (quoted name and
    # model); a record-rule message ("Due to security restrictions, you are ...") is ACC-003's.
    ErrorPattern(
        "ACC-002",
        r"(?<!restrictions, )(?:You are not allowed to|Sorry, you are not allowed to)\s+(\w+)\s+(?:(?:this|this type of|the)\s+([\w. ]+)|'([^']+)' \(([\w.]+)\) records)",
        A,
        ErrorCode.OPERATION_NOT_ALLOWED,
        "The Odoo user may not {operation} {resource} records ({model})",
        "The user lacks the Odoo access rights for this operation. Ask an Odoo administrator; do not retry.",
        {"operation": 1, "resource": (2, 3), "model": 4},
        _ACCESS_ERROR,
    ),
    # L2's trailing group took the first word after "prevented"; it now needs a dotted name.
    # Odoo 19's record-rule refusal (ir.rule) reads "Uh-oh! Looks like you have stumbled upon
    # some top-secret records.\n\nSorry, Marc Demo (id=5) doesn't have 'read' access to:\n-
    # Sales Order (sale.order)": the user may read the model, but not these records.
    ErrorPattern(
        "ACC-003",
        r"Record rule.*prevented.*?\b([a-z_]+\.[\w.]+)|Due to security restrictions, you are not allowed to (\w+) '[^']*' \(([\w.]+)\)|doesn't have '(\w+)' access to:\s*-\s*[^\n(]*\(([\w.]+)\)",
        A,
        ErrorCode.RECORD_RULE_VIOLATION,
        "Access to this {model} record is restricted by Odoo security rules",
        "Access to this specific record is restricted by Odoo record rules. Try another record (odoo_core_search_read lists the ones the user may see) or ask an administrator.",
        {"model": (1, 3, 5), "operation": (2, 4)},
        _ACCESS_ERROR,
    ),
    ErrorPattern(
        "ACC-004",
        r"Access to model '([\w.]+)' is not allowed",
        A,
        ErrorCode.MODEL_ACCESS_DENIED,
        "The current user has no access to model {model}",
        "The current user does not have access to '{model}'. This requires specific Odoo permissions (groups); ask an administrator.",
        {"model": 1},
        _ACCESS_ERROR,
    ),
    # Odoo 19: "Record does not exist or has been deleted.\n(Record: res.partner(999999,), ...)"
    # spans lines and ends the id list with a comma.
    ErrorPattern(
        "NF-001",
        r"Record does not exist or has been deleted\.?(?s:.*?)([\w.]+)\((\d+(?:,\s*\d+)*),?\)",
        N,
        ErrorCode.RECORD_NOT_FOUND,
        "Record(s) {ids} of {model} do not exist or have been deleted",
        "The records may have been deleted. Find valid IDs with odoo_core_search_read (model='{model}').",
        {"model": 1, "ids": 2},
        "odoo.exceptions.MissingError",
    ),
    # L2's regex captured the word after "does not exist"; real messages name the model first:
    # "Object no.such.model doesn't exist", "the model 'no.such.model' does not exist".
    ErrorPattern(
        "NF-002",
        r"\b(?:model|object)\s+'?([\w.]+)'?\s+(?:does not exist|doesn't exist)|unknown model[:\s]*'?([\w.]+)'?",
        N,
        ErrorCode.MODEL_NOT_FOUND,
        "Model {model} does not exist in this Odoo database",
        "Check the model name with odoo_core_list_models; the module that defines it may not be installed.",
        {"model": (1, 2)},
    ),
    # PostgreSQL puts "DETAIL: Key (f)=(v)" on the next line.
    ErrorPattern(
        "CON-001",
        r"duplicate key value violates unique constraint \"(\w+)\"(?s:.*?)Key \((\w+)\)=\(([^)]+)\)",
        C,
        ErrorCode.UNIQUE_VIOLATION,
        "A {model} record with {field}={value} already exists (constraint {constraint})",
        "A record with this '{field}' already exists. Use a different value or find the existing record with odoo_core_search_read.",
        {"constraint": 1, "field": 2, "value": 3},
        "psycopg2.errors.UniqueViolation",
    ),
    # PostgreSQL says 'violates check constraint "x"' (verb first) on insert and update.
    ErrorPattern(
        "CON-002",
        r"violates check constraint \"(\w+)\"|check constraint \"(\w+)\"(?s:.*?)violat",
        C,
        ErrorCode.CHECK_CONSTRAINT,
        "The values violate the check constraint {constraint} on {model}",
        "Check the allowed range of the values (see odoo_core_fields_get for the model) and change them.",
        {"constraint": (1, 2)},
        "psycopg2.errors.CheckViolation",
    ),
    # PostgreSQL's insert form says 'is not present in table "t"' rather than "referenced".
    ErrorPattern(
        "CON-003",
        r"foreign key constraint \"(\w+)\"(?s:.*?)(?:referenced|not present in table)(?s:.*?)\"(\w+)\"",
        C,
        ErrorCode.FK_VIOLATION,
        "A referenced row in table {table} does not exist (constraint {constraint})",
        "The referenced record does not exist. Verify the ID in the related model with odoo_core_search_read.",
        {"constraint": 1, "table": 2},
        "psycopg2.errors.ForeignKeyViolation",
    ),
    # Odoo 19: "You cannot cancel a stock move that has been set to 'Done'."
    ErrorPattern(
        "ST-001",
        r"(?:Cannot|can't|unable to)\s+(\w+).*?(?:in state|state|set to)\s+'(\w+)'",
        S,
        ErrorCode.INVALID_STATE_TRANSITION,
        "Cannot {action} a {model} record in state '{state}'",
        "The record is in state '{state}'. Read its state with odoo_core_read and see the valid transitions in the resource odoo://model/{model}/states.",
        {"action": 1, "state": 2},
        _USER_ERROR,
    ),
    ErrorPattern(
        "ST-002",
        r"(?:Only|only)\s+(?:draft|quotation).*?can be (\w+)",
        S,
        ErrorCode.DRAFT_REQUIRED,
        "The {model} record must be in draft to be {action}",
        "Reset it to draft with odoo_core_execute (method 'action_draft'), then retry.",
        {"action": 1},
        _USER_ERROR,
    ),
    # "has already been posted" has both words: optional "been" added.
    ErrorPattern(
        "ST-003",
        r"(?:already|has been)\s+(?:been\s+)?(?:confirmed|validated|posted|cancelled|done|locked)",
        S,
        ErrorCode.ALREADY_PROCESSED,
        "The {model} record has already been processed",
        "Read the record's 'state' with odoo_core_read to confirm; the operation is probably not needed.",
        {},
        _USER_ERROR,
    ),
    ErrorPattern(
        "BIZ-001",
        r"(?:No|no)\s+(?:account|journal).*?(?:configured|defined|found)",
        V,
        ErrorCode.MISSING_ACCOUNTING_CONFIG,
        "Accounting configuration is missing (no account or journal)",
        "An Odoo administrator must configure the default accounts or journals. Report it to the user.",
        {},
        _USER_ERROR,
    ),
    ErrorPattern(
        "BIZ-002",
        r"(?:not enough|insufficient)\s+(?:stock|quantity|qty)",
        V,
        ErrorCode.INSUFFICIENT_STOCK,
        "Not enough stock for this operation",
        "Check available quantities first with odoo_core_search_read on 'stock.quant' (fields quantity, reserved_quantity).",
        {},
        _USER_ERROR,
    ),
    # Odoo 19: "Cannot create an invoice. No items are available to invoice." (bare "no").
    ErrorPattern(
        "BIZ-003",
        r"(?:order|invoice|picking).*?\b(?:has no|without any|no)\s+(?:lines?|items?)",
        V,
        ErrorCode.MISSING_LINES,
        "The document has no lines",
        "Add lines first with odoo_core_write, e.g. {{'order_line': [[0, 0, {{...}}]]}}, then retry.",
        {},
        _USER_ERROR,
    ),
    ErrorPattern(
        "BIZ-004",
        r"The move.*?is already reconciled",
        S,
        ErrorCode.ALREADY_RECONCILED,
        "The journal entry is already reconciled",
        "Unreconcile it first (odoo_core_execute with method 'remove_move_reconcile' on its lines), then retry.",
        {},
        _USER_ERROR,
    ),
    # Odoo 19: "You can't delete a posted journal item." ("can't" added).
    ErrorPattern(
        "BIZ-005",
        r"(?:You can not|cannot|can't)\s+(?:delete|remove|unlink).*?(?:posted|validated|confirmed)",
        S,
        ErrorCode.CANNOT_DELETE_PROCESSED,
        "A posted or confirmed {model} record cannot be deleted",
        "Reset it to draft or cancel it first (odoo_core_execute with method 'action_draft' or 'action_cancel'), then delete with odoo_core_unlink.",
        {},
        _USER_ERROR,
    ),
    ErrorPattern(
        "CONN-001",
        r"(?:Connection refused|connection refused|ECONNREFUSED)",
        ErrorCategory.CONNECTION,
        ErrorCode.CONNECTION_REFUSED,
        "Cannot reach the Odoo server (connection refused)",
        "The Odoo server is not answering. Check that it is running and the URL is right, then retry.",
        {},
    ),
    ErrorPattern(
        "CONN-002",
        r"(?:timed out|timeout|ETIMEDOUT)",
        ErrorCategory.CONNECTION,
        ErrorCode.TIMEOUT,
        "The request to Odoo timed out",
        "Odoo may still be processing it: check the effect with odoo_core_search_read, then retry or narrow the request.",
        {},
    ),
    # Decision 7: reported only after re-authentication failed, so category access (L2 says
    # connection) and retry false.
    ErrorPattern(
        "CONN-003",
        r"Session expired|session_expired|Invalid session",
        A,
        ErrorCode.SESSION_EXPIRED,
        "The Odoo session expired and logging in again failed",
        "Odoo no longer accepts the server's credentials. Report it to the user; restarting the server with valid credentials fixes it.",
        {},
    ),
]

#: REQ-10a-03: the 28 pattern ids of L2/10a, in their normative order.
L2_PATTERN_IDS: Final = tuple(p.id for p in ERROR_PATTERNS)


def register_pattern(pattern: ErrorPattern, *, before: str | None = None) -> ErrorPattern:
    """REQ-10-12 / REQ-10a-03: add a pattern to ERROR_PATTERNS, leaving the classifier as is.

    Appended (lowest priority) unless ``before`` names the id it must precede. Ids are unique.
    """
    ids = [p.id for p in ERROR_PATTERNS]
    if pattern.id in ids:
        raise ValueError(f"error pattern {pattern.id!r} is already registered")
    if before is None:
        ERROR_PATTERNS.append(pattern)
    elif before in ids:
        ERROR_PATTERNS.insert(ids.index(before), pattern)
    else:
        raise ValueError(f"no error pattern {before!r} to insert {pattern.id!r} before")
    return pattern
