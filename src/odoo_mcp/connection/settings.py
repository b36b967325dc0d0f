"""SPEC-02: connection settings (REQ-02-01..03, REQ-02-27..32) and the shared HTTP client."""

from __future__ import annotations

import logging
import ssl
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit
from urllib.request import getproxies

import httpx2
from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator

from odoo_mcp.connection.errors import OdooConfigurationError

__all__ = ["ConnectionSettings", "ProtocolChoice", "build_http_client"]

logger = logging.getLogger(__name__)

ProtocolChoice = Literal["auto", "xmlrpc", "jsonrpc", "json2"]


class ConnectionSettings(BaseModel):
    """REQ-02-01: what the connection needs to reach one Odoo database."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    url: str = Field(description="Odoo base URL (ODOO_URL), http or https")
    database: str = Field(min_length=1, description="database name (ODOO_DB)")
    username: str | None = Field(default=None, description="login (ODOO_USERNAME)")
    password: SecretStr | None = Field(default=None, description="password (ODOO_PASSWORD)")
    api_key: SecretStr | None = Field(default=None, description="API key (ODOO_API_KEY)")
    protocol: ProtocolChoice = Field(default="auto", description="ODOO_PROTOCOL")
    timeout: float = Field(default=30.0, gt=0, description="seconds per request (ODOO_TIMEOUT)")
    verify_ssl: bool = Field(default=True, description="verify TLS certificates (ODOO_VERIFY_SSL)")
    ca_cert: Path | None = Field(default=None, description="PEM CA bundle (ODOO_CA_CERT)")
    lang: str = Field(default="en_US", description="base context language")
    tz: str = Field(default="UTC", description="base context time zone")
    company_ids: tuple[int, ...] = Field(default=(), description="allowed_company_ids")
    idle_timeout: float = Field(
        default=300.0, ge=0, description="health check after idle (s); 0: never"
    )

    @field_validator("url")
    @classmethod
    def _check_url(cls, value: str) -> str:
        """REQ-02-02: the URL must parse, use http or https, and lose its trailing slashes."""
        text = value.strip().rstrip("/")
        try:
            parts = urlsplit(text)
        except ValueError as exc:
            raise ValueError(f"ODOO_URL does not parse: {exc}") from exc
        if parts.scheme not in ("http", "https"):
            raise ValueError("ODOO_URL must start with http:// or https://")
        if not parts.hostname:
            raise ValueError("ODOO_URL has no host name")
        return text

    @field_validator("username", "password", "api_key", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        # An empty environment variable means "not configured", not "empty password".
        return None if isinstance(value, str) and not value.strip() else value

    @model_validator(mode="after")
    def _check_credentials(self) -> ConnectionSettings:
        """REQ-02-01: a password or an API key is required; XML-RPC and JSON-RPC need a login."""
        if self.password is None and self.api_key is None:
            raise ValueError("set ODOO_PASSWORD or ODOO_API_KEY")
        if self.protocol in ("xmlrpc", "jsonrpc") and not self.username:
            raise ValueError(f"protocol {self.protocol} needs ODOO_USERNAME")
        if self.protocol == "json2" and self.api_key is None:
            raise ValueError("protocol json2 needs ODOO_API_KEY (REQ-02b-14)")
        return self

    def secrets(self) -> list[tuple[Literal["api_key", "password"], str]]:
        """REQ-02-03: the secrets to try, API key first (it wins when both are set)."""
        found: list[tuple[Literal["api_key", "password"], str]] = []
        if self.api_key is not None:
            found.append(("api_key", self.api_key.get_secret_value()))
        if self.password is not None:
            found.append(("password", self.password.get_secret_value()))
        return found

    def base_context(self) -> dict[str, object]:
        """REQ-02-27: lang and tz on every call; REQ-02-29: allowed_company_ids if configured."""
        context: dict[str, object] = {"lang": self.lang, "tz": self.tz}
        if self.company_ids:
            context["allowed_company_ids"] = list(self.company_ids)
        return context


def _tls_verify(settings: ConnectionSettings) -> ssl.SSLContext | bool:
    """REQ-02-30: verify by default; REQ-02-31: warn when off; REQ-02-32: custom CA bundle."""
    if not settings.verify_ssl:
        logger.warning(
            "SSL verification disabled (ODOO_VERIFY_SSL=false): for development only, "
            "the connection to %s can be intercepted",
            settings.url,
        )
        return False
    if settings.ca_cert is None:
        if urlsplit(settings.url).scheme == "http":
            # Plain HTTP and no redirects followed: this client never makes a TLS handshake, so
            # loading the system's CA bundle (~18 ms of every start) buys nothing. A context that
            # trusts no CA still refuses any TLS peer, should one ever be reached.
            return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        return True
    if not settings.ca_cert.is_file():
        raise OdooConfigurationError(f"ODOO_CA_CERT {settings.ca_cert} is not a readable file")
    try:
        return ssl.create_default_context(cafile=str(settings.ca_cert))
    except (ssl.SSLError, OSError) as exc:
        raise OdooConfigurationError(f"ODOO_CA_CERT {settings.ca_cert}: {exc}") from exc


def _proxy_in_environment() -> bool:
    """Whether httpx2 would send requests through a proxy it found in the environment."""
    found = getproxies()
    return any(found.get(scheme) for scheme in ("http", "https", "all"))


def build_http_client(
    settings: ConnectionSettings, transport: httpx2.AsyncBaseTransport | None = None
) -> httpx2.AsyncClient:
    """REQ-02-25: one pooled client (keep-alive, timeout, TLS) shared by all three adapters.

    ``transport`` lets tests serve an ASGI app in-process (``httpx2.ASGITransport``). Without
    one, the requests go through ``Http11Transport`` (issue 41: half the CPU of a request
    through httpx2's own transport) unless the environment names a proxy, which only
    httpx2's own transport serves.
    """
    verify = _tls_verify(settings)
    if transport is None and not _proxy_in_environment():
        from odoo_mcp.connection.http11 import Http11Transport

        # the TLS context httpx2 would build from the same settings (SSL_CERT_FILE included);
        # one made here already is used as it is (httpx2's function would import httpcore2)
        context = (
            verify if isinstance(verify, ssl.SSLContext) else httpx2.create_ssl_context(verify)
        )
        transport = Http11Transport(ssl_context=context)
    return httpx2.AsyncClient(
        base_url=settings.url,
        timeout=settings.timeout,
        verify=verify,
        transport=transport,
        headers={"User-Agent": "odoo-mcp"},
        # Odoo answers RPC directly; a redirect means a misconfigured URL (http -> https).
        follow_redirects=False,
    )
