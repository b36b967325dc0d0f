"""SPEC-04 §3.1: ``order`` strings checked before any Odoo call (decision 11 for blocked fields).

An order is ``field [asc|desc] [nulls first|nulls last]`` terms separated by commas; a field
may be a dotted path through many2one fields. Anything else (parentheses, SQL, unknown or
unsortable fields, blocked fields on any segment) is refused with a ``DomainError`` whose
code is ``INVALID_ORDER`` and whose example is a valid order string.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from odoo_mcp.domain.values import DomainError
from odoo_mcp.registry import BlockedFieldCheck, FieldSource
from odoo_mcp.registry.lookups import MAX_MODELS_PER_DOMAIN, CallLookups, LookupLimitError

__all__ = ["OrderTerm", "parse_order", "validate_order"]

TERM_RE: Final = re.compile(
    r"(?P<path>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)"
    r"(?:\s+(?P<direction>asc|desc))?"
    r"(?:\s+nulls\s+(?P<nulls>first|last))?",
    re.IGNORECASE,
)
EXAMPLE_ORDER: Final = "name asc, id desc"


@dataclass(frozen=True, slots=True)
class OrderTerm:
    """SPEC-04 §3.1: one sort key of an ``order`` string."""

    path: str
    descending: bool = False
    nulls: str | None = None

    def to_odoo(self) -> str:
        """SPEC-04 §3.1: the term as Odoo reads it."""
        text = f"{self.path} {'desc' if self.descending else 'asc'}"
        return f"{text} nulls {self.nulls}" if self.nulls else text


def _error(
    message: str, suggestion: str, example: str = EXAMPLE_ORDER, *, blocked: bool = False
) -> DomainError:
    return DomainError(
        f"Invalid order: {message}",
        f"{suggestion}, e.g. '{example}'",
        [],
        code="FIELD_BLOCKED" if blocked else "INVALID_ORDER",
        category="access" if blocked else "validation",
    )


def parse_order(order: str | None) -> tuple[OrderTerm, ...]:
    """REQ-04-01: the syntax of ``order``: comma-separated ``field [asc|desc]`` terms."""
    if order is not None and not isinstance(order, str):
        raise _error(f"expected a string, got {type(order).__name__}", "Pass a string")
    if order is None or not order.strip():
        return ()
    terms = []
    for raw in order.split(","):
        match = TERM_RE.fullmatch(raw.strip())
        if match is None:
            raise _error(
                f"cannot read {raw.strip()!r}",
                "Write comma-separated 'field asc' or 'field desc' terms",
            )
        direction, nulls = match["direction"], match["nulls"]
        terms.append(
            OrderTerm(
                match["path"],
                descending=bool(direction) and direction.lower() == "desc",
                nulls=nulls.lower() if nulls else None,
            )
        )
    return tuple(terms)


async def validate_order(
    order: str | None,
    model: str,
    *,
    fields: FieldSource | None = None,
    is_field_blocked: BlockedFieldCheck | None = None,
) -> tuple[OrderTerm, ...]:
    """REQ-04-01: decision 11: an ``order`` naming a blocked field, on any path, is refused.

    REQ-07-11 (issue 37): the paths may need at most ``MAX_MODELS_PER_DOMAIN`` models' fields.
    """
    terms = parse_order(order)
    lookups = (
        None if fields is None else CallLookups(fields, limit=MAX_MODELS_PER_DOMAIN, what="order")
    )
    for term in terms:
        current = model
        segments = term.path.split(".")
        for depth, name in enumerate(segments):
            if is_field_blocked is not None and is_field_blocked(current, name):
                raise _error(
                    f"field '{term.path}' cannot be used for sorting ('{name}' on {current} "
                    "is blocked by the server's safety settings)",
                    "Sort on another field",
                    "id asc",
                    blocked=True,
                )
            if lookups is None:
                break  # without metadata only the first segment's model is known
            try:
                info = (await lookups.get_fields(current)).get(name)
            except LookupLimitError as exc:
                raise DomainError(
                    f"Invalid order: {exc.reason} (in '{term.path}')",
                    f"{exc.suggestion}, e.g. '{EXAMPLE_ORDER}'",
                    [],
                    code=exc.code,
                ) from None
            if info is None:
                raise _error(
                    f"{current} has no field '{name}'",
                    f"Check the field names of {current} with odoo_core_fields_get",
                    "id asc",
                )
            if depth < len(segments) - 1:
                if info.type != "many2one" or not info.relation:
                    raise _error(
                        f"'{term.path}' goes through '{name}', which is not a many2one field",
                        f"Sort on '{name}' itself",
                        f"{name} asc" if info.sortable else "id asc",
                    )
                current = info.relation
            elif not info.sortable:
                raise _error(
                    f"field '{term.path}' is not stored, Odoo cannot sort on it",
                    "Sort on a stored field",
                    "id asc",
                )
    return terms
