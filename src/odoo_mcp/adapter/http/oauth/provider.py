"""OAuth sign-in: the provider behind the SDK's authorization server handlers.

The SDK's handlers speak the protocol (metadata, registration, ``/authorize``, ``/token`` with
PKCE S256, revocation); this provider keeps what they decide on, sealed in the ``OAuthStore``:

* ``client:<id>`` a registered client (RFC 7591), its redirect URIs checked at registration;
* ``pending:<digest>`` an authorization waiting for its sign-in form, with the form's CSRF
  token (single use: the form's POST takes it);
* ``grant:<id>`` the Odoo login and secret a sign-in bound, with the user's uid and the
  client; deleting it ends every token of the grant at once;
* ``code:<digest>``, ``at:<digest>``, ``rt:<digest>`` the code, access and refresh tokens,
  each naming its grant and its audience (RFC 8707 ``resource``); ``used-code:`` and
  ``used-rt:`` remember spent ones, and a spent one presented again ends its grant (replay).

Tokens and codes are random (256 bits) and stored under a keyed digest, never in clear.
"""

from __future__ import annotations

import base64
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol
from urllib.parse import urlsplit

from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    OAuthAuthorizationServerProvider,
    RefreshToken,
    RegistrationError,
    TokenError,
    construct_redirect_uri,
)
from mcp.shared.auth import InvalidRedirectUriError, OAuthClientInformationFull, OAuthToken
from pydantic import AnyUrl, ValidationError

from odoo_mcp.adapter.http.oauth.crypto import Sealer
from odoo_mcp.adapter.http.oauth.store import OAuthStore

__all__ = [
    "ACCESS_PREFIX",
    "CODE_PREFIX",
    "REFRESH_PREFIX",
    "Grant",
    "GrantAccess",
    "GrantCode",
    "GrantRefresh",
    "Lifetimes",
    "OdooAuthorizationProvider",
    "Pending",
    "redirect_uri_problem",
    "same_resource",
]

logger = logging.getLogger("odoo_mcp.http.oauth")

ACCESS_PREFIX: Final = "odoo-mcp-at."
REFRESH_PREFIX: Final = "odoo-mcp-rt."
CODE_PREFIX: Final = "odoo-mcp-code."
#: Seconds a sign-in form stays valid.
PENDING_LIFETIME: Final = 600.0
#: Seconds a registered client is kept after it last got tokens (renewed at each exchange).
CLIENT_LIFETIME: Final = 365 * 24 * 3600.0
#: RFC 7636 §4.2: an S256 challenge is 43 base64url characters.
_CHALLENGE = re.compile(r"[A-Za-z0-9_-]{43}")
#: Schemes a redirect URI may never have (they run or show content instead of redirecting).
_FORBIDDEN_SCHEMES: Final = frozenset({"javascript", "data", "file", "vbscript", "blob", "about"})
_LOOPBACK: Final = frozenset({"127.0.0.1", "localhost", "::1"})

Check = Callable[["Grant"], Awaitable[bool]]


@dataclass(frozen=True, slots=True)
class Lifetimes:
    """Seconds each kind of token lives."""

    access: float = 600.0
    refresh: float = 30 * 24 * 3600.0
    code: float = 60.0


@dataclass(frozen=True, slots=True)
class Grant:
    """One sign-in: the Odoo user and credential it is bound to, for one client."""

    id: str
    client_id: str
    uid: int
    login: str
    secret: str
    resource: str
    scopes: list[str]

    def __repr__(self) -> str:  # never the secret, in a log or a traceback
        return f"Grant(id={self.id!r}, client_id={self.client_id!r}, uid={self.uid})"


@dataclass(frozen=True, slots=True)
class Pending:
    """An authorization request waiting for its sign-in form."""

    id: str
    client_id: str
    redirect_uri: str
    explicit: bool
    state: str | None
    code_challenge: str
    scopes: list[str]
    resource: str
    csrf: str


class GrantCode(AuthorizationCode):
    """An authorization code, with its grant."""

    grant: str


class GrantRefresh(RefreshToken):
    """A refresh token, with its grant."""

    grant: str


