"""SPEC-02 / L2-02a: find the version, choose the protocol, log in (API key first).

Used by the ``ConnectionManager`` on connect and on every reconnect (REQ-02a-11: the version
is cached for a connection's lifetime and re-detected only on reconnect).
"""

from __future__ import annotations

import logging
import re
import socket
import ssl
import xmlrpc.client
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit, urlunsplit
from xml.parsers.expat import ExpatError

import httpx2

from odoo_mcp.connection.base import OdooProtocol
from odoo_mcp.connection.errors import (
    OdooAuthenticationError,
    OdooConfigurationError,
    OdooConnectionError,
    OdooError,
    OdooRateLimited,
    OdooRpcError,
)
from odoo_mcp.connection.json2 import Json2Protocol
from odoo_mcp.connection.jsonrpc import JsonRpcMode, JsonRpcProtocol
from odoo_mcp.connection.settings import ConnectionSettings
from odoo_mcp.connection.transport import describe_answer, send, server_address
from odoo_mcp.connection.version import (
    UNKNOWN_VERSION,
    OdooVersion,
    ProtocolName,
    default_protocol,
    probe_login_page,
    probe_xmlrpc_version,
    version_from_server_info,
)
from odoo_mcp.connection.versions import protocol_served
from odoo_mcp.connection.xmlrpc import XmlRpcProtocol

__all__ = [
    "Login",
    "choose_protocol",
    "diagnose",
    "diagnose_start_failure",
    "log_in",
    "make_adapter",
    "negotiate",
]

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
        # Odoo 20 (versions.PROTOCOL_FACTS, from its source): XML-RPC still served, the
        # /jsonrpc endpoint gone, the web session routes unknown: a forced protocol is tried
        return settings.protocol
    chosen = default_protocol(version)
    if chosen == "json2" and settings.api_key is None:
        if not settings.username:
            raise OdooConfigurationError(
                f"Odoo {version} needs JSON-2, which needs an API key: set ODOO_API_KEY"
            )
        if protocol_served("xmlrpc", version) == "served" and version.major >= 20:
            logger.warning(
                "Odoo %s: JSON-2 needs an API key; using XML-RPC with a password", version
            )
            return "xmlrpc"
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
        except OdooConnectionError as exc:
            gone = _jsonrpc_gone(exc, used, mode, version)
            if gone is None:
                raise
            raise gone from exc
        return Login(adapter, kind, secret, login)
    if failure is None:
        raise OdooConfigurationError(f"no credentials usable with protocol {protocol}")
    raise failure


def _jsonrpc_gone(
    exc: OdooConnectionError, used: ProtocolName, mode: JsonRpcMode, version: OdooVersion | None
) -> OdooConfigurationError | None:
    """Odoo 20 has no ``/jsonrpc`` (its rpc module no longer routes it, versions.ODOO20): a
    404 there says so, with what to use instead (None: another failure)."""
    if used != "jsonrpc" or mode != "service" or exc.http_status != 404:
        return None
    if version is None or protocol_served("jsonrpc_service", version) != "absent":
        return None
    return OdooConfigurationError(
        f"Odoo {version} answered 404 on /jsonrpc: Odoo 20 removed the /jsonrpc endpoint "
        "(its rpc module serves /xmlrpc/2 and /json/2 only); set ODOO_PROTOCOL=xmlrpc, or "
        "json2 with an API key (or auto)"
    )


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
        logger.info("Odoo %s is newer than 19.0: using JSON-2 (20: facts from its source)", version)
    return version


async def negotiate(client: httpx2.AsyncClient, settings: ConnectionSettings) -> Login:
    """REQ-02a-01, REQ-02-10: at connection time, probe the version in the spec's order
    (REQ-02a-04: stopping at the first answer), choose the protocol, log in.

    Probe 1 is XML-RPC ``version()``; probe 2 the session-authenticate result (needs a login,
    and its session is kept when JSON-RPC is the protocol chosen); probe 3 ``/web/login``.

    Issue 29: a failure is diagnosed (``diagnose``) before it is raised, so that it names
    its cause and the fix; the happy path makes no request more.
    """
    found: list[OdooVersion | None] = [None]
    try:
        return await _negotiate(client, settings, found)
    except OdooConfigurationError:
        raise
    except OdooError as exc:
        diagnosed = await diagnose(client, settings, exc, found[0])
        if diagnosed is None:
            raise
        raise diagnosed from exc


