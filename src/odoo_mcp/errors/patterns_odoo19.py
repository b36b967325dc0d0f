"""L2/10a extension: patterns for real Odoo 19 messages that the 28 L2 patterns do not reach.

Every pattern here was written against a captured Odoo 19 answer (tests/fixtures/odoo19) and is
added with :func:`register_pattern` — the extension path of REQ-10-12 — at the position its
specificity needs. The 28 L2 patterns keep their relative order.
"""

# Regexes and templates are kept whole on one line, like patterns.py:
# ruff: noqa: E501

from __future__ import annotations

from odoo_mcp.errors.categories import ErrorCategory, ErrorCode
from odoo_mcp.errors.patterns import ErrorPattern, register_pattern
from odoo_mcp.errors.suggestions import DATE_FORMAT_HELP

__all__ = ["ODOO19_PATTERN_IDS"]

V, A, N, S = (
    ErrorCategory.VALIDATION,
    ErrorCategory.ACCESS,
    ErrorCategory.NOT_FOUND,
    ErrorCategory.STATE,
)

#: (pattern, id of the L2 pattern it goes before)
_EXTRAS: tuple[tuple[ErrorPattern, str], ...] = (
    # "Invalid field res.partner.no_such_field in condition ('no_such_field', '=', 1)"
    (
        ErrorPattern(
            "O19-VAL-002c",
            r"Invalid field ([\w.]+)\.(\w+) in condition",
            V,
            ErrorCode.INVALID_FIELD,
            "The domain names field '{field}', which does not exist on {model}",
            "Fix the domain: list the fields of '{model}' with odoo_core_fields_get, then retry odoo_core_search_read with a valid field.",
            {"model": 1, "field": 2},
        ),
        "VAL-003",
    ),
    # KeyError: 'no_such_field' (a write with an unknown field in vals). The bare message is
    # just a word, so the pattern only runs when the class is known.
    (
        ErrorPattern(
            "O19-VAL-002k",
            r"\A'?(\w+)'?\Z",
            V,
            ErrorCode.INVALID_FIELD,
            "Field '{field}' does not exist on {model}",
            "Remove '{field}' from the values; list the fields of '{model}' with odoo_core_fields_get.",
            {"field": 1},
            "builtins.KeyError",
            requires_class=True,
        ),
        "VAL-003",
    ),
    # JSON-2 binds the body to the method's signature first: 422 "missing a required argument:
    # 'fields'" or "got an unexpected keyword argument 'x'" (err_json2_default_get_fields_list)
    (
        ErrorPattern(
            "O19-VAL-006b",
            r"\A(missing a required argument|got an unexpected keyword argument):? '(\w+)'",
            V,
            ErrorCode.INVALID_ARGUMENT,
            "The method's arguments do not match its signature: {problem} '{argument}'",
            "Pass the arguments under the names this Odoo version declares (they differ between versions); odoo_core_execute takes them in kwargs.",
            {"problem": 1, "argument": 2},
            "werkzeug.exceptions.UnprocessableEntity",
            requires_class=True,
        ),
        "VAL-006",
    ),
    # A name given for a many2one reaches PostgreSQL over JSON-2: 500 psycopg2.errors.
    # InvalidTextRepresentation 'invalid input syntax for type integer: "Belgium"'
    # (err_json2_create_m2o_string); XML-RPC's int() says the same thing as VAL-007.
    (
        ErrorPattern(
            "O19-VAL-007b",
            r"invalid input syntax for type (?:integer|bigint|smallint): \"([^\"]*)\"",
            V,
            ErrorCode.INVALID_INTEGER,
            "'{value}' cannot be converted to an integer",
            "Pass an integer. For a many2one field pass the record ID, found with odoo_core_search_read, not its name.",
            {"value": 1},
        ),
        "VAL-006",
    ),
    # "BaseModel._read_format() got an unexpected keyword argument 'bogus_kwarg'"
    (
        ErrorPattern(
            "O19-VAL-006a",
            r"(\w+)\(\) got an unexpected keyword argument '(\w+)'",
            V,
            ErrorCode.INVALID_ARGUMENT,
            "{function}() does not accept the argument '{argument}'",
            "Remove '{argument}' from the call's keyword arguments; argument names differ between Odoo versions.",
            {"function": 1, "argument": 2},
            "TypeError",
        ),
        "VAL-006",
    ),
    # "Invalid operator in condition ('name', 'bogus_op', 1)", "Domain() malformed domain [...]"
    (
        ErrorPattern(
            "O19-VAL-008",
            r"Invalid operator in condition|malformed domain|invalid item in domain",
            V,
            ErrorCode.INVALID_DOMAIN,
            "The domain is not valid: {odoo_message}",
            "Write the domain as a list of [field, operator, value] conditions with prefix '&', '|', '!' operators, e.g. [['name', 'ilike', 'acme']], and retry odoo_core_search_read.",
            {},
            "ValueError",
        ),
        "ACC-001",
    ),
    # 'Invalid "order" specified (name; drop table x). A valid "order" specification is ...'
    (
        ErrorPattern(
            "O19-VAL-009",
            r"Invalid \"order\" specified",
            V,
            ErrorCode.INVALID_ORDER,
            "The sort order is not valid",
            "Give order as comma-separated field names, each optionally followed by asc or desc, e.g. 'name asc, id desc'.",
            {},
        ),
        "ACC-001",
    ),
    # "Private methods (such as 'res.partner._compute_display_name') cannot be called remotely."
    (
        ErrorPattern(
            "O19-ACC-005",
            r"Private methods \(such as '([\w.]+)\.(\w+)'\) cannot be called remotely",
            A,
            ErrorCode.PRIVATE_METHOD,
            "Method {method} of {model} is private and cannot be called remotely",
            "Methods whose name starts with '_' are private in Odoo. Call a public method with odoo_core_execute instead.",
            {"model": 1, "method": 2},
            "AccessError",
        ),
        "NF-001",
    ),
    # Odoo 19 turns a foreign-key violation on unlink into a ValidationError: "The operation
    # cannot be completed: another model requires the record being deleted. If possible,
    # archive it instead.\n\nModel: Contact (res.partner)\nConstraint: res_partner_country_id_fkey"
    # (the NOT NULL text of VAL-001 says "..., you can archive it instead" and matches first).
    (
        ErrorPattern(
            "O19-CON-003",
            r"another model requires the record being deleted\. If possible, archive it instead\.(?:(?s:.*?)Model: [^\n(]*\(([\w.]+)\))?(?:(?s:.*?)Constraint: (\w+))?",
            ErrorCategory.CONSTRAINT,
            ErrorCode.FK_VIOLATION,
            "The {model} record cannot be deleted: {referencing_model} records still refer to it (constraint {constraint})",
            "Archive it instead with odoo_core_write (values {{'active': false}}) if '{model}' has an 'active' field, or first change or delete the {referencing_model} records that refer to it (find them with odoo_core_search_read).",
            {"referencing_model": 1, "constraint": 2},
        ),
        "CON-001",
    ),
    # Odoo 19's own check of ondelete='restrict' (a required many2one defaults to it):
    # "The operation cannot be completed: Another model is using the record you are trying to
    # delete.\n\nThe troublemaker is: 'Sales Order' (sale.order)\nThanks to the following
    # constraint: 'Customer' (partner_id)\n..." (err_*_unlink_partner_referenced, all paths)
    (
        ErrorPattern(
            "O19-CON-003b",
            r"Another model is using the record you are trying to delete\.(?:(?s:.*?)troublemaker is: [^\n(]*\(([\w.]+)\))?(?:(?s:.*?)constraint: [^\n(]*\((\w+)\))?",
            ErrorCategory.CONSTRAINT,
            ErrorCode.FK_VIOLATION,
            "The {model} record cannot be deleted: {referencing_model} records still refer to it through their field '{field}'",
            "Archive it instead with odoo_core_write (values {{'active': false}}) if '{model}' has an 'active' field, or first change or delete the {referencing_model} records that refer to it (find them with odoo_core_search_read on {referencing_model}).",
            {"referencing_model": 1, "field": 2},
        ),
        "CON-001",
    ),
    # The web client's path answers an unknown model with werkzeug's bare 404 (the route looks the
    # model up before any Odoo code runs): {"code": 404, "message": "404: Not Found", "data":
    # {"name": "werkzeug.exceptions.NotFound"}} (err_callkw_unknown_model). The model is the call's.
    (
        ErrorPattern(
            "O19-NF-004",
            r"The requested URL was not found on the server",
            N,
            ErrorCode.MODEL_NOT_FOUND,
            "Model {model} does not exist in this Odoo database",
            "Check the model name with odoo_core_list_models; the module that defines it may not be installed.",
            {},
            "werkzeug.exceptions.NotFound",
            requires_class=True,
        ),
        "NF-002",
    ),
    # "The method 'res.partner.no_such_method' does not exist" (AttributeError, JSON-2 404)
    (
        ErrorPattern(
            "O19-NF-003",
            r"The method '([\w.]+)\.(\w+)' does not exist",
            N,
            ErrorCode.METHOD_NOT_FOUND,
            "Method {method} does not exist on model {model}",
            "Check the method name; odoo_core_execute calls public model methods such as 'action_confirm'. Methods differ between Odoo versions and installed modules.",
            {"model": 1, "method": 2},
        ),
        "NF-002",
    ),
    # "You cannot modify the following readonly fields on a posted move: invoice_line_ids",
    # "You cannot change the pricelist of a confirmed order !", "You cannot cancel a locked order."
    (
        ErrorPattern(
            "O19-ST-004",
            r"(?:cannot|can't|can not)\s+(modify|change|edit|write|cancel)\b.*?\b(posted|validated|confirmed|done|locked|cancell?ed)\b",
            S,
            ErrorCode.CANNOT_MODIFY_PROCESSED,
            "Cannot {action} a {state} {model} record",
            "The record is {state}. Reset it to draft first with odoo_core_execute (method 'action_draft', or unlock it), then modify it.",
            {"action": 1, "state": 2},
            "UserError",
        ),
        "BIZ-001",
    ),
    # "The entry INV/2026/00010 (id 57) must be in draft.", "Some orders are not in a state
    # requiring confirmation.", "Only posted/cancelled journal entries can be reset to draft."
    (
        ErrorPattern(
            "O19-ST-005",
            r"must be in (\w+)|not in a state requiring (\w+)|\bOnly ([\w/]+)\b[\w ]*? can be ([\w ]+)",
            S,
            ErrorCode.STATE_REQUIRED,
            "The {model} record is not in the state this operation needs: {odoo_message}",
            "Read the record's 'state' with odoo_core_read; see the valid transitions in the resource odoo://model/{model}/states.",
            {"state": (1, 3), "action": (2, 4)},
            "UserError",
        ),
        "BIZ-001",
    ),
    # Messages only a ValidationError carries: Odoo's wrapping of an SQL constraint ("The
    # operation cannot be completed: Contacts require a name") and the recursion check. XML-RPC
    # says fault 2 (any UserError) where JSON-RPC and JSON-2 name ValidationError: one code on
    # every protocol. The NOT NULL and foreign-key forms above match first.
    (
        ErrorPattern(
            "O19-VAL-010",
            r"\AThe operation cannot be completed: |\AYou cannot create recursive ",
            V,
            ErrorCode.VALIDATION_ERROR,
            "Odoo refused the values: {odoo_message}",
            "Correct the values Odoo names in the message and retry; check the fields of '{model}' with odoo_core_fields_get.",
            {},
        ),
        "CONN-001",
    ),
    # REQ-10-09 "Invalid date format": Odoo 17 and 19 convert a date or datetime value with
    # strptime ("time data '31/12/2026' does not match format '%Y-%m-%d'", ValueError, fault
    # 1 over XML-RPC), which names no field; "Invalid isoformat string" is date.fromisoformat's
    # wording. The seed's suggestion whatever the field; the code stays REQ-10-07's
    # VALUE_ERROR. First in the list: the quoted value may hold any text.
    (
        ErrorPattern(
            "O19-VAL-011",
            r"time data '([^'\n]*)' does not match format '(%Y-%m-%d[^'\n]*)'|unconverted data remains: ([^\n]*)|Invalid isoformat string: '([^'\n]*)'",
            V,
            ErrorCode.VALUE_ERROR,
            "'{value}' is not a valid date or datetime value for {model}: {odoo_message}",
            f"{DATE_FORMAT_HELP} Check which fields of '{{model}}' are dates or datetimes with odoo_core_fields_get.",
            {"value": (1, 3, 4), "format": 2},
        ),
        "VAL-001",
    ),
    # psycopg2.OperationalError: ... FATAL:  database "nosuchdb" does not exist
    (
        ErrorPattern(
            "O19-CFG-001",
            r"database \"([^\"]+)\" does not exist",
            ErrorCategory.CONFIGURATION,
            ErrorCode.DATABASE_NOT_FOUND,
            "The Odoo database '{database}' does not exist",
            "The server is configured with a wrong database name. Report it to the user.",
            {"database": 1},
        ),
        "CONN-001",
    ),
)

for _pattern, _before in _EXTRAS:
    register_pattern(_pattern, before=_before)

#: the ids of the patterns this module registers
ODOO19_PATTERN_IDS = tuple(pattern.id for pattern, _ in _EXTRAS)
