"""Legal choice (decision 22's other side): every ``not_found`` error carries the seed's own
code ``NOT_FOUND`` (SPEC-10 §2 and §4-5's tables: MissingError -> ``NOT_FOUND``), where the
reference gives L2/10a's finer ``RECORD_NOT_FOUND`` / ``MODEL_NOT_FOUND`` / ... codes."""

from typing import Any

from _variant import patch_everywhere, serve

from odoo_mcp.errors import response

original = response.to_payload


def _seed_code(error: Any) -> Any:
    payload = original(error)
    if payload.get("category") == "not_found":
        payload["code"] = "NOT_FOUND"
    return payload


patch_everywhere(original, _seed_code)
serve()
