"""SPEC-02: one POST/GET helper for the three adapters, mapping network failures to errors.

Whether a failed request may have reached Odoo decides whether it may be retried (REQ-02-21):

=====================================  ============  =========================================
failure                                request_sent  why
=====================================  ============  =========================================
connection refused, connect timeout,   False         no byte of the request left this process
pool timeout
HTTP 429, HTTP 503                     False         refused before any handler ran
read timeout, write timeout            True          Odoo may be running (or have committed) it
connection dropped, 502, 504, other    True          the answer was lost, not the request
5xx without an Odoo error body
malformed body                         True          Odoo answered; we cannot read what
=====================================  ============  =========================================
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import httpx2

from odoo_mcp.connection.errors import OdooConnectionError, OdooRateLimited

__all__ = ["decode_json", "raise_for_transport_status", "send"]

_NOT_SENT: tuple[type[Exception], ...] = (
    httpx2.ConnectError,
    httpx2.ConnectTimeout,
    httpx2.PoolTimeout,
)


async def send(
    client: httpx2.AsyncClient,
    method: str,
    path: str,
    *,
    protocol: str,
    content: bytes | str | None = None,
    json_body: object = None,
    headers: Mapping[str, str] | None = None,
) -> httpx2.Response:
    """REQ-02-21: send one request; network failures become OdooConnectionError."""
    try:
        if json_body is not None:
            return await client.request(method, path, json=json_body, headers=headers)
        return await client.request(method, path, content=content, headers=headers)
    except _NOT_SENT as exc:
        kind = "refused" if isinstance(exc, httpx2.ConnectError) else "timeout"
        raise OdooConnectionError(
            f"cannot reach Odoo ({kind}): {exc or type(exc).__name__}",
            kind=kind,
            request_sent=False,
            protocol=protocol,
        ) from exc
    except httpx2.TimeoutException as exc:
        raise OdooConnectionError(
            f"Odoo did not answer in time: {exc or type(exc).__name__}",
            kind="timeout",
            request_sent=True,
            protocol=protocol,
        ) from exc
    except httpx2.TransportError as exc:
        raise OdooConnectionError(
            f"connection to Odoo dropped: {exc or type(exc).__name__}",
            kind="dropped",
            request_sent=True,
            protocol=protocol,
        ) from exc


def _retry_after(response: httpx2.Response) -> float | None:
    value = response.headers.get("Retry-After", "").strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        # An HTTP-date form is legal but rare for APIs; we report "unknown" instead of guessing.
        return None


def raise_for_transport_status(response: httpx2.Response, *, protocol: str) -> None:
    """REQ-02-21: 429 and gateway-style 5xx are connection problems, not Odoo errors.

    Callers check for an Odoo error body first where the protocol has one (JSON-2 answers
    500 with ``{name, message, ...}`` for a ValueError: that is an Odoo error, not a failure).
    """
    status = response.status_code
    if status == 429:
        retry_after = _retry_after(response)
        raise OdooRateLimited(
            f"Odoo is rate limiting requests (HTTP 429, retry after {retry_after} s)",
            retry_after=retry_after,
            protocol=protocol,
        )
    if status >= 500:
        raise OdooConnectionError(
            f"Odoo or a proxy in front of it failed (HTTP {status})",
            kind="http_status",
            request_sent=status != 503,
            http_status=status,
            protocol=protocol,
        )


def decode_json(response: httpx2.Response, *, protocol: str) -> Any:
    """REQ-02-21: parse a JSON body; a body that does not parse is a malformed answer."""
    try:
        return json.loads(response.content)
    except ValueError as exc:
        raise OdooConnectionError(
            f"malformed answer from Odoo (HTTP {response.status_code}): not JSON",
            kind="malformed",
            request_sent=True,
            http_status=response.status_code,
            protocol=protocol,
        ) from exc
