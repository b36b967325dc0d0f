"""L2-04a / SPEC-11: Odoo domains and what travels with them: their syntax and validation
(``validation``: operators, paths, blocked fields), value checks (``values``), the common
mistakes they are corrected by (``patterns``), ``order`` clauses, and x2many commands
(``x2many``)."""

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
