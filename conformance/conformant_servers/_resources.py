"""Rewrite one resource's answer: the seam the resource variants share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from _variant import patch_everywhere

from odoo_mcp.resources import reader

Rewrite = Callable[[str, dict[str, Any]], dict[str, Any]]
original_read = reader.read_resource


def rewrite_resources(rewrite: Rewrite) -> None:
    """Answer every ``resources/read`` with ``rewrite(uri, reference_answer)``."""
    current = reader.read_resource

    async def rewritten(rc: Any, uri: str) -> dict[str, Any]:
        return rewrite(uri, await current(rc, uri))

    patch_everywhere(current, rewritten)
