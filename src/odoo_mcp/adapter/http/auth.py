"""REQ-HTTP-13/14/16/18: per-caller Bearer authentication on the MCP endpoint.

``Authorization: Bearer <token>``, where the token is the caller's own Odoo API key, or
``login:apikey`` for the Odoo versions and protocols that need the login to authenticate
(XML-RPC and JSON-RPC, Odoo 14-18; JSON-2 resolves the user from the key alone). Each distinct
token gets its own authenticated :class:`ConnectionManager`, created on first use and reused;
it shares the server's :class:`~odoo_mcp.connection.endpoint.OdooEndpoint` (HTTP pool and
negotiated version), so a new token costs Odoo exactly one call, its authentication, and no
request after that costs one; the request then runs as that user (``odoo_mcp.callers``).

Decisions (spec/decisions.md, decision 29):

* every request to the MCP endpoint needs a valid token, not only ``tools/call``: a client
  that speaks Bearer sends it on every request anyway, and an unauthenticated client learns
  at ``initialize`` that it must, instead of after its discovery requests;
* 401 with ``WWW-Authenticate: Bearer`` for a missing or refused token, before anything reaches
  the MCP layer; a refused token is refused again for a minute without asking Odoo. When
  Odoo cannot be reached to check a token the server has not verified, the request is
  answered 503 with ``Retry-After`` and reaches nothing (issue 26: an unverified token read
  the safety configuration, the system information and prompts); a token verified earlier
  and still kept goes on working;
* a session belongs to the Odoo user whose request created it; a request on that session
  with another user's token is refused with 403 and reaches nothing;
* each new token costs Odoo an authentication, so failed authentications are limited per
  client address (the ASGI peer: the proxy's own address, unless it is one of
  ``trusted_proxies``, whose ``X-Forwarded-For`` then names the client; issue 37): past
  ``MAX_FAILED_AUTH`` in ``FAILED_AUTH_WINDOW`` seconds, a token the server does not know
  is answered 429 with ``Retry-After`` by the server alone.
  Tokens already authenticated keep working from that address.

Issue 19 / decision 37: refused tokens, failing addresses and session owners live in the
shared state (``odoo_mcp.state``: this process's memory, or Redis for several replicas); when
it cannot be asked, a request that needs it is answered 503 ``temporarily_unavailable``.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final, Protocol

import anyio
from pydantic import SecretStr

from odoo_mcp.callers import Caller, acting_as
from odoo_mcp.connection import ConnectionManager, OdooError
from odoo_mcp.connection.endpoint import OdooEndpoint
from odoo_mcp.connection.errors import OdooConnectionError
from odoo_mcp.connection.settings import ConnectionSettings
from odoo_mcp.state import FailureLimits, MemoryState, Refusal, SharedState, StateUnavailable

__all__ = [
    "BearerAuth",
    "CallerConnections",
    "CallerRefused",
    "FailedAuthentications",
    "OAuthTokens",
]

logger = logging.getLogger("odoo_mcp.http.auth")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Distinct tokens kept connected at once; the least recently used one is closed beyond that.
MAX_CALLERS: Final = 256
#: Seconds a token Odoo refused is refused again without asking Odoo (a client retrying a
#: revoked key, or someone guessing keys, costs Odoo one call per token and period).
REFUSAL_MEMORY: Final = 60.0
#: Failed authentications a client address may cost Odoo per window, then 429 until it slides.
MAX_FAILED_AUTH: Final = 10
FAILED_AUTH_WINDOW: Final = 60.0
#: Seconds a client is told to wait when Odoo cannot be reached to check its token.
ODOO_DOWN_RETRY_AFTER: Final = 5
#: what a request whose authentication needs the shared state gets when it cannot be asked
_STATE_DOWN: Final = (503, "temporarily_unavailable", "The server's shared state cannot be reached")


class CallerRefused(Exception):
    """The token is missing, malformed or refused by Odoo (401), or Odoo is unreachable (503)."""

    def __init__(
        self, status: int, error: str, description: str, *, retry_after: int | None = None
    ) -> None:
        super().__init__(description)
        self.status = status
        self.error = error
        self.description = description
        self.retry_after = retry_after


class FailedAuthentications:
    """Decision 29: failed authentications per client address, in a sliding window of the
    shared state (issue 19: the same limit whichever replica is asked)."""

    def __init__(
        self,
        state: SharedState,
        *,
        max_failures: int = MAX_FAILED_AUTH,
        window: float = FAILED_AUTH_WINDOW,
    ) -> None:
        self._state = state
        self._limits = FailureLimits(max_failures, window)

    async def begin(self, address: str | None) -> None:
        """An authentication from ``address`` is about to cost Odoo a call: ``CallerRefused``
        429 if the address is over its limit, else it counts as failed until it succeeds
        (so concurrent attempts cannot overrun the limit)."""
        if address is None:
            return
        wait = await self._state.begin_authentication(address, self._limits)
        if wait is not None:
            raise CallerRefused(
                429,
                "too_many_failed_authentications",
                f"Too many refused tokens from this address: retry in {wait} s",
                retry_after=wait,
            )

    async def succeeded(self, address: str | None) -> None:
        """The authentication begun from ``address`` was accepted (or Odoo was unreachable)."""
        if address is not None:
            await self._state.authentication_succeeded(address)


def _login_digest(login: str, secret: str) -> str:
    """The connection map's key of a login and secret: never a token's (a NUL separates)."""
    return hashlib.sha256(b"login\0" + login.encode() + b"\0" + secret.encode()).hexdigest()


def _login_settings(settings: ConnectionSettings, login: str, secret: str) -> ConnectionSettings:
    """A login with its password or API key: tried as a key first, then as a password (the
    connection layer's own order), so a sign-in form takes either."""
    value = SecretStr(secret)
    return settings.model_copy(update={"username": login, "password": value, "api_key": value})


def _split_token(token: str) -> tuple[str | None, str]:
    """``login:apikey`` or a bare key. Odoo keys are hex, so a colon marks a login."""
    login, sep, key = token.rpartition(":")
    return (login, key) if sep and login else (None, token)


class CallerConnections:
    """REQ-HTTP-13/15: one authenticated Odoo connection per caller token."""

    def __init__(
        self,
        settings: ConnectionSettings,
        *,
        endpoint: OdooEndpoint | None = None,
        backoff: tuple[float, ...] = (),
        max_callers: int = MAX_CALLERS,
        connect: Callable[[ConnectionSettings], ConnectionManager] | None = None,
        state: SharedState | None = None,
        failures: FailedAuthentications | None = None,
    ) -> None:
        self._settings = settings
        self._endpoint = endpoint
        #: issue 19: refused tokens and failing addresses, shared by the replicas
        self.state: SharedState = MemoryState() if state is None else state
        self._failed = failures or FailedAuthentications(self.state)
        self._backoff = backoff
        self._max = max_callers
        self._connect = connect or self._new_manager
        self._callers: OrderedDict[str, Caller] = OrderedDict()
        self._locks: dict[str, anyio.Lock] = {}

    def _new_manager(self, settings: ConnectionSettings) -> ConnectionManager:
        """REQ-HTTP-13: the caller's connection, on the server's endpoint when given."""
        return ConnectionManager(settings, endpoint=self._endpoint, backoff=self._backoff)

    async def resolve(self, token: str, address: str | None = None) -> Caller:
        """REQ-HTTP-13: the caller's connection, authenticated; ``CallerRefused`` when it
        cannot be (a malformed token is 401 without an Odoo call).

        ``address`` is the client's: a token the server does not know yet is not sent to Odoo
        from an address over its failed-authentication limit (429). ``StateUnavailable`` when
        a new token needs the shared state and it cannot be asked (decision 37)."""
        token = token.strip()
        if not token:
            raise CallerRefused(401, "invalid_request", "Authorization: Bearer <token> is empty")
        if not (token.isascii() and token.isprintable()):
            # issue 26: no API key has such bytes, and httpx cannot put them in a header (500)
            raise CallerRefused(
                401, "invalid_token", "The Bearer token is not an Odoo API key (printable ASCII)"
            )
        # the map is keyed by a digest: no API key stays in memory as a dict key
        digest = hashlib.sha256(token.encode("utf-8")).hexdigest()
        login, key = _split_token(token)
        return await self._resolve(digest, login, key, address)

    async def resolve_login(self, login: str, secret: str, address: str | None = None) -> Caller:
        """REQ-HTTP-13: the connection of an Odoo login and its password or API key (the OAuth
        sign-in's credential), authenticated as ``resolve`` does a token, with the same
        connection reuse, refusal memory and failed-authentication limit per ``address``. Unlike a
        token, the secret may hold any character (a colon in a password)."""
        if not login or not secret:
            raise CallerRefused(401, "invalid_request", "The login and the password are required")
        digest = _login_digest(login, secret)
        return await self._resolve(digest, login, secret, address, password=True)

    async def check_login(self, login: str, secret: str) -> bool:
        """Whether Odoo still accepts a login and secret, asked now (a fresh authentication,
        not a kept connection); False also forgets the kept connection. Odoo unreachable is
        not a refusal (True)."""
        manager = self._connect(_login_settings(self._settings, login, secret))
        try:
            await manager.connect()
        except OdooConnectionError:
            return True
        except OdooError:
            found = self._callers.pop(_login_digest(login, secret), None)
            if found is not None:
                await found.connection.close()
            return False
        finally:
            await manager.close()
        return True

    async def _resolve(
        self,
        digest: str,
        login: str | None,
        key: str,
        address: str | None,
        *,
        password: bool = False,
    ) -> Caller:
        found = self._callers.get(digest)
        if found is not None:
            self._callers.move_to_end(digest)
            return found
        await self._recall_refusal(digest)
        # one authentication per token at a time; the lock goes once it is settled, either
        # way (refused tokens must not pile up locks)
        lock = self._locks.setdefault(digest, anyio.Lock())
        try:
            async with lock:
                found = self._callers.get(digest)
                if found is None:
                    manager = await self._authenticate(login, key, digest, address, password)
                    found = Caller(manager, manager.uid)
                    self._callers[digest] = found
                    await self._evict()
        finally:
            self._locks.pop(digest, None)
        return found

    def _manager_for(self, login: str | None, key: str, password: bool) -> ConnectionManager:
        """A not yet connected manager for a login (if any) and its key (or password)."""
        if password and login:
            return self._connect(_login_settings(self._settings, login, key))
        settings = self._settings.model_copy(
            update={"username": login, "password": None, "api_key": SecretStr(key)}
        )
        return self._connect(settings)

    async def _recall_refusal(self, digest: str) -> None:
        """A token Odoo refused a moment ago is refused again without an Odoo call."""
        refusal = await self.state.recall_refusal(digest)
        if refusal is not None:
            raise CallerRefused(refusal.status, refusal.error, refusal.description)

    async def _authenticate(
        self, login: str | None, key: str, digest: str, address: str | None, password: bool
    ) -> ConnectionManager:
        await self._failed.begin(address)
        manager = self._manager_for(login, key, password)
        try:
            await manager.connect()
        except OdooConnectionError as exc:
            await manager.close()
            await self._failed.succeeded(address)  # not the token's fault
            logger.warning("Odoo cannot be reached to check a bearer token: %s", exc)
            raise CallerRefused(
                503,
                "temporarily_unavailable",
                # a fixed sentence: the reason (Odoo's address, its error) is for the log,
                # not for a client nobody has authenticated yet
                "Odoo cannot be reached to check the token; retry later",
                retry_after=ODOO_DOWN_RETRY_AFTER,
            ) from None
        except OdooError as exc:
            await manager.close()
            hint = "" if login else " (this Odoo may need the login too: Bearer login:apikey)"
            logger.warning("authentication refused for a bearer token of %s", login or "a key")
            # the connection layer's message already says who refused what ("Odoo refused
            # the API key: Invalid apikey"): say it once
            said = (
                exc.message
                if "refused" in exc.message.lower()
                else f"Odoo refused the API key: {exc.message}"
            )
            refusal = Refusal(401, "invalid_token", f"{said}{hint}")
            await self.state.remember_refusal(digest, refusal, REFUSAL_MEMORY)
            raise CallerRefused(refusal.status, refusal.error, refusal.description) from None
        try:
            await self._failed.succeeded(address)
        except StateUnavailable:  # decision 37: refused (503); the connection is not kept
            await manager.close()
            raise
        # issue friction: a success is not a warning
        logger.info("authenticated Odoo uid %s (%s)", manager.uid, login or "API key")
        return manager

    async def _evict(self) -> None:
        while len(self._callers) > self._max:
            _, oldest = self._callers.popitem(last=False)
            await oldest.connection.close()

    async def close(self) -> None:
        """Close every caller connection (server shutdown)."""
        while self._callers:
            _, caller = self._callers.popitem()
            await caller.connection.close()


def _session_refusal(owner: int | None, uid: int | None) -> tuple[int, str, str] | None:
    """REQ-HTTP-14: a session owned by another (verified) user is not this caller's."""
    if owner is None or owner == uid:
        return None
    logger.warning("uid %s refused on a session of uid %s", uid, owner)
    if uid is None:  # the token could not be checked: it may or may not be the owner's
        return 503, "temporarily_unavailable", "Odoo cannot be reached to check the token"
    return (
        403,
        "insufficient_scope",
        ("This MCP session belongs to another Odoo user: start a session of your own"),
    )


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


async def _refuse(
    send: Send,
    status: int,
    error: str,
    description: str,
    retry_after: int | None = None,
    *,
    resource_metadata: str | None = None,
) -> None:
    """401/403/429/503 with the OAuth-style body the MCP SDK's own Bearer check answers; with
    OAuth on, a 401's challenge names the protected resource metadata (RFC 9728 §5.1)."""
    body = json.dumps({"error": error, "error_description": description}).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    if status == 401:
        # a quoted-string header parameter: no quotes, backslashes or line breaks inside
        said = " ".join(description.replace('"', "'").replace("\\", "/").split())
        challenge = f'Bearer error="{error}", error_description="{said}"'
        if resource_metadata is not None:
            challenge += f', resource_metadata="{resource_metadata}"'
        headers.append((b"www-authenticate", challenge.encode("latin-1", "replace")))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class OAuthTokens(Protocol):
    """What the OAuth sign-in (``odoo_mcp.adapter.http.oauth``) gives the Bearer check."""

    #: how its access tokens begin (no Odoo API key does)
    prefix: str
    #: the protected resource metadata URL, for the 401 challenge (RFC 9728)
    resource_metadata: str

    async def caller(self, token: str) -> Caller:
        """The access token's Odoo connection, as its grant's user; ``CallerRefused``."""
        ...


class BearerAuth:
    """REQ-HTTP-13/14/18: an ASGI middleware in front of the MCP endpoint (not ``/health``).

    With ``oauth``, an OAuth access token is accepted beside an Odoo API key: it runs as the
    Odoo user its sign-in bound, through the same per-caller connections."""

    def __init__(
        self,
        app: ASGIApp,
        callers: CallerConnections,
        *,
        mcp_path: str,
        oauth: OAuthTokens | None = None,
    ) -> None:
        self.app = app
        self.callers = callers
        self.mcp_path = mcp_path.rstrip("/") or "/"
        #: issue 19: which uid owns which Mcp-Session-Id, in the state the replicas share
        self.state = callers.state
        self.oauth = oauth
        self._metadata = oauth.resource_metadata if oauth is not None else None

    async def _refuse(
        self, send: Send, status: int, error: str, description: str, retry: int | None = None
    ) -> None:
        await _refuse(send, status, error, description, retry, resource_metadata=self._metadata)

    async def _resolve(self, token: str, address: str | None) -> Caller:
        """REQ-HTTP-13: an OAuth access token through its grant, else an Odoo API key."""
        if self.oauth is not None and token.strip().startswith(self.oauth.prefix):
            return await self.oauth.caller(token.strip())
        return await self.callers.resolve(token, address)

    def _protects(self, scope: Scope) -> bool:
        path = str(scope.get("path", "")).rstrip("/") or "/"
        return scope.get("type") == "http" and path == self.mcp_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """REQ-HTTP-13: only a token Odoo verified (now, or earlier and still kept) reaches the
        endpoint; missing, malformed or refused is 401, unverifiable (Odoo down) is 503."""
        if not self._protects(scope):
            await self.app(scope, receive, send)
            return
        authorization = _header(scope, b"authorization") or ""
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            said = "Authentication required: send Authorization: Bearer <your Odoo API key>"
            if self.oauth is not None:
                said += " or sign in with OAuth"
            await self._refuse(send, 401, "invalid_token", said)
            return
        client = scope.get("client")
        address = str(client[0]) if client else None
        try:
            caller = await self._resolve(token, address)
        except StateUnavailable:  # decision 37: never admitted unchecked
            await self._refuse(send, *_STATE_DOWN)
            return
        except CallerRefused as refused:
            # 503 included (Odoo unreachable): a token nobody verified never gets in
            await self._refuse(
                send, refused.status, refused.error, refused.description, refused.retry_after
            )
            return
        session = _header(scope, b"mcp-session-id")
        owner: int | None = None
        try:
            # one state read a request: the owner, its expiry renewed (state.owner)
            owner = await self.state.owner(session) if session is not None else None
            refusal = _session_refusal(owner, caller.uid)
        except StateUnavailable:
            refusal = _STATE_DOWN
        if refusal is not None:
            await self._refuse(send, *refusal)
            return
        with acting_as(caller):  # REQ-HTTP-15: the one place a caller is set
            binding = self._binding(scope, send, caller.uid, owned=owner is not None)
            await self.app(scope, receive, binding)

    def _binding(self, scope: Scope, send: Send, uid: int | None, *, owned: bool) -> Send:
        """REQ-HTTP-14: the session a response creates belongs to the requesting user.

        ``owned``: the requested session already has its verified owner (this caller, or the
        request was refused): its responses need no binding, so a request on a session costs
        the state one read, not a read and a write (issue 17).

        Decision 37: when the owner cannot be recorded (or forgotten), the response becomes a
        503 and the app's own is dropped: a session whose owner is unknown is never handed out.
        """
        method = scope.get("method")
        requested = _header(scope, b"mcp-session-id")
        replaced = False

        async def bind(message: Message) -> None:
            nonlocal replaced
            if replaced:
                return
            if message.get("type") == "http.response.start":
                try:
                    await self._record(message, method, requested, uid, owned=owned)
                except StateUnavailable:
                    replaced = True
                    await _refuse(send, *_STATE_DOWN)
                    return
            await send(message)

        return bind

    async def _record(
        self,
        start: Message,
        method: object,
        requested: str | None,
        uid: int | None,
        *,
        owned: bool,
    ) -> None:
        """REQ-HTTP-14: a DELETE forgets its session's owner, a created session gets one;
        REQ-11-20: a deleted session's rate-limit counters go with it."""
        if method == "DELETE" and requested is not None and int(start.get("status", 0)) < 300:
            await self.state.forget_owner(requested)
            await self.state.forget(requested)
        for key, value in start.get("headers", ()):
            if bytes(key).lower() == b"mcp-session-id":
                answered = bytes(value).decode("latin-1")
                if owned and answered == requested:
                    continue  # bound already, and its expiry renewed by the owner read
                # an unverified owner (None) gives way to the first verified user
                await self.state.bind_owner(answered, uid)
