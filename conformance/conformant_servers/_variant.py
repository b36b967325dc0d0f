"""Tools to vary the reference server in one place, for the kit's conformant-variant tests.

The mirror image of ``../broken_servers/_sabotage.py`` (reused here, not copied): each variant
makes one different choice where the specification leaves the choice open, and must still
pass the kit. Patches are applied before ``build_server`` runs.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "broken_servers"))

import _acme as acme
from _acme import add_tool
from _sabotage import patch_everywhere, serve, wrap_tool

__all__ = ["acme", "add_tool", "patch_everywhere", "replace_handler", "serve", "wrap_tool"]

Handler = Callable[[Any, Any], Awaitable[Any]]


def replace_handler(name: str, make: Callable[[Handler], Handler]) -> None:
    """Replace one tool's handler by ``make(original_handler)``."""
    from odoo_mcp.toolsets import all_tools

    spec = next(spec for spec in all_tools() if spec.name == name)
    object.__setattr__(spec, "handler", make(spec.handler))
