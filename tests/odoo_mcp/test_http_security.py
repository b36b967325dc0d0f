"""REQ-HTTP-12/18: the Host and Origin values DNS-rebinding protection accepts."""

from __future__ import annotations

from odoo_mcp.adapter.http.app import transport_security
from odoo_mcp.config import load_config

BASE = {"odoo_url": "http://odoo.test", "odoo_db": "demo", "odoo_api_key": "k", "transport": "http"}


def test_loopback_only_by_default() -> None:
    settings = transport_security(load_config(BASE, environ={}))
    assert settings.enable_dns_rebinding_protection
    assert settings.allowed_hosts == ["127.0.0.1:*", "localhost:*", "[::1]:*"]


def test_public_url_and_allowed_hosts_are_accepted() -> None:
    config = load_config(
        {**BASE, "host": "10.0.0.5", "public_url": "https://mcp.example.com/mcp",
         "allowed_hosts": "odoo-mcp:8080, ::2"},
        environ={},
    )  # fmt: skip
    settings = transport_security(config)
    assert {"odoo-mcp:8080", "[::2]", "[::2]:*", "10.0.0.5", "10.0.0.5:*"} <= set(
        settings.allowed_hosts
    )
    assert {"mcp.example.com", "mcp.example.com:*"} <= set(settings.allowed_hosts)
    assert "https://mcp.example.com" in settings.allowed_origins
    assert "evil.example.net" not in settings.allowed_hosts


def test_authentication_is_on_by_default_off_loopback() -> None:
    """REQ-HTTP-18 (decision 33): with no http_auth setting, any listen address but loopback
    authenticates callers; 0.0.0.0 and :: are not loopback."""
    for host in ("0.0.0.0", "::", "10.0.0.5", "mcp.internal"):
        assert load_config({**BASE, "host": host}, environ={}).http_auth_enabled, host
    for host in ("127.0.0.1", "localhost", "::1"):
        assert not load_config({**BASE, "host": host}, environ={}).http_auth_enabled, host


def test_stateful_is_the_default_mode() -> None:
    """REQ-HTTP-21: no session-mode setting means stateful sessions."""
    assert load_config(BASE, environ={}).stateless_http is False