async def _negotiate(
    client: httpx2.AsyncClient, settings: ConnectionSettings, found: list[OdooVersion | None]
) -> Login:
    """``negotiate`` itself; ``found[0]`` is the version a probe detected, for ``diagnose``."""
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
    if version is None:
        # issue 29: a URL copied from the browser, not a version Odoo hides (another path
        # may be a proxy's prefix: judged only if the login fails too, by ``diagnose``)
        wrong_url = _page_url_error(settings.url, pages_only=True)
        if wrong_url is not None:
            raise wrong_url
    found[0] = version
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


# --- issue 29: why a connection failed, and what to change ----------------------------------

#: the first segment of the web client's and the website's pages (``/odoo/action-12``,
#: ``/web/login``, ``/web#action=12``, ``/my/orders``, ``/shop``, ``/en/contactus``)
_WEB_PAGES = re.compile(r"\A/(?:odoo|web|my|shop|website|[a-z]{2}(?:_[A-Za-z]{2})?)(?:[/?#]|\Z)")
#: failures where no server answered: the URL's path is not their cause
_NOT_ANSWERED = frozenset({"refused", "timeout", "dropped"})
#: what Odoo says, over each protocol, of a database it does not have
_NO_DATABASE = re.compile(r'database "[^"]*" does not exist|\ADatabase not found\.?\Z')


def _base_url(url: str) -> str:
    parts = urlsplit(url)
    netloc = parts.netloc.rpartition("@")[2]  # never a password in a message
    return urlunsplit((parts.scheme, netloc, "", "", ""))


def _page_url_error(url: str, *, pages_only: bool = False) -> OdooConfigurationError | None:
    """REQ-02-02 (issue 29): ODOO_URL with a path, a query or a fragment (a URL copied from
    the browser) where Odoo did not answer. The path is not stripped silently: the message
    names the URL to set instead."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    if not path and not parts.query and not parts.fragment:
        return None
    base = _base_url(url)
    if _WEB_PAGES.match(path or "/") or not path:
        return OdooConfigurationError(
            f"ODOO_URL should be the server's base URL ({base}), not a page of the web client "
            f"({url}): set ODOO_URL={base}"
        )
    if pages_only:
        return None
    return OdooConfigurationError(
        f"ODOO_URL should be the server's base URL ({base}): Odoo serves its API at the root, "
        f"and nothing answered as Odoo under {path}: set ODOO_URL={base}"
    )


def _database_missing(exc: OdooError, version: OdooVersion | None) -> bool | None:
    """True when Odoo said the database does not exist; None when it may be the cause (a
    JSON-2 404 without an Odoo error on a server known to be 19 or later: Odoo has no
    registry, hence no route, for an unknown ``X-Odoo-Database``); False otherwise."""
    texts = [exc.message]
    raw = getattr(exc, "raw", None)
    if isinstance(raw, OdooError):
        texts.append(raw.message)
    if any(_NO_DATABASE.search(text.strip()) for text in texts):
        return True
    if (
        isinstance(exc, OdooConnectionError)
        and exc.protocol == "json2"
        and exc.http_status == 404
        and version is not None
        and version.major >= 19
    ):
        return None
    return False


async def _list_databases(client: httpx2.AsyncClient) -> list[str] | None:
    """``db.list()`` over XML-RPC (Odoo 14-19), None when the server does not list them
    (``list_db = False``) or cannot."""
    body = xmlrpc.client.dumps((), "list", allow_none=True).encode("utf-8")
    try:
        response = await send(
            client,
            "POST",
            "/xmlrpc/2/db",
            content=body,
            headers={"Content-Type": "text/xml"},
            protocol="xmlrpc",
        )
        if response.status_code != 200:
            return None
        (names,), _ = xmlrpc.client.loads(response.content)
    except (OdooError, xmlrpc.client.Error, ExpatError, ValueError):
        return None
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        return None
    return names


async def _unknown_database(
    client: httpx2.AsyncClient, settings: ConnectionSettings, certain: bool
) -> OdooConfigurationError | None:
    """REQ-02-14 (issue 29): ODOO_DB names no database of this server; with the databases
    ``db.list`` shows, when the server lists them."""
    names = await _list_databases(client)
    database = settings.database
    if names is not None and database in names:
        return None  # the database exists: the failure is something else
    if not certain and names is None:
        return OdooConfigurationError(
            f"the database {database!r} is unknown to this server, or a proxy does not pass "
            "/json/2 on (JSON-2 answered 404 without an Odoo error, and the server does not "
            "list its databases): check ODOO_DB"
        )
    if names is None:
        listed = "the server does not list its databases"
    elif names:
        listed = f"databases here: {', '.join(names)}"
    else:
        listed = "the server has no database"
    return OdooConfigurationError(
        f"the database {database!r} does not exist on this server ({listed}): set ODOO_DB "
        "to the name of an existing database"
    )


def _speaks_tls(url: httpx2.URL, timeout: float) -> bool:
    """Whether the server at ``url``'s host and port completes a TLS handshake."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # only "does it speak TLS?": nothing is sent
    try:
        with (
            socket.create_connection((url.host, url.port or 80), timeout=timeout) as raw,
            context.wrap_socket(raw, server_hostname=url.host),
        ):
            return True
    except (OSError, ValueError):
        return False


