"""L2/04a common patterns: each one is a valid domain, and search_read's description has them."""

from __future__ import annotations

import ast

import pytest

from odoo_mcp.domain import parse_domain
from odoo_mcp.domain.patterns import COMMON_PATTERNS, render_patterns
from odoo_mcp.tools.core_read import TOOLS


@pytest.mark.parametrize("pattern", COMMON_PATTERNS, ids=lambda p: p.intent)
def test_every_pattern_is_a_valid_domain(pattern: object) -> None:
    domain = ast.literal_eval(pattern.domain)  # type: ignore[attr-defined]
    assert parse_domain(domain).to_odoo() == domain


def test_search_read_description_carries_the_patterns() -> None:
    search_read = next(tool for tool in TOOLS if tool.name == "odoo_core_search_read")
    assert render_patterns() in search_read.description
    assert "'=ilike', 'SO%'" in search_read.description
