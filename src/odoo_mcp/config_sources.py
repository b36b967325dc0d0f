"""SPEC-11 §9-10: where configuration values come from, and how every problem is collected.

Sources, lowest first: defaults, the JSON file (flat keys; nested ``rate_limit{}``/``audit{}``
accepted as aliases, decision 4), environment variables (the spec's names, case-insensitive,
an empty variable counts as unset), then command-line overrides (REQ-11-27). Each field is
validated on its own so one bad value never hides another, then the cross-field checks of
REQ-11-28 run on whatever did validate.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from pydantic import TypeAdapter, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails

from odoo_mcp.connection.settings import ConnectionSettings

__all__ = [
    "CONFIG_PATH_VAR",
    "ENV_VARS",
    "ConfigError",
    "cross_field_problems",
    "gather",
    "validate_fields",
]

CONFIG_PATH_VAR: Final = "ODOO_MCP_CONFIG"
_M = "ODOO_MCP_"
#: REQ-11-25: field -> its environment variables, canonical name first (decision 4).
ENV_VARS: Final[Mapping[str, tuple[str, ...]]] = {
    "odoo_url": ("ODOO_URL",), "odoo_db": ("ODOO_DB",), "odoo_username": ("ODOO_USERNAME",),
    "odoo_password": ("ODOO_PASSWORD",), "odoo_api_key": ("ODOO_API_KEY",),
    "odoo_protocol": ("ODOO_PROTOCOL",), "odoo_timeout": ("ODOO_TIMEOUT",),
    "odoo_verify_ssl": ("ODOO_VERIFY_SSL",), "odoo_ca_cert": ("ODOO_CA_CERT",),
    "transport": (_M + "TRANSPORT",), "host": (_M + "HOST",), "port": (_M + "PORT",),
    "mcp_path": (_M + "PATH",), "stateless_http": (_M + "STATELESS",),
    "http_auth": (_M + "HTTP_AUTH",), "public_url": (_M + "PUBLIC_URL",),
    "allowed_hosts": (_M + "ALLOWED_HOSTS",), "mode": (_M + "MODE",),
    "model_allowlist": (_M + "MODEL_ALLOWLIST",), "model_blocklist": (_M + "MODEL_BLOCKLIST",),
    "write_allowlist": (_M + "WRITE_ALLOWLIST",), "field_blocklist": (_M + "FIELD_BLOCKLIST",),
    "method_blocklist": (_M + "METHOD_BLOCKLIST",),
    "enabled_toolsets": (_M + "ENABLED_TOOLSETS",),
    "disabled_toolsets": (_M + "DISABLED_TOOLSETS",),
    "static_registry_path": (_M + "STATIC_REGISTRY",),
    "introspect_on_startup": (_M + "INTROSPECT",),
    "introspect_models": (_M + "INTROSPECT_MODELS",),
    "rate_limit_enabled": (_M + "RATE_LIMIT",), "rate_limit_rpm": (_M + "RATE_LIMIT_RPM",),
    "rate_limit_rph": (_M + "RATE_LIMIT_RPH",), "rate_limit_burst": (_M + "RATE_LIMIT_BURST",),
    "rate_limit_read_rpm": (), "rate_limit_write_rpm": (),
    "audit_enabled": (_M + "AUDIT",), "audit_log_file": (_M + "AUDIT_FILE",),
    "audit_log_reads": (_M + "AUDIT_READS",), "audit_log_writes": (_M + "AUDIT_WRITES",),
    "audit_log_deletes": (_M + "AUDIT_DELETES",),
    "odoo_lang": ("ODOO_LANG",), "odoo_tz": ("ODOO_TZ",), "odoo_company_id": ("ODOO_COMPANY_ID",),
    "odoo_company_ids": ("ODOO_COMPANY_IDS", _M + "COMPANY_IDS"),
    "search_default_limit": (_M + "SEARCH_LIMIT",),
    "search_max_limit": (_M + "SEARCH_MAX_LIMIT",),
    "deep_search_max_depth": (_M + "DEEP_SEARCH_DEPTH",),
    "strip_html": (_M + "STRIP_HTML",), "normalize_many2one": (_M + "NORMALIZE_M2O",),
    "log_level": (_M + "LOG_LEVEL",), "health_check_interval": (_M + "HEALTH_INTERVAL",),
    "subscription_poll_interval": (_M + "POLL_INTERVAL",),
    "reconnect_max_attempts": (_M + "RECONNECT_ATTEMPTS",),
    "reconnect_backoff_base": (_M + "RECONNECT_BACKOFF",),
}  # fmt: skip
#: Decision 4: REQ-11-19/21/22's nested objects, accepted in the file as aliases.
NESTED: Final[Mapping[str, Mapping[str, str]]] = {
    "rate_limit": {
        "enabled": "rate_limit_enabled", "calls_per_minute": "rate_limit_rpm",
        "calls_per_hour": "rate_limit_rph", "burst": "rate_limit_burst",
        "read_calls_per_minute": "rate_limit_read_rpm",
        "write_calls_per_minute": "rate_limit_write_rpm",
    },
    "audit": {
        "enabled": "audit_enabled", "log_file": "audit_log_file", "log_reads": "audit_log_reads",
        "log_writes": "audit_log_writes", "log_deletes": "audit_log_deletes",
    },
}  # fmt: skip
#: REQ-11-25 connection keys -> ConnectionSettings fields (composed, not duplicated)
_CONNECTION_KEYS: Final[Mapping[str, str]] = {
    "odoo_url": "url",
    "odoo_db": "database",
    "odoo_username": "username",
    "odoo_password": "password",
    "odoo_api_key": "api_key",
    "odoo_protocol": "protocol",
}
SECRET_FIELDS: Final = frozenset({"odoo_password", "odoo_api_key"})


class ConfigError(Exception):
    """REQ-11-29: the configuration cannot start the server; ``problems`` lists every reason."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = tuple(problems)
        count = len(self.problems)
        lines = [f"invalid configuration ({count} problem{'s' if count != 1 else ''}):"]
        lines += [f"  - {problem}" for problem in self.problems]
        super().__init__("\n".join(lines))