class GrantAccess(AccessToken):
    """An access token, with its grant."""

    grant: str


def same_resource(given: str | None, resource: str) -> bool:
    """RFC 8707: the same URL, case of scheme and host and a trailing slash aside."""
    if not given:
        return False
    try:
        a, b = urlsplit(given), urlsplit(resource)
    except ValueError:
        return False
    return (
        a.scheme.lower() == b.scheme.lower()
        and a.netloc.lower() == b.netloc.lower()
        and a.path.rstrip("/") == b.path.rstrip("/")
        and a.query == b.query
        and not a.fragment
    )


def redirect_uri_problem(uri: str) -> str | None:
    """What makes a redirect URI unacceptable at registration, if anything: https, http only
    to this machine (RFC 8252 §7.3), a private-use scheme for a native app (§7.1); never a
    fragment (RFC 6749 §3.1.2) nor a scheme that runs or shows content."""
    try:
        parts = urlsplit(uri)
    except ValueError:
        return f"{uri!r} does not parse"
    scheme = parts.scheme.lower()
    if not scheme:
        return f"{uri!r} is not an absolute URI"
    if parts.fragment or "#" in uri:
        return f"{uri!r} has a fragment"
    if scheme in _FORBIDDEN_SCHEMES:
        return f"{uri!r}: the {scheme} scheme is not a redirect"
    if scheme == "http" and (parts.hostname or "") not in _LOOPBACK:
        return f"{uri!r}: plain http is accepted only to this machine (127.0.0.1, localhost)"
    if scheme in ("http", "https") and not parts.hostname:
        return f"{uri!r} has no host"
    if parts.username or parts.password:
        return f"{uri!r} carries credentials"
    return None


#: the loopback IP literals whose redirect URIs match on any port (RFC 8252 §7.3)
_LOOPBACK_IPS: Final = frozenset({"127.0.0.1", "::1"})


def _without_loopback_port(uri: str) -> tuple[str, str, str, str] | None:
    """An ``http`` loopback IP redirect URI minus its port, for comparison; None for others."""
    try:
        parts = urlsplit(uri)
    except ValueError:
        return None
    if parts.scheme.lower() != "http" or (parts.hostname or "") not in _LOOPBACK_IPS:
        return None
    return parts.hostname or "", parts.path or "/", parts.query, parts.fragment


class RegisteredClient(OAuthClientInformationFull):
    """A registered client whose loopback redirect URIs take any port at authorization.

    RFC 8252 §7.3 (and OAuth 2.1 §8.4.2): a native app listens on a port the operating
    system gives it at each sign-in, so the authorization server must allow any port of a
    registered ``http://127.0.0.1`` or ``http://[::1]`` URI; scheme, address, path and query
    still match exactly. The SDK's own check compares whole URIs, and the MCP Inspector,
    which registers once and then listens on another port, was refused. ``localhost`` is
    not an IP literal and keeps the exact match."""

    def validate_redirect_uri(self, redirect_uri: AnyUrl | None) -> AnyUrl:
        try:
            return super().validate_redirect_uri(redirect_uri)
        except InvalidRedirectUriError:
            asked = _without_loopback_port(str(redirect_uri)) if redirect_uri else None
            registered = {_without_loopback_port(str(uri)) for uri in self.redirect_uris or ()}
            if redirect_uri is not None and asked is not None and asked in registered:
                return redirect_uri
            raise


def _new(prefix: str = "") -> str:
    return prefix + secrets.token_urlsafe(32)


class ClientLookup(Protocol):
    """Clients that name themselves by a URL (``documents.ClientDocuments``)."""

    def names(self, client_id: str) -> bool:
        """Whether ``client_id`` is one of this lookup's (not a registered client's)."""
        ...

    async def client(self, client_id: str) -> OAuthClientInformationFull | None:
        """The client ``client_id`` names, or None."""
        ...


