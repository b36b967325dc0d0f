"""L2/10a extension: patterns for real Odoo 17.0 messages that the L2 and Odoo 19 patterns miss.

Every pattern here was written against a captured Odoo 17 answer (tests/fixtures/odoo17, the
same requests as tests/fixtures/odoo19) and is added with :func:`register_pattern` — the
extension path of REQ-10-12 — next to the Odoo 19 pattern for the same error, so that one Odoo
error gets one code on both versions. Where the 17 batch showed a business refusal that Odoo
19 words differently and no pattern reached, the one pattern quotes both wordings.

Imported after :mod:`patterns_odoo19` (it anchors on that module's ids); the 28 L2 patterns
keep their relative order.
"""

# Regexes and templates are kept whole on one line, like patterns.py:
# ruff: noqa: E501

from __future__ import annotations

from odoo_mcp.errors import patterns_odoo19 as _odoo19  # registered first: the anchors below
from odoo_mcp.errors.categories import ErrorCategory, ErrorCode
from odoo_mcp.errors.patterns import ErrorPattern, register_pattern

del _odoo19  # imported for its registrations only

__all__ = ["ODOO17_PATTERN_IDS"]

V, A, N, S = (
    ErrorCategory.VALIDATION,
    ErrorCategory.ACCESS,
    ErrorCategory.NOT_FOUND,
    ErrorCategory.STATE,
)

_DOMAIN_SUGGESTION = "Write the domain as a list of [field, operator, value] conditions with prefix '&', '|', '!' operators, e.g. [['name', 'ilike', 'acme']], and retry odoo_core_search_read."
_UNMARSHALLABLE = "Odoo ran the method (its changes, if any, are saved), but XML-RPC cannot carry"

