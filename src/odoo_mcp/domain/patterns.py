"""L2/04a: the everyday domains, as worked examples an LLM can adapt.

They go into the search tool's description and the domain help prompt (SPEC-06), so that a
model asking for "orders of this month" writes a range on date strings instead of a
function call, and asks for archived records through the context instead of the domain.
Each pattern validates with :func:`odoo_mcp.domain.parse_domain` (a test checks it).
"""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = ["COMMON_PATTERNS", "DomainPattern", "render_patterns"]


class DomainPattern(NamedTuple):
    intent: str
    domain: str
    note: str = ""


#: REQ-04a-12: the common patterns, in the order a reader meets them.
COMMON_PATTERNS: Final[tuple[DomainPattern, ...]] = (
    DomainPattern("one condition", "[['state', '=', 'sale']]"),
    DomainPattern("all of several (AND)", "[['state', '=', 'sale'], ['amount_total', '>', 1000]]"),
    DomainPattern("either (OR)", "['|', ['state', '=', 'draft'], ['state', '=', 'sent']]"),
    DomainPattern("not", "['!', ['state', '=', 'cancel']]"),
    DomainPattern("contains, any case", "[['name', 'ilike', 'acme']]"),
    DomainPattern("starts with", "[['name', '=ilike', 'SO%']]"),
    DomainPattern("ends with", "[['email', '=ilike', '%@acme.com']]"),
    DomainPattern(
        "any of several words", "['|', ['name', 'ilike', 'desk'], ['name', 'ilike', 'chair']]"
    ),
    DomainPattern(
        "within a month",
        "[['date_order', '>=', '2026-11-01 00:00:00'], ['date_order', '<', '2026-12-01 00:00:00']]",
        "datetimes are UTC strings; compute the bounds yourself",
    ),
    DomainPattern("since a date", "[['create_date', '>=', '2026-11-15 00:00:00']]"),
    DomainPattern(
        "within a year",
        "[['invoice_date', '>=', '2026-01-01'], ['invoice_date', '<', '2027-01-01']]",
    ),
    DomainPattern("by partner id", "[['partner_id', '=', 7]]"),
    DomainPattern("by partner country (path)", "[['partner_id.country_id.code', '=', 'ES']]"),
    DomainPattern("has a tag", "[['category_id', 'in', [5]]]"),
    DomainPattern("has no tag", "[['category_id', '=', False]]"),
    DomainPattern(
        "active only",
        "[['active', '=', True]]",
        "Odoo already hides archived records; to include them pass context "
        "{'active_test': False} instead of a domain",
    ),
    DomainPattern("state in a list", "[['state', 'in', ['sale', 'done']]]"),
    DomainPattern("not cancelled", "[['state', '!=', 'cancel']]"),
)


def render_patterns(patterns: tuple[DomainPattern, ...] = COMMON_PATTERNS) -> str:
    """REQ-04a-12: the patterns as the text block tool descriptions and prompts carry."""
    lines = ["Common patterns:"]
    for pattern in patterns:
        note = f" ({pattern.note})" if pattern.note else ""
        lines.append(f"  {pattern.intent}: {pattern.domain}{note}")
    return "\n".join(lines)