class OdooAuthorizationProvider(
    OAuthAuthorizationServerProvider[GrantCode, GrantRefresh, GrantAccess]
):
    """The OAuth provider of the sign-in with the user's own Odoo identity.

    ``check`` asks Odoo whether a grant's credential still holds (at each refresh): False ends
    the grant; ``clock`` is for the tests (expiry without sleeping)."""

    def __init__(
        self,
        store: OAuthStore,
        sealer: Sealer,
        *,
        issuer: str,
        resource: str,
        lifetimes: Lifetimes | None = None,
        clock: Callable[[], float] = time.time,
        check: Check | None = None,
        documents: ClientLookup | None = None,
    ) -> None:
        self.store = store
        self.documents = documents
        self.sealer = sealer
        self.issuer = issuer.rstrip("/")
        self.resource = resource
        self.lifetimes = lifetimes or Lifetimes()
        self.clock = clock
        self.check = check

    # -- sealed records -------------------------------------------------------------------
    async def _put(self, name: str, record: dict[str, Any], ttl: float) -> None:
        await self.store.put(name, self.sealer.seal(name, record), ttl)

    async def _get(self, name: str) -> dict[str, Any] | None:
        return self.sealer.open(name, await self.store.get(name))

    async def _take(self, name: str) -> dict[str, Any] | None:
        return self.sealer.open(name, await self.store.take(name))

    def _key(self, kind: str, token: str) -> str:
        return f"{kind}:{self.sealer.digest(token)}"

    # -- clients (RFC 7591) ---------------------------------------------------------------
    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        """A registered client, or the client a metadata document URL names (when documents
        are on), or None (never an error: the SDK answers for it)."""
        if self.documents is not None and self.documents.names(client_id):
            return await self.documents.client(client_id)
        record = await self._get(self._key("client", client_id))
        if record is None:
            return None
        try:
            return RegisteredClient.model_validate(record)
        except ValidationError:
            return None

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        """RFC 7591: kept once each redirect URI is acceptable (``redirect_uri_problem``)."""
        uris = [str(uri) for uri in client_info.redirect_uris or ()]
        if not uris:
            raise RegistrationError("invalid_redirect_uri", "redirect_uris is required")
        for uri in uris:
            problem = redirect_uri_problem(uri)
            if problem is not None:
                raise RegistrationError("invalid_redirect_uri", problem)
        name = (client_info.client_name or "").strip()
        if len(name) > 200:
            raise RegistrationError("invalid_client_metadata", "client_name is too long")
        assert client_info.client_id is not None  # the SDK's handler sets it
        record = client_info.model_dump(mode="json")
        await self._put(self._key("client", client_info.client_id), record, CLIENT_LIFETIME)
        logger.info("OAuth client registered: %s (%s)", name or "unnamed", client_info.client_id)

    # -- authorization ----------------------------------------------------------------------
    async def authorize(
        self, client: OAuthClientInformationFull, params: AuthorizationParams
    ) -> str:
        """The sign-in form's URL for this request: the request waits there (10 minutes).

        RFC 8707: a ``resource`` other than this server's is refused (``invalid_target``);
        none means this server. PKCE: the S256 challenge must have its 43 characters."""
        if params.resource is not None and not same_resource(params.resource, self.resource):
            raise AuthorizeError("invalid_target", f"this server is the resource {self.resource}")
        if not _CHALLENGE.fullmatch(params.code_challenge):
            raise AuthorizeError("invalid_request", "code_challenge must be an S256 challenge")
        assert client.client_id is not None
        pending = Pending(
            id=_new(),
            client_id=client.client_id,
            redirect_uri=str(params.redirect_uri),
            explicit=params.redirect_uri_provided_explicitly,
            state=params.state,
            code_challenge=params.code_challenge,
            scopes=list(params.scopes or []),
            resource=self.resource,
            csrf=_new(),
        )
        await self.save_pending(pending)
        return f"{self.issuer}/oauth/signin?request={pending.id}"

    async def save_pending(self, pending: Pending) -> None:
        """Keep an authorization waiting for its form."""
        record = {k: getattr(pending, k) for k in Pending.__slots__ if k != "id"}
        await self._put(self._key("pending", pending.id), record, PENDING_LIFETIME)

    async def pending(self, request_id: str, *, take: bool = False) -> Pending | None:
        """The waiting authorization (``take``: consumed, so that its form is single use)."""
        key = self._key("pending", request_id)
        record = await (self._take(key) if take else self._get(key))
        if record is None:
            return None
        return Pending(id=request_id, **record)

    async def renew_pending(self, pending: Pending) -> Pending:
        """The same authorization under a new id and CSRF token (a form shown again)."""
        fresh = Pending(
            **{
                **{k: getattr(pending, k) for k in Pending.__slots__},
                "id": _new(),
                "csrf": _new(),
            }
        )
        await self.save_pending(fresh)
        return fresh

    async def approve(self, pending: Pending, *, uid: int, login: str, secret: str) -> str:
        """After a sign-in Odoo accepted: the grant, its code, and the client's redirect."""
        grant_id = secrets.token_urlsafe(16)
        grant = {
            "client_id": pending.client_id,
            "uid": uid,
            "login": login,
            "secret": secret,
            "resource": pending.resource,
            "scopes": pending.scopes,
        }
        # a grant whose code is never exchanged goes with the code
        await self._put(f"grant:{grant_id}", grant, self.lifetimes.code + 5)
        code = _new(CODE_PREFIX)
        record = {
            "grant": grant_id,
            "client_id": pending.client_id,
            "redirect_uri": pending.redirect_uri,
            "explicit": pending.explicit,
            "code_challenge": pending.code_challenge,
            "scopes": pending.scopes,
            "resource": pending.resource,
            "expires_at": self.clock() + self.lifetimes.code,
        }
        await self._put(self._key("code", code), record, self.lifetimes.code)
        logger.info("OAuth sign-in of Odoo uid %s for client %s", uid, pending.client_id)
        return construct_redirect_uri(pending.redirect_uri, code=code, state=pending.state)

    # -- grants -----------------------------------------------------------------------------
    async def grant(self, grant_id: str) -> Grant | None:
        """The grant, while it lives."""
        record = await self._get(f"grant:{grant_id}")
        if record is None:
            return None
        return Grant(id=grant_id, **record)

    async def end_grant(self, grant_id: str, why: str) -> None:
        """Every token of the grant refused from now on, on every replica."""
        await self.store.delete(f"grant:{grant_id}")
        logger.info("OAuth grant ended (%s)", why)

    async def _extend(self, grant: Grant) -> None:
        record = {k: getattr(grant, k) for k in Grant.__slots__ if k != "id"}
        await self._put(f"grant:{grant.id}", record, self.lifetimes.refresh)

    async def _issue(self, grant: Grant, scopes: list[str]) -> OAuthToken:
        key = self._key("client", grant.client_id)
        client = await self._get(key)
        if client is not None:  # a client in use stays registered
            await self._put(key, client, CLIENT_LIFETIME)
        now = self.clock()
        access, refresh = _new(ACCESS_PREFIX), _new(REFRESH_PREFIX)
        common = {"grant": grant.id, "client_id": grant.client_id, "scopes": scopes}
        common["resource"] = grant.resource
        await self._put(
            self._key("at", access),
            {**common, "expires_at": now + self.lifetimes.access},
            self.lifetimes.access,
        )
        await self._put(
            self._key("rt", refresh),
            {**common, "expires_at": now + self.lifetimes.refresh},
            self.lifetimes.refresh,
        )
        return OAuthToken(
            access_token=access,
            token_type="Bearer",
            expires_in=int(self.lifetimes.access),
            refresh_token=refresh,
            scope=" ".join(scopes) or None,
        )

    # -- codes ------------------------------------------------------------------------------
    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> GrantCode | None:
        """The code, unless expired or spent; a spent code presented again ends its grant
        (RFC 6749 §4.1.2: the tokens it gave are revoked)."""
        key = self._key("code", authorization_code)
        record = await self._get(key)
        if record is None:
            spent = await self._get(self._key("used-code", authorization_code))
            if spent is not None:
                await self.end_grant(str(spent["grant"]), "an authorization code was replayed")
            return None
        if float(record["expires_at"]) <= self.clock():
            return None
        return GrantCode(
            code=authorization_code,
            scopes=list(record["scopes"]),
            expires_at=float(record["expires_at"]),
            client_id=str(record["client_id"]),
            code_challenge=str(record["code_challenge"]),
            redirect_uri=AnyUrl(str(record["redirect_uri"])),
            redirect_uri_provided_explicitly=bool(record["explicit"]),
            resource=str(record["resource"]),
            grant=str(record["grant"]),
        )

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: GrantCode
    ) -> OAuthToken:
        """The first tokens of the grant; the code is spent (taken: one exchange only)."""
        code = authorization_code.code
        if await self.store.take(self._key("code", code)) is None:
            raise TokenError("invalid_grant", "authorization code was already used")
        await self._put(
            self._key("used-code", code),
            {"grant": authorization_code.grant},
            self.lifetimes.refresh,
        )
        grant = await self.grant(authorization_code.grant)
        if grant is None or grant.client_id != client.client_id:
            raise TokenError("invalid_grant", "the sign-in of this code has ended")
        await self._extend(grant)
        return await self._issue(grant, authorization_code.scopes)

    # -- refresh tokens ---------------------------------------------------------------------
    async def load_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: str
    ) -> GrantRefresh | None:
        """The refresh token, unless expired, spent or of an ended grant; a spent one
        presented again ends its grant (OAuth 2.1 §4.3.1: refresh token reuse)."""
        if not refresh_token.startswith(REFRESH_PREFIX):
            return None
        record = await self._get(self._key("rt", refresh_token))
        if record is None:
            spent = await self._get(self._key("used-rt", refresh_token))
            if spent is not None:
                await self.end_grant(str(spent["grant"]), "a used refresh token was presented")
            return None
        if float(record["expires_at"]) <= self.clock():
            return None
        if await self.grant(str(record["grant"])) is None:
            return None
        return GrantRefresh(
            token=refresh_token,
            client_id=str(record["client_id"]),
            scopes=list(record["scopes"]),
            expires_at=int(record["expires_at"]),
            resource=str(record["resource"]),
            grant=str(record["grant"]),
        )

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: GrantRefresh, scopes: list[str]
    ) -> OAuthToken:
        """Rotation: new access and refresh tokens, the presented one spent. The grant's
        credential is checked with Odoo first: refused, the grant ends (``invalid_grant``)."""
        grant = await self.grant(refresh_token.grant)
        if grant is None:
            raise TokenError("invalid_grant", "the sign-in of this token has ended")
        if self.check is not None and not await self.check(grant):
            await self.end_grant(grant.id, f"Odoo refused the credential of uid {grant.uid}")
            raise TokenError(
                "invalid_grant",
                "Odoo refused the credential of this sign-in (changed password or revoked "
                "key): sign in again",
            )
        token = refresh_token.token
        if await self.store.take(self._key("rt", token)) is None:
            raise TokenError("invalid_grant", "refresh token was already used")
        await self._put(self._key("used-rt", token), {"grant": grant.id}, self.lifetimes.refresh)
        await self._extend(grant)
        return await self._issue(grant, scopes)

    # -- access tokens ----------------------------------------------------------------------
    async def load_access_token(self, token: str) -> GrantAccess | None:
        """The access token, unless expired or of an ended grant."""
        if not token.startswith(ACCESS_PREFIX):
            return None
        record = await self._get(self._key("at", token))
        if record is None or float(record["expires_at"]) <= self.clock():
            return None
        grant = await self.grant(str(record["grant"]))
        if grant is None:
            return None
        return GrantAccess(
            token=token,
            client_id=str(record["client_id"]),
            scopes=list(record["scopes"]),
            expires_at=int(record["expires_at"]),
            resource=str(record["resource"]),
            subject=str(grant.uid),
            grant=grant.id,
        )

    async def revoke_token(self, token: GrantAccess | GrantRefresh) -> None:
        """RFC 7009: revoking either token ends the whole grant (both tokens, every replica)."""
        await self.end_grant(token.grant, "revoked by its client")


def challenge_of(verifier: str) -> str:
    """RFC 7636 S256 (for tests and documentation)."""
    import hashlib

    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")
