"""Legal choice (decision 44's other side): every HTTP error status Odoo answers over XML-RPC
is an ``xmlrpc.client.ProtocolError``, which REQ-10-05 makes connection / CONNECTION_ERROR
("Any xmlrpc.client.ProtocolError"), instead of REQ-10-08's code per status (a server set to
speak XML-RPC; over JSON-RPC and JSON-2 only REQ-10-08 applies)."""

import os
from typing import Any

from _variant import patch_everywhere, serve

from odoo_mcp.errors import response

_PER_STATUS = frozenset({"SERVER_ERROR", "ENDPOINT_NOT_FOUND", "SESSION_EXPIRED"})
_original = response.to_payload


def _one_row(error: Any) -> Any:
    payload = _original(error)
    if payload.get("code") in _PER_STATUS:
        payload.update(category="connection", code="CONNECTION_ERROR", retry=True)
        payload["retry_after"] = payload.get("retry_after") or 5
    return payload


if os.environ.get("ODOO_PROTOCOL") == "xmlrpc":  # JSON-RPC and JSON-2 keep REQ-10-08's codes
    patch_everywhere(_original, _one_row)
serve()
