"""L2/04a: operators and values of domain leaves, and the INVALID_DOMAIN error they raise.

Split from ``domain.py`` (which re-exports ``DomainError``): what each of the 16 operators
accepts (REQ-04a-04/05), the date formats (REQ-04a-08, REQ-04a-09: datetimes are UTC strings
passed on unconverted), and for every refusal a corrected
leaf that itself validates (REQ-04a-14).
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any, Final, NoReturn

__all__ = [
    "DomainError",
    "check_date_value",
    "check_value",
    "describe",
    "is_spec_operator",
    "operator_error",
]

ORDERING: Final = frozenset({">", ">=", "<", "<="})
PATTERN: Final = frozenset({"like", "not like", "ilike", "not ilike", "=like", "=ilike"})
MEMBERSHIP: Final = frozenset({"in", "not in"})
HIERARCHY: Final = frozenset({"child_of", "parent_of"})
ALL: Final = ORDERING | PATTERN | MEMBERSHIP | HIERARCHY | {"=", "!="}
#: operators real Odoo (or habit) offers, mapped to the spec's (decision 9)
ALIASES: Final = {
    "<>": "!=",
    "==": "=",
    "=>": ">=",
    "=<": "<=",
    "is": "=",
    "is not": "!=",
    "not_in": "not in",
    "notin": "not in",
    "contains": "ilike",
    "not contains": "not ilike",
    "=?": "=",
}
DATE_RE: Final = re.compile(r"\d{4}-\d{2}-\d{2}")
DATETIME_RE: Final = re.compile(r"\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?")


class DomainError(Exception):
    """REQ-04a-14: an INVALID_DOMAIN refusal (category validation) with a valid example.

    A plain exception so that ``odoo_mcp.errors`` can map it field for field.
    """

    category = "validation"

    def __init__(
        self,
        message: str,
        suggestion: str,
        example: list[Any],
        *,
        code: str = "INVALID_DOMAIN",
        category: str = "validation",
    ) -> None:
        super().__init__(message)
        self.code = code
        self.category = category
        self.message = message
        self.suggestion = suggestion
        self.example = example

    def to_dict(self) -> dict[str, Any]:
        """REQ-04a-14: the error shape of the spec, plus the example domain."""
        return {
            "error": True,
            "category": self.category,
            "code": self.code,
            "message": self.message,
            "suggestion": self.suggestion,
            "example": self.example,
        }


def render(value: Any) -> str:
    """REQ-04a-14: a value as the caller would write it (JSON); one nested deeper than the
    encoder goes is named, not shown (the refusal stays an INVALID_DOMAIN, issue 26)."""
    try:
        return json.dumps(value, ensure_ascii=False, default=repr)
    except RecursionError:
        return "(a value nested too deeply to show)"


def describe(value: Any) -> str:
    """REQ-04a-14: "string 'draft'", "integer 5", "boolean false" for error messages."""
    if isinstance(value, str):
        return f"string {value!r}"
    if value is None:
        return "null"
    kinds = {bool: "boolean", int: "integer", float: "number", type(None): "null"}
    kind = kinds.get(type(value)) or ("list" if isinstance(value, list | tuple) else "object")
    return f"{kind} {render(value)}"


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _valid(path: str, operator: str, value: Any) -> bool:
    try:
        check_value(path, operator, value)
    except DomainError:
        return False
    return True


def _fail(operator: str, value: Any, need: str, hint: str, fixed: list[Any]) -> NoReturn:
    raise DomainError(
        f"Invalid domain: operator '{operator}' requires {need}, got {describe(value)}",
        f"{hint}, e.g. {render(fixed)}",
        fixed,
    )


def _number_or_text(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def check_value(path: str, operator: str, value: Any) -> None:
    """REQ-04a-05: the value each of the 16 operators accepts (REQ-04a-04 table)."""
    listed = isinstance(value, list | tuple)
    if operator in MEMBERSHIP:
        if listed and all(_scalar(v) for v in value):
            return
        hint = "Wrap the value in a list" + (", or use '=' for one value" * _scalar(value))
        fixed = [[path, operator, [value] if _scalar(value) else []]]
        _fail(operator, value, "a list value", hint, fixed)
    if operator in ORDERING:
        need = "a number or a date string"
        if _number_or_text(value):
            return
        if listed and value and all(_scalar(v) for v in value):
            _fail(operator, value, need, "For several values use 'in'", [[path, "in", [*value]]])
        _fail(operator, value, need, "To match unset values use '=' false", [[path, "=", False]])
    if operator in PATTERN:
        need = "a string value"
        if isinstance(value, str):
            return
        if _number_or_text(value):
            _fail(
                operator, value, need, "Pass the text as a string", [[path, operator, str(value)]]
            )
        words = [v for v in value if isinstance(v, str)] if listed else []
        if len(words) >= 2:
            hint = "For any of several words, OR one condition per word"
            _fail(
                operator,
                value,
                need,
                hint,
                ["|", [path, operator, words[0]], [path, operator, words[1]]],
            )
        _fail(operator, value, need, "To match unset values use '=' false", [[path, "=", False]])
    if operator in HIERARCHY:
        if _is_id(value) or (listed and all(_is_id(v) for v in value)):
            return
        hint = "Find the record id first (odoo_core_search_read), then pass it"
        _fail(operator, value, "a record id or a list of ids", hint, [[path, operator, 1]])
    if operator in ("=", "!="):
        if _scalar(value) or (listed and all(_scalar(v) for v in value)):
            return
        need = "a single value or a list of values"
        _fail(operator, value, need, "Compare against a plain value", [[path, operator, False]])


def is_spec_operator(operator: object) -> bool:
    """REQ-04a-04: one of the 16 operators; a list or an object is simply not one (a set
    lookup of an unhashable value would raise TypeError, an internal error, issue 26)."""
    return isinstance(operator, str) and operator in ALL


def _corrected_operator(operator: str) -> str | None:
    lowered = " ".join(operator.lower().split())
    if lowered in ALL:
        return lowered
    if lowered in ALIASES:
        return ALIASES[lowered]
    import difflib  # a refusal's hint only (issue 41: not loaded by every start)

    close = difflib.get_close_matches(lowered, sorted(ALL), n=1, cutoff=0.6)
    return close[0] if close else None


def operator_error(path: str, operator: Any, value: Any) -> DomainError:
    """REQ-04a-04: decision 9: only the 16 operators; suggest the nearest spec form."""
    shown = operator if isinstance(operator, str) else render(operator)
    fixed: list[Any] = [[path, "=", value]] if _valid(path, "=", value) else [[path, "!=", False]]
    hint = "Use one of: " + ", ".join(sorted(ALL))
    if operator in ("any", "not any"):
        sub = value[0] if isinstance(value, list | tuple) and value else None
        if isinstance(sub, list | tuple) and len(sub) == 3 and isinstance(sub[0], str):
            leaf = [f"{path}.{sub[0]}", sub[1], sub[2]]
            if is_spec_operator(sub[1]) and _valid(leaf[0], sub[1], sub[2]):
                fixed = [leaf] if operator == "any" else ["!", leaf]
        hint = "Use a dotted path through the relation instead of 'any'"
    elif operator == "=?":
        hint = "'=?' is not accepted: use '=' and leave the condition out when the value is empty"
    elif isinstance(operator, str) and (better := _corrected_operator(operator)):
        if _valid(path, better, value):
            fixed = [[path, better, value]]
        hint = f"Use '{better}' instead of {shown!r}"
    return DomainError(
        f"Invalid domain: unsupported operator {shown!r} in condition on '{path}'",
        f"{hint}, e.g. {render(fixed)}",
        fixed,
    )


def check_date_value(path: str, operator: str, value: Any, field_type: str) -> None:
    """REQ-04a-08/09: dates as 'YYYY-MM-DD', datetimes as 'YYYY-MM-DD HH:MM:SS' (UTC)."""
    values = value if operator in MEMBERSHIP and isinstance(value, list | tuple) else [value]
    pattern = DATE_RE if field_type == "date" else DATETIME_RE
    for item in values:
        if item is False or item is None or operator in PATTERN:
            continue
        text = item if isinstance(item, str) else ""
        ok = pattern.fullmatch(text) is not None
        if ok:
            try:
                datetime.strptime(text, "%Y-%m-%d %H:%M:%S" if " " in text else "%Y-%m-%d")
            except ValueError:
                ok = False
        if not ok:
            shape = "'YYYY-MM-DD'" if field_type == "date" else "'YYYY-MM-DD HH:MM:SS' (UTC)"
            guess = text.replace("T", " ").removesuffix("Z")[: 10 if field_type == "date" else 19]
            good = guess if pattern.fullmatch(guess) and _parses(guess) else "2025-01-31"
            raise DomainError(
                f"Invalid domain: '{path}' is a {field_type} field, its value must be a "
                f"string {shape}, got {describe(item)}",
                f"Write the {field_type} as {shape}, e.g. {render([[path, '>=', good]])}",
                [[path, ">=", good]],
            )


def _parses(text: str) -> bool:
    try:
        datetime.strptime(text, "%Y-%m-%d %H:%M:%S" if " " in text else "%Y-%m-%d")
    except ValueError:
        return False
    return True