def _looks_like_odoo(response: httpx2.Response) -> bool:
    """An answer Odoo gives to ``GET /``: a redirect to its web client (``/odoo``, ``/web``),
    its ``session_id`` cookie, or a page that names Odoo."""
    location = urlsplit(response.headers.get("Location", "")).path
    if location.startswith(("/odoo", "/web")):
        return True
    if "session_id=" in response.headers.get("Set-Cookie", ""):
        return True
    return "odoo" in response.text[:100_000].lower()


def _what_answers(settings: ConnectionSettings, exc: OdooConnectionError) -> OdooError | None:
    """Issue 29: what answers at ODOO_URL: a redirect to HTTPS, an HTTPS port spoken to in
    plain HTTP, or a proxy or another web server (None: it looks like Odoo)."""
    timeout = min(settings.timeout, 10.0)
    # verify=False: one GET / without credentials or cookies; only its status and title are
    # read (a certificate problem was reported by the connection attempt already)
    with httpx2.Client(
        base_url=settings.url, timeout=timeout, verify=False, follow_redirects=False
    ) as client:
        where = server_address(client.base_url)
        try:
            response = client.get("/", headers={"User-Agent": "odoo-mcp"})
        except httpx2.HTTPError:
            return None
    location = response.headers.get("Location", "")
    if response.is_redirect and location.startswith("https://"):
        return OdooConfigurationError(
            f"the server at {where} redirects to HTTPS: use {_base_url(location)} in ODOO_URL"
        )
    if "sent to https port" in response.text[:100_000].lower():  # nginx's 400 page
        return OdooConfigurationError(
            f"the server at {where} speaks HTTPS: use https://{where} in ODOO_URL"
        )
    if _looks_like_odoo(response):
        return None
    return OdooConnectionError(
        f"the answer at {where} came from something that is not Odoo (a proxy or another web "
        f"server): GET / answered {describe_answer(response)}; check that ODOO_URL points at "
        "Odoo, and that Odoo runs behind the proxy",
        kind=exc.kind,
        request_sent=exc.request_sent,
        http_status=exc.http_status,
        protocol=exc.protocol,
    )


def diagnose_start_failure(settings: ConnectionSettings, exc: Exception) -> OdooError | None:
    """REQ-01-15 (issue 29): at start-up only (``odoo-mcp serve`` / ``check``), when the
    first connection failed with an answer that was not Odoo's (or none), look at what
    answers at ODOO_URL: a TLS server spoken to in plain HTTP, a redirect to HTTPS, a proxy
    or another web server. None: ``exc`` says it already.

    Not part of ``negotiate``: a reconnect makes no request more than it did (the
    connection tests count them), and these causes do not appear on a server that answered.
    Blocking on purpose: the process is about to exit.
    """
    if not isinstance(exc, OdooConnectionError) or isinstance(exc, OdooRateLimited):
        return None
    if exc.kind in ("refused", "timeout"):
        return None  # transport.send named the host and port already
    url = httpx2.URL(settings.url)
    if exc.kind == "dropped" and url.scheme == "http":
        if _speaks_tls(url, min(settings.timeout, 10.0)):
            where = server_address(url)
            return OdooConfigurationError(
                f"the server at {where} speaks HTTPS: use https://{where} in ODOO_URL"
            )
        return None
    return _what_answers(settings, exc)


async def diagnose(
    client: httpx2.AsyncClient,
    settings: ConnectionSettings,
    exc: OdooError,
    version: OdooVersion | None,
) -> OdooError | None:
    """REQ-01-15, REQ-02-14 (issue 29): the error that names the cause of a failed
    negotiation and its fix, or None to raise ``exc`` as it is. ``version`` is what the
    probes detected (None: nothing answered as Odoo).

    A URL copied from the browser costs no request; a database Odoo does not know costs a
    ``db.list`` (only then). What answers where Odoo does not is ``diagnose_start_failure``'s.
    """
    unreachable = isinstance(exc, OdooConnectionError) and exc.kind in _NOT_ANSWERED
    if version is None and not unreachable:
        wrong_url = _page_url_error(settings.url)
        if wrong_url is not None:
            return wrong_url
    missing = _database_missing(exc, version)
    if missing is not False:
        return await _unknown_database(client, settings, certain=bool(missing))
    return None
