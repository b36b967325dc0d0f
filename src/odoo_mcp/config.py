"""SPEC-11 §9-10: the server configuration (REQ-11-25..31).

``load_config`` is the entry point: command-line overrides > environment > JSON config file >
defaults (REQ-11-27). Every problem is collected and raised together as ``ConfigError``
(REQ-11-28/29); the CLI prints them and exits non-zero. ``OdooMcpConfig()`` alone reads only the
environment, with exactly the spec's variable names (no field name leaks in as a variable).
Connection fields are flat here, as the spec names them, and become a ``ConnectionSettings``
through ``connection_settings()``; that class keeps its own checks (URL, credentials).
"""

from __future__ import annotations

import ast
import inspect
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Final, Literal
from urllib.parse import urlsplit, urlunsplit

from pydantic import BeforeValidator, Field, SecretStr, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from odoo_mcp.config_sources import (
    ENV_VARS,
    ConfigError,
    cross_field_problems,
    gather,
    validate_fields,
)
from odoo_mcp.connection.settings import ConnectionSettings, ProtocolChoice
from odoo_mcp.safety.audit import AuditSettings
from odoo_mcp.safety.modes import Mode
from odoo_mcp.safety.policy import SafetyPolicy
from odoo_mcp.safety.ratelimit import RateLimits

#: Hosts only this machine reaches: the HTTP transport may serve them without authentication.
LOOPBACK_HOSTS: Final = frozenset({"127.0.0.1", "localhost", "::1"})

__all__ = ["ENV_VARS", "ConfigError", "OdooMcpConfig", "load_config", "setting_descriptions"]


_TRUE: Final = frozenset({"true", "1", "yes"})
_FALSE: Final = frozenset({"false", "0", "no"})


def parse_bool(value: object) -> object:
    """REQ-11-31: true/1/yes and false/0/no, case-insensitively; nothing else."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise ValueError("expected one of true/1/yes or false/0/no")
    return value


def parse_list(value: object) -> object:
    """REQ-11-30: list values from the environment are comma-separated."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return value


def _lower(value: object) -> object:
    return value.strip().lower() if isinstance(value, str) else value


Flag = Annotated[bool, BeforeValidator(parse_bool)]
Names = Annotated[tuple[str, ...], BeforeValidator(parse_list)]
Ids = Annotated[tuple[int, ...], BeforeValidator(parse_list)]
Lowered = BeforeValidator(_lower)


