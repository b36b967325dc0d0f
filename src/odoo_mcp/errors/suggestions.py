"""SPEC-10 §5: actionable suggestions that name the SPEC-04 tools by their exact names.

Pattern-specific suggestions live with their patterns (``patterns.py``); this module holds the
tool names, the per-field-type help of REQ-10-09 and the suggestions used when only the
category or a class-level code is known.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from odoo_mcp.errors.categories import ErrorCategory, ErrorCode

__all__ = [
    "COUNT",
    "CREATE",
    "DATE_FORMAT_HELP",
    "DEFAULT_GET",
    "EXECUTE",
    "FIELDS_GET",
    "LIST_MODELS",
    "LIST_TOOLSETS",
    "NAME_GET",
    "READ",
    "SEARCH_READ",
    "SPEC04_TOOLS",
    "UNLINK",
    "WRITE",
    "FieldHint",
    "FieldLookup",
    "category_suggestion",
    "code_suggestion",
    "field_type_help",
]

# SPEC-04 §2: the core tools, by their exact names.
SEARCH_READ: Final = "odoo_core_search_read"
READ: Final = "odoo_core_read"
CREATE: Final = "odoo_core_create"
WRITE: Final = "odoo_core_write"
UNLINK: Final = "odoo_core_unlink"
COUNT: Final = "odoo_core_count"
FIELDS_GET: Final = "odoo_core_fields_get"
EXECUTE: Final = "odoo_core_execute"
NAME_GET: Final = "odoo_core_name_get"
DEFAULT_GET: Final = "odoo_core_default_get"
LIST_TOOLSETS: Final = "odoo_core_list_toolsets"
LIST_MODELS: Final = "odoo_core_list_models"
SPEC04_TOOLS: Final = frozenset(
    {
        SEARCH_READ,
        READ,
        CREATE,
        WRITE,
        UNLINK,
        COUNT,
        FIELDS_GET,
        EXECUTE,
        NAME_GET,
        DEFAULT_GET,
        LIST_TOOLSETS,
        LIST_MODELS,
    }
)


#: REQ-10-09 §5.1: "Invalid date format" -> the seed's suggestion, word for word
DATE_FORMAT_HELP: Final = "Use format YYYY-MM-DD for dates, YYYY-MM-DD HH:MM:SS for datetimes."


@dataclass(frozen=True, slots=True)
class FieldHint:
    """What the field registry knows of one field, to enrich details and suggestions."""

    name: str
    label: str | None = None
    type: str | None = None
    relation: str | None = None
    selection: tuple[str, ...] = ()


#: ``(model, field) -> FieldHint | None``: supplied by the caller (the SPEC-07 registry).
FieldLookup = Callable[[str, str], FieldHint | None]


def field_type_help(hint: FieldHint | None, model: str) -> str:
    """REQ-10-09: the ``{field_type_help}`` of a missing or wrong field, by field type."""
    if hint is None or hint.type is None:
        return f"Use {FIELDS_GET} with model='{model}' to see the field's type and constraints."
    name = hint.name
    if hint.type == "many2one" and hint.relation:
        return (
            f"'{name}' expects an integer (record ID) of '{hint.relation}'. Search for the "
            f"record first: {SEARCH_READ} with model='{hint.relation}' and "
            "domain=[['name', 'ilike', '<name>']]."
        )
    if hint.type in ("one2many", "many2many"):
        return f"'{name}' expects a list of commands, e.g. [[6, 0, [<ids>]]] or [[0, 0, {{...}}]]."
    if hint.type == "selection" and hint.selection:
        return f"Valid values for '{name}' are: {', '.join(hint.selection)}."
    if hint.type in ("date", "datetime"):
        return f"'{name}' is a {hint.type} field. {DATE_FORMAT_HELP}"
    if hint.type in ("integer", "float", "monetary"):
        return f"'{name}' expects a number."
    if hint.type == "boolean":
        return f"'{name}' expects true or false."
    return f"'{name}' is a {hint.type} field; see {FIELDS_GET} with model='{model}'."


_CATEGORY: Final[dict[ErrorCategory, str]] = {
    ErrorCategory.VALIDATION: (
        f"Fix the input values and retry. Use {FIELDS_GET} to see field types, required "
        "fields and valid selection values."
    ),
    ErrorCategory.ACCESS: (
        "The Odoo user lacks the rights for this operation. Report it to the user; "
        "retrying will not help."
    ),
    ErrorCategory.NOT_FOUND: (
        f"Check the ID or model name: find records with {SEARCH_READ} and models with "
        f"{LIST_MODELS}."
    ),
    ErrorCategory.CONSTRAINT: (
        f"Change the conflicting value, or find the existing record with {SEARCH_READ}."
    ),
    ErrorCategory.STATE: (
        f"Read the record's current 'state' with {READ} and only call methods valid in that "
        "state (see the resource odoo://model/{model}/states)."
    ),
    ErrorCategory.WIZARD: (
        f"The operation opened a wizard: create the wizard record with {CREATE} and call its "
        f"button method with {EXECUTE}."
    ),
    ErrorCategory.CONNECTION: "Odoo could not be reached. Wait a few seconds and retry.",
    ErrorCategory.RATE_LIMIT: "Too many requests. Wait for retry_after seconds, then retry.",
    ErrorCategory.CONFIGURATION: (
        "The server configuration does not work with this Odoo. Report it to the user."
    ),
    ErrorCategory.UNKNOWN: (
        "Odoo reported an unexpected error. Report it to the user; retrying is unlikely to help."
    ),
}

_CODE: Final[dict[str, str]] = {
    ErrorCode.USER_ERROR: (
        f"Odoo refused the operation for a business reason given in the message. Check the "
        f"record with {READ} and adjust the values or the method."
    ),
    ErrorCode.REDIRECT_WARNING: (
        "Odoo needs a configuration step first (it pointed to a settings screen). Report "
        "the message to the user."
    ),
    ErrorCode.VALUE_ERROR: (
        f"A value, field name or domain was rejected. Check names and types with {FIELDS_GET}."
    ),
    ErrorCode.UNIQUE_VIOLATION: (
        f"A record with this value already exists. Use a different value or search for the "
        f"existing record with {SEARCH_READ}."
    ),
    ErrorCode.CHECK_CONSTRAINT: "The value is outside the allowed range; check the message.",
    ErrorCode.FK_VIOLATION: (
        f"The referenced record does not exist. Verify the ID with {SEARCH_READ}."
    ),
    ErrorCode.CONNECTION_REFUSED: (
        "The Odoo server is not answering. Check that it runs and that the URL is right, "
        "then retry."
    ),
    ErrorCode.TIMEOUT: (
        f"Odoo did not answer in time. A change may still have been applied: check it with "
        f"{SEARCH_READ} before retrying, or narrow the request."
    ),
    ErrorCode.SESSION_EXPIRED: (
        "Odoo no longer accepts the server's credentials, even after logging in again. "
        "Report it to the user: the login, password or API key needs attention."
    ),
    ErrorCode.ENDPOINT_NOT_FOUND: (
        "The Odoo endpoint does not exist: the URL or protocol setting may be wrong. "
        "Report it to the user."
    ),
    ErrorCode.SERVER_ERROR: "Odoo or a proxy in front of it failed. Wait and retry.",
    ErrorCode.ACCESS_DENIED: (
        "Odoo refused the credentials or the operation. Report it to the user; the LLM "
        "cannot fix permissions."
    ),
}


def category_suggestion(category: ErrorCategory, model: str | None = None) -> str:
    """REQ-10-09: the suggestion of a category, when nothing more specific is known."""
    return _CATEGORY[category].replace("{model}", model or "<model>")


def code_suggestion(code: str, category: ErrorCategory, model: str | None = None) -> str:
    """REQ-10-10: the suggestion of a class-level or network code, naming the tools to use."""
    return _CODE.get(code) or category_suggestion(category, model)
