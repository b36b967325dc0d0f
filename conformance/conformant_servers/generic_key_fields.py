"""Legal choice (decision 10's other side): a record resource's key fields are chosen by one
rule for every model (stored, non-binary, non-blocked, non-x2many fields), with no per-model
list for well-known models. SPEC-06 §4.2 REQ-06-10 leaves "key fields" undefined."""

import importlib
from typing import Any

from _variant import serve

# the module, not the function odoo_mcp.registry re-exports under the same name
presets: Any = importlib.import_module("odoo_mcp.registry.key_fields").KEY_FIELDS
presets.clear()  # the generic rule for every model
serve()
