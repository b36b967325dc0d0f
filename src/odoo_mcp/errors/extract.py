"""SPEC-10 §4 and §7, L2/10a: read an Odoo error — class, message, context — and match patterns.

The connection layer already split the wire forms into ``OdooRpcError(error_class, message,
traceback)``; this module adds what classification needs: the classes a fault may stand for,
the final exception line, the model and field a message names, and the pattern match.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from odoo_mcp.connection.errors import OdooRpcError, parse_traceback_tail
from odoo_mcp.errors import patterns_odoo17 as _odoo17  # registers 19's, then 17's patterns
from odoo_mcp.errors.patterns import ERROR_PATTERNS, ErrorPattern
from odoo_mcp.errors.sanitize import TRACEBACK_HEAD

del _odoo17  # imported for its registrations only

__all__ = [
    "CLASS_FROM_FAULT_CODE",
    "USER_ERROR_FAMILY",
    "ParsedError",
    "PatternMatch",
    "class_from_fault_code",
    "extract_context",
    "fill",
    "match_pattern",
    "parse_rpc_error",
]

#: XML-RPC fault 2 (and legacy "warning -- UserError") carries any of these; the wire does not
#: say which, so a pattern narrowed to one of them may still apply.
#: decision 26: how long ``original_error`` may get (a validation message lists records)
ORIGINAL_ERROR_MAX: Final = 500
USER_ERROR_FAMILY: Final = (
    "odoo.exceptions.UserError",
    "odoo.exceptions.ValidationError",
    "odoo.exceptions.MissingError",
    "odoo.exceptions.RedirectWarning",
)
#: REQ-10-04 / REQ-10-05: the /xmlrpc/2 fault codes whose fault string is the bare message:
#: the connection layer names a class from the code alone (2: the UserError family, 3:
#: AccessDenied, 4: AccessError), a class the wire never carried
CLASS_FROM_FAULT_CODE: Final = frozenset({2, 3, 4})
_BUILTINS: Final = "builtins."

# REQ-10-06 steps 3-4: where Odoo messages name a model or a field.
_MODEL_RES: Final = (
    re.compile(r"\bModel: '[^']*' \(([\w.]+)\)"),
    re.compile(r"\(Record: ([\w.]+)\("),
    re.compile(r"'[^'\n]*' \(([a-z_]\w*(?:\.\w+)+)\)"),
    re.compile(r"\bmodel '([\w.]+)'", re.I),
)
_FIELD_RES: Final = (
    re.compile(r"\bfield '([^'\n]*)' \((\w+)\)"),
    re.compile(r"\bfields?[:\s]+'?(\w+)'?", re.I),
)


@dataclass(frozen=True, slots=True)
class ParsedError:
    """REQ-10-13: an Odoo error reduced to its class, message and final exception line."""

    error_class: str | None
    candidates: tuple[str, ...]
    message: str
    final_line: str
    traceback: str | None
    #: REQ-10-04: the error class came over the wire (False: inferred from a fault code)
    class_on_wire: bool = True


@dataclass(frozen=True, slots=True)
class PatternMatch:
    """The first pattern that matched, with its extracted groups (missing group = "")."""

    pattern: ErrorPattern
    groups: dict[str, str]


def parse_rpc_error(exc: OdooRpcError) -> ParsedError:
    """REQ-10-06: the error class and the message after it; REQ-10-13: the final line.

    A message that itself holds a traceback (legacy XML-RPC) is reduced to its last line.
    REQ-10-04: the final line names the class only where the wire carried it.
    """
    error_class, message = exc.error_class, exc.message.strip()
    parsed_class: str | None = None
    if TRACEBACK_HEAD in message:
        parsed_class, message = parse_traceback_tail(message)
        error_class = error_class or parsed_class
    candidates: tuple[str, ...] = (error_class,) if error_class else ()
    if error_class == "odoo.exceptions.UserError" and exc.protocol == "xmlrpc":
        candidates = USER_ERROR_FAMILY
    # decision 26: the final "Class: message", on one line; a message of several lines (17's
    # missing-field text names the field on its last line) is joined, not cut to its first
    one_line = " ".join(message.split())
    if len(one_line) > ORIGINAL_ERROR_MAX:
        one_line = one_line[: ORIGINAL_ERROR_MAX - 1] + "…"
    # REQ-10-04: original_error is the raw error string: never a class the wire did not carry
    inferred = class_from_fault_code(exc)
    on_wire = not inferred or parsed_class is not None
    wire_class = _as_on_wire(exc, parsed_class if inferred else error_class)
    final_line = f"{wire_class}: {one_line}" if wire_class else one_line
    return ParsedError(error_class, candidates, message, final_line, exc.traceback, on_wire)


def _as_on_wire(exc: OdooRpcError, error_class: str | None) -> str | None:
    """REQ-10-04: the class as the raw error spells it. A traceback's last line says
    ``ValueError``, which the connection layer qualifies as ``builtins.ValueError``."""
    if not error_class or not error_class.startswith(_BUILTINS):
        return error_class
    raw = exc.traceback or exc.message
    if exc.protocol == "xmlrpc" and not re.search(rf"^{re.escape(error_class)}\b", raw, re.M):
        return error_class.removeprefix(_BUILTINS)
    return error_class


def class_from_fault_code(exc: OdooRpcError) -> bool:
    """REQ-10-04 / REQ-10-05: an XML-RPC fault 2, 3 or 4, whose fault string is Odoo's
    message alone: its class is the connection layer's reading of the fault code."""
    return (
        exc.protocol == "xmlrpc"
        and isinstance(exc.fault_code, int)
        and exc.fault_code in CLASS_FROM_FAULT_CODE
        and exc.traceback is None
    )


