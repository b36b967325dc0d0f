"""The settings the kit knows: the spec's own table, and the ones a scenario may ask for.

One table. SPEC-11 REQ-11-25 gives every setting an environment variable and a type; REQ-11-27
names the configuration file's variable. These are spec facts the kit needs to judge any
implementation (a target that does not map a setting gets it under the spec's name), so they
live here and nowhere else in the kit. The kit never imports the reference server; the
server's own declarations are checked against this table by its tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

__all__ = ["KIT_SETTINGS", "SPEC_ENV_NAMES", "SPEC_SETTINGS", "Kind", "SpecSetting"]

#: How a value is written in a feature file and handed to a target.
Kind = Literal["text", "bool", "int", "number", "list", "int list"]


@dataclass(frozen=True, slots=True)
class SpecSetting:
    """One setting: its value kind, the spec's variable (None: the spec names none), and what
    it means to a scenario (empty: no scenario asks for it)."""

    kind: Kind
    env: str | None
    scenario: str = ""


def _s(kind: Kind, env: str | None, scenario: str = "") -> SpecSetting:
    return SpecSetting(kind, env, scenario)


_M = "ODOO_MCP_"
#: REQ-11-25's table (plus REQ-11-27's file and the scenarios' own extras), in the spec's order.
SPEC_SETTINGS: Mapping[str, SpecSetting] = {
    "odoo_url": _s("text", "ODOO_URL"),
    "odoo_db": _s("text", "ODOO_DB"),
    "odoo_username": _s("text", "ODOO_USERNAME"),
    "odoo_password": _s("text", "ODOO_PASSWORD"),
    "odoo_api_key": _s("text", "ODOO_API_KEY"),
    "odoo_protocol": _s("text", "ODOO_PROTOCOL", "wire protocol to Odoo: xmlrpc | jsonrpc | json2"),
    "odoo_timeout": _s("int", "ODOO_TIMEOUT", "integer: seconds to wait for one Odoo call"),
    "odoo_verify_ssl": _s("bool", "ODOO_VERIFY_SSL"),
    "odoo_ca_cert": _s("text", "ODOO_CA_CERT"),
    "transport": _s("text", _M + "TRANSPORT"),
    "host": _s("text", _M + "HOST"),
    "port": _s("int", _M + "PORT"),
    "mcp_path": _s("text", _M + "PATH"),
    "mode": _s("text", _M + "MODE", "operation mode: readonly | restricted | full"),
    "model_allowlist": _s(
        "list", _M + "MODEL_ALLOWLIST", "list of models the server may touch (others refused)"
    ),
    "model_blocklist": _s(
        "list", _M + "MODEL_BLOCKLIST", "list of models refused (on top of the built-in blocklist)"
    ),
    "write_allowlist": _s(
        "list", _M + "WRITE_ALLOWLIST", "list of models writable in restricted mode"
    ),
    "field_blocklist": _s(
        "list",
        _M + "FIELD_BLOCKLIST",
        "list of field names (any model) never read, written or filtered",
    ),
    "method_blocklist": _s(
        "list", _M + "METHOD_BLOCKLIST", "list of methods odoo_core_execute refuses"
    ),
    "enabled_toolsets": _s("list", _M + "ENABLED_TOOLSETS", "list of toolsets to enable"),
    "disabled_toolsets": _s("list", _M + "DISABLED_TOOLSETS"),
    "static_registry_path": _s("text", _M + "STATIC_REGISTRY"),
    "introspect_on_startup": _s("bool", _M + "INTROSPECT"),
    "introspect_models": _s("list", _M + "INTROSPECT_MODELS"),
    "rate_limit_enabled": _s("bool", _M + "RATE_LIMIT", "boolean"),
    "rate_limit_rpm": _s("int", _M + "RATE_LIMIT_RPM", "integer: calls per minute per session"),
    "rate_limit_rph": _s("int", _M + "RATE_LIMIT_RPH"),
    "rate_limit_burst": _s("int", _M + "RATE_LIMIT_BURST", "integer: burst size"),
    "audit_enabled": _s("bool", _M + "AUDIT", "boolean"),
    "audit_log_file": _s(
        "text", _M + "AUDIT_FILE", "path of the JSONL audit log (the kit reads it)"
    ),
    "audit_log_reads": _s("bool", _M + "AUDIT_READS"),
    "audit_log_writes": _s("bool", _M + "AUDIT_WRITES"),
    "audit_log_deletes": _s("bool", _M + "AUDIT_DELETES"),
    "odoo_lang": _s("text", "ODOO_LANG", "language of the Odoo context (lang), e.g. es_AR"),
    "odoo_tz": _s(
        "text", "ODOO_TZ", "time zone of the Odoo context (tz), e.g. America/Argentina/Buenos_Aires"
    ),
    "odoo_company_id": _s("int", "ODOO_COMPANY_ID", "integer: the current company id"),
    "odoo_company_ids": _s(
        "int list", "ODOO_COMPANY_IDS", "list of company ids (allowed_company_ids)"
    ),
    "search_default_limit": _s(
        "int", _M + "SEARCH_LIMIT", "integer: default limit of search tools"
    ),
    "search_max_limit": _s(
        "int", _M + "SEARCH_MAX_LIMIT", "integer: maximum limit of search tools"
    ),
    "deep_search_max_depth": _s("int", _M + "DEEP_SEARCH_DEPTH"),
    "strip_html": _s("bool", _M + "STRIP_HTML", "boolean: strip HTML from html fields"),
    "normalize_many2one": _s("bool", _M + "NORMALIZE_M2O"),
    "log_level": _s("text", _M + "LOG_LEVEL", "server log level"),
    "health_check_interval": _s("int", _M + "HEALTH_INTERVAL"),
    "reconnect_max_attempts": _s(
        "int",
        _M + "RECONNECT_ATTEMPTS",
        "integer: reconnection attempts after a connection failure",
    ),
    "reconnect_backoff_base": _s(
        "number",
        _M + "RECONNECT_BACKOFF",
        "number: first delay (s) between reconnection attempts",
    ),
    # REQ-11-27
    "config_file": _s(
        "text", _M + "CONFIG", "path of a JSON configuration file (the kit writes it)"
    ),
    # The scenarios' own: the spec names no variable for these (a target maps them)
    "subscription_poll_interval": _s(
        "number", None, "number: seconds between two polls for resource updates (REQ-06-14)"
    ),
    "stateless_http": _s("bool", None, "boolean: HTTP without sessions (HTTP targets)"),
    "public_url": _s("text", None, "the MCP endpoint's URL as clients reach it (HTTP targets)"),
    "http_host": _s("text", None, "the address an HTTP target listens on (REQ-HTTP-18)"),
    "http_auth": _s(
        "text", None, "`default`: leave authentication to the server's default (REQ-HTTP-18)"
    ),
}

#: The settings a scenario may ask for, and what they mean (values are strings or lists).
KIT_SETTINGS: Mapping[str, str] = {
    name: fact.scenario for name, fact in SPEC_SETTINGS.items() if fact.scenario
}
#: The spec's environment variable of every setting that has one: a target that does not map
#: a setting gets it under this name, never "not applicable".
SPEC_ENV_NAMES: Mapping[str, str] = {
    name: fact.env for name, fact in SPEC_SETTINGS.items() if fact.env is not None
}