#: (pattern, id of the pattern it goes before)
_EXTRAS: tuple[tuple[ErrorPattern, str], ...] = (
    # "Invalid field res.partner.no_such_field in leaf ('no_such_field', '=', 1)" (19: "in
    # condition"); also "Invalid field res.partner.no_such in leaf ('no_such.code', '=', 'US')"
    (
        ErrorPattern(
            "O17-VAL-002c",
            r"Invalid field ([\w.]+)\.(\w+) in leaf",
            V,
            ErrorCode.INVALID_FIELD,
            "The domain names field '{field}', which does not exist on {model}",
            "Fix the domain: list the fields of '{model}' with odoo_core_fields_get, then retry odoo_core_search_read with a valid field.",
            {"model": 1, "field": 2},
        ),
        "O19-VAL-002c",
    ),
    # The web client's call_kw on an unknown model: {"code": 200, "message": "Odoo Server
    # Error", "data": {"name": "builtins.KeyError", "message": "no.such.model"}}
    # (err_callkw_unknown_model; 19 answers a werkzeug 404). Only a dotted word: a KeyError of
    # a bare word ('no_such_field', 'parent_id') is an unknown field (O19-VAL-002k).
    (
        ErrorPattern(
            "O17-NF-004",
            r"\A'?([a-z_]\w*(?:\.\w+)+)'?\Z",
            N,
            ErrorCode.MODEL_NOT_FOUND,
            "Model {model} does not exist in this Odoo database",
            "Check the model name with odoo_core_list_models; the module that defines it may not be installed.",
            {"model": 1},
            "builtins.KeyError",
            requires_class=True,
        ),
        "O19-VAL-002k",
    ),
    # "Cannot convert field sale.order.access_url to SQL" (read_group by a non-stored field;
    # 19: "Cannot convert sale.order.access_url to SQL because it is not stored")
    (
        ErrorPattern(
            "O17-VAL-012",
            r"Cannot convert (?:field )?([\w.]+)\.(\w+) to SQL",
            V,
            ErrorCode.INVALID_FIELD,
            "Field '{field}' of {model} is not stored in the database: it cannot be used to group, sort, aggregate or filter",
            "Use a stored field instead (odoo_core_fields_get with model='{model}' shows each field's 'store'), or read '{field}' with odoo_core_search_read and group the values yourself.",
            {"model": 1, "field": 2},
            "ValueError",
        ),
        "O19-VAL-008",
    ),
    # "Invalid leaf ('name', 'bogus_op', 1)" (19: "Invalid operator in condition"), "Domain
    # ['|', ['state', '=', 'draft']] is syntactically not correct." (19: "malformed domain")
    (
        ErrorPattern(
            "O17-VAL-008",
            r"\AInvalid leaf \(|\ADomain .* is syntactically not correct",
            V,
            ErrorCode.INVALID_DOMAIN,
            "The domain is not valid: {odoo_message}",
            _DOMAIN_SUGGESTION,
            {},
            "ValueError",
        ),
        "O19-VAL-008",
    ),
    # "too many values to unpack (expected 3)": a domain condition of four elements, which
    # Odoo 17 unpacks as (field, operator, value)
    (
        ErrorPattern(
            "O17-VAL-008b",
            r"\Atoo many values to unpack \(expected 3\)",
            V,
            ErrorCode.INVALID_DOMAIN,
            "A domain condition does not have exactly three elements (Odoo: {odoo_message})",
            _DOMAIN_SUGGESTION,
            {},
            "ValueError",
        ),
        "O19-VAL-008",
    ),
    # "Private methods (such as _compute_display_name) cannot be called remotely." (19 quotes
    # 'res.partner._compute_display_name'); the model is the call's
    (
        ErrorPattern(
            "O17-ACC-005",
            r"Private methods \(such as (\w+)\) cannot be called remotely",
            A,
            ErrorCode.PRIVATE_METHOD,
            "Method {method} of {model} is private and cannot be called remotely",
            "Methods whose name starts with '_' are private in Odoo. Call a public method with odoo_core_execute instead.",
            {"method": 1},
            "AccessError",
        ),
        "O19-ACC-005",
    ),
    # "The operation cannot be completed:\n- Create/update: a mandatory field is not set.\n-
    # Delete: another model requires the record being deleted. If possible, archive it
    # instead.\n\nModel: Sales Order (sale.order)\nField: Customer (partner_id)\n" (NOT NULL on
    # create; 19: "Missing required value for the field 'Customer' (partner_id)"). Before
    # O19-CON-003, which would read the "- Delete:" bullet as a foreign-key violation.
    (
        ErrorPattern(
            "O17-VAL-001",
            r"a mandatory field is not set\.(?:(?s:.*?)\bModel: [^\n(]*\(([\w.]+)\))?(?:(?s:.*?)\bField: ([^\n(]*?) ?\((\w+)\))?",
            V,
            ErrorCode.MISSING_REQUIRED_FIELD,
            "Required field '{field}' is missing on {model}",
            "Include '{field}' in the values. {field_type_help}",
            {"model": 1, "field_label": 2, "field": 3},
            "ValidationError",
        ),
        "O19-CON-003",
    ),
    # "The method 'no_such_method' does not exist on the model 'res.partner'" (AttributeError;
    # 19: "The method 'res.partner.no_such_method' does not exist"); also the methods 17 does
    # not have yet: "The method 'has_access' does not exist on the model 'res.company'"
    (
        ErrorPattern(
            "O17-NF-003",
            r"The method '(\w+)' does not exist on the model '([\w.]+)'",
            N,
            ErrorCode.METHOD_NOT_FOUND,
            "Method {method} does not exist on model {model}",
            "Check the method name; odoo_core_execute calls public model methods such as 'action_confirm'. Methods differ between Odoo versions and installed modules.",
            {"method": 1, "model": 2},
        ),
        "O19-NF-003",
    ),
    # account.move action_post: "The field 'Customer' is required, please complete it to
    # validate the Customer Invoice." (19: "The 'Customer' field is required to validate the
    # invoice.\n..."). Odoo names the label only: the technical name is left to fields_get.
    (
        ErrorPattern(
            "O17-VAL-001c",
            r"The field '([^'\n]+)' is required, please complete it|The '([^'\n]+)' field is required to validate",
            V,
            ErrorCode.MISSING_REQUIRED_FIELD,
            "Required field '{field_label}' is missing on {model}",
            "Set the field labelled '{field_label}' with odoo_core_write (odoo_core_fields_get with model='{model}' gives its technical name), then retry.",
            {"field_label": (1, 2)},
            "UserError",
        ),
        "O19-ST-004",
    ),
    # account.payment.register on a paid invoice: "You can't register a payment because there
    # is nothing left to pay on the selected journal items." (19: "There's nothing left to pay
    # for the selected journal items, so no payment registration is necessary. ...")
    (
        ErrorPattern(
            "O17-ST-006",
            r"nothing left to pay (?:on|for) the selected journal items",
            S,
            ErrorCode.ALREADY_PROCESSED,
            "The selected journal items are already paid: there is nothing left to pay",
            "Read the invoice's 'payment_state' and 'amount_residual' with odoo_core_read (model 'account.move'); no payment is needed.",
            {},
            "UserError",
        ),
        "O19-ST-004",
    ),
    # stock.picking button_validate with nothing reserved: "You cannot validate a transfer if
    # no quantities are reserved. To force the transfer, encode quantities." (19: "Transfer
    # trouble alert! Validating a zero quantity transfer? ...\nSet some quantities ...")
    (
        ErrorPattern(
            "O17-BIZ-002",
            r"cannot validate a transfer if no quantities are reserved|Validating a zero quantity transfer",
            V,
            ErrorCode.INSUFFICIENT_STOCK,
            "The transfer has no reserved or done quantities, so it cannot be validated",
            "Check the stock with odoo_core_search_read on 'stock.quant' (fields quantity, reserved_quantity); reserve it with odoo_core_execute (method 'action_assign' on the stock.picking), or set the quantities of its moves with odoo_core_write, then validate again.",
            {},
            "UserError",
        ),
        "O19-ST-004",
    ),
    # XML-RPC fault 1 "TypeError: cannot marshal None unless allow_none is enabled": the method
    # ran and returned None (flow_*: action_quotation_sent, action_cancel, create_invoices, ...;
    # the same on 19). The connection layer turns it into a success (decision 15); should it
    # reach the classifier, it is not an invitation to call the method again.
    (
        ErrorPattern(
            "O17-CFG-002",
            r"cannot marshal None unless allow_none is enabled",
            ErrorCategory.CONFIGURATION,
            ErrorCode.UNMARSHALLABLE_RESULT,
            f"{_UNMARSHALLABLE} its result (None)",
            "Do not call the method again: read the record with odoo_core_read to see its new state. To get such results back, call a method that returns data, or ask the user to run the server over JSON-RPC (ODOO_PROTOCOL=jsonrpc), which carries None.",
            {},
            "TypeError",
        ),
        "O19-CFG-001",
    ),
    # "TypeError: cannot marshal <class 'set'> objects" (Python's xmlrpc.client): a method such
    # as copy_data returning a value XML-RPC has no type for
    (
        ErrorPattern(
            "O17-CFG-003",
            r"cannot marshal (<[^>\n]*>) objects",
            ErrorCategory.CONFIGURATION,
            ErrorCode.UNMARSHALLABLE_RESULT,
            f"{_UNMARSHALLABLE} the {{value}} it returned",
            "Check the method's effect with odoo_core_read before calling it again. Call a method that returns data XML-RPC can carry (e.g. odoo_core_read rather than copy_data), or ask the user to run the server over JSON-RPC (ODOO_PROTOCOL=jsonrpc).",
            {"value": 1},
            "TypeError",
        ),
        "O19-CFG-001",
    ),
)

for _pattern, _before in _EXTRAS:
    register_pattern(_pattern, before=_before)

#: the ids of the patterns this module registers
ODOO17_PATTERN_IDS = tuple(pattern.id for pattern, _ in _EXTRAS)
