"""SPEC-02 / L2-02b: typed errors built from real Odoo 19 error payloads."""

from __future__ import annotations

import json
import ssl
from pathlib import Path
from typing import Any

import pytest

from odoo_mcp.connection import (
    ConnectionSettings,
    OdooConfigurationError,
    OdooRpcError,
    build_http_client,
)
from odoo_mcp.connection.errors import is_none_marshal_fault, parse_traceback_tail
from odoo_mcp.connection.settings import _tls_verify

# Real Odoo 19 errors, trimmed: class + message, tracebacks cut to their exception lines.
ERRORS: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parents[2] / "fixtures" / "odoo19_errors.json").read_text(encoding="utf-8")
)
XMLRPC = ERRORS["xmlrpc"]
JSONRPC = ERRORS["jsonrpc"]
JSON2 = ERRORS["json2"]


def _fault(name: str) -> OdooRpcError:
    fault = XMLRPC[name]
    return OdooRpcError.from_xmlrpc_fault(
        fault["faultCode"], fault["faultString"], model="res.partner", method="write"
    )


@pytest.mark.parametrize(
    ("name", "error_class", "message"),
    [
        (
            "unknown_method",
            "builtins.AttributeError",
            "The method 'res.partner.no_such_method' does not exist",
        ),
        (
            "invalid_domain_field",
            "builtins.ValueError",
            "Invalid field res.partner.no_such_field in condition ('no_such_field', '=', 1)",
        ),
        ("write_unknown_field", "builtins.KeyError", "'no_such_field'"),
        (
            "bad_kwarg",
            "builtins.TypeError",
            "BaseModel._read_format() got an unexpected keyword argument 'bogus_kwarg'",
        ),
    ],
)
@pytest.mark.req("REQ-02b-04", "REQ-02b-12")
def test_fault_1_takes_class_and_message_from_the_traceback(
    name: str, error_class: str, message: str
) -> None:
    error = _fault(name)
    assert (error.error_class, error.message, error.fault_code) == (error_class, message, 1)
    assert error.traceback == XMLRPC[name]["faultString"]
    assert (error.model, error.method, error.protocol) == ("res.partner", "write", "xmlrpc")


def test_fault_1_keeps_a_dotted_class_and_the_last_chained_exception() -> None:
    error = _fault("unknown_db")
    assert error.error_class == "psycopg2.OperationalError"
    assert error.message.endswith('FATAL:  database "nosuchdb" does not exist')


@pytest.mark.parametrize(
    ("name", "error_class"),
    [
        ("create_sale_order_no_partner", "odoo.exceptions.UserError"),
        ("write_missing_id", "odoo.exceptions.UserError"),
        ("execute_bad_password", "odoo.exceptions.AccessDenied"),
        ("demo_unlink_user", "odoo.exceptions.AccessError"),
    ],
)
@pytest.mark.req("REQ-02b-04", "REQ-02b-12")
def test_faults_2_to_4_map_to_odoo_exception_classes(name: str, error_class: str) -> None:
    error = _fault(name)
    assert error.error_class == error_class
    assert error.message == XMLRPC[name]["faultString"]
    assert error.traceback is None
    assert error.is_access_denied is (error_class == "odoo.exceptions.AccessDenied")


@pytest.mark.parametrize(
    ("name", "error_class", "starts"),
    [
        ("legacy_create_sale_order_no_partner", "odoo.exceptions.UserError", "The operation"),
        ("legacy_write_missing_id", "odoo.exceptions.MissingError", "Record does not exist"),
        ("legacy_demo_unlink_user", "odoo.exceptions.AccessError", "You are not allowed"),
        ("legacy_bad_password", "odoo.exceptions.AccessDenied", "Access Denied"),
        ("legacy_invalid_domain_field", "builtins.ValueError", "Invalid field res.partner"),
    ],
)
def test_legacy_string_fault_codes_are_understood(name: str, error_class: str, starts: str) -> None:
    error = _fault(name)
    assert error.error_class == error_class
    assert error.message.startswith(starts)
    assert error.fault_code == XMLRPC[name]["faultCode"]


def test_none_marshal_fault_is_recognised_and_nothing_else_is() -> None:
    fault = XMLRPC["none_marshal"]
    assert is_none_marshal_fault(fault["faultCode"], fault["faultString"])
    others = [name for name in XMLRPC if name != "none_marshal"]
    assert not any(
        is_none_marshal_fault(XMLRPC[name]["faultCode"], XMLRPC[name]["faultString"])
        for name in others
    )


