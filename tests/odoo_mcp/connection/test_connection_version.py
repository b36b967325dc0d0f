"""L2-02a: version parsing, the version -> protocol map, protocol choice."""

from __future__ import annotations

import pytest

from odoo_mcp.connection import ConnectionSettings, OdooConfigurationError
from odoo_mcp.connection.negotiation import choose_protocol
from odoo_mcp.connection.version import (
    UNKNOWN_VERSION,
    OdooVersion,
    default_protocol,
    parse_version,
    version_from_server_info,
)

# common.version() of a real Odoo 19.0 Community server.
ODOO19_VERSION_INFO = {
    "server_version": "19.0",
    "server_version_info": [19, 0, 0, "final", 0, ""],
    "server_serie": "19.0",
    "protocol_version": 1,
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("17.0", OdooVersion(17, 0, 0, "final", 0, "17.0")),
        ("16.0-20240101", OdooVersion(16, 0, 0, "final", 0, "16.0-20240101")),
        ("17.0e", OdooVersion(17, 0, 0, "final", 0, "17.0e", "enterprise")),
        ("17.0+e", OdooVersion(17, 0, 0, "final", 0, "17.0+e", "enterprise")),
        ("saas~17.1", OdooVersion(17, 1, 0, "saas", 0, "saas~17.1")),
        ("saas-17.1", OdooVersion(17, 1, 0, "saas", 0, "saas-17.1")),
        ("18.0rc1", OdooVersion(18, 0, 0, "rc", 1, "18.0rc1")),
        ("14.0.3", OdooVersion(14, 0, 3, "final", 0, "14.0.3")),
    ],
)
@pytest.mark.req("REQ-02a-05")
def test_version_strings_parse(text: str, expected: OdooVersion) -> None:
    assert parse_version(text) == expected


@pytest.mark.req("REQ-02a-05")
def test_list_form_parses_with_edition_flag() -> None:
    assert parse_version([19, 0, 0, "final", 0, ""]) == OdooVersion(19, 0, 0, "final", 0, "19.0")
    assert parse_version([17, 0, 0, "final", 0, "e"]).edition == "enterprise"
    assert parse_version([17, 1, 0, "saas~17.1", 0]).full_string == "saas~17.1"


@pytest.mark.parametrize("text", ["", "odoo", "v17", "seventeen.0"])
def test_garbage_is_not_a_version(text: str) -> None:
    with pytest.raises(ValueError, match="not an Odoo version"):
        parse_version(text)


def test_server_info_of_odoo19_parses() -> None:
    version = version_from_server_info(ODOO19_VERSION_INFO)
    assert (version.major, version.minor, version.level, version.full_string) == (
        19,
        0,
        "final",
        "19.0",
    )
    assert version.supported


@pytest.mark.req("REQ-02a-06")
def test_session_info_carries_edition_and_keeps_date_suffix() -> None:
    info = {
        "server_version": "17.0-20240101",
        "server_version_info": [17, 0, 0, "final", 0, ""],
        "is_enterprise": True,
    }
    version = version_from_server_info(info)
    assert version.full_string == "17.0-20240101"
    assert version.edition == "enterprise"


@pytest.mark.parametrize(
    ("major", "protocol"),
    [
        (13, "xmlrpc"),
        (14, "xmlrpc"),
        (16, "xmlrpc"),
        (17, "jsonrpc"),
        (18, "jsonrpc"),
        (19, "json2"),
        (20, "json2"),
    ],
)
@pytest.mark.req("REQ-02a-07")
def test_default_protocol_follows_the_version(major: int, protocol: str) -> None:
    assert default_protocol(OdooVersion(major)) == protocol


def _settings(**overrides: object) -> ConnectionSettings:
    values: dict[str, object] = {
        "url": "http://odoo.test",
        "database": "demo",
        "username": "admin",
        "password": "admin",
    }
    values.update(overrides)
    return ConnectionSettings.model_validate(values)


@pytest.mark.req("REQ-02b-14")
def test_json2_without_api_key_falls_back_to_jsonrpc() -> None:
    assert choose_protocol(_settings(), OdooVersion(19)) == "jsonrpc"
    assert choose_protocol(_settings(api_key="k"), OdooVersion(19)) == "json2"


@pytest.mark.req("REQ-02-14")
def test_forced_json2_on_odoo16_is_a_configuration_error() -> None:
    settings = _settings(api_key="k", protocol="json2")
    with pytest.raises(OdooConfigurationError, match="JSON-2 exists from Odoo 19"):
        choose_protocol(settings, OdooVersion(16))


@pytest.mark.req("REQ-02-14")
def test_forced_xmlrpc_and_jsonrpc_on_odoo20_are_tried() -> None:
    """Odoo 20's source still serves /xmlrpc/2 (versions.ODOO20): never refused."""
    assert choose_protocol(_settings(protocol="xmlrpc"), OdooVersion(20)) == "xmlrpc"
    assert choose_protocol(_settings(protocol="jsonrpc"), OdooVersion(20)) == "jsonrpc"


def test_odoo20_without_api_key_uses_xmlrpc() -> None:
    assert choose_protocol(_settings(), OdooVersion(20)) == "xmlrpc"
    assert choose_protocol(_settings(api_key="k"), OdooVersion(20)) == "json2"


@pytest.mark.req("REQ-02-14")
def test_forced_protocol_is_kept_when_available() -> None:
    assert choose_protocol(_settings(protocol="xmlrpc"), OdooVersion(19)) == "xmlrpc"
    assert choose_protocol(_settings(protocol="jsonrpc"), OdooVersion(14)) == "jsonrpc"


def test_unknown_version_defaults_to_xmlrpc() -> None:
    assert UNKNOWN_VERSION.major == 14 and UNKNOWN_VERSION.level == "unknown"
    assert choose_protocol(_settings(), UNKNOWN_VERSION) == "xmlrpc"


def test_api_key_only_on_odoo16_needs_a_login() -> None:
    settings = _settings(username=None, password=None, api_key="k")
    with pytest.raises(OdooConfigurationError, match="ODOO_USERNAME"):
        choose_protocol(settings, OdooVersion(16))
