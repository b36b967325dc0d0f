"""Legal choice: ``odoo://config/safety`` has exactly the four keys of the seed's example
(``operation_mode``, ``model_allowlist``, ``model_blocklist``, ``rate_limit``), the lists being
the user's own (the seed's example shows ``"model_blocklist": []``): the built-in default
blocklist is not shown. SPEC-06 §3.2 REQ-06-05. (Reference: decision 12 lists the defaults.)"""

from typing import Any

from _resources import rewrite_resources
from _variant import serve

KEYS = ("operation_mode", "model_allowlist", "model_blocklist", "rate_limit")


def _seed_keys(uri: str, answer: dict[str, Any]) -> dict[str, Any]:
    if uri != "odoo://config/safety":
        return answer
    return {key: answer.get(key) for key in KEYS}


rewrite_resources(_seed_keys)
serve()
