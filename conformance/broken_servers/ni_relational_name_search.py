"""Defect (non-interference): a string condition on a relational field is taken for a plain
condition, so ``[["partner_id", "ilike", "x"]]`` runs the comodel's name search, which on
res.partner also matches the blocked ``email`` (REQ-11-14: counts become an oracle)."""

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from _sabotage import serve

from odoo_mcp.field_refs import FieldRef
from odoo_mcp.safety.policy import SafetyPolicy

original = SafetyPolicy.check_references


async def _no_name_searches(
    self: SafetyPolicy, model: str, refs: Iterable[FieldRef], fields: Any, **kw: Any
) -> None:
    plain = [
        replace(ref, searches_names=False)
        if len(ref.path) > 0 and ref.path[-1] != "display_name"
        else ref
        for ref in refs
    ]
    await original(self, model, plain, fields, **kw)


SafetyPolicy.check_references = _no_name_searches  # type: ignore[method-assign]
serve()
