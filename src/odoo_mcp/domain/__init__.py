"""L2-04a / SPEC-11: Odoo domains and what travels with them: their syntax and validation
(``validation``: operators, paths, blocked fields), value checks (``values``), the common
mistakes they are corrected by (``patterns``), ``order`` clauses, and x2many commands
(``x2many``)."""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from odoo_mcp.domain.validation import (
        LOGICAL_OPERATORS,
        MAX_PATH_DEPTH,
        OPERATOR_DOCS,
        OPERATORS,
        DomainError,
        Leaf,
        OrderTerm,
        ValidatedDomain,
        parse_domain,
        validate_domain,
        validate_order,
    )

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


def __getattr__(name: str) -> Any:
    """The names above, loaded on first use (issue 41: ``odoo_mcp.domain.values``, which the
    tool dispatcher needs for ``DomainError``, does not load the validators at start-up)."""
    if name in __all__:
        from odoo_mcp.domain import validation

        return getattr(validation, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
