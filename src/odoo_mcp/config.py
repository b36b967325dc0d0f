"""SPEC-11 §9-10: the server configuration (REQ-11-25..31).

``load_config`` is the entry point: command-line overrides > environment > JSON config file >
defaults (REQ-11-27). Every problem is collected and raised together as ``ConfigError``
(REQ-11-28/29); the CLI prints them and exits non-zero. ``OdooMcpConfig()`` alone reads only the
environment, with exactly the spec's variable names (no field name leaks in as a variable).
Connection fields are flat here, as the spec names them, and become a ``ConnectionSettings``
through ``connection_settings()``; that class keeps its own checks (URL, credentials).
"""

# No ``from __future__ import annotations`` here: pydantic would eval every field's annotation
# string (their ``Setting``s included) at import, about 3 ms more than compiled annotations.
import ast
import inspect
import ipaddress
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Final, Literal
from urllib.parse import urlsplit, urlunsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SecretStr,
    model_validator,
)
from pydantic.fields import FieldInfo

from odoo_mcp.config_sources import (
    CONFIG_PATH_VAR,
    ConfigError,
    cross_field_problems,
    gather,
    name_problems,
    validate_fields,
)
from odoo_mcp.connection.settings import ConnectionSettings, ProtocolChoice
from odoo_mcp.safety.audit import AuditSettings
from odoo_mcp.safety.modes import Mode
from odoo_mcp.safety.policy import SafetyPolicy
from odoo_mcp.safety.ratelimit import RateLimits
from odoo_mcp.setting import NameRule, Setting, SettingsIndex
from odoo_mcp.state.url import redacted

#: Hosts only this machine reaches: the HTTP transport may serve them without authentication.
LOOPBACK_HOSTS: Final = frozenset({"127.0.0.1", "localhost", "::1"})

__all__ = [
    "CONFIG_PATH_VAR",
    "ENV_VARS",
    "INDEX",
    "SETTINGS",
    "ConfigError",
    "OdooMcpConfig",
    "Setting",
    "load_config",
    "setting_descriptions",
]

_M: Final = "ODOO_MCP_"


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


def parse_proxies(value: object) -> object:
    """Issue 37: each trusted proxy is an IP address or a network in CIDR form; uvicorn would
    take anything else as a literal that never matches (or ``*`` as every address) in silence."""
    if not isinstance(value, tuple):
        return value
    for entry in value:
        try:
            ipaddress.ip_network(entry)  # an address alone is a network of one
        except ValueError:
            try:
                meant = f" (did you mean {ipaddress.ip_network(entry, strict=False)}?)"
            except ValueError:
                meant = ""
            raise ValueError(
                f"{entry!r} is not an IP address or network (like 10.0.0.5 or 10.0.0.0/24){meant}"
            ) from None
    return value


Flag = Annotated[bool, BeforeValidator(parse_bool)]
Names = Annotated[tuple[str, ...], BeforeValidator(parse_list)]
Ids = Annotated[tuple[int, ...], BeforeValidator(parse_list)]
Lowered = BeforeValidator(_lower)

#: REQ-11-30: the names a list setting holds. Odoo refuses a model name other than lowercase
#: letters, digits, "_" and "." (``ir.model``'s own check); field names are lowercase too
#: (a dotted one is refused by its own check: it would block nothing); methods are Python
#: identifiers; toolsets are lowercase words.
_DOTTED = re.compile(r"[a-z0-9_]+(\.[a-z0-9_]+)*")
MODEL_NAMES: Final = NameRule(
    "model",
    _DOTTED,
    "lowercase letters, digits, '_' and '.', like res.partner",
    lowercase="Odoo model names are lowercase",
)
FIELD_NAMES: Final = NameRule(
    "field",
    _DOTTED,
    "lowercase letters, digits and '_', like email",
    lowercase="Odoo field names are lowercase",
)
METHOD_NAMES: Final = NameRule(
    "method", re.compile(r"[A-Za-z_][A-Za-z0-9_]*"), "letters, digits and '_', like copy"
)
TOOLSET_NAMES: Final = NameRule(
    "toolset",
    re.compile(r"[a-z0-9_]+"),
    "lowercase letters, digits and '_', like core",
    lowercase="toolset names are lowercase",
)
Models = Annotated[Names, MODEL_NAMES]