def _label(name: str) -> str:
    names = ENV_VARS.get(name, ())
    return f"{name} ({names[0]})" if names else name


def gather(
    cli: Mapping[str, object] | None,
    environ: Mapping[str, str],
    config_path: str | Path | None,
    *,
    with_file: bool = True,
) -> tuple[dict[str, object], dict[str, str], list[str]]:
    """REQ-11-27: raw values by field name, where each came from, and source problems."""
    raw: dict[str, object] = {}
    origins: dict[str, str] = {}
    problems: list[str] = []
    upper = {key.upper(): (key, value) for key, value in sorted(environ.items(), reverse=True)}
    if with_file:
        path = config_path or upper.get(CONFIG_PATH_VAR, ("", ""))[1].strip()
        if path:
            _read_file(Path(path), raw, origins, problems)
    for name, variables in ENV_VARS.items():
        for variable in variables:
            found = upper.get(variable)
            if found is not None and found[1].strip():
                raw[name], origins[name] = found[1], f"environment variable {found[0]}"
                break
    for name, value in (cli or {}).items():
        if name not in ENV_VARS:
            problems.append(f"unknown command-line setting '{name}'")
        elif value is not None:
            raw[name], origins[name] = value, "the command line"
    return raw, origins, problems


def _read_file(
    path: Path, raw: dict[str, object], origins: dict[str, str], problems: list[str]
) -> None:
    """REQ-11-26: a JSON object of flat keys; decision 4: nested objects as aliases."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        problems.append(f"config file {path}: cannot be read ({exc.strerror or exc})")
        return
    except json.JSONDecodeError as exc:
        problems.append(f"config file {path}: not valid JSON at line {exc.lineno}, col {exc.colno}")
        return
    except UnicodeDecodeError:
        problems.append(f"config file {path}: not UTF-8 text")
        return
    if not isinstance(data, dict):
        problems.append(f"config file {path}: the top level must be a JSON object")
        return
    given: dict[str, tuple[str, object]] = {}
    for key, value in data.items():
        if key in NESTED and isinstance(value, dict):
            for sub, item in value.items():
                flat = NESTED[key].get(sub)
                if flat is None:
                    problems.append(_unknown(path, f"{key}.{sub}", NESTED[key]))
                else:
                    _put(path, given, flat, f"{key}.{sub}", item, problems)
        elif key in NESTED:
            problems.append(f"config file {path}: '{key}' must be a JSON object")
        elif key in ENV_VARS:
            _put(path, given, key, key, value, problems)
        else:
            problems.append(_unknown(path, key, ENV_VARS))
    for name, (key, value) in given.items():
        raw[name], origins[name] = value, f"config file key '{key}'"


def _put(
    path: Path,
    given: dict[str, tuple[str, object]],
    name: str,
    key: str,
    value: object,
    problems: list[str],
) -> None:
    if name in given and given[name][1] != value:
        problems.append(f"config file {path}: '{given[name][0]}' and '{key}' give different values")
    given.setdefault(name, (key, value))


def _unknown(path: Path, key: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(key.split(".")[-1], list(known), n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return f"config file {path}: unknown key '{key}'{hint}"


_ADAPTERS: dict[str, TypeAdapter[Any]] = {}


def validate_fields(
    fields: Mapping[str, FieldInfo], raw: Mapping[str, object], origins: Mapping[str, str]
) -> tuple[dict[str, object], list[str]]:
    """REQ-11-28: each field validated alone, so every bad value is reported."""
    values: dict[str, object] = {}
    problems: list[str] = []
    for name, info in fields.items():
        if name not in raw:
            if info.is_required():
                variable = ENV_VARS[name][0]
                problems.append(f"{name} is required: set {variable} or config file key '{name}'")
            else:
                values[name] = info.get_default(call_default_factory=True)
            continue
        adapter = _ADAPTERS.get(name)
        if adapter is None:
            adapter = _ADAPTERS[name] = TypeAdapter(info.rebuild_annotation())
        try:
            values[name] = adapter.validate_python(raw[name])
        except ValidationError as exc:
            problems += [_problem(name, err, raw[name], origins[name]) for err in exc.errors()]
    return values, problems


def _problem(name: str, error: ErrorDetails, value: object, origin: str) -> str:
    message = str(error["msg"]).removeprefix("Value error, ")
    shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
    got = "" if name in SECRET_FIELDS else f", got {shown}"
    return f"{_label(name)}: {message}{got} (from {origin})"


def cross_field_problems(values: Mapping[str, Any]) -> list[str]:
    """REQ-11-28: URL, database, credentials, list exclusivity, limits (checks 1-3, 5, 6, 8)."""
    problems = _connection_problems(values)
    allow, block = values.get("model_allowlist") or (), values.get("model_blocklist") or ()
    if allow and block:
        problems.append(
            "model_allowlist (ODOO_MCP_MODEL_ALLOWLIST) and model_blocklist "
            "(ODOO_MCP_MODEL_BLOCKLIST) cannot both be set: use one (decision 3; the built-in "
            "blocklist applies in any case)"
        )
    outside = sorted(set(values.get("write_allowlist") or ()) - set(allow))
    if allow and outside:
        problems.append(
            "write_allowlist (ODOO_MCP_WRITE_ALLOWLIST) names models missing from "
            f"model_allowlist: {', '.join(outside)}"
        )
    if values.get("rate_limit_enabled"):
        for name, floor in (("rate_limit_rpm", 1), ("rate_limit_rph", 1), ("rate_limit_burst", 1)):
            if name in values and values[name] < floor:
                problems.append(f"{_label(name)} must be > 0 when rate limiting is on")
    dotted = sorted(name for name in values.get("field_blocklist") or () if "." in name)
    if dotted:
        problems.append(
            "field_blocklist (ODOO_MCP_FIELD_BLOCKLIST) takes bare field names, blocked on "
            f"every model (REQ-11-13): {', '.join(dotted)} would block nothing"
        )
    if values.get("transport") == "sse":
        problems.append(
            "transport sse (ODOO_MCP_TRANSPORT) is not offered: MCP replaced the SSE transport "
            "with streamable HTTP (protocol 2025-03-26); use transport http (decision 34)"
        )
    loopback = values.get("host", "127.0.0.1") in ("127.0.0.1", "localhost", "::1")
    if values.get("transport") == "http" and not loopback and values.get("http_auth") == "off":
        problems.append(
            f"http_auth off (ODOO_MCP_HTTP_AUTH) needs a loopback host, not {values.get('host')} "
            "(ODOO_MCP_HOST): without authentication every caller would act as the server's "
            "own Odoo user (REQ-HTTP-18)"
        )
    public_url = values.get("public_url")
    if public_url is not None and not str(public_url).startswith(("http://", "https://")):
        problems.append(f"public_url (ODOO_MCP_PUBLIC_URL) must be an http(s) URL: {public_url}")
    if values.get("transport") == "sse":
        problems.append("transport sse (ODOO_MCP_TRANSPORT) is not supported: use http")
    default, top = values.get("search_default_limit"), values.get("search_max_limit")
    if default is not None and top is not None and default > top:
        problems.append(f"search_default_limit ({default}) is above search_max_limit ({top})")
    return problems


def _connection_problems(values: Mapping[str, Any]) -> list[str]:
    """REQ-11-28 (1)-(3): through ConnectionSettings, whose checks stay in one place."""
    problems: list[str] = []
    username, password = values.get("odoo_username"), values.get("odoo_password")
    no_credentials = values.get("odoo_api_key") is None and not (username and password)
    if no_credentials and password and not username:
        problems.append("ODOO_PASSWORD is set but ODOO_USERNAME is not: a password needs a login")
    elif no_credentials:
        problems.append("no credentials: set ODOO_USERNAME and ODOO_PASSWORD, or ODOO_API_KEY")
    data = {
        target: values[source] for source, target in _CONNECTION_KEYS.items() if source in values
    }
    # A missing URL or database is reported already; placeholders let the other checks run.
    placeholders = {"url": "http://placeholder.invalid", "database": "placeholder"}
    for target, placeholder in placeholders.items():
        data.setdefault(target, placeholder)
    try:
        ConnectionSettings.model_validate(data)
        return problems
    except ValidationError as exc:
        errors = exc.errors()
    field_errors = [error for error in errors if error["loc"]]
    for error in field_errors:
        target = str(error["loc"][0])
        source = next(s for s, t in _CONNECTION_KEYS.items() if t == target)
        problems.append(f"{_label(source)}: {str(error['msg']).removeprefix('Value error, ')}")
        data[target] = placeholders.get(target, data.get(target))
    if field_errors:  # the model-level checks only run once every field is valid
        try:
            ConnectionSettings.model_validate(data)
            errors = []
        except ValidationError as exc:
            errors = exc.errors()
    if not no_credentials:
        problems += [
            str(error["msg"]).removeprefix("Value error, ") for error in errors if not error["loc"]
        ]
    return problems