class _SpecEnvSource(PydanticBaseSettingsSource):
    """REQ-11-25: each field read from its own variable(s), case-insensitively."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        raw, _origins, _problems = gather(None, os.environ, None, with_file=False)
        return raw


class OdooMcpConfig(BaseSettings):
    """REQ-11-25: the full settings model, flat keys, one env variable per field."""

    # Each field's docstring is its description (setting_descriptions): pydantic's own
    # use_attribute_docstrings would find the source through every loaded module at import,
    # a tenth of the server's start-up (issue 17).
    model_config = SettingsConfigDict(case_sensitive=False, extra="forbid", frozen=True)

    # Connection
    odoo_url: str = Field(repr=False)  # may carry user:password@
    """Base URL of the Odoo server, e.g. https://odoo.example.com (user:password@ in the URL
    is accepted and hidden in logs)."""
    odoo_db: str
    """Database name."""
    odoo_username: str | None = None
    """Login of the Odoo user the server acts as."""
    odoo_password: SecretStr | None = None
    """Password of that user (prefer an API key)."""
    odoo_api_key: SecretStr | None = None
    """API key of that user; used instead of the password when set."""
    odoo_protocol: Annotated[ProtocolChoice, Lowered] = "auto"
    """Wire protocol: auto (by Odoo version), xmlrpc, jsonrpc or json2 (Odoo 19+)."""
    odoo_timeout: int = Field(default=30, gt=0)
    """Seconds to wait for one Odoo call."""
    odoo_verify_ssl: Flag = True
    """Verify the Odoo server's TLS certificate."""
    odoo_ca_cert: str | None = None
    """Path of a CA bundle to verify the Odoo certificate with."""
    # Transport
    transport: Annotated[Literal["stdio", "sse", "http"], Lowered] = "stdio"
    """MCP transport: stdio, or http (streamable HTTP); sse is refused (decision 34)."""
    host: str = "127.0.0.1"
    """Interface the HTTP transport listens on."""
    port: int = Field(default=8080, ge=1, le=65535)
    """Port the HTTP transport listens on."""
    mcp_path: str = "/mcp"
    """URL path of the MCP endpoint on the HTTP transport."""
    stateless_http: Flag = False
    """HTTP without sessions, for load-balanced deployments (no subscriptions)."""
    http_auth: Annotated[Literal["auto", "on", "off"], Lowered] = "auto"
    """HTTP callers authenticate with `Authorization: Bearer <their Odoo API key>` (or
    `login:apikey`) and act as that Odoo user: auto (on unless the host is loopback), on or
    off (loopback only)."""
    public_url: str | None = None
    """The MCP endpoint's URL as clients reach it (behind a proxy or in a container, e.g.
    https://mcp.example.com/mcp): its host is accepted by DNS-rebinding protection and it is
    what the server advertises."""
    allowed_hosts: Names = ()
    """More Host header values the HTTP transport accepts (host or host:port,
    comma-separated); loopback names and the public_url host are always accepted."""
    # Safety
    mode: Annotated[Mode, Lowered] = Mode.READONLY
    """Operation mode: readonly (default), restricted (writes only to the write_allowlist
    models) or full."""
    model_allowlist: Names = ()
    """If set, the only models the server touches (comma-separated)."""
    model_blocklist: Names = ()
    """Models the server refuses, added to the built-in blocklist (comma-separated)."""
    write_allowlist: Names = ()
    """Models writable in restricted mode; empty means no writes (comma-separated)."""
    field_blocklist: Names = ()
    """Field names never read, written, filtered or sorted on, on every model
    (comma-separated); added to the built-in list."""
    method_blocklist: Names = ()
    """Methods odoo_core_execute refuses, added to the built-in list (comma-separated)."""
    # Toolsets
    enabled_toolsets: Names = ()
    """Toolsets to enable (comma-separated); empty means the default set."""
    disabled_toolsets: Names = ()
    """Toolsets to disable (comma-separated)."""
    # Registry
    static_registry_path: str | None = None
    """Path of a static registry JSON file (SPEC-07, REQ-07-08), loaded at start-up (a bad
    file stops the start) and merged with live metadata: Odoo wins on fields and states, the
    file on method descriptions."""
    introspect_on_startup: Flag = True
    """After connecting, read the installed modules and the fields of introspect_models in
    the background (at most 5 calls at a time, 60 s in all); off: fields are read on first use."""
    introspect_models: Names = ()
    """Models to introspect at start-up (comma-separated); empty: SPEC-07's 33 well-known
    models, those Odoo has and the user may read."""
    # Rate limit (REQ-11-21's read/write limits have no env variable in the spec)
    rate_limit_enabled: Flag = False
    """Limit tool calls per MCP session."""
    rate_limit_rpm: int = 60
    """Calls allowed per minute and session."""
    rate_limit_rph: int = 1000
    """Calls allowed per hour and session."""
    rate_limit_burst: int = 10
    """Calls allowed in a burst above the per-minute rate."""
    rate_limit_read_rpm: int | None = Field(default=None, gt=0)
    """Per-minute limit for read tools (configuration file only)."""
    rate_limit_write_rpm: int | None = Field(default=None, gt=0)
    """Per-minute limit for write tools (configuration file only)."""
    # Audit
    audit_enabled: Flag = False
    """Write an audit record (JSON Lines) for tool calls."""
    audit_log_file: str | None = None
    """Path of the audit log; standard error when unset."""
    audit_log_reads: Flag = False
    """Audit read tools too."""
    audit_log_writes: Flag = True
    """Audit create and write calls."""
    audit_log_deletes: Flag = True
    """Audit unlink calls."""
    # Context
    odoo_lang: str = "en_US"
    """Language sent in the Odoo context (lang)."""
    odoo_tz: str = "UTC"
    """Time zone sent in the Odoo context (tz)."""
    odoo_company_id: int | None = None
    """Current company id sent in the Odoo context."""
    odoo_company_ids: Ids = ()
    """Allowed company ids sent in the Odoo context (comma-separated)."""
    # Search
    search_default_limit: int = Field(default=80, ge=1)
    """Records returned by search tools when no limit is given."""
    search_max_limit: int = Field(default=500, ge=1)
    """Largest limit a search tool accepts."""
    deep_search_max_depth: int = Field(default=3, ge=1)
    """Deepest relation path of the deep_search tool (SPEC-03), which is not built yet:
    accepted, not used."""
    # Display
    strip_html: Flag = True
    """Turn HTML field values into plain text."""
    normalize_many2one: Flag = True
    """Return many2one values as {id, name} objects."""
    # Logging
    log_level: Annotated[Literal["debug", "info", "warning", "error", "critical"], Lowered] = "info"
    """Server log level (logs go to standard error)."""
    # Health
    subscription_poll_interval: float = Field(default=60.0, gt=0)
    """Seconds between two polls of write_date for resource subscriptions (REQ-06-14)."""
    health_check_interval: int = Field(default=300, ge=0)
    """Idle seconds after which the next call first checks the Odoo session (REQ-02-20); 0
    turns the check off."""
    reconnect_max_attempts: int = Field(default=3, ge=0)
    """Reconnection attempts after a connection failure."""
    reconnect_backoff_base: float = Field(default=1.0, ge=0)
    """Base delay in seconds of the exponential reconnection backoff."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """REQ-11-25: keyword arguments, then the spec's environment variables; nothing else."""
        return init_settings, _SpecEnvSource(settings_cls)

    @model_validator(mode="after")
    def _cross_checks(self) -> OdooMcpConfig:
        """REQ-11-28: the checks that involve several fields."""
        problems = cross_field_problems(dict(self))
        if problems:
            raise ValueError("; ".join(problems))
        return self

    def reconnect_backoff(self) -> tuple[float, ...]:
        """REQ-11-25: the delays between reconnection attempts: base, 2 x base, 4 x base..."""
        base = self.reconnect_backoff_base
        return tuple(base * 2**attempt for attempt in range(self.reconnect_max_attempts))

    def connection_settings(self) -> ConnectionSettings:
        """REQ-11-25: the connection group, as the connection layer's own settings."""
        ids = list(self.odoo_company_ids)
        if self.odoo_company_id is not None:
            # The current company leads allowed_company_ids, as in Odoo's own context.
            ids = [self.odoo_company_id, *(i for i in ids if i != self.odoo_company_id)]
        return ConnectionSettings(
            url=self.odoo_url,
            database=self.odoo_db,
            username=self.odoo_username,
            password=self.odoo_password,
            api_key=self.odoo_api_key,
            protocol=self.odoo_protocol,
            timeout=float(self.odoo_timeout),
            verify_ssl=self.odoo_verify_ssl,
            ca_cert=Path(self.odoo_ca_cert) if self.odoo_ca_cert else None,
            lang=self.odoo_lang,
            tz=self.odoo_tz,
            company_ids=tuple(ids),
            idle_timeout=float(self.health_check_interval),
        )

    @property
    def http_auth_enabled(self) -> bool:
        """REQ-HTTP-18: per-caller Bearer authentication, on by default off loopback."""
        if self.http_auth == "auto":
            return self.host not in LOOPBACK_HOSTS
        return self.http_auth == "on"

    def safety_policy(self) -> SafetyPolicy:
        """REQ-11-03: the policy the tools enforce."""
        return SafetyPolicy.from_config(self)

    def rate_limits(self) -> RateLimits:
        """REQ-11-19: the rate limiter's settings."""
        return RateLimits(
            enabled=self.rate_limit_enabled,
            calls_per_minute=self.rate_limit_rpm,
            calls_per_hour=self.rate_limit_rph,
            burst=self.rate_limit_burst,
            read_calls_per_minute=self.rate_limit_read_rpm,
            write_calls_per_minute=self.rate_limit_write_rpm,
        )

    def audit_settings(self) -> AuditSettings:
        """REQ-11-22: the audit logger's settings."""
        return AuditSettings(
            enabled=self.audit_enabled,
            log_file=Path(self.audit_log_file) if self.audit_log_file else None,
            log_reads=self.audit_log_reads,
            log_writes=self.audit_log_writes,
            log_deletes=self.audit_log_deletes,
        )

    def describe(self) -> dict[str, object]:
        """REQ-11-29: the effective configuration, secrets replaced, for check and resources."""
        data: dict[str, object] = self.model_dump(mode="json")
        for name in ("odoo_password", "odoo_api_key"):
            data[name] = "********" if getattr(self, name) is not None else None
        data["odoo_url"] = _without_userinfo(self.odoo_url)
        data["env_vars"] = {name: list(names) for name, names in ENV_VARS.items()}
        return data