class OdooMcpConfig(BaseModel):
    """REQ-11-25: the full settings model, flat keys, one env variable per field.

    Each setting is declared once, here: name, type, default, a ``Setting`` (variables, file
    aliases, flag) in its ``Annotated`` metadata, and its description as the docstring below.
    """

    # Each field's docstring is its description (setting_descriptions): pydantic's own
    # use_attribute_docstrings would find the source through every loaded module at import,
    # a tenth of the server's start-up (issue 17).
    # A plain model, not pydantic-settings' BaseSettings (issue 41: importing it and dotenv was
    # ~11 ms of every start): the only source it added is the environment, read by __init__,
    # and its defaults are validated as BaseSettings validates them.
    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True)

    def __init__(self, **values: Any) -> None:
        """REQ-11-25: keyword arguments, then the spec's environment variables (each field
        from its own variable(s), case-insensitively); nothing else."""
        raw, _origins, _problems = gather(INDEX, None, os.environ, None, with_file=False)
        super().__init__(**{**raw, **values})

    # Connection
    odoo_url: Annotated[str, Setting("ODOO_URL", flag="--odoo-url")] = Field(
        repr=False  # may carry user:password@
    )
    """Base URL of the Odoo server, e.g. https://odoo.example.com (user:password@ in the URL
    is accepted and hidden in logs)."""
    odoo_db: Annotated[str, Setting("ODOO_DB", flag="--odoo-db")]
    """Database name."""
    odoo_username: Annotated[str | None, Setting("ODOO_USERNAME", flag="--odoo-username")] = None
    """Login of the Odoo user the server acts as."""
    odoo_password: Annotated[SecretStr | None, Setting("ODOO_PASSWORD")] = None  # no flag: secret
    """Password of that user (prefer an API key)."""
    odoo_api_key: Annotated[SecretStr | None, Setting("ODOO_API_KEY")] = None  # no flag: secret
    """API key of that user; used instead of the password when set."""
    odoo_protocol: Annotated[
        ProtocolChoice, Lowered, Setting("ODOO_PROTOCOL", flag="--odoo-protocol")
    ] = "auto"
    """Wire protocol: auto (by Odoo version), xmlrpc, jsonrpc or json2 (Odoo 19+)."""
    odoo_timeout: Annotated[int, Setting("ODOO_TIMEOUT")] = Field(default=30, gt=0)
    """Seconds to wait for one Odoo call."""
    odoo_verify_ssl: Annotated[Flag, Setting("ODOO_VERIFY_SSL")] = True
    """Verify the Odoo server's TLS certificate."""
    odoo_ca_cert: Annotated[str | None, Setting("ODOO_CA_CERT")] = None
    """Path of a CA bundle to verify the Odoo certificate with."""
    # Transport
    transport: Annotated[
        Literal["stdio", "sse", "http"], Lowered, Setting(_M + "TRANSPORT", flag="--transport")
    ] = "stdio"
    """MCP transport: stdio, or http (streamable HTTP); sse is refused (decision 34)."""
    host: Annotated[str, Setting(_M + "HOST", flag="--host")] = "127.0.0.1"
    """Interface the HTTP transport listens on."""
    port: Annotated[int, Setting(_M + "PORT", flag="--port")] = Field(default=8080, ge=1, le=65535)
    """Port the HTTP transport listens on."""
    mcp_path: Annotated[str, Setting(_M + "PATH", flag="--path")] = "/mcp"
    """URL path of the MCP endpoint on the HTTP transport."""
    stateless_http: Annotated[Flag, Setting(_M + "STATELESS", flag="--stateless")] = False
    """HTTP without sessions, for load-balanced deployments (no subscriptions)."""
    json_response: Annotated[Flag, Setting(_M + "JSON_RESPONSE", flag="--json-response")] = False
    """HTTP: answer each POST with one JSON body instead of an SSE stream (faster; gives up
    notifications and log messages sent while a request runs)."""
    state_url: Annotated[str, Setting(_M + "STATE_URL")] = ""  # no flag: it may hold a password
    """Where replicas share rate limits, refused tokens, failed authentications and session
    owners: a redis://, rediss:// or unix:// URL (needs odoo-mcp[redis]); empty keeps them in
    this process's memory."""
    http_auth: Annotated[
        Literal["auto", "on", "off"], Lowered, Setting(_M + "HTTP_AUTH", flag="--http-auth")
    ] = "auto"
    """HTTP callers authenticate with `Authorization: Bearer <their Odoo API key>` (or
    `login:apikey`) and act as that Odoo user: auto (on unless the host is loopback), on or
    off (loopback only)."""
    public_url: Annotated[str | None, Setting(_M + "PUBLIC_URL", flag="--public-url")] = None
    """The MCP endpoint's URL as clients reach it (behind a proxy or in a container, e.g.
    https://mcp.example.com/mcp): its host is accepted by DNS-rebinding protection and it is
    what the server advertises."""
    oauth: Annotated[Literal["on", "off"], Lowered, Setting(_M + "OAUTH", flag="--oauth")] = "off"
    """HTTP: the server is also an OAuth 2.1 authorization server (dynamic client
    registration, PKCE, a sign-in page asking for the Odoo login and password or API key), so
    that claude.ai, ChatGPT and other connectors sign in as their user's own Odoo identity;
    Bearer API keys keep working. Needs oauth_secret, and public_url off loopback."""
    oauth_secret: Annotated[str, Setting(_M + "OAUTH_SECRET")] = Field(
        default="",
        repr=False,  # no flag: a secret
    )
    """The server's OAuth secret (at least 32 characters, the same on every replica): the
    encryption key of the stored Odoo credentials and tokens is derived from it."""
    oauth_access_lifetime: Annotated[int, Setting(_M + "OAUTH_ACCESS_LIFETIME")] = Field(
        default=600, gt=0
    )
    """Seconds an OAuth access token is valid."""
    oauth_refresh_lifetime: Annotated[int, Setting(_M + "OAUTH_REFRESH_LIFETIME")] = Field(
        default=30 * 24 * 3600, gt=0
    )
    """Seconds an OAuth refresh token is valid (each use replaces it with a new one)."""
    oauth_code_lifetime: Annotated[int, Setting(_M + "OAUTH_CODE_LIFETIME")] = Field(
        default=60, gt=0
    )
    """Seconds an OAuth authorization code is valid (it is also single use)."""
    oauth_client_documents: Annotated[
        Literal["on", "off"], Lowered, Setting(_M + "OAUTH_CLIENT_DOCUMENTS")
    ] = "on"
    """OAuth: a client may name itself by the https URL of its client ID metadata document,
    which the server fetches (no proxy, no redirect, 5 KiB, 5 s, public addresses only)
    instead of registering; off leaves dynamic registration alone."""
    oauth_client_document_hosts: Annotated[Names, Setting(_M + "OAUTH_CLIENT_DOCUMENT_HOSTS")] = ()
    """Hosts whose client metadata documents may be fetched from a loopback, private or
    link-local address (comma-separated; an intranet client): every other host must resolve
    to public addresses only."""
    allowed_hosts: Annotated[Names, Setting(_M + "ALLOWED_HOSTS")] = ()
    """More Host header values the HTTP transport accepts (host or host:port,
    comma-separated); loopback names and the public_url host are always accepted."""
    trusted_proxies: Annotated[
        Names,
        AfterValidator(parse_proxies),
        Setting(_M + "TRUSTED_PROXIES", flag="--trusted-proxies"),
    ] = ()
    """Addresses or CIDR networks of the reverse proxies in front of the HTTP transport
    (comma-separated): only their X-Forwarded-For and X-Forwarded-Proto are believed, so the
    failed-authentication limit counts each client behind them; empty (the default) believes
    no one (FORWARDED_ALLOW_IPS is ignored)."""
    # Safety
    mode: Annotated[Mode, Lowered, Setting(_M + "MODE", flag="--mode")] = Mode.READONLY
    """Operation mode: readonly (default), restricted (writes only to the write_allowlist
    models) or full."""
    model_allowlist: Annotated[
        Models, Setting(_M + "MODEL_ALLOWLIST", flag="--model-allowlist")
    ] = ()
    """If set, the only models the server touches (comma-separated)."""
    model_blocklist: Annotated[
        Models, Setting(_M + "MODEL_BLOCKLIST", flag="--model-blocklist")
    ] = ()
    """Models the server refuses, added to the built-in blocklist (comma-separated)."""
    write_allowlist: Annotated[
        Models, Setting(_M + "WRITE_ALLOWLIST", flag="--write-allowlist")
    ] = ()
    """Models writable in restricted mode; empty means no writes (comma-separated)."""
    field_blocklist: Annotated[Names, FIELD_NAMES, Setting(_M + "FIELD_BLOCKLIST")] = ()
    """Field names never read, written, filtered or sorted on, on every model
    (comma-separated); added to the built-in list."""
    method_blocklist: Annotated[Names, METHOD_NAMES, Setting(_M + "METHOD_BLOCKLIST")] = ()
    """Methods odoo_core_execute refuses, added to the built-in list (comma-separated)."""
    # Toolsets
    enabled_toolsets: Annotated[
        Names, TOOLSET_NAMES, Setting(_M + "ENABLED_TOOLSETS", flag="--enabled-toolsets")
    ] = ()
    """Toolsets to enable (comma-separated); empty means the default set."""
    disabled_toolsets: Annotated[
        Names, TOOLSET_NAMES, Setting(_M + "DISABLED_TOOLSETS", flag="--disabled-toolsets")
    ] = ()
    """Toolsets to disable (comma-separated)."""
    # Registry
    static_registry_path: Annotated[str | None, Setting(_M + "STATIC_REGISTRY")] = None
    """Path of a static registry JSON file (SPEC-07, REQ-07-08), loaded at start-up (a bad
    file stops the start) and merged with live metadata: Odoo wins on fields and states, the
    file on method descriptions."""
    introspect_on_startup: Annotated[Flag, Setting(_M + "INTROSPECT")] = True
    """After connecting, read the installed modules and the fields of introspect_models in
    the background (at most 5 calls at a time, 60 s in all); off: fields are read on first use."""
    introspect_models: Annotated[Models, Setting(_M + "INTROSPECT_MODELS")] = ()
    """Models to introspect at start-up (comma-separated); empty: SPEC-07's 33 well-known
    models, those Odoo has and the user may read."""
    # Rate limit (REQ-11-21's read/write limits have no env variable in the spec)
    rate_limit_enabled: Annotated[
        Flag, Setting(_M + "RATE_LIMIT", aliases=["rate_limit.enabled"])
    ] = False
    """Limit tool calls per MCP session."""
    rate_limit_rpm: Annotated[
        int, Setting(_M + "RATE_LIMIT_RPM", aliases=["rate_limit.calls_per_minute"])
    ] = 60
    """Calls allowed per minute and session."""
    rate_limit_rph: Annotated[
        int, Setting(_M + "RATE_LIMIT_RPH", aliases=["rate_limit.calls_per_hour"])
    ] = 1000
    """Calls allowed per hour and session."""
    rate_limit_burst: Annotated[
        int, Setting(_M + "RATE_LIMIT_BURST", aliases=["rate_limit.burst"])
    ] = 10
    """Calls allowed in a burst above the per-minute rate."""
    rate_limit_read_rpm: Annotated[
        int | None, Setting(aliases=["rate_limit.read_calls_per_minute"])
    ] = Field(default=None, gt=0)
    """Per-minute limit for read tools (configuration file only)."""
    rate_limit_write_rpm: Annotated[
        int | None, Setting(aliases=["rate_limit.write_calls_per_minute"])
    ] = Field(default=None, gt=0)
    """Per-minute limit for write tools (configuration file only)."""
    # Audit
    audit_enabled: Annotated[Flag, Setting(_M + "AUDIT", aliases=["audit.enabled"])] = False
    """Write an audit record (JSON Lines) for tool calls."""
    audit_log_file: Annotated[
        str | None, Setting(_M + "AUDIT_FILE", aliases=["audit.log_file"])
    ] = None
    """Path of the audit log; standard error when unset."""
    audit_log_reads: Annotated[Flag, Setting(_M + "AUDIT_READS", aliases=["audit.log_reads"])] = (
        False
    )
    """Audit read tools too."""
    audit_log_writes: Annotated[
        Flag, Setting(_M + "AUDIT_WRITES", aliases=["audit.log_writes"])
    ] = True
    """Audit create and write calls."""
    audit_log_deletes: Annotated[
        Flag, Setting(_M + "AUDIT_DELETES", aliases=["audit.log_deletes"])
    ] = True
    """Audit unlink calls."""
    # Context
    odoo_lang: Annotated[str, Setting("ODOO_LANG")] = "en_US"
    """Language sent in the Odoo context (lang)."""
    odoo_tz: Annotated[str, Setting("ODOO_TZ")] = "UTC"
    """Time zone sent in the Odoo context (tz)."""
    odoo_company_id: Annotated[int | None, Setting("ODOO_COMPANY_ID")] = None
    """Current company id sent in the Odoo context."""
    # the spec writes ODOO_MCP_COMPANY_IDS once too (decision 4): both are read
    odoo_company_ids: Annotated[Ids, Setting("ODOO_COMPANY_IDS", _M + "COMPANY_IDS")] = ()
    """Allowed company ids sent in the Odoo context (comma-separated)."""
    # Search
    search_default_limit: Annotated[int, Setting(_M + "SEARCH_LIMIT")] = Field(default=80, ge=1)
    """Records returned by search tools when no limit is given."""
    search_max_limit: Annotated[int, Setting(_M + "SEARCH_MAX_LIMIT")] = Field(default=500, ge=1)
    """Largest limit a search tool accepts."""
    # Display
    strip_html: Annotated[Flag, Setting(_M + "STRIP_HTML")] = True
    """Turn HTML field values into plain text."""
    normalize_many2one: Annotated[Flag, Setting(_M + "NORMALIZE_M2O")] = True
    """Return many2one values as {id, name} objects."""
    # Logging
    log_level: Annotated[
        Literal["debug", "info", "warning", "error", "critical"],
        Lowered,
        Setting(_M + "LOG_LEVEL", flag="--log-level"),
    ] = "info"
    """Server log level (logs go to standard error)."""
    # Health
    subscription_poll_interval: Annotated[float, Setting(_M + "POLL_INTERVAL")] = Field(
        default=60.0, gt=0
    )
    """Seconds between two polls of write_date for resource subscriptions (REQ-06-14)."""
    health_check_interval: Annotated[int, Setting(_M + "HEALTH_INTERVAL")] = Field(
        default=300, ge=0
    )
    """Idle seconds after which the next call first checks the Odoo session (REQ-02-20); 0
    turns the check off."""
    reconnect_max_attempts: Annotated[int, Setting(_M + "RECONNECT_ATTEMPTS")] = Field(
        default=3, ge=0
    )
    """Reconnection attempts after a connection failure."""
    reconnect_backoff_base: Annotated[float, Setting(_M + "RECONNECT_BACKOFF")] = Field(
        default=1.0, ge=0
    )
    """Base delay in seconds of the exponential reconnection backoff."""

    @model_validator(mode="after")
    def _cross_checks(self) -> "OdooMcpConfig":
        """REQ-11-28: the checks that involve several fields."""
        values = dict(self)
        problems = name_problems(INDEX, type(self).model_fields, values)
        problems += cross_field_problems(INDEX, values)
        problems += oauth_problems(values)
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
            return self.oauth_enabled or self.host not in LOOPBACK_HOSTS
        return self.http_auth == "on"

    @property
    def oauth_enabled(self) -> bool:
        """OAuth sign-in on the HTTP transport (opt-in; it implies authentication)."""
        return self.oauth == "on"

    def safety_policy(self) -> SafetyPolicy:
        """REQ-11-03: the policy the tools enforce."""
        return SafetyPolicy(
            mode=self.mode,
            model_allowlist=self.model_allowlist,
            model_blocklist=self.model_blocklist,
            write_allowlist=self.write_allowlist,
            field_blocklist=self.field_blocklist,
            method_blocklist=self.method_blocklist,
        )

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
        data["state_url"] = redacted(self.state_url)
        data["oauth_secret"] = "********" if self.oauth_secret else ""
        data["env_vars"] = {name: list(names) for name, names in ENV_VARS.items()}
        return data


