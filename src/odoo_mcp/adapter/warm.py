"""Importing this module builds the core tools' listed schemas, for a process that forks
servers (the kit's fork server names it in a target's ``preload``): each child then finds
them built. A server never imports it; it builds each schema on first use
(``tool_definition``)."""

from __future__ import annotations

from odoo_mcp.adapter.tools import input_schema_of, output_schema_of
from odoo_mcp.toolsets.core import CoreToolset

for _spec in CoreToolset().tools():
    input_schema_of(_spec.input_model)
    output_schema_of(_spec.result_model)
