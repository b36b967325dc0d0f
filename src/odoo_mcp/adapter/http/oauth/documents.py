"""Client ID metadata documents: a client names itself by the HTTPS URL of its metadata.

The MCP authorization specification (client registration, 2025-11-25) asks authorization
servers to support ``draft-ietf-oauth-client-id-metadata-document``: a client with no prior
relationship to the server uses an ``https`` URL as its ``client_id``; the server fetches the
JSON document there and takes the client's name and redirect URIs from it, with no
registration call.

The fetch is made on an unauthenticated caller's word, so it is the server's one outgoing
request to an address somebody else chose. It fails closed (every refusal leaves the client
unknown, and the sign-in never starts):

* the URL: ``https``, a path other than ``/``, no fragment, no user or password, no ``.``
  or ``..`` segment (the draft's §3);
* the address: every address the host resolves to must be public (no loopback, private,
  link-local, shared, reserved or multicast address), unless the operator names the host in
  ``oauth_client_document_hosts``; the connection goes to the address that was checked (TLS
  still verifies the host's name), so a second DNS answer cannot point it elsewhere;
* the answer: 200 only (redirects are not followed), JSON, at most 5 KiB, within 5 seconds;
  no proxy from the environment;
* the document: a JSON object whose ``client_id`` is the URL itself (simple string
  comparison), no ``client_secret``, authentication method ``none`` (no secret can be shared
  with a document), redirect URIs each acceptable as at registration.

Documents are kept for their ``Cache-Control: max-age`` (bounded to a day; 5 minutes when
the answer says nothing, never with ``no-store``) and a refusal for 30 seconds, so a flood
of authorizations naming one URL fetches it once. Each replica fetches for itself: the
document is public, nothing about it needs sharing.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import re
import socket
import ssl
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

import httpx2
from pydantic import ValidationError

from odoo_mcp.adapter.http.oauth.provider import RegisteredClient, redirect_uri_problem

__all__ = [
    "ClientDocuments",
    "DocumentRefused",
    "client_label",
    "document_url_problem",
    "is_document_client_id",
]

logger = logging.getLogger("odoo_mcp.http.oauth")

#: the largest document accepted (the draft suggests 5 KB)
MAX_DOCUMENT: Final = 5 * 1024
#: seconds a fetch may take in all: name resolution, connection, answer
FETCH_TIMEOUT: Final = 5.0
#: seconds a document is kept when its answer says nothing of caching, and at most
DEFAULT_TTL: Final = 300.0
MAX_TTL: Final = 24 * 3600.0
#: seconds a refusal is kept (a flood naming one URL fetches it once)
REFUSAL_TTL: Final = 30.0
#: documents (and refusals) kept at once; the oldest go first
CACHE_SIZE: Final = 512
#: fetches under way at once, whatever the URLs
CONCURRENT_FETCHES: Final = 8

_MAX_AGE = re.compile(r"(?:^|,)\s*max-age\s*=\s*\"?(\d+)\"?\s*(?:,|$)", re.IGNORECASE)
#: the methods that need a secret shared with the server: a document cannot hold one
_SECRET_METHODS: Final = frozenset(
    {"client_secret_basic", "client_secret_post", "client_secret_jwt"}
)

Resolver = Callable[[str, int], Awaitable[list[str]]]


class DocumentRefused(Exception):
    """Why a client ID metadata document was not accepted (shown on the refusal page)."""


def is_document_client_id(client_id: str) -> bool:
    """A client ID that names a metadata document: an https URL (a registered client's ID
    is a random token and never one)."""
    return client_id[:8].lower() == "https://"


def document_url_problem(client_id: str) -> str | None:
    """What makes a client ID unacceptable as a document URL (the draft's §3), if anything."""
    try:
        parts = urlsplit(client_id)
        port = parts.port
    except ValueError:
        return "the client ID does not parse as a URL"
    if parts.scheme != "https":
        return "the client ID must be an https URL"
    if not parts.hostname:
        return "the client ID has no host"
    if parts.username is not None or parts.password is not None:
        return "the client ID may not carry a user or password"
    if parts.fragment or "#" in client_id:
        return "the client ID may not have a fragment"
    if not parts.path or parts.path == "/":
        return "the client ID must have a path (the document's own)"
    if any(segment in (".", "..") for segment in parts.path.split("/")):
        return "the client ID may not have . or .. path segments"
    if port == 0:
        return "the client ID has port 0"
    return None


def client_label(client_id: str, client_name: str | None) -> str:
    """The consent line's name of a client: a document client's chosen name is its own
    word, so the host that vouches for it is named beside it."""
    name = (client_name or "").strip() or "An unnamed MCP client"
    if not is_document_client_id(client_id):
        return name
    return f"{name} (its metadata at {urlsplit(client_id).hostname})"


def public_address(address: str) -> bool:
    """An address on the public internet: no loopback, private, link-local, shared
    (100.64/10), reserved, documentation or multicast one; an IPv4-mapped IPv6 address is
    judged as its IPv4 one."""
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


async def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (an IP literal is its own)."""
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def ttl_of(cache_control: str | None) -> float:
    """Seconds a document may be kept, from its answer's ``Cache-Control``."""
    said = (cache_control or "").lower()
    if "no-store" in said or "no-cache" in said:
        return 0.0
    found = _MAX_AGE.search(said)
    if found is None:
        return DEFAULT_TTL
    return min(float(found.group(1)), MAX_TTL)


class ClientDocuments:
    """Fetches, checks and keeps client ID metadata documents.

    ``private_hosts``: hosts allowed to resolve to non-public addresses (an intranet client,
    a test); ``verify``: the TLS context (httpx2's default: the system's CAs, or
    ``SSL_CERT_FILE``); ``resolver`` and ``clock`` are for the tests."""

    def __init__(
        self,
        *,
        private_hosts: frozenset[str] = frozenset(),
        verify: ssl.SSLContext | None = None,
        resolver: Resolver = resolve,
        clock: Callable[[], float] = time.monotonic,
        timeout: float = FETCH_TIMEOUT,
    ) -> None:
        self.private_hosts = frozenset(host.lower().strip("[]") for host in private_hosts)
        self._verify = verify
        self._resolver = resolver
        self._clock = clock
        self._timeout = timeout
        self._kept: OrderedDict[str, tuple[float, RegisteredClient | str]] = OrderedDict()
        self._fetching: dict[str, asyncio.Future[RegisteredClient | str]] = {}
        self._slots = asyncio.Semaphore(CONCURRENT_FETCHES)

    def names(self, client_id: str) -> bool:
        """Whether ``client_id`` names a document (rather than a registered client)."""
        return is_document_client_id(client_id)

    def refusal(self, client_id: str) -> str | None:
        """Why the document of ``client_id`` was last refused, while that is remembered."""
        kept = self._kept.get(client_id)
        return kept[1] if kept is not None and isinstance(kept[1], str) else None

    async def client(self, client_id: str) -> RegisteredClient | None:
        """The client a document URL names, or None when its document is refused (the
        reason logged, and kept for ``refusal``)."""
        now = self._clock()
        kept = self._kept.get(client_id)
        if kept is not None and kept[0] > now:
            self._kept.move_to_end(client_id)
            return kept[1] if isinstance(kept[1], RegisteredClient) else None
        running = self._fetching.get(client_id)
        if running is None:
            running = asyncio.ensure_future(self._fetch_and_keep(client_id))
            self._fetching[client_id] = running
            running.add_done_callback(lambda _: self._fetching.pop(client_id, None))
        found = await asyncio.shield(running)
        return found if isinstance(found, RegisteredClient) else None

    async def _fetch_and_keep(self, client_id: str) -> RegisteredClient | str:
        found: RegisteredClient | str
        try:
            async with self._slots:
                client, ttl = await asyncio.wait_for(self._fetch(client_id), self._timeout)
            found = client
        except DocumentRefused as refused:
            found, ttl = str(refused), REFUSAL_TTL
        except TimeoutError:
            found, ttl = f"no answer within {self._timeout:g} seconds", REFUSAL_TTL
        if isinstance(found, str):
            logger.warning("OAuth client metadata document %s refused: %s", client_id, found)
        else:
            logger.info("OAuth client metadata document %s accepted", client_id)
        if ttl > 0:
            self._kept[client_id] = (self._clock() + ttl, found)
            self._kept.move_to_end(client_id)
            while len(self._kept) > CACHE_SIZE:
                self._kept.popitem(last=False)
        else:
            self._kept.pop(client_id, None)
        return found

    async def _fetch(self, client_id: str) -> tuple[RegisteredClient, float]:
        problem = document_url_problem(client_id)
        if problem is not None:
            raise DocumentRefused(problem)
        parts = urlsplit(client_id)
        host = parts.hostname or ""
        port = parts.port or 443
        try:
            addresses = await self._resolver(host, port)
        except OSError as exc:
            raise DocumentRefused(f"the host {host} does not resolve ({exc})") from None
        if not addresses:
            raise DocumentRefused(f"the host {host} does not resolve")
        if host.lower() not in self.private_hosts:
            private = [a for a in addresses if not public_address(a)]
            if private:
                # the address goes to the log only: the page is shown to anybody, and would
                # otherwise tell them where an inside name points
                logger.warning("OAuth client metadata host %s resolves to %s", host, private[0])
                raise DocumentRefused(
                    f"the host {host} resolves to a non-public address; an operator may "
                    "allow it in ODOO_MCP_OAUTH_CLIENT_DOCUMENT_HOSTS"
                )
        address = addresses[0]
        literal = f"[{address}]" if ":" in address else address
        pinned = urlunsplit(("https", f"{literal}:{port}", parts.path, parts.query, ""))
        headers = {"Host": parts.netloc, "Accept": "application/json"}
        body, cache_control = await self._download(pinned, headers, host)
        return _client_of(client_id, body), ttl_of(cache_control)

    async def _download(
        self, url: str, headers: dict[str, str], host: str
    ) -> tuple[bytes, str | None]:
        verify = self._verify if self._verify is not None else httpx2.create_ssl_context()
        try:
            async with (
                httpx2.AsyncClient(
                    verify=verify, trust_env=False, follow_redirects=False, timeout=self._timeout
                ) as web,
                web.stream(
                    "GET", url, headers=headers, extensions={"sni_hostname": host}
                ) as answer,
            ):
                if answer.status_code != 200:
                    moved = " (redirects are not followed)" if answer.is_redirect else ""
                    raise DocumentRefused(f"the document answered HTTP {answer.status_code}{moved}")
                kind = answer.headers.get("content-type", "").split(";")[0].strip().lower()
                if not (kind == "application/json" or re.fullmatch(r"application/\S+\+json", kind)):
                    raise DocumentRefused(f"the document is not JSON (Content-Type {kind!r})")
                length = answer.headers.get("content-length", "")
                if length.isdigit() and int(length) > MAX_DOCUMENT:
                    raise DocumentRefused(f"the document is over {MAX_DOCUMENT} bytes")
                body = bytearray()
                async for chunk in answer.aiter_bytes():
                    body += chunk
                    if len(body) > MAX_DOCUMENT:
                        raise DocumentRefused(f"the document is over {MAX_DOCUMENT} bytes")
                return bytes(body), answer.headers.get("cache-control")
        except httpx2.HTTPError as exc:
            raise DocumentRefused(f"the document could not be fetched ({_why(exc)})") from None


def _why(exc: BaseException) -> str:
    """A fetch failure in one line (the TLS verification error when there is one)."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, ssl.SSLCertVerificationError):
            return f"TLS: {cause.verify_message}"
        cause = cause.__cause__ or cause.__context__
    return str(exc) or type(exc).__name__


def _client_of(client_id: str, body: bytes) -> RegisteredClient:
    """The client a fetched document describes, once the draft's rules (§4.1) hold."""
    try:
        document: Any = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise DocumentRefused("the document is not valid JSON") from None
    if not isinstance(document, dict):
        raise DocumentRefused("the document is not a JSON object")
    if document.get("client_id") != client_id:
        raise DocumentRefused("the document's client_id is not its own URL")
    if "client_secret" in document or "client_secret_expires_at" in document:
        raise DocumentRefused("a metadata document may not hold a client secret")
    method = document.get("token_endpoint_auth_method", "none")
    if method in _SECRET_METHODS:
        raise DocumentRefused(f"token_endpoint_auth_method {method} needs a shared secret")
    if method != "none":
        raise DocumentRefused(f"token_endpoint_auth_method {method!r} is not supported (none)")
    uris = document.get("redirect_uris")
    if not isinstance(uris, list) or not uris or not all(isinstance(u, str) for u in uris):
        raise DocumentRefused("the document has no redirect_uris")
    for uri in uris:
        problem = redirect_uri_problem(uri)
        if problem is not None:
            raise DocumentRefused(problem)
    name = document.get("client_name")
    if name is not None and (not isinstance(name, str) or len(name) > 200):
        raise DocumentRefused("client_name must be text of at most 200 characters")
    grants = document.get("grant_types", ["authorization_code", "refresh_token"])
    if not isinstance(grants, list) or "authorization_code" not in grants:
        raise DocumentRefused("grant_types must include authorization_code")
    kept = {
        "client_id": client_id,
        "redirect_uris": uris,
        "client_name": name,
        "token_endpoint_auth_method": "none",
        "grant_types": [g for g in grants if g in ("authorization_code", "refresh_token")],
        "response_types": ["code"],
        "scope": document.get("scope") if isinstance(document.get("scope"), str) else None,
    }
    try:
        return RegisteredClient.model_validate(kept)
    except ValidationError as exc:
        raise DocumentRefused(
            f"the document's metadata is invalid: {exc.errors()[0]['msg']}"
        ) from None
