"""Legal choice: ``odoo://model/{model}/fields`` answers in Odoo's own ``fields_get`` shape,
a dict of field name to attributes (``{"login": {"type": "char", ...}}``), without the
``odoo_core_fields_get`` envelope. SPEC-06 §4.1 REQ-06-06 gives no response shape."""

from typing import Any

from _resources import rewrite_resources
from _variant import serve


def _raw(uri: str, answer: dict[str, Any]) -> dict[str, Any]:
    if uri.startswith("odoo://model/") and uri.endswith("/fields"):
        fields = answer.get("fields")
        return dict(fields) if isinstance(fields, dict) else answer
    return answer


rewrite_resources(_raw)
serve()
