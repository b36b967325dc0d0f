"""Legal choice (decision 23's other side): the context key that lets ``odoo_core_write`` write
readonly fields is ``allow_readonly_fields``, not ``mcp_allow_readonly_fields``. SPEC-04 §3.4
REQ-04-14 says "unless the context explicitly allows it" without naming a key."""

from _variant import serve

from odoo_mcp.tools import core_write

core_write.ALLOW_READONLY_KEY = "allow_readonly_fields"  # type: ignore[misc]
serve()
