"""Defect: tools are listed without annotations (REQ-11-18)."""

from typing import Any

from _sabotage import patch_everywhere, serve

from odoo_mcp.adapter import tools as dispatch

original = dispatch.tool_definition


def _bare(spec: Any) -> Any:
    return original(spec).model_copy(update={"annotations": None})


patch_everywhere(original, _bare)
serve()
