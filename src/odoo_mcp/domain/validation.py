"""L2/04a: domain validation before any Odoo call.

``parse_domain`` checks what needs no metadata: the structure (REQ-04a-01..03, 13), the 16
operators (REQ-04a-04, decision 9) and the value each operator takes (REQ-04a-05, 08).
``validate_domain`` adds the field checks against the registry: unknown fields, dotted paths
through relational fields (REQ-04a-06/07), date formats, and blocked fields anywhere on a path
(decision 11). Every refusal is a ``DomainError`` carrying a corrected, valid example
(REQ-04a-14). ``order`` strings are checked by ``odoo_mcp.domain.order`` (re-exported here).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from odoo_mcp.domain.order import OrderTerm, validate_order
from odoo_mcp.domain.values import (
    DomainError,
    check_date_value,
    check_value,
    operator_error,
    render,
)
from odoo_mcp.registry import BlockedFieldCheck, FieldInfo, FieldSource
from odoo_mcp.registry.lookups import MAX_MODELS_PER_DOMAIN, CallLookups, LookupLimitError

__all__ = [
    "LOGICAL_OPERATORS",
    "MAX_PATH_DEPTH",
    "OPERATORS",
    "OPERATOR_DOCS",
    "DomainError",
    "Leaf",
    "OrderTerm",
    "ValidatedDomain",
    "parse_domain",
    "validate_domain",
    "validate_order",
]

LOGICAL_OPERATORS: Final = {"&": 2, "|": 2, "!": 1}
#: REQ-04a-04: the 16 operators, each with its meaning and the value it takes, in the order
#: the reference table gives them (the domain help prompt shows this table, REQ-06-18)
OPERATOR_DOCS: Final[Mapping[str, tuple[str, str]]] = MappingProxyType(
    {
        "=": ("equal", "any value"),
        "!=": ("not equal", "any value"),
        ">": ("greater than", "number, date or datetime"),
        ">=": ("greater than or equal", "number, date or datetime"),
        "<": ("less than", "number, date or datetime"),
        "<=": ("less than or equal", "number, date or datetime"),
        "like": ("contains, case-sensitive (Odoo adds %...%)", "string"),
        "not like": ("does not contain, case-sensitive (Odoo adds %...%)", "string"),
        "ilike": ("contains, case-insensitive (Odoo adds %...%)", "string"),
        "not ilike": ("does not contain, case-insensitive (Odoo adds %...%)", "string"),
        "=like": (
            "SQL pattern, case-sensitive, no auto-wrapping: write % and _ yourself",
            "string",
        ),
        "=ilike": (
            "SQL pattern, case-insensitive, no auto-wrapping: write % and _ yourself",
            "string",
        ),
        "in": ("value is one of the list", "list (mandatory, even for one value)"),
        "not in": ("value is none of the list", "list (mandatory, even for one value)"),
        "child_of": ("record or its descendants (models with parent_id)", "id or list of ids"),
        "parent_of": ("record or its ancestors (models with parent_id)", "id or list of ids"),
    }
)
#: REQ-04a-04: exactly these 16 (decision 9: nothing else, though real Odoo takes more)
OPERATORS: Final = frozenset(OPERATOR_DOCS)
MAX_PATH_DEPTH: Final = 4
EXAMPLE: Final = [["state", "=", "draft"]]


@dataclass(frozen=True, slots=True)
class Leaf:
    """REQ-04a-01: one condition ``(field, operator, value)``, at ``index`` in the domain."""

    path: str
    operator: str
    value: Any
    index: int

    @property
    def segments(self) -> tuple[str, ...]:
        """REQ-04a-06: the field names of a dotted path."""
        return tuple(self.path.split("."))


@dataclass(frozen=True, slots=True)
class ValidatedDomain:
    """REQ-04a-13: a domain that passed validation, in the list form sent to Odoo."""

    items: tuple[str | Leaf, ...]
    warnings: tuple[str, ...] = field(default=())

    @property
    def leaves(self) -> tuple[Leaf, ...]:
        """REQ-04a-01: the conditions, in order."""
        return tuple(item for item in self.items if isinstance(item, Leaf))

    def to_odoo(self) -> list[Any]:
        """REQ-04a-13: the JSON-ready domain: operators as strings, leaves as 3-item lists."""
        return [
            item if isinstance(item, str) else [item.path, item.operator, _plain(item.value)]
            for item in self.items
        ]


def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, list | tuple) else value


def _from_json_string(domain: str) -> DomainError:
    """REQ-04a-13: a domain sent as a JSON string is refused, showing the list it meant."""
    try:
        decoded = json.loads(domain)
    except ValueError:
        decoded = None
    example = decoded if isinstance(decoded, list) else EXAMPLE
    return DomainError(
        "Invalid domain: expected a list of conditions, got a string",
        f"Send the domain as a JSON array, not as a string containing one, e.g. {render(example)}",
        example,
    )


def _parse_leaf(item: Sequence[Any], index: int) -> Leaf:
    """REQ-04a-13: a leaf is a 3-item list with a field name, an operator and a value."""
    if len(item) != 3:
        raise DomainError(
            f"Invalid domain: condition at position {index} has {len(item)} items, "
            f"expected 3 (field, operator, value): {render(item)}",
            "Write each condition as [field, operator, value], e.g. ['state', '=', 'draft']",
            EXAMPLE,
        )
    path, operator, value = item
    if not isinstance(path, str) or not path or any(not s for s in path.split(".")):
        constant = not isinstance(path, str)
        raise DomainError(
            f"Invalid domain: condition at position {index} needs a field name, got {render(path)}",
            "Use [] to match all records (constant leaves like (1, '=', 1) are not accepted) "
            'and name a field in each condition, e.g. [["id", ">", 0]]'
            if constant
            else "Name a field (or a dotted path such as 'partner_id.name') first",
            [] if constant else EXAMPLE,
        )
    if not isinstance(operator, str) or operator not in OPERATORS:
        raise operator_error(path, operator, value)
    check_value(path, operator, value)
    return Leaf(path, operator, value, index)


def _check_arity(items: Sequence[str | Leaf]) -> None:
    """REQ-04a-02/03/13: prefix operators consume 2 (``&``, ``|``) or 1 (``!``) operands."""
    operands = 0
    for position in range(len(items) - 1, -1, -1):
        item = items[position]
        if isinstance(item, Leaf):
            operands += 1
            continue
        need = LOGICAL_OPERATORS[item]
        if operands < need:
            pair = ["|", ["state", "=", "draft"], ["state", "=", "sent"]]
            example = pair if need == 2 else ["!", ["state", "=", "cancel"]]
            raise DomainError(
                f"Invalid domain: operator '{item}' at position {position} needs {need} "
                f"operand(s) after it, found {operands}",
                "Logical operators are prefix: put the operator before its operands, e.g. "
                f"{render(example)}",
                example,
            )
        operands -= need - 1  # consumes `need`, produces one expression
    # more than one remaining expression: implicitly AND-ed at the top level (REQ-04a-03)


def parse_domain(domain: object) -> ValidatedDomain:
    """REQ-04a-13: structure, operators and values checked before any Odoo call."""
    if isinstance(domain, str):
        raise _from_json_string(domain)
    if domain is None:
        return ValidatedDomain(())
    if not isinstance(domain, list | tuple):
        raise DomainError(
            f"Invalid domain: expected a list of conditions, got {type(domain).__name__}",
            "A domain is a list such as [['state', '=', 'draft']]; use [] for all records",
            EXAMPLE,
        )
    items: list[str | Leaf] = []
    for index, item in enumerate(domain):
        if isinstance(item, str):
            if item not in LOGICAL_OPERATORS:
                raise DomainError(
                    f"Invalid domain: unknown logical operator {item!r} at position {index}",
                    "Only '&' (AND), '|' (OR) and '!' (NOT) may stand between conditions, "
                    "before their operands, e.g. ['|', ['state', '=', 'draft'], "
                    "['state', '=', 'sent']]",
                    ["|", ["state", "=", "draft"], ["state", "=", "sent"]],
                )
            items.append(item)
        elif isinstance(item, list | tuple):
            items.append(_parse_leaf(item, index))
        else:
            raise DomainError(
                f"Invalid domain: item at position {index} is {render(item)}, expected a "
                "condition [field, operator, value] or one of '&', '|', '!'",
                "Write each condition as a 3-item list, e.g. [['name', 'ilike', 'acme']]",
                [["name", "ilike", "acme"]],
            )
    _check_arity(items)
    return ValidatedDomain(tuple(items))


async def _check_path(
    model: str, leaf: Leaf, source: FieldSource, is_field_blocked: BlockedFieldCheck | None
) -> str | None:
    """REQ-04a-06: each segment exists; all but the last are relational; none is blocked.

    REQ-04a-07: a path deeper than four relations comes back with a warning.
    """
    current = model
    info: FieldInfo | None = None
    for depth, name in enumerate(leaf.segments):
        if is_field_blocked is not None and is_field_blocked(current, name):
            raise DomainError(
                f"Invalid domain: field '{leaf.path}' cannot be used in a filter "
                f"('{name}' on {current} is blocked by the server's safety settings)",
                "Remove this condition; blocked fields cannot be read or filtered on",
                EXAMPLE,
                code="FIELD_BLOCKED",  # the same refusal as reading the field (decision 11)
                category="access",
            )
        fields = await source.get_fields(current)
        info = fields.get(name)
        if info is None:
            prefix = ".".join(leaf.segments[:depth])
            close = [
                candidate
                for candidate in difflib.get_close_matches(name, list(fields), n=3)
                if is_field_blocked is None or not is_field_blocked(current, candidate)
            ]
            hint = f"Did you mean {', '.join(map(repr, close))}? " if close else ""
            fallback = [*leaf.segments[:depth], close[0] if close else "id"]
            example = [[".".join(fallback), "!=", False]]
            raise DomainError(
                f"Invalid domain: {current} has no field '{name}'"
                + (f" (in path '{leaf.path}' after '{prefix}')" if prefix else ""),
                f"{hint}Check the field names of {current} with odoo_core_fields_get",
                example,
            )
        if depth < len(leaf.segments) - 1:
            if not info.is_relational or info.relation is None:
                raise DomainError(
                    f"Invalid domain: '{name}' on {current} is a {info.type} field, a dotted "
                    f"path can only go through relational fields (in '{leaf.path}')",
                    f"Filter on '{name}' itself, e.g. [['{name}', '!=', False]]",
                    [[name, "!=", False]],
                )
            current = info.relation
    if info is not None and info.type in ("date", "datetime"):
        check_date_value(leaf.path, leaf.operator, leaf.value, info.type)
    if len(leaf.segments) > MAX_PATH_DEPTH:
        return f"path '{leaf.path}' goes {len(leaf.segments)} levels deep; it may be slow"
    return None


def _too_many_models(exc: LookupLimitError, leaf: Leaf) -> DomainError:
    """REQ-04a-14: the lookup limit as a domain refusal naming the leaf that passed it, with
    a valid example."""
    return DomainError(
        f"Invalid domain: {exc.reason} (condition at position {leaf.index}: '{leaf.path}')",
        exc.suggestion,
        EXAMPLE,
        code=exc.code,
    )


async def validate_domain(
    domain: object,
    model: str,
    *,
    fields: FieldSource | None = None,
    is_field_blocked: BlockedFieldCheck | None = None,
) -> ValidatedDomain:
    """REQ-04a-13: the full check: structure, then fields and blocked paths (decision 11).

    Without ``fields`` only the first segment of each path can be checked against the
    blocklist; the tools always pass the registry, so a blocked field is found on any path.
    REQ-07-11 (issue 37): the paths may need at most ``MAX_MODELS_PER_DOMAIN`` models'
    fields; past that the domain is refused (TOO_MANY_MODELS), not checked in part.
    """
    parsed = parse_domain(domain)
    warnings: list[str] = []
    lookups = (
        None if fields is None else CallLookups(fields, limit=MAX_MODELS_PER_DOMAIN, what="domain")
    )
    for leaf in parsed.leaves:
        if lookups is not None:
            try:
                warning = await _check_path(model, leaf, lookups, is_field_blocked)
            except LookupLimitError as exc:
                raise _too_many_models(exc, leaf) from None
            if warning:
                warnings.append(warning)
        elif is_field_blocked is not None and is_field_blocked(model, leaf.segments[0]):
            raise DomainError(
                f"Invalid domain: field '{leaf.path}' cannot be used in a filter "
                f"('{leaf.segments[0]}' on {model} is blocked by the server's safety settings)",
                "Remove this condition; blocked fields cannot be read or filtered on",
                EXAMPLE,
            )
    return ValidatedDomain(parsed.items, tuple(warnings))
