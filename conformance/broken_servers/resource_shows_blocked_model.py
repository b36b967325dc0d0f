"""Defect: resources skip the model lists: a blocked model is readable as odoo://record/..
(REQ-06-22); the tools still refuse it."""

from dataclasses import replace
from typing import Any

from _sabotage import patch_everywhere, serve

from odoo_mcp.resources import reader
from odoo_mcp.safety.policy import SafetyPolicy

original = reader.read_resource


class _LaxPolicy(SafetyPolicy):
    def check_operation(self, operation: Any, model: str) -> None:
        return None


async def _without_model_lists(rc: Any, uri: str) -> Any:
    lax = _LaxPolicy.__new__(_LaxPolicy)
    lax.__dict__.update(rc.policy.__dict__)
    return await original(replace(rc, policy=lax), uri)


patch_everywhere(original, _without_model_lists)
serve()