@pytest.mark.parametrize(
    ("name", "error_class"),
    [
        ("execute_bad_password", "odoo.exceptions.AccessDenied"),
        ("unknown_method", "builtins.AttributeError"),
        ("demo_unlink_user", "odoo.exceptions.AccessError"),
        ("unknown_db", "psycopg2.OperationalError"),
    ],
)
@pytest.mark.req("REQ-02b-08", "REQ-02b-12")
def test_jsonrpc_error_data_gives_class_message_and_debug(name: str, error_class: str) -> None:
    error = OdooRpcError.from_jsonrpc_error(JSONRPC[name], model="res.users", method="unlink")
    assert error.error_class == error_class
    assert error.message == JSONRPC[name]["data"]["message"]
    assert error.traceback == JSONRPC[name]["data"]["debug"]
    assert (error.fault_code, error.protocol, error.http_status) == (0, "jsonrpc", 200)


@pytest.mark.parametrize(
    ("name", "status", "error_class"),
    [
        ("bad_api_key", 401, "werkzeug.exceptions.Unauthorized"),
        ("unknown_model", 404, "werkzeug.exceptions.NotFound"),
        ("write_missing_id", 404, "odoo.exceptions.MissingError"),
        ("ids_on_model_method", 422, "werkzeug.exceptions.UnprocessableEntity"),
        ("bad_kwarg", 500, "builtins.TypeError"),
        ("create_sale_order_no_partner", 422, "odoo.exceptions.ValidationError"),
        ("demo_unlink_user", 403, "odoo.exceptions.AccessError"),
    ],
)
@pytest.mark.req("REQ-02b-12")
def test_json2_error_body_and_status(name: str, status: int, error_class: str) -> None:
    captured = JSON2[name]
    error = OdooRpcError.from_json2_error(captured["body"], captured["status"])
    assert (error.http_status, error.error_class, error.protocol) == (status, error_class, "json2")
    assert error.message == captured["body"]["message"]


def test_traceback_tail_without_message_and_without_header() -> None:
    assert parse_traceback_tail("KeyError") == ("builtins.KeyError", "")
    assert parse_traceback_tail("odoo.exceptions.UserError: a\nb\n") == (
        "odoo.exceptions.UserError",
        "a\nb",
    )


@pytest.mark.parametrize(
    ("url", "normalised"),
    [
        ("https://odoo.example.com///", "https://odoo.example.com"),
        ("http://h:8069/", "http://h:8069"),
    ],
)
@pytest.mark.req("REQ-02-02")
def test_url_is_normalised(url: str, normalised: str) -> None:
    settings = ConnectionSettings(url=url, database="demo", username="a", password="b")  # type: ignore[arg-type]
    assert settings.url == normalised


@pytest.mark.parametrize("url", ["ftp://odoo.example.com", "odoo.example.com", "http://"])
@pytest.mark.req("REQ-02-02")
def test_bad_urls_are_refused(url: str) -> None:
    with pytest.raises(ValueError, match="ODOO_URL"):
        ConnectionSettings(url=url, database="demo", username="a", password="b")  # type: ignore[arg-type]


@pytest.mark.req("REQ-02-03", "REQ-02-27", "REQ-02-29")
def test_api_key_wins_and_base_context_has_companies() -> None:
    settings = ConnectionSettings.model_validate(
        {
            "url": "http://h",
            "database": "demo",
            "username": "admin",
            "password": "pw",
            "api_key": "key",
            "company_ids": [1, 3],
            "tz": "Europe/Brussels",
        }
    )
    assert [kind for kind, _ in settings.secrets()] == ["api_key", "password"]
    assert settings.base_context() == {
        "lang": "en_US",
        "tz": "Europe/Brussels",
        "allowed_company_ids": [1, 3],
    }


@pytest.mark.req("REQ-02-31")
def test_disabled_tls_verification_warns(caplog: pytest.LogCaptureFixture) -> None:
    settings = ConnectionSettings.model_validate(
        {"url": "https://h", "database": "d", "username": "u", "password": "p", "verify_ssl": False}
    )
    build_http_client(settings)
    assert "SSL verification disabled" in caplog.text


@pytest.mark.req("REQ-02-32")
def test_missing_ca_bundle_is_a_configuration_error(tmp_path: Path) -> None:
    settings = ConnectionSettings.model_validate(
        {"url": "https://h", "database": "d", "username": "u", "password": "p"}
        | {"ca_cert": str(tmp_path / "missing.pem")}
    )
    with pytest.raises(OdooConfigurationError, match="ODOO_CA_CERT"):
        build_http_client(settings)


@pytest.mark.req("REQ-02-30")
@pytest.mark.parametrize("url", ["http://odoo.local:8069", "https://odoo.example.com"])
def test_tls_is_verified_and_plain_http_loads_no_ca_bundle(url: str) -> None:
    """REQ-02-30: https verifies against the system's CAs; a plain-HTTP client (no redirects
    followed, so never a handshake) skips loading them and would still refuse any TLS peer."""
    settings = ConnectionSettings.model_validate(
        {"url": url, "database": "d", "username": "u", "password": "p"}
    )
    context = _tls_verify(settings)
    if url.startswith("https"):
        assert context is True
        return
    assert isinstance(context, ssl.SSLContext)
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert context.cert_store_stats()["x509_ca"] == 0