def extract_context(message: str) -> dict[str, str]:
    """REQ-10-06: the model and field a message names (e.g. "(sale.order)", "(partner_id)")."""
    context: dict[str, str] = {}
    for model_re in _MODEL_RES:
        if found := model_re.search(message):
            context["model"] = found[1]
            break
    labelled = _FIELD_RES[0].search(message)
    if labelled is not None:
        context["field_label"], context["field"] = labelled[1], labelled[2]
    elif found := _FIELD_RES[1].search(message):
        context["field"] = found[1]
    return context


def _applies(pattern: ErrorPattern, classes: Sequence[str]) -> bool:
    """REQ-10a-02: skip a pattern whose class is not a substring of the caller's class."""
    if not classes:
        return not pattern.requires_class
    wanted = pattern.error_classes
    return not wanted or any(w in c for w in wanted for c in classes)


def _group(found: re.Match[str], ref: int | tuple[int, ...]) -> str:
    for index in (ref,) if isinstance(ref, int) else ref:
        value = found[index] if index <= (found.re.groups or 0) else None
        if value:
            return value.strip()
    return ""


def match_pattern(
    message: str,
    classes: Sequence[str] = (),
    patterns: Sequence[ErrorPattern] | None = None,
) -> PatternMatch | None:
    """REQ-10a-02: the first pattern, in list order, whose regex is found in the message."""
    for pattern in ERROR_PATTERNS if patterns is None else patterns:
        if not _applies(pattern, classes):
            continue
        found = pattern.regex.search(message)
        if found is not None:
            groups = {name: _group(found, ref) for name, ref in pattern.extract_groups.items()}
            return PatternMatch(pattern, groups)
    return None


class _Blank(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""


def fill(template: str, values: Mapping[str, str]) -> str:
    """REQ-10-12: fill a ``{placeholder}`` template; unknown placeholders render as ""."""
    try:
        text = template.format_map(_Blank(values))
    except (IndexError, ValueError):  # a registered template with positional or bad braces
        text = template
    return re.sub(r"[ \t]{2,}", " ", text).strip()