def _declarations(fields: Mapping[str, FieldInfo]) -> dict[str, Setting]:
    """REQ-11-25: each field's ``Setting``, read from its ``Annotated`` metadata."""
    found: dict[str, Setting] = {}
    for name, info in fields.items():
        marks = [item for item in info.metadata if isinstance(item, Setting)]
        if len(marks) != 1:
            raise TypeError(f"OdooMcpConfig.{name} needs exactly one Setting(...) annotation")
        found[name] = marks[0]
    return found


#: REQ-11-25: every setting's declaration, in field order.
SETTINGS: Final[Mapping[str, Setting]] = _declarations(OdooMcpConfig.model_fields)
INDEX: Final = SettingsIndex(SETTINGS)
#: REQ-11-25: field -> its environment variables, canonical name first (decision 4).
ENV_VARS: Final[Mapping[str, tuple[str, ...]]] = {name: s.env for name, s in SETTINGS.items()}


#: the shortest OAuth secret accepted: 32 characters (a 256-bit key's worth of hex is 64)
OAUTH_SECRET_MIN: Final = 32


def oauth_problems(values: Mapping[str, Any]) -> list[str]:
    """What makes ``oauth`` on unusable: no (or a short) secret, authentication turned off,
    or no issuer URL a client can reach (never the secret itself)."""
    if values.get("oauth") != "on":
        return []
    problems: list[str] = []
    secret = str(values.get("oauth_secret") or "")
    if len(secret) < OAUTH_SECRET_MIN:
        said = "is not set" if not secret else f"has {len(secret)} characters"
        problems.append(
            f"oauth on (ODOO_MCP_OAUTH) needs ODOO_MCP_OAUTH_SECRET of at least "
            f"{OAUTH_SECRET_MIN} characters (it {said}): generate one with "
            "`python -c 'import secrets; print(secrets.token_hex(32))'`, the same on every "
            "replica"
        )
    if values.get("http_auth") == "off":
        problems.append(
            "oauth on (ODOO_MCP_OAUTH) needs authentication: http_auth (ODOO_MCP_HTTP_AUTH) "
            "cannot be off"
        )
    public = values.get("public_url")
    host = str(values.get("host", "127.0.0.1"))
    if public:
        parts = urlsplit(str(public))
        local = parts.hostname in LOOPBACK_HOSTS
        if parts.scheme != "https" and not (parts.scheme == "http" and local):
            problems.append(
                "oauth on (ODOO_MCP_OAUTH) needs an https:// public_url (ODOO_MCP_PUBLIC_URL): "
                "OAuth 2.1 clients refuse an authorization server over plain HTTP"
            )
    elif host not in LOOPBACK_HOSTS:
        problems.append(
            "oauth on (ODOO_MCP_OAUTH) off loopback needs public_url (ODOO_MCP_PUBLIC_URL), "
            "the https:// URL clients reach the MCP endpoint at: it is the OAuth issuer"
        )
    return problems


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
    raw, origins, problems = gather(INDEX, cli, env, config_path)
    values, field_problems = validate_fields(INDEX, OdooMcpConfig.model_fields, raw, origins)
    names = name_problems(INDEX, OdooMcpConfig.model_fields, values, origins)
    problems = [
        *problems,
        *field_problems,
        *names,
        *cross_field_problems(INDEX, values),
        *oauth_problems(values),
    ]
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
