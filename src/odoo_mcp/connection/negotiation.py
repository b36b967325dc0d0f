"""SPEC-02 / L2-02a: find the version, choose the protocol, log in (API key first).

Used by the ``ConnectionManager`` on connect and on every reconnect (REQ-02a-11: the version
is cached for a connection's lifetime and re-detected only on reconnect).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

import httpx2

from odoo_mcp.connection.base import OdooProtocol
from odoo_mcp.connection.errors import (
    OdooAuthenticationError,
    OdooConfigurationError,
    OdooConnectionError,
    OdooError,
    OdooRpcError,
)
from odoo_mcp.connection.json2 import Json2Protocol
from odoo_mcp.connection.jsonrpc import JsonRpcMode, JsonRpcProtocol
from odoo_mcp.connection.settings import ConnectionSettings
from odoo_mcp.connection.version import (
    UNKNOWN_VERSION,
    OdooVersion,
    ProtocolName,
    default_protocol,
    probe_login_page,
    probe_xmlrpc_version,
    version_from_server_info,
)
from odoo_mcp.connection.xmlrpc import XmlRpcProtocol

__all__ = ["Login", "choose_protocol", "log_in", "make_adapter", "negotiate"]

logger = logging.getLogger(__name__)

SecretKind = Literal["api_key", "password"]


@dataclass(frozen=True, slots=True)
class Login:
    """The adapter that logged in and the secret it used (kept for re-authentication)."""

    adapter: OdooProtocol
    secret_kind: SecretKind
    secret: str
    login: str


def choose_protocol(settings: ConnectionSettings, version: OdooVersion) -> ProtocolName:
    """REQ-02a-07: default protocol by version (decision 6); REQ-02-14: a forced one is kept."""
    known = version.level != "unknown"
    if settings.protocol != "auto":
        if known and settings.protocol == "json2" and version.major < 19:
            raise OdooConfigurationError(
                f"ODOO_PROTOCOL=json2 but this server runs Odoo {version}: JSON-2 exists from "
                "Odoo 19; use xmlrpc or jsonrpc (or auto)"
            )
        if known and settings.protocol != "json2" and version.major >= 20:
            raise OdooConfigurationError(
                f"ODOO_PROTOCOL={settings.protocol} but Odoo {version} removed XML-RPC and "
                "JSON-RPC; use json2 with an API key"
            )
        return settings.protocol
    chosen = default_protocol(version)
    if chosen == "json2" and settings.api_key is None:
        if version.major >= 20 or not settings.username:
            raise OdooConfigurationError(
                f"Odoo {version} needs JSON-2, which needs an API key: set ODOO_API_KEY"
            )
        logger.warning(
            "Odoo %s: JSON-2 needs an API key; using the deprecated JSON-RPC with a password",
            version,
        )
        return "jsonrpc"
    if chosen != "json2" and not settings.username:
        if version.major >= 19 and settings.api_key is not None:
            return "json2"
        raise OdooConfigurationError(
            f"Odoo {version} is reached over {chosen}, which needs ODOO_USERNAME as login"
        )
    return chosen


def make_adapter(
    protocol: ProtocolName,
    client: httpx2.AsyncClient,
    settings: ConnectionSettings,
    version: OdooVersion | None,
    *,
    mode: JsonRpcMode = "session",
) -> OdooProtocol:
    """REQ-02-15: build the adapter for a protocol over the shared client."""
    context = settings.base_context()
    if protocol == "xmlrpc":
        return XmlRpcProtocol(client, settings.database, base_context=context, version=version)
    if protocol == "jsonrpc":
        return JsonRpcProtocol(
            client, settings.database, mode=mode, base_context=context, version=version
        )
    return Json2Protocol(client, settings.database, base_context=context, version=version)


def _attempts(
    settings: ConnectionSettings, protocol: ProtocolName
) -> list[tuple[ProtocolName, JsonRpcMode, SecretKind, str]]:
    """REQ-02b-13: per protocol, which secret goes where (REQ-02b-14), API key first
    (REQ-02-03)."""
    attempts: list[tuple[ProtocolName, JsonRpcMode, SecretKind, str]] = []
    for kind, secret in settings.secrets():
        if protocol == "json2":
            if kind == "api_key":
                attempts.append(("json2", "session", kind, secret))
            elif settings.protocol == "auto" and settings.username:
                # JSON-2 accepts keys only; a password can still log in over JSON-RPC.
                attempts.append(("jsonrpc", "session", kind, secret))
        elif protocol == "jsonrpc":
            # Session logins are interactive and real Odoo refuses API keys there, so a key
            # goes through the /jsonrpc service endpoint (non-interactive, like XML-RPC).
            attempts.append(
                ("jsonrpc", "service" if kind == "api_key" else "session", kind, secret)
            )
        else:
            attempts.append(("xmlrpc", "session", kind, secret))
    return attempts


async def log_in(
    client: httpx2.AsyncClient,
    settings: ConnectionSettings,
    protocol: ProtocolName,
    version: OdooVersion | None,
) -> Login:
    """REQ-02-07: try the API key first, then fall back to the password with a warning."""
    login = settings.username or ""
    failure: OdooAuthenticationError | None = None
    for used, mode, kind, secret in _attempts(settings, protocol):
        if failure is not None:
            logger.warning(
                "API key refused by Odoo (%s); falling back to password authentication over %s",
                failure.message,
                used,
            )
        adapter = make_adapter(used, client, settings, version, mode=mode)
        try:
            await adapter.authenticate(settings.database, login, secret)
        except OdooAuthenticationError as exc:
            failure = exc
            continue
        return Login(adapter, kind, secret, login)
    if failure is None:
        raise OdooConfigurationError(f"no credentials usable with protocol {protocol}")
    raise failure


def version_from_session(adapter: OdooProtocol) -> OdooVersion | None:
    """REQ-02a-02: probe 2, the version fields of the ``/web/session/authenticate`` result."""
    if not isinstance(adapter, JsonRpcProtocol) or not adapter.session_info:
        return None
    try:
        return version_from_server_info(adapter.session_info)
    except ValueError:
        return None


async def detect_edition(adapter: OdooProtocol, version: OdooVersion) -> OdooVersion:
    """REQ-02a-06: session ``is_enterprise``, else ``web_enterprise`` installed?, else community."""
    if version.edition != "unknown":
        return version
    session = adapter.session_info if isinstance(adapter, JsonRpcProtocol) else {}
    if isinstance(session.get("is_enterprise"), bool):
        return version.with_edition("enterprise" if session["is_enterprise"] else "community")
    domain = [["name", "=", "web_enterprise"], ["state", "=", "installed"]]
    try:
        count = await adapter.search_count("ir.module.module", domain)
    except (OdooRpcError, OdooConnectionError) as exc:
        logger.warning("cannot tell the Odoo edition (%s); assuming community", exc)
        return version.with_edition("community")
    return version.with_edition("enterprise" if count else "community")


def resolve_unknown(version: OdooVersion | None) -> OdooVersion:
    """REQ-02a-09: warn on unknown or unsupported versions (REQ-02a-10, REQ-02-12) and carry
    on."""
    if version is None:
        logger.warning("could not detect the Odoo version; assuming 14.0 over XML-RPC")
        return UNKNOWN_VERSION
    if version.major < 14:
        logger.warning("Odoo %s is older than 14.0: unsupported, it may not work", version)
    elif version.major > 19:
        logger.info("Odoo %s is newer than 19.0: using JSON-2", version)
    return version


async def negotiate(client: httpx2.AsyncClient, settings: ConnectionSettings) -> Login:
    """REQ-02a-01, REQ-02-10: at connection time, probe the version in the spec's order
    (REQ-02a-04: stopping at the first answer), choose the protocol, log in.

    Probe 1 is XML-RPC ``version()``; probe 2 the session-authenticate result (needs a login,
    and its session is kept when JSON-RPC is the protocol chosen); probe 3 ``/web/login``.
    """
    version = await probe_xmlrpc_version(client)
    session_login: Login | None = None
    if (
        version is None
        and settings.username
        and settings.password is not None
        and settings.protocol in ("auto", "jsonrpc")
    ):
        # A session login takes a password only (API keys are for non-interactive logins).
        adapter = make_adapter("jsonrpc", client, settings, None, mode="session")
        secret = settings.password.get_secret_value()
        try:
            await adapter.authenticate(settings.database, settings.username, secret)
        except OdooError as exc:  # e.g. a 404 where no web client is served: next probe
            logger.info("session probe failed: %s", exc)
        else:
            session_login = Login(adapter, "password", secret, settings.username)
            version = version_from_session(adapter)
    if version is None:
        version = await probe_login_page(client)
    version = resolve_unknown(version)
    protocol = choose_protocol(settings, version)
    if session_login is not None and session_login.adapter.protocol_name == protocol:
        login = session_login
    else:
        if session_login is not None:
            await session_login.adapter.close()
        login = await log_in(client, settings, protocol, version)
    login.adapter.version = version
    login.adapter.version = await detect_edition(login.adapter, version)
    return login