def _without_userinfo(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparsable URL>"
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def load_config(
    cli: Mapping[str, object] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    config_path: str | Path | None = None,
) -> OdooMcpConfig:
    """REQ-11-27, REQ-01-29: flags > environment > config file > defaults; every problem
    reported.

    ``cli`` maps field names to the values of the flags the user gave; ``config_path`` is
    ``--config`` (``ODOO_MCP_CONFIG`` in ``environ`` otherwise). Raises ``ConfigError``.
    """
    env = os.environ if environ is None else environ
    raw, origins, problems = gather(cli, env, config_path)
    values, field_problems = validate_fields(OdooMcpConfig.model_fields, raw, origins)
    problems = [*problems, *field_problems, *cross_field_problems(values)]
    if problems:
        raise ConfigError(problems)
    # Every field is given, so the environment source cannot override anything here.
    return OdooMcpConfig.model_validate(values)


def setting_descriptions() -> dict[str, str]:
    """REQ-11-25: each setting's description, the docstring under its field in
    ``OdooMcpConfig`` (read from the source on demand: the docs and ``--help`` need it, a
    serving process does not)."""
    body = ast.parse(inspect.getsource(OdooMcpConfig)).body[0]
    assert isinstance(body, ast.ClassDef)
    descriptions: dict[str, str] = {}
    for field, doc in zip(body.body, body.body[1:], strict=False):
        if (
            isinstance(field, ast.AnnAssign)
            and isinstance(field.target, ast.Name)
            and isinstance(doc, ast.Expr)
            and isinstance(doc.value, ast.Constant)
            and isinstance(doc.value.value, str)
        ):
            descriptions[field.target.id] = inspect.cleandoc(doc.value.value)
    return descriptions
