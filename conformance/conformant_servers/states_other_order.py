"""Legal choice: ``odoo://model/{model}/states`` lists the states in reverse selection order.
SPEC-06 §4.1 REQ-06-08 gives states and transitions, no order."""

from typing import Any

from _resources import rewrite_resources
from _variant import serve


def _reversed(uri: str, answer: dict[str, Any]) -> dict[str, Any]:
    states = answer.get("states")
    if uri.endswith("/states") and isinstance(states, list):
        return {**answer, "states": list(reversed(states))}
    return answer


rewrite_resources(_reversed)
serve()
