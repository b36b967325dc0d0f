"""Legal choice: ``odoo_core_search_read`` validates ``limit`` against its advertised schema
(``"maximum": 500``) and refuses ``limit > 500`` with JSON-RPC -32602, as REQ-10-16 asks for
arguments that fail the schema, instead of capping it. SPEC-04 §3.1 REQ-04-02: "Enforce the
maximum limit (500)" does not say how."""

from typing import Any

from _variant import serve
from pydantic import Field

from odoo_mcp.tools import core_read
from odoo_mcp.toolsets import all_tools


class StrictSearchReadInput(core_read.SearchReadInput):
    limit: int = Field(  # no clamping validator: the schema's maximum is the rule
        default=80,
        ge=1,
        le=core_read.MAX_LIMIT,
        description="Maximum number of records to return. Default: 80. Max: 500.",
    )


spec: Any = next(spec for spec in all_tools() if spec.name == "odoo_core_search_read")
object.__setattr__(spec, "input_model", StrictSearchReadInput)
serve()
