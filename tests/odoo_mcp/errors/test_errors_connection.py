"""SPEC-10 §4.3 and decision 7: network failures, rate limits, sessions and configuration."""

from __future__ import annotations

import socket
import xmlrpc.client

import httpx2
import pytest
from odoo19_errors import load

from odoo_mcp.connection.errors import (
    OdooAuthenticationError,
    OdooConfigurationError,
    OdooConnectionError,
    OdooRateLimited,
    OdooRpcError,
    OdooSessionExpired,
)
from odoo_mcp.connection.transport import send
from odoo_mcp.errors import ErrorCategory, classify, wizard_required


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.mark.anyio
async def test_a_refused_connection_is_connection_refused() -> None:
    """REQ-10-08 / CONN-001 on the real message of a refused TCP connection."""
    async with httpx2.AsyncClient(base_url=f"http://127.0.0.1:{_closed_port()}") as client:
        with pytest.raises(OdooConnectionError) as caught:
            await send(client, "POST", "/jsonrpc", protocol="jsonrpc", json_body={})
    response = classify(caught.value)
    assert (response.category, response.code) == (ErrorCategory.CONNECTION, "CONNECTION_REFUSED")
    assert response.retry is True and response.retry_after == 5.0


def test_a_timeout_after_sending_warns_about_repeating_a_change() -> None:
    """REQ-10-08 TIMEOUT; REQ-02-21: the request may have been applied."""
    exc = OdooConnectionError(
        "Odoo did not answer in time: timed out", kind="timeout", request_sent=True
    )
    response = classify(exc)
    assert response.code == "TIMEOUT" and response.retry is True
    assert "check whether it was applied" in response.suggestion


@pytest.mark.parametrize(
    ("status", "code"), [(502, "SERVER_ERROR"), (503, "SERVER_ERROR"), (404, "ENDPOINT_NOT_FOUND")]
)
def test_http_statuses_without_an_odoo_body(status: int, code: str) -> None:
    """REQ-10-08: 5xx and 404 from a proxy are connection errors."""
    exc = OdooConnectionError(
        f"HTTP {status}", kind="http_status", request_sent=True, http_status=status
    )
    assert (classify(exc).category, classify(exc).code) == (ErrorCategory.CONNECTION, code)


@pytest.mark.parametrize("status", [401, 403])
@pytest.mark.parametrize(
    ("kind", "message", "protocol"),
    [
        ("malformed", "malformed XML-RPC answer (HTTP {status})", "xmlrpc"),
        ("malformed", "unexpected HTTP {status} from /json/2 without an Odoo error body", "json2"),
        ("http_status", "HTTP {status}", None),
    ],
)
def test_401_and_403_are_expired_sessions_whatever_the_body(
    status: int, kind: str, message: str, protocol: str | None
) -> None:
    """REQ-10-08: HTTP 401/403 is access / SESSION_EXPIRED, not retried, on every protocol
    (a proxy's HTML page used to read as a malformed answer, connection / CONNECTION_ERROR)."""
    exc = OdooConnectionError(
        message.format(status=status),
        kind=kind,
        request_sent=True,
        http_status=status,
        protocol=protocol,
    )
    response = classify(exc)
    assert (response.category, response.code) == (ErrorCategory.ACCESS, "SESSION_EXPIRED")
    assert response.retry is False and response.retry_after is None
    assert f"HTTP {status}" in response.message


def test_rate_limits_carry_the_servers_retry_after() -> None:
    """REQ-10-08 / REQ-10-15: 429 -> rate_limit, retry true, retry_after from the server."""
    response = classify(OdooRateLimited("HTTP 429", retry_after=12.0))
    assert (response.category, response.code, response.retry) == (
        ErrorCategory.RATE_LIMIT, "RATE_LIMITED", True,
    )  # fmt: skip
    assert response.retry_after == 12.0
    assert classify(OdooRateLimited("HTTP 429", retry_after=None)).retry_after == 60.0


def test_an_expired_session_reported_after_reauthentication_is_access() -> None:
    """Decision 7: SESSION_EXPIRED, category access, retry false."""
    direct = classify(OdooSessionExpired("Odoo Session Expired", protocol="jsonrpc"))
    try:
        try:
            raise OdooSessionExpired("Invalid apikey", protocol="json2")
        except OdooSessionExpired as cause:
            raise OdooAuthenticationError("refused again", protocol="json2") from cause
    except OdooAuthenticationError as exc:
        after_retry = classify(exc)
    for response in (direct, after_retry):
        assert (response.category, response.code, response.retry) == (
            ErrorCategory.ACCESS, "SESSION_EXPIRED", False,
        )  # fmt: skip


def test_a_session_expired_jsonrpc_error_matches_conn_003_as_access() -> None:
    error = OdooRpcError.from_jsonrpc_error(
        {"code": 100, "message": "Odoo Session Expired",
         "data": {"name": "odoo.http.SessionExpiredException", "message": "Session expired"}}
    )  # fmt: skip
    response = classify(error)
    assert (response.category, response.code, response.retry) == (
        ErrorCategory.ACCESS, "SESSION_EXPIRED", False,
    )  # fmt: skip


def test_bad_credentials_and_configuration_are_not_retried() -> None:
    denied = classify(OdooAuthenticationError("Access Denied"))
    assert (denied.category, denied.code, denied.retry) == (
        ErrorCategory.ACCESS,
        "ACCESS_DENIED",
        False,
    )
    config = classify(OdooConfigurationError("json2 needs Odoo 19"))
    assert (config.category, config.code, config.retry) == (
        ErrorCategory.CONFIGURATION, "CONFIG_ERROR", False,
    )  # fmt: skip


def test_raw_transport_exceptions_are_classified() -> None:
    """REQ-10-08: httpx ConnectError / TimeoutException; REQ-10-05: ProtocolError."""
    assert classify(httpx2.ConnectError("refused")).code == "CONNECTION_REFUSED"
    assert classify(httpx2.ReadTimeout("slow")).code == "TIMEOUT"
    protocol_error = xmlrpc.client.ProtocolError("odoo/xmlrpc", 502, "Bad Gateway", {})
    assert classify(protocol_error).code == "CONNECTION_ERROR"
    fault = xmlrpc.client.Fault(3, "Access Denied")
    assert classify(fault).code == "ACCESS_DENIED"


def test_anything_else_is_unknown_without_its_text() -> None:
    response = classify(RuntimeError("/opt/secret/path"))
    assert (response.category, response.code, response.retry) == (
        ErrorCategory.UNKNOWN, "UNKNOWN_ERROR", False,
    )  # fmt: skip
    assert "/opt" not in response.message


def test_wizard_actions_become_wizard_required() -> None:
    """REQ-10-01 wizard: the real button_validate answer of a partial picking."""
    action = load("flow_stock_picking_backorder.json")["steps"][8]["result"]
    response = wizard_required(action, model="stock.picking", method="button_validate")
    assert (response.category, response.code, response.retry) == (
        ErrorCategory.WIZARD, "WIZARD_REQUIRED", True,
    )  # fmt: skip
    assert "stock.backorder.confirmation" in response.message
