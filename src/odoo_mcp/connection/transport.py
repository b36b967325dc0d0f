"""SPEC-02: one POST/GET helper for the three adapters, mapping network failures to errors.

Whether a failed request may have reached Odoo decides whether it may be retried (REQ-02-21):

=====================================  ============  =========================================
failure                                request_sent  why
=====================================  ============  =========================================
connection refused, connect timeout,   False         no byte of the request left this process
pool timeout
read timeout, write timeout            True          Odoo may be running (or have committed) it
connection dropped, half an answer     True          the answer was lost, not the request
any HTTP status without an Odoo        True          a proxy answers 429 and every 5xx after
error body (429 and 503 included)                    forwarding too (an upstream reset, its own
                                                     request timeout while the worker goes on)
malformed body                         True          Odoo answered; we cannot read what
=====================================  ============  =========================================
"""

from __future__ import annotations

import errno
import json
import re
import socket
import ssl
from collections.abc import Iterator, Mapping
from html import unescape
from typing import Any

import httpx2

from odoo_mcp.connection.errors import OdooConnectionError, OdooRateLimited

__all__ = [
    "decode_json",
    "describe_answer",
    "page_title",
    "raise_for_transport_status",
    "send",
    "server_address",
]

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
        reason = _connect_failure(client.base_url, exc) if kind == "refused" else None
        raise OdooConnectionError(
            reason or f"cannot reach Odoo ({kind}): {str(exc) or type(exc).__name__}",
            kind=kind,
            request_sent=False,
            protocol=protocol,
        ) from exc
    except httpx2.TimeoutException as exc:
        raise OdooConnectionError(
            f"Odoo did not answer in time: {str(exc) or type(exc).__name__}",
            kind="timeout",
            request_sent=True,
            protocol=protocol,
        ) from exc
    except httpx2.TransportError as exc:
        raise OdooConnectionError(
            f"connection to Odoo dropped: {str(exc) or type(exc).__name__}",
            kind="dropped",
            request_sent=True,
            protocol=protocol,
        ) from exc


def server_address(url: httpx2.URL) -> str:
    """``host:port`` of a URL, with the scheme's default port when it names none."""
    port = url.port or (443 if url.scheme == "https" else 80)
    host = f"[{url.host}]" if ":" in url.host else url.host
    return f"{host}:{port}"


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """The exception and the ones it was raised from or during, innermost last."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


#: OpenSSL's ways of saying "the answer was not TLS" (a plain-HTTP server answered)
_PLAIN_HTTP_SIGNS = (
    "WRONG_VERSION_NUMBER",
    "RECORD_LAYER_FAILURE",
    "PACKET_LENGTH_TOO_LONG",
    "UNKNOWN_PROTOCOL",
    "HTTP_REQUEST",
)
_NO_NAME = (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", socket.EAI_NONAME), socket.EAI_AGAIN)


def _connect_failure(base_url: httpx2.URL, exc: BaseException) -> str | None:
    """REQ-02-21 (issue 29): why a connection could not be opened, and what to change: a
    port where nothing listens, a host that does not resolve, https to a plain-HTTP server,
    a certificate not trusted. None when the cause is none of these."""
    where = server_address(base_url)
    for cause in _causes(exc):
        if isinstance(cause, ssl.SSLCertVerificationError):
            return (
                f"cannot reach Odoo: the TLS certificate of {where} is not trusted "
                f"({cause.verify_message}): set ODOO_CA_CERT to its CA file or, on a "
                "trusted network only, set ODOO_VERIFY_SSL=false"
            )
        if isinstance(cause, ssl.SSLError):
            text = f"{cause.reason or ''} {cause}".upper().replace(" ", "_")
            if any(sign in text for sign in _PLAIN_HTTP_SIGNS):
                return (
                    f"cannot reach Odoo over HTTPS: the server at {where} speaks plain HTTP, "
                    f"not HTTPS: use http://{where} in ODOO_URL"
                )
        if isinstance(cause, socket.gaierror) and cause.errno in _NO_NAME:
            return (
                f"cannot reach Odoo: the host {base_url.host!r} of ODOO_URL does not resolve "
                f"({cause.strerror}): check its spelling"
            )
        if isinstance(cause, ConnectionRefusedError) or (
            isinstance(cause, OSError) and cause.errno == errno.ECONNREFUSED
        ):
            return (
                f"cannot reach Odoo: nothing listens on {where} (connection refused): check "
                "the host and port of ODOO_URL, and that Odoo is running"
            )
    return None


_TITLE = re.compile(r"<title[^>]*>(?P<title>.*?)</title\s*>", re.IGNORECASE | re.DOTALL)


def page_title(response: httpx2.Response) -> str | None:
    """The ``<title>`` of an HTML answer, on one line and at most 80 characters."""
    if "html" not in response.headers.get("Content-Type", "").lower():
        return None
    match = _TITLE.search(response.text[:100_000])
    if match is None:
        return None
    title = " ".join(unescape(match["title"]).split())
    return (title if len(title) <= 80 else title[:77] + "...") or None


def describe_answer(response: httpx2.Response) -> str:
    """``HTTP 502 '502 Bad Gateway' (server nginx/1.24.0)``: what answered, in one line."""
    text = f"HTTP {response.status_code}"
    title = page_title(response)
    if title:
        text += f" {title!r}"
    server = response.headers.get("Server")
    if server:
        text += f" (server {server[:60]})"
    return text


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
        title = page_title(response)
        shown = f"HTTP {status} {title!r}" if title else f"HTTP {status}"
        raise OdooConnectionError(
            f"Odoo or a proxy in front of it failed ({shown})",
            kind="http_status",
            request_sent=True,  # issue 37: a 503 too (see the table above)
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
