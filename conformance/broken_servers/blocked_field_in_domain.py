"""Defect: a blocked field is refused in ``fields`` as today, but a domain or an order naming it
goes to Odoo (decision 11 off): filtering on it is an oracle for the hidden value
(REQ-11-12/14)."""

from typing import Any

from _sabotage import serve

from odoo_mcp.domain import validate_domain, validate_order
from odoo_mcp.safety.policy import SafetyPolicy
from odoo_mcp.tools import core_common

checked = SafetyPolicy.check_references


async def _references_without_filters(
    self: SafetyPolicy, model: str, refs: Any, fields: Any, **kwargs: Any
) -> None:
    kept = [ref for ref in refs if ref.kind not in ("domain", "order")]
    await checked(self, model, kept, fields, **kwargs)


async def _domain_unchecked(domain: Any, model: str, **kwargs: Any) -> Any:
    return await validate_domain(domain, model, **{**kwargs, "is_field_blocked": None})


async def _order_unchecked(order: Any, model: str, **kwargs: Any) -> Any:
    return await validate_order(order, model, **{**kwargs, "is_field_blocked": None})


core_common.validate_domain = _domain_unchecked  # type: ignore[assignment]
core_common.validate_order = _order_unchecked  # type: ignore[assignment]
SafetyPolicy.check_order = lambda self, model, order: None  # type: ignore[method-assign]
SafetyPolicy.check_references = _references_without_filters  # type: ignore[method-assign]
serve()
