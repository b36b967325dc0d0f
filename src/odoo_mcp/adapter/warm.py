"""Importing this module loads the core tools (their modules, models and handlers), for a
process that forks servers (the kit's fork server names it in a target's ``preload``): each
child then finds them loaded. A server never imports it: it lists the core tools from the
catalogue and loads each one on its first call (issue 41, ``odoo_mcp.tools.catalogue``)."""

from __future__ import annotations

from odoo_mcp.tools.catalogue import DeferredToolSpec
from odoo_mcp.toolsets.core import CoreToolset

for _spec in CoreToolset().tools():
    if isinstance(_spec, DeferredToolSpec):
        _spec.load()
